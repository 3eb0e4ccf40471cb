/* Self-test checks: every counter counts; writes and widths (see
 * selftest.h). */
#include "selftest_int.h"

/* ---- check: every counter counts ------------------------------------------------ */

static const char *fixed_event_name(unsigned i)
{
	static const char *const names[] = { "instructions", "core cycles", "reference cycles",
					     "topdown slots", "bad-speculation slots",
					     "frontend-bound slots", "retiring slots" };
	return i < ARRAY_SIZE(names) ? names[i] : "events";
}

/* Slots lost to bad speculation or a starved front end: none is right
 * for the check's loop (its branches predicted, its code in the uop
 * cache), so zero is no sign of a dead counter there. */
static bool may_count_zero(int counter)
{
	unsigned i = counter_index(counter);
	return counter_is_fixed(counter) &&
	       (i == FIXED_TOPDOWN_BAD_SPECULATION || i == FIXED_TOPDOWN_FE_BOUND);
}

/* A count is plausible between 1 event per microsecond (any CPU of this
 * century, even a busy VM's) and 64 per nanosecond (8 topdown slots per
 * cycle at 8 GHz). */
#define PLAUSIBLE_MIN_PER_US 1
#define PLAUSIBLE_MAX_PER_US 64000

static bool judge_count(struct st *x, int counter, u64 count, u64 us)
{
	bool fixed = counter_is_fixed(counter);
	unsigned i = counter_index(counter);
	const char *what = fixed ? fixed_event_name(i) : "core cycles";
	if (may_count_zero(counter) && count <= us * PLAUSIBLE_MAX_PER_US)
		return true;
	if (count == 0)
		return st_fail(x, "%s%u counted no %s in %llu us (dead counter?)", fixed ? "fixed" : "GP",
			       i, what, (unsigned long long)us);
	if (count < us * PLAUSIBLE_MIN_PER_US || count > us * PLAUSIBLE_MAX_PER_US)
		return st_fail(x, "%s%u counted %llu %s in %llu us: implausible (expected %u to %u per us)",
			       fixed ? "fixed" : "GP", i, (unsigned long long)count, what,
			       (unsigned long long)us, PLAUSIBLE_MIN_PER_US, PLAUSIBLE_MAX_PER_US);
	return true;
}

static bool program_all_counters(struct st *x, u64 *enable)
{
	const struct pmu_caps *c = x->caps;
	u64 fixed_ctrl = 0;
	for (unsigned i = 0; i < c->num_gp; i++) {
		if (!caps_has_gp(c, i))
			continue;
		u32 evtsel = caps_gp_eventsel_msr(c, i);
		if (!st_wr(x, evtsel, 0) || !st_wr_counter(x, counter_gp(i), 0) ||
		    !st_wr(x, evtsel, st_cycles_evtsel(x)))
			return false;
		*enable |= global_gp_bit(i);
	}
	for (unsigned i = 0; i < c->num_fixed; i++) {
		if (!caps_has_fixed(c, i))
			continue;
		if (!st_wr_counter(x, counter_fixed(i), 0))
			return false;
		fixed_ctrl |= fixed_ctrl_field(i, FIXED_CTRL_OS | FIXED_CTRL_USR);
		*enable |= global_fixed_bit(i);
	}
	return !c->num_fixed || st_wr(x, c->msr_fixed_ctr_ctrl, fixed_ctrl);
}

/* A global enable that keeps its own value (firmware, SMM, a BMC or a
 * hypervisor holds the PMU) leaves counters off whatever they are: that,
 * not a dead counter, is the reason to give. */
static bool global_enable_took(struct st *x, u64 wrote)
{
	const struct pmu_caps *c = x->caps;
	char name[40];
	u64 found;
	if (!caps_has_global_ctrl(c))
		return true;
	if (!st_rd(x, c->msr_global_ctrl, &found))
		return false;
	if ((found & wrote) == wrote)
		return true;
	return st_fail(x, "%s reads 0x%llx after selftest wrote 0x%llx: something else holds the PMU "
		       "(firmware, SMM, a BMC or a hypervisor): counters 0x%llx did not start",
		       st_msr_name(x, c->msr_global_ctrl, name, sizeof(name)), (unsigned long long)found,
		       (unsigned long long)wrote, (unsigned long long)(wrote & ~found));
}

