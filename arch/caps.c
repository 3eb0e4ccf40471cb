#include "caps.h"
#include "../lib/str.h"

static const char *const arch_event_names[ARCH_EVENT_COUNT] = {
	[ARCH_EVENT_CORE_CYCLES]    = "core cycles",
	[ARCH_EVENT_INST_RETIRED]   = "instructions retired",
	[ARCH_EVENT_REF_CYCLES]     = "reference cycles",
	[ARCH_EVENT_LLC_REFERENCES] = "LLC references",
	[ARCH_EVENT_LLC_MISSES]     = "LLC misses",
	[ARCH_EVENT_BRANCH_RETIRED] = "branch instructions retired",
	[ARCH_EVENT_BRANCH_MISSES]  = "branch mispredicts retired",
	[ARCH_EVENT_TOPDOWN_SLOTS]  = "topdown slots",
};

const char *caps_arch_event_name(enum arch_event e)
{
	return e < ARCH_EVENT_COUNT ? arch_event_names[e] : "?";
}

const char *caps_core_type_name(u8 core_type)
{
	switch (core_type) {
	case CPUID_1A_CORE_TYPE_ATOM: return "efficiency core (Atom)";
	case CPUID_1A_CORE_TYPE_CORE: return "performance core (Core)";
	default: return "unknown core type";
	}
}

static void copy_regs_text(char *dst, const u32 *words, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned b = 0; b < 4; b++)
			dst[i * 4 + b] = (char)(words[i] >> (8 * b));
	dst[n * 4] = 0;
}

void caps_decode_leaf01(struct pmu_caps *c, const struct cpuid_regs *r)
{
	u32 family = FIELD(r->eax, 11, 8), model = FIELD(r->eax, 7, 4);

	c->signature = r->eax;
	c->stepping = FIELD(r->eax, 3, 0);
	/* SDM Vol. 2A CPUID: extended family adds for family 0FH; extended
	 * model is prepended for families 06H and 0FH. */
	if (family == 0xF)
		family += FIELD(r->eax, 27, 20);
	if (family == 0x6 || family >= 0xF)
		model |= FIELD(r->eax, 19, 16) << 4;
	c->family = family;
	c->model = model;
	c->pdcm = r->ecx & CPUID_01_ECX_PDCM;
	c->dtes64 = r->ecx & CPUID_01_ECX_DTES64;
	c->ds_cpl = r->ecx & CPUID_01_ECX_DS_CPL;
	c->x2apic = r->ecx & CPUID_01_ECX_X2APIC;
	c->hypervisor = r->ecx & CPUID_01_ECX_HYPERVISOR;
	c->ds = r->edx & CPUID_01_EDX_DS;
}

void caps_decode_leaf0a(struct pmu_caps *c, const struct cpuid_regs *r)
{
	c->version = FIELD(r->eax, 7, 0);
	c->num_gp = FIELD(r->eax, 15, 8);
	c->gp_width = FIELD(r->eax, 23, 16);
	c->arch_events_len = FIELD(r->eax, 31, 24);
	c->gp_mask = c->num_gp ? (u32)GENMASK(MIN(c->num_gp, 32) - 1, 0) : 0;
	c->arch_events = 0;
	for (unsigned i = 0; i < c->arch_events_len && i < ARCH_EVENT_COUNT; i++)
		if (!(r->ebx & (1u << i)))
			c->arch_events |= 1u << i;

	c->num_fixed = 0;
	c->fixed_width = 0;
	c->fixed_mask = 0;
	if (c->version >= 2) {
		c->num_fixed = FIELD(r->edx, 4, 0);
		c->fixed_width = FIELD(r->edx, 12, 5);
		c->fixed_mask = c->num_fixed ? (u32)(GENMASK(c->num_fixed - 1, 0)) : 0;
		c->anythread_deprecated = r->edx & CPUID_0A_EDX_ANYTHREAD_DEPRECATED;
	}
	/* SDM: from version 5, ECX is a bitmap of supported fixed counters
	 * ("fixed counter i is supported if ECX[i] || EDX[4:0] > i"). */
	if (c->version >= 5) {
		c->fixed_mask |= r->ecx;
		for (unsigned i = 0; i < 32; i++)
			if (c->fixed_mask & (1u << i))
				c->num_fixed = (u8)(i + 1);
	}
}

