/* What this CPU's PMU can do, read once through the hardware seam and
 * decoded from CPUID and IA32_PERF_CAPABILITIES. All other code asks these
 * small predicates instead of decoding registers itself. */
#ifndef BP_CAPS_H
#define BP_CAPS_H
#include "../lib/types.h"
#include "hw.h"
#include "msr.h"

#define PMU_MAX_GP     32
#define PMU_MAX_FIXED  16

struct pmu_caps {
	/* identification */
	char vendor[13];
	char brand[49];
	u32 signature;		/* CPUID.01H:EAX */
	u32 family, model, stepping;	/* display values */
	bool intel;
	bool amd;		/* AuthenticAMD */
	bool hypervisor;
	char hypervisor_sig[13];
	bool hybrid;		/* CPUID.07H.0:EDX[15] */
	u8 core_type;		/* CPUID.1AH:EAX[31:24], 0 if not hybrid */

	/* CPUID.01H features */
	bool pdcm, ds, dtes64, ds_cpl, x2apic;

	/* CPUID.0AH (and 23H where present) */
	u8 version;		/* 0: no architectural perfmon */
	u8 num_gp;		/* highest GP index + 1 */
	u8 gp_width;
	u8 num_fixed;		/* highest fixed index + 1 */
	u8 fixed_width;
	u32 gp_mask;		/* bitmap of GP counters present */
	u32 fixed_mask;		/* bitmap of fixed counters present */
	u8 arch_events_len;	/* CPUID.0AH:EAX[31:24] */
	u32 arch_events;	/* bit i: architectural event i available */
	bool anythread_deprecated;
	bool arch_perfmon_ext;	/* CPUID.07H.1:EAX[8]: CPUID.23H exists */
	bool has_leaf_23;	/* its counter bitmaps (sub-leaf 1) were read */
	u32 leaf23_subleaves;	/* CPUID.23H.0:EAX, the valid sub-leaves */
	bool umask2, evtsel_eq;	/* CPUID.23H.0:EBX: UMASK2, EQ (PERFEVTSEL extension) */
	/* Architectural PEBS (CPUID.23H sub-leaves 4 and 5, read when
	 * sub-leaf 0 lists both, as Linux's update_pmu_cap): the CFG_C
	 * group bits records can carry (sub-leaf 4 EBX << 32), and the
	 * PEBS-capable and PDist counters in the status layout. */
	bool has_arch_pebs_leaves;
	u64 arch_pebs_groups;
	u64 arch_pebs_counters, arch_pebs_pdists;
	bool hybrid_core_extra;	/* a hybrid P-core's counters beyond CPUID.0AH's
				 * common ones were added (caps_add_hybrid_core_counters) */

	/* IA32_PERF_CAPABILITIES (valid when pdcm) */
	u64 perf_capabilities;
	u8 lbr_format;
	u8 pebs_format;
	bool pebs_trap, pebs_arch_reg, smm_freeze, full_width_write,
	     pebs_baseline, perf_metrics, pebs_output_pt, pebs_timing_info;

	/* IA32_MISC_ENABLE */
	u64 misc_enable;
	bool misc_enable_readable;

	/* AMD (APM Vol. 2, "Performance Monitoring Counters"; CPUID
	 * 80000001H, 80000022H, 8000001BH): the core counters are num_gp,
	 * gp_width above; there are no fixed counters. */
	bool perfctr_core;	/* PerfCtrExtCore: 6 counters at C001_0200H */
	bool perfmon_v2;	/* PerfMonV2: global control and status */
	bool lbr_ext_v2, lbr_pmc_freeze;
	u8 amd_lbr_depth;	/* CPUID.80000022H:EBX[9:4] */
	u8 amd_nb_counters, amd_umc_counters;
	bool ibs;		/* CPUID.80000001H:ECX[10] */
	u32 ibs_caps;		/* CPUID.8000001BH:EAX, IBS_CAPS_* */
	/* The counters CPUID promises fault or do not keep a written value
	 * (a hypervisor that gives no PMU): num_gp is then 0. */
	bool counters_unusable;

	/* Where the counters and their global controls are
	 * (caps_set_counter_msrs): code computes MSR addresses from these,
	 * not from one vendor's constants. Counter i of a kind is at its
	 * base + i * stride: 1 in the legacy blocks, 2 where event selects
	 * and counters interleave (AMD's PerfCtrExtCore), 4 in perfmon v6's
	 * block (a counter's CTR, CFG_A, CFG_B and CFG_C). */
	u8 msr_gp_stride, msr_fixed_stride;
	u32 msr_gp_counter_base;	/* reads */
	u32 msr_gp_counter_write_base;	/* writes: the full-width alias if any */
	u32 msr_gp_event_select_base;
	u32 msr_fixed_counter_base;
	u32 msr_fixed_ctr_ctrl;
	u32 msr_global_ctrl;
	u32 msr_global_status;
	u32 msr_global_status_reset;	/* a 1 clears that status bit */
	u32 msr_global_status_set;	/* a 1 sets it (version 4 on) */
};

