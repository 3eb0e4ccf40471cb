/* The CPU models: what each part reports through CPUID and its capability
 * MSRs, and the PMU each of its core types physically has. Values and
 * their sources are listed in sim/README.md; PMU fields follow the SDM's
 * field definitions, bits unrelated to the PMU are representative. */
#include "sim_int.h"
#include "../lib/str.h"

#define LEAF1_EDX_INTEL  0xBFEBFBFFu	/* FPU..PBE, DS (bit 21) included */

/* PDist (the record at the overflowing event, no wait for the next one)
 * on GP counter 0: Intel's sapphirerapids, alderlake_goldencove and
 * alderlake_gracemont files give "PDISTCounter": "0" for their precise
 * events. */
#define PDIST_GP0 BIT(0)

static const struct sim_core_desc core_none = { .uarch = "none" };

static const struct sim_core_desc core_nehalem = {
	.uarch = "Nehalem", .num_gp = 4, .num_fixed = 3, .gp_width = 48,
	.fixed_width = 48, .pebs_gp = 0xF,
	.offcore_valid = { OFFCORE_RSP_VALID_NHM, OFFCORE_RSP_VALID_NHM },
};
static const struct sim_core_desc core_core2 = {
	.uarch = "Penryn", .num_gp = 2, .num_fixed = 3, .gp_width = 40,
	.fixed_width = 40, .pebs_gp = 0x1,	/* PEBS on IA32_PMC0 only */
};
static const struct sim_core_desc core_haswell = {
	.uarch = "Haswell", .num_gp = 4, .num_fixed = 3, .gp_width = 48,
	.fixed_width = 48, .pebs_gp = 0xF,
	.offcore_valid = { OFFCORE_RSP_VALID_HSW, OFFCORE_RSP_VALID_HSW },
};
/* Broadwell as Haswell: the same counters, PEBS format 2 and offcore mask
 * (Linux's BROADWELL case uses intel_snbep_extra_regs). */
static const struct sim_core_desc core_broadwell = {
	.uarch = "Broadwell", .num_gp = 4, .num_fixed = 3, .gp_width = 48,
	.fixed_width = 48, .pebs_gp = 0xF,
	.offcore_valid = { OFFCORE_RSP_VALID_HSW, OFFCORE_RSP_VALID_HSW },
};
/* Crestmont, Sierra Forest's only core: 8 GP and 3 fixed counters, PEBS on
 * all (sierraforest_core.json: PEBScounters 0-7 and 32-34), the
 * Gracemont-style latency fields, no MSR_PEBS_FRONTEND, no topdown slots. */
static const struct sim_core_desc core_crestmont = {
	.uarch = "Crestmont", .num_gp = 8, .num_fixed = 3, .gp_width = 48,
	.fixed_width = 48, .pebs_gp = 0xFF, .pebs_fixed = 0x7,
	.offcore_valid = { OFFCORE_RSP_VALID_CMT0, OFFCORE_RSP_VALID_CMT1 },
	.latency_split = true,
	.atom_ld_lat = true,
};
static const struct sim_core_desc core_skylake = {
	.uarch = "Skylake", .num_gp = 4, .num_fixed = 3, .gp_width = 48,
	.fixed_width = 48, .pebs_gp = 0xF, .frontend_valid = PEBS_FRONTEND_VALID_SKL,
	.offcore_valid = { OFFCORE_RSP_VALID_SKL, OFFCORE_RSP_VALID_SKL },
};
static const struct sim_core_desc core_sunny_cove = {
	.uarch = "Sunny Cove", .num_gp = 8, .num_fixed = 4, .gp_width = 48,
	.fixed_width = 48, .pebs_gp = 0xFF, .pebs_fixed = 0xF, .slots_per_cycle = 5,
	.frontend_valid = PEBS_FRONTEND_VALID_SKL,
	.offcore_valid = { OFFCORE_RSP_VALID_ICL, OFFCORE_RSP_VALID_ICL },
};
static const struct sim_core_desc core_golden_cove = {
	.uarch = "Golden Cove", .num_gp = 8, .num_fixed = 4, .gp_width = 48,
	.fixed_width = 48, .pebs_gp = 0xFF, .pebs_fixed = 0xF, .slots_per_cycle = 6,
	.frontend_valid = PEBS_FRONTEND_VALID_GLC,
	.offcore_valid = { OFFCORE_RSP_VALID_GLC, OFFCORE_RSP_VALID_GLC },
	.latency_split = true, .pdist_gp = PDIST_GP0, .ldlat_needs_aux = true,
};
/* Alder Lake: CPUID.0AH enumerates what both core types share (6 GP,
 * 3 fixed); the P-core has 8 GP and 4 fixed (Linux adds the difference by
 * hand, arch/x86/events/intel/core.c, "num_counters + 2"). */
