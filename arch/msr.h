/* Every MSR, MSR bit, CPUID field and local APIC register the project uses,
 * named as the Intel SDM (Vol. 3B ch. 20 "Performance Monitoring", ch. 18
 * "Debug Store"; Vol. 4 MSR tables; Vol. 2A CPUID) names them. Logic uses
 * these names, never bare numbers. */
#ifndef BP_MSR_H
#define BP_MSR_H
#include "../lib/types.h"

/* ---- CPUID leaves and bits ------------------------------------------- */
#define CPUID_LEAF_VENDOR            0x00
#define CPUID_LEAF_FEATURES          0x01
#define CPUID_LEAF_EXT_FEATURES      0x07
#define CPUID_LEAF_ARCH_PERFMON      0x0A
#define CPUID_LEAF_CACHE_PARAMS      0x04	/* Deterministic Cache Parameters, one sub-leaf per cache */
#define CPUID_LEAF_TOPOLOGY          0x0B	/* EDX: this CPU's x2APIC ID */
#define CPUID_LEAF_HYBRID            0x1A
#define CPUID_LEAF_ARCH_PERFMON_EXT  0x23
#define CPUID_LEAF_HYPERVISOR        0x40000000
#define CPUID_LEAF_EXT_MAX           0x80000000
#define CPUID_LEAF_BRAND0            0x80000002	/* ..0x80000004 */

/* CPUID.01H */
#define CPUID_01_ECX_DTES64          BIT(2)	/* 64-bit DS area layout */
#define CPUID_01_ECX_DS_CPL          BIT(4)
#define CPUID_01_ECX_PDCM            BIT(15)	/* IA32_PERF_CAPABILITIES */
#define CPUID_01_ECX_X2APIC          BIT(21)
#define CPUID_01_ECX_HYPERVISOR      BIT(31)
#define CPUID_01_EDX_MSR             BIT(5)
#define CPUID_01_EDX_APIC            BIT(9)
#define CPUID_01_EDX_DS              BIT(21)	/* Debug Store */
/* CPUID.07H.0 */
#define CPUID_07_EDX_HYBRID          BIT(15)
/* CPUID.07H.1 (read where CPUID.07H.0:EAX, the highest sub-leaf, is 1 or
 * more): ArchPerfmonExt, CPUID.23H exists (Linux:
 * X86_FEATURE_ARCH_PERFMON_EXT, which gates update_pmu_cap). */
#define CPUID_07_1_EAX_ARCH_PERFMON_EXT BIT(8)
/* CPUID.1AH: EAX[31:24] core type */
#define CPUID_1A_CORE_TYPE_ATOM      0x20	/* efficiency core */
/* Nehalem and Westmere (family 6 display models), whose PEBS load data
 * sources have their own encoding (Linux: intel_pmu_pebs_data_source_nhm
 * for INTEL_NEHALEM, _G, _EP, _EX and INTEL_WESTMERE, _EP, _EX). */
#define MODEL_NEHALEM                0x1E
#define MODEL_NEHALEM_G              0x1F
#define MODEL_NEHALEM_EP             0x1A
#define MODEL_NEHALEM_EX             0x2E
#define MODEL_WESTMERE               0x25
#define MODEL_WESTMERE_EP            0x2C
#define MODEL_WESTMERE_EX            0x2F
/* Diamond Rapids (Panther Cove): display family 19 (0x13), model 01H
 * (Linux INTEL_DIAMONDRAPIDS_X = IFM(19, 0x01)); its PEBS load data
 * source has the OMR encoding (PNC_DSE_*, OMR_* below). */
#define FAMILY_INTEL_19              19
#define MODEL_DIAMONDRAPIDS_X        0x01
/* Nova Lake (display family 18; Linux INTEL_NOVALAKE, _L): its P-core,
 * Coyote Cove, "shares the same PMU capabilities as Panther Cove" (Linux
 * "Add core PMU support for Novalake": intel_pmu_init_pnc). */
#define FAMILY_INTEL_18              18
#define MODEL_NOVALAKE               0x01
#define MODEL_NOVALAKE_L             0x03
/* E-core-only parts (family 6 display models) whose PMI Linux acknowledges
 * mid-handler (arch/x86/events/intel/core.c, mid_ack). */
#define MODEL_ALDERLAKE_N            0xBE	/* Gracemont */
#define MODEL_SIERRAFOREST_X         0xAF	/* Crestmont */
#define MODEL_GRANDRIDGE             0xB6	/* Crestmont */
/* Adaptive-PEBS parts before Alder Lake, whose meminfo latency field is
 * one load latency (Linux: no PMU_FL_INSTR_LATENCY). */
#define MODEL_ICELAKE_L              0x7E
#define MODEL_ICELAKE                0x7D
#define MODEL_ICELAKE_X              0x6A
#define MODEL_ICELAKE_D              0x6C
#define MODEL_TIGERLAKE_L            0x8C
#define MODEL_TIGERLAKE              0x8D
#define MODEL_ROCKETLAKE             0xA7
#define MODEL_SNOWRIDGE              0x86	/* Tremont */
#define MODEL_ELKHARTLAKE            0x96	/* Tremont */
#define MODEL_JASPERLAKE             0x9C	/* Tremont */
/* Gracemont-based parts besides Alder Lake-N: the E-cores of hybrid Alder
 * and Raptor Lake (their load data sources differ from the P-core's). */
#define MODEL_ALDERLAKE              0x97
#define MODEL_ALDERLAKE_L            0x9A
#define MODEL_RAPTORLAKE             0xB7
#define MODEL_RAPTORLAKE_P           0xBA
#define MODEL_RAPTORLAKE_S           0xBF
#define CPUID_1A_CORE_TYPE_CORE      0x40	/* performance core */
/* Golden Cove servers: with the hybrid P-cores above, the parts whose
 * load-latency facility needs its auxiliary event (Linux:
 * PMU_FL_MEM_LOADS_AUX). */
#define MODEL_SAPPHIRERAPIDS_X       0x8F
#define MODEL_EMERALDRAPIDS_X        0xCF
/* CPUID.0AH */
#define CPUID_0A_EDX_ANYTHREAD_DEPRECATED BIT(15)
/* CPUID.23H sub-leaves */
#define CPUID_23_SUBLEAF_COUNTERS    1	/* EAX GP bitmap, EBX fixed bitmap */
#define CPUID_23_SUBLEAF_ACR         2	/* auto counter reload */
#define CPUID_23_SUBLEAF_EVENTS      3
#define CPUID_23_SUBLEAF_PEBS_CAPS   4	/* Architectural PEBS */
#define CPUID_23_SUBLEAF_PEBS_CNTRS  5
/* Sub-leaf 0: EAX the valid sub-leaves; EBX the PERFEVTSEL extension
 * (Linux ARCH_PERFMON_EXT_UMASK2 / ARCH_PERFMON_EXT_EQ, intel_pmu_init). */
#define CPUID_23_EBX_UMASK2          BIT(0)	/* IA32_PERFEVTSELx[47:40] */
#define CPUID_23_EBX_EQ              BIT(1)	/* IA32_PERFEVTSELx[36] */

/* Architectural events: bit i of CPUID.0AH:EBX set = event i NOT available. */
enum arch_event {
	ARCH_EVENT_CORE_CYCLES = 0,	/* 0x3C/00 */
	ARCH_EVENT_INST_RETIRED,	/* 0xC0/00 */
	ARCH_EVENT_REF_CYCLES,		/* 0x3C/01 */
	ARCH_EVENT_LLC_REFERENCES,	/* 0x2E/4F */
	ARCH_EVENT_LLC_MISSES,		/* 0x2E/41 */
	ARCH_EVENT_BRANCH_RETIRED,	/* 0xC4/00 */
	ARCH_EVENT_BRANCH_MISSES,	/* 0xC5/00 */
	ARCH_EVENT_TOPDOWN_SLOTS,	/* 0xA4/01 */
	ARCH_EVENT_COUNT
};
/* Their encodings, event select code and umask (SDM Vol. 3B 20.2.1.2,
 * Table 20-1 "UMask and Event Select Encodings for Pre-Defined
 * Architectural Performance Events"; the SDM's name of each at its code). */