/* Pure decoders, so that register values of real CPUs can be tested. */
void caps_decode_leaf01(struct pmu_caps *c, const struct cpuid_regs *r);
void caps_decode_leaf0a(struct pmu_caps *c, const struct cpuid_regs *r);
/* Sub-leaf 0 of CPUID.23H: the valid sub-leaves and the PERFEVTSEL
 * extension (UMASK2, EQ). */
void caps_decode_leaf23_main(struct pmu_caps *c, const struct cpuid_regs *r);
/* Sub-leaf 1 of CPUID.23H: exact counter bitmaps, preferred over 0AH. */
void caps_decode_leaf23_counters(struct pmu_caps *c, const struct cpuid_regs *r);
/* Sub-leaves 4 and 5 of CPUID.23H: Architectural PEBS's record groups
 * (4: EBX) and counters (5: EAX GP and ECX fixed PEBS-capable, EBX GP
 * and EDX fixed with PDist). */
void caps_decode_leaf23_pebs(struct pmu_caps *c, const struct cpuid_regs *groups,
			     const struct cpuid_regs *counters);
/* A hybrid P-core without CPUID.23H: the counters CPUID.0AH leaves out. */
void caps_add_hybrid_core_counters(struct pmu_caps *c);
void caps_decode_perf_capabilities(struct pmu_caps *c, u64 value);
/* The counter MSRs of Intel's architectural performance monitoring, for
 * the counters decoded above; after caps_decode_perf_capabilities, which
 * says whether GP counters have full-width writes. */
void caps_set_counter_msrs(struct pmu_caps *c);

/* AMD: CPUID.80000001H:ECX (PerfCtrExtCore, IBS), CPUID.80000022H
 * (PerfMonV2, counter counts, LBR depth) and CPUID.8000001BH:EAX (IBS
 * features); then the counter MSRs they imply. */
void caps_decode_amd_ext_features(struct pmu_caps *c, const struct cpuid_regs *r);
void caps_decode_amd_perfmon(struct pmu_caps *c, const struct cpuid_regs *r);
void caps_decode_amd_ibs(struct pmu_caps *c, const struct cpuid_regs *r);
void caps_set_amd_counter_msrs(struct pmu_caps *c);

/* Reads everything through the hardware seam. */
void pmu_caps_read(struct pmu_caps *c);
/* Whether the PMI is acknowledged mid-handler (LVT PC unmasked right
 * before the counters are enabled again) rather than last: Linux's
 * mid_ack, which arch/x86/events/intel/core.c sets for Gracemont and
 * later E-cores (hybrid E-cores, Alder Lake-N, Sierra Forest, Grand
 * Ridge); P-cores and earlier parts unmask last (late_ack). */
bool caps_pmi_mid_ack(const struct pmu_caps *c);
/* An Intel family 6 CPU whose display model is one of models[0..n). */
bool caps_model_in(const struct pmu_caps *c, const u8 *models, size_t n);
/* The adaptive meminfo latency field is split into instruction and cache
 * latency (arch/msr.h): adaptive PEBS on Alder Lake, Sapphire Rapids and
 * later, as Linux's PMU_FL_INSTR_LATENCY; not on the earlier adaptive
 * parts (Ice Lake, Tiger Lake, Rocket Lake, Tremont). */
bool caps_pebs_latency_split(const struct pmu_caps *c);
/* Whether load-latency PEBS needs the auxiliary event counting with it. */
bool caps_mem_loads_aux(const struct pmu_caps *c);
/* A Nehalem or Westmere core: its PEBS load data sources 0x5..0x7 mean
 * snoop hit and HITM (Linux: intel_pmu_pebs_data_source_nhm). */
bool caps_nehalem_data_source(const struct pmu_caps *c);
/* A Gracemont core (Alder/Raptor Lake E-core, Alder Lake-N): its load
 * data sources 0x5, 0x6 and 0x8 mean other things than a big core's
 * (Linux: intel_pmu_pebs_data_source_grt). */
bool caps_gracemont(const struct pmu_caps *c);
/* Panther Cove (Diamond Rapids) and Coyote Cove (Nova Lake's P-core): the
 * OMR data-source encoding (Linux pnc_latency_data; nvl_latency_data
 * takes it for the P-core). */
