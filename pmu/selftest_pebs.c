/* Self-test checks: PEBS records of the advertised format, one PMI at the
 * interrupt threshold, auto-reload (see selftest.h). */
#include "selftest_int.h"

/* ---- PEBS checks ------------------------------------------------------------------------ */

static bool pebs_supported(struct st *x)
{
	const struct pmu_caps *c = x->caps;
	const char *why = NULL;
	if (x->arch->no_pebs)
		why = x->arch->no_pebs;
	else if (!c->ds)
		why = "no Debug Store (CPUID.01H:EDX.DS = 0)";
	else if (!c->pdcm)
		why = "no IA32_PERF_CAPABILITIES (CPUID.01H:ECX.PDCM = 0): record format unknown";
	else if (!c->misc_enable_readable)
		why = "IA32_MISC_ENABLE cannot be read";
	else if (c->misc_enable & MISC_ENABLE_PEBS_UNAVAILABLE)
		why = "PEBS unavailable (IA32_MISC_ENABLE[12] = 1)";
	else if (!caps_has_ds_pebs(c) || !caps_has_gp(c, 0))
		why = "no PEBS on this CPU";
	if (why)
		st_verdict(x, SELFTEST_SKIP, "%s", why);
	return !why;
}

/* The format's layout; with baseline, memory info and GPRs too, so the
 * size of a record with groups is checked. */
static bool pebs_layout(struct st *x, struct pebs_layout *l)
{
	char err[128];
	u64 cfg = x->caps->pebs_baseline ? PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP : 0;
	if (pebs_layout_init(l, x->caps->pebs_format, cfg, err, sizeof(err)))
		return true;
	st_verdict(x, SELFTEST_SKIP, "%s", err);
	return false;
}

struct pebs_trial {
	u64 records_threshold;	/* interrupt threshold, in records */
	bool came;		/* the threshold PMI arrived */
	u64 used;		/* bytes between base and index after the wait */
};

static bool threshold_reached(void *ctx)
{
	const struct st *x = ctx;
	const volatile struct ds_area *a = x->ds.area;
	return selftest_pmi.calls > 0 || a->pebs_index >= a->pebs_interrupt_threshold;
}

/* DS area, PEBS_DATA_CFG, freeze on PMI: the counters stop when the
 * threshold PMI is raised, so records stop at the threshold. */
static bool pebs_prepare(struct st *x, const struct pebs_layout *l, u64 threshold)
{
	char err[160];
	u64 debugctl;
	if (!pebs_ds_init(&x->ds, l, 0, err, sizeof(err)))
		return st_fail(x, "%s", err);
	x->ds_allocated = true;
	pebs_ds_set_threshold(&x->ds, threshold);
	if (!pebs_ds_set_period(&x->ds, counter_gp(0), PEBS_RELOAD, x->caps->gp_width))
		return st_fail(x, "internal: no DS reset slot for GP0");
	if (!st_wr(x, MSR_IA32_DS_AREA, (u64)(uintptr_t)x->ds.area) ||
	    (l->adaptive && !st_wr(x, MSR_PEBS_DATA_CFG, l->data_cfg)) ||
	    !st_rd(x, MSR_IA32_DEBUGCTL, &debugctl))
		return false;
	x->frozen_on_pmi = st_wr_probe(x, MSR_IA32_DEBUGCTL,
				    debugctl | DEBUGCTL_FREEZE_PERFMON_ON_PMI) == 0;
	return true;
}

/* PEBS on GP0 counting instructions retired, PEBS_PERIOD to the first
 * record, PEBS_RELOAD between the next ones; no INT: PEBS reports through
 * the buffer. Waits for the threshold. */