static const struct sim_core_desc core_adl_p = {
	.uarch = "Golden Cove (P-core)", .core_type = CPUID_1A_CORE_TYPE_CORE,
	.leaf1a_eax = (u32)CPUID_1A_CORE_TYPE_CORE << 24 | 1,
	.num_gp = 8, .num_fixed = 4, .gp_width = 48, .fixed_width = 48,
	.pebs_gp = 0xFF, .pebs_fixed = 0xF, .slots_per_cycle = 6,
	.frontend_valid = PEBS_FRONTEND_VALID_GLC,
	.offcore_valid = { OFFCORE_RSP_VALID_GLC, OFFCORE_RSP_VALID_GLC },
	.latency_split = true, .pdist_gp = PDIST_GP0, .ldlat_needs_aux = true,
};
/* Gracemont's FRONTEND_RETIRED events are selected by umask alone
 * (alderlake_gracemont_core.json names no MSR), and Linux's Gracemont
 * extra_regs hold no MSR_PEBS_FRONTEND: the E-core has none here. */
static const struct sim_core_desc core_adl_e = {
	.uarch = "Gracemont (E-core)", .core_type = CPUID_1A_CORE_TYPE_ATOM,
	.leaf1a_eax = (u32)CPUID_1A_CORE_TYPE_ATOM << 24 | 1,
	.num_gp = 6, .num_fixed = 3, .gp_width = 48, .fixed_width = 48,
	.pebs_gp = 0x3F, .pebs_fixed = 0x7,
	.offcore_valid = { OFFCORE_RSP_VALID_GRT, OFFCORE_RSP_VALID_GRT },
	.latency_split = true, .pdist_gp = PDIST_GP0,
	.atom_ld_lat = true,
};

/* Lunar Lake (perfmon v6): CPUID.23H.1 enumerates each core type's
 * counters, as Intel's lunarlake files name them: Lion Cove GP 0-9 and
 * fixed 0-3 (TOPDOWN.SLOTS on fixed 3), PDist on GP 0-1 and fixed 0;
 * Skymont GP 0-7 and fixed 0-2 and 4-6 (TOPDOWN_BAD_SPECULATION,
 * TOPDOWN_FE_BOUND, TOPDOWN_RETIRING), no fixed 3, PDist on GP 0. Extra
 * registers as Linux 6.12's intel_pmu_init_lnc and _skt; no
 * mem-loads-aux (Linux sets PMU_FL_MEM_LOADS_AUX for Sapphire Rapids and
 * Alder Lake only). Lion Cove allocates 8 wide: 8 topdown slots per
 * cycle. */
static const struct sim_core_desc core_lnl_p = {
	.uarch = "Lion Cove (P-core)", .core_type = CPUID_1A_CORE_TYPE_CORE,
	.leaf1a_eax = (u32)CPUID_1A_CORE_TYPE_CORE << 24 | 1,
	.num_gp = 10, .num_fixed = 4, .gp_width = 48, .fixed_width = 48,
	.pebs_gp = 0x3FF, .pebs_fixed = 0xF, .slots_per_cycle = 8,
	.frontend_valid = PEBS_FRONTEND_VALID_GLC,
	.offcore_valid = { OFFCORE_RSP_VALID_LNC, OFFCORE_RSP_VALID_LNC },
	.latency_split = true, .pdist_gp = 0x3,
};
static const struct sim_core_desc core_lnl_e = {
	.uarch = "Skymont (E-core)", .core_type = CPUID_1A_CORE_TYPE_ATOM,
	.leaf1a_eax = (u32)CPUID_1A_CORE_TYPE_ATOM << 24 | 1,
	.num_gp = 8, .num_fixed = 7, .fixed_mask = 0x77, .gp_width = 48, .fixed_width = 48,
	.pebs_gp = 0xFF, .pebs_fixed = 0x7,
	.offcore_valid = { OFFCORE_RSP_VALID_CMT0, OFFCORE_RSP_VALID_CMT1 },
	.latency_split = true, .pdist_gp = PDIST_GP0,
	.atom_ld_lat = true,
};

/* Darkmont, Clearwater Forest's only core, as clearwaterforest_core.json
 * V1.04 gives it: GP counters 0-7 and fixed 0-2 and 4-6 (the topdown
 * fixed counters, as Skymont's), PEBS on all of them ("PEBScounters"
 * 0-7, 32-34, 36-38), PDist on GP 0-1 and fixed 0 ("PDISTCounter" 0,1
 * and 32); Crestmont offcore masks. CPUID itself is a stand-in: no dump
 * of the part has been published (sim/README.md). */
static const struct sim_core_desc core_darkmont = {
	.uarch = "Darkmont", .num_gp = 8, .num_fixed = 7, .fixed_mask = 0x77,
	.gp_width = 48, .fixed_width = 48, .pebs_gp = 0xFF, .pebs_fixed = 0x77,
	.offcore_valid = { OFFCORE_RSP_VALID_CMT0, OFFCORE_RSP_VALID_CMT1 },
	.latency_split = true, .pdist_gp = 0x3, .pdist_fixed = 0x1,
	.atom_ld_lat = true,
};

/* Panther Lake, as Intel's pantherlake files V1.07 give its cores:
 * Cougar Cove GP 0-9 and fixed 0-3, PEBS on all of them, PDist on GP 0-1
 * and fixed 0 ("PDISTCounter" 0,1 and 32); Darkmont as in Clearwater
 * Forest. Both core types report native model 4 in CPUID.1AH, as the
 * mapfile's rows for GenuineIntel-6-CC name them. Extra registers as
 * Lunar Lake's (Linux's Panther Lake case shares lnl_common). */