void caps_decode_leaf23_counters(struct pmu_caps *c, const struct cpuid_regs *r)
{
	c->gp_mask = r->eax;
	c->fixed_mask = r->ebx;
	c->num_gp = 0;
	c->num_fixed = 0;
	for (unsigned i = 0; i < 32; i++) {
		if (r->eax & (1u << i))
			c->num_gp = (u8)(i + 1);
		if (r->ebx & (1u << i))
			c->num_fixed = (u8)(i + 1);
	}
}

/* A hybrid part's CPUID.0AH reports the counters every core type has; a
 * P-core of Alder Lake and Raptor Lake (no CPUID.23H to enumerate its
 * own) has 2 general-purpose and 1 fixed counter more. Linux adds them
 * the same way (arch/x86/events/intel/core.c, intel_pmu_init, Alder
 * Lake: num_counters + 2, num_counters_fixed + 1 when the CPU is hybrid;
 * with the E-cores disabled the part is not hybrid and CPUID.0AH reports
 * the P-core's own counters). */
void caps_add_hybrid_core_counters(struct pmu_caps *c)
{
	if (!c->hybrid || c->core_type != CPUID_1A_CORE_TYPE_CORE || c->has_leaf_23 ||
	    !c->num_gp || c->num_gp + 2 > 32 || c->num_fixed + 1 > 32)
		return;
	c->num_gp += 2;
	c->gp_mask = (u32)GENMASK(c->num_gp - 1, 0);
	c->num_fixed += 1;
	c->fixed_mask |= BIT(c->num_fixed - 1);
	c->hybrid_core_extra = true;
}

void caps_decode_perf_capabilities(struct pmu_caps *c, u64 v)
{
	c->perf_capabilities = v;
	c->lbr_format = FIELD(v, 5, 0);
	c->pebs_trap = v & PERF_CAP_PEBS_TRAP;
	c->pebs_arch_reg = v & PERF_CAP_PEBS_ARCH_REG;
	c->pebs_format = (u8)((v & PERF_CAP_PEBS_FORMAT_MASK) >> PERF_CAP_PEBS_FORMAT_SHIFT);
	c->smm_freeze = v & PERF_CAP_SMM_FREEZE;
	c->full_width_write = v & PERF_CAP_FW_WRITE;
	c->pebs_baseline = v & PERF_CAP_PEBS_BASELINE;
	c->perf_metrics = v & PERF_CAP_PERF_METRICS;
	c->pebs_output_pt = v & PERF_CAP_PEBS_OUTPUT_PT;
	c->pebs_timing_info = v & PERF_CAP_PEBS_TIMING_INFO;
}

/* SDM Vol. 3B, "Architectural Performance Monitoring": IA32_PMCx and
 * IA32_PERFEVTSELx from 0C1H and 186H, IA32_FIXED_CTRx from 309H; with
 * IA32_PERF_CAPABILITIES.FW_WRITE[13] a GP counter is written through
 * IA32_A_PMCx from 4C1H, which takes the full width where IA32_PMCx
 * sign-extends bit 31 ("Full-Width Writes to Performance Counter
 * Registers"). Reads go to IA32_PMCx, which returns the full width. */
