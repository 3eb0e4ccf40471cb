/* Multiplexing: more events than counters. Each tick (a timer period)
 * sched_mux_select() chooses which events count next, in round-robin order
 * over units (an event, or a whole group), so that every unit gets time;
 * per-event time enabled/running is tracked and counts are scaled as perf
 * does: count * time_enabled / time_running.
 *
 * Pure logic on top of the scheduler (sched.h): no timer, no hardware, no
 * floating point, so it can run from a timer callback. */
#ifndef BP_SCHED_MUX_H
#define BP_SCHED_MUX_H
#include "sched.h"

struct sched_mux {
	int start;		/* the unit (leader index) this tick starts from */
};

void sched_mux_init(struct sched_mux *m);

/* Chooses the events of the next tick. Units are tried in list order
 * starting at m->start (wrapping around); each is kept when it fits with
 * those kept before (sched_set_add). The kept events are then placed with
 * sched_assign_subset(), so an event that also ran last tick stays on its
 * counter (prev: last tick's counters, NULL if none) where possible.
 * Afterwards m->start moves to the first unit after it that did not run
 * but fits alone: the start unit always runs and the start only moves
 * forward, so every unit that fits alone runs at least once every U ticks
 * (U units). A unit that cannot run even alone never runs.
 * out_counter gets COUNTER_NONE for events that do not run this tick.
 * out_extra_msr as for sched_assign(); NULL: no offcore event switches
 * MSR, and the choice of events takes that into account.
 * Returns the number of events that run, or -(enum sched_reason) for bad
 * input. */
int sched_mux_select(struct sched_mux *m, const struct sched_ctx *ctx,
		     const struct pmu_event *ev, int n, const int *prev,
		     int *out_counter, u32 *out_extra_msr);

/* Time one event was enabled (wanted to count) and running (had a counter),
 * in any unit (ticks, ns), as perf's time_enabled/time_running. */
struct mux_time {
	u64 enabled;
	u64 running;
};

/* Adds `elapsed` to every event's enabled time and to the running time of
 * those that had a counter (counter[i] != COUNTER_NONE) during it. */
void sched_mux_account(struct mux_time *t, int n, const int *counter, u64 elapsed);
/* The count estimated for the whole enabled time: count * enabled /
 * running (exact 128-bit arithmetic, saturating); the count itself when
 * the event always ran; 0 when it never ran. */
u64 sched_mux_scale(u64 count, const struct mux_time *t);
/* Running time as a share of enabled time, in hundredths of a percent
 * (10000 = 100.00%); 0 when never enabled. */
u32 sched_mux_running_pct100(const struct mux_time *t);

#endif