#define ARCH_CODE_CORE_CYCLES        0x3C	/* UnHalted Core Cycles */
#define ARCH_UMASK_CORE_CYCLES       0x00
#define ARCH_CODE_INST_RETIRED       0xC0	/* Instruction Retired */
#define ARCH_UMASK_INST_RETIRED      0x00
#define ARCH_CODE_REF_CYCLES         0x3C	/* UnHalted Reference Cycles */
#define ARCH_UMASK_REF_CYCLES        0x01
#define ARCH_CODE_LLC_REFERENCES     0x2E	/* LLC Reference */
#define ARCH_UMASK_LLC_REFERENCES    0x4F
#define ARCH_CODE_LLC_MISSES         0x2E	/* LLC Misses */
#define ARCH_UMASK_LLC_MISSES        0x41
#define ARCH_CODE_BRANCH_RETIRED     0xC4	/* Branch Instruction Retired */
#define ARCH_UMASK_BRANCH_RETIRED    0x00
#define ARCH_CODE_BRANCH_MISSES      0xC5	/* Branch Misses Retired */
#define ARCH_UMASK_BRANCH_MISSES     0x00
#define ARCH_CODE_TOPDOWN_SLOTS      0xA4	/* Topdown Slots */
#define ARCH_UMASK_TOPDOWN_SLOTS     0x01
/* The E-cores' topdown fixed counters from Skymont (Intel's lunarlake and
 * clearwaterforest files: TOPDOWN_BAD_SPECULATION.ALL_P on fixed 4,
 * TOPDOWN_FE_BOUND.ALL_P on 5, TOPDOWN_RETIRING.ALL_P on 6), in slots. */
#define FIXED_TOPDOWN_BAD_SPECULATION 4
#define FIXED_TOPDOWN_FE_BOUND        5
#define FIXED_TOPDOWN_RETIRING        6

/* ---- Model-specific events (Intel's perfmon event files) ------------- */
/* Fixed-counter-only events carry the files' pseudo-encoding event 0x00,
 * umask N+1 for fixed counter N; it is never written to an event select. */
#define EVENT_FIXED_ONLY             0x00
#define UMASK_CPU_CLK_UNHALTED_REF_TSC 0x03	/* fixed counter 2 */
/* INST_RETIRED.PREC_DIST (Sandy Bridge to Skylake; also the umask of
 * INST_RETIRED.TOTAL_CYCLES_PS), under the architectural event code. */
#define UMASK_INST_RETIRED_PREC_DIST 0x01
/* UOPS_RETIRED.ALL (UOPS_RETIRED.ANY on Nehalem and Westmere), Nehalem to
 * Broadwell. */
#define EVENT_UOPS_RETIRED           0xC2
#define UMASK_UOPS_RETIRED_ALL       0x01
/* FRONTEND_RETIRED.*: one umask for every condition, which
 * MSR_PEBS_FRONTEND selects (Skylake and later). */
#define EVENT_FRONTEND_RETIRED       0xC6
#define UMASK_FRONTEND_RETIRED       0x01
/* Skylake and later: retired loads and stores, and retired loads by the
 * level that served them. */
#define EVENT_MEM_INST_RETIRED       0xD0
#define UMASK_MEM_INST_RETIRED_ALL_LOADS  0x81
#define UMASK_MEM_INST_RETIRED_ALL_STORES 0x82
#define EVENT_MEM_LOAD_RETIRED       0xD1
#define UMASK_MEM_LOAD_RETIRED_L1_HIT  0x01
#define UMASK_MEM_LOAD_RETIRED_L3_HIT  0x04
#define UMASK_MEM_LOAD_RETIRED_L1_MISS 0x08
#define UMASK_MEM_LOAD_RETIRED_L3_MISS 0x20
/* The load-latency event (MEM_TRANS_RETIRED.LOAD_LATENCY_GT_*, Sandy
 * Bridge and later) and, on the parts with PMU_FL_MEM_LOADS_AUX above,
 * the auxiliary event it needs counting beside it (Linux's mem-loads-aux,
 * event=0x03,umask=0x82: LD_BLOCKS.STORE_FORWARD). */
#define EVENT_MEM_TRANS_RETIRED      0xCD
#define UMASK_LOAD_LATENCY           0x01
/* MEM_TRANS_RETIRED.STORE_SAMPLE: store latency (Linux
 * INTEL_PSD_CONSTRAINT(0x2cd) and INTEL_HYBRID_STLAT_CONSTRAINT(0x2cd)). */
#define UMASK_STORE_SAMPLE           0x02
/* The E-cores' load-latency event (Gracemont and later:
 * MEM_UOPS_RETIRED.LOAD_LATENCY_GT_*, under EVENT_MEM_INST_RETIRED's code;
 * Linux INTEL_HYBRID_LAT_CONSTRAINT(0x5d0) in intel_grt_ and
 * intel_cmt_pebs_event_constraints). */
#define UMASK_MEM_UOPS_RETIRED_LOAD_LATENCY 0x05
#define UMASK_MEM_UOPS_RETIRED_STORE_LATENCY 0x06	/* INTEL_HYBRID_LAT_CONSTRAINT(0x6d0) */
#define EVENT_MEM_LOADS_AUX          0x03
#define UMASK_MEM_LOADS_AUX          0x82
/* Nehalem and Westmere's load-latency event,
 * MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_* (another event than Skylake's
 * MEM_INST_RETIRED under the same name). */
#define EVENT_MEM_INST_RETIRED_NHM   0x0B
#define UMASK_MEM_INST_RETIRED_NHM_LATENCY_ABOVE_THRESHOLD 0x10

/* ---- Architectural MSRs --------------------------------------------- */
#define MSR_IA32_APIC_BASE           0x01B
#define   APIC_BASE_BSP              BIT(8)
#define   APIC_BASE_X2APIC_ENABLE    BIT(10)	/* EXTD */
#define   APIC_BASE_GLOBAL_ENABLE    BIT(11)
#define   APIC_BASE_ADDR_MASK        GENMASK(51, 12)
/* Where the xAPIC page is after reset (SDM Vol. 3A, 11.4.4 Local APIC
 * Status and Location). */
#define APIC_DEFAULT_BASE            0xFEE00000ULL
#define MSR_IA32_PMC0                0x0C1	/* legacy alias, IA32_PMCx = 0xC1+x */
/* RDPMC's ECX (SDM Vol. 2B, RDPMC): bit 30 selects the fixed-function
 * counters, the low bits the counter's index. */
