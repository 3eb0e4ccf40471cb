/* Test support: real-event pools (see table_pool.h). Host-only code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "table_pool.h"
#include "events/evparse.h"
#include "cmd/model.h"

static void pool_add(struct pool *p, const char *text)
{
	char err[320];
	struct pmu_event *e = &p->ev[p->n];

	if (p->n == POOL_MAX || evparse_event(text, p->t, NULL, e, err, sizeof(err)) != 0)
		return;
	u64 allowed = sched_allowed(&p->ctx, e);
	/* Taken-alone events are frequent in the tables (frontend, some
	 * load-latency ones) and end every set they join, so they come from
	 * their own kind only, at a low rate. */
	bool alone = e->taken_alone;
	bool kind[K_KINDS] = {
		[K_ANY] = !alone,
		[K_NARROW] = !alone && allowed && __builtin_popcountll(allowed) <= 4 &&
			     __builtin_popcountll(allowed) < __builtin_popcount(p->ctx.gp_mask),
		[K_EXTRA] = !alone && e->extra_msr != 0,
		[K_ALONE] = e->taken_alone,
		[K_FIXED] = !alone && (allowed >> 32) != 0,
		[K_PRECISE] = !alone && e->precise > 0,
	};
	for (int k = 0; k < K_KINDS; k++)
		if (kind[k])
			p->of_kind[k][p->count[k]++] = p->n;
	p->n++;
}

void pool_init(struct pool *p, const char *model)
{
	const char *name, *alias;
	char text[EVENT_NAME_MAX + 8];

	memset(p, 0, sizeof(*p));
	p->t = event_table_by_name(model);
	if (!p->t)
		abort();
	model_sched_ctx_from_table(&p->ctx, p->t);
	p->ev = calloc(POOL_MAX, sizeof(*p->ev));
	for (int k = 0; k < K_KINDS; k++)
		p->of_kind[k] = calloc(POOL_MAX, sizeof(int));
	for (size_t i = 0; evparse_generic(i, &name, &alias); i++)
		pool_add(p, name);
	for (u16 i = 0; i < p->t->count; i++) {
		const char *ename = ev_name(event_at(p->t, i));
		pool_add(p, ename);	/* refused when the table needs a value */
		snprintf(text, sizeof(text), "%s:p", ename);
		pool_add(p, text);	/* only where the event can do PEBS */
		snprintf(text, sizeof(text), "%s:ppp", ename);
		pool_add(p, text);	/* only where it has PDIST counters */
	}
}

void pool_free(struct pool *p)
{
	free(p->ev);
	for (int k = 0; k < K_KINDS; k++)
		free(p->of_kind[k]);
}

const struct pmu_event *pool_draw(struct pool *p, u64 *rng, enum kind k)
{
	if (!p->count[k])
		k = K_ANY;
	return &p->ev[p->of_kind[k][rng_below(rng, (unsigned)p->count[k])]];
}

/* A random set: kinds mixed so that sets fail for every reason. */
void pool_random_set(struct pool *p, u64 *rng, struct pmu_event *ev, int n)
{
	static const enum kind mix[] = { K_ANY, K_ANY, K_ANY, K_NARROW, K_NARROW, K_NARROW,
					 K_EXTRA, K_FIXED, K_FIXED, K_PRECISE, K_PRECISE };
	for (int i = 0; i < n; i++) {
		enum kind k = rng_below(rng, 40) == 0 ? K_ALONE : mix[rng_below(rng, ARRAY_SIZE(mix))];
		ev[i] = *pool_draw(p, rng, k);
		ev[i].group = -1;
	}
}

/* Adversarial: the counters of one narrow event (e.g. GP0-3, or GP0 and
 * PDIST's GP1) are the bottleneck; the others are drawn among events that
 * need those counters too, around the point where Hall's condition breaks,
 * and with overlapping but unequal masks where a greedy choice strands an
 * event (intel-pmu.md, "Constraints"). */
void pool_adversarial_set(struct pool *p, u64 *rng, struct pmu_event *ev, int n)
{
	const struct pmu_event *anchor = pool_draw(p, rng, K_NARROW);
	u64 hot = sched_allowed(&p->ctx, anchor);
	ev[0] = *anchor;
	ev[0].group = -1;
	for (int i = 1; i < n; i++) {
		const struct pmu_event *e = NULL;
		for (int tries = 0; tries < 64 && !e; tries++) {
			const struct pmu_event *c = pool_draw(p, rng, rng_below(rng, 3) ? K_NARROW : K_PRECISE);
			if (sched_allowed(&p->ctx, c) & hot)
				e = c;
		}
		ev[i] = e ? *e : *pool_draw(p, rng, K_ANY);
		ev[i].group = -1;
	}
}

