/* Intel's architectural performance monitoring, version 2 and later, with
 * DS-based PEBS (SDM Vol. 3B, "Architectural Performance Monitoring" and
 * "Processor Event Based Sampling"): the first PMU architecture
 * (pmu/arch.h). The counter MSRs are at the bases of struct pmu_caps;
 * the registers only this architecture has (IA32_FIXED_CTR_CTRL,
 * IA32_PEBS_ENABLE, MSR_PEBS_DATA_CFG, the extra MSRs of offcore, load
 * latency and frontend events) are handled here. */
#include "pmu_int.h"
#include "precise.h"
#include "../arch/hw.h"
#include "../lib/fmt.h"

static bool intel_matches(const struct pmu_caps *c)
{
	return c->intel;
}

static int intel_check_usable(const struct pmu_caps *c, char *err, size_t errlen)
{
	if (!caps_has_pmu(c)) {
		bp_snprintf(err, errlen, "this CPU reports no architectural performance "
			    "monitoring (CPUID.0AH version 0)");
		return -1;
	}
	if (!caps_has_global_ctrl(c)) {
		bp_snprintf(err, errlen, "perfmon version %u has no IA32_PERF_GLOBAL_CTRL; "
			    "bareperf needs version 2 or later", c->version);
		return -1;
	}
	if (!caps_perfmon_enabled(c)) {
		bp_snprintf(err, errlen, "performance monitoring is disabled in "
			    "IA32_MISC_ENABLE (bit 7 clear)");
		return -1;
	}
	return 0;
}

static u64 intel_counters_in_use(const struct pmu_caps *c)
{
	u64 global = hw_rdmsr(c->msr_global_ctrl), in_use = 0;
	for (unsigned i = 0; i < c->num_gp; i++)
		if (caps_has_gp(c, i) && (global & global_gp_bit(i)) &&
		    (hw_rdmsr(caps_gp_eventsel_msr(c, i)) & EVTSEL_EN))
			in_use |= global_gp_bit(i);
	u64 fixed_ctrl = c->num_fixed ? hw_rdmsr(c->msr_fixed_ctr_ctrl) : 0;
	for (unsigned i = 0; i < c->num_fixed; i++)
		if (caps_has_fixed(c, i) && (global & global_fixed_bit(i)) &&
		    (fixed_ctrl & fixed_ctrl_field(i, FIXED_CTRL_OS | FIXED_CTRL_USR)))
			in_use |= global_fixed_bit(i);
	return in_use;
}

/* ---- save and restore ------------------------------------------------------ */

static bool has_offcore(const struct pmu_caps *c)
{
	return c->version >= 2;
}

static void intel_save(struct pmu *p)
{
	const struct pmu_caps *c = &p->caps;
	struct pmu_saved *s = &p->saved;

	pmu_save_counters(p);
	s->debugctl = hw_rdmsr(MSR_IA32_DEBUGCTL);
	if (c->num_fixed)
		s->fixed_ctrl = hw_rdmsr(c->msr_fixed_ctr_ctrl);
	if (caps_has_ds_pebs(c))
		s->pebs_enable = hw_rdmsr(MSR_IA32_PEBS_ENABLE);
	if (caps_has_pebs(c)) {
		s->has_ld_lat = hw_rdmsr_safe(MSR_PEBS_LD_LAT_THRESHOLD, &s->ld_lat) == 0;
		/* Skylake and later P-cores only: probed, as elsewhere it #GPs. */
		s->has_frontend = hw_rdmsr_safe(MSR_PEBS_FRONTEND, &s->frontend) == 0;
	}
	if (c->pebs_baseline && caps_has_ds_pebs(c))
		s->has_data_cfg = hw_rdmsr_safe(MSR_PEBS_DATA_CFG, &s->data_cfg) == 0;
	if (has_offcore(c)) {
		s->has_offcore[0] = hw_rdmsr_safe(MSR_OFFCORE_RSP_0, &s->offcore[0]) == 0;
		s->has_offcore[1] = hw_rdmsr_safe(MSR_OFFCORE_RSP_1, &s->offcore[1]) == 0;
	}
	p->sh_fixed_ctrl = s->fixed_ctrl;
	p->sh_pebs_enable = s->pebs_enable;
	p->sh_extra[EXTRA_OFFCORE0] = s->offcore[0];
	p->sh_extra[EXTRA_OFFCORE1] = s->offcore[1];
	p->sh_extra[EXTRA_LD_LAT] = s->ld_lat;
	p->sh_extra[EXTRA_FRONTEND] = s->frontend;
	p->sh_data_cfg = s->data_cfg;
}

static void restore_if_changed(bool present, u32 msr, u64 shadow, u64 saved)
{
	if (present && shadow != saved)
		hw_wrmsr(msr, saved);
}