#define RDPMC_FIXED                  BIT(30)
#define MSR_IA32_PERFEVTSEL0         0x186	/* IA32_PERFEVTSELx = 0x186+x */
#define MSR_IA32_MISC_ENABLE         0x1A0
#define   MISC_ENABLE_PERF_MON_AVAILABLE   BIT(7)
#define   MISC_ENABLE_BTS_UNAVAILABLE      BIT(11)
#define   MISC_ENABLE_PEBS_UNAVAILABLE     BIT(12)
#define MSR_OFFCORE_RSP_0            0x1A6
#define MSR_OFFCORE_RSP_1            0x1A7
#define MSR_IA32_DEBUGCTL            0x1D9
#define   DEBUGCTL_LBR                     BIT(0)
#define   DEBUGCTL_BTF                     BIT(1)
#define   DEBUGCTL_TR                      BIT(6)
#define   DEBUGCTL_BTS                     BIT(7)
#define   DEBUGCTL_BTINT                   BIT(8)
#define   DEBUGCTL_BTS_OFF_OS              BIT(9)
#define   DEBUGCTL_BTS_OFF_USR             BIT(10)
#define   DEBUGCTL_FREEZE_LBRS_ON_PMI      BIT(11)
#define   DEBUGCTL_FREEZE_PERFMON_ON_PMI   BIT(12)
#define   DEBUGCTL_ENABLE_UNCORE_PMI       BIT(13)
#define   DEBUGCTL_FREEZE_WHILE_SMM        BIT(14)
#define   DEBUGCTL_RTM_DEBUG               BIT(15)
#define MSR_IA32_FIXED_CTR0          0x309	/* IA32_FIXED_CTRx = 0x309+x */
#define MSR_IA32_PERF_CAPABILITIES   0x345
#define MSR_PERF_METRICS             0x329	/* PERF_CAP_PERF_METRICS: topdown fractions of slots */
#define MSR_IA32_FIXED_CTR_CTRL      0x38D
#define MSR_IA32_PERF_GLOBAL_STATUS  0x38E
#define MSR_IA32_PERF_GLOBAL_CTRL    0x38F
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL 0x390	/* v2/v3 name */
#define MSR_IA32_PERF_GLOBAL_STATUS_RESET 0x390	/* v4+ name of the same MSR */
#define MSR_IA32_PERF_GLOBAL_STATUS_SET   0x391	/* v4+ */
#define MSR_IA32_PERF_GLOBAL_INUSE        0x392	/* v4+ */
#define MSR_IA32_PEBS_ENABLE         0x3F1
#define MSR_PEBS_DATA_CFG            0x3F2
#define MSR_PEBS_LD_LAT_THRESHOLD    0x3F6
#define MSR_PEBS_FRONTEND            0x3F7	/* front-end retired event selection */
#define MSR_IA32_A_PMC0              0x4C1	/* full-width alias, IA32_A_PMCx */
#define MSR_IA32_DS_AREA             0x600
#define MSR_IA32_X2APIC_BASE         0x800	/* x2APIC register R = 0x800 + (R>>4) */
/* Perfmon v6's counter block (SDM Vol. 3B, "Architectural Performance
 * Monitoring Version 6"; Vol. 4, MSRs 1900H-19FFH): each counter has four
 * MSRs, counter n's at its first + 4n. CTR is the count (written at full
 * width), CFG_A the event select (IA32_PERFEVTSELn), CFG_B the auto
 * counter reload control and CFG_C the Architectural PEBS configuration
 * (these two exist where CPUID.23H enumerates them). The legacy addresses
 * above alias counters 0-7 and fixed 0-3. */
#define MSR_IA32_PMC_GP0_CTR         0x1900
#define MSR_IA32_PMC_GP0_CFG_A       0x1901
#define MSR_IA32_PMC_GP0_CFG_B       0x1902
#define MSR_IA32_PMC_GP0_CFG_C       0x1903
#define MSR_IA32_PMC_FX0_CTR         0x1980
#define MSR_IA32_PMC_FX0_CFG_B       0x1982
#define MSR_IA32_PMC_FX0_CFG_C       0x1983
#define MSR_IA32_PMC_V6_STEP         4
#define MSR_IA32_PMC_V6_GP_MAX       32	/* 1900H-197FH */
#define MSR_IA32_PMC_V6_FX_MAX       16	/* 1980H-19BFH */
/* The legacy blocks name eight GP counters (IA32_PMC0-7, IA32_A_PMC0-7,
 * IA32_PERFEVTSEL0-7) and four fixed ones before the MSRs that follow
 * them (IA32_FIXED_CTR0-3 at 309H-30CH). */
#define MSR_LEGACY_GP_MAX            8
#define MSR_LEGACY_FIXED_MAX         4

static inline u32 msr_pmc(unsigned i)         { return MSR_IA32_PMC0 + i; }
static inline u32 msr_a_pmc(unsigned i)       { return MSR_IA32_A_PMC0 + i; }
static inline u32 msr_perfevtsel(unsigned i)  { return MSR_IA32_PERFEVTSEL0 + i; }
static inline u32 msr_fixed_ctr(unsigned i)   { return MSR_IA32_FIXED_CTR0 + i; }
static inline u32 msr_v6_gp_ctr(unsigned i)   { return MSR_IA32_PMC_GP0_CTR + MSR_IA32_PMC_V6_STEP * i; }
static inline u32 msr_v6_gp_cfg_a(unsigned i) { return MSR_IA32_PMC_GP0_CFG_A + MSR_IA32_PMC_V6_STEP * i; }
static inline u32 msr_v6_fx_ctr(unsigned i)   { return MSR_IA32_PMC_FX0_CTR + MSR_IA32_PMC_V6_STEP * i; }
static inline u32 msr_v6_gp_cfg_c(unsigned i) { return MSR_IA32_PMC_GP0_CFG_C + MSR_IA32_PMC_V6_STEP * i; }
static inline u32 msr_v6_fx_cfg_c(unsigned i) { return MSR_IA32_PMC_FX0_CFG_C + MSR_IA32_PMC_V6_STEP * i; }

/* Architectural PEBS (Intel ISE manual, "Architectural PEBS"; Linux 6.19
 * msr-index.h and perf_event.h, arch-PEBS series merged 2025-11): where
 * IA32_PERF_CAPABILITIES.PEBS_FORMAT reads 0xF the DS save area,
 * IA32_PEBS_ENABLE and MSR_PEBS_DATA_CFG are gone. Records go to one
 * buffer per CPU, IA32_PEBS_BASE, written at IA32_PEBS_INDEX.WR; each
 * counter opts in and picks its record's groups in its CFG_C. */
#define PERF_CAP_PEBS_FORMAT_ARCH    0xF
#define MSR_IA32_PEBS_BASE           0x3F4
#define MSR_IA32_PEBS_INDEX          0x3F5
/* IA32_PEBS_BASE: a 4 KiB-aligned physical address; [3:0] SIZE, the
 * buffer being 4 KiB << SIZE (Linux: 4, 64 KiB). */
#define ARCH_PEBS_BASE_SIZE_MASK     GENMASK(3, 0)
#define ARCH_PEBS_BASE_ADDR_MASK     (~(u64)GENMASK(11, 0))
#define ARCH_PEBS_PAGE_SHIFT         12
/* IA32_PEBS_INDEX (Linux union arch_pebs_index): WR [26:4], the next
 * write offset, and THRESH [58:36], the PMI threshold, both in 16-byte
 * units (ARCH_PEBS_INDEX_WR_SHIFT 4); FULL [31] set when a record did
 * not fit; EN [32] enables writing. */
#define ARCH_PEBS_UNIT_SHIFT         4
#define ARCH_PEBS_INDEX_WR_SHIFT     4
#define ARCH_PEBS_INDEX_WR_MASK      GENMASK(26, 4)
#define ARCH_PEBS_INDEX_FULL         BIT(31)
#define ARCH_PEBS_INDEX_EN           BIT(32)
#define ARCH_PEBS_INDEX_THRESH_SHIFT 36
#define ARCH_PEBS_INDEX_THRESH_MASK  GENMASK(58, 36)
#define ARCH_PEBS_INDEX_VALID        (ARCH_PEBS_INDEX_WR_MASK | ARCH_PEBS_INDEX_FULL | \
				      ARCH_PEBS_INDEX_EN | ARCH_PEBS_INDEX_THRESH_MASK)
#define ARCH_PEBS_UNITS_MAX          BIT(23)	/* WR and THRESH: 23 bits */
/* IA32_PMC_{GP,FX}n_CFG_C: [31:0] the reload value after each record
 * (Linux: -period, ARCH_PEBS_RELOAD), the record's groups, and EN. */
#define ARCH_PEBS_RELOAD             GENMASK(31, 0)
#define ARCH_PEBS_CNTR_ALLOW         BIT(35)
#define ARCH_PEBS_CNTR_GP            BIT(36)
#define ARCH_PEBS_CNTR_FIXED         BIT(37)
#define ARCH_PEBS_CNTR_METRICS       BIT(38)
#define ARCH_PEBS_LBR_SHIFT          40
#define ARCH_PEBS_LBR                GENMASK(41, 40)
#define ARCH_PEBS_VECR_XMM           BIT(49)
#define ARCH_PEBS_GPR                BIT(61)
#define ARCH_PEBS_AUX                BIT(62)
#define ARCH_PEBS_EN                 BIT(63)
/* CPUID.23H.4:EBX bit n is CFG_C bit 32 + n (Linux update_pmu_cap:
 * arch_pebs_cap.caps = ebx << 32): the groups records can carry. */
#define ARCH_PEBS_CAPS_SHIFT         32
/* Records: fragments of a 16-byte header, whose first u64 holds the
 * fragment's size [15:0], CONT [31] (another fragment follows) and the
 * groups that follow it, at CFG_C's positions plus BASIC [63] (Linux
 * struct arch_pebs_header). Groups in this order: basic 48 bytes, aux
 * 64, GPRs 160, the vector registers (a 16-byte header, then XMM 256,
 * YMMH 256, OPMASK 64, ZMMH 512, H16ZMM 1024), LBR (48-byte header +
 * 24 per entry) and counters (16-byte header + 8 per value). */
