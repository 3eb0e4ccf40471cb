/* The emulated PMU's test and bench API: choosing a CPU, making events
 * happen, watching PMIs, inspecting and comparing state, injecting faults.
 * Logic under test never includes this: it reaches the model only through
 * the hardware seam (arch/hw.h). See sim/README.md for what is modelled.
 *
 * Time and events happen on the CURRENT CPU (sim_set_cpu). Nothing here
 * counts as an MSR access in the seam's statistics. */
#ifndef BP_SIM_API_H
#define BP_SIM_API_H
#include "../lib/types.h"
#include "../arch/hw.h"
#include "sim.h"

#define SIM_MAX_CPUS   4
#define SIM_MAX_GP     10	/* GP counters physically present, per CPU (Lion Cove's 10) */
#define SIM_MAX_FIXED  7	/* fixed counters 0-6 (Skymont's 4-6: topdown) */

/* ---- models and CPUs ---------------------------------------------------- */
/* Options after the model name, comma separated: "icx,x2apic" starts every
 * CPU's local APIC in x2APIC mode (the part must report x2APIC);
 * "icx,fmt=7" reports PEBS record format 7 in IA32_PERF_CAPABILITIES[11:8]
 * (a format bareperf does not know; the model never writes such records). */
size_t sim_model_count(void);
const char *sim_model_name(size_t i);
const char *sim_model_summary(size_t i);	/* one line: part, PMU, PEBS format */
bool sim_is_open(void);

u32 sim_cpu_count(void);
/* Selects the logical CPU that the seam (cpuid, MSRs, APIC) talks to and
 * that sim_run/sim_event advance. Each CPU has its own PMU and APIC. */
void sim_set_cpu(u32 cpu);
u32 sim_current_cpu(void);
/* Current privilege level of the code "running" on this CPU (0..3); the
 * USR/OS filters compare against it. Default 0, as firmware runs. */
void sim_set_cpl(u8 cpl);
u8 sim_cpl(void);
/* Time stamp counter of this CPU; it advances with reference cycles. */
u64 sim_tsc(void);
/* Moves this CPU's TSC forward to tsc if it is behind: one machine's TSCs
 * run in step, and a halted CPU's keeps counting (SDM Vol. 3B 17.17,
 * Time-Stamp Counter: invariant TSC). Never backwards. */
void sim_tsc_catch_up(u64 tsc);
/* Whether this CPU writes a PEBS record for counter `counter` (the
 * GLOBAL_STATUS bit index) at its overflowing event (PDist), not at the
 * next event after the overflow (sim_count.c). */
bool sim_pebs_at_overflow(unsigned counter);

/* Architectural register values that PEBS records capture. */
struct sim_gprs {
	u64 rax, rbx, rcx, rdx, rsi, rdi, rbp, rsp;
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
	u64 rflags;
	u64 xmm[16][2];
};
void sim_set_gprs(const struct sim_gprs *g);

/* ---- making events happen ------------------------------------------------ */
/* N occurrences of one microarchitectural event at one instruction.
 * Occurrences arrive per_cycle at a time (the last cycle gets the rest), so
 * the counter mask, INV and EDGE filter them per cycle as the SDM says.
 * Injected occurrences do not advance time (cycles, instructions): use
 * sim_run for that. */
struct sim_occ {
	u16 event;		/* AMD's are 12 bits (PERF_CTL 7:0 and 35:32) */
	u8 umask;
	u64 count;
	u32 per_cycle;		/* 0 means 1 */
	u64 ip;			/* the eventing instruction */
	u8 insn_len;		/* its length: formats 0/1 report ip + insn_len */
	u64 next_ip;		/* where execution goes on (PEBS RIP); 0: ip + insn_len */
	u64 data_addr;		/* data linear address (memory events) */
	u64 latency;		/* load latency, core cycles */
	u16 instr_latency;	/* the instruction's latency (parts that report it) */
	u64 data_src;		/* data source encoding */
	u32 frontend;		/* its front-end condition, as an MSR_PEBS_FRONTEND
				 * value (EVTSEL, bubble length and width); for
				 * FRONTEND_RETIRED (0xC6/0x01) only */
};
void sim_event(const struct sim_occ *o);
/* Shorthand: count occurrences of (event, umask) at ip, one per cycle. */
void sim_events(u16 event, u8 umask, u64 count, u64 ip);
/* An occurrence given in Intel's encoding (the drive's workload profiles,
 * the QEMU machine's retirement: branches, misses, loads and stores by
 * cache level) counted as the modelled part's events for it: itself on
 * Intel parts, AMD's equivalents on AMD parts (sim_amd.c). */
