/* AMD's core performance counters (AMD64 APM Vol. 2, "Performance
 * Monitoring Counters"): the second PMU architecture (pmu/arch.h). The
 * counter MSRs are at the bases of struct pmu_caps (legacy K7 registers,
 * or PERF_CTLn/PERF_CTRn interleaved with PerfCtrExtCore). There are no
 * fixed counters.
 *
 * With PerfMonV2 (Zen 4 on) the global registers at C000_0300H work as
 * Intel's do, in the same bit layout: bit i is core counter i. Without it
 * each PERF_CTLn's En bit is its only enable, and a counter's overflow is
 * seen as its top bit clear after a negative preset, as Linux's
 * x86_pmu_handle_irq sees it (arch/x86/events/core.c). */
#include "pmu_int.h"
#include "precise.h"
#include "../arch/hw.h"
#include "../lib/fmt.h"

static bool amd_matches(const struct pmu_caps *c)
{
	return c->amd;
}

static int amd_check_usable(const struct pmu_caps *c, char *err, size_t errlen)
{
	if (c->counters_unusable) {
		bp_snprintf(err, errlen, "the core counters CPUID promises do not work: "
			    "PERF_CTL/PERF_CTR fault or drop a written value");
		return -1;
	}
	if (!caps_has_pmu(c)) {
		bp_snprintf(err, errlen, "this CPU reports no core performance counters "
			    "(CPUID.80000001H and 80000022H)");
		return -1;
	}
	return 0;
}

static bool gp_enabled(const struct pmu_caps *c, unsigned i)
{
	return hw_rdmsr(caps_gp_eventsel_msr(c, i)) & EVTSEL_EN;
}

/* A counter counts when its PERF_CTL.En is set and, with PerfMonV2, its
 * PerfCntrGlobalCtl bit too (APM Vol. 2, "Global Control"). */
static u64 amd_counters_in_use(const struct pmu_caps *c)
{
	u64 global = caps_has_global_ctrl(c) ? hw_rdmsr(c->msr_global_ctrl) : ~0ULL, in_use = 0;
	for (unsigned i = 0; i < c->num_gp; i++)
		if (caps_has_gp(c, i) && (global & global_gp_bit(i)) && gp_enabled(c, i))
			in_use |= global_gp_bit(i);
	return in_use;
}

/* ---- save and restore ------------------------------------------------------ */

static void amd_save(struct pmu *p)
{
	const struct pmu_caps *c = &p->caps;
	pmu_save_counters(p);
	/* Without global control the enable state is each PERF_CTL's En:
	 * kept in the global_ctrl layout so that close enables them again. */
	if (!caps_has_global_ctrl(c))
		for (unsigned i = 0; i < c->num_gp && i < PMU_MAX_GP; i++)
			if (caps_has_gp(c, i) && (p->saved.evtsel[i] & EVTSEL_EN))
				p->saved.global_ctrl |= global_gp_bit(i);
}

static void amd_restore(struct pmu *p)
{
	const struct pmu_caps *c = &p->caps;
	pmu_restore_counters(p);
	for (unsigned i = 0; i < c->num_gp && i < PMU_MAX_GP; i++)
		p->sh_evtsel[i] = p->saved.evtsel[i];
	pmu_restore_status(p);
}

/* ---- programming ------------------------------------------------------------- */

/* EventSelect[11:8], in PERF_CTL bits 35:32. */
static u64 event_hi_bits(u16 event)
{
	return (u64)(event >> 8) << AMD_EVTSEL_EVENT_HI_SHIFT & AMD_EVTSEL_EVENT_HI_MASK;
}

/* PERF_CTLn for an event (APM Vol. 2, "PerfEvtSeln/PERF_CTLn"): the
 * 12-bit event in 7:0 and 35:32; En where the global control gates the
 * counter (PerfMonV2), else left to enable_all. HostOnly and GuestOnly
 * stay clear: the counter counts in both, as Linux leaves them unless the
 * attr excludes one. */