#define ARCH_PEBS_HDR_SIZE_MASK      GENMASK(15, 0)
#define ARCH_PEBS_HDR_CONT           BIT(31)
#define ARCH_PEBS_HDR_CNTR           GENMASK(39, 35)
#define ARCH_PEBS_HDR_YMMH           BIT(50)
#define ARCH_PEBS_HDR_OPMASK         BIT(53)
#define ARCH_PEBS_HDR_ZMMH           BIT(54)
#define ARCH_PEBS_HDR_H16ZMM         BIT(55)
#define ARCH_PEBS_HDR_BASIC          BIT(63)
#define ARCH_PEBS_HEADER_BYTES       16
#define ARCH_PEBS_BASIC_BYTES        48
#define ARCH_PEBS_AUX_BYTES          64
#define ARCH_PEBS_GPR_BYTES          160
#define ARCH_PEBS_XER_HEADER_BYTES   16
#define ARCH_PEBS_XMM_BYTES          256
#define ARCH_PEBS_YMMH_BYTES         256
#define ARCH_PEBS_OPMASK_BYTES       64
#define ARCH_PEBS_ZMMH_BYTES         512
#define ARCH_PEBS_H16ZMM_BYTES       1024
#define ARCH_PEBS_LBR_HEADER_BYTES   48
#define ARCH_PEBS_LBR_ENTRY_BYTES    24
#define ARCH_PEBS_LBR_NUM_VAR        3	/* the LBR header's depth says how many */
#define ARCH_PEBS_LBR_PER_UNIT       8	/* lbr field 1: 8 entries, 2: 16 */
#define ARCH_PEBS_CNTR_HEADER_BYTES  16
#define ARCH_PEBS_CNTR_METRICS_ALL   3	/* metrics field: two values follow */
/* Basic group: IP 0, applicable counters 8, TSC 16, then [15:0] retire
 * latency with [16] its valid bit. */
#define ARCH_PEBS_BASIC_IP           0x00
#define ARCH_PEBS_BASIC_APPLICABLE   0x08
#define ARCH_PEBS_BASIC_TSC          0x10
#define ARCH_PEBS_BASIC_RETIRE       0x18
#define ARCH_PEBS_RETIRE_LAT_MASK    GENMASK(15, 0)
#define ARCH_PEBS_RETIRE_LAT_VALID   BIT(16)
/* Aux group: the data address 0, the data source 40, latencies 48
 * (instruction [15:0], cache [47:32], as adaptive PEBS's split meminfo),
 * TSX tuning 56 (Linux struct arch_pebs_aux). */
#define ARCH_PEBS_AUX_ADDRESS        0x00
#define ARCH_PEBS_AUX_SOURCE         0x28
#define ARCH_PEBS_AUX_LATENCY        0x30
#define ARCH_PEBS_AUX_TSX            0x38
/* GLOBAL_STATUS: the PEBS buffer reached IA32_PEBS_INDEX.THRESH. */
#define GLOBAL_STATUS_ARCH_PEBS_THRESHOLD BIT(54)

/* IA32_PERFEVTSELx fields */
#define EVTSEL_EVENT_MASK            GENMASK(7, 0)
#define EVTSEL_UMASK_SHIFT           8
#define EVTSEL_UMASK_MASK            GENMASK(15, 8)
#define EVTSEL_USR                   BIT(16)
#define EVTSEL_OS                    BIT(17)
#define EVTSEL_EDGE                  BIT(18)
#define EVTSEL_PC                    BIT(19)	/* pin control */
#define EVTSEL_INT                   BIT(20)	/* APIC interrupt on overflow */
#define EVTSEL_ANY                   BIT(21)	/* AnyThread (v3) */
#define EVTSEL_EN                    BIT(22)
#define EVTSEL_INV                   BIT(23)
#define EVTSEL_CMASK_SHIFT           24
#define EVTSEL_CMASK_MASK            GENMASK(31, 24)
#define EVTSEL_IN_TX                 BIT(32)
#define EVTSEL_IN_TXCP               BIT(33)
#define EVTSEL_ADAPTIVE_RECORD       BIT(34)	/* PEBS baseline */
#define EVTSEL_EQ                    BIT(36)	/* perfmon v6: count when equal to cmask */
#define EVTSEL_UMASK2_SHIFT          40	/* perfmon v6 PERFEVTSEL extension: UMASK2[47:40] */
#define EVTSEL_UMASK2_MASK           GENMASK(47, 40)

/* IA32_FIXED_CTR_CTRL: a 4-bit field per fixed counter at 4*i */
#define FIXED_CTRL_OS                0x1ULL
#define FIXED_CTRL_USR               0x2ULL
#define FIXED_CTRL_ANY               0x4ULL
#define FIXED_CTRL_PMI               0x8ULL
#define FIXED_CTRL_FIELD_MASK        0xFULL
static inline u64 fixed_ctrl_field(unsigned i, u64 bits) { return bits << (4 * i); }
/* The adaptive-record bit of fixed counter i sits in the upper half of
 * its field, bit 32+4i (SDM Vol. 3B 20.2.2 Figure "IA32_FIXED_CTR_CTRL",
 * as Linux's intel_pmu_enable_fixed shifts ICL_FIXED_0_ADAPTIVE by 4i);
 * bits 33-35, 37-39, ... are reserved. */
static inline u64 fixed_ctrl_adaptive(unsigned i)       { return BIT(32 + 4 * i); }

/* IA32_PERF_GLOBAL_CTRL / _STATUS / _OVF_CTRL layout */
#define GLOBAL_FIXED_SHIFT           32
static inline u64 global_gp_bit(unsigned i)    { return BIT(i); }
static inline u64 global_fixed_bit(unsigned i) { return BIT(GLOBAL_FIXED_SHIFT + i); }
/* The overflow bits of GP counters 0-31 and fixed counters 0-15 (SDM Vol.
 * 3B, IA32_PERF_GLOBAL_STATUS: PMCi_OVF at i, FIXED_CTRi_OVF at 32+i). */
#define GLOBAL_STATUS_COUNTERS_OVF   (GENMASK(31, 0) | GENMASK(47, GLOBAL_FIXED_SHIFT))
#define GLOBAL_STATUS_PERF_METRICS   BIT(48)
#define GLOBAL_STATUS_TRACE_TOPA_PMI BIT(55)
#define GLOBAL_STATUS_LBR_FRZ        BIT(58)
#define GLOBAL_STATUS_CTR_FRZ        BIT(59)
#define GLOBAL_STATUS_ASCI           BIT(60)
#define GLOBAL_STATUS_OVF_UNCORE     BIT(61)
#define GLOBAL_STATUS_OVF_BUFFER     BIT(62)	/* DS buffer threshold reached */
#define GLOBAL_STATUS_COND_CHGD      BIT(63)

/* IA32_PERF_CAPABILITIES */
#define PERF_CAP_LBR_FMT_MASK        GENMASK(5, 0)
#define PERF_CAP_PEBS_TRAP           BIT(6)
#define PERF_CAP_PEBS_ARCH_REG       BIT(7)
#define PERF_CAP_PEBS_FORMAT_MASK    GENMASK(11, 8)
#define PERF_CAP_PEBS_FORMAT_SHIFT   8
#define PERF_CAP_SMM_FREEZE          BIT(12)
#define PERF_CAP_FW_WRITE            BIT(13)	/* full-width IA32_A_PMCx */
#define PERF_CAP_PEBS_BASELINE       BIT(14)
#define PERF_CAP_PERF_METRICS        BIT(15)
#define PERF_CAP_PEBS_OUTPUT_PT      BIT(16)
#define PERF_CAP_PEBS_TIMING_INFO    BIT(17)

/* IA32_PEBS_ENABLE */
static inline u64 pebs_enable_gp_bit(unsigned i)    { return BIT(i); }
static inline u64 pebs_enable_fixed_bit(unsigned i) { return BIT(32 + i); }	/* baseline */
#define PEBS_ENABLE_LL_SHIFT         32	/* pre-baseline: load-latency enables */