static bool run_pebs_trial(struct st *x, const struct pebs_layout *l, struct pebs_trial *t)
{
	int counter = counter_gp(0);
	u64 evtsel = st_evtsel_for(ARCH_CODE_INST_RETIRED) |
		     (l->adaptive ? EVTSEL_ADAPTIVE_RECORD : 0);
	const struct pmu_caps *c = x->caps;
	if (!st_wr(x, c->msr_global_ctrl, 0) || !st_wr(x, caps_gp_eventsel_msr(c, 0), 0) ||
	    !st_status_bit_clears(x, GLOBAL_STATUS_OVF_BUFFER, "bit 62 (DS buffer)") ||
	    !st_status_bit_clears(x, BIT(counter), "counter bit") ||
	    !pebs_prepare(x, l, t->records_threshold) || !st_pmi_arm(x, x->ds.area))
		return false;
	if (!st_wr_counter(x, counter, counter_preset(c, counter, PEBS_PERIOD)) ||
	    !st_wr(x, caps_gp_eventsel_msr(c, 0), evtsel) ||
	    !st_wr(x, MSR_IA32_PEBS_ENABLE, pebs_enable_gp_bit(0)) ||
	    !st_wr(x, c->msr_global_ctrl, global_gp_bit(0)))
		return false;
	st_spin_until(threshold_reached, x, SELFTEST_WAIT_MS);
	st_check_owned(x, global_gp_bit(0), pebs_enable_gp_bit(0));
	if (!st_wr(x, c->msr_global_ctrl, 0))
		return false;
	t->came = selftest_pmi.calls > 0;
	t->used = ((const volatile struct ds_area *)x->ds.area)->pebs_index - x->ds.base;
	if (t->used)
		return true;
	u64 status = 0;
	st_rd(x, c->msr_global_status, &status);
	return st_fail(x, "no PEBS record in %u ms (GP0 instructions retired, period %u; "
		       "GLOBAL_STATUS 0x%llx)", SELFTEST_WAIT_MS, PEBS_PERIOD, (unsigned long long)status);
}

static bool record_sane(struct st *x, const struct pebs_layout *l, const u8 *rec, u64 n)
{
	struct bp_sample s;
	if (l->adaptive && pebs_record_stated_size(rec) != l->record_size)
		return st_fail(x, "record %llu states %u bytes; format %u with PEBS_DATA_CFG 0x%llx "
			       "is %u bytes", (unsigned long long)n, pebs_record_stated_size(rec),
			       l->format, (unsigned long long)l->data_cfg, l->record_size);
	/* Formats 3+ report exactly the counters the record is for; 1 and 2
	 * store GLOBAL_STATUS as it is (Linux copes with bit 0 missing). */
	u64 applicable = pebs_record_applicable(l, rec);
	if (l->format >= 3 && applicable != pebs_enable_gp_bit(0))
		return st_fail(x, "record %llu: applicable counters 0x%llx, expected 0x1 (GP0)",
			       (unsigned long long)n, (unsigned long long)applicable);
	bp_memset(&s, 0, sizeof(s));
	pebs_record_decode(l, rec, PEBS_MEM_NONE, PEBS_DSE_SNB, &s);
	if (s.ip == 0)
		return st_fail(x, "record %llu: IP 0", (unsigned long long)n);
	return true;
}

/* The index advanced by whole records of the format's size, each sane. */
static bool records_sane(struct st *x, const struct pebs_layout *l, u64 used, u64 expect_records)
{
	u32 size = l->record_size;
	if (used % size != 0)
		return st_fail(x, "PEBS index advanced by %llu bytes: not a whole number of "
			       "%u-byte format-%u records", (unsigned long long)used, size, l->format);
	if (expect_records && used / size != expect_records)
		return st_fail(x, "PEBS index advanced by %llu records (%llu bytes); expected %llu "
			       "with the counters frozen at the threshold PMI",
			       (unsigned long long)(used / size), (unsigned long long)used,
			       (unsigned long long)expect_records);
	for (u64 n = 0; n < used / size && n < PEBS_WALK_MAX; n++)
		if (!record_sane(x, l, x->ds.buffer + n * size, n))
			return false;
	return true;
}