void caps_set_counter_msrs(struct pmu_caps *c)
{
	c->msr_gp_counter_base = MSR_IA32_PMC0;
	c->msr_gp_counter_write_base = c->full_width_write ? MSR_IA32_A_PMC0 : MSR_IA32_PMC0;
	c->msr_gp_event_select_base = MSR_IA32_PERFEVTSEL0;
	c->msr_fixed_counter_base = MSR_IA32_FIXED_CTR0;
	c->msr_gp_stride = c->msr_fixed_stride = 1;
	/* From version 6 every counter is in the 1900H block, the only one
	 * that reaches GP counters past 7 and fixed ones past 3; Linux takes
	 * it whenever x86_pmu.version >= 6 ("Support V6+ MSR Aliasing",
	 * arch/x86/events/intel/core.c, intel_pmu_init). */
	if (caps_v6_msrs(c)) {
		c->msr_gp_counter_base = c->msr_gp_counter_write_base = MSR_IA32_PMC_GP0_CTR;
		c->msr_gp_event_select_base = MSR_IA32_PMC_GP0_CFG_A;
		c->msr_fixed_counter_base = MSR_IA32_PMC_FX0_CTR;
		c->msr_gp_stride = c->msr_fixed_stride = MSR_IA32_PMC_V6_STEP;
	}
	c->msr_fixed_ctr_ctrl = MSR_IA32_FIXED_CTR_CTRL;
	c->msr_global_ctrl = MSR_IA32_PERF_GLOBAL_CTRL;
	c->msr_global_status = MSR_IA32_PERF_GLOBAL_STATUS;
	c->msr_global_status_reset = MSR_IA32_PERF_GLOBAL_OVF_CTRL;	/* STATUS_RESET from v4 */
	c->msr_global_status_set = MSR_IA32_PERF_GLOBAL_STATUS_SET;
}

void caps_decode_amd_ext_features(struct pmu_caps *c, const struct cpuid_regs *r)
{
	c->perfctr_core = r->ecx & CPUID_8000_0001_ECX_PERFCTR_CORE;
	c->ibs = r->ecx & CPUID_8000_0001_ECX_IBS;
	/* APM Vol. 2, "Performance Monitoring Counters": four legacy
	 * counters, six with PerfCtrExtCore; 48 bits wide either way. */
	c->num_gp = c->perfctr_core ? AMD_CORE_EXT_COUNTERS : AMD_LEGACY_COUNTERS;
	c->gp_mask = (u32)GENMASK(c->num_gp - 1, 0);
	c->gp_width = AMD_COUNTER_WIDTH;
}

/* CPUID.80000022H: with PerfMonV2, EBX[3:0] is the number of core
 * counters (Linux amd_core_pmu_init takes it over the default six). */
void caps_decode_amd_perfmon(struct pmu_caps *c, const struct cpuid_regs *r)
{
	c->perfmon_v2 = r->eax & CPUID_8000_0022_EAX_PERFMON_V2;
	c->lbr_ext_v2 = r->eax & CPUID_8000_0022_EAX_LBR_EXT_V2;
	c->lbr_pmc_freeze = r->eax & CPUID_8000_0022_EAX_LBR_PMC_FREEZE;
	c->amd_lbr_depth = FIELD(r->ebx, 9, 4);
	c->amd_nb_counters = FIELD(r->ebx, 15, 10);
	c->amd_umc_counters = FIELD(r->ebx, 21, 16);
	u32 n = FIELD(r->ebx, 3, 0);
	if (c->perfmon_v2 && n) {
		c->num_gp = (u8)n;
		c->gp_mask = (u32)GENMASK(n - 1, 0);
	}
}

/* CPUID.8000001BH:EAX is valid when its IBSFFV bit (0) is set; Linux
 * (get_ibs_caps) falls back to the family 10h set otherwise. */
void caps_decode_amd_ibs(struct pmu_caps *c, const struct cpuid_regs *r)
{
	c->ibs_caps = (r->eax & IBS_CAPS_AVAIL) ? r->eax
		      : IBS_CAPS_AVAIL | IBS_CAPS_FETCHSAM | IBS_CAPS_OPSAM;
}

/* APM Vol. 2: with PerfCtrExtCore, PERF_CTLn at C001_0200H + 2n and
 * PERF_CTRn after it; the legacy K7 registers otherwise. PerfMonV2 adds
 * the global registers at C000_0300H. */
