/* Drives the emulated PMU from a real periodic interrupt, so that it
 * counts the code that is really running: each tick advances the model by
 * the time elapsed since the last one, at the interrupted RIP, and the
 * PMIs it raises are delivered as real interrupts (plat_raise_pmi).
 *
 * The model is one piece of state shared by the main flow (MSR accesses
 * through the seam) and the tick. Real hardware makes each access atomic;
 * here a tick that lands inside an access defers its time to the next
 * tick instead of changing the model under the access. */
#ifndef BP_SIM_DRIVE_H
#define BP_SIM_DRIVE_H
#include "../lib/plat.h"
#include "../lib/types.h"

#define SIM_DRIVE_PERIOD_US   1000	/* default tick: 1 kHz */

/* The model retires as many instructions as this machine does in the same
 * time (measured at start: workload_insn_rate); its cycles follow from the
 * running workload's IPC (workload_profile), 1 without one. */
struct sim_drive_stats {
	u64 ticks;		/* ticks taken */
	u64 deferred;		/* ticks that found the model busy */
	u64 held;		/* ticks that came while a PMI was out */
	u64 cycles;		/* core cycles the model was advanced by */
	u64 pmis_delivered;	/* PMIs the model raised and we delivered */
	u64 pmis_completed;	/* ... whose handler EOIed */
	u64 eoi_timeouts;	/* PMIs whose EOI never came (1 s): given up */
	u64 insn_per_s;		/* the instruction rate the model follows */
	u64 model_ticks;	/* plat_ticks spent running the model (its PEBS
				 * assist included) while a workload's timed
				 * part ran (workload_begin), PMI handlers
				 * excluded */
};

/* Requires the emulated PMU behind the seam (--pmu=sim). Returns 0, or -1
 * with *why. */
int sim_drive_start(u32 period_us, const char **why);
void sim_drive_stop(void);
bool sim_drive_running(void);

/* Every CPU (record -a): the model CPUs in mask run too, each at the IP
 * that its real CPU last published in ips[cpu] (0: not known yet, so no
 * time passes there, as for a halted CPU); the BSP's CPU runs at the
 * interrupted IP as before, and its PMIs still come as real self-IPIs.
 * The other model CPUs' PMIs are delivered by calling pmi(cpu, frame, ctx)
 * at the end of the tick, with that model CPU selected and the frame of
 * the code it was running: the model is one piece of state that only the
 * BSP touches, so the APs' PMIs are handled on the BSP on their behalf.
 * mask 0 goes back to the BSP alone. */
/* Runs fn(ctx) with the model's CPU cpu behind the seam (then the one
 * selected before): how the BSP sets up and reads an AP's emulated PMU on
 * its behalf. A tick that comes meanwhile leaves the selection as found. */
void sim_drive_run_as(u32 cpu, void (*fn)(void *ctx), void *ctx);
typedef void (*sim_drive_pmi_fn)(u32 cpu, const struct plat_irq_frame *f, void *ctx);
/* How many CPUs the model has (0 when none is open). */
u32 sim_drive_cpu_count(void);
void sim_drive_set_cpus(u64 mask, const volatile u64 *ips, sim_drive_pmi_fn pmi, void *ctx);
void sim_drive_stats(struct sim_drive_stats *out);
/* While frozen, no emulated time passes on any model CPU: the tool's own
 * work on the BSP (writing samples) is no CPU's time, as the PMI handlers'
 * is not. Every model CPU runs on one clock (the BSP's ticks); without
 * this, the APs would sample on while the BSP writes their samples, and
 * at short periods make more samples than it can write. */
void sim_drive_freeze(bool on);

#endif