static u64 amd_evtsel(const struct pmu_caps *c, const struct pmu_slot *sl)
{
	u64 v = counter_evtsel_fields(&sl->ev) | event_hi_bits(sl->ev.event);
	if (sl->period)
		v |= EVTSEL_INT;
	if (caps_has_global_ctrl(c))
		v |= EVTSEL_EN;
	return v;
}

/* The odd counter of a large-increment event's pair counts the Merge
 * event (AMD_EVENT_MERGE; Linux AMD_MERGE_EVENT_ENABLE, written by
 * __x86_pmu_enable_event): no USR/OS, no Int: the pair's overflow is the
 * even counter's. */
static u64 amd_merge_evtsel(const struct pmu_caps *c)
{
	u64 v = (AMD_EVENT_MERGE & EVTSEL_EVENT_MASK) | event_hi_bits(AMD_EVENT_MERGE);
	return caps_has_global_ctrl(c) ? v | EVTSEL_EN : v;
}

/* A pair that moved or left leaves Merge on its odd counter, which would
 * extend whatever event the even one counts next: cleared, as Linux's
 * x86_pmu_disable_event writes 0 to the odd PERF_CTL. */
static void clear_stale_merges(struct pmu *p)
{
	const struct pmu_caps *c = &p->caps;
	for (unsigned i = 1; i < c->num_gp && i < PMU_MAX_GP; i += 2)
		if (!(p->active_mask & global_gp_bit(i)) && p->sh_evtsel[i] == amd_merge_evtsel(c))
			pmu_write_if_changed(caps_gp_eventsel_msr(c, i), &p->sh_evtsel[i], 0);
}

static void amd_program(struct pmu *p)
{
	for (int s = 0; s < PMU_MAX_EVENTS; s++) {
		struct pmu_slot *sl = &p->slot[s];
		if (!sl->used || sl->counter == COUNTER_NONE)
			continue;
		if (sl->dirty)
			pmu_program_counter_value(p, sl);
		unsigned i = counter_index(sl->counter);
		pmu_write_if_changed(caps_gp_eventsel_msr(&p->caps, i), &p->sh_evtsel[i],
				     amd_evtsel(&p->caps, sl));
		if (sl->ev.amd_pair)
			pmu_write_if_changed(caps_gp_eventsel_msr(&p->caps, i + 1),
					     &p->sh_evtsel[i + 1], amd_merge_evtsel(&p->caps));
	}
	clear_stale_merges(p);
}

/* ---- global control ------------------------------------------------------------ */

/* Without PerfMonV2, the enable is each PERF_CTL's En, written for every
 * counter bareperf or the firmware used, as Linux's x86_pmu_enable_all
 * and x86_pmu_disable_all do; the shadows hold the selects without En. */
static void enable_each(const struct pmu *p, u64 counters)
{
	const struct pmu_caps *c = &p->caps;
	u64 touched = counters | p->active_mask | p->saved.global_ctrl;
	for (unsigned i = 0; i < c->num_gp && i < PMU_MAX_GP; i++) {
		if (!(touched & global_gp_bit(i)) || !caps_has_gp(c, i))
			continue;
		u64 v = p->sh_evtsel[i] & ~EVTSEL_EN;
		hw_wrmsr(caps_gp_eventsel_msr(c, i), (counters & global_gp_bit(i)) ? v | EVTSEL_EN : v);
	}
}

static void amd_enable_all(const struct pmu *p, u64 counters)
{
	if (caps_has_global_ctrl(&p->caps))
		hw_wrmsr(p->caps.msr_global_ctrl, counters);
	else
		enable_each(p, counters);
}

/* Without PerfMonV2 there is no status register: a sampling counter
 * whose top bit is clear has wrapped since its negative preset. */
static u64 overflowed_by_sign(const struct pmu *p)
{
	u64 status = 0, top = BIT(p->caps.gp_width - 1);
	for (u64 m = p->sampling_mask; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctzll(m);
		if (!(counter_read_fast(counter_gp(i)) & top))
			status |= global_gp_bit(i);
	}
	return status;
}

