/* Architectural PEBS as a precise engine (pmu/precise.h): the buffer and
 * its drain (pebs/arch), the threshold policy large PEBS shares with the
 * DS engine (pebs/threshold), and the MSRs: IA32_PEBS_BASE, IA32_PEBS_INDEX
 * and each PEBS counter's CFG_C (arch/msr.h; Linux 6.19's
 * intel_pmu_enable_event_ext and intel_pmu_drain_arch_pebs). */
#include "pmu_int.h"
#include "precise.h"
#include "../arch/hw.h"
#include "../lib/fmt.h"

static u32 fields_of(const struct precise_event *ev, unsigned n)
{
	u32 fields = 0;
	for (unsigned i = 0; i < n; i++)
		fields |= ev[i].fields;
	return fields;
}

/* CPUID.23H.5: the counters that can write records. */
static unsigned pebs_capable_of(const struct pmu_caps *c)
{
	return (unsigned)__builtin_popcountll(c->arch_pebs_counters);
}

/* The reload value is CFG_C's 32 bits, read as -period. */
static bool periods_fit(const struct precise_event *ev, unsigned n, char *err, size_t errlen)
{
	for (unsigned i = 0; i < n; i++)
		if (ev[i].period > ARCH_PEBS_MAX_PERIOD) {
			bp_snprintf(err, errlen, "period %llu is too long for Architectural PEBS, "
				    "which reloads a counter from CFG_C's 32-bit reload value: at "
				    "most %llu", (unsigned long long)ev[i].period,
				    (unsigned long long)ARCH_PEBS_MAX_PERIOD);
			return false;
		}
	return true;
}

static size_t max_records_of(const struct arch_pebs_layout *l, const struct precise_opts *o)
{
	size_t bytes = o->buffer_bytes ? o->buffer_bytes : ARCH_PEBS_DEFAULT_BYTES;
	return bytes / l->record_bytes;
}

static bool apebs_check(const struct pmu_caps *c, const struct precise_event *ev, unsigned n,
			const struct precise_opts *o, char *err, size_t errlen)
{
	struct pebs_event_req reqs[PEBS_MAX_COUNTERS * 2];
	struct arch_pebs_layout layout;
	struct pebs_threshold_choice choice;
	if (!n || n > ARRAY_SIZE(reqs))
		return true;	/* nothing to check, or setup says why */
	if (!periods_fit(ev, n, err, errlen) || !arch_pebs_size_ok(o->buffer_bytes, err, errlen) ||
	    !arch_pebs_layout_for(&layout, fields_of(ev, n), c->arch_pebs_groups, err, errlen))
		return false;
	return pebs_threshold_choose(reqs, precise_pebs_reqs_of(ev, n, reqs), c->pebs_format,
				     max_records_of(&layout, o), pebs_capable_of(c), &o->threshold,
				     &choice, err, errlen);
}

static u32 cfg_c_msr(int counter)
{
	unsigned i = counter_index(counter);
	return counter_is_fixed(counter) ? msr_v6_fx_cfg_c(i) : msr_v6_gp_cfg_c(i);
}

/* Each PEBS counter's CFG_C: saved as found, then EN, groups, reload. */
static int add_counters(struct precise *pr, const struct precise_event *ev, unsigned n,
			char *err, size_t errlen)
{
	for (unsigned i = 0; i < n; i++) {
		struct pebs_counter pc = { .counter = ev[i].counter, .event = ev[i].sample_event,
					   .period = ev[i].period,
					   .mem = precise_pebs_mem_kind(ev[i].ev) };
		if (!pebs_ctx_add(&pr->apebs.ctx, &pc, err, errlen))
			return -1;
		u32 msr = cfg_c_msr(ev[i].counter);
		if (hw_rdmsr_safe(msr, &pr->apebs.saved_cfg_c[ev[i].counter])) {
			bp_snprintf(err, errlen, "the CFG_C of counter %d (MSR 0x%x) cannot be read",
				    ev[i].counter, msr);
			return -1;
		}
		pr->apebs.cfg_c_taken |= BIT(ev[i].counter);
		hw_wrmsr(msr, arch_pebs_cfg_c(&pr->apebs.buf.layout, ev[i].period));
	}
	pr->counters = pr->apebs.ctx.enabled;
	return 0;
}

/* IA32_PEBS_BASE and IA32_PEBS_INDEX, saved as found, then ours. */
static int take_buffer(struct precise *pr, char *err, size_t errlen)
{
	if (hw_rdmsr_safe(MSR_IA32_PEBS_BASE, &pr->apebs.saved_base) ||
	    hw_rdmsr_safe(MSR_IA32_PEBS_INDEX, &pr->apebs.saved_index)) {
		bp_snprintf(err, errlen, "IA32_PEBS_BASE or IA32_PEBS_INDEX cannot be read");
		return -1;
	}
	pr->apebs.base_taken = true;
	hw_wrmsr(MSR_IA32_PEBS_BASE, pr->apebs.buf.base_msr);
	hw_wrmsr(MSR_IA32_PEBS_INDEX, arch_pebs_index_armed(&pr->apebs.buf));
	return 0;
}