void caps_set_amd_counter_msrs(struct pmu_caps *c)
{
	c->msr_gp_stride = c->perfctr_core ? 2 : 1;
	c->msr_fixed_stride = 1;
	c->msr_gp_event_select_base = c->perfctr_core ? MSR_AMD_PERF_CTL0 : MSR_K7_EVNTSEL0;
	c->msr_gp_counter_base = c->perfctr_core ? MSR_AMD_PERF_CTR0 : MSR_K7_PERFCTR0;
	c->msr_gp_counter_write_base = c->msr_gp_counter_base;
	c->full_width_write = true;	/* counters are written whole */
	c->msr_fixed_counter_base = 0;
	c->msr_fixed_ctr_ctrl = 0;
	c->msr_global_ctrl = c->perfmon_v2 ? MSR_AMD_PERF_CNTR_GLOBAL_CTL : 0;
	c->msr_global_status = c->perfmon_v2 ? MSR_AMD_PERF_CNTR_GLOBAL_STATUS : 0;
	c->msr_global_status_reset = c->perfmon_v2 ? MSR_AMD_PERF_CNTR_GLOBAL_STATUS_CLR : 0;
	c->msr_global_status_set = c->perfmon_v2 ? MSR_AMD_PERF_CNTR_GLOBAL_STATUS_SET : 0;
}

/* AMD's CPUID promises the legacy counters on every part, PMU or not;
 * Linux believes them only when a counter keeps a value written to it
 * (arch/x86/events/core.c, check_hw_exists): a hypervisor without a PMU
 * faults or drops the write. The probe uses a counter that is not
 * enabled and puts its value back. */
static bool amd_counters_work(const struct pmu_caps *c)
{
	const u64 probe = 0xabcd;
	for (unsigned i = 0; i < c->num_gp; i++) {
		u64 sel, saved, seen;
		if (hw_rdmsr_safe(caps_gp_eventsel_msr(c, i), &sel))
			return false;
		if (sel & EVTSEL_EN)
			continue;
		u32 ctr = caps_gp_counter_msr(c, i);
		if (hw_rdmsr_safe(ctr, &saved) || hw_wrmsr_safe(ctr, probe) ||
		    hw_rdmsr_safe(ctr, &seen))
			return false;
		hw_wrmsr_safe(ctr, saved);
		return seen == probe;
	}
	return true;	/* every counter is counting: someone's PMU works */
}

static void read_amd(struct pmu_caps *c)
{
	struct cpuid_regs r;
	hw_cpuid(CPUID_LEAF_EXT_MAX, 0, &r);
	u32 max_ext = r.eax;
	if (max_ext >= CPUID_LEAF_AMD_FEATURES) {
		hw_cpuid(CPUID_LEAF_AMD_FEATURES, 0, &r);
		caps_decode_amd_ext_features(c, &r);
	}
	if (max_ext >= CPUID_LEAF_AMD_PERFMON) {
		hw_cpuid(CPUID_LEAF_AMD_PERFMON, 0, &r);
		caps_decode_amd_perfmon(c, &r);
	}
	if (c->ibs && max_ext >= CPUID_LEAF_AMD_IBS) {
		hw_cpuid(CPUID_LEAF_AMD_IBS, 0, &r);
		caps_decode_amd_ibs(c, &r);
	}
	caps_set_amd_counter_msrs(c);
	if (c->num_gp && !amd_counters_work(c)) {
		c->counters_unusable = true;
		c->num_gp = 0;
		c->gp_mask = 0;
	}
}

/* CPUID.07H.1 exists where CPUID.07H.0:EAX, the highest sub-leaf of
 * leaf 7, is at least 1 (SDM Vol. 2A, CPUID). */
static void read_leaf07_1(struct pmu_caps *c, u32 max_leaf)
{
	struct cpuid_regs r;
	if (max_leaf < CPUID_LEAF_EXT_FEATURES)
		return;
	hw_cpuid(CPUID_LEAF_EXT_FEATURES, 0, &r);
	if (r.eax < 1)
		return;
	hw_cpuid(CPUID_LEAF_EXT_FEATURES, 1, &r);
	c->arch_perfmon_ext = r.eax & CPUID_07_1_EAX_ARCH_PERFMON_EXT;
}

void caps_decode_leaf23_main(struct pmu_caps *c, const struct cpuid_regs *r)
{
	c->leaf23_subleaves = r->eax;
	c->umask2 = r->ebx & CPUID_23_EBX_UMASK2;
	c->evtsel_eq = r->ebx & CPUID_23_EBX_EQ;
}

/* As Linux's update_pmu_cap (arch/x86/events/intel/core.c): the
 * PERFEVTSEL extension from sub-leaf 0, and the counter bitmaps from
 * sub-leaf 1 where sub-leaf 0 lists it. */