static void intel_restore(struct pmu *p)
{
	const struct pmu_caps *c = &p->caps;
	const struct pmu_saved *s = &p->saved;

	pmu_restore_counters(p);
	restore_if_changed(c->num_fixed, c->msr_fixed_ctr_ctrl, p->sh_fixed_ctrl, s->fixed_ctrl);
	restore_if_changed(caps_has_ds_pebs(c), MSR_IA32_PEBS_ENABLE, p->sh_pebs_enable, s->pebs_enable);
	restore_if_changed(s->has_data_cfg, MSR_PEBS_DATA_CFG, p->sh_data_cfg, s->data_cfg);
	restore_if_changed(s->has_ld_lat, MSR_PEBS_LD_LAT_THRESHOLD, p->sh_extra[EXTRA_LD_LAT],
			   s->ld_lat);
	restore_if_changed(s->has_frontend, MSR_PEBS_FRONTEND, p->sh_extra[EXTRA_FRONTEND],
			   s->frontend);
	restore_if_changed(s->has_offcore[0], MSR_OFFCORE_RSP_0, p->sh_extra[EXTRA_OFFCORE0],
			   s->offcore[0]);
	restore_if_changed(s->has_offcore[1], MSR_OFFCORE_RSP_1, p->sh_extra[EXTRA_OFFCORE1],
			   s->offcore[1]);
	pmu_restore_status(p);
}

/* ---- programming ------------------------------------------------------------- */

static struct counter_mode mode_of(const struct pmu *p, const struct pmu_slot *sl)
{
	return (struct counter_mode){
		.interrupt = sl->period && !sl->pebs,
		/* EVTSEL[34], adaptive records: DS-based PEBS only */
		.adaptive = sl->pebs && p->caps.pebs_baseline && caps_has_ds_pebs(&p->caps),
	};
}

/* IA32_PERFEVTSELx for a slot: an offcore event the scheduler moved to
 * its alternate MSR counts with its alternate event code and umask. */
static u64 slot_evtsel(const struct pmu_slot *sl, struct counter_mode m)
{
	if (sl->extra_msr == sl->ev.extra_msr)
		return counter_evtsel(&sl->ev, m);
	struct pmu_event alt = sl->ev;
	sched_event_use_msr(&alt, sl->extra_msr);
	return counter_evtsel(&alt, m);
}

/* IA32_PEBS_ENABLE bits a slot owns and sets: bit i for GP i and, with
 * baseline (adaptive) PEBS, bit 32+i for fixed i; before baseline bit
 * 32+i enabled load latency on GP i (SDM Vol. 3B, PEBS_ENABLE). */
static void pebs_enable_bits(const struct pmu *p, const struct pmu_slot *sl, u64 *owned, u64 *set)
{
	unsigned i = counter_index(sl->counter);
	u64 own = BIT(sl->counter);
	if (!p->caps.pebs_baseline && !counter_is_fixed(sl->counter))
		own |= BIT(PEBS_ENABLE_LL_SHIFT + i);
	*owned |= own;
	if (!sl->pebs)
		return;
	*set |= BIT(sl->counter);
	if (!p->caps.pebs_baseline && sl->extra_msr == MSR_PEBS_LD_LAT_THRESHOLD)
		*set |= BIT(PEBS_ENABLE_LL_SHIFT + i);
}

static void intel_program(struct pmu *p)
{
	u64 fixed_ctrl = p->sh_fixed_ctrl, pebs_bits = 0, pebs_owned = 0;

	for (int s = 0; s < PMU_MAX_EVENTS; s++) {
		struct pmu_slot *sl = &p->slot[s];
		if (!sl->used || sl->counter == COUNTER_NONE)
			continue;
		unsigned i = counter_index(sl->counter);
		struct counter_mode m = mode_of(p, sl);
		if (sl->dirty)
			pmu_program_counter_value(p, sl);
		if (counter_is_fixed(sl->counter)) {
			fixed_ctrl &= ~counter_fixed_field_mask(i);
			fixed_ctrl |= counter_fixed_bits(i, &sl->ev, m);
		} else {
			pmu_write_if_changed(caps_gp_eventsel_msr(&p->caps, i), &p->sh_evtsel[i],
					     slot_evtsel(sl, m));
		}
		int x = extra_msr_slot(sl->extra_msr);
		if (x >= 0)
			pmu_write_if_changed(sl->extra_msr, &p->sh_extra[x], sl->ev.extra_value);
		pebs_enable_bits(p, sl, &pebs_owned, &pebs_bits);
	}
	if (p->caps.num_fixed)
		pmu_write_if_changed(p->caps.msr_fixed_ctr_ctrl, &p->sh_fixed_ctrl, fixed_ctrl);
	if (caps_has_ds_pebs(&p->caps))
		pmu_write_if_changed(MSR_IA32_PEBS_ENABLE, &p->sh_pebs_enable,
				     (p->sh_pebs_enable & ~pebs_owned) | pebs_bits);
}

/* ---- global control ------------------------------------------------------------ */

static void intel_enable_all(const struct pmu *p, u64 counters)
{
	hw_wrmsr(p->caps.msr_global_ctrl, counters);
}