/* MSR_PEBS_DATA_CFG */
#define PEBS_DATACFG_MEMINFO         BIT(0)
#define PEBS_DATACFG_GP              BIT(1)
#define PEBS_DATACFG_XMMS            BIT(2)
#define PEBS_DATACFG_LBRS            BIT(3)
#define PEBS_DATACFG_LBR_SHIFT       24	/* [31:24] = LBR entries - 1 */

/* PEBS meminfo group, latency field (offset 0x10). Before Alder Lake all
 * of it is the load latency; from Alder Lake and Sapphire Rapids on it is
 * split (Linux's struct pebs_meminfo, arch/x86/include/asm/perf_event.h):
 * [15:0] instruction latency, [47:32] cache (load) latency. */
#define PEBS_MEMINFO_INSTR_LAT_MASK  GENMASK(15, 0)
#define PEBS_MEMINFO_CACHE_LAT_SHIFT 32
#define PEBS_MEMINFO_CACHE_LAT_MASK  GENMASK(47, 32)

/* Intel data-source encoding fields (SDM "Data Source Encoding for Load
 * Latency Record"; store status of precise stores). */
#define INTEL_DSE_SOURCE_MASK     GENMASK(3, 0)
#define INTEL_DSE_LD_STLB_MISS    BIT(4)	/* SNB+ */
#define INTEL_DSE_LD_LOCKED       BIT(5)	/* SNB+ */
#define INTEL_DSE_LD_DATA_BLK     BIT(6)	/* SNB+ */
#define INTEL_DSE_LD_ADDR_BLK     BIT(7)	/* SNB+ */
#define INTEL_DSE_ST_L1D_HIT      BIT(0)
#define INTEL_DSE_ST_STLB_MISS    BIT(4)
#define INTEL_DSE_ST_LOCKED       BIT(5)
/* The source codes the emulated PMU's workloads state loads with (SDM
 * "Data Source Encoding for Load Latency Record", Skylake's table, Linux
 * pebs_data_source[]): 0x1 L1 hit, 0x2 fill-buffer hit, 0x3 L2 hit,
 * 0x4-0x7 L3 hit (0x7: another core had it modified, HITM), 0x8 and up
 * beyond the L3. The AMD model turns them into IBS's fields. */
#define INTEL_DSE_L1_HIT          0x1
#define INTEL_DSE_LFB_HIT         0x2
#define INTEL_DSE_L2_HIT          0x3
#define INTEL_DSE_L3_HIT          0x4	/* 0x4-0x7 */
#define INTEL_DSE_L3_HITM         0x7
#define INTEL_DSE_L3_MISS         0x8	/* 0x8 and up */
/* Store latency (Linux union intel_x86_pebs_dse's st_lat_*): the load
 * source in 3:0, STLB miss 4, locked 5. */
#define INTEL_DSE_ST_LAT_MASK     GENMASK(5, 0)

/* Panther Cove's (Diamond Rapids') load data source, restructured for
 * its off-module response (OMR) encoding (Intel ISE, "PEBS Load Latency
 * and Store Latency Facility"; Linux union intel_x86_pebs_dse's pnc_*
 * fields): bits 7:0 the source (an L2-hit source in [3:0] while L2_MISS
 * is clear, an OMR encoding when it is set), then the STLB, lock and
 * blocking bits. */
#define PNC_DSE_SOURCE_MASK       GENMASK(7, 0)
#define PNC_DSE_L2_HIT_MASK       GENMASK(3, 0)
#define PNC_DSE_L2_MISS           BIT(8)
#define PNC_DSE_STLB_MISS         BIT(11)
#define PNC_DSE_LOCKED            BIT(12)
#define PNC_DSE_DATA_BLK          BIT(13)
#define PNC_DSE_ADDR_BLK          BIT(14)
#define PNC_DSE_FLAGS_SHIFT       11	/* STLB miss .. address blocked: 4 bits */
/* The OMR encoding (Linux union omr_encoding). */
#define OMR_SOURCE_MASK           GENMASK(3, 0)
#define OMR_REMOTE                BIT(4)
#define OMR_HITM                  BIT(5)
#define OMR_SNOOP                 BIT(6)
#define OMR_PROMOTED              BIT(7)
#define OMR_SOURCE_L_SHARE        0x2	/* local CA shared cache */
#define OMR_SOURCE_MMIO           0x7	/* 0x8-0xf: memory regions 0-7 */

/* MSR_PEBS_LD_LAT_THRESHOLD: [15:0] minimum latency in core cycles */
#define PEBS_LD_LAT_THRESHOLD_MASK   GENMASK(15, 0)

/* MSR_PEBS_FRONTEND (SDM Vol. 3B ch. 20, Skylake's front-end retired facility):
 * [7:0] EVTSEL, the front-end condition FRONTEND_RETIRED counts (e.g. 0x11
 * DSB miss, 0x12 L1I miss, 0x14 ITLB miss, 0x06 an IDQ bubble), [19:8]
 * IDQ_Bubble_Length and [22:20] IDQ_Bubble_Width for the bubble condition.
 * Valid bits per core as Linux's extra_regs (arch/x86/events/intel/core.c):
 * Skylake and Sunny Cove 0x7fff17, Golden Cove 0x7fff1f (bits 3 and 5-7 of
 * EVTSEL #GP). */
#define PEBS_FRONTEND_EVTSEL_MASK    GENMASK(7, 0)
#define PEBS_FRONTEND_EVTSEL_BUBBLE  0x06
#define PEBS_FRONTEND_LENGTH_SHIFT   8
#define PEBS_FRONTEND_LENGTH_MASK    GENMASK(19, 8)
#define PEBS_FRONTEND_WIDTH_SHIFT    20
#define PEBS_FRONTEND_WIDTH_MASK     GENMASK(22, 20)
#define PEBS_FRONTEND_VALID_SKL      0x7fff17ULL
#define PEBS_FRONTEND_VALID_GLC      0x7fff1fULL

/* MSR_OFFCORE_RSP_0/1 valid bits per core, as Linux's extra_regs
 * (arch/x86/events/intel/core.c): intel_nehalem/westmere_extra_regs,
 * intel_snbep_extra_regs (Haswell too), intel_skl_extra_regs,
 * intel_icl_extra_regs, intel_spr/glc_extra_regs, intel_grt_extra_regs
 * (Gracemont; Intel's file adds bits 46-47 for OCR.*_STREAMING_WR.*) and
 * intel_cmt_extra_regs (Crestmont, and Skymont through intel_pmu_init_skt:
 * RSP_0 has bit 63, RSP_1 does not) and intel_lnc_extra_regs (Lion Cove,
 * Linux 6.12). */
#define OFFCORE_RSP_VALID_NHM        0xffffULL
#define OFFCORE_RSP_VALID_HSW        0x3fffff8fffULL
#define OFFCORE_RSP_VALID_SKL        0x3fffff8fffULL
#define OFFCORE_RSP_VALID_ICL        0x3fffffbfffULL
#define OFFCORE_RSP_VALID_GLC        0x3fffffffffULL
#define OFFCORE_RSP_VALID_GRT        (0x3fffffffffULL | GENMASK(47, 46))
#define OFFCORE_RSP_VALID_CMT0       0x800ff3ffffffffffULL
#define OFFCORE_RSP_VALID_CMT1       0xff3ffffffffffULL
#define OFFCORE_RSP_VALID_LNC        0xfffffffffffULL

/* ---- Debug Store save area (64-bit layout, SDM 18.4.9 / 20.6.2.4.2) ---- */
#define DS_BTS_BUFFER_BASE           0x00
#define DS_BTS_INDEX                 0x08
#define DS_BTS_ABSOLUTE_MAXIMUM      0x10
#define DS_BTS_INTERRUPT_THRESHOLD   0x18
#define DS_PEBS_BUFFER_BASE          0x20
#define DS_PEBS_INDEX                0x28
#define DS_PEBS_ABSOLUTE_MAXIMUM     0x30
#define DS_PEBS_INTERRUPT_THRESHOLD  0x38
#define DS_PEBS_COUNTER_RESET        0x40	/* u64 reset values from here */
#define DS_RESET_FIXED_SLOT_FMT4     8	/* fixed i at slot 8+i, format < 5 */
#define DS_RESET_FIXED_SLOT_FMT5     32	/* fixed i at slot 32+i, format >= 5 */