static void read_leaf23(struct pmu_caps *c)
{
	struct cpuid_regs r;
	hw_cpuid(CPUID_LEAF_ARCH_PERFMON_EXT, 0, &r);
	caps_decode_leaf23_main(c, &r);
	if (c->leaf23_subleaves & BIT(CPUID_23_SUBLEAF_COUNTERS)) {
		c->has_leaf_23 = true;
		hw_cpuid(CPUID_LEAF_ARCH_PERFMON_EXT, CPUID_23_SUBLEAF_COUNTERS, &r);
		caps_decode_leaf23_counters(c, &r);
	}
	u32 pebs_leaves = BIT(CPUID_23_SUBLEAF_PEBS_CAPS) | BIT(CPUID_23_SUBLEAF_PEBS_CNTRS);
	if ((c->leaf23_subleaves & pebs_leaves) == pebs_leaves) {
		struct cpuid_regs groups, counters;
		hw_cpuid(CPUID_LEAF_ARCH_PERFMON_EXT, CPUID_23_SUBLEAF_PEBS_CAPS, &groups);
		hw_cpuid(CPUID_LEAF_ARCH_PERFMON_EXT, CPUID_23_SUBLEAF_PEBS_CNTRS, &counters);
		caps_decode_leaf23_pebs(c, &groups, &counters);
	}
}

/* Counters outside sub-leaf 1's bitmaps make Linux drop arch-PEBS
 * (update_pmu_cap's WARN_ON); here they are left out. */
void caps_decode_leaf23_pebs(struct pmu_caps *c, const struct cpuid_regs *groups,
			     const struct cpuid_regs *counters)
{
	u64 present = (u64)c->gp_mask | (u64)c->fixed_mask << GLOBAL_FIXED_SHIFT;
	c->has_arch_pebs_leaves = true;
	c->arch_pebs_groups = (u64)groups->ebx << ARCH_PEBS_CAPS_SHIFT;
	c->arch_pebs_counters = (counters->eax | (u64)counters->ecx << GLOBAL_FIXED_SHIFT) & present;
	c->arch_pebs_pdists = (counters->ebx | (u64)counters->edx << GLOBAL_FIXED_SHIFT) & present;
}

static void read_identity(struct pmu_caps *c, u32 *max_leaf)
{
	struct cpuid_regs r;
	hw_cpuid(CPUID_LEAF_VENDOR, 0, &r);
	*max_leaf = r.eax;
	u32 words[3] = { r.ebx, r.edx, r.ecx };
	copy_regs_text(c->vendor, words, 3);
	c->intel = bp_strcmp(c->vendor, "GenuineIntel") == 0;
	c->amd = bp_strcmp(c->vendor, "AuthenticAMD") == 0;

	hw_cpuid(CPUID_LEAF_EXT_MAX, 0, &r);
	if (r.eax >= CPUID_LEAF_BRAND0 + 2) {
		u32 brand[12];
		for (unsigned i = 0; i < 3; i++) {
			hw_cpuid(CPUID_LEAF_BRAND0 + i, 0, &r);
			brand[i * 4 + 0] = r.eax;
			brand[i * 4 + 1] = r.ebx;
			brand[i * 4 + 2] = r.ecx;
			brand[i * 4 + 3] = r.edx;
		}
		copy_regs_text(c->brand, brand, 12);
		/* The brand string is right-justified on some parts. */
		const char *p = c->brand;
		while (*p == ' ')
			p++;
		bp_memmove(c->brand, p, bp_strlen(p) + 1);
	}
}