void sim_event_from_intel(const struct sim_occ *o);

/* Runs the CPU for `cycles` unhalted core cycles retiring `instructions`
 * instructions at ip (spread evenly over the cycles). Core cycles, reference
 * cycles (TSC rate, fixed ratio per model), the crystal clock, instructions
 * and topdown slots advance together. PMIs raised on the way are delivered
 * when they happen, so a handler sees the counters as they were then. */
void sim_run(u64 cycles, u64 instructions, u64 ip);
/* As sim_run, with the instructions loading from data_addr, each load
 * taking `latency` cycles (0: an L1 hit): what IBS op sampling latches
 * (IbsDcLinAd, DcMissLat) for an op it tags in the run. */
void sim_run_load(u64 cycles, u64 instructions, u64 ip, u64 data_addr, u64 latency);
/* As sim_run, but stops right after the overflow that raises a PMI, as a
 * core stops retiring the interrupted code when it takes the PMI. Returns
 * the cycles run (all of them when no PMI came); *inst_done receives the
 * instructions retired in them. */
u64 sim_run_until_pmi(u64 cycles, u64 instructions, u64 ip, u64 *inst_done);

/* What the ops of the runs that follow load, for IBS op sampling, which
 * tags single ops of a run: per_kilo of every 1,000 ops load from
 * [base, base + size) with this latency, from where data_src says
 * (Intel's encoding, as sim_occ; arch/msr.h INTEL_DSE_L1_HIT...).
 * per_kilo 0 (the default): a run's ops do not load. Counting is not
 * affected: loads count as the events sim_event reports. */
struct sim_run_loads {
	u32 per_kilo;
	u64 base, size, latency, data_src;
};
void sim_set_run_loads(const struct sim_run_loads *l);

/* A synthetic workload, replayed step by step (repeat 0 means once). */
enum sim_step_kind {
	SIM_STEP_RUN,		/* sim_run(cycles, instructions, ip) */
	SIM_STEP_EVENT,		/* sim_event(&occ) */
	SIM_STEP_CPL,		/* sim_set_cpl(arg) */
	SIM_STEP_CPU,		/* sim_set_cpu(arg) */
};
struct sim_step {
	enum sim_step_kind kind;
	u32 repeat;
	u64 cycles, instructions, ip;
	struct sim_occ occ;
	u32 arg;
};
void sim_replay(const struct sim_step *steps, size_t n);

/* ---- interrupts ------------------------------------------------------------ */
/* Called for each interrupt the model's local APIC delivers: PMIs through
 * LVT PC (vector 2 for NMI delivery mode) and IPIs sent through the ICR.
 * While the hook runs, the current CPU is the receiving one. Host tests
 * call their handler from it; the image sends a real self-IPI. */
typedef void (*sim_irq_hook)(u32 cpu, u8 vector, void *ctx);
void sim_set_pmi_hook(sim_irq_hook hook, void *ctx);
#define SIM_NMI_VECTOR 2