void st_check_counters(struct st *x)
{
	u64 enable = 0, first_count = 0;
	if (!st_enable(x, 0) || !program_all_counters(x, &enable))
		return;
	u64 t0 = plat_ticks();
	if (!st_enable(x, enable) || !global_enable_took(x, enable))
		return;
	st_spin_until(NULL, NULL, SELFTEST_BUSY_MS);
	if (!st_enable(x, 0))
		return;
	u64 us = st_ticks_to_us(plat_ticks() - t0);
	int first = COUNTER_NONE;
	for (u64 bits = enable; bits; bits &= bits - 1) {
		int counter = __builtin_ctzll(bits);
		u64 count;
		if (!st_rd_counter(x, counter, &count) || !judge_count(x, counter, count, us))
			return;
		if (first == COUNTER_NONE) {
			first = counter;
			first_count = count;
		}
	}
	st_verdict(x, SELFTEST_PASS, "%u GP + %u fixed counted over %llu us (GP%u: %llu core cycles)",
		   (unsigned)__builtin_popcountll(enable & GENMASK(31, 0)),
		   (unsigned)__builtin_popcountll(enable >> GLOBAL_FIXED_SHIFT),
		   (unsigned long long)us, counter_index(first), (unsigned long long)first_count);
}

/* ---- check: writes and widths ------------------------------------------------------ */

static bool expect_readback(struct st *x, int counter, u32 wrote_msr, u64 wrote, u64 want)
{
	char name[32];
	u64 got;
	if (!st_rd_counter(x, counter, &got))
		return false;
	if (got == want)
		return true;
	return st_fail(x, "%s: wrote 0x%llx, read back 0x%llx, expected 0x%llx",
		       st_msr_name(x, wrote_msr, name, sizeof(name)), (unsigned long long)wrote,
		       (unsigned long long)got, (unsigned long long)want);
}

static bool check_legacy_alias(struct st *x, unsigned i)
{
	u64 mask = caps_gp_mask_value(x->caps);
	u32 msr = msr_pmc(i);
	static const u64 patterns[] = { 0x12345678, 0xDEADBEEF };
	for (unsigned k = 0; k < ARRAY_SIZE(patterns); k++)
		if (!st_wr(x, msr, patterns[k]) ||
		    !expect_readback(x, counter_gp(i), msr, patterns[k], st_legacy_value(patterns[k], mask)))
			return false;
	/* A value beyond the width: refused, or cut to bits 31:0 sign-extended. */
	u64 beyond = BIT(x->caps->gp_width) | 0x76543210;
	if (x->caps->gp_width >= 64 || st_wr_probe(x, msr, beyond) != 0)
		return true;
	return expect_readback(x, counter_gp(i), msr, beyond, st_legacy_value(beyond, mask));
}

/* SDM 20.2.6: IA32_A_PMCx writes the full width; bits beyond it #GP. So
 * does perfmon v6's IA32_PMC_GPn_CTR. */
static bool check_full_width(struct st *x, unsigned i, u32 msr)
{
	u64 mask = caps_gp_mask_value(x->caps);
	u64 pattern = 0x5A5A12345678ull & mask;	/* bit 31 clear, bits above it set */
	char name[32];
	if (!st_wr(x, msr, pattern) || !expect_readback(x, counter_gp(i), msr, pattern, pattern))
		return false;
	if (x->caps->gp_width >= 64)
		return true;
	u64 beyond = BIT(x->caps->gp_width);
	if (st_wr_probe(x, msr, beyond) != 0)
		return true;
	return st_fail(x, "%s accepted 0x%llx, beyond the %u-bit width (SDM: #GP)",
		       st_msr_name(x, msr, name, sizeof(name)), (unsigned long long)beyond,
		       x->caps->gp_width);
}