void pmu_caps_read(struct pmu_caps *c)
{
	struct cpuid_regs r;
	u32 max_leaf;

	bp_memset(c, 0, sizeof(*c));
	read_identity(c, &max_leaf);
	if (max_leaf >= CPUID_LEAF_FEATURES) {
		hw_cpuid(CPUID_LEAF_FEATURES, 0, &r);
		caps_decode_leaf01(c, &r);
	}
	if (c->hypervisor) {
		hw_cpuid(CPUID_LEAF_HYPERVISOR, 0, &r);
		u32 words[3] = { r.ebx, r.ecx, r.edx };
		copy_regs_text(c->hypervisor_sig, words, 3);
	}
	if (max_leaf >= CPUID_LEAF_EXT_FEATURES) {
		hw_cpuid(CPUID_LEAF_EXT_FEATURES, 0, &r);
		c->hybrid = r.edx & CPUID_07_EDX_HYBRID;
	}
	if (c->amd) {
		read_amd(c);
		return;
	}
	read_leaf07_1(c, max_leaf);
	if (c->hybrid && max_leaf >= CPUID_LEAF_HYBRID) {
		hw_cpuid(CPUID_LEAF_HYBRID, 0, &r);
		c->core_type = FIELD(r.eax, 31, 24);
	}
	if (max_leaf >= CPUID_LEAF_ARCH_PERFMON) {
		hw_cpuid(CPUID_LEAF_ARCH_PERFMON, 0, &r);
		caps_decode_leaf0a(c, &r);
	}
	if (c->arch_perfmon_ext && max_leaf >= CPUID_LEAF_ARCH_PERFMON_EXT && c->version > 0)
		read_leaf23(c);
	caps_add_hybrid_core_counters(c);
	if (c->pdcm) {
		u64 v;
		if (hw_rdmsr_safe(MSR_IA32_PERF_CAPABILITIES, &v) == 0)
			caps_decode_perf_capabilities(c, v);
	}
	caps_set_counter_msrs(c);
	if (c->intel && c->version > 0)
		c->misc_enable_readable =
			hw_rdmsr_safe(MSR_IA32_MISC_ENABLE, &c->misc_enable) == 0;
}

const char *caps_ds_pebs_missing(const struct pmu_caps *c)
{
	if (caps_has_ds_pebs(c))
		return NULL;
	if (!c->intel || !caps_has_pmu(c))
		return "no architectural PMU";
	if (!c->ds)
		return "no Debug Store (CPUID.01H:EDX[21] = 0)";
	if (!c->pdcm)
		return "no IA32_PERF_CAPABILITIES (CPUID.01H:ECX[15] = 0)";
	if (!c->misc_enable_readable)
		return "IA32_MISC_ENABLE cannot be read";
	if (caps_pebs_format_arch(c))
		return "PEBS is Architectural PEBS here (IA32_PERF_CAPABILITIES.PEBS_FORMAT = 0xF)";
	return "PEBS is disabled in IA32_MISC_ENABLE (bit 12 set)";
}

const char *caps_pebs_missing(const struct pmu_caps *c)
{
	if (caps_has_pebs(c))
		return NULL;
	return caps_pebs_format_arch(c) ? caps_arch_pebs_missing(c) : caps_ds_pebs_missing(c);
}

const char *caps_arch_pebs_missing(const struct pmu_caps *c)
{
	if (caps_has_arch_pebs(c))
		return NULL;
	if (!c->intel || !caps_has_pmu(c))
		return "no architectural PMU";
	if (!caps_pebs_format_arch(c))
		return "no Architectural PEBS (IA32_PERF_CAPABILITIES.PEBS_FORMAT is not 0xF)";
	if (!c->has_arch_pebs_leaves)
		return "PEBS_FORMAT is 0xF but CPUID.23H lists no sub-leaves 4 and 5";
	if (!c->arch_pebs_counters)
		return "CPUID.23H.5 lists no PEBS-capable counter";
	return "PEBS is disabled in IA32_MISC_ENABLE (bit 12 set)";
}

u32 caps_apic_id(void)
{
	struct cpuid_regs r;
	hw_cpuid(CPUID_LEAF_VENDOR, 0, &r);
	u32 max_leaf = r.eax;
	if (max_leaf >= CPUID_LEAF_TOPOLOGY) {
		hw_cpuid(CPUID_LEAF_TOPOLOGY, 0, &r);
		if (r.ebx & 0xFFFF)	/* EBX[15:0] = 0: the leaf is not valid */
			return r.edx;
	}
	hw_cpuid(CPUID_LEAF_FEATURES, 0, &r);
	return r.ebx >> 24;	/* CPUID.01H:EBX[31:24] */
}