/* An IBS unit the engine armed holds a sample (IbsOpVal, IbsFetchVal):
 * the engine's drain reads it and re-arms (Linux perf_ibs_handle_irq). */
static u64 ibs_status(const struct pmu *p)
{
	if ((p->ibs_units & PMU_IBS_OP) && (hw_rdmsr(MSR_AMD_IBS_OP_CTL) & IBS_OP_VAL))
		return PMU_STATUS_PRECISE;
	if ((p->ibs_units & PMU_IBS_FETCH) && (hw_rdmsr(MSR_AMD_IBS_FETCH_CTL) & IBS_FETCH_VAL))
		return PMU_STATUS_PRECISE;
	return 0;
}

static u64 amd_read_status(const struct pmu *p)
{
	u64 ibs = p->ibs_units ? ibs_status(p) : 0;
	if (caps_has_global_ctrl(&p->caps))
		return hw_rdmsr(p->caps.msr_global_status) | ibs;
	return overflowed_by_sign(p) | ibs;
}

static u64 amd_read_enabled(const struct pmu *p)
{
	const struct pmu_caps *c = &p->caps;
	if (caps_has_global_ctrl(c))
		return hw_rdmsr(c->msr_global_ctrl);
	u64 enabled = 0;
	for (unsigned i = 0; i < c->num_gp; i++)
		if (caps_has_gp(c, i) && gp_enabled(c, i))
			enabled |= global_gp_bit(i);
	return enabled;
}

static const char *amd_enable_reg_name(const struct pmu_caps *c)
{
	return caps_has_global_ctrl(c) ? "PerfCntrGlobalCtl" : "the PERF_CTL En bits";
}

/* PerfCntrGlobalStatusClr: a 1 clears that status bit. Without a status
 * register the preset that follows is the acknowledgement. The IBS bit is
 * no status bit: the drain's re-arm clears Val. */
static void amd_ack_status(const struct pmu *p, u64 bits)
{
	bits &= ~PMU_STATUS_PRECISE;
	if (caps_has_global_ctrl(&p->caps) && bits)
		hw_wrmsr(p->caps.msr_global_status_reset, bits);
}

/* ---- what the layers above ask -------------------------------------------------- */

/* The local APIC does not mask LVT PC when it delivers a counter
 * overflow on these parts (Linux amd_pmu_v2_handle_irq: "Unmasking the
 * LVTPC is not required"), so the PMI's unmask can come last. */
static bool amd_pmi_mid_ack(const struct pmu_caps *c)
{
	(void)c;
	return false;
}

/* Counters are written whole (48 bits); Linux's amd_pmu.max_period is
 * 2^47 - 1 likewise. */
static u64 amd_max_period(const struct pmu_caps *c, int counter, const char **why)
{
	*why = NULL;
	return counter_max_period(c, counter);
}

/* perf's cpu PMU format on AMD (arch/x86/events/amd/core.c: event
 * config:0-7,32-35, umask 8-15, edge 18, inv 23, cmask 24-31). */
static u64 amd_perf_config(const struct pmu_event *e, u64 *config1)
{
	*config1 = 0;
	return (counter_evtsel_fields(e) & ~(u64)(EVTSEL_USR | EVTSEL_OS)) | event_hi_bits(e->event);
}

const struct pmu_arch pmu_arch_amd = {
	.name = "amd",
	.matches = amd_matches,
	.check_usable = amd_check_usable,
	.counters_in_use = amd_counters_in_use,
	.save = amd_save,
	.restore = amd_restore,
	.program = amd_program,
	.enable_all = amd_enable_all,
	.read_status = amd_read_status,
	.read_enabled = amd_read_enabled,
	.enable_reg_name = amd_enable_reg_name,
	.ack_status = amd_ack_status,
	.pmi_mid_ack = amd_pmi_mid_ack,
	.max_period = amd_max_period,
	.perf_config = amd_perf_config,
	.precise = &precise_ibs,
};