/* ---- Local APIC (xAPIC MMIO offsets; x2APIC MSR = 0x800 + off/16) ---- */
#define APIC_ID                      0x020
#define   APIC_ID_SHIFT              24	/* xAPIC: the ID in bits 31:24 */
#define APIC_VERSION                 0x030
#define APIC_TPR                     0x080
#define APIC_EOI                     0x0B0
#define APIC_SPIV                    0x0F0
#define   APIC_SPIV_SW_ENABLE        BIT(8)	/* APIC software enable */
#define APIC_ICR_LOW                 0x300
#define APIC_ICR_HIGH                0x310	/* xAPIC only */
#define APIC_LVT_TIMER               0x320
#define APIC_LVT_PERFCNT             0x340	/* LVT performance counter */
#define APIC_LVT_LINT0               0x350
#define APIC_LVT_LINT1               0x360
#define APIC_LVT_ERROR               0x370
#define   APIC_LVT_VECTOR_MASK       GENMASK(7, 0)
#define   APIC_LVT_DELIVERY_MASK     GENMASK(10, 8)
#define   APIC_LVT_DELIVERY_FIXED    (0x0 << 8)
#define   APIC_LVT_DELIVERY_SMI      (0x2 << 8)
#define   APIC_LVT_DELIVERY_NMI      (0x4 << 8)
#define   APIC_LVT_DELIVERY_STATUS   BIT(12)
#define   APIC_LVT_MASKED            BIT(16)
#define   APIC_ICR_DEST_SELF         (0x1 << 18)	/* destination shorthand */
#define   APIC_ICR_LEVEL_ASSERT      BIT(14)
/* AMD's extended APIC space (APM Vol. 2, "Extended APIC Registers"):
 * APIC_VERSION[31] says it is there; the feature register says how many
 * extended LVT entries there are; entry n, at APIC_EILVT0 + 16n, routes
 * IBS and other sources the way LVT PC routes counter overflows (vector,
 * message type fixed/SMI/NMI/ExtINT in 10:8 as APIC_LVT_DELIVERY_*, mask
 * 16). In x2APIC mode they are MSRs 0x800 + off/16 as the others are (APM
 * Vol. 2, "x2APIC Register Address Space": 840h, 850h-853h), which is how
 * Linux's setup_APIC_eilvt reaches them through apic_read/apic_write. */
#define APIC_VERSION_EXT_APIC_SPACE  BIT(31)
#define APIC_EXT_FEATURE             0x400	/* [23:16] extended LVT count */
#define   APIC_EXT_FEATURE_XLC_SHIFT 16
#define   APIC_EXT_FEATURE_XLC_MASK  GENMASK(23, 16)
#define APIC_EXT_CTRL                0x410
#define APIC_EILVT0                  0x500
#define APIC_EILVT_COUNT_MAX         4
#define APIC_EILVT_WRITABLE          (APIC_LVT_VECTOR_MASK | APIC_LVT_DELIVERY_MASK | APIC_LVT_MASKED)
static inline u32 apic_eilvt(unsigned n) { return APIC_EILVT0 + 16 * n; }
static inline u32 x2apic_msr(u32 xapic_offset) { return MSR_IA32_X2APIC_BASE + (xapic_offset >> 4); }
#define MSR_X2APIC_SELF_IPI          0x83F

/* ---- AMD: core PMU and IBS (AMD64 APM Vol. 2, "Performance Monitoring
 * Counters" and "Instruction-Based Sampling") ----------------------------- */
#define CPUID_LEAF_AMD_FEATURES      0x80000001	/* ECX: PerfCtrExtCore, IBS */
#define CPUID_LEAF_AMD_IBS           0x8000001B	/* EAX: IBS feature flags */
#define CPUID_LEAF_AMD_PERFMON       0x80000022	/* PerfMonV2, counter counts */
#define CPUID_8000_0001_ECX_EXT_APIC_SPACE BIT(3)	/* ExtApicSpace: APIC 400H-530H */
#define CPUID_8000_0001_ECX_IBS      BIT(10)	/* Instruction-Based Sampling */
#define CPUID_8000_0001_ECX_TOPOEXT  BIT(22)	/* TopologyExtensions: CPUID 8000001DH */
#define CPUID_LEAF_AMD_CACHE_PARAMS  0x8000001D	/* Cache Topology, leaf 04H's layout (APM Vol. 3, E.4.15) */
/* CPUID.04H (and 8000001DH), SDM Vol. 2A "CPUID—CPU Identification". */
#define CPUID_04_EAX_TYPE(eax)       ((eax) & 0x1f)	/* 0 none, 1 data, 2 instruction, 3 unified */
#define CPUID_04_EAX_LEVEL(eax)      (((eax) >> 5) & 7)
#define CPUID_04_EBX_LINE(ebx)       (((ebx) & 0xfff) + 1)	/* system coherency line size */
#define CPUID_04_EBX_PARTITIONS(ebx) ((((ebx) >> 12) & 0x3ff) + 1)
#define CPUID_04_EBX_WAYS(ebx)       (((ebx) >> 22) + 1)
#define CPUID_04_ECX_SETS(ecx)       ((ecx) + 1)
#define CPUID_8000_0001_ECX_PERFCTR_CORE BIT(23)	/* PerfCtrExtCore: 6 counters at C001_0200H */
/* CPUID.80000022H */
#define CPUID_8000_0022_EAX_PERFMON_V2  BIT(0)
#define CPUID_8000_0022_EAX_LBR_EXT_V2  BIT(1)
#define CPUID_8000_0022_EAX_LBR_PMC_FREEZE BIT(2)
/* EBX: NumPerfCtrCore[3:0], LbrV2StackSz[9:4], NumPerfCtrNB[15:10],
 * NumPerfCtrUmc[21:16] (FIELD(ebx, hi, lo)). */
/* CPUID.8000001BH:EAX IBS features (Linux's IBS_CAPS_* names) */
#define IBS_CAPS_AVAIL               BIT(0)	/* IBSFFV: the flags are valid */
#define IBS_CAPS_FETCHSAM            BIT(1)
#define IBS_CAPS_OPSAM               BIT(2)
#define IBS_CAPS_RDWROPCNT           BIT(3)
#define IBS_CAPS_OPCNT               BIT(4)	/* OpCntCtl: count dispatched ops */
#define IBS_CAPS_BRNTRGT             BIT(5)	/* IBS_BR_TARGET */
#define IBS_CAPS_OPCNTEXT            BIT(6)	/* IbsOpMaxCnt[26:20] */
#define IBS_CAPS_RIPINVALIDCHK       BIT(7)
#define IBS_CAPS_OPBRNFUSE           BIT(8)
#define IBS_CAPS_FETCHCTLEXTD        BIT(9)	/* IC_IBS_EXTD_CTL */
#define IBS_CAPS_OPDATA4             BIT(10)
#define IBS_CAPS_ZEN4                BIT(11)	/* L3MissOnly filters, DataSrc ext */

/* Core counters. Legacy (K7 layout, no PerfCtrExtCore): 4 event selects
 * then 4 counters; with PerfCtrExtCore: 6 pairs, PERF_CTLn at C001_0200H
 * + 2n, PERF_CTRn right after it. 48 bits wide. */
#define MSR_K7_EVNTSEL0              0xC0010000u
#define MSR_K7_PERFCTR0              0xC0010004u
#define MSR_AMD_PERF_CTL0            0xC0010200u
#define MSR_AMD_PERF_CTR0            0xC0010201u
#define AMD_LEGACY_COUNTERS          4
#define AMD_CORE_EXT_COUNTERS        6
#define AMD_COUNTER_WIDTH            48
/* PerfMonV2 global registers */
#define MSR_AMD_PERF_CNTR_GLOBAL_STATUS     0xC0000300u
#define MSR_AMD_PERF_CNTR_GLOBAL_CTL        0xC0000301u
#define MSR_AMD_PERF_CNTR_GLOBAL_STATUS_CLR 0xC0000302u
#define MSR_AMD_PERF_CNTR_GLOBAL_STATUS_SET 0xC0000303u
/* PERF_CTL fields beyond the ones Intel's IA32_PERFEVTSELx shares (event
 * 7:0, unit mask 15:8, USR, OS, Edge, Int, En, Inv, CntMask: EVTSEL_*). */
