/* The self-test's per-architecture pieces (selftest_int.h): what Intel's
 * architectural performance monitoring (SDM Vol. 3B ch. 20) and AMD's
 * core counters (AMD64 APM Vol. 2, "Performance Monitoring Counters")
 * differ in, as far as the checks care. */
#include "selftest_int.h"

/* ---- Intel -------------------------------------------------------------------- */

static bool intel_usable(struct st *x)
{
	if (!caps_has_pmu(x->caps))
		st_verdict(x, SELFTEST_SKIP, "no architectural PMU (CPUID.0AH version 0)");
	else if (!caps_has_global_ctrl(x->caps))
		st_verdict(x, SELFTEST_SKIP, "perfmon version %u has no IA32_PERF_GLOBAL_CTRL",
			   x->caps->version);
	else if (!caps_perfmon_enabled(x->caps))
		st_verdict(x, SELFTEST_SKIP, "performance monitoring disabled in IA32_MISC_ENABLE");
	else
		return true;
	return false;
}

const struct st_arch st_arch_intel = {
	.cycles_event = ARCH_CODE_CORE_CYCLES,
	.ctr_name = "IA32_PMC%u",
	.sel_name = "IA32_PERFEVTSEL%u",
	.status_name = "GLOBAL_STATUS",
	.status_extra = GLOBAL_STATUS_OVF_BUFFER | GLOBAL_STATUS_ARCH_PEBS_THRESHOLD,
	/* SDM Vol. 3A 11.5.1: delivering a performance-monitoring interrupt
	 * sets the mask bit of LVT PC; the handler must clear it. */
	.delivery_masks_lvt_pc = true,
	.lvt_rule = "SDM 11.5.1",
	.usable = intel_usable,
	.gp_width = st_intel_gp_width,
	.widths_pass = st_intel_widths_pass,
	.no_pebs = NULL,
	.no_ibs = "no IBS on Intel (IBS is AMD's)",
};

/* ---- AMD ---------------------------------------------------------------------- */

static bool amd_usable(struct st *x)
{
	if (x->caps->counters_unusable)
		st_verdict(x, SELFTEST_SKIP, "the core counters CPUID promises fault or drop a "
			   "written value (a hypervisor without a PMU)");
	else if (!caps_has_pmu(x->caps))
		st_verdict(x, SELFTEST_SKIP, "no core performance counters "
			   "(CPUID.80000001H, 80000022H)");
	else
		return true;
	return false;
}

const struct st_arch st_arch_amd = {
	.cycles_event = AMD_EVENT_CYCLES_NOT_HALTED,
	.ctr_name = "PERF_CTR%u",
	.sel_name = "PERF_CTL%u",
	.status_name = "PerfCntrGlobalStatus",
	.status_extra = 0,
	/* Linux amd_pmu_v2_handle_irq: "the Mask (M) bit of the LVT PMI
	 * entry is not set by the local APIC when a PMC overflow occurs". */
	.delivery_masks_lvt_pc = false,
	.lvt_rule = "Linux amd_pmu_v2_handle_irq",
	.usable = amd_usable,
	.gp_width = st_amd_gp_width,
	.widths_pass = st_amd_widths_pass,
	.no_pebs = "AMD has no PEBS; IBS checks below",
	.no_ibs = NULL,
};