/* ---- observability ---------------------------------------------------------- */
struct sim_stats {
	u64 overflows;		/* counter overflows */
	u64 pebs_records;	/* records written */
	u64 pebs_lost;		/* records not written: buffer full */
	u64 pebs_qualified;	/* records for a GP counter with CMASK, INV, EDGE
				 * or AnyThread set, which the SDM calls not
				 * valid (see sim_pebs.c) */
	u64 pebs_bytes;
	u64 pebs_disarmed;	/* armed PEBS overflows whose record never came:
				 * the counter was written first */
	u64 pmis_raised;	/* PMI requests by the PMU */
	u64 pmis_delivered;	/* reached the hook */
	u64 pmis_masked;	/* dropped: LVT PC masked */
	u64 ipis;		/* IPIs delivered */
	u64 ibs_tags;		/* IBS samples latched (op and fetch) */
	u64 ibs_irqs;		/* IBS interrupts delivered through an EILVT entry */
	u64 ibs_irqs_masked;	/* dropped: the entry masked, or no valid offset */
	u64 faults;		/* accesses that #GP'd */
	u64 model_errors;	/* things the model refused to emulate */
	u64 reserved_dropped;	/* AMD PERF_CTL writes whose reserved bits the
				 * part dropped (no #GP on AMD) */
};
/* Per CPU; sim_stats_total sums all CPUs. */
void sim_stats_get(u32 cpu, struct sim_stats *out);
void sim_stats_total(struct sim_stats *out);
void sim_stats_reset(void);
/* RDMSR/WRMSR of one MSR seen by the model (all CPUs, faults included). */
u64 sim_msr_reads(u32 msr);
u64 sim_msr_writes(u32 msr);
u64 sim_msr_accesses(void);	/* all MSRs, reads + writes */
void sim_msr_counts_reset(void);
/* The last fault or model error, as text ("" if none). */
const char *sim_last_error(void);

/* The architectural state of one CPU's PMU and local APIC. */
struct sim_cpu_regs {
	u64 pmc[SIM_MAX_GP];
	u64 evtsel[SIM_MAX_GP];
	u64 fixed[SIM_MAX_FIXED];
	u64 fixed_ctrl, global_ctrl, global_status;
	u64 pebs_enable, pebs_data_cfg, ld_lat_threshold, pebs_frontend;
	u64 ds_area, debugctl, misc_enable;
	/* Architectural PEBS: IA32_PEBS_BASE, IA32_PEBS_INDEX and each
	 * counter's CFG_C (sim_pebs_arch.c) */
	u64 pebs_base, pebs_index;
	u64 cfg_c[SIM_MAX_GP], cfg_c_fixed[SIM_MAX_FIXED];
	u64 offcore_rsp[2];
	u64 apic_base;
	u32 apic_tpr, apic_spiv, apic_icr_low, apic_icr_high;
	u32 lvt_timer, lvt_pc, lvt_lint0, lvt_lint1, lvt_error;
	u32 isr[8], irr[8];	/* 256-bit in-service and request registers */
	/* AMD: the extended LVT entries and IBS (sim_ibs.c) */
	u32 eilvt[4];
	u64 ibs_fetch_ctl, ibs_fetch_linad, ibs_fetch_physad;
	u64 ibs_op_ctl, ibs_op_rip, ibs_op_data[3], ibs_dc_linad, ibs_dc_physad;
	u64 ibs_br_target;
};
struct sim_snapshot {
	u32 ncpus;
	struct sim_cpu_regs cpu[SIM_MAX_CPUS];
};
void sim_snapshot(struct sim_snapshot *s);
/* True when equal; otherwise names the first difference in diff. */
bool sim_snapshot_equal(const struct sim_snapshot *a, const struct sim_snapshot *b,
			char *diff, size_t difflen);
/* Read-only view of the current CPU's registers (no access counted). */
const struct sim_cpu_regs *sim_regs(void);

/* ---- fault injection (current CPU) ------------------------------------------ */
/* A PMI through LVT PC with no GLOBAL_STATUS bit behind it. */
void sim_inject_spurious_pmi(void);
/* These GLOBAL_STATUS bits are set now and ignore STATUS_RESET. 0 undoes. */
void sim_inject_stuck_status(u64 bits);
/* Writes the PEBS index field of the DS area directly (e.g. outside the
 * buffer); sim_inject_pebs_full sets it to the absolute maximum. */
