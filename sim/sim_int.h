/* Internals of the emulated PMU, shared by the sim/ files only. */
#ifndef BP_SIM_INT_H
#define BP_SIM_INT_H
#include "sim_api.h"
#include "../arch/msr.h"
#include "sim_machine.h"

/* The PMU one core type physically has (hybrid parts have two). */
struct sim_core_desc {
	const char *uarch;
	u8 core_type;		/* CPUID.1AH:EAX[31:24]; 0 when not hybrid */
	u32 leaf1a_eax;
	u8 num_gp, num_fixed;	/* counters present (may exceed CPUID.0AH) */
	u8 gp_width, fixed_width;
	u32 pebs_gp;		/* GP counters that can do PEBS */
	u32 pebs_fixed;		/* fixed counters that can (baseline only) */
	u8 slots_per_cycle;	/* topdown slots per core cycle; 0: none */
	u64 frontend_valid;	/* MSR_PEBS_FRONTEND's valid bits; 0: no such MSR */
	u64 offcore_valid[2];	/* MSR_OFFCORE_RSP_0/1 valid bits (when the model
				 * has them); see arch/msr.h */
	bool ldlat_needs_aux;	/* load-latency records report data source and
				 * latency only while mem-loads-aux counts */
	bool latency_split;	/* meminfo latency: instruction [15:0] and cache
				 * [47:32] latency (arch/msr.h), Alder Lake and later */
	u32 pdist_gp;		/* GP counters with PDist: the PEBS record is
				 * written at the overflow, not the next event */
	u32 fixed_mask;		/* fixed counters present where not all of
				 * 0..num_fixed-1 (CPUID.23H.1:EBX) */
	u32 pdist_fixed;	/* fixed counters with PDist (CPUID.23H.5:EDX) */
	bool omr_data_source;	/* load data sources in Panther Cove's OMR
				 * encoding (sim_pebs_data_src) */
	bool atom_ld_lat;	/* an E-core: loads by latency are
				 * MEM_UOPS_RETIRED.LOAD_LATENCY (0xD0/0x05) */
};

struct sim_model {
	const char *name;
	const char *summary;
	const char *brand;	/* CPUID.80000002H-80000004H */
	u32 signature;		/* CPUID.01H:EAX */
	u32 max_leaf, max_ext_leaf;
	u32 leaf1_ecx, leaf1_edx;
	u32 leaf7_ebx, leaf7_ecx, leaf7_edx;
	u32 leaf7_1_eax;	/* CPUID.07H.1:EAX (ArchPerfmonExt); 0: no sub-leaf 1 */
	u32 leaf23_eax, leaf23_ebx;	/* CPUID.23H.0: valid sub-leaves, PERFEVTSEL extension */
	u32 leaf23_pebs_groups;	/* CPUID.23H.4:EBX: Architectural PEBS's groups */
	struct cpuid_regs leaf0a;
	u32 ext1_ecx, ext1_edx, ext8_eax;
	const char *hypervisor_sig;	/* NULL: no hypervisor */
	u64 perf_capabilities;	/* meaningful when CPUID.01H:ECX.PDCM */
	u64 misc_enable;
	bool has_tsx;		/* EVTSEL IN_TX / IN_TXCP */
	bool has_offcore;	/* MSR_OFFCORE_RSP_0/1 */
	bool has_ld_lat;	/* MSR_PEBS_LD_LAT_THRESHOLD */
	u16 tsc_mhz, core_mhz, xclk_mhz;
	/* AMD parts (AuthenticAMD): the AMD64 APM's PMU (sim_amd.c), no
	 * leaf 0AH, PDCM or DS. */
	bool amd;
	u32 ext22_eax, ext22_ebx;	/* CPUID.80000022H: PerfMonV2, counters */
	u32 ibs_caps;		/* CPUID.8000001BH:EAX, IBS features (0: none) */
	u8 ncpus;
	const struct sim_core_desc *core[SIM_MAX_CPUS];
};

const struct sim_model *sim_find_model(const char *name);
const struct sim_model *sim_model_at(size_t i);
void sim_model_cpuid(const struct sim_model *m, u32 cpu, u32 leaf, u32 sub,
		     struct cpuid_regs *r);