static const struct sim_core_desc core_ptl_p = {
	.uarch = "Cougar Cove (P-core)", .core_type = CPUID_1A_CORE_TYPE_CORE,
	.leaf1a_eax = (u32)CPUID_1A_CORE_TYPE_CORE << 24 | 4,
	.num_gp = 10, .num_fixed = 4, .gp_width = 48, .fixed_width = 48,
	.pebs_gp = 0x3FF, .pebs_fixed = 0xF, .slots_per_cycle = 8,
	.frontend_valid = PEBS_FRONTEND_VALID_GLC,
	.offcore_valid = { OFFCORE_RSP_VALID_LNC, OFFCORE_RSP_VALID_LNC },
	.latency_split = true, .pdist_gp = 0x3, .pdist_fixed = 0x1,
};
static const struct sim_core_desc core_ptl_e = {
	.uarch = "Darkmont (E-core)", .core_type = CPUID_1A_CORE_TYPE_ATOM,
	.leaf1a_eax = (u32)CPUID_1A_CORE_TYPE_ATOM << 24 | 4,
	.num_gp = 8, .num_fixed = 7, .fixed_mask = 0x77, .gp_width = 48, .fixed_width = 48,
	.pebs_gp = 0xFF, .pebs_fixed = 0x77,
	.offcore_valid = { OFFCORE_RSP_VALID_CMT0, OFFCORE_RSP_VALID_CMT1 },
	.latency_split = true, .pdist_gp = 0x3, .pdist_fixed = 0x1,
	.atom_ld_lat = true,
};

/* Panther Cove, Diamond Rapids' core, as Linux describes it (no Intel
 * event file or CPUID dump published; sim/README.md): counters within
 * every mask of intel_pnc_event_constraints (8 GP, fixed 0-3), PEBS on
 * all of them, INST_RETIRED.PREC_DIST on fixed 0 (the one PDist counter
 * Linux names), the load-latency and front-end MSRs of
 * intel_pnc_extra_regs, no offcore-response MSRs (OMR_0..3 replace them;
 * not modelled), and load data sources in the OMR encoding. */
static const struct sim_core_desc core_panther_cove = {
	.uarch = "Panther Cove", .num_gp = 8, .num_fixed = 4, .gp_width = 48,
	.fixed_width = 48, .pebs_gp = 0xFF, .pebs_fixed = 0xF, .slots_per_cycle = 8,
	.frontend_valid = PEBS_FRONTEND_VALID_GLC,
	.latency_split = true, .pdist_fixed = 0x1, .omr_data_source = true,
};

/* AMD Zen 2 and Zen 4: six core counters of 48 bits (PerfCtrExtCore;
 * APM Vol. 2, "Performance Monitoring Counters"), no fixed counters, no
 * PEBS (IBS is AMD's sampling engine: sim_ibs.c). */
static const struct sim_core_desc core_zen2 = {
	.uarch = "Zen 2", .num_gp = AMD_CORE_EXT_COUNTERS, .gp_width = AMD_COUNTER_WIDTH,
};
static const struct sim_core_desc core_zen4 = {
	.uarch = "Zen 4", .num_gp = AMD_CORE_EXT_COUNTERS, .gp_width = AMD_COUNTER_WIDTH,
};

/* CPUID.23H of the Architectural PEBS models: counters (1) and
 * Architectural PEBS (4, 5), the PERFEVTSEL extension, and records that
 * may carry the aux, GPR and XMM groups (sub-leaf 4 EBX bits 30, 29, 17:
 * CFG_C bits 62, 61, 49). No auto counter reload (2): CFG_B is absent. */
#define ARCH_PEBS_LEAF23 \
	.leaf23_eax = BIT(0) | BIT(CPUID_23_SUBLEAF_COUNTERS) | \
		      BIT(CPUID_23_SUBLEAF_PEBS_CAPS) | BIT(CPUID_23_SUBLEAF_PEBS_CNTRS), \
	.leaf23_ebx = CPUID_23_EBX_UMASK2 | CPUID_23_EBX_EQ, \
	.leaf23_pebs_groups = (u32)((ARCH_PEBS_AUX | ARCH_PEBS_GPR | ARCH_PEBS_VECR_XMM) >> \
				    ARCH_PEBS_CAPS_SHIFT)

