/* The counting engine, the sampling engine's peer (sampling.h), for
 * `stat`: events on counters, multiplexed by the scheduler's rotation when
 * they do not fit together, with perf's time accounting (enabled/running)
 * and scaling. Time is passed in (plat_ticks units), so tests drive it
 * with exact numbers. percpu_counting runs it on each CPU of the per-CPU
 * engine (percpu.h), which holds each CPU's struct stat_engine. */
#ifndef BP_SAMPLING_COUNT_H
#define BP_SAMPLING_COUNT_H
#include "../pmu/pmu.h"
#include "../sched/mux.h"

#define STAT_MAX_EVENTS PMU_MAX_EVENTS

struct stat_event {
	int id;			/* pmu slot, -1 while not on a counter */
	u64 count;		/* events counted while it ran */
	u64 last;		/* pmu_read() of its slot at the last update */
	struct mux_time time;
	u64 interval_scaled;	/* scaled count at the last interval line */
};

struct stat_engine {
	struct pmu *pmu;
	int n;
	struct pmu_event ev[STAT_MAX_EVENTS];
	struct stat_event st[STAT_MAX_EVENTS];
	bool mux;		/* more events than fit: rotate on every tick */
	struct sched_mux rot;
	u64 last_update;
	/* Between the per-CPU start and stop: a tick that comes before the
	 * counters run (the CPU's tick is armed at setup) must not count
	 * time as enabled, or 8 events on 8 counters show as multiplexed. */
	bool counting;
};

/* Places the events (all of them, or the first rotation). Fails, with a
 * message in err, when an event or group cannot be counted even alone. */
int stat_engine_init(struct stat_engine *e, struct pmu *pmu, const struct pmu_event *ev,
		     int n, u64 now, char *err, size_t errlen);
/* Brings counts and times up to date; the PMU must be disabled. */
void stat_engine_update(struct stat_engine *e, u64 now);
/* A timer tick: disable, update, rotate (when multiplexing), enable. */
void stat_engine_tick(struct stat_engine *e, u64 now);
/* The count estimated over the whole time: count * enabled / running. */
u64 stat_engine_scaled(const struct stat_engine *e, int i);

struct percpu;
struct percpu_ops;
/* The per-CPU engine's counting ops: each CPU's state is a struct
 * stat_engine over its PMU and its core type's events. */
extern const struct percpu_ops percpu_counting;
/* The i-th CPU's counts (position in p->cpu); NULL when it does not count. */
const struct stat_engine *percpu_counts(const struct percpu *p, u32 i);

#endif