bool caps_model_in(const struct pmu_caps *c, const u8 *models, size_t n)
{
	if (!c->intel || c->family != 6)
		return false;
	for (size_t i = 0; i < n; i++)
		if (c->model == models[i])
			return true;
	return false;
}

bool caps_pebs_latency_split(const struct pmu_caps *c)
{
	static const u8 single_latency[] = {
		MODEL_ICELAKE_L, MODEL_ICELAKE, MODEL_ICELAKE_X, MODEL_ICELAKE_D,
		MODEL_TIGERLAKE_L, MODEL_TIGERLAKE, MODEL_ROCKETLAKE,
		MODEL_SNOWRIDGE, MODEL_ELKHARTLAKE, MODEL_JASPERLAKE,
	};
	return c->pebs_format >= 4 && !caps_model_in(c, single_latency, ARRAY_SIZE(single_latency));
}

/* Linux, arch/x86/events/intel/core.c: PMU_FL_MEM_LOADS_AUX on Sapphire
 * and Emerald Rapids and on the P-cores of hybrid Alder and Raptor Lake;
 * intel_pmu_hw_config refuses a load-latency event that samples the data
 * source unless mem-loads-aux is in its group ("the mem-loads event cannot
 * report the accurate data source and latency" without it). */
bool caps_mem_loads_aux(const struct pmu_caps *c)
{
	static const u8 servers[] = { MODEL_SAPPHIRERAPIDS_X, MODEL_EMERALDRAPIDS_X };
	static const u8 hybrid[] = {
		MODEL_ALDERLAKE, MODEL_ALDERLAKE_L, MODEL_RAPTORLAKE, MODEL_RAPTORLAKE_P,
		MODEL_RAPTORLAKE_S,
	};
	if (caps_model_in(c, servers, ARRAY_SIZE(servers)))
		return true;
	return caps_model_in(c, hybrid, ARRAY_SIZE(hybrid)) &&
	       (!c->hybrid || c->core_type == CPUID_1A_CORE_TYPE_CORE);
}

bool caps_nehalem_data_source(const struct pmu_caps *c)
{
	static const u8 nehalem_westmere[] = {
		MODEL_NEHALEM, MODEL_NEHALEM_G, MODEL_NEHALEM_EP, MODEL_NEHALEM_EX,
		MODEL_WESTMERE, MODEL_WESTMERE_EP, MODEL_WESTMERE_EX,
	};
	return caps_model_in(c, nehalem_westmere, ARRAY_SIZE(nehalem_westmere));
}

bool caps_gracemont(const struct pmu_caps *c)
{
	static const u8 hybrid_gracemont[] = {
		MODEL_ALDERLAKE, MODEL_ALDERLAKE_L, MODEL_RAPTORLAKE,
		MODEL_RAPTORLAKE_P, MODEL_RAPTORLAKE_S,
	};
	static const u8 adl_n[] = { MODEL_ALDERLAKE_N };
	if (c->hybrid && c->core_type == CPUID_1A_CORE_TYPE_ATOM)
		return caps_model_in(c, hybrid_gracemont, ARRAY_SIZE(hybrid_gracemont));
	return caps_model_in(c, adl_n, ARRAY_SIZE(adl_n));
}

bool caps_panther_cove(const struct pmu_caps *c)
{
	if (!c->intel)
		return false;
	if (c->family == FAMILY_INTEL_19)
		return c->model == MODEL_DIAMONDRAPIDS_X;
	return c->family == FAMILY_INTEL_18 &&
	       (c->model == MODEL_NOVALAKE || c->model == MODEL_NOVALAKE_L) &&
	       c->hybrid && c->core_type == CPUID_1A_CORE_TYPE_CORE;
}

bool caps_pmi_mid_ack(const struct pmu_caps *c)
{
	if (c->hybrid)
		return c->core_type == CPUID_1A_CORE_TYPE_ATOM;
	static const u8 ecore_only[] = {
		MODEL_ALDERLAKE_N, MODEL_SIERRAFOREST_X, MODEL_GRANDRIDGE,
	};
	return caps_model_in(c, ecore_only, ARRAY_SIZE(ecore_only));
}