static const struct sim_model models[] = {
	{
		.name = "icx",
		.summary = "Ice Lake server (Xeon Platinum 8380): perfmon v5, 8 GP + 4 fixed, adaptive PEBS format 4",
		.brand = "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz",
		.signature = 0x606A6, .max_leaf = 0x1B, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0x7FFEFBFF, .leaf1_edx = LEAF1_EDX_INTEL,
		.leaf7_ebx = 0xF3BFBFEF, .leaf7_ecx = 0x40417F5E, .leaf7_edx = 0xB0000010,
		.leaf0a = { .eax = 0x08300805, .ebx = 0, .ecx = 0xF, .edx = 0x8604 },
		.ext1_ecx = 0x121, .ext1_edx = 0x2C100800, .ext8_eax = 0x3030,
		.perf_capabilities = 0x074C5, .misc_enable = 0x850089,
		.has_tsx = true, .has_offcore = true, .has_ld_lat = true,
		.tsc_mhz = 2300, .core_mhz = 3000, .xclk_mhz = 25,
		.ncpus = 2, .core = { &core_sunny_cove, &core_sunny_cove },
	},
	{
		.name = "skl",
		.summary = "Skylake client (Core i7-6700K): perfmon v4, 4 GP (HT on) + 3 fixed, PEBS format 3",
		.brand = "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz",
		.signature = 0x506E3, .max_leaf = 0x16, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0x7FFAFBBF, .leaf1_edx = LEAF1_EDX_INTEL,
		.leaf7_ebx = 0x029C6FBF, .leaf7_ecx = 0, .leaf7_edx = 0x9C002400,
		.leaf0a = { .eax = 0x07300404, .ebx = 0, .ecx = 0, .edx = 0x603 },
		.ext1_ecx = 0x121, .ext1_edx = 0x2C100800, .ext8_eax = 0x3027,
		.perf_capabilities = 0x33C5, .misc_enable = 0x850089,
		.has_tsx = true, .has_offcore = true, .has_ld_lat = true,
		.tsc_mhz = 4000, .core_mhz = 4200, .xclk_mhz = 24,
		.ncpus = 2, .core = { &core_skylake, &core_skylake },
	},
	{
		.name = "spr",
		.summary = "Sapphire Rapids (Xeon Platinum 8480+): perfmon v5, 8 GP + 4 fixed, adaptive PEBS format 4",
		.brand = "Intel(R) Xeon(R) Platinum 8480+",
		.signature = 0x806F8, .max_leaf = 0x20, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0x7FFEFBFF, .leaf1_edx = LEAF1_EDX_INTEL,
		.leaf7_ebx = 0xF3BFBFEF, .leaf7_ecx = 0x1B417FFE, .leaf7_edx = 0xBFC14412,
		.leaf0a = { .eax = 0x08300805, .ebx = 0, .ecx = 0xF, .edx = 0x8604 },
		.ext1_ecx = 0x121, .ext1_edx = 0x2C100800, .ext8_eax = 0x3934,
		.perf_capabilities = 0x074FF, .misc_enable = 0x850089,
		.has_tsx = true, .has_offcore = true, .has_ld_lat = true,
		.tsc_mhz = 2000, .core_mhz = 3000, .xclk_mhz = 25,
		.ncpus = 2, .core = { &core_golden_cove, &core_golden_cove },
	},
	{
		.name = "adl",
		.summary = "Alder Lake hybrid (Core i9-12900K): CPU 0 P-core 8 GP + 4 fixed, CPU 1 E-core 6 GP + 3 fixed, PEBS format 4",
		.brand = "12th Gen Intel(R) Core(TM) i9-12900K",
		.signature = 0x90672, .max_leaf = 0x20, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0x7FFAFBFF, .leaf1_edx = LEAF1_EDX_INTEL,
		.leaf7_ebx = 0x239C27EB, .leaf7_ecx = 0x98C027AC,
		.leaf7_edx = 0xFC1CC410 | CPUID_07_EDX_HYBRID,
		.leaf0a = { .eax = 0x07300605, .ebx = 0, .ecx = 0x7, .edx = 0x8603 },
		.ext1_ecx = 0x121, .ext1_edx = 0x2C100800, .ext8_eax = 0x3027,
		.perf_capabilities = 0x074FF, .misc_enable = 0x850089,
		.has_tsx = false, .has_offcore = true, .has_ld_lat = true,
		.tsc_mhz = 3200, .core_mhz = 4900, .xclk_mhz = 38,
		.ncpus = 2, .core = { &core_adl_p, &core_adl_e },
	},
	{
		.name = "lnl",
		.summary = "Lunar Lake hybrid (Core Ultra 7 268V): perfmon v6 (CPUID.23H, MSRs from 1900H, UMASK2/EQ), CPU 0 P-core 10 GP + 4 fixed, CPU 1 E-core 8 GP + fixed 0-2,4-6, PEBS format 6",
		.brand = "Intel(R) Core(TM) Ultra 7 268V",
		.signature = 0xB06D1, .max_leaf = 0x23, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0x7FFAFBFF, .leaf1_edx = LEAF1_EDX_INTEL,
		.leaf7_ebx = 0x239C27EB, .leaf7_ecx = 0x98C027AC,
		.leaf7_edx = 0xFC1CC410 | CPUID_07_EDX_HYBRID,
		.leaf7_1_eax = CPUID_07_1_EAX_ARCH_PERFMON_EXT,
		/* CPUID.0AH: version 6 and what both core types share (8 GP,
		 * fixed 0-2); CPUID.23H.1 has each type's own. */
		.leaf0a = { .eax = 0x08300806, .ebx = 0, .ecx = 0x7, .edx = 0x8603 },
		.leaf23_eax = BIT(0) | BIT(CPUID_23_SUBLEAF_COUNTERS),
		.leaf23_ebx = CPUID_23_EBX_UMASK2 | CPUID_23_EBX_EQ,
		.ext1_ecx = 0x121, .ext1_edx = 0x2C100800, .ext8_eax = 0x3027,
		/* Arch LBR, PEBS trap and arch regs, PEBS format 6, SMM freeze,
		 * full-width writes, baseline, PEBS output to PT */
		.perf_capabilities = 0x076FF, .misc_enable = 0x850089,
		.has_tsx = false, .has_offcore = true, .has_ld_lat = true,
		.tsc_mhz = 2200, .core_mhz = 5000, .xclk_mhz = 38,
		.ncpus = 2, .core = { &core_lnl_p, &core_lnl_e },
	},
	{
		.name = "cwf",
		.summary = "Clearwater Forest (Xeon 6, Darkmont E-cores): perfmon v6, 8 GP + fixed 0-2,4-6, Architectural PEBS (PEBS_FORMAT 0xF)",
		.brand = "Intel(R) Xeon(R) 6 processor (Clearwater Forest)",
		.signature = 0xD06D0, .max_leaf = 0x23, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0x7FFEFBFF, .leaf1_edx = LEAF1_EDX_INTEL,
		.leaf7_ebx = 0xF3BFBFEF, .leaf7_ecx = 0x1B417FFE, .leaf7_edx = 0xBFC14412,
		.leaf7_1_eax = CPUID_07_1_EAX_ARCH_PERFMON_EXT,
		.leaf0a = { .eax = 0x08300806, .ebx = 0, .ecx = 0x77, .edx = 0x8603 },
		ARCH_PEBS_LEAF23,
		.ext1_ecx = 0x121, .ext1_edx = 0x2C100800, .ext8_eax = 0x3934,
		/* Arch LBR, PEBS trap and arch regs, PEBS_FORMAT 0xF, SMM
		 * freeze, full-width writes; no baseline (no adaptive PEBS) */
		.perf_capabilities = 0x3FFF, .misc_enable = 0x850089,
		.has_tsx = false, .has_offcore = true, .has_ld_lat = true,
		.tsc_mhz = 2200, .core_mhz = 3000, .xclk_mhz = 25,
		.ncpus = 2, .core = { &core_darkmont, &core_darkmont },
	},
	{
		.name = "ptl",
		.summary = "Panther Lake hybrid: perfmon v6, CPU 0 P-core 10 GP + 4 fixed, CPU 1 E-core 8 GP + fixed 0-2,4-6, Architectural PEBS (PEBS_FORMAT 0xF)",
		.brand = "Intel(R) Core(TM) Ultra processor (Panther Lake)",
		.signature = 0xC06C0, .max_leaf = 0x23, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0x7FFAFBFF, .leaf1_edx = LEAF1_EDX_INTEL,
		.leaf7_ebx = 0x239C27EB, .leaf7_ecx = 0x98C027AC,
		.leaf7_edx = 0xFC1CC410 | CPUID_07_EDX_HYBRID,
		.leaf7_1_eax = CPUID_07_1_EAX_ARCH_PERFMON_EXT,
		/* CPUID.0AH: version 6 and what both core types share (8 GP,
		 * fixed 0-2); CPUID.23H.1 and .5 have each type's own. */
		.leaf0a = { .eax = 0x08300806, .ebx = 0, .ecx = 0x7, .edx = 0x8603 },
		ARCH_PEBS_LEAF23,
		.ext1_ecx = 0x121, .ext1_edx = 0x2C100800, .ext8_eax = 0x3027,
		/* as Clearwater Forest's: Arch LBR, PEBS trap and arch regs,
		 * PEBS_FORMAT 0xF, SMM freeze, full-width writes */
		.perf_capabilities = 0x3FFF, .misc_enable = 0x850089,
		.has_tsx = false, .has_offcore = true, .has_ld_lat = true,
		.tsc_mhz = 2200, .core_mhz = 5000, .xclk_mhz = 38,
		.ncpus = 2, .core = { &core_ptl_p, &core_ptl_e },
	},
	{
		.name = "dmr",
		.summary = "Diamond Rapids (Xeon, Panther Cove P-cores): perfmon v6, 8 GP + 4 fixed, Architectural PEBS, OMR data sources",
		.brand = "Intel(R) Xeon(R) processor (Diamond Rapids)",
		/* family 19 (0FH + extended family 4), model 01H */
		.signature = 0x400F10, .max_leaf = 0x23, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0x7FFEFBFF, .leaf1_edx = LEAF1_EDX_INTEL,
		.leaf7_ebx = 0xF3BFBFEF, .leaf7_ecx = 0x1B417FFE, .leaf7_edx = 0xBFC14412,
		.leaf7_1_eax = CPUID_07_1_EAX_ARCH_PERFMON_EXT,
		.leaf0a = { .eax = 0x08300806, .ebx = 0, .ecx = 0xF, .edx = 0x8604 },
		ARCH_PEBS_LEAF23,
		.ext1_ecx = 0x121, .ext1_edx = 0x2C100800, .ext8_eax = 0x3934,
		/* as Clearwater Forest's: Arch LBR, PEBS trap and arch regs,
		 * PEBS_FORMAT 0xF, SMM freeze, full-width writes; no perf
		 * metrics (not modelled) */
		.perf_capabilities = 0x3FFF, .misc_enable = 0x850089,
		.has_tsx = false, .has_offcore = false, .has_ld_lat = true,
		.tsc_mhz = 2000, .core_mhz = 3000, .xclk_mhz = 25,
		.ncpus = 2, .core = { &core_panther_cove, &core_panther_cove },
	},
	{
		.name = "nhm",
		.summary = "Nehalem (Core i7-920): perfmon v3, 4 GP + 3 fixed, PEBS format 1",
		.brand = "Intel(R) Core(TM) i7 CPU         920  @ 2.67GHz",
		.signature = 0x106A5, .max_leaf = 0xB, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0x0098E3BD, .leaf1_edx = LEAF1_EDX_INTEL,
		.leaf0a = { .eax = 0x07300403, .ebx = 0, .ecx = 0, .edx = 0x603 },
		.ext1_ecx = 0x1, .ext1_edx = 0x28100800, .ext8_eax = 0x3024,
		.perf_capabilities = 0x1C3, .misc_enable = 0x850089,
		.has_tsx = false, .has_offcore = true, .has_ld_lat = true,
		.tsc_mhz = 2667, .core_mhz = 2667, .xclk_mhz = 133,
		.ncpus = 2, .core = { &core_nehalem, &core_nehalem },
	},
	{
		.name = "hsw",
		.summary = "Haswell client (Core i7-4770): perfmon v3, 4 GP (HT on) + 3 fixed, PEBS format 2",
		.brand = "Intel(R) Core(TM) i7-4770 CPU @ 3.40GHz",
		.signature = 0x306C3, .max_leaf = 0xD, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0x7FFAFBBF, .leaf1_edx = LEAF1_EDX_INTEL,
		.leaf7_ebx = 0x000027AB,
		.leaf0a = { .eax = 0x07300403, .ebx = 0, .ecx = 0, .edx = 0x603 },
		.ext1_ecx = 0x21, .ext1_edx = 0x2C100800, .ext8_eax = 0x3027,
		.perf_capabilities = 0x32C4, .misc_enable = 0x850089,
		.has_tsx = true, .has_offcore = true, .has_ld_lat = true,
		.tsc_mhz = 3400, .core_mhz = 3900, .xclk_mhz = 100,
		.ncpus = 2, .core = { &core_haswell, &core_haswell },
	},
	{
		.name = "bdw",
		.summary = "Broadwell client (Core i7-5600U): perfmon v3, 4 GP (HT on) + 3 fixed, PEBS format 2",
		.brand = "Intel(R) Core(TM) i7-5600U CPU @ 2.60GHz",
		.signature = 0x306D4, .max_leaf = 0x14, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0x7FFAFBBF, .leaf1_edx = LEAF1_EDX_INTEL,
		.leaf7_ebx = 0x001C2FBB,
		.leaf0a = { .eax = 0x07300403, .ebx = 0, .ecx = 0, .edx = 0x603 },
		.ext1_ecx = 0x121, .ext1_edx = 0x2C100800, .ext8_eax = 0x3027,
		.perf_capabilities = 0x32C4, .misc_enable = 0x850089,
		.has_tsx = true, .has_offcore = true, .has_ld_lat = true,
		.tsc_mhz = 2600, .core_mhz = 3200, .xclk_mhz = 100,
		.ncpus = 2, .core = { &core_broadwell, &core_broadwell },
	},
	{
		.name = "srf",
		.summary = "Sierra Forest (Xeon 6780E): perfmon v5, 8 GP + 3 fixed, E-cores only, PEBS format 4 with baseline",
		.brand = "Intel(R) Xeon(R) 6780E",
		.signature = 0xA06F3, .max_leaf = 0x20, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0x7FFAFBFF, .leaf1_edx = LEAF1_EDX_INTEL,
		.leaf7_ebx = 0x239C27EB, .leaf7_ecx = 0x98C007AC, .leaf7_edx = 0xFC1C4410,
		.leaf0a = { .eax = 0x07300805, .ebx = 0, .ecx = 0x7, .edx = 0x8603 },
		.ext1_ecx = 0x121, .ext1_edx = 0x2C100800, .ext8_eax = 0x3030,
		.perf_capabilities = 0x074FF, .misc_enable = 0x850089,
		.has_tsx = false, .has_offcore = true, .has_ld_lat = true,
		.tsc_mhz = 2200, .core_mhz = 3000, .xclk_mhz = 25,
		.ncpus = 2, .core = { &core_crestmont, &core_crestmont },
	},
	{
		.name = "core2",
		.summary = "Core 2 (Penryn, Core 2 Duo E8400): perfmon v2, 2 GP + 3 fixed x 40 bits, PEBS format 0 on PMC0",
		.brand = "Intel(R) Core(TM)2 Duo CPU     E8400  @ 3.00GHz",
		.signature = 0x1067A, .max_leaf = 0xD, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0x0C08E3BD, .leaf1_edx = LEAF1_EDX_INTEL,
		.leaf0a = { .eax = 0x07280202, .ebx = 0, .ecx = 0, .edx = 0x503 },
		.ext1_ecx = 0x1, .ext1_edx = 0x20100800, .ext8_eax = 0x3024,
		.perf_capabilities = 0xC1, .misc_enable = 0x850089,
		.tsc_mhz = 3000, .core_mhz = 3000, .xclk_mhz = 333,
		.ncpus = 2, .core = { &core_core2, &core_core2 },
	},
	{
		.name = "zen4",
		.summary = "AMD Zen 4 (EPYC 9654): PerfCtrExtCore + PerfMonV2, 6 counters x 48 bits, IBS; no PEBS",
		.brand = "AMD EPYC 9654 96-Core Processor",
		.signature = 0x00A10F11, .max_leaf = 0x10, .max_ext_leaf = 0x80000028,
		.leaf1_ecx = 0x7EF8320B, .leaf1_edx = 0x178BFBFF,
		.leaf7_ebx = 0xF1BF97A9, .leaf7_ecx = 0x00405FCE, .leaf7_edx = 0x10000010,
		.ext1_ecx = 0x75C237FF, .ext1_edx = 0x2FD3FBFF, .ext8_eax = 0x3030,
		.tsc_mhz = 2400, .core_mhz = 3700, .xclk_mhz = 100,
		/* PerfMonV2, LbrExtV2, LbrAndPmcFreeze; 6 core counters, 16 LBR
		 * entries, 16 DF counters */
		.amd = true, .ext22_eax = 0x7, .ext22_ebx = 0x4106, .ibs_caps = 0xBFF,
		.ncpus = 2, .core = { &core_zen4, &core_zen4 },
	},
	{
		.name = "zen2",
		.summary = "AMD Zen 2 (EPYC 7742): PerfCtrExtCore, 6 counters x 48 bits, per-counter enable, IBS; no PerfMonV2",
		.brand = "AMD EPYC 7742 64-Core Processor",
		.signature = 0x00830F10, .max_leaf = 0x10, .max_ext_leaf = 0x80000020,
		.leaf1_ecx = 0x7ED8320B, .leaf1_edx = 0x178BFBFF,
		.leaf7_ebx = 0x219C91A9, .leaf7_ecx = 0x00400004,
		.ext1_ecx = 0x75C237FF, .ext1_edx = 0x2FD3FBFF, .ext8_eax = 0x3030,
		.tsc_mhz = 2250, .core_mhz = 3400, .xclk_mhz = 100,
		.amd = true, .ibs_caps = 0x3FF,
		.ncpus = 2, .core = { &core_zen2, &core_zen2 },
	},
	{
		.name = "nopmu",
		.summary = "QEMU TCG (-cpu Skylake-Client): CPUID.0AH = 0, no PDCM, no DS, no x2APIC",
		.brand = "Intel Core Processor (Skylake)",
		.signature = 0x506E1, .max_leaf = 0xD, .max_ext_leaf = 0x80000008,
		.leaf1_ecx = 0xC2F82203 | CPUID_01_ECX_HYPERVISOR,
		.leaf1_edx = 0x078BFBFF,
		.leaf7_ebx = 0x009C4FBB,
		.ext1_ecx = 0x121, .ext1_edx = 0x2C100800, .ext8_eax = 0x3028,
		.hypervisor_sig = "TCGTCGTCGTCG",
		.misc_enable = 0x1,
		.tsc_mhz = 2000, .core_mhz = 2000, .xclk_mhz = 25,
		.ncpus = 1, .core = { &core_none },
	},
};