/* Per-CPU emulation state. */
struct sim_cpu {
	struct sim_cpu_regs r;
	const struct sim_core_desc *core;
	u32 index;
	u8 cpl;
	u64 tsc;
	u64 ref_frac, xclk_frac;	/* remainders of the clock ratios */
	bool edge_prev[64];		/* EDGE: condition in the last cycle */
	struct sim_gprs gprs;
	struct sim_stats stats;
	u64 stuck_status;
	u64 dead_counters;
	u64 rival_global, rival_pebs;	/* injected: another agent keeps these on */
	u64 rival_evtsel[SIM_MAX_GP];	/* ... its GP counters' event selects */
	u64 rival_pmc[SIM_MAX_GP];	/* ... and their reload values */
	u64 pebs_armed;			/* PEBS counters that overflowed and wait
					 * for their next event (sim_count.c) */
	bool lvt_pc_no_mask;		/* injected: delivery leaves LVT PC unmasked */
	bool lvt_pc_masks;		/* injected: delivery masks LVT PC on AMD too */
	u32 pebs_record_size;		/* injected record size; 0: the format's */
	bool pebs_threshold_ignored;	/* injected: a PMI after every record */
	bool pebs_no_reload;		/* injected: no reload from the DS area */
	bool pebs_status_zero;		/* injected: formats 1-2 write status 0 */
	u64 ds_taken_after;		/* injected: IA32_DS_AREA moves after this
					 * many records (0: never) */
	u64 access_cycles;		/* injected: cycles run before each access */
	bool in_access_run;		/* running them (accesses inside do not) */
	u32 hook_depth;
	bool nmi_pending;
	u64 ibs_ctl;			/* IBS_CTL (read-only; "the firmware's") */
	u64 ibs_rand;			/* the model's random tagging state */
	u64 ibs_fetch_count;		/* fetches counted; IbsFetchCnt shows
					 * bits 19:4 of it */
	bool ibs_rip_invalid;		/* injected: tags report RipInvalid */
	u32 ibs_load_acc;		/* run loads: per-mille carried between tags */
	u64 ibs_load_rand;		/* run loads: the address chooser's state */
};

struct sim_state {
	const struct sim_model *model;	/* &variant */
	struct sim_model variant;	/* the model with its options applied */
	char name[32];
	bool open;
	u32 ncpus, cur;
	struct sim_cpu cpu[SIM_MAX_CPUS];
	sim_irq_hook hook;
	void *hook_ctx;
	u32 ignored_writes[8];
	u32 faulting_reads[8];
	char last_error[192];
	struct sim_run_loads run_loads;	/* what a run's ops load (sim_set_run_loads) */
	const struct sim_machine_ops *machine;	/* NULL: the model's own memory and APIC */
	void *machine_ctx;
};
extern struct sim_state sim;

static inline struct sim_cpu *sim_cur(void) { return &sim.cpu[sim.cur]; }
static inline u8 sim_pebs_format(void)
{
	return (u8)FIELD(sim.model->perf_capabilities, 11, 8);
}
static inline bool sim_has(u64 cap) { return sim.model->perf_capabilities & cap; }
static inline u8 sim_version(void) { return (u8)FIELD(sim.model->leaf0a.eax, 7, 0); }
static inline bool sim_pdcm(void) { return sim.model->leaf1_ecx & CPUID_01_ECX_PDCM; }
static inline bool sim_ds(void) { return sim.model->leaf1_edx & CPUID_01_EDX_DS; }
static inline bool sim_anythread_deprecated(void)
{
	return sim.model->leaf0a.edx & CPUID_0A_EDX_ANYTHREAD_DEPRECATED;
}
static inline bool sim_amd(void) { return sim.model->amd; }
static inline bool sim_amd_v2(void)
{
	return sim.model->ext22_eax & CPUID_8000_0022_EAX_PERFMON_V2;
}
/* A global enable register gates the counters: Intel's GLOBAL_CTRL from
 * v2 (SDM 20.2.2), AMD's PerfCntrGlobalCtl with PerfMonV2. */
