/* The machine self-test; see selftest.h. Every MSR access here is a probing
 * one (hw_rdmsr_safe / hw_wrmsr_safe): a fault becomes a FAIL that names
 * the MSR. Every value written is journalled first and put back when the
 * check ends. No floating point: the PMI handler lives here. */
#include "selftest.h"
#include "counter.h"
#include "hw.h"
#include "../boot/apic.h"
#include "../lib/fmt.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../pebs/ds.h"
#include "../pebs/record.h"

static const struct {
	const char *name, *summary;
} check_info[SELFTEST_COUNT] = {
	[SELFTEST_COUNTERS]       = { "counters", "each GP and fixed counter counts" },
	[SELFTEST_WIDTHS]         = { "widths", "counter writes and widths behave" },
	[SELFTEST_OVERFLOW_PMI]   = { "overflow-pmi", "overflow sets GLOBAL_STATUS, raises a PMI" },
	[SELFTEST_LVT_MASK]       = { "lvt-mask", "PMI delivery sets the LVT PC mask bit" },
	[SELFTEST_PEBS_RECORD]    = { "pebs-record", "PEBS records of the advertised format" },
	[SELFTEST_PEBS_THRESHOLD] = { "pebs-threshold", "N records at threshold N: one PMI" },
	[SELFTEST_AUTO_RELOAD]    = { "auto-reload", "a PEBS record reloads its counter" },
};

const char *selftest_check_name(enum selftest_check c)
{
	return c < SELFTEST_COUNT ? check_info[c].name : "?";
}

const char *selftest_check_summary(enum selftest_check c)
{
	return c < SELFTEST_COUNT ? check_info[c].summary : "?";
}

int selftest_check_find(const char *name)
{
	for (int c = 0; c < SELFTEST_COUNT; c++)
		if (bp_strcmp(name, check_info[c].name) == 0)
			return c;
	return -1;
}

const char *selftest_verdict_name(enum selftest_verdict v)
{
	switch (v) {
	case SELFTEST_PASS: return "PASS";
	case SELFTEST_FAIL: return "FAIL";
	case SELFTEST_SKIP: return "SKIP";
	default: return "-";
	}
}

/* ---- one check's state: verdict, journal, interrupt path, PEBS ------------ */

#define JOURNAL_MAX   80
#define PMI_PERIOD    10000	/* core cycles to the overflow of the PMI checks */
#define PEBS_PERIOD   100000	/* instructions between PEBS records */
#define PEBS_RELOAD   50000	/* DS reset period: differs from the preset */
#define PEBS_THRESHOLD_RECORDS 8
#define PEBS_WALK_MAX 64	/* records looked at, at most */

struct st {
	const struct pmu_caps *caps;
	struct selftest_result *res;
	struct { u32 msr; u64 val; } saved[JOURNAL_MAX];
	unsigned nsaved;
	u64 status0;		/* GLOBAL_STATUS when the check began */
	struct apic_state apic;
	bool lvt_saved, pmi_installed;
	u32 lvt0;
	u8 vector;
	struct pebs_ds ds;
	bool ds_allocated;
	bool frozen_on_pmi;	/* DEBUGCTL.FREEZE_PERFMON_ON_PMI took */
};

/* The first failure is the reason; anything else may be replaced. */
static void set_verdict(struct st *x, enum selftest_verdict v, const char *fmt, va_list ap)
{
	if (x->res->verdict == SELFTEST_FAIL)
		return;
	x->res->verdict = v;
	bp_vsnprintf(x->res->reason, sizeof(x->res->reason), fmt, ap);
}