size_t sim_model_count(void) { return ARRAY_SIZE(models); }
const struct sim_model *sim_model_at(size_t i) { return i < ARRAY_SIZE(models) ? &models[i] : NULL; }
const char *sim_model_name(size_t i) { return i < ARRAY_SIZE(models) ? models[i].name : NULL; }
const char *sim_model_summary(size_t i) { return i < ARRAY_SIZE(models) ? models[i].summary : NULL; }

const struct sim_model *sim_find_model(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(models); i++)
		if (bp_strcasecmp(models[i].name, name) == 0)
			return &models[i];
	return NULL;
}

static u32 text_word(const char *s, size_t len, size_t at)
{
	u32 w = 0;
	for (unsigned b = 0; b < 4; b++)
		if (at + b < len)
			w |= (u32)(u8)s[at + b] << (8 * b);
	return w;
}

static void set_regs(struct cpuid_regs *r, u32 a, u32 b, u32 c, u32 d)
{
	r->eax = a;
	r->ebx = b;
	r->ecx = c;
	r->edx = d;
}

static void brand_leaf(const struct sim_model *m, u32 part, struct cpuid_regs *r)
{
	size_t len = bp_strlen(m->brand);
	size_t at = part * 16;
	set_regs(r, text_word(m->brand, len, at), text_word(m->brand, len, at + 4),
		 text_word(m->brand, len, at + 8), text_word(m->brand, len, at + 12));
}