static u64 intel_read_status(const struct pmu *p)
{
	return hw_rdmsr(p->caps.msr_global_status);
}

static u64 intel_read_enabled(const struct pmu *p)
{
	return hw_rdmsr(p->caps.msr_global_ctrl);
}

static const char *intel_enable_reg_name(const struct pmu_caps *c)
{
	(void)c;
	return "IA32_PERF_GLOBAL_CTRL";
}

/* IA32_PERF_GLOBAL_OVF_CTRL (STATUS_RESET from version 4): a 1 clears
 * that status bit. */
static void intel_ack_status(const struct pmu *p, u64 bits)
{
	hw_wrmsr(p->caps.msr_global_status_reset, bits);
}

/* ---- what the layers above ask -------------------------------------------------- */

static u64 intel_max_period(const struct pmu_caps *c, int counter, const char **why)
{
	/* Without full-width writes (IA32_PERF_CAPABILITIES.FW_WRITE[13]) a
	 * GP counter is written through IA32_PMCx, whose bit 31 the CPU
	 * sign-extends (SDM 20.2.5, "Full-Width Writes to Performance
	 * Counter Registers"). */
	bool legacy = !counter_is_fixed(counter) && !c->full_width_write;
	*why = legacy ? "no full-width counter writes: IA32_PERF_CAPABILITIES bit 13 is clear" : NULL;
	return counter_max_period(c, counter);
}

/* perf's cpu PMU format on Intel (arch/x86/events/intel: event, umask,
 * edge, any, inv, cmask, eq (36) and umask2 (47:40) in config; the enable, ring and
 * interrupt bits are the attr's own fields; ldlat, offcore_rsp and
 * frontend in config1). */
static u64 intel_perf_config(const struct pmu_event *e, u64 *config1)
{
	u64 evtsel = counter_evtsel(e, (struct counter_mode){ 0 });
	u64 config = evtsel & (GENMASK(31, 0) | EVTSEL_EQ | GENMASK(47, EVTSEL_UMASK2_SHIFT)) &
		     ~(u64)(EVTSEL_EN | EVTSEL_INT | EVTSEL_USR | EVTSEL_OS);
	*config1 = e->extra_msr ? e->extra_value : 0;
	return config;
}

/* What the legacy and the Architectural-PEBS entries share. */
#define INTEL_COMMON_OPS \
	.check_usable = intel_check_usable, \
	.counters_in_use = intel_counters_in_use, \
	.save = intel_save, \
	.restore = intel_restore, \
	.program = intel_program, \
	.enable_all = intel_enable_all, \
	.read_enabled = intel_read_enabled, \
	.enable_reg_name = intel_enable_reg_name, \
	.pmi_mid_ack = caps_pmi_mid_ack, \
	.max_period = intel_max_period, \
	.perf_config = intel_perf_config

const struct pmu_arch pmu_arch_intel = {
	.name = "intel",
	.matches = intel_matches,
	INTEL_COMMON_OPS,
	.read_status = intel_read_status,
	.ack_status = intel_ack_status,
	.precise = &precise_ds_pebs,
};

/* ---- with Architectural PEBS ------------------------------------------------- */

/* Parts whose IA32_PERF_CAPABILITIES.PEBS_FORMAT reads 0xF: the same
 * counters and controls, another precise engine (no DS, IA32_PEBS_ENABLE
 * or MSR_PEBS_DATA_CFG, which intel_save and intel_program leave alone
 * there), and its buffer's PMI in GLOBAL_STATUS bit 54, read and
 * acknowledged as PMU_STATUS_PRECISE (bit 62 means nothing there). */
static bool intel_arch_pebs_matches(const struct pmu_caps *c)
{
	return c->intel && caps_pebs_format_arch(c);
}

static u64 intel_arch_pebs_read_status(const struct pmu *p)
{
	u64 status = hw_rdmsr(p->caps.msr_global_status) & ~PMU_STATUS_PRECISE;
	if (status & GLOBAL_STATUS_ARCH_PEBS_THRESHOLD)
		status = (status & ~GLOBAL_STATUS_ARCH_PEBS_THRESHOLD) | PMU_STATUS_PRECISE;
	return status;
}

static void intel_arch_pebs_ack_status(const struct pmu *p, u64 bits)
{
	if (bits & PMU_STATUS_PRECISE)
		bits = (bits & ~PMU_STATUS_PRECISE) | GLOBAL_STATUS_ARCH_PEBS_THRESHOLD;
	hw_wrmsr(p->caps.msr_global_status_reset, bits);
}

const struct pmu_arch pmu_arch_intel_arch_pebs = {
	.name = "intel-arch-pebs",
	.matches = intel_arch_pebs_matches,
	INTEL_COMMON_OPS,
	.read_status = intel_arch_pebs_read_status,
	.ack_status = intel_arch_pebs_ack_status,
	.precise = &precise_arch_pebs,
};
