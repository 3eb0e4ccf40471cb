/* Test support: pools of real events parsed from a model's event table,
 * sorted into kinds, and random or adversarial event sets drawn from them
 * (fixed seeds via sched_oracle.h's rng). Shared by
 * tests/unit/test_sched_tables.c and bench/bench_sched.c. */
#ifndef BP_TABLE_POOL_H
#define BP_TABLE_POOL_H
#include "sched_oracle.h"
#include "events/events.h"

#define POOL_MAX 1600

/* Kinds overlap; taken-alone events are only in K_ALONE (they end every
 * set they join). */
enum kind { K_ANY, K_NARROW, K_EXTRA, K_ALONE, K_FIXED, K_PRECISE, K_KINDS };

struct pool {
	const struct event_table *t;
	struct sched_ctx ctx;		/* the model's counters (model_sched_ctx_from_table) */
	struct pmu_event *ev;		/* POOL_MAX */
	int n;
	int *of_kind[K_KINDS];		/* indexes into ev, POOL_MAX each */
	int count[K_KINDS];
};

/* Every event of the model (generic names, table names and their :p and
 * :ppp variants where the parser accepts them). Aborts on an unknown model. */
void pool_init(struct pool *p, const char *model);
void pool_free(struct pool *p);
const struct pmu_event *pool_draw(struct pool *p, u64 *rng, enum kind k);
/* n events, kinds mixed so that sets fail for every reason; no groups. */
void pool_random_set(struct pool *p, u64 *rng, struct pmu_event *ev, int n);
/* n events competing for the counters of one narrow event; no groups. */
void pool_adversarial_set(struct pool *p, u64 *rng, struct pmu_event *ev, int n);

#endif