#define AMD_EVTSEL_EVENT_HI_SHIFT    32	/* EventSelect[11:8] in bits 35:32 */
#define AMD_EVTSEL_EVENT_HI_MASK     GENMASK(35, 32)
#define AMD_EVTSEL_GUEST_ONLY        BIT(40)
#define AMD_EVTSEL_HOST_ONLY         BIT(41)
/* PERF_CTL's reserved bits: 19 (the old pin control), 21, 39:36 and 63:42
 * (APM Vol. 2, "PerfEvtSeln"). A write that sets them does not fault:
 * "AMD EPYC CPUs never raise a #GP for a WRMSR to a PerfEvtSeln MSR"
 * (Linux commit 9b026073db2f, which makes KVM clear them instead). */
#define AMD_EVTSEL_RESERVED          (GENMASK(63, 42) | GENMASK(39, 36) | BIT(21) | BIT(19))
#define AMD_EVTSEL_EVENT_12BIT(sel)  ((u16)(((sel) & 0xFF) | FIELD(sel, 35, 32) << 8))
/* The RDPMC index of core counter n is n (ECX 0-5 with PerfCtrExtCore). */
#define AMD_RDPMC_CORE_MAX           AMD_CORE_EXT_COUNTERS

/* Core events (12-bit codes; Linux amd_zen2/zen4_perfmon_event_map and
 * tools/perf/pmu-events/arch/x86/amdzen2, amdzen4). A unit mask selects
 * sub-events: the counter counts the sum of those whose bits are set. */
#define AMD_EVENT_LS_DISPATCH        0x029	/* ls_dispatch: ops dispatched to LS */
#define   AMD_UMASK_LS_DISPATCH_LD   0x01	/* .ld_dispatch */
#define   AMD_UMASK_LS_DISPATCH_ST   0x02	/* .store_dispatch */
#define   AMD_UMASK_LS_DISPATCH_LD_ST 0x04	/* .ld_st_dispatch */
#define AMD_EVENT_LS_DC_ACCESSES     0x040	/* ls_dc_accesses (Zen 2's L1D access) */
#define AMD_EVENT_LS_DMND_FILLS      0x043	/* ls_dmnd_fills_from_sys (Zen 2:
						 * ls_refills_from_sys) */
#define   AMD_UMASK_FILLS_LOCAL_L2   0x01
#define   AMD_UMASK_FILLS_LOCAL_CCX  0x02	/* L3 or another L2 of the CCX */
#define   AMD_UMASK_FILLS_DRAM_NEAR  0x08	/* DRAM or MMIO, same NUMA node */
#define AMD_EVENT_L2_REQUEST_G1      0x060	/* l2_request_g1: Linux's cache-references
						 * is 0xFF60 (all of them) */
#define   AMD_UMASK_L2_RD_BLK_L      0x80	/* .rd_blk_l: data cache reads */
#define AMD_EVENT_L2_CACHE_REQ_STAT  0x064	/* l2_cache_req_stat: Linux's cache-misses
						 * is 0x0964 (.ic_dc_miss_in_l2) */
#define   AMD_UMASK_L2_LS_RD_BLK_C   0x08	/* .ls_rd_blk_c: data request missed L2 */
#define AMD_EVENT_CYCLES_NOT_HALTED  0x076	/* ls_not_halted_cyc: Linux's cycles */
#define AMD_EVENT_RETIRED_INSTRUCTIONS 0x0C0	/* ex_ret_instr */
#define AMD_EVENT_RETIRED_BRANCHES   0x0C2	/* ex_ret_brn */
#define AMD_EVENT_RETIRED_BRANCH_MISPRED 0x0C3	/* ex_ret_brn_misp */
#define AMD_EVENT_RETIRED_TAKEN_BRANCHES 0x0C4	/* ex_ret_brn_tkn */
/* Large increment per cycle events (PPR for family 17h and later, "Large
 * Increment per Cycle Events"): fp_ret_sse_avx_ops counts 0 to 64 per
 * cycle, more than the 15 a lone counter adds in a cycle. Counted on an
 * even counter whose odd neighbour holds the Merge event, the two act as
 * one 64-bit counter: the even one the low 48 bits, the odd one the upper
 * 16 (Linux AMD_MERGE_EVENT, x86_perf_event_set_period: "Sign extend the
 * Merge event counter's upper 16 bits"). */
#define AMD_EVENT_FP_RET_SSE_AVX_OPS 0x003	/* fp_ret_sse_avx_ops */
#define AMD_EVENT_MERGE              0xFFF	/* Merge: the odd counter extends the even one */
#define AMD_LONE_COUNTER_MAX_INCREMENT 15	/* per cycle, without Merge */
#define AMD_MERGE_UPPER_BITS         16	/* the odd counter's share of the 64 */
#define AMD_MERGE_UPPER_ONES         GENMASK(15, 0)	/* a negative 48-bit preset, extended */

/* The core events Linux forwards to IBS op sampling when asked for them
 * precisely (arch/x86/events/amd/ibs.c, core_pmu_ibs_config): cycles
 * (PERF_COUNT_HW_CPU_CYCLES, raw 0x76: AMD_EVENT_CYCLES_NOT_HALTED,
 * counting cycles) and raw 0xC1 (retired ops, counting dispatched ops:
 * IbsOpCntCtl). */
#define AMD_EVENT_RETIRED_OPS        0xC1

#define AMD_EVENT_CODE_MAX           0xFFF	/* EventSelect is 12 bits */

/* More core events perf's generic names map to on AMD (Linux
 * arch/x86/events/amd/core.c: amd_perfmon_event_map for K7 to family 16h,
 * amd_zen1/zen2/zen4_perfmon_event_map for Zen; names as the Zen event
 * JSON gives them). */
#define AMD_EVENT_K8_L2_REQUESTS       0x07D	/* K8-16h: requests to L2, */
#define AMD_EVENT_K8_L2_MISSES         0x07E	/* and misses; umask 0x07: */
#define AMD_UMASK_K8_L2_IC_DC_TLB      0x07	/* IC, DC and TLB walks */
#define AMD_EVENT_K8_DECODER_EMPTY     0x0D0	/* stalled-cycles-frontend */
#define AMD_EVENT_K8_DISPATCH_STALLS   0x0D1	/* stalled-cycles-backend */
#define AMD_UMASK_L2_REQUEST_ALL       0xFF	/* l2_request_g1.all */
#define AMD_UMASK_IC_DC_MISS_IN_L2     0x09	/* l2_cache_req_stat.ic_dc_miss_in_l2 */
#define AMD_EVENT_IC_FETCH_STALL       0x087	/* Zen 1: ic_fetch_stall */
#define AMD_UMASK_IC_STALL_BACK_PRESSURE 0x01	/* .ic_stall_back_pressure */
#define AMD_UMASK_IC_STALL_DQ_EMPTY    0x02	/* .ic_stall_dq_empty */
#define AMD_EVENT_OP_QUEUE_EMPTY       0x0A9	/* Zen 2+: de_op_queue_empty */
#define AMD_EVENT_NOT_HALTED_P0_CYC    0x120	/* Zen 4+: ls_not_halted_p0_cyc */
#define AMD_UMASK_P0_FREQ_CYC          0x01	/* .p0_freq_cyc (ref-cycles) */

