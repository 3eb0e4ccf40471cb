/* The execution seam: which CPU runs what, how an emulated PMU's time
 * passes and its PMIs arrive, and what it must be told of the code that
 * runs. The register seam (hw.h) says how one PMU is reached; this one
 * says how the CPUs behind it run.
 *
 * Behind it is one of:
 *  - the machine (exec.c): code for a CPU runs on that CPU (the
 *    firmware's MP services), PMIs come from its local APIC, time is real;
 *  - the emulated PMU's drive (sim/drive.c): every CPU's code runs on the
 *    BSP with that CPU's model selected, a periodic tick advances the
 *    models, and their PMIs are delivered by the drive.
 * The command layer takes whichever the backend selected and never asks
 * which it is: each operation says what happens (run_here, pmi_cpu,
 * aps_run_own_code, ...), and the two answer differently. */
#ifndef BP_EXEC_H
#define BP_EXEC_H
#include "../lib/plat.h"
#include "../lib/types.h"

/* How the running code behaves, by construction: an emulated PMU, which
 * only sees time passing at an IP, makes the other events of the code
 * happen at these rates. The machine's PMU sees the code itself and
 * ignores them. */
struct code_rate {
	u8 event, umask;	/* encoding of the event that happens */
	u32 per_kilo_insn;	/* occurrences per 1000 instructions */
	u64 addr_base, addr_size;	/* data addresses fall in here (0: none) */
	u32 latency;		/* load latency in core cycles (0: none) */
	u32 data_src;		/* Intel load data-source encoding (PEBS) */
};

#define CODE_MAX_RATES 4

struct code_profile {
	u32 ipc_permille;	/* instructions per cycle x 1000 */
	u32 nrates;
	struct code_rate rate[CODE_MAX_RATES];
};

/* What the emulated PMU's drive did; all zero on the machine. */
struct exec_stats {
	u64 ticks;		/* ticks taken */
	u64 deferred;		/* ticks that found the model busy */
	u64 held;		/* ticks that came while a PMI was out */
	u64 cycles;		/* core cycles the model was advanced by */
	u64 pmis_delivered;	/* PMIs the model raised and were delivered */
	u64 pmis_completed;	/* ... whose handler EOIed */
	u64 eoi_timeouts;	/* PMIs whose EOI never came (1 s): given up */
	u64 insn_per_s;		/* the instruction rate the model follows */
	u64 told;		/* instructions workloads said they retired */
	u64 told_owed;		/* ... charged after the workload ended (its tail) */
	u64 untold;		/* instructions charged by time alone */
	u64 outside;		/* ... not charged: outside the workload (workload_only) */
	u64 model_ticks;	/* plat_ticks spent running the model (its PEBS
				 * assist included) while a workload's timed
				 * part ran (exec_code_profile set), PMI
				 * handlers excluded */
};

/* A PMI handler (the one the PMI's gate calls, plat_pmi_fn): the seam
 * delivers an emulated CPU's PMIs through it too, and pmi_cpu() says
 * whose PMI it is. Returns whether the PMI was the PMU's. */
typedef bool (*exec_pmi_fn)(const struct plat_irq_frame *f, void *ctx);