void sim_inject_pebs_index(u64 index);
void sim_inject_pebs_full(void);
/* Firmware left counters running: GP0 counting core cycles, fixed 0-2
 * enabled for ring 0, their GLOBAL_CTRL bits set. */
void sim_inject_counters_running(void);
/* Another agent (a session's timer callback, SMM) turns these
 * IA32_PERF_GLOBAL_CTRL and IA32_PEBS_ENABLE bits back on whenever the
 * CPU runs, and the event selects of those GP counters as they are now
 * (their counters reloaded to their present values when below them),
 * whatever was written: a PMU in use that --force takes over
 * only between its visits. 0, 0 undoes. */
void sim_inject_rival(u64 global_bits, u64 pebs_bits);
/* IA32_MISC_ENABLE[12]: PEBS unavailable (set) or available (clear). */
void sim_inject_pebs_unavailable(bool unavailable);
/* IA32_MISC_ENABLE[7]: performance monitoring unavailable (clear) or
 * available (set). */
void sim_inject_perfmon_unavailable(bool unavailable);
/* RDMSR of this MSR #GPs although CPUID advertises it, as under a
 * hypervisor that does not implement every counter it reports (up to 8
 * MSRs; msr 0 clears the list). */
void sim_inject_faulting_reads(u32 msr);
/* Counters (GP i = bit i, fixed i = bit 32+i) that never count. */
void sim_inject_dead_counters(u64 mask);
/* Writes to this MSR are accepted but do not stick (up to 8 MSRs;
 * msr 0 clears the list). */
void sim_inject_ignored_writes(u32 msr);
/* Delivering a PMI leaves the LVT PC mask bit clear (SDM 11.5.1: the
 * processor sets it). */
void sim_inject_lvt_pc_no_mask(bool on);
/* Delivering a PMI sets the LVT PC mask bit on an AMD part too (its
 * APIC leaves it clear: Linux amd_pmu_v2_handle_irq). */
void sim_inject_lvt_pc_masks(bool on);
/* PEBS records are `bytes` long whatever the format says: the index
 * advances by it and the adaptive basic group states it (0 undoes). The
 * record's fields are cut at, or zero-filled up to, that size. */
void sim_inject_pebs_record_size(u32 bytes);
/* The PEBS interrupt threshold is ignored: bit 62 and a PMI after every
 * record. */
void sim_inject_pebs_threshold_ignored(bool on);
/* A PEBS record does not reload its counters from the DS reset values. */
void sim_inject_pebs_no_reload(bool on);
/* Formats 1-2 write 0 in the record's status field, as Haswell and earlier
 * can when the assist races with software clearing GLOBAL_STATUS (Linux,
 * intel_pmu_drain_pebs_nhm in arch/x86/events/intel/ds.c). */
void sim_inject_pebs_status_zero(bool on);
/* Something else (SMM, another agent) takes the Debug Store on the
 * current CPU: after `records` PEBS records IA32_DS_AREA becomes `area`
 * (a DS save area the caller set up), where the records go from then on. */
void sim_inject_ds_area_taken(u64 records, u64 area);
/* Code takes time: before each MSR or local APIC access the current CPU
 * runs `cycles` cycles retiring as many instructions at ring 0, as the
 * instructions of a handler between its accesses would (0 undoes). Real
 * counters count there: between a PMI handler's re-enabling
 * IA32_PERF_GLOBAL_CTRL and its unmasking LVT PC, a counter can overflow
 * into a masked LVT PC. */
void sim_inject_access_cycles(u64 cycles);
/* IBS_CTL as "the firmware" left it on every CPU (default: LVT offset 1,
 * valid, as a BIOS assigns it); e.g. 0 for a firmware that assigned none. */
void sim_inject_ibs_ctl(u64 value);
/* Tagged ops report IbsOpData.RipInvalid (bit 38): IBS could not record
 * their RIP (APM; Linux then takes the interrupted IP, perf_ibs_handle_irq). */
void sim_inject_ibs_rip_invalid(bool on);

#endif