static int apebs_setup(struct precise *pr, struct pmu *p, const struct precise_event *ev,
		       unsigned n, const struct precise_opts *o, char *err, size_t errlen)
{
	const struct pmu_caps *c = &p->caps;
	struct pebs_event_req reqs[PEBS_MAX_COUNTERS * 2];
	struct arch_pebs_layout layout;
	if (n > ARRAY_SIZE(reqs)) {
		bp_snprintf(err, errlen, "too many PEBS events: at most %u", (unsigned)ARRAY_SIZE(reqs));
		return -1;
	}
	if (!periods_fit(ev, n, err, errlen) ||
	    !arch_pebs_layout_for(&layout, fields_of(ev, n), c->arch_pebs_groups, err, errlen) ||
	    !arch_pebs_buf_init(&pr->apebs.buf, o->buffer_bytes, &layout, err, errlen))
		return -1;
	pr->ready = true;
	pr->apebs.cfg_c_taken = 0;
	pr->apebs.base_taken = false;
	pr->apebs.loss = (struct pebs_loss){ 0 };
	pebs_ctx_init(&pr->apebs.ctx, NULL, precise_pebs_dse_family(c), o->cpu);
	if (!pebs_threshold_choose(reqs, precise_pebs_reqs_of(ev, n, reqs), c->pebs_format,
				   pr->apebs.buf.max_records, pebs_capable_of(c), &o->threshold,
				   &pr->apebs.threshold, err, errlen))
		return -1;
	arch_pebs_buf_set_threshold(&pr->apebs.buf, pr->apebs.threshold.records);
	if (take_buffer(pr, err, errlen))
		return -1;
	return add_counters(pr, ev, n, err, errlen);
}

/* Linux's order: read INDEX, write it back re-armed (WR 0, FULL 0), then
 * walk what it said; records written meanwhile start the new buffer. */
static bool apebs_drain(struct precise *pr, struct sample_ring *ring, bool throttled)
{
	u64 full_before = pr->apebs.loss.buffer_was_full;
	u64 index = hw_rdmsr(MSR_IA32_PEBS_INDEX);
	hw_wrmsr(MSR_IA32_PEBS_INDEX, arch_pebs_index_armed(&pr->apebs.buf));
	pr->apebs.ctx.throttled = throttled;
	arch_pebs_drain(&pr->apebs.ctx, &pr->apebs.buf, index, ring, &pr->apebs.loss);
	return pr->apebs.loss.buffer_was_full != full_before;
}

static bool apebs_still_ours(const struct precise *pr, u64 *found)
{
	if (hw_rdmsr_safe(MSR_IA32_PEBS_BASE, found))
		*found = 0;
	return *found == pr->apebs.buf.base_msr;
}

static u64 apebs_ours(const struct precise *pr) { return pr->apebs.buf.base_msr; }

static u64 apebs_lost(const struct precise *pr) { return pebs_loss_lost_total(&pr->apebs.loss); }

static u64 apebs_pending(const struct precise *pr)
{
	return pr->ready ? arch_pebs_pending(&pr->apebs.buf) : 0;
}

static int apebs_describe(const struct precise *pr, char *buf, size_t len)
{
	return pebs_threshold_explain(&pr->apebs.threshold, buf, len);
}

static int apebs_describe_loss(const struct precise *pr, char *buf, size_t len)
{
	return pebs_loss_describe(&pr->apebs.loss, buf, len);
}

/* The counters' CFG_C first (no record is written once EN is off), then
 * the buffer's registers, each as found. */
static void apebs_teardown(struct precise *pr)
{
	if (!pr->ready)
		return;
	for (u64 m = pr->apebs.cfg_c_taken; m; m &= m - 1) {
		int counter = __builtin_ctzll(m);
		hw_wrmsr(cfg_c_msr(counter), pr->apebs.saved_cfg_c[counter]);
	}
	if (pr->apebs.base_taken) {
		hw_wrmsr(MSR_IA32_PEBS_INDEX, pr->apebs.saved_index);
		hw_wrmsr(MSR_IA32_PEBS_BASE, pr->apebs.saved_base);
	}
	arch_pebs_buf_free(&pr->apebs.buf);
	pr->apebs.cfg_c_taken = 0;
	pr->apebs.base_taken = false;
	pr->ready = false;
}

const struct precise_ops precise_arch_pebs = {
	.name = "Architectural PEBS",
	.column = "PEBS",
	.multi_record = true,
	.missing = caps_arch_pebs_missing,
	.check = apebs_check,
	.setup = apebs_setup,
	.drain = apebs_drain,
	.still_ours = apebs_still_ours,
	.base_reg = "IA32_PEBS_BASE",
	.ours = apebs_ours,
	.lost = apebs_lost,
	.pending = apebs_pending,
	.describe = apebs_describe,
	.describe_loss = apebs_describe_loss,
	.teardown = apebs_teardown,
};