/* IBS registers */
#define MSR_AMD_IBS_FETCH_CTL        0xC0011030u
#define MSR_AMD_IBS_FETCH_LINADDR    0xC0011031u
#define MSR_AMD_IBS_FETCH_PHYSADDR   0xC0011032u
#define MSR_AMD_IBS_OP_CTL           0xC0011033u
#define MSR_AMD_IBS_OP_RIP           0xC0011034u
#define MSR_AMD_IBS_OP_DATA          0xC0011035u
#define MSR_AMD_IBS_OP_DATA2         0xC0011036u
#define MSR_AMD_IBS_OP_DATA3         0xC0011037u
#define MSR_AMD_IBS_DC_LINADDR       0xC0011038u
#define MSR_AMD_IBS_DC_PHYSADDR      0xC0011039u
#define MSR_AMD_IBS_CTL              0xC001103Au
#define MSR_AMD_IBS_BR_TARGET        0xC001103Bu
#define MSR_AMD_IC_IBS_EXTD_CTL      0xC001103Cu	/* IBS_CAPS_FETCHCTLEXTD */
#define MSR_AMD_IBS_OP_DATA4         0xC001103Du	/* IBS_CAPS_OPDATA4 */
/* IBS_CTL: the extended LVT entry the IBS interrupt uses */
#define IBS_CTL_LVT_OFFSET_MASK      GENMASK(3, 0)
#define IBS_CTL_LVT_OFFSET_VALID     BIT(8)
/* IBS_OP_CTL */
#define IBS_OP_MAX_CNT_MASK          GENMASK(15, 0)	/* period >> 4 */
#define IBS_OP_L3_MISS_ONLY          BIT(16)
#define IBS_OP_ENABLE                BIT(17)
#define IBS_OP_VAL                   BIT(18)
#define IBS_OP_CNT_CTL               BIT(19)	/* 1: count dispatched ops */
#define IBS_OP_MAX_CNT_EXT_MASK      GENMASK(26, 20)	/* period bits 26:20 */
#define IBS_OP_MAX_CNT_EXT_SHIFT     20
#define IBS_OP_CUR_CNT_SHIFT         32
#define IBS_OP_CUR_CNT_MASK          GENMASK(58, 32)
/* CurCnt's low bits that the hardware preloads at random; Linux's
 * IBS_OP_CUR_CNT_RAND (arch/x86/include/asm/perf_event.h) is 7 bits. */
#define IBS_OP_CUR_CNT_RAND_MASK     GENMASK(38, 32)
#define IBS_OP_CTL_RESERVED          (GENMASK(63, 59) | GENMASK(31, 27))
/* The period's granularity: MaxCnt holds period bits 19:4 (and 26:20
 * with OpCntExt); the low 4 bits are 0 (APM Vol. 2, IbsOpMaxCnt). */
#define IBS_PERIOD_SHIFT             4
#define IBS_PERIOD_MIN               0x10	/* Linux perf_ibs_init: at least 0x10 */
/* IBS_OP_DATA (Linux union ibs_op_data, arch/x86/include/asm/amd-ibs.h) */
#define IBS_OP_DATA_COMP_TO_RET_MASK GENMASK(15, 0)
#define IBS_OP_DATA_TAG_TO_RET_SHIFT 16
#define IBS_OP_DATA_TAG_TO_RET_MASK  GENMASK(31, 16)
#define IBS_OP_DATA_RETURN           BIT(34)
#define IBS_OP_DATA_BRN_TAKEN        BIT(35)
#define IBS_OP_DATA_BRN_MISP         BIT(36)
#define IBS_OP_DATA_BRN_RET          BIT(37)
#define IBS_OP_DATA_RIP_INVALID      BIT(38)
/* IBS_OP_DATA2 (union ibs_op_data2): where a load's data came from.
 * DataSrc is 3 bits; with IBS_CAPS_ZEN4 bits 7:6 extend it to 5. */
#define IBS_OP_DATA2_DATA_SRC_LO     GENMASK(2, 0)
#define IBS_OP_DATA2_RMT_NODE        BIT(4)	/* from another node */
#define IBS_OP_DATA2_CACHE_HIT_ST    BIT(5)	/* 1: hit a line in the shared state */
#define IBS_OP_DATA2_DATA_SRC_HI     GENMASK(7, 6)
#define IBS_OP_DATA2_DATA_SRC_LO_BITS 3
#define IBS_OP_DATA2_DATA_SRC_HI_SHIFT 6
/* DataSrc from IBS_OP_DATA2, and IBS_OP_DATA2's DataSrc bits for a
 * source; ext: the part has IBS_CAPS_ZEN4's 5-bit field. */
static inline unsigned ibs_op_data2_source(u64 d2, bool ext)
{
	unsigned lo = (unsigned)(d2 & IBS_OP_DATA2_DATA_SRC_LO);
	if (!ext)
		return lo;
	return (unsigned)((d2 & IBS_OP_DATA2_DATA_SRC_HI) >> IBS_OP_DATA2_DATA_SRC_HI_SHIFT)
	       << IBS_OP_DATA2_DATA_SRC_LO_BITS | lo;
}
static inline u64 ibs_op_data2_of_source(unsigned src, bool ext)
{
	u64 lo = src & IBS_OP_DATA2_DATA_SRC_LO;
	if (!ext)
		return lo;
	return lo | ((u64)(src >> IBS_OP_DATA2_DATA_SRC_LO_BITS) << IBS_OP_DATA2_DATA_SRC_HI_SHIFT &
		     IBS_OP_DATA2_DATA_SRC_HI);
}
/* DataSrc values (Linux arch/x86/include/asm/amd-ibs.h IBS_DATA_SRC_*) */
#define IBS_DATA_SRC_LOC_CACHE       2	/* local L3 or another core's cache */
#define IBS_DATA_SRC_DRAM            3
#define IBS_DATA_SRC_REM_CACHE       4
#define IBS_DATA_SRC_IO              7
#define IBS_DATA_SRC_EXT_LOC_CACHE   1	/* IBS_CAPS_ZEN4: local L3 */
#define IBS_DATA_SRC_EXT_NEAR_CCX_CACHE 2	/* another CCX, same node */
#define IBS_DATA_SRC_EXT_DRAM        3
#define IBS_DATA_SRC_EXT_FAR_CCX_CACHE 5	/* a CCX on another node */
#define IBS_DATA_SRC_EXT_PMEM        6
#define IBS_DATA_SRC_EXT_IO          7
#define IBS_DATA_SRC_EXT_EXT_MEM     8	/* CXL */
/* IBS_OP_DATA3 (union ibs_op_data3) */
#define IBS_OP_DATA3_LD_OP           BIT(0)
#define IBS_OP_DATA3_ST_OP           BIT(1)
#define IBS_OP_DATA3_DC_L1TLB_MISS   BIT(2)
#define IBS_OP_DATA3_DC_L2TLB_MISS   BIT(3)
#define IBS_OP_DATA3_DC_MISS         BIT(7)
#define IBS_OP_DATA3_DC_UC_MEM_ACC   BIT(14)	/* uncacheable */
#define IBS_OP_DATA3_DC_LOCKED_OP    BIT(15)
#define IBS_OP_DATA3_DC_MISS_NO_MAB_ALLOC BIT(16)
#define IBS_OP_DATA3_LIN_ADDR_VALID  BIT(17)
#define IBS_OP_DATA3_PHY_ADDR_VALID  BIT(18)
#define IBS_OP_DATA3_L2_MISS         BIT(20)
#define IBS_OP_DATA3_SW_PF           BIT(21)	/* software prefetch */
#define IBS_OP_DATA3_MISS_LAT_SHIFT  32
#define IBS_OP_DATA3_MISS_LAT_MASK   GENMASK(47, 32)
/* IBS_FETCH_CTL */
#define IBS_FETCH_MAX_CNT_MASK       GENMASK(15, 0)	/* period >> 4 */
#define IBS_FETCH_CNT_SHIFT          16
#define IBS_FETCH_CNT_MASK           GENMASK(31, 16)
#define IBS_FETCH_LAT_SHIFT          32
#define IBS_FETCH_LAT_MASK           GENMASK(47, 32)
#define IBS_FETCH_ENABLE             BIT(48)
#define IBS_FETCH_VAL                BIT(49)
#define IBS_FETCH_COMP               BIT(50)
#define IBS_FETCH_IC_MISS            BIT(51)
#define IBS_FETCH_PHY_ADDR_VALID     BIT(52)
#define IBS_FETCH_RAND_EN            BIT(57)
#define IBS_FETCH_L3_MISS_ONLY       BIT(59)	/* IBS_CAPS_ZEN4 */
#define IBS_FETCH_CTL_RESERVED       GENMASK(63, 60)

#endif
