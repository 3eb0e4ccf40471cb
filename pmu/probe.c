#include "probe.h"
#include "../arch/hw.h"
#include "../lib/fmt.h"

#define PROBE_COUNT   0x2A5A5A5AULL	/* bit 31 clear: the legacy alias keeps it */
#define PROBE_EVTSEL  0x3CULL		/* core cycles, not enabled */
#define HINT "; the PMU advertises counters it does not implement (a hypervisor?). " \
	     "`bareperf selftest` checks each counter"

static void counter_label(int counter, char *buf, size_t len)
{
	if (counter_is_fixed(counter))
		bp_snprintf(buf, len, "fixed%u", counter_index(counter));
	else
		bp_snprintf(buf, len, "gp%u", counter_index(counter));
}

static int read_fault(int counter, const char *what, u32 msr, char *err, size_t errlen)
{
	char name[16];
	counter_label(counter, name, sizeof(name));
	bp_snprintf(err, errlen, "%s: reading %s (MSR 0x%x) faults although CPUID "
		    "advertises the counter" HINT, name, what, msr);
	return -1;
}

int pmu_probe_reads(const struct pmu_caps *c, char *err, size_t errlen)
{
	u64 v;
	for (unsigned i = 0; i < c->num_gp && i < PMU_MAX_GP; i++) {
		if (!caps_has_gp(c, i))
			continue;
		u32 evtsel = caps_gp_eventsel_msr(c, i), count = caps_gp_counter_msr(c, i);
		if (hw_rdmsr_safe(evtsel, &v))
			return read_fault(counter_gp(i), "its event select", evtsel, err, errlen);
		if (hw_rdmsr_safe(count, &v))
			return read_fault(counter_gp(i), "its count", count, err, errlen);
	}
	if (c->num_fixed && hw_rdmsr_safe(c->msr_fixed_ctr_ctrl, &v))
		return read_fault(counter_fixed(0), "IA32_FIXED_CTR_CTRL",
				  c->msr_fixed_ctr_ctrl, err, errlen);
	for (unsigned i = 0; i < c->num_fixed && i < PMU_MAX_FIXED; i++)
		if (caps_has_fixed(c, i) && hw_rdmsr_safe(caps_fixed_counter_msr(c, i), &v))
			return read_fault(counter_fixed(i), "its count",
					  caps_fixed_counter_msr(c, i), err, errlen);
	return 0;
}

static int not_kept(int counter, const char *what, u32 msr, u64 wrote, u64 got,
		    char *err, size_t errlen)
{
	char name[16];
	counter_label(counter, name, sizeof(name));
	bp_snprintf(err, errlen, "%s: %s (MSR 0x%x) does not keep what is written: wrote "
		    "0x%llx, read back 0x%llx" HINT, name, what, msr,
		    (unsigned long long)wrote, (unsigned long long)got);
	return -1;
}

/* Writes a value unlike the saved one, reads it back, puts the saved one
 * back; 0 when it was kept. */
static int probe_count(struct pmu *p, int counter, u64 saved, char *err, size_t errlen)
{
	const struct pmu_caps *c = &p->caps;
	u64 want = PROBE_COUNT & counter_mask(c, counter);
	if (want == saved)
		want ^= 1;
	counter_write(c, counter, want);
	u64 got = counter_read(c, counter) & counter_mask(c, counter);
	counter_write(c, counter, saved);
	if (got == want)
		return 0;
	return not_kept(counter, "its count", counter_write_msr(c, counter), want, got,
			err, errlen);
}

static int probe_evtsel(struct pmu *p, unsigned i, char *err, size_t errlen)
{
	u32 msr = caps_gp_eventsel_msr(&p->caps, i);
	u64 saved = p->saved.evtsel[i];
	u64 want = saved == PROBE_EVTSEL ? PROBE_EVTSEL | EVTSEL_USR : PROBE_EVTSEL;
	hw_wrmsr(msr, want);
	u64 got = hw_rdmsr(msr);
	hw_wrmsr(msr, saved);
	if (got == want)
		return 0;
	return not_kept(counter_gp(i), "its event select", msr, want, got, err, errlen);
}

int pmu_probe_writes(struct pmu *p, char *err, size_t errlen)
{
	const struct pmu_caps *c = &p->caps;
	for (unsigned i = 0; i < c->num_gp && i < PMU_MAX_GP; i++)
		if (caps_has_gp(c, i) && (probe_evtsel(p, i, err, errlen) ||
					  probe_count(p, counter_gp(i), p->saved.gp[i], err, errlen)))
			return -1;
	for (unsigned i = 0; i < c->num_fixed && i < PMU_MAX_FIXED; i++)
		if (caps_has_fixed(c, i) &&
		    probe_count(p, counter_fixed(i), p->saved.fixed[i], err, errlen))
			return -1;
	return 0;
}
