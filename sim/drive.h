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
#include "../lib/types.h"

#define SIM_DRIVE_PERIOD_US   1000	/* default tick: 1 kHz */
#define SIM_DRIVE_CYCLES_PER_US 2000	/* if calibration fails: 2 GHz */

struct sim_drive_stats {
	u64 ticks;		/* ticks taken */
	u64 deferred;		/* ticks that found the model busy */
	u64 cycles;		/* core cycles the model was advanced by */
	u64 cycles_per_us;	/* the modelled clock, calibrated at start */
};

/* The modelled core's clock is calibrated at start to the rate at which
 * the machine running us retires instructions (IPC 1), so that counts
 * follow the work really done.
 * Requires the emulated PMU behind the seam (--pmu=sim). Returns 0, or -1
 * with *why. */
int sim_drive_start(u32 period_us, const char **why);
void sim_drive_stop(void);
bool sim_drive_running(void);
void sim_drive_stats(struct sim_drive_stats *out);

#endif
