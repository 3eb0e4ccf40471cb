/* Self-test checks where PEBS is Architectural PEBS (PEBS_FORMAT 0xF; the
 * registers and record in arch/msr.h, after Intel's ISE manual and Linux
 * 6.19's arch-PEBS support): a record of the groups asked for, one PMI at
 * IA32_PEBS_INDEX.THRESH with GLOBAL_STATUS bit 54, and the reload from
 * CFG_C. The same trial as the DS checks (selftest_pebs.c): GP0 counts
 * instructions retired with PEBS, no INT; every register is journalled. */
#include "selftest_int.h"

struct apebs_trial {
	u64 records_threshold;
	bool came;		/* the threshold PMI arrived */
	u64 used;		/* bytes below WR after the wait */
};

static bool threshold_reached(void *ctx)
{
	const struct st *x = ctx;
	u64 index = 0;
	hw_rdmsr_safe(MSR_IA32_PEBS_INDEX, &index);
	u64 wr = (index & ARCH_PEBS_INDEX_WR_MASK) >> ARCH_PEBS_INDEX_WR_SHIFT;
	return selftest_pmi.calls > 0 || wr >= x->apebs.thresh_units;
}

static bool supported(struct st *x)
{
	if (caps_has_gp(x->caps, 0) && (x->caps->arch_pebs_counters & BIT(0)))
		return true;
	st_verdict(x, SELFTEST_SKIP, "Architectural PEBS: GP0 is not PEBS-capable (CPUID.23H.5)");
	return false;
}

/* The buffer (the smallest, 4 KiB: records of the basic group only),
 * IA32_PEBS_BASE, IA32_PEBS_INDEX armed, GP0's CFG_C with the reload,
 * freeze on PMI so that records stop at the threshold. */
static bool prepare(struct st *x, u64 threshold)
{
	char err[200];
	struct arch_pebs_layout l;
	u64 debugctl;
	if (!arch_pebs_layout_for(&l, 0, x->caps->arch_pebs_groups, err, sizeof(err)) ||
	    !arch_pebs_buf_init(&x->apebs, ARCH_PEBS_MIN_BYTES, &l, err, sizeof(err)))
		return st_fail(x, "%s", err);
	x->apebs_allocated = true;
	arch_pebs_buf_set_threshold(&x->apebs, threshold);
	if (!st_wr(x, MSR_IA32_PEBS_BASE, x->apebs.base_msr) ||
	    !st_wr(x, MSR_IA32_PEBS_INDEX, arch_pebs_index_armed(&x->apebs)) ||
	    !st_wr(x, msr_v6_gp_cfg_c(0), arch_pebs_cfg_c(&l, PEBS_RELOAD)) ||
	    !st_rd(x, MSR_IA32_DEBUGCTL, &debugctl))
		return false;
	x->frozen_on_pmi = st_wr_probe(x, MSR_IA32_DEBUGCTL,
				    debugctl | DEBUGCTL_FREEZE_PERFMON_ON_PMI) == 0;
	return true;
}

static bool run_trial(struct st *x, struct apebs_trial *t)
{
	const struct pmu_caps *c = x->caps;
	int counter = counter_gp(0);
	if (!supported(x) || !st_wr(x, c->msr_global_ctrl, 0) ||
	    !st_wr(x, caps_gp_eventsel_msr(c, 0), 0) ||
	    !st_status_bit_clears(x, GLOBAL_STATUS_ARCH_PEBS_THRESHOLD, "bit 54 (PEBS threshold)") ||
	    !st_status_bit_clears(x, BIT(counter), "counter bit") ||
	    !prepare(x, t->records_threshold) || !st_pmi_arm(x, NULL))
		return false;
	selftest_pmi.arch_index = true;
	if (!st_wr_counter(x, counter, counter_preset(c, counter, PEBS_PERIOD)) ||
	    !st_wr(x, caps_gp_eventsel_msr(c, 0), st_evtsel_for(ARCH_CODE_INST_RETIRED)) ||
	    !st_wr(x, c->msr_global_ctrl, global_gp_bit(0)))
		return false;
	st_spin_until(threshold_reached, x, SELFTEST_WAIT_MS);
	st_check_owned(x, global_gp_bit(0), ~0ULL);	/* no IA32_PEBS_ENABLE here */
	u64 index = 0;
	if (!st_wr(x, c->msr_global_ctrl, 0) || !st_rd(x, MSR_IA32_PEBS_INDEX, &index))
		return false;
	t->came = selftest_pmi.calls > 0;
	t->used = (index & ARCH_PEBS_INDEX_WR_MASK) >> ARCH_PEBS_INDEX_WR_SHIFT << ARCH_PEBS_UNIT_SHIFT;
	if (t->used)
		return true;
	u64 status = 0;
	st_rd(x, c->msr_global_status, &status);
	return st_fail(x, "no Architectural PEBS record in %u ms (GP0 instructions retired, "
		       "period %u; IA32_PEBS_INDEX 0x%llx, GLOBAL_STATUS 0x%llx)", SELFTEST_WAIT_MS,
		       PEBS_PERIOD, (unsigned long long)index, (unsigned long long)status);
}

/* Every record below WR: one fragment of the layout's size with the
 * basic group, for GP0 alone, at a non-zero IP. */