void st_check_pebs_record(struct st *x)
{
	if (caps_has_arch_pebs(x->caps)) {
		st_apebs_record(x);
		return;
	}
	struct pebs_layout l;
	struct pebs_trial t = { .records_threshold = 1 };
	if (!pebs_supported(x) || !pebs_layout(x, &l) || !run_pebs_trial(x, &l, &t) ||
	    !records_sane(x, &l, t.used, x->frozen_on_pmi ? 1 : 0))
		return;
	struct bp_sample s;
	bp_memset(&s, 0, sizeof(s));
	pebs_record_decode(&l, x->ds.buffer, PEBS_MEM_NONE, PEBS_DSE_SNB, &s);
	st_verdict(x, SELFTEST_PASS, "%llu record(s) of %u bytes, format %u%s; IP 0x%llx",
		   (unsigned long long)(t.used / l.record_size), l.record_size, l.format,
		   l.adaptive ? " with memory info and GPRs" : "", (unsigned long long)s.ip);
}

void st_check_pebs_threshold(struct st *x)
{
	if (caps_has_arch_pebs(x->caps)) {
		st_apebs_threshold(x);
		return;
	}
	struct pebs_layout l;
	struct pebs_trial t = { .records_threshold = PEBS_THRESHOLD_RECORDS };
	if (!pebs_supported(x) || !pebs_layout(x, &l) || !run_pebs_trial(x, &l, &t))
		return;
	u64 at_pmi = (selftest_pmi.pebs_index - x->ds.base) / l.record_size;
	if (!t.came)
		st_fail(x, "%llu records written, threshold %u, but no PMI in %u ms",
		        (unsigned long long)(t.used / l.record_size), PEBS_THRESHOLD_RECORDS,
		        SELFTEST_WAIT_MS);
	else if (at_pmi < PEBS_THRESHOLD_RECORDS)
		st_fail(x, "a PMI after %llu record(s); the threshold was %u records",
		        (unsigned long long)at_pmi, PEBS_THRESHOLD_RECORDS);
	else if (!(selftest_pmi.status & GLOBAL_STATUS_OVF_BUFFER))
		st_fail(x, "the threshold PMI came with GLOBAL_STATUS 0x%llx: bit 62 clear",
		        (unsigned long long)selftest_pmi.status);
	else if (selftest_pmi.calls != 1)
		st_fail(x, "%u PMIs for one buffer", selftest_pmi.calls);
	else if (records_sane(x, &l, t.used, 0))
		st_verdict(x, SELFTEST_PASS, "%llu records, then one PMI with GLOBAL_STATUS bit 62 "
			   "(threshold %u records)", (unsigned long long)at_pmi, PEBS_THRESHOLD_RECORDS);
}

void st_check_auto_reload(struct st *x)
{
	if (caps_has_arch_pebs(x->caps)) {
		st_apebs_auto_reload(x);
		return;
	}
	struct pebs_layout l;
	struct pebs_trial t = { .records_threshold = 1 };
	u64 value;
	if (!pebs_supported(x) || !pebs_layout(x, &l) || !run_pebs_trial(x, &l, &t) ||
	    !st_rd_counter(x, counter_gp(0), &value))
		return;
	u64 mask = caps_gp_mask_value(x->caps);
	u64 reset = x->ds.area->pebs_counter_reset[pebs_ds_reset_slot(l.format, counter_gp(0))];
	u64 since = (value - reset) & mask;
	/* SDM 20.6.2.4: after the record the counter restarts from its DS
	 * reset value; fewer than PEBS_RELOAD events can have followed, or a
	 * second record would have been written. */
	if (since < PEBS_RELOAD)
		st_verdict(x, SELFTEST_PASS, "after the record GP0 = reset value 0x%llx + %llu events",
			   (unsigned long long)reset, (unsigned long long)since);
	else
		st_fail(x, "after the record GP0 = 0x%llx, not the DS reset value 0x%llx plus fewer "
		        "than %u events: no auto-reload", (unsigned long long)value,
		        (unsigned long long)reset, PEBS_RELOAD);
}
