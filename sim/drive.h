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
#include "../arch/exec.h"
#include "../lib/plat.h"
#include "../lib/types.h"

#define SIM_DRIVE_PERIOD_US   1000	/* default tick: 1 kHz */

/* Provided by the platform for the drive: raises the PMI on this CPU as
 * the emulated PMU's local APIC delivers it, synchronously, so the handler
 * sees the counters at the overflow: INT n through the PMI's IDT gate in
 * the image (boot/plat_irq.c); a direct call on the host
 * (host/irq_host.c). Raised from inside the tick, it is taken on behalf of
 * the code the tick interrupted (its RIP, RSP, RBP). */
void plat_raise_pmi(void);

/* Requires the emulated PMU behind the seam (--pmu=sim). The model
 * retires insn_per_s instructions a second of this machine's time (the
 * caller measures it: workload_insn_rate), and cycles at the running
 * code's IPC (struct code_profile), 1 without one. Returns 0, or -1 with
 * *why. */
int sim_drive_start(u32 period_us, u64 insn_per_s, const char **why);
void sim_drive_stop(void);
bool sim_drive_running(void);

/* Runs fn(ctx) with the model's CPU cpu behind the seam (then the one
 * selected before): how the BSP sets up and reads an AP's emulated PMU on
 * its behalf. A tick that comes meanwhile leaves the selection as found. */
void sim_drive_run_as(u32 cpu, void (*fn)(void *ctx), void *ctx);
/* How many CPUs the model has (0 when none is open). */
u32 sim_drive_cpu_count(void);
/* Every CPU (record -a): the model CPUs in mask run too, each at the IP
 * that its real CPU last published in ips[cpu] (0: not known yet, so no
 * time passes there, as for a halted CPU); the BSP's CPU runs at the
 * interrupted IP as before, and its PMIs still come through the PMI's gate.
 * The other model CPUs' PMIs are delivered by calling pmi(frame, ctx)
 * (the seam's pmi_cpu() names the CPU) at the end of the tick, with that
 * model CPU selected and the frame of
 * the code it was running: the model is one piece of state that only the
 * BSP touches, so the APs' PMIs are handled on the BSP on their behalf.
 * mask 0 goes back to the BSP alone. */
void sim_drive_set_cpus(u64 mask, const volatile u64 *ips, exec_pmi_fn pmi, void *ctx);
void sim_drive_stats(struct exec_stats *out);
/* While frozen, no emulated time passes on any model CPU: the tool's own
 * work on the BSP (writing samples) is no CPU's time, as the PMI handlers'
 * is not. Every model CPU runs on one clock (the BSP's ticks); without
 * this, the APs would sample on while the BSP writes their samples, and
 * at short periods make more samples than it can write. */
void sim_drive_freeze(bool on);

#endif