static bool records_sane(struct st *x, u64 used, u64 expect_records)
{
	u32 size = x->apebs.layout.record_bytes;
	if (used % size)
		return st_fail(x, "IA32_PEBS_INDEX.WR advanced by %llu bytes: not whole %u-byte "
			       "records", (unsigned long long)used, size);
	if (expect_records && used / size != expect_records)
		return st_fail(x, "%llu records written; expected %llu with the counters frozen "
			       "at the threshold PMI", (unsigned long long)(used / size),
			       (unsigned long long)expect_records);
	for (u64 n = 0; n < used / size && n < PEBS_WALK_MAX; n++) {
		const u8 *rec = x->apebs.buffer + n * size;
		u64 hdr = pebs_rec_u64(rec, 0);
		u64 applicable = pebs_rec_u64(rec, ARCH_PEBS_HEADER_BYTES + ARCH_PEBS_BASIC_APPLICABLE);
		u64 ip = pebs_rec_u64(rec, ARCH_PEBS_HEADER_BYTES + ARCH_PEBS_BASIC_IP);
		if ((hdr & ARCH_PEBS_HDR_SIZE_MASK) != size || !(hdr & ARCH_PEBS_HDR_BASIC) ||
		    (hdr & ARCH_PEBS_HDR_CONT))
			return st_fail(x, "record %llu: header 0x%llx, expected one %u-byte fragment "
				       "with the basic group", (unsigned long long)n,
				       (unsigned long long)hdr, size);
		if (applicable != BIT(0))
			return st_fail(x, "record %llu: applicable counters 0x%llx, expected 0x1 (GP0)",
				       (unsigned long long)n, (unsigned long long)applicable);
		if (!ip)
			return st_fail(x, "record %llu: IP 0", (unsigned long long)n);
	}
	return true;
}

void st_apebs_record(struct st *x)
{
	struct apebs_trial t = { .records_threshold = 1 };
	if (!run_trial(x, &t) || !records_sane(x, t.used, x->frozen_on_pmi ? 1 : 0))
		return;
	st_verdict(x, SELFTEST_PASS, "Architectural PEBS: %llu record(s) of %u bytes (header and "
		   "basic group); IP 0x%llx", (unsigned long long)(t.used / x->apebs.layout.record_bytes),
		   x->apebs.layout.record_bytes,
		   (unsigned long long)pebs_rec_u64(x->apebs.buffer,
						    ARCH_PEBS_HEADER_BYTES + ARCH_PEBS_BASIC_IP));
}

void st_apebs_threshold(struct st *x)
{
	struct apebs_trial t = { .records_threshold = PEBS_THRESHOLD_RECORDS };
	if (!run_trial(x, &t))
		return;
	u32 size = x->apebs.layout.record_bytes;
	u64 wr_at_pmi = (selftest_pmi.pebs_index & ARCH_PEBS_INDEX_WR_MASK) >> ARCH_PEBS_INDEX_WR_SHIFT;
	u64 at_pmi = (wr_at_pmi << ARCH_PEBS_UNIT_SHIFT) / size;
	if (!t.came)
		st_fail(x, "%llu records written, threshold %u, but no PMI in %u ms",
			(unsigned long long)(t.used / size), PEBS_THRESHOLD_RECORDS, SELFTEST_WAIT_MS);
	else if (at_pmi < PEBS_THRESHOLD_RECORDS)
		st_fail(x, "a PMI after %llu record(s); the threshold was %u records",
			(unsigned long long)at_pmi, PEBS_THRESHOLD_RECORDS);
	else if (!(selftest_pmi.status & GLOBAL_STATUS_ARCH_PEBS_THRESHOLD))
		st_fail(x, "the threshold PMI came with GLOBAL_STATUS 0x%llx: bit 54 clear",
			(unsigned long long)selftest_pmi.status);
	else if (selftest_pmi.calls != 1)
		st_fail(x, "%u PMIs for one buffer", selftest_pmi.calls);
	else if (records_sane(x, t.used, 0))
		st_verdict(x, SELFTEST_PASS, "Architectural PEBS: %llu records, then one PMI with "
			   "GLOBAL_STATUS bit 54 (THRESH %u records)", (unsigned long long)at_pmi,
			   PEBS_THRESHOLD_RECORDS);
}

/* After a record the counter restarts from CFG_C[31:0] read as a negative
 * 32-bit number (-PEBS_RELOAD): fewer than PEBS_RELOAD events can have
 * followed, or a second record would have been written. */
void st_apebs_auto_reload(struct st *x)
{
	struct apebs_trial t = { .records_threshold = 1 };
	u64 value;
	if (!run_trial(x, &t) || !st_rd_counter(x, counter_gp(0), &value))
		return;
	u64 mask = caps_gp_mask_value(x->caps);
	u64 reload = (u64)-(s64)PEBS_RELOAD & mask;
	u64 since = (value - reload) & mask;
	if (since < PEBS_RELOAD)
		st_verdict(x, SELFTEST_PASS, "Architectural PEBS: after the record GP0 = CFG_C's "
			   "reload 0x%llx + %llu events", (unsigned long long)reload,
			   (unsigned long long)since);
	else
		st_fail(x, "after the record GP0 = 0x%llx, not CFG_C's reload 0x%llx plus fewer than "
			"%u events: no reload", (unsigned long long)value, (unsigned long long)reload,
			PEBS_RELOAD);
}