static void verdict(struct st *x, enum selftest_verdict v, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void verdict(struct st *x, enum selftest_verdict v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_verdict(x, v, fmt, ap);
	va_end(ap);
}

/* Records a failure; returns false so checks can `return fail(...)`. */
static bool fail(struct st *x, const char *fmt, ...) PRINTF_LIKE(2, 3);
static bool fail(struct st *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_verdict(x, SELFTEST_FAIL, fmt, ap);
	va_end(ap);
	return false;
}

/* MSR names for reasons, SDM spelling. */
static const char *msr_name(const struct st *x, u32 msr, char *buf, size_t len)
{
	static const struct { u32 msr; const char *name; } fixed_names[] = {
		{ MSR_IA32_PERF_GLOBAL_CTRL, "IA32_PERF_GLOBAL_CTRL" },
		{ MSR_IA32_PERF_GLOBAL_STATUS, "IA32_PERF_GLOBAL_STATUS" },
		{ MSR_IA32_PERF_GLOBAL_OVF_CTRL, "IA32_PERF_GLOBAL_OVF_CTRL" },
		{ MSR_IA32_FIXED_CTR_CTRL, "IA32_FIXED_CTR_CTRL" },
		{ MSR_IA32_PEBS_ENABLE, "IA32_PEBS_ENABLE" },
		{ MSR_PEBS_DATA_CFG, "MSR_PEBS_DATA_CFG" },
		{ MSR_IA32_DS_AREA, "IA32_DS_AREA" },
		{ MSR_IA32_DEBUGCTL, "IA32_DEBUGCTL" },
	};
	const struct { u32 first; unsigned n; const char *fmt; } ranges[] = {
		{ MSR_IA32_PMC0, x->caps->num_gp, "IA32_PMC%u" },
		{ MSR_IA32_A_PMC0, x->caps->num_gp, "IA32_A_PMC%u" },
		{ MSR_IA32_PERFEVTSEL0, x->caps->num_gp, "IA32_PERFEVTSEL%u" },
		{ MSR_IA32_FIXED_CTR0, x->caps->num_fixed, "IA32_FIXED_CTR%u" },
	};
	for (unsigned i = 0; i < ARRAY_SIZE(fixed_names); i++)
		if (fixed_names[i].msr == msr)
			return fixed_names[i].name;
	for (unsigned i = 0; i < ARRAY_SIZE(ranges); i++)
		if (msr >= ranges[i].first && msr < ranges[i].first + ranges[i].n) {
			bp_snprintf(buf, len, ranges[i].fmt, msr - ranges[i].first);
			return buf;
		}
	bp_snprintf(buf, len, "MSR 0x%x", msr);
	return buf;
}

static bool rd(struct st *x, u32 msr, u64 *val)
{
	char name[32];
	if (hw_rdmsr_safe(msr, val) == 0)
		return true;
	*val = 0;
	return fail(x, "reading %s faulted (#GP): advertised but not implemented?",
		    msr_name(x, msr, name, sizeof(name)));
}

/* Both aliases of a GP counter are saved (and put back) as IA32_PMCx. */
static u32 journal_key(const struct st *x, u32 msr)
{
	if (msr >= MSR_IA32_A_PMC0 && msr < MSR_IA32_A_PMC0 + (u32)x->caps->num_gp)
		return msr_pmc(msr - MSR_IA32_A_PMC0);
	return msr;
}

static bool journal_save(struct st *x, u32 msr)
{
	u32 key = journal_key(x, msr);
	for (unsigned i = 0; i < x->nsaved; i++)
		if (x->saved[i].msr == key)
			return true;
	if (x->nsaved == JOURNAL_MAX)
		return fail(x, "internal: more than %u MSRs to restore", JOURNAL_MAX);
	u64 v;
	if (!rd(x, key, &v))
		return false;
	x->saved[x->nsaved].msr = key;
	x->saved[x->nsaved].val = v;
	x->nsaved++;
	return true;
}

/* Writes that may fault as a test outcome: journalled, fault returned. */
static int wr_probe(struct st *x, u32 msr, u64 val)
{
	if (!journal_save(x, msr))
		return -1;
	return hw_wrmsr_safe(msr, val);
}

/* Writes that must work: a fault is a FAIL naming the MSR and value. */
static bool wr(struct st *x, u32 msr, u64 val)
{
	char name[32];
	if (!journal_save(x, msr))
		return false;
	if (hw_wrmsr_safe(msr, val) == 0)
		return true;
	return fail(x, "writing 0x%llx to %s faulted (#GP)", (unsigned long long)val,
		    msr_name(x, msr, name, sizeof(name)));
}

static bool wr_counter(struct st *x, int counter, u64 val)
{
	return wr(x, counter_write_msr(x->caps, counter), val);
}

static bool rd_counter(struct st *x, int counter, u64 *val)
{
	return rd(x, counter_read_msr(counter), val);
}

/* SDM 20.2.5: IA32_PMCx keeps bits 31:0 of a write and sign-extends bit
 * 31 through the counter width. */
static u64 legacy_value(u64 written, u64 mask)
{
	return (u64)(s64)(s32)(u32)written & mask;
}

/* ---- waiting, bounded by plat_ticks() ------------------------------------- */

static u64 ticks_per_second(void)
{
	u64 tps = plat_ticks_per_second();
	return tps ? tps : 1000000000ull;	/* unknown: assume 1 GHz */
}

static u64 ms_to_ticks(u32 ms) { return ticks_per_second() / 1000 * ms; }
static u64 ticks_to_us(u64 t)  { return t / (ticks_per_second() / 1000000 ? ticks_per_second() / 1000000 : 1); }

static volatile u64 spin_sink;

/* Busy work until done(ctx) or `ms` pass; true when done. */
static bool spin_until(bool (*done)(void *ctx), void *ctx, u32 ms)
{
	u64 end = plat_ticks() + ms_to_ticks(ms);
	while (plat_ticks() < end) {
		if (done && done(ctx))
			return true;
		for (unsigned i = 0; i < 64; i++)
			spin_sink += i;
	}
	return done && done(ctx);
}

/* ---- the PMI handler ---------------------------------------------------------- */

struct st_pmi {
	volatile u32 calls;
	u32 lvt;		/* LVT PC as the first PMI found it */
	u64 status;		/* GLOBAL_STATUS at the first PMI */
	u64 status_after;	/* after acknowledging it */
	u64 pebs_index;		/* DS PEBS index at the first PMI */
	bool ack_faulted;
	const struct apic_state *apic;
	volatile const struct ds_area *area;
};
static struct st_pmi pmi;

static u64 ackable_bits(const struct pmu_caps *c)
{
	return ((u64)c->gp_mask | (u64)c->fixed_mask << GLOBAL_FIXED_SHIFT) | GLOBAL_STATUS_OVF_BUFFER;
}

static const struct pmu_caps *pmi_caps;

/* Stop counting, look, acknowledge. LVT PC is left as delivery left it:
 * masked, so one arming gives one PMI. */
static void on_pmi(const struct plat_irq_frame *f, void *ctx)
{
	struct st_pmi *p = ctx;
	if (p->calls == 0) {
		p->lvt = apic_read(p->apic, APIC_LVT_PERFCNT);
		hw_wrmsr_safe(MSR_IA32_PERF_GLOBAL_CTRL, 0);
		hw_rdmsr_safe(MSR_IA32_PERF_GLOBAL_STATUS, &p->status);
		p->pebs_index = p->area ? p->area->pebs_index : 0;
		p->ack_faulted = hw_wrmsr_safe(MSR_IA32_PERF_GLOBAL_OVF_CTRL,
					       p->status & ackable_bits(pmi_caps)) != 0;
		hw_rdmsr_safe(MSR_IA32_PERF_GLOBAL_STATUS, &p->status_after);
	}
	p->calls++;
	apic_eoi(p->apic);
}

static bool pmi_came(void *ctx) { return pmi.calls > 0; }

/* Installs the handler and programs LVT PC (saved first). */
static bool pmi_arm(struct st *x, const struct ds_area *area)
{
	if (apic_probe(&x->apic) != 0) {
		verdict(x, SELFTEST_SKIP, "no local APIC to deliver PMIs: %s", x->apic.why);
		return false;
	}
	bp_memset(&pmi, 0, sizeof(pmi));
	pmi.apic = &x->apic;
	pmi.area = area;
	pmi_caps = x->caps;
	x->lvt0 = apic_read(&x->apic, APIC_LVT_PERFCNT);
	x->lvt_saved = true;
	x->vector = plat_pmi_install(on_pmi, &pmi);
	x->pmi_installed = true;
	apic_write(&x->apic, APIC_LVT_PERFCNT, APIC_LVT_DELIVERY_FIXED | x->vector);
	return true;
}

/* ---- putting everything back ---------------------------------------------------- */

/* Writes a saved value back and reads it again. A GP counter goes back
 * through its write alias, or through the legacy one when that one
 * ignores writes and the value survives its sign extension. */
static bool restore_msr(struct st *x, u32 msr, u64 val)
{
	u64 now;
	bool counter = msr >= MSR_IA32_PMC0 && msr < MSR_IA32_PMC0 + (u32)x->caps->num_gp;
	u32 via = counter ? counter_write_msr(x->caps, counter_gp(msr - MSR_IA32_PMC0)) : msr;
	if (hw_wrmsr_safe(via, val) == 0 && hw_rdmsr_safe(msr, &now) == 0 && now == val)
		return true;
	if (counter && via != msr && legacy_value(val, caps_gp_mask_value(x->caps)) == val &&
	    hw_wrmsr_safe(msr, val) == 0 && hw_rdmsr_safe(msr, &now) == 0 && now == val)
		return true;
	char name[32];
	return fail(x, "could not put %s back to 0x%llx", msr_name(x, msr, name, sizeof(name)),
		    (unsigned long long)val);
}

static bool journalled(const struct st *x, u32 msr, u64 *val)
{
	for (unsigned i = 0; i < x->nsaved; i++)
		if (x->saved[i].msr == msr) {
			*val = x->saved[i].val;
			return true;
		}
	return false;
}

/* Overflow bits this check caused go; bits that were set come back
 * (v4 can set them through GLOBAL_STATUS_SET). */
static void restore_status(struct st *x)
{
	u64 now;
	if (hw_rdmsr_safe(MSR_IA32_PERF_GLOBAL_STATUS, &now))
		return;
	u64 ours = now & ~x->status0;
	if (ours && hw_wrmsr_safe(MSR_IA32_PERF_GLOBAL_OVF_CTRL, ours))
		hw_wrmsr_safe(MSR_IA32_PERF_GLOBAL_OVF_CTRL, ours & ackable_bits(x->caps));
	u64 lost = x->status0 & ~now;
	if (lost && caps_has_status_set(x->caps))
		hw_wrmsr_safe(MSR_IA32_PERF_GLOBAL_STATUS_SET, lost);
}

/* Stop first, PEBS off before its DS area goes, GLOBAL_CTRL last. */
static void restore(struct st *x)
{
	u64 global, pebs;
	bool had_global = journalled(x, MSR_IA32_PERF_GLOBAL_CTRL, &global);
	if (had_global)
		hw_wrmsr_safe(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	if (journalled(x, MSR_IA32_PEBS_ENABLE, &pebs))
		restore_msr(x, MSR_IA32_PEBS_ENABLE, pebs);
	for (unsigned i = x->nsaved; i-- > 0;) {
		u32 msr = x->saved[i].msr;
		if (msr != MSR_IA32_PERF_GLOBAL_CTRL && msr != MSR_IA32_PEBS_ENABLE)
			restore_msr(x, msr, x->saved[i].val);
	}
	restore_status(x);
	if (x->lvt_saved)
		apic_write(&x->apic, APIC_LVT_PERFCNT, x->lvt0);
	if (x->pmi_installed)
		plat_pmi_remove();
	if (had_global)
		restore_msr(x, MSR_IA32_PERF_GLOBAL_CTRL, global);
	if (x->ds_allocated)
		pebs_ds_free(&x->ds);
	x->nsaved = 0;
	x->lvt_saved = x->pmi_installed = x->ds_allocated = false;
}

/* ---- check: every counter counts ------------------------------------------------ */

static u64 evtsel_for(u8 code)
{
	return EVTSEL_EN | EVTSEL_OS | EVTSEL_USR | code;
}

static const char *fixed_event_name(unsigned i)
{
	static const char *const names[] = { "instructions", "core cycles", "reference cycles",
					     "topdown slots" };
	return i < ARRAY_SIZE(names) ? names[i] : "events";
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
	if (count == 0)
		return fail(x, "%s%u counted no %s in %llu us (dead counter?)", fixed ? "fixed" : "GP",
			    i, what, (unsigned long long)us);
	if (count < us * PLAUSIBLE_MIN_PER_US || count > us * PLAUSIBLE_MAX_PER_US)
		return fail(x, "%s%u counted %llu %s in %llu us: implausible (expected %u to %u per us)",
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
		if (!wr(x, msr_perfevtsel(i), 0) || !wr_counter(x, counter_gp(i), 0) ||
		    !wr(x, msr_perfevtsel(i), evtsel_for(ARCH_CODE_CORE_CYCLES)))
			return false;
		*enable |= global_gp_bit(i);
	}
	for (unsigned i = 0; i < c->num_fixed; i++) {
		if (!caps_has_fixed(c, i))
			continue;
		if (!wr_counter(x, counter_fixed(i), 0))
			return false;
		fixed_ctrl |= fixed_ctrl_field(i, FIXED_CTRL_OS | FIXED_CTRL_USR);
		*enable |= global_fixed_bit(i);
	}
	return !c->num_fixed || wr(x, MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl);
}

static void check_counters(struct st *x)
{
	u64 enable = 0, first_count = 0;
	if (!wr(x, MSR_IA32_PERF_GLOBAL_CTRL, 0) || !program_all_counters(x, &enable))
		return;
	u64 t0 = plat_ticks();
	if (!wr(x, MSR_IA32_PERF_GLOBAL_CTRL, enable))
		return;
	spin_until(NULL, NULL, SELFTEST_BUSY_MS);
	if (!wr(x, MSR_IA32_PERF_GLOBAL_CTRL, 0))
		return;
	u64 us = ticks_to_us(plat_ticks() - t0);
	int first = COUNTER_NONE;
	for (u64 bits = enable; bits; bits &= bits - 1) {
		int counter = __builtin_ctzll(bits);
		u64 count;
		if (!rd_counter(x, counter, &count) || !judge_count(x, counter, count, us))
			return;
		if (first == COUNTER_NONE) {
			first = counter;
			first_count = count;
		}
	}
	verdict(x, SELFTEST_PASS, "%u GP + %u fixed counted over %llu us (GP%u: %llu core cycles)",
		(unsigned)__builtin_popcountll(enable & GENMASK(31, 0)),
		(unsigned)__builtin_popcountll(enable >> GLOBAL_FIXED_SHIFT),
		(unsigned long long)us, counter_index(first), (unsigned long long)first_count);
}

/* ---- check: writes and widths ------------------------------------------------------ */

static bool expect_readback(struct st *x, int counter, u32 wrote_msr, u64 wrote, u64 want)
{
	char name[32];
	u64 got;
	if (!rd_counter(x, counter, &got))
		return false;
	if (got == want)
		return true;
	return fail(x, "%s: wrote 0x%llx, read back 0x%llx, expected 0x%llx",
		    msr_name(x, wrote_msr, name, sizeof(name)), (unsigned long long)wrote,
		    (unsigned long long)got, (unsigned long long)want);
}

static bool check_legacy_alias(struct st *x, unsigned i)
{
	u64 mask = caps_gp_mask_value(x->caps);
	u32 msr = msr_pmc(i);
	static const u64 patterns[] = { 0x12345678, 0xDEADBEEF };
	for (unsigned k = 0; k < ARRAY_SIZE(patterns); k++)
		if (!wr(x, msr, patterns[k]) ||
		    !expect_readback(x, counter_gp(i), msr, patterns[k], legacy_value(patterns[k], mask)))
			return false;
	/* A value beyond the width: refused, or cut to bits 31:0 sign-extended. */
	u64 beyond = BIT(x->caps->gp_width) | 0x76543210;
	if (x->caps->gp_width >= 64 || wr_probe(x, msr, beyond) != 0)
		return true;
	return expect_readback(x, counter_gp(i), msr, beyond, legacy_value(beyond, mask));
}

/* SDM 20.2.6: IA32_A_PMCx writes the full width; bits beyond it #GP. */
static bool check_full_width(struct st *x, unsigned i)
{
	u64 mask = caps_gp_mask_value(x->caps);
	u32 msr = msr_a_pmc(i);
	u64 pattern = 0x5A5A12345678ull & mask;	/* bit 31 clear, bits above it set */
	char name[32];
	if (!wr(x, msr, pattern) || !expect_readback(x, counter_gp(i), msr, pattern, pattern))
		return false;
	if (x->caps->gp_width >= 64)
		return true;
	u64 beyond = BIT(x->caps->gp_width);
	if (wr_probe(x, msr, beyond) != 0)
		return true;
	return fail(x, "%s accepted 0x%llx, beyond the %u-bit width (SDM: #GP)",
		    msr_name(x, msr, name, sizeof(name)), (unsigned long long)beyond,
		    x->caps->gp_width);
}

/* Fixed counters are written at full width; a value beyond the width is
 * refused or cut to the width, never kept. */
static bool check_fixed_width(struct st *x, unsigned i)
{
	u64 mask = caps_fixed_mask_value(x->caps);
	u32 msr = msr_fixed_ctr(i);
	u64 pattern = 0x5A5A12345678ull & mask;
	if (!wr(x, msr, pattern) || !expect_readback(x, counter_fixed(i), msr, pattern, pattern))
		return false;
	if (x->caps->fixed_width >= 64)
		return true;
	u64 beyond = BIT(x->caps->fixed_width) | 0x1234;
	if (wr_probe(x, msr, beyond) != 0)
		return true;
	return expect_readback(x, counter_fixed(i), msr, beyond, beyond & mask);
}

static void check_widths(struct st *x)
{
	const struct pmu_caps *c = x->caps;
	if (!wr(x, MSR_IA32_PERF_GLOBAL_CTRL, 0))
		return;
	for (unsigned i = 0; i < c->num_gp; i++) {
		if (!caps_has_gp(c, i))
			continue;
		if (!wr(x, msr_perfevtsel(i), 0) || !check_legacy_alias(x, i) ||
		    (c->full_width_write && !check_full_width(x, i)))
			return;
	}
	if (c->num_fixed && !wr(x, MSR_IA32_FIXED_CTR_CTRL, 0))
		return;
	for (unsigned i = 0; i < c->num_fixed; i++)
		if (caps_has_fixed(c, i) && !check_fixed_width(x, i))
			return;
	verdict(x, SELFTEST_PASS, "%u GP x %u bits: IA32_PMCx sign-extends bit 31%s; %u fixed x %u bits",
		(unsigned)__builtin_popcount(c->gp_mask), c->gp_width,
		c->full_width_write ? ", IA32_A_PMCx full width, #GP beyond" : " (no full-width writes)",
		(unsigned)__builtin_popcount(c->fixed_mask), c->fixed_width);
}

/* ---- checks: overflow, PMI, LVT PC mask ------------------------------------------------ */

struct pmi_trial {
	int counter;
	bool came;
	u64 status_now;		/* GLOBAL_STATUS after the wait */
};

static int first_gp(const struct pmu_caps *c)
{
	for (unsigned i = 0; i < c->num_gp; i++)
		if (caps_has_gp(c, i))
			return counter_gp(i);
	return COUNTER_NONE;
}

/* The counter's overflow bit must be clear before the test, or clearable. */
static bool status_bit_clears(struct st *x, u64 bit, const char *what)
{
	u64 status;
	if (!rd(x, MSR_IA32_PERF_GLOBAL_STATUS, &status))
		return false;
	if (!(status & bit))
		return true;
	hw_wrmsr_safe(MSR_IA32_PERF_GLOBAL_OVF_CTRL, bit);
	if (!rd(x, MSR_IA32_PERF_GLOBAL_STATUS, &status))
		return false;
	if (!(status & bit))
		return true;
	return fail(x, "GLOBAL_STATUS %s (0x%llx) is set and does not clear through "
		    "IA32_PERF_GLOBAL_OVF_CTRL (stuck)", what, (unsigned long long)bit);
}

/* Presets a GP counter PMI_PERIOD cycles before overflow with INT set and
 * waits for the PMI. */
static bool run_pmi_trial(struct st *x, struct pmi_trial *t)
{
	t->counter = first_gp(x->caps);
	u64 bit = BIT(t->counter);
	unsigned i = counter_index(t->counter);
	if (!wr(x, MSR_IA32_PERF_GLOBAL_CTRL, 0) || !wr(x, msr_perfevtsel(i), 0) ||
	    !status_bit_clears(x, bit, "counter bit") || !pmi_arm(x, NULL))
		return false;
	if (!wr_counter(x, t->counter, counter_preset(x->caps, t->counter, PMI_PERIOD)) ||
	    !wr(x, msr_perfevtsel(i), evtsel_for(ARCH_CODE_CORE_CYCLES) | EVTSEL_INT) ||
	    !wr(x, MSR_IA32_PERF_GLOBAL_CTRL, bit))
		return false;
	t->came = spin_until(pmi_came, NULL, SELFTEST_WAIT_MS);
	return wr(x, MSR_IA32_PERF_GLOBAL_CTRL, 0) &&
	       rd(x, MSR_IA32_PERF_GLOBAL_STATUS, &t->status_now);
}

static bool pmi_arrived(struct st *x, const struct pmi_trial *t)
{
	u64 bit = BIT(t->counter), value = 0;
	if (t->came)
		return true;
	if (t->status_now & bit)
		return fail(x, "GP%u overflowed (GLOBAL_STATUS 0x%llx) but no PMI arrived in %u ms",
			    counter_index(t->counter), (unsigned long long)t->status_now,
			    SELFTEST_WAIT_MS);
	rd_counter(x, t->counter, &value);
	return fail(x, "GP%u preset %u core cycles before overflow did not overflow in %u ms "
		    "(counter 0x%llx)", counter_index(t->counter), PMI_PERIOD, SELFTEST_WAIT_MS,
		    (unsigned long long)value);
}

static void check_overflow_pmi(struct st *x)
{
	struct pmi_trial t;
	if (!run_pmi_trial(x, &t) || !pmi_arrived(x, &t))
		return;
	u64 bit = BIT(t.counter);
	if (!(pmi.status & bit))
		fail(x, "a PMI arrived but GLOBAL_STATUS was 0x%llx: bit %d clear",
		     (unsigned long long)pmi.status, t.counter);
	else if (pmi.ack_faulted || (pmi.status_after & bit))
		fail(x, "GLOBAL_STATUS bit %d did not clear when acknowledged through "
		     "IA32_PERF_GLOBAL_OVF_CTRL (status after: 0x%llx)", t.counter,
		     (unsigned long long)pmi.status_after);
	else
		verdict(x, SELFTEST_PASS, "GP%u overflowed after %u cycles: GLOBAL_STATUS 0x%llx, "
			"PMI on vector 0x%x, acknowledged", counter_index(t.counter), PMI_PERIOD,
			(unsigned long long)pmi.status, x->vector);
}

static void check_lvt_mask(struct st *x)
{
	struct pmi_trial t;
	if (!run_pmi_trial(x, &t) || !pmi_arrived(x, &t))
		return;
	/* SDM Vol. 3A 11.5.1: delivering a performance-monitoring interrupt
	 * sets the mask bit of LVT PC; the handler must clear it. */
	if (pmi.lvt & APIC_LVT_MASKED)
		verdict(x, SELFTEST_PASS, "LVT PC read 0x%x in the handler: delivery set the mask bit",
			pmi.lvt);
	else
		fail(x, "LVT PC read 0x%x in the handler: delivery did not set the mask bit "
		     "(SDM 11.5.1 says it does)", pmi.lvt);
}

/* ---- PEBS checks ------------------------------------------------------------------------ */

static bool pebs_supported(struct st *x)
{
	const struct pmu_caps *c = x->caps;
	const char *why = NULL;
	if (!c->ds)
		why = "no Debug Store (CPUID.01H:EDX.DS = 0)";
	else if (!c->pdcm)
		why = "no IA32_PERF_CAPABILITIES (CPUID.01H:ECX.PDCM = 0): record format unknown";
	else if (!c->misc_enable_readable)
		why = "IA32_MISC_ENABLE cannot be read";
	else if (c->misc_enable & MISC_ENABLE_PEBS_UNAVAILABLE)
		why = "PEBS unavailable (IA32_MISC_ENABLE[12] = 1)";
	else if (!caps_has_pebs(c) || !caps_has_gp(c, 0))
		why = "no PEBS on this CPU";
	if (why)
		verdict(x, SELFTEST_SKIP, "%s", why);
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
	verdict(x, SELFTEST_SKIP, "%s", err);
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
	return pmi.calls > 0 || a->pebs_index >= a->pebs_interrupt_threshold;
}

/* DS area, PEBS_DATA_CFG, freeze on PMI: the counters stop when the
 * threshold PMI is raised, so records stop at the threshold. */
static bool pebs_prepare(struct st *x, const struct pebs_layout *l, u64 threshold)
{
	char err[160];
	u64 debugctl;
	if (!pebs_ds_init(&x->ds, l, 0, err, sizeof(err)))
		return fail(x, "%s", err);
	x->ds_allocated = true;
	pebs_ds_set_threshold(&x->ds, threshold);
	if (!pebs_ds_set_period(&x->ds, counter_gp(0), PEBS_RELOAD, x->caps->gp_width))
		return fail(x, "internal: no DS reset slot for GP0");
	if (!wr(x, MSR_IA32_DS_AREA, (u64)(uintptr_t)x->ds.area) ||
	    (l->adaptive && !wr(x, MSR_PEBS_DATA_CFG, l->data_cfg)) ||
	    !rd(x, MSR_IA32_DEBUGCTL, &debugctl))
		return false;
	x->frozen_on_pmi = wr_probe(x, MSR_IA32_DEBUGCTL,
				    debugctl | DEBUGCTL_FREEZE_PERFMON_ON_PMI) == 0;
	return true;
}

/* PEBS on GP0 counting instructions retired, PEBS_PERIOD to the first
 * record, PEBS_RELOAD between the next ones; no INT: PEBS reports through
 * the buffer. Waits for the threshold. */
static bool run_pebs_trial(struct st *x, const struct pebs_layout *l, struct pebs_trial *t)
{
	int counter = counter_gp(0);
	u64 evtsel = evtsel_for(ARCH_CODE_INST_RETIRED) |
		     (l->adaptive ? EVTSEL_ADAPTIVE_RECORD : 0);
	if (!wr(x, MSR_IA32_PERF_GLOBAL_CTRL, 0) || !wr(x, msr_perfevtsel(0), 0) ||
	    !status_bit_clears(x, GLOBAL_STATUS_OVF_BUFFER, "bit 62 (DS buffer)") ||
	    !status_bit_clears(x, BIT(counter), "counter bit") ||
	    !pebs_prepare(x, l, t->records_threshold) || !pmi_arm(x, x->ds.area))
		return false;
	if (!wr_counter(x, counter, counter_preset(x->caps, counter, PEBS_PERIOD)) ||
	    !wr(x, msr_perfevtsel(0), evtsel) ||
	    !wr(x, MSR_IA32_PEBS_ENABLE, pebs_enable_gp_bit(0)) ||
	    !wr(x, MSR_IA32_PERF_GLOBAL_CTRL, global_gp_bit(0)))
		return false;
	spin_until(threshold_reached, x, SELFTEST_WAIT_MS);
	if (!wr(x, MSR_IA32_PERF_GLOBAL_CTRL, 0))
		return false;
	t->came = pmi.calls > 0;
	t->used = ((const volatile struct ds_area *)x->ds.area)->pebs_index - x->ds.base;
	if (t->used)
		return true;
	u64 status = 0;
	rd(x, MSR_IA32_PERF_GLOBAL_STATUS, &status);
	return fail(x, "no PEBS record in %u ms (GP0 instructions retired, period %u; "
		    "GLOBAL_STATUS 0x%llx)", SELFTEST_WAIT_MS, PEBS_PERIOD, (unsigned long long)status);
}

static bool record_sane(struct st *x, const struct pebs_layout *l, const u8 *rec, u64 n)
{
	struct bp_sample s;
	if (l->adaptive && pebs_record_stated_size(rec) != l->record_size)
		return fail(x, "record %llu states %u bytes; format %u with PEBS_DATA_CFG 0x%llx "
			    "is %u bytes", (unsigned long long)n, pebs_record_stated_size(rec),
			    l->format, (unsigned long long)l->data_cfg, l->record_size);
	/* Formats 3+ report exactly the counters the record is for; 1 and 2
	 * store GLOBAL_STATUS as it is (Linux copes with bit 0 missing). */
	u64 applicable = pebs_record_applicable(l, rec);
	if (l->format >= 3 && applicable != pebs_enable_gp_bit(0))
		return fail(x, "record %llu: applicable counters 0x%llx, expected 0x1 (GP0)",
			    (unsigned long long)n, (unsigned long long)applicable);
	bp_memset(&s, 0, sizeof(s));
	pebs_record_decode(l, rec, PEBS_MEM_NONE, PEBS_DSE_SNB, &s);
	if (s.ip == 0)
		return fail(x, "record %llu: IP 0", (unsigned long long)n);
	return true;
}

/* The index advanced by whole records of the format's size, each sane. */
static bool records_sane(struct st *x, const struct pebs_layout *l, u64 used, u64 expect_records)
{
	u32 size = l->record_size;
	if (used % size != 0)
		return fail(x, "PEBS index advanced by %llu bytes: not a whole number of "
			    "%u-byte format-%u records", (unsigned long long)used, size, l->format);
	if (expect_records && used / size != expect_records)
		return fail(x, "PEBS index advanced by %llu records (%llu bytes); expected %llu "
			    "with the counters frozen at the threshold PMI",
			    (unsigned long long)(used / size), (unsigned long long)used,
			    (unsigned long long)expect_records);
	for (u64 n = 0; n < used / size && n < PEBS_WALK_MAX; n++)
		if (!record_sane(x, l, x->ds.buffer + n * size, n))
			return false;
	return true;
}

static void check_pebs_record(struct st *x)
{
	struct pebs_layout l;
	struct pebs_trial t = { .records_threshold = 1 };
	if (!pebs_supported(x) || !pebs_layout(x, &l) || !run_pebs_trial(x, &l, &t) ||
	    !records_sane(x, &l, t.used, x->frozen_on_pmi ? 1 : 0))
		return;
	struct bp_sample s;
	bp_memset(&s, 0, sizeof(s));
	pebs_record_decode(&l, x->ds.buffer, PEBS_MEM_NONE, PEBS_DSE_SNB, &s);
	verdict(x, SELFTEST_PASS, "%llu record(s) of %u bytes, format %u%s; IP 0x%llx",
		(unsigned long long)(t.used / l.record_size), l.record_size, l.format,
		l.adaptive ? " with memory info and GPRs" : "", (unsigned long long)s.ip);
}

static void check_pebs_threshold(struct st *x)
{
	struct pebs_layout l;
	struct pebs_trial t = { .records_threshold = PEBS_THRESHOLD_RECORDS };
	if (!pebs_supported(x) || !pebs_layout(x, &l) || !run_pebs_trial(x, &l, &t))
		return;
	u64 at_pmi = (pmi.pebs_index - x->ds.base) / l.record_size;
	if (!t.came)
		fail(x, "%llu records written, threshold %u, but no PMI in %u ms",
		     (unsigned long long)(t.used / l.record_size), PEBS_THRESHOLD_RECORDS,
		     SELFTEST_WAIT_MS);
	else if (at_pmi < PEBS_THRESHOLD_RECORDS)
		fail(x, "a PMI after %llu record(s); the threshold was %u records",
		     (unsigned long long)at_pmi, PEBS_THRESHOLD_RECORDS);
	else if (!(pmi.status & GLOBAL_STATUS_OVF_BUFFER))
		fail(x, "the threshold PMI came with GLOBAL_STATUS 0x%llx: bit 62 clear",
		     (unsigned long long)pmi.status);
	else if (pmi.calls != 1)
		fail(x, "%u PMIs for one buffer", pmi.calls);
	else if (records_sane(x, &l, t.used, 0))
		verdict(x, SELFTEST_PASS, "%llu records, then one PMI with GLOBAL_STATUS bit 62 "
			"(threshold %u records)", (unsigned long long)at_pmi, PEBS_THRESHOLD_RECORDS);
}

static void check_auto_reload(struct st *x)
{
	struct pebs_layout l;
	struct pebs_trial t = { .records_threshold = 1 };
	u64 value;
	if (!pebs_supported(x) || !pebs_layout(x, &l) || !run_pebs_trial(x, &l, &t) ||
	    !rd_counter(x, counter_gp(0), &value))
		return;
	u64 mask = caps_gp_mask_value(x->caps);
	u64 reset = x->ds.area->pebs_counter_reset[pebs_ds_reset_slot(l.format, counter_gp(0))];
	u64 since = (value - reset) & mask;
	/* SDM 20.6.2.4: after the record the counter restarts from its DS
	 * reset value; fewer than PEBS_RELOAD events can have followed, or a
	 * second record would have been written. */
	if (since < PEBS_RELOAD)
		verdict(x, SELFTEST_PASS, "after the record GP0 = reset value 0x%llx + %llu events",
			(unsigned long long)reset, (unsigned long long)since);
	else
		fail(x, "after the record GP0 = 0x%llx, not the DS reset value 0x%llx plus fewer "
		     "than %u events: no auto-reload", (unsigned long long)value,
		     (unsigned long long)reset, PEBS_RELOAD);
}

/* ---- running ------------------------------------------------------------------------------ */

static void (*const check_fn[SELFTEST_COUNT])(struct st *x) = {
	[SELFTEST_COUNTERS]       = check_counters,
	[SELFTEST_WIDTHS]         = check_widths,
	[SELFTEST_OVERFLOW_PMI]   = check_overflow_pmi,
	[SELFTEST_LVT_MASK]       = check_lvt_mask,
	[SELFTEST_PEBS_RECORD]    = check_pebs_record,
	[SELFTEST_PEBS_THRESHOLD] = check_pebs_threshold,
	[SELFTEST_AUTO_RELOAD]    = check_auto_reload,
};

static bool pmu_usable(struct st *x)
{
	if (!x->caps->intel)
		verdict(x, SELFTEST_SKIP, "not an Intel CPU (%s)", x->caps->vendor);
	else if (!caps_has_pmu(x->caps))
		verdict(x, SELFTEST_SKIP, "no architectural PMU (CPUID.0AH version 0)");
	else if (!caps_has_global_ctrl(x->caps))
		verdict(x, SELFTEST_SKIP, "perfmon version %u has no IA32_PERF_GLOBAL_CTRL",
			x->caps->version);
	else if (!caps_perfmon_enabled(x->caps))
		verdict(x, SELFTEST_SKIP, "performance monitoring disabled in IA32_MISC_ENABLE");
	else
		return true;
	return false;
}

void selftest_run_one(const struct pmu_caps *caps, enum selftest_check c,
		      struct selftest_result *out)
{
	static struct st x;	/* one check at a time; too big for a small stack */
	bp_memset(&x, 0, sizeof(x));
	bp_memset(out, 0, sizeof(*out));
	x.caps = caps;
	x.res = out;
	if (c >= SELFTEST_COUNT || !pmu_usable(&x))
		return;
	if (rd(&x, MSR_IA32_PERF_GLOBAL_STATUS, &x.status0))
		check_fn[c](&x);
	restore(&x);
	if (out->verdict == SELFTEST_NOT_RUN)
		verdict(&x, SELFTEST_FAIL, "internal: the check gave no verdict");
}

void selftest_run(const struct pmu_caps *caps, u32 mask,
		  struct selftest_result out[SELFTEST_COUNT])
{
	for (int c = 0; c < SELFTEST_COUNT; c++) {
		bp_memset(&out[c], 0, sizeof(out[c]));
		if (mask & BIT(c))
			selftest_run_one(caps, (enum selftest_check)c, &out[c]);
	}
}
