#include "count.h"
#include "percpu.h"
#include "../lib/fmt.h"
#include "../lib/plat.h"
#include "../lib/str.h"

void stat_engine_update(struct stat_engine *e, u64 now)
{
	u64 elapsed = now - e->last_update;
	for (int i = 0; i < e->n; i++) {
		struct stat_event *s = &e->st[i];
		s->time.enabled += elapsed;
		if (s->id < 0)
			continue;
		/* Without multiplexing every event has its counter whenever
		 * the PMU runs: running is enabled, as perf reports it, also
		 * across a tick that came while the schedule was not yet
		 * committed (a CI run showed 8 fitting events at 99.94 %). */
		if (!e->mux || pmu_counter_of(e->pmu, s->id) != COUNTER_NONE)
			s->time.running += elapsed;
		u64 c = pmu_read(e->pmu, s->id);
		s->count += c - s->last;
		s->last = c;
	}
	e->last_update = now;
}

static int add_unit(struct stat_engine *e, int leader, char *err, size_t errlen)
{
	int ids[STAT_MAX_EVENTS], k = 0;
	struct pmu_event members[STAT_MAX_EVENTS];
	u64 mask = sched_unit_members(e->ev, e->n, leader);
	for (int i = 0; i < e->n; i++)
		if (mask & BIT(i))
			members[k++] = e->ev[i];
	if (pmu_add_group(e->pmu, members, k, 0, ids, err, errlen))
		return -1;
	k = 0;
	for (int i = 0; i < e->n; i++)
		if (mask & BIT(i)) {
			e->st[i].id = ids[k++];
			e->st[i].last = 0;
		}
	return 0;
}

/* The rotation picks the next subset; events leaving are removed, units
 * joining are added, the rest stay on their counters. */
static void rotate(struct stat_engine *e)
{
	int prev[STAT_MAX_EVENTS], next[STAT_MAX_EVENTS];
	u32 extra[STAT_MAX_EVENTS];
	for (int i = 0; i < e->n; i++)
		prev[i] = e->st[i].id >= 0 ? pmu_counter_of(e->pmu, e->st[i].id) : COUNTER_NONE;
	if (sched_mux_select(&e->rot, &e->pmu->sched, e->ev, e->n, prev, next, extra) < 0)
		return;
	for (int i = 0; i < e->n; i++)
		if (e->st[i].id >= 0 && next[i] == COUNTER_NONE) {
			pmu_remove(e->pmu, e->st[i].id);
			e->st[i].id = -1;
		}
	for (int i = 0; i < e->n; i++)
		if (next[i] != COUNTER_NONE && e->st[i].id < 0 && sched_unit_of(e->ev, e->n, i) == i)
			add_unit(e, i, NULL, 0);
}

void stat_engine_tick(struct stat_engine *e, u64 now)
{
	pmu_disable(e->pmu);
	stat_engine_update(e, now);
	if (e->mux)
		rotate(e);
	pmu_enable(e->pmu);
}

/* Every unit must fit at least alone, or it would never count. */
static int check_each_fits(struct stat_engine *e, char *err, size_t errlen)
{
	char why[1024];
	for (int u = 0; u < e->n; u++) {
		if (sched_unit_of(e->ev, e->n, u) != u)
			continue;
		if (!event_needs_counter(&e->ev[u])) {
			bp_snprintf(err, errlen, "cannot count %s: it samples with the precise engine "
				    "(IBS), on no counter; use record", e->ev[u].name);
			return -1;
		}
		if (add_unit(e, u, why, sizeof(why))) {
			bp_snprintf(err, errlen, "cannot count %s on this CPU: %s", e->ev[u].name, why);
			return -1;
		}
		u64 mask = sched_unit_members(e->ev, e->n, u);
		for (int i = 0; i < e->n; i++)
			if (mask & BIT(i)) {
				pmu_remove(e->pmu, e->st[i].id);
				e->st[i].id = -1;
			}
	}
	return 0;
}

int stat_engine_init(struct stat_engine *e, struct pmu *pmu, const struct pmu_event *ev,
		     int n, u64 now, char *err, size_t errlen)
{
	int counter[STAT_MAX_EVENTS];
	bp_memset(e, 0, sizeof(*e));
	e->pmu = pmu;
	e->n = n;
	e->last_update = now;
	for (int i = 0; i < n; i++) {
		e->ev[i] = ev[i];
		e->st[i].id = -1;
	}
	if (check_each_fits(e, err, errlen))
		return -1;
	e->mux = sched_assign(&pmu->sched, e->ev, n, NULL, counter, NULL, NULL) != n;
	if (e->mux) {
		sched_mux_init(&e->rot);
		rotate(e);
		return 0;
	}
	for (int u = 0; u < n; u++)
		if (sched_unit_of(e->ev, n, u) == u && add_unit(e, u, err, errlen))
			return -1;
	return 0;
}

u64 stat_engine_scaled(const struct stat_engine *e, int i)
{
	return sched_mux_scale(e->st[i].count, &e->st[i].time);
}

/* ---- every CPU (sampling/percpu.h): each hook runs on its CPU ------------------------ */

static int count_cpu_setup(struct percpu_cpu *c, char *err, size_t errlen)
{
	struct stat_engine *e = c->state;
	if (stat_engine_init(e, &c->pmu, c->ev, c->n, plat_ticks(), err, errlen))
		return -1;
	pmu_commit_schedule(&c->pmu);	/* -v names the counters before the start */
	return 0;
}

static void count_cpu_start(struct percpu_cpu *c)
{
	struct stat_engine *e = c->state;
	e->last_update = plat_ticks();
	e->counting = true;
	pmu_enable(e->pmu);
}

static void count_cpu_stop(struct percpu_cpu *c)
{
	struct stat_engine *e = c->state;
	pmu_disable(e->pmu);
	stat_engine_update(e, plat_ticks());
	e->counting = false;
}

static void count_cpu_tick(struct percpu_cpu *c)
{
	struct stat_engine *e = c->state;
	if (e->counting)
		stat_engine_tick(e, plat_ticks());
}

/* The counts stay readable until percpu_close() frees the CPU. */
static void count_cpu_teardown(struct percpu_cpu *c) { (void)c; }

const struct percpu_ops percpu_counting = {
	.state_bytes = sizeof(struct stat_engine),
	.setup = count_cpu_setup, .start = count_cpu_start, .stop = count_cpu_stop,
	.tick = count_cpu_tick, .teardown = count_cpu_teardown,
};

const struct stat_engine *percpu_counts(const struct percpu *p, u32 i)
{
	if (i >= p->count || !p->cpu[i]->ready || p->ops != &percpu_counting)
		return NULL;
	return p->cpu[i]->state;
}