static void basic_leaf(const struct sim_model *m, u32 cpu, u32 leaf, u32 sub,
		       struct cpuid_regs *r)
{
	const struct sim_core_desc *core = m->core[cpu % m->ncpus];
	const char *vendor = m->amd ? "AuthenticAMD" : "GenuineIntel";

	switch (leaf) {
	case CPUID_LEAF_VENDOR:
		set_regs(r, m->max_leaf, text_word(vendor, 12, 0), text_word(vendor, 12, 8),
			 text_word(vendor, 12, 4));
		return;
	case CPUID_LEAF_FEATURES:
		/* EBX: initial APIC ID [31:24], logical CPUs [23:16], CLFLUSH 8 qwords */
		set_regs(r, m->signature, cpu << 24 | (u32)m->ncpus << 16 | 8 << 8,
			 m->leaf1_ecx, m->leaf1_edx);
		return;
	case CPUID_LEAF_EXT_FEATURES:
		/* EAX of sub-leaf 0: the highest sub-leaf (1 where the model
		 * describes sub-leaf 1). */
		if (sub == 0)
			set_regs(r, m->leaf7_1_eax ? 1 : 0, m->leaf7_ebx, m->leaf7_ecx, m->leaf7_edx);
		else if (sub == 1)
			r->eax = m->leaf7_1_eax;
		return;
	case CPUID_LEAF_ARCH_PERFMON:
		*r = m->leaf0a;
		return;
	case CPUID_LEAF_HYBRID:
		if (m->leaf7_edx & CPUID_07_EDX_HYBRID)
			r->eax = core->leaf1a_eax;
		return;
	case CPUID_LEAF_ARCH_PERFMON_EXT:
		/* Sub-leaf 1: this core type's counters as bitmaps. */
		if (sub == 0)
			set_regs(r, m->leaf23_eax, m->leaf23_ebx, 0, 0);
		else if (sub == CPUID_23_SUBLEAF_COUNTERS && (m->leaf23_eax & BIT(sub)))
			set_regs(r, core->num_gp ? (u32)GENMASK(core->num_gp - 1, 0) : 0,
				 sim_fixed_present(core), 0, 0);
		/* Sub-leaves 4 and 5: Architectural PEBS's groups, and its
		 * PEBS (EAX GP, ECX fixed) and PDist (EBX, EDX) counters. */
		else if (sub == CPUID_23_SUBLEAF_PEBS_CAPS && (m->leaf23_eax & BIT(sub)))
			set_regs(r, 0, m->leaf23_pebs_groups, 0, 0);
		else if (sub == CPUID_23_SUBLEAF_PEBS_CNTRS && (m->leaf23_eax & BIT(sub)))
			set_regs(r, core->pebs_gp, core->pdist_gp, core->pebs_fixed, core->pdist_fixed);
		return;
	default:
		return;	/* leaves the model does not describe read as zero */
	}
}