struct exec_ops {
	const char *name;
	/* CPUs whose PMU can be used. */
	u32 (*cpu_count)(void);
	/* 0 when cpu's PMU can be used; -1 with why (a model has fewer CPUs
	 * than the machine). */
	int (*cpu_usable)(u32 cpu, char *why, size_t len);
	/* Runs fn(ctx) for cpu; 0, or -1 with *why. */
	int (*run_on)(u32 cpu, void (*fn)(void *ctx), void *ctx, const char **why);
	/* Runs fn(ctx) for cpu from where the caller already runs for it (the
	 * main flow for its own CPU, a PMI handler for the PMI's CPU): no
	 * firmware call, so it is cheap enough for every tick and PMI. On
	 * the machine a direct call; the drive selects cpu's model around it. */
	void (*run_here)(u32 cpu, void (*fn)(void *ctx), void *ctx);
	/* Whether an AP, in its loop (plat_aps_start), runs its own CPU's
	 * code: starts, ticks and stops its own counters there and takes its
	 * own PMIs. False where the BSP runs every CPU's code on its behalf
	 * (the AP's loop then only publishes its IP). */
	bool (*aps_run_own_code)(void);
	/* The CPU under whose number code run for cpu keeps its faults
	 * (hw_fault_take): cpu itself where it runs its own code, else the
	 * CPU that ran it. */
	u32 (*fault_cpu)(u32 cpu);
	/* Inside a PMI handler: the CPU whose PMI it is, where the seam
	 * delivers it on that CPU's behalf; -1: the CPU the handler runs on,
	 * whose own local APIC delivered it (find it by its APIC ID). */
	int (*pmi_cpu)(void);
	/* A PMI gate's interrupt came through this CPU's local APIC and its
	 * handler has EOIed through the register seam: where that does not
	 * reach this APIC (an emulated PMU's APIC is the model's), the seam
	 * calls eoi_here(), which EOIs this CPU's own APIC. */
	void (*pmi_irq_done)(void (*eoi_here)(void));
	/* Memory cpu may allocate while it sets itself up; 0, or -1. release
	 * gives it back. */
	int (*reserve)(u32 cpu, size_t bytes);
	void (*release)(u32 cpu);
	/* Time starts for the PMU behind the seam: a model follows this
	 * machine's instruction rate, which insn_per_s() measures (only
	 * called when needed: it takes tens of milliseconds); 0, or -1 with
	 * *why. */
	int (*start)(u64 (*insn_per_s)(void), const char **why);
	void (*stop)(void);
	bool (*running)(void);
	void (*stats)(struct exec_stats *out);
	/* The CPUs in mask run too, each at the IP it last published in
	 * ips[cpu]; their PMIs go to pmi(frame, ctx), pmi_cpu() naming the
	 * CPU. mask 0: the BSP alone. */
	void (*set_cpus)(u64 mask, const volatile u64 *ips, exec_pmi_fn pmi, void *ctx);
	/* While frozen no time passes: the tool's own work is no CPU's. */
	void (*freeze)(bool on);
	/* The code about to run behaves so (NULL: as plain code, IPC 1). */
	void (*code_profile)(const struct code_profile *p);
	/* The code running under a profile has retired `done` instructions
	 * since the profile was set and the part it starts now retires
	 * `next`, by construction (a workload says so between its parts): a
	 * model whose time is only an estimate charges that many, whatever
	 * its clock made of them. */
	void (*retired)(u64 done, u64 next);
	/* Before counts are read: a model runs what the code it was told of
	 * has retired and it has not yet charged. */
	void (*settle)(void);
	/* While on, and the BSP runs alone: a model whose time is only an
	 * estimate counts the built-in workload's profiled code only, not
	 * the tool's own code around it (exec_workload_only). */
	void (*workload_only)(bool on);
};

void exec_select(const struct exec_ops *ops);
const struct exec_ops *exec_current(void);
/* The machine's own: exec_select(exec_machine()) puts it back. */
const struct exec_ops *exec_machine(void);

/* The current seam's operations. */
u32 exec_cpu_count(void);
int exec_cpu_usable(u32 cpu, char *why, size_t len);
int exec_run_on(u32 cpu, void (*fn)(void *ctx), void *ctx, const char **why);
void exec_run_here(u32 cpu, void (*fn)(void *ctx), void *ctx);
bool exec_aps_run_own_code(void);
u32 exec_fault_cpu(u32 cpu);
int exec_pmi_cpu(void);
void exec_pmi_irq_done(void (*eoi_here)(void));
int exec_reserve(u32 cpu, size_t bytes);
void exec_release(u32 cpu);
int exec_start(u64 (*insn_per_s)(void), const char **why);
void exec_stop(void);
bool exec_running(void);
void exec_stats(struct exec_stats *out);
void exec_set_cpus(u64 mask, const volatile u64 *ips, exec_pmi_fn pmi, void *ctx);
void exec_freeze(bool on);
void exec_code_profile(const struct code_profile *p);
void exec_retired(u64 done, u64 next);
void exec_settle(void);
/* From the counters' start to their stop around a built-in workload
 * (stat, record): an emulated PMU charges time only while the workload's
 * profile is set. The time between is bareperf's own code, a few
 * thousand instructions on hardware, which the model's clock (this
 * machine's rate) would make millions of: soak's 80 M instructions at
 * record -c 128 counted 1.9 to 6.9 % more on an idle machine and 47 %
 * more under load (issue 39 item 6). */
void exec_workload_only(bool on);

#endif