/* A counter written whole: a pattern of the width with bit 31 set too
 * reads back as written (no sign extension); a value beyond the width is
 * refused or cut to the width, never kept. Intel's fixed counters, AMD's
 * PERF_CTRn (APM Vol. 2, "PERF_CTRn": 48 bits). */
static bool check_whole_width(struct st *x, int counter, u32 msr, unsigned width)
{
	u64 mask = width >= 64 ? ~0ULL : GENMASK(width - 1, 0);
	static const u64 patterns[] = { 0x5A5A12345678ull, 0x0000DEADBEEFull };
	for (unsigned k = 0; k < ARRAY_SIZE(patterns); k++) {
		u64 pattern = patterns[k] & mask;
		if (!st_wr(x, msr, pattern) || !expect_readback(x, counter, msr, pattern, pattern))
			return false;
	}
	if (width >= 64)
		return true;
	u64 beyond = BIT(width) | 0x1234;
	if (st_wr_probe(x, msr, beyond) != 0)
		return true;
	return expect_readback(x, counter, msr, beyond, beyond & mask);
}

/* Intel: the legacy alias IA32_PMCx, and IA32_A_PMCx where there are
 * full-width writes, for the counters the legacy blocks name; perfmon
 * v6's IA32_PMC_GPn_CTR for every counter. */
bool st_intel_gp_width(struct st *x, unsigned i)
{
	bool legacy = i < MSR_LEGACY_GP_MAX;
	if (legacy && !check_legacy_alias(x, i))
		return false;
	if (legacy && x->caps->full_width_write && !check_full_width(x, i, msr_a_pmc(i)))
		return false;
	return !caps_v6_msrs(x->caps) || check_full_width(x, i, msr_v6_gp_ctr(i));
}

/* AMD: one register per counter, written whole; no aliases to compare. */
bool st_amd_gp_width(struct st *x, unsigned i)
{
	return check_whole_width(x, counter_gp(i), caps_gp_counter_write_msr(x->caps, i),
				 x->caps->gp_width);
}

void st_intel_widths_pass(struct st *x)
{
	const struct pmu_caps *c = x->caps;
	st_verdict(x, SELFTEST_PASS, "%u GP x %u bits: IA32_PMCx sign-extends bit 31%s%s; %u fixed x %u bits",
		   (unsigned)__builtin_popcount(c->gp_mask), c->gp_width,
		   c->full_width_write ? ", IA32_A_PMCx full width, #GP beyond" : " (no full-width writes)",
		   caps_v6_msrs(c) ? ", IA32_PMC_GPn_CTR full width" : "",
		   (unsigned)__builtin_popcount(c->fixed_mask), c->fixed_width);
}

void st_amd_widths_pass(struct st *x)
{
	const struct pmu_caps *c = x->caps;
	st_verdict(x, SELFTEST_PASS, "%u PERF_CTR x %u bits, each written whole (bit 31 not "
		   "sign-extended), bits beyond the width refused or dropped; no aliases, no fixed "
		   "counters", (unsigned)__builtin_popcount(c->gp_mask), c->gp_width);
}

void st_check_widths(struct st *x)
{
	const struct pmu_caps *c = x->caps;
	if (!st_enable(x, 0))
		return;
	for (unsigned i = 0; i < c->num_gp; i++) {
		if (!caps_has_gp(c, i))
			continue;
		if (!st_wr(x, caps_gp_eventsel_msr(c, i), 0) || !x->arch->gp_width(x, i))
			return;
	}
	if (c->num_fixed && !st_wr(x, c->msr_fixed_ctr_ctrl, 0))
		return;
	for (unsigned i = 0; i < c->num_fixed; i++)
		if (caps_has_fixed(c, i) &&
		    !check_whole_width(x, counter_fixed(i), caps_fixed_counter_msr(c, i), c->fixed_width))
			return;
	x->arch->widths_pass(x);
}