/* AMD's extended PMU leaves (APM Vol. 3, CPUID): IBS features and
 * PerfMonV2's counters. */
static void amd_ext_leaf(const struct sim_model *m, u32 leaf, struct cpuid_regs *r)
{
	if (leaf == CPUID_LEAF_AMD_IBS && (m->ext1_ecx & CPUID_8000_0001_ECX_IBS))
		r->eax = m->ibs_caps;
	else if (leaf == CPUID_LEAF_AMD_PERFMON)
		set_regs(r, m->ext22_eax, m->ext22_ebx, 0, 0);
}

/* Beyond the highest leaf AMD returns zeros (Intel returns the highest
 * basic leaf, below). */
static bool beyond_top(const struct sim_model *m, u32 leaf)
{
	return leaf > (leaf >= CPUID_LEAF_EXT_MAX ? m->max_ext_leaf : m->max_leaf);
}

void sim_model_cpuid(const struct sim_model *m, u32 cpu, u32 leaf, u32 sub,
		     struct cpuid_regs *r)
{
	set_regs(r, 0, 0, 0, 0);
	if (m->amd && beyond_top(m, leaf))
		return;
	if (leaf >= CPUID_LEAF_EXT_MAX) {
		if (leaf > m->max_ext_leaf)
			leaf = m->max_leaf;	/* SDM: beyond the top, the highest basic leaf */
		else if (leaf == CPUID_LEAF_EXT_MAX)
			set_regs(r, m->max_ext_leaf, 0, 0, 0);
		else if (leaf == CPUID_LEAF_EXT_MAX + 1)	/* AMD: EAX = the signature */
			set_regs(r, m->amd ? m->signature : 0, 0, m->ext1_ecx, m->ext1_edx);
		else if (m->amd && (leaf == CPUID_LEAF_AMD_IBS || leaf == CPUID_LEAF_AMD_PERFMON))
			amd_ext_leaf(m, leaf, r);
		else if (leaf >= CPUID_LEAF_BRAND0 && leaf <= CPUID_LEAF_BRAND0 + 2)
			brand_leaf(m, leaf - CPUID_LEAF_BRAND0, r);
		else if (leaf == CPUID_LEAF_EXT_MAX + 8)
			r->eax = m->ext8_eax;
		if (leaf >= CPUID_LEAF_EXT_MAX)
			return;
	}
	if (leaf >= CPUID_LEAF_HYPERVISOR && m->hypervisor_sig) {
		if (leaf == CPUID_LEAF_HYPERVISOR) {
			const char *s = m->hypervisor_sig;
			set_regs(r, CPUID_LEAF_HYPERVISOR, text_word(s, 12, 0),
				 text_word(s, 12, 4), text_word(s, 12, 8));
		}
		return;
	}
	if (leaf > m->max_leaf)
		leaf = m->max_leaf;
	basic_leaf(m, cpu, leaf, sub, r);
}