static inline bool sim_global_gates(void)
{
	return sim_amd() ? sim_amd_v2() : sim_version() >= 2;
}
#define SIM_FIXED_BASE ((unsigned)GLOBAL_FIXED_SHIFT)	/* counter index of fixed 0 */
/* The fixed counters a core has: all below num_fixed unless its
 * CPUID.23H bitmap leaves gaps (Skymont: 0-2 and 4-6). */
static inline u32 sim_fixed_present(const struct sim_core_desc *core)
{
	if (core->fixed_mask)
		return core->fixed_mask;
	return core->num_fixed ? (u32)GENMASK(core->num_fixed - 1, 0) : 0;
}
static inline bool sim_has_fixed(const struct sim_cpu *c, unsigned i)
{
	return i < c->core->num_fixed && (sim_fixed_present(c->core) & (1u << i));
}
static inline u64 width_mask(u8 bits) { return GENMASK(bits - 1, 0); }

/* A refused access or emulation: fills the fault and returns 1. */
int sim_gp(struct hw_fault *f, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Something the model cannot emulate (a PEBS write to nowhere, ...): as
 * loud as a fault, through the seam's fault handler. */
void sim_model_error(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* sim_pmu.c: MSRs of the PMU proper, counting, overflow. */
int sim_pmu_rdmsr(struct sim_cpu *c, u32 msr, u64 *val, struct hw_fault *f);
int sim_pmu_wrmsr(struct sim_cpu *c, u32 msr, u64 val, struct hw_fault *f);
void sim_pmu_reset(struct sim_cpu *c);
int sim_pmu_rdpmc(struct sim_cpu *c, u32 ecx, u64 *val, struct hw_fault *f);
/* Requests a PMI from the PMU (freeze rules apply), then delivers it. */
void sim_pmu_raise_pmi(struct sim_cpu *c);
/* An injected rival's visit (sim_inject_rival): its bits on again. */
void sim_rival_visit(struct sim_cpu *c);

/* sim_amd.c: the AMD64 APM's core counter MSRs, RDPMC and reset. */
int sim_amd_rdmsr(struct sim_cpu *c, u32 msr, u64 *val, struct hw_fault *f);
int sim_amd_wrmsr(struct sim_cpu *c, u32 msr, u64 val, struct hw_fault *f);
int sim_amd_rdpmc(struct sim_cpu *c, u32 ecx, u64 *val, struct hw_fault *f);
void sim_amd_reset(struct sim_cpu *c);
/* The MSRs the AMD PMU owns (legacy, PerfCtrExtCore, PerfMonV2). */
bool sim_amd_pmu_msr(u32 msr);
/* PERF_CTL selects an event of loads and stores (the machine then
 * reports accesses). */
bool sim_amd_memory_event(u64 sel);

/* Memory the PEBS assist reads and writes at linear addresses: this
 * address space, or the attached machine's guest memory (sim_machine.c). */
void sim_mem_read(u64 la, void *buf, u32 len);
void sim_mem_write(u64 la, const void *buf, u32 len);

/* sim_pebs.c: one record for the PEBS counters in `applicable`. */
struct sim_point {
	u64 ip;
	u8 insn_len;
	u64 next_ip;		/* the instruction after; 0: ip + insn_len */
	u64 data_addr, latency, data_src;
	u16 instr_latency;
};
static inline u64 sim_point_next_ip(const struct sim_point *pt)
{
	return pt->next_ip ? pt->next_ip : pt->ip + pt->insn_len;
}
bool sim_pebs_assist(struct sim_cpu *c, u64 applicable, const struct sim_point *pt);
/* A cursor writing a record's u64 fields, in order, into a scratch buffer. */
struct sim_rec {
	u8 *at;
};
static inline void sim_rec_put(struct sim_rec *r, u64 v)
{
	__builtin_memcpy(r->at, &v, sizeof(v));
	r->at += sizeof(v);
}
/* The groups adaptive and Architectural PEBS records share: the GPRs in
 * the adaptive order (RIP: rip) and XMM0-15 (sim_pebs.c). */
void sim_pebs_put_adaptive_gprs(struct sim_rec *r, const struct sim_gprs *g, u64 rip);
void sim_pebs_put_xmm(struct sim_rec *r, const struct sim_gprs *g);
/* The data source a record of core carries for an occurrence's, which
 * the model states in the SDM's load encoding. */
u64 sim_pebs_data_src(const struct sim_core_desc *core, u64 data_src);
/* A linear address the CPU takes (bits 63:47 all equal). */
static inline bool sim_canonical(u64 addr)
{
	u64 top = addr >> 47;
	return top == 0 || top == 0x1FFFF;
}
/* sim_pebs_arch.c: Architectural PEBS (PEBS_FORMAT 0xF). */
static inline bool sim_arch_pebs(void)
{
	return sim_pdcm() && sim_pebs_format() == PERF_CAP_PEBS_FORMAT_ARCH &&
	       (sim.model->leaf23_eax & BIT(CPUID_23_SUBLEAF_PEBS_CAPS));
}
bool sim_arch_pebs_assist(struct sim_cpu *c, u64 applicable, const struct sim_point *pt);
/* The counters whose CFG_C enables a record (status layout), while
 * IA32_PEBS_INDEX.EN is set. */
u64 sim_arch_pebs_counters(const struct sim_cpu *c);
/* IA32_PEBS_BASE and IA32_PEBS_INDEX (*done: msr is one of them here). */
int sim_arch_pebs_rdmsr(struct sim_cpu *c, u32 msr, u64 *val, struct hw_fault *f, bool *done);
int sim_arch_pebs_wrmsr(struct sim_cpu *c, u32 msr, u64 val, struct hw_fault *f, bool *done);
/* Counter i's v6 configuration MSR msr (its CFG_B or CFG_C): the
 * counter's status-layout index when it is a CFG_C the model has, else -1. */
int sim_arch_pebs_cfg_c_index(u32 msr, unsigned i);
u64 sim_arch_pebs_read_cfg_c(struct sim_cpu *c, unsigned idx);
int sim_arch_pebs_write_cfg_c(struct sim_cpu *c, unsigned idx, u64 val, struct hw_fault *f);
u32 sim_pebs_record_size(u8 format, u64 data_cfg, bool adaptive);

/* sim_count.c: a run with its eventing point; the events until the
 * first overflow; whether anything counts (sim_machine.c uses them). */
void sim_run_at(u64 cycles, u64 instructions, const struct sim_point *pt);
u64 sim_events_until_overflow(u64 limit);
bool sim_any_counting(void);

/* sim_apic.c: local APIC. */
void sim_apic_reset(struct sim_cpu *c, bool x2apic);
int sim_apic_rdmsr(struct sim_cpu *c, u32 msr, u64 *val, struct hw_fault *f);
int sim_apic_wrmsr(struct sim_cpu *c, u32 msr, u64 val, struct hw_fault *f);
u32 sim_apic_mmio_read(struct sim_cpu *c, u64 addr);
void sim_apic_mmio_write(struct sim_cpu *c, u64 addr, u32 val);
/* The LVT PC path: drops the PMI if masked, else sets the mask and
 * delivers it. */
void sim_apic_pmi(struct sim_cpu *c);
/* An interrupt through extended LVT entry n (AMD): false when the entry
 * is masked (nothing delivered). */
bool sim_apic_eilvt(struct sim_cpu *c, unsigned n);
/* AMD's extended APIC space is there (the model is an AMD part). */
bool sim_apic_ext_space(void);

/* sim_ibs.c: Instruction-Based Sampling (AMD). */
bool sim_ibs_msr(u32 msr);
int sim_ibs_rdmsr(struct sim_cpu *c, u32 msr, u64 *val, struct hw_fault *f);
int sim_ibs_wrmsr(struct sim_cpu *c, u32 msr, u64 val, struct hw_fault *f);
void sim_ibs_reset(struct sim_cpu *c);
/* Of a run of `cycles` cycles retiring `instructions`: how many cycles
 * may run before an enabled IBS counter reaches its maximum (cycles when
 * none does). */
u64 sim_ibs_cycles_until_tag(const struct sim_cpu *c, u64 cycles, u64 instructions);
/* Advances the IBS counters by a run's cycles and ops; tags at pt when
 * one reaches its maximum. */
void sim_ibs_advance(struct sim_cpu *c, u64 cycles, u64 ops, const struct sim_point *pt);

#endif
