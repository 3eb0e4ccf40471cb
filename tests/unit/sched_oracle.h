/* Test support for the scheduler: a brute-force oracle, an independent
 * constraint checker, a greedy-by-weight baseline and random constraint
 * sets. Shared by tests/unit/test_sched*.c and bench/bench_sched.c.
 *
 * Written from the constraint rules (sched.h, intel-pmu.md), not from the
 * scheduler's code, so that the tests compare two implementations. */
#ifndef BP_SCHED_ORACLE_H
#define BP_SCHED_ORACLE_H
#include "sched/sched.h"

/* The oracle's limits: every assignment is tried, so keep sets small. */
#define ORACLE_MAX_EVENTS   8
#define ORACLE_MAX_COUNTERS 16

/* Best assignment by the scheduler's documented order of preference. */
struct oracle_best {
	bool feasible;
	int moves;		/* events off their previous counter */
	int gp_not_fixed;	/* events with a fixed counter placed on a GP one */
};

/* Tries every assignment of the active events (every MSR choice for
 * swappable offcore events, every counter for every event) and returns the
 * best one. */
struct oracle_best oracle_solve(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
				u64 active, const int *prev);

/* Checks a placement against every rule. Returns NULL when it is valid,
 * else a description of the first broken rule. `extra_msr` may be NULL
 * (then every event must use its own extra MSR). */
const char *oracle_check(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
			 u64 placed, const int *counter, const u32 *extra_msr);

/* Bitmap of the events that got a counter. */
u64 oracle_placed(const int *counter, int n);
/* Events that have a usable fixed counter but sit on a GP one. */
int oracle_gp_not_fixed(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
			const int *counter);

/* Linux-style baseline: events sorted by constraint weight (number of
 * allowed counters), each put on the first free allowed counter, fixed
 * counters first. Honours taken-alone and extra MSRs without swapping.
 * Returns true when every event got a counter. */
bool greedy_by_weight(const struct sched_ctx *ctx, const struct pmu_event *ev, int n, int *counter);

/* xorshift64*: small, fast, the same sequence everywhere. */
u64 rng_next(u64 *state);
static inline unsigned rng_below(u64 *state, unsigned bound) { return (unsigned)(rng_next(state) % bound); }

/* A random CPU (2..max_gp GP counters, 0..4 fixed) and a random set of n
 * events with all kinds of constraints: narrow and wide counter masks,
 * fixed-counter events, PEBS, taken-alone, offcore and load-latency MSR
 * values, groups. */
void random_ctx(u64 *rng, struct sched_ctx *ctx, unsigned max_gp);
void random_events(u64 *rng, const struct sched_ctx *ctx, struct pmu_event *ev, int n, bool with_groups);
/* A random previous placement: none, valid, stale or duplicate counters. */
void random_prev(u64 *rng, int n, int *prev);
/* An AMD core PMU (6 or 4 counters, maybe one held) and events on it, a
 * third of them large-increment events that hold a counter pair. */
void random_amd_ctx(u64 *rng, struct sched_ctx *ctx);
void random_amd_events(u64 *rng, struct pmu_event *ev, int n, bool with_groups);

/* An event with a name, counting on `gp_allowed` (and `fixed` counters). */
void make_event(struct pmu_event *e, const char *name, u8 event, u8 umask, u32 gp_allowed, u32 fixed);

/* An offcore event on MSR_OFFCORE_RSP_0 (response mask `value`) whose
 * alternate encoding alt_event/alt_umask counts it with MSR_OFFCORE_RSP_1;
 * on GP0-3. */
void make_offcore_event(struct pmu_event *e, const char *name, u8 event, u8 umask,
			u8 alt_event, u8 alt_umask, u64 value);

#endif
