/* The machine self-test; see selftest.h. Every MSR access here is a probing
 * one (hw_rdmsr_safe / hw_wrmsr_safe): a fault becomes a FAIL that names
 * the MSR. Every value written is journalled first and put back when the
 * check ends. No floating point: the PMI handler lives here. */
#include "selftest_int.h"

static const struct {
	const char *name, *summary;
} check_info[SELFTEST_COUNT] = {
	[SELFTEST_COUNTERS]       = { "counters", "each GP and fixed counter counts" },
	[SELFTEST_WIDTHS]         = { "widths", "counter writes and widths behave" },
	[SELFTEST_OVERFLOW_PMI]   = { "overflow-pmi", "overflow is seen (status or top bit), raises a PMI" },
	[SELFTEST_LVT_MASK]       = { "lvt-mask", "LVT PC's mask after delivery: set (Intel), clear (AMD)" },
	[SELFTEST_PEBS_RECORD]    = { "pebs-record", "PEBS records of the advertised format" },
	[SELFTEST_PEBS_THRESHOLD] = { "pebs-threshold", "N records at threshold N: one PMI" },
	[SELFTEST_AUTO_RELOAD]    = { "auto-reload", "a PEBS record reloads its counter" },
	[SELFTEST_IBS_OP]         = { "ibs-op", "IBS op sampling: a sample and its interrupt" },
	[SELFTEST_IBS_FETCH]      = { "ibs-fetch", "IBS fetch sampling: a sample and its interrupt" },
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

/* The first failure is the reason; anything else may be replaced. */
static void set_verdict(struct st *x, enum selftest_verdict v, const char *fmt, va_list ap)
{
	if (x->res->verdict == SELFTEST_FAIL)
		return;
	x->res->verdict = v;
	bp_vsnprintf(x->res->reason, sizeof(x->res->reason), fmt, ap);
}

void st_verdict(struct st *x, enum selftest_verdict v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_verdict(x, v, fmt, ap);
	va_end(ap);
}

/* Records a failure; returns false so checks can `return st_fail(...)`. */
bool st_fail(struct st *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_verdict(x, SELFTEST_FAIL, fmt, ap);
	va_end(ap);
	return false;
}

static void note_foreign(struct st *x, const char *what, u64 value, u64 ours)
{
	if (x->foreign[0] || !(value & ~ours))
		return;
	bp_snprintf(x->foreign, sizeof(x->foreign), "%s 0x%llx where the check set 0x%llx", what,
		    (unsigned long long)value, (unsigned long long)ours);
}

void st_check_owned(struct st *x, u64 ctrl_ours, u64 pebs_ours)
{
	const struct pmu_caps *c = x->caps;
	u64 v;
	if (!caps_has_global_ctrl(c))
		return;
	if (selftest_pmi.calls)
		note_foreign(x, "IA32_PERF_GLOBAL_CTRL at the PMI", selftest_pmi.ctrl_at_pmi, ctrl_ours);
	if (hw_rdmsr_safe(c->msr_global_ctrl, &v) == 0)
		note_foreign(x, "IA32_PERF_GLOBAL_CTRL", v, ctrl_ours);
	if (caps_has_ds_pebs(c) && hw_rdmsr_safe(MSR_IA32_PEBS_ENABLE, &v) == 0)
		note_foreign(x, "IA32_PEBS_ENABLE", v, pebs_ours);
}

/* A check that failed while another agent's counters ran (st_check_owned)
 * measured that agent as much as this PMU: SKIP, with both. */
static void unjudged_if_disturbed(struct st *x)
{
	char saw[sizeof(x->res->reason)];
	if (x->res->verdict != SELFTEST_FAIL || !x->foreign[0])
		return;
	bp_strlcpy(saw, x->res->reason, sizeof(saw));
	x->res->verdict = SELFTEST_SKIP;
	bp_snprintf(x->res->reason, sizeof(x->res->reason),
		    "the PMU is in use by another agent (%s); not judged, it saw: %s", x->foreign, saw);
}

/* "PERF_CTR2" for a GP counter's or event select's MSR (AMD's may
 * interleave); NULL for other MSRs. */
static const char *gp_msr_name(const struct st *x, u32 msr, char *buf, size_t len)
{
	const struct pmu_caps *c = x->caps;
	bool v6 = caps_v6_msrs(c);
	for (unsigned i = 0; i < c->num_gp; i++) {
		const char *fmt = msr == caps_gp_counter_msr(c, i) ?
				  (v6 ? "IA32_PMC_GP%u_CTR" : x->arch->ctr_name) :
				  msr == caps_gp_eventsel_msr(c, i) ?
				  (v6 ? "IA32_PMC_GP%u_CFG_A" : x->arch->sel_name) :
				  v6 && msr == msr_pmc(i) ? "IA32_PMC%u" : NULL;
		if (fmt) {
			bp_snprintf(buf, len, fmt, i);
			return buf;
		}
	}
	return NULL;
}

/* MSR names for reasons, as the SDM and the APM spell them. */
const char *st_msr_name(const struct st *x, u32 msr, char *buf, size_t len)
{
	static const struct { u32 msr; const char *name; } fixed_names[] = {
		{ MSR_AMD_PERF_CNTR_GLOBAL_CTL, "PerfCntrGlobalCtl" },
		{ MSR_AMD_PERF_CNTR_GLOBAL_STATUS, "PerfCntrGlobalStatus" },
		{ MSR_AMD_PERF_CNTR_GLOBAL_STATUS_CLR, "PerfCntrGlobalStatusClr" },
		{ MSR_AMD_IBS_OP_CTL, "IBS_OP_CTL" },
		{ MSR_AMD_IBS_FETCH_CTL, "IBS_FETCH_CTL" },
		{ MSR_AMD_IBS_CTL, "IBS_CTL" },
		{ MSR_IA32_PERF_GLOBAL_CTRL, "IA32_PERF_GLOBAL_CTRL" },
		{ MSR_IA32_PERF_GLOBAL_STATUS, "IA32_PERF_GLOBAL_STATUS" },
		{ MSR_IA32_PERF_GLOBAL_OVF_CTRL, "IA32_PERF_GLOBAL_OVF_CTRL" },
		{ MSR_IA32_FIXED_CTR_CTRL, "IA32_FIXED_CTR_CTRL" },
		{ MSR_IA32_PEBS_ENABLE, "IA32_PEBS_ENABLE" },
		{ MSR_PEBS_DATA_CFG, "MSR_PEBS_DATA_CFG" },
		{ MSR_IA32_DS_AREA, "IA32_DS_AREA" },
		{ MSR_IA32_PEBS_BASE, "IA32_PEBS_BASE" },
		{ MSR_IA32_PEBS_INDEX, "IA32_PEBS_INDEX" },
		{ MSR_IA32_DEBUGCTL, "IA32_DEBUGCTL" },
	};
	const struct { u32 first; unsigned n, step; const char *fmt; } ranges[] = {
		{ MSR_IA32_A_PMC0, MIN(x->caps->num_gp, MSR_LEGACY_GP_MAX), 1, "IA32_A_PMC%u" },
		{ MSR_IA32_FIXED_CTR0, MIN(x->caps->num_fixed, MSR_LEGACY_FIXED_MAX), 1,
		  "IA32_FIXED_CTR%u" },
		{ MSR_IA32_PMC_FX0_CTR, x->caps->num_fixed, MSR_IA32_PMC_V6_STEP, "IA32_PMC_FX%u_CTR" },
	};
	for (unsigned i = 0; i < ARRAY_SIZE(fixed_names); i++)
		if (fixed_names[i].msr == msr)
			return fixed_names[i].name;
	if (gp_msr_name(x, msr, buf, len))
		return buf;
	for (unsigned i = 0; i < ARRAY_SIZE(ranges); i++)
		if (msr >= ranges[i].first && msr < ranges[i].first + ranges[i].n * ranges[i].step &&
		    (msr - ranges[i].first) % ranges[i].step == 0) {
			bp_snprintf(buf, len, ranges[i].fmt, (msr - ranges[i].first) / ranges[i].step);
			return buf;
		}
	bp_snprintf(buf, len, "MSR 0x%x", msr);
	return buf;
}

bool st_rd(struct st *x, u32 msr, u64 *val)
{
	char name[32];
	if (hw_rdmsr_safe(msr, val) == 0)
		return true;
	*val = 0;
	return st_fail(x, "reading %s faulted (#GP): advertised but not implemented?",
		       st_msr_name(x, msr, name, sizeof(name)));
}

/* i when msr is GP counter i's at base (at base + 2i where AMD's
 * PERF_CTL/PERF_CTR interleave, + 4i in perfmon v6's block), else -1. */
static int gp_index(const struct st *x, u32 base, u32 msr)
{
	u32 stride = x->caps->msr_gp_stride;
	if (msr < base || (msr - base) % stride)
		return -1;
	u32 i = (msr - base) / stride;
	return i < x->caps->num_gp ? (int)i : -1;
}

/* Every alias of a GP counter is saved (and put back) as the one it is
 * read through: IA32_PMCx, or IA32_PMC_GPx_CTR from perfmon v6, which
 * IA32_PMCx and IA32_A_PMCx of the first eight counters alias. */
static u32 journal_key(const struct st *x, u32 msr)
{
	int i = gp_index(x, x->caps->msr_gp_counter_write_base, msr);
	if (i < 0 && caps_v6_msrs(x->caps) && x->caps->num_gp) {
		unsigned legacy = MIN(x->caps->num_gp, MSR_LEGACY_GP_MAX);
		if (msr >= MSR_IA32_PMC0 && msr < MSR_IA32_PMC0 + legacy)
			i = (int)(msr - MSR_IA32_PMC0);
		else if (msr >= MSR_IA32_A_PMC0 && msr < MSR_IA32_A_PMC0 + legacy)
			i = (int)(msr - MSR_IA32_A_PMC0);
	}
	return i >= 0 ? caps_gp_counter_msr(x->caps, (unsigned)i) : msr;
}

static bool journal_save(struct st *x, u32 msr)
{
	u32 key = journal_key(x, msr);
	for (unsigned i = 0; i < x->nsaved; i++)
		if (x->saved[i].msr == key)
			return true;
	if (x->nsaved == JOURNAL_MAX)
		return st_fail(x, "internal: more than %u MSRs to restore", JOURNAL_MAX);
	u64 v;
	if (!st_rd(x, key, &v))
		return false;
	x->saved[x->nsaved].msr = key;
	x->saved[x->nsaved].val = v;
	x->nsaved++;
	return true;
}

/* Writes that may fault as a test outcome: journalled, fault returned. */
int st_wr_probe(struct st *x, u32 msr, u64 val)
{
	if (!journal_save(x, msr))
		return -1;
	return hw_wrmsr_safe(msr, val);
}

/* Writes that must work: a fault is a FAIL naming the MSR and value. */
bool st_wr(struct st *x, u32 msr, u64 val)
{
	char name[32];
	if (!journal_save(x, msr))
		return false;
	if (hw_wrmsr_safe(msr, val) == 0)
		return true;
	return st_fail(x, "writing 0x%llx to %s faulted (#GP)", (unsigned long long)val,
		       st_msr_name(x, msr, name, sizeof(name)));
}

bool st_wr_counter(struct st *x, int counter, u64 val)
{
	return st_wr(x, counter_write_msr(x->caps, counter), val);
}

bool st_rd_counter(struct st *x, int counter, u64 *val)
{
	return st_rd(x, counter_read_msr(x->caps, counter), val);
}

/* SDM 20.2.5: IA32_PMCx keeps bits 31:0 of a write and sign-extends bit
 * 31 through the counter width. */
u64 st_legacy_value(u64 written, u64 mask)
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
u64 st_ticks_to_us(u64 t)  { return t / (ticks_per_second() / 1000000 ? ticks_per_second() / 1000000 : 1); }

static volatile u64 spin_sink;

/* Busy work until done(ctx) or `ms` pass; true when done. */
bool st_spin_until(bool (*done)(void *ctx), void *ctx, u32 ms)
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

struct st_pmi selftest_pmi;	/* the test PMI handler's findings */

static u64 ackable_bits(const struct st *x)
{
	const struct pmu_caps *c = x->caps;
	return ((u64)c->gp_mask | (u64)c->fixed_mask << GLOBAL_FIXED_SHIFT) | x->arch->status_extra;
}

u64 st_overflows(const struct pmu_caps *c, u64 counters)
{
	u64 status = 0, value;
	if (caps_has_global_ctrl(c)) {
		hw_rdmsr_safe(c->msr_global_status, &status);
		return status;
	}
	for (u64 m = counters & GENMASK(31, 0); m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctzll(m);
		if (hw_rdmsr_safe(caps_gp_counter_msr(c, i), &value) == 0 &&
		    !(value & BIT(c->gp_width - 1)))
			status |= global_gp_bit(i);
	}
	return status;
}

/* Stops the counters the handler was armed for, without the journal:
 * the check has journalled these registers already. */
static void pmi_stop(const struct pmu_caps *c, u64 counters)
{
	u64 sel;
	if (caps_has_global_ctrl(c)) {
		hw_wrmsr_safe(c->msr_global_ctrl, 0);
		return;
	}
	for (u64 m = counters & GENMASK(31, 0); m; m &= m - 1) {
		u32 msr = caps_gp_eventsel_msr(c, (unsigned)__builtin_ctzll(m));
		if (hw_rdmsr_safe(msr, &sel) == 0)
			hw_wrmsr_safe(msr, sel & ~EVTSEL_EN);
	}
}

static const struct pmu_caps *pmi_caps;
static u64 pmi_ackable;

/* Stop counting, look, acknowledge where there is a status register.
 * LVT PC is left as delivery left it: masked on Intel, so one arming
 * gives one PMI; unmasked on AMD. Not a sampling path: selftest's checks
 * of PMI delivery itself (what LVT PC and the overflow status read at the
 * PMI), on the CPU the command runs on, on a fixed vector. */
static bool on_pmi(const struct plat_irq_frame *f, void *ctx)
{
	struct st_pmi *p = ctx;
	if (p->calls == 0 && caps_has_global_ctrl(pmi_caps))
		hw_rdmsr_safe(pmi_caps->msr_global_ctrl, &p->ctrl_at_pmi);
	pmi_stop(pmi_caps, p->counters);
	if (p->calls == 0) {
		p->lvt = apic_read(p->apic, APIC_LVT_PERFCNT);
		p->status = st_overflows(pmi_caps, p->counters);
		p->pebs_index = p->area ? p->area->pebs_index : 0;
		if (p->arch_index)
			hw_rdmsr_safe(MSR_IA32_PEBS_INDEX, &p->pebs_index);
		if (caps_has_global_ctrl(pmi_caps))
			p->ack_faulted = hw_wrmsr_safe(pmi_caps->msr_global_status_reset,
						       p->status & pmi_ackable) != 0;
		p->status_after = st_overflows(pmi_caps, p->counters);
	}
	p->calls++;
	apic_eoi(p->apic);
	return true;
}

bool st_pmi_came(void *ctx) { return selftest_pmi.calls > 0; }

/* Installs the handler and programs LVT PC (saved first). */
bool st_pmi_arm(struct st *x, const struct ds_area *area)
{
	if (apic_probe(&x->apic) != 0) {
		st_verdict(x, SELFTEST_SKIP, "no local APIC to deliver PMIs: %s", x->apic.why);
		return false;
	}
	bp_memset(&selftest_pmi, 0, sizeof(selftest_pmi));
	selftest_pmi.apic = &x->apic;
	selftest_pmi.area = area;
	selftest_pmi.counters = 0;	/* the check says which it arms */
	pmi_caps = x->caps;
	pmi_ackable = ackable_bits(x);
	x->lvt0 = apic_read(&x->apic, APIC_LVT_PERFCNT);
	x->lvt_saved = true;
	x->vector = plat_pmi_install(on_pmi, &selftest_pmi);
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
	int i = gp_index(x, x->caps->msr_gp_counter_base, msr);
	u32 via = i >= 0 ? caps_gp_counter_write_msr(x->caps, (unsigned)i) : msr;
	if (hw_wrmsr_safe(via, val) == 0 && hw_rdmsr_safe(msr, &now) == 0 && now == val)
		return true;
	if (i >= 0 && via != msr && st_legacy_value(val, caps_gp_mask_value(x->caps)) == val &&
	    hw_wrmsr_safe(msr, val) == 0 && hw_rdmsr_safe(msr, &now) == 0 && now == val)
		return true;
	char name[32];
	return st_fail(x, "could not put %s back to 0x%llx", st_msr_name(x, msr, name, sizeof(name)),
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
	const struct pmu_caps *c = x->caps;
	u64 now;
	if (!caps_has_global_ctrl(c) || hw_rdmsr_safe(c->msr_global_status, &now))
		return;
	u64 ours = now & ~x->status0;
	if (ours && hw_wrmsr_safe(c->msr_global_status_reset, ours))
		hw_wrmsr_safe(c->msr_global_status_reset, ours & ackable_bits(x));
	u64 lost = x->status0 & ~now;
	if (lost && caps_has_status_set(c))
		hw_wrmsr_safe(c->msr_global_status_set, lost);
}

/* Stop first, PEBS off before its DS area goes, GLOBAL_CTRL last. */
static void restore(struct st *x)
{
	u32 global_ctrl_msr = x->caps->msr_global_ctrl;
	u64 global, pebs;
	bool had_global = journalled(x, global_ctrl_msr, &global);
	if (had_global)
		hw_wrmsr_safe(global_ctrl_msr, 0);
	if (journalled(x, MSR_IA32_PEBS_ENABLE, &pebs))
		restore_msr(x, MSR_IA32_PEBS_ENABLE, pebs);
	for (unsigned i = x->nsaved; i-- > 0;) {
		u32 msr = x->saved[i].msr;
		if (msr != global_ctrl_msr && msr != MSR_IA32_PEBS_ENABLE)
			restore_msr(x, msr, x->saved[i].val);
	}
	restore_status(x);
	if (x->lvt_saved)
		apic_write(&x->apic, APIC_LVT_PERFCNT, x->lvt0);
	if (x->eilvt_saved)
		apic_write(&x->apic, apic_eilvt(x->eilvt_n), x->eilvt0);
	if (x->pmi_installed)
		plat_pmi_remove();
	if (had_global)
		restore_msr(x, global_ctrl_msr, global);
	if (x->ds_allocated)
		pebs_ds_free(&x->ds);
	if (x->apebs_allocated)
		arch_pebs_buf_free(&x->apebs);
	x->nsaved = 0;
	x->lvt_saved = x->pmi_installed = x->ds_allocated = x->eilvt_saved = false;
	x->apebs_allocated = false;
}

u64 st_evtsel_for(u8 code)
{
	return EVTSEL_EN | EVTSEL_OS | EVTSEL_USR | code;
}

u64 st_cycles_evtsel(const struct st *x)
{
	u64 sel = st_evtsel_for(x->arch->cycles_event);
	return caps_has_global_ctrl(x->caps) ? sel : sel & ~EVTSEL_EN;
}

/* Without a global control each select's En is the enable (APM Vol. 2,
 * "PerfEvtSeln"; Linux x86_pmu_enable_all): set for `counters`, clear for
 * the other counters the check programmed. */
bool st_enable(struct st *x, u64 counters)
{
	const struct pmu_caps *c = x->caps;
	u64 sel;
	if (caps_has_global_ctrl(c))
		return st_wr(x, c->msr_global_ctrl, counters);
	for (unsigned i = 0; i < c->num_gp; i++) {
		u32 msr = caps_gp_eventsel_msr(c, i);
		bool on = counters & global_gp_bit(i);
		if (!caps_has_gp(c, i) || (!on && !journalled(x, msr, &sel)))
			continue;
		if (!st_rd(x, msr, &sel) || !st_wr(x, msr, on ? sel | EVTSEL_EN : sel & ~EVTSEL_EN))
			return false;
	}
	return true;
}

/* ---- running ------------------------------------------------------------------------------ */

static void (*const check_fn[SELFTEST_COUNT])(struct st *x) = {
	[SELFTEST_COUNTERS]       = st_check_counters,
	[SELFTEST_WIDTHS]         = st_check_widths,
	[SELFTEST_OVERFLOW_PMI]   = st_check_overflow_pmi,
	[SELFTEST_LVT_MASK]       = st_check_lvt_mask,
	[SELFTEST_PEBS_RECORD]    = st_check_pebs_record,
	[SELFTEST_PEBS_THRESHOLD] = st_check_pebs_threshold,
	[SELFTEST_AUTO_RELOAD]    = st_check_auto_reload,
	[SELFTEST_IBS_OP]         = st_check_ibs_op,
	[SELFTEST_IBS_FETCH]      = st_check_ibs_fetch,
};

static bool pmu_usable(struct st *x)
{
	x->arch = x->caps->amd ? &st_arch_amd : x->caps->intel ? &st_arch_intel : NULL;
	if (x->arch)
		return x->arch->usable(x);
	st_verdict(x, SELFTEST_SKIP, "not an Intel or AMD CPU (%s)", x->caps->vendor);
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
	if (!caps_has_global_ctrl(caps) || st_rd(&x, caps->msr_global_status, &x.status0))
		check_fn[c](&x);
	unjudged_if_disturbed(&x);
	restore(&x);
	if (out->verdict == SELFTEST_NOT_RUN)
		st_verdict(&x, SELFTEST_FAIL, "internal: the check gave no verdict");
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
