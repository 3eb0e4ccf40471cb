/* Multiplexing rotation and perf-style count scaling (see mux.h). */
#include "mux.h"

void sched_mux_init(struct sched_mux *m)
{
	m->start = 0;
}

static bool fits_alone(const struct sched_ctx *ctx, const struct pmu_event *ev, int n, u64 unit)
{
	struct sched_set s;
	sched_set_init(&s, ctx, ev, n);
	return sched_set_add(&s, unit, NULL) == SCHED_OK;
}

/* The first unit after `start` (cyclically, start itself last) that did not
 * run and fits alone; `start` if there is none. */
static int next_start(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
		      int start, u64 ran)
{
	for (int k = 1; k <= n; k++) {
		int i = (start + k) % n;
		if (sched_unit_of(ev, n, i) != i || (ran & BIT(i)))
			continue;
		if (fits_alone(ctx, ev, n, sched_unit_members(ev, n, i)))
			return i;
	}
	return start;
}

int sched_mux_select(struct sched_mux *m, const struct sched_ctx *ctx,
		     const struct pmu_event *ev, int n, const int *prev,
		     int *out_counter, u32 *out_extra_msr)
{
	struct sched_set s;
	struct sched_ctx no_swap;
	if (!out_extra_msr && ctx->offcore_swap) {
		/* Without the output no event may switch MSR (sched_assign),
		 * so the choice must not count on it either. */
		no_swap = *ctx;
		no_swap.offcore_swap = false;
		ctx = &no_swap;
	}
	if (sched_set_init(&s, ctx, ev, n) != SCHED_OK)
		return -SCHED_INVALID;
	if (n == 0)
		return 0;
	if (m->start < 0 || m->start >= n)
		m->start = 0;	/* the list changed size */
	m->start = sched_unit_of(ev, n, m->start);

	for (int k = 0; k < n; k++) {
		int i = (m->start + k) % n;
		if (sched_unit_of(ev, n, i) == i)
			sched_set_add(&s, sched_unit_members(ev, n, i), NULL);
	}
	/* The kept units fit together, so this succeeds; it only chooses the
	 * counters (keeping last tick's where it can). */
	int placed = sched_assign_subset(ctx, ev, n, s.members, prev, out_counter,
					 out_extra_msr, NULL);
	m->start = next_start(ctx, ev, n, m->start, s.members);
	return placed;
}

void sched_mux_account(struct mux_time *t, int n, const int *counter, u64 elapsed)
{
	for (int i = 0; i < n; i++) {
		t[i].enabled += elapsed;
		if (counter[i] != COUNTER_NONE)
			t[i].running += elapsed;
	}
}

u64 sched_mux_scale(u64 count, const struct mux_time *t)
{
	if (!t->running)
		return 0;
	if (t->running >= t->enabled)
		return count;
	unsigned __int128 scaled = (unsigned __int128)count * t->enabled / t->running;
	return scaled > ~0ull ? ~0ull : (u64)scaled;
}

u32 sched_mux_running_pct100(const struct mux_time *t)
{
	if (!t->enabled)
		return 0;
	if (t->running >= t->enabled)
		return 10000;
	return (u32)((unsigned __int128)t->running * 10000 / t->enabled);
}