bool caps_panther_cove(const struct pmu_caps *c);
/* The APIC ID of the CPU this runs on, which tells CPUs apart in a PMI:
 * the full 32-bit x2APIC ID from CPUID.0BH:EDX where leaf 0BH exists (SDM
 * Vol. 2A, CPUID "Extended Topology Enumeration Leaf"; above 255 CPUs the
 * 8-bit ID wraps), else the initial APIC ID, CPUID.01H:EBX[31:24]. */
u32 caps_apic_id(void);

static inline bool caps_has_pmu(const struct pmu_caps *c)  { return (c->version > 0 || c->amd) && c->num_gp > 0; }
static inline bool caps_has_gp(const struct pmu_caps *c, unsigned i)    { return i < 32 && (c->gp_mask & (1u << i)); }
static inline bool caps_has_fixed(const struct pmu_caps *c, unsigned i) { return i < 32 && (c->fixed_mask & (1u << i)); }
static inline bool caps_arch_event(const struct pmu_caps *c, enum arch_event e) { return c->arch_events & (1u << e); }
static inline u64 caps_gp_mask_value(const struct pmu_caps *c)    { return GENMASK(c->gp_width - 1, 0); }
static inline u64 caps_fixed_mask_value(const struct pmu_caps *c) { return c->fixed_width ? GENMASK(c->fixed_width - 1, 0) : 0; }
static inline u32 caps_gp_counter_msr(const struct pmu_caps *c, unsigned i)       { return c->msr_gp_counter_base + i * c->msr_gp_stride; }
static inline u32 caps_gp_counter_write_msr(const struct pmu_caps *c, unsigned i) { return c->msr_gp_counter_write_base + i * c->msr_gp_stride; }
static inline u32 caps_gp_eventsel_msr(const struct pmu_caps *c, unsigned i)      { return c->msr_gp_event_select_base + i * c->msr_gp_stride; }
static inline u32 caps_fixed_counter_msr(const struct pmu_caps *c, unsigned i)    { return c->msr_fixed_counter_base + i * c->msr_fixed_stride; }
/* Perfmon v6 and later address counters in the 1900H block. */
static inline bool caps_v6_msrs(const struct pmu_caps *c) { return c->intel && c->version >= 6; }
/* GLOBAL_STATUS/CTRL and OVF_CTRL were introduced by Intel's version 2,
 * GLOBAL_STATUS_SET by version 4; AMD has all four with PerfMonV2. */
static inline bool caps_has_global_ctrl(const struct pmu_caps *c) { return c->amd ? c->perfmon_v2 : c->version >= 2; }
static inline bool caps_has_status_set(const struct pmu_caps *c)  { return c->amd ? c->perfmon_v2 : c->version >= 4; }
static inline bool caps_perfmon_enabled(const struct pmu_caps *c)
{
	return !c->misc_enable_readable || (c->misc_enable & MISC_ENABLE_PERF_MON_AVAILABLE);
}
static inline bool caps_pebs_format_arch(const struct pmu_caps *c)
{
	return c->pdcm && c->pebs_format == PERF_CAP_PEBS_FORMAT_ARCH;
}
/* DS-based PEBS needs DS, PEBS not disabled in MISC_ENABLE, and PDCM to
 * learn a record format other than Architectural PEBS's. */
static inline bool caps_has_ds_pebs(const struct pmu_caps *c)
{
	return c->intel && caps_has_pmu(c) && c->ds && c->pdcm &&
	       c->misc_enable_readable && !caps_pebs_format_arch(c) &&
	       !(c->misc_enable & MISC_ENABLE_PEBS_UNAVAILABLE);
}
/* Architectural PEBS: PEBS_FORMAT 0xF and CPUID.23H sub-leaves 4 and 5
 * (Linux: intel_pebs_init takes the arch path on format 0xF and
 * update_pmu_cap drops it without both sub-leaves). */
static inline bool caps_has_arch_pebs(const struct pmu_caps *c)
{
	return c->intel && caps_has_pmu(c) && caps_pebs_format_arch(c) &&
	       c->has_arch_pebs_leaves && c->arch_pebs_counters &&
	       !(c->misc_enable_readable && (c->misc_enable & MISC_ENABLE_PEBS_UNAVAILABLE));
}
/* PEBS of either kind. */
static inline bool caps_has_pebs(const struct pmu_caps *c)
{
	return caps_has_ds_pebs(c) || caps_has_arch_pebs(c);
}
/* Why caps_has_ds_pebs() (caps_has_arch_pebs(), caps_has_pebs()) is
 * false, for messages ("no Debug Store", ...); NULL when it is there. */
const char *caps_ds_pebs_missing(const struct pmu_caps *c);
const char *caps_arch_pebs_missing(const struct pmu_caps *c);
const char *caps_pebs_missing(const struct pmu_caps *c);
const char *caps_arch_event_name(enum arch_event e);
const char *caps_core_type_name(u8 core_type);

#endif
