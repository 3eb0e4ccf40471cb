/* Scheduler benchmark (`make bench`): time per call of the fast path, a
 * full reschedule and a multiplexing tick, next to a greedy-by-weight
 * scheduler measured in the same run, and the share of random constraint
 * sets each one places. Prints figures; asserts nothing. Host only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tests/unit/sched_oracle.h"
#include "tests/unit/table_pool.h"
#include "sched/sched.h"
#include "sched/mux.h"

#define BATCHES 101
#define MAX_EV  24

static volatile int sink;

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* What one measurement runs. */
struct job {
	const struct sched_ctx *ctx;
	const struct pmu_event *ev;
	int n;
	const int *prev;
	struct sched_mux *mux;
	enum { JOB_SCHED, JOB_GREEDY, JOB_MUX } kind;
};

static void run_job(const struct job *j)
{
	int out[MAX_EV];
	u32 msr[MAX_EV];
	switch (j->kind) {
	case JOB_SCHED:
		sink = sched_assign(j->ctx, j->ev, j->n, j->prev, out, msr, NULL);
		break;
	case JOB_GREEDY:
		sink = greedy_by_weight(j->ctx, j->ev, j->n, out);
		break;
	case JOB_MUX:
		sink = sched_mux_select(j->mux, j->ctx, j->ev, j->n, j->prev, out, msr);
		break;
	}
	sink += out[0];
}

/* Median over BATCHES batches of the time per call. */
static double median_ns(const struct job *j)
{
	double per_call[BATCHES];
	int iters = 2000;
	for (int b = 0; b < BATCHES; b++) {
		double t0 = now_ns();
		for (int i = 0; i < iters; i++)
			run_job(j);
		per_call[b] = (now_ns() - t0) / iters;
	}
	qsort(per_call, BATCHES, sizeof(double), cmp_double);
	return per_call[BATCHES / 2];
}

/* Sapphire-Rapids-like constraints (intel-pmu.md): codes below 0x90 on
 * GP0-3 except 0x2E/0x3C, some on GP0 only; four fixed-counter events. */
static int spr_set(struct pmu_event *ev)
{
	static const struct { const char *name; u8 event, umask; u32 gp, fixed; } t[] = {
		{ "instructions", 0xC0, 0x00, 0xff, 0x1 },
		{ "cycles", 0x3C, 0x00, 0xff, 0x2 },
		{ "ref-cycles", 0x00, 0x03, 0x00, 0x4 },
		{ "TOPDOWN.BACKEND_BOUND_SLOTS", 0xA4, 0x08, 0x01, 0 },
		{ "LD_BLOCKS.STORE_FORWARD", 0x03, 0x82, 0x0f, 0 },
		{ "DTLB_LOAD_MISSES.WALK_COMPLETED", 0x12, 0x0e, 0x0f, 0 },
		{ "L2_RQSTS.MISS", 0x24, 0x3f, 0x0f, 0 },
		{ "LONGEST_LAT_CACHE.MISS", 0x2E, 0x41, 0xff, 0 },
		{ "MEM_INST_RETIRED.ALL_LOADS", 0xD0, 0x81, 0xff, 0 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 0xC5, 0x00, 0xff, 0 },
		{ "MEM_LOAD_RETIRED.L3_MISS", 0xD1, 0x20, 0xff, 0 },
		{ "TOPDOWN.SLOTS", 0xA4, 0x01, 0x00, 0x8 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		make_event(&ev[i], t[i].name, t[i].event, t[i].umask, t[i].gp, t[i].fixed);
	return (int)(sizeof(t) / sizeof(t[0]));
}

static void timing_table(void)
{
	static const struct sched_ctx spr = { .gp_mask = 0xff, .fixed_mask = 0xf, .offcore_swap = true };
	struct pmu_event ev[MAX_EV];
	int n = spr_set(ev);
	int placed[MAX_EV], stale[MAX_EV], plus_one[MAX_EV + 1];
	struct sched_report why;

	int fits = sched_assign(&spr, ev, n, NULL, placed, NULL, NULL) == n;
	/* a stale placement: two events swapped onto counters they cannot
	 * use forces the full path with previous counters to honour */
	memcpy(stale, placed, sizeof(stale));
	stale[3] = placed[4];
	stale[4] = placed[3];
	/* one new event next to eleven placed ones */
	memcpy(plus_one, placed, sizeof(placed));
	plus_one[n - 1] = COUNTER_NONE;

	struct job fast = { &spr, ev, n, placed, NULL, JOB_SCHED };
	struct job add1 = { &spr, ev, n, plus_one, NULL, JOB_SCHED };
	struct job full = { &spr, ev, n, NULL, NULL, JOB_SCHED };
	struct job moved = { &spr, ev, n, stale, NULL, JOB_SCHED };
	struct job greedy = { &spr, ev, n, NULL, NULL, JOB_GREEDY };

	int scratch[MAX_EV];
	sched_assign(&spr, ev, n, placed, scratch, NULL, &why);
	int fast_ok = why.fast_path;
	sched_assign(&spr, ev, n, stale, scratch, NULL, &why);
	int moves = why.moved;

	/* multiplexing: 20 events on 8 GP + 4 fixed */
	struct pmu_event mev[MAX_EV];
	spr_set(mev);
	for (int i = n; i < 20; i++) {
		char name[24];
		snprintf(name, sizeof(name), "extra%d", i);
		make_event(&mev[i], name, (u8)(0x90 + i), 1, 0xff, 0);
	}
	struct sched_mux mux;
	int mprev[MAX_EV];
	sched_mux_init(&mux);
	for (int i = 0; i < 20; i++)
		mprev[i] = COUNTER_NONE;
	sched_mux_select(&mux, &spr, mev, 20, NULL, mprev, NULL);
	struct job tick = { &spr, mev, 20, mprev, &mux, JOB_MUX };

	printf("Scheduling time, SPR-like constraints, 8 GP + 4 fixed counters (median of %d batches)\n",
	       BATCHES);
	printf("  %-52s %10s\n", "case", "ns/call");
	printf("  %-52s %10.0f\n", "fast path: 12 events, all kept", median_ns(&fast));
	printf("  %-52s %10.0f\n", "fast path: 11 kept + 1 new", median_ns(&add1));
	printf("  %-52s %10.0f\n", "full reschedule: 12 new events (min-cost)", median_ns(&full));
	printf("  %-52s %10.0f\n", "full reschedule: 12 events, stale counters", median_ns(&moved));
	printf("  %-52s %10.0f\n", "greedy-by-weight baseline: 12 new events", median_ns(&greedy));
	printf("  %-52s %10.0f\n", "multiplexing tick: 20 events rotated", median_ns(&tick));
	printf("  (12 events placed: %s; fast path taken: %s; stale case moved %d events)\n\n",
	       fits ? "yes" : "NO", fast_ok ? "yes" : "NO", moves);
}

/* The first set of n events drawn from the icx table (fixed seed) that
 * fits its 8 GP + 4 fixed counters. Returns the number of sets drawn. */
static int icx_fitting_set(struct pool *p, struct pmu_event *ev, int n)
{
	u64 rng = 0x1c0e5eedull;
	int out[MAX_EV];
	u32 msr[MAX_EV];
	for (int tries = 1; tries <= 100000; tries++) {
		pool_random_set(p, &rng, ev, n);
		if (sched_assign(&p->ctx, ev, n, NULL, out, msr, NULL) == n)
			return tries;
	}
	return 0;
}

/* Real constraints: 12 events of the Ice Lake server table. */
static void icx_timing(void)
{
	struct pool p;
	struct pmu_event ev[MAX_EV];
	int placed[MAX_EV];
	const int n = 12;

	pool_init(&p, "icx");
	int tries = icx_fitting_set(&p, ev, n);
	if (!tries) {
		printf("  (no fitting set of %d icx events found)\n\n", n);
		pool_free(&p);
		return;
	}
	u32 msr[MAX_EV];
	struct sched_report why;
	sched_assign(&p.ctx, ev, n, NULL, placed, msr, NULL);
	int scratch[MAX_EV];
	sched_assign(&p.ctx, ev, n, placed, scratch, msr, &why);
	struct job full = { &p.ctx, ev, n, NULL, NULL, JOB_SCHED };
	struct job fast = { &p.ctx, ev, n, placed, NULL, JOB_SCHED };
	struct job greedy = { &p.ctx, ev, n, NULL, NULL, JOB_GREEDY };
	int greedy_out[MAX_EV];
	bool greedy_ok = greedy_by_weight(&p.ctx, ev, n, greedy_out);
	printf("Scheduling time, %d events drawn from the icx table (%s), 8 GP + 4 fixed\n",
	       n, p.t->source);
	printf("  %-52s %10.0f\n", "full reschedule: 12 new events (min-cost)", median_ns(&full));
	printf("  %-52s %10.0f\n", "fast path: 12 events, all kept", median_ns(&fast));
	printf("  %-52s %10.0f\n", "greedy-by-weight baseline: 12 new events", median_ns(&greedy));
	printf("  (set: first of %d drawn sets that fits; fast path taken: %s; greedy places it: %s;\n"
	       "   events:", tries, why.fast_path ? "yes" : "NO", greedy_ok ? "yes" : "NO");
	for (int i = 0; i < n; i++)
		printf(" %s", ev[i].name);
	printf(")\n\n");
	pool_free(&p);
}

/* Share of random sets placed by each scheduler. `simple`: counter
 * constraints only (no taken-alone, no extra MSRs), the part both handle. */
static void placement_row(const char *label, int sets, int min_n, int max_n, bool simple,
			  const struct sched_ctx *fixed_ctx)
{
	bool oracle = max_n <= ORACLE_MAX_EVENTS;
	u64 rng = 0x5eedull + (u64)min_n * 1000 + simple;
	int feasible = 0, by_sched = 0, by_greedy = 0;
	double t_sched = 0, t_greedy = 0;
	for (int k = 0; k < sets; k++) {
		struct sched_ctx ctx;
		struct pmu_event ev[MAX_EV];
		int out[MAX_EV];
		u32 msr[MAX_EV];
		random_ctx(&rng, &ctx, 8);
		if (fixed_ctx)
			ctx = *fixed_ctx;
		int n = min_n + (int)rng_below(&rng, (unsigned)(max_n - min_n + 1));
		random_events(&rng, &ctx, ev, n, false);
		if (simple)
			for (int i = 0; i < n; i++) {
				ev[i].taken_alone = false;
				ev[i].extra_msr = 0;
			}
		if (oracle)
			feasible += oracle_solve(&ctx, ev, n, (1ull << n) - 1, NULL).feasible;
		double t0 = now_ns();
		by_sched += sched_assign(&ctx, ev, n, NULL, out, msr, NULL) == n;
		double t1 = now_ns();
		by_greedy += greedy_by_weight(&ctx, ev, n, out);
		t_greedy += now_ns() - t1;
		t_sched += t1 - t0;
	}
	char oracle_col[16] = "n/a";
	if (oracle)
		snprintf(oracle_col, sizeof(oracle_col), "%5.1f%%", 100.0 * feasible / sets);
	printf("  %-46s %6d %8s %8.1f%% %8.1f%% %8.0f %8.0f\n", label, sets, oracle_col,
	       100.0 * by_sched / sets, 100.0 * by_greedy / sets, t_sched / sets, t_greedy / sets);
}

/* The same on sets drawn from the real icx table (pool_random_set: all
 * kinds of events, taken-alone ones rarely). `simple`: extra MSRs and
 * taken-alone dropped, counter constraints only. */
static void icx_row(const char *label, int sets, int min_n, int max_n, bool simple)
{
	struct pool p;
	u64 rng = 0x1c05e75ull;
	int by_sched = 0, by_greedy = 0;
	double t_sched = 0, t_greedy = 0;
	pool_init(&p, "icx");
	for (int k = 0; k < sets; k++) {
		struct pmu_event ev[MAX_EV];
		int out[MAX_EV];
		u32 msr[MAX_EV];
		int n = min_n + (int)rng_below(&rng, (unsigned)(max_n - min_n + 1));
		pool_random_set(&p, &rng, ev, n);
		if (simple)
			for (int i = 0; i < n; i++) {
				ev[i].taken_alone = false;
				ev[i].extra_msr = 0;
			}
		double t0 = now_ns();
		by_sched += sched_assign(&p.ctx, ev, n, NULL, out, msr, NULL) == n;
		double t1 = now_ns();
		by_greedy += greedy_by_weight(&p.ctx, ev, n, out);
		t_greedy += now_ns() - t1;
		t_sched += t1 - t0;
	}
	printf("  %-46s %6d %8s %8.1f%% %8.1f%% %8.0f %8.0f\n", label, sets, "n/a",
	       100.0 * by_sched / sets, 100.0 * by_greedy / sets, t_sched / sets, t_greedy / sets);
	pool_free(&p);
}

static void placement_table(void)
{
	static const struct sched_ctx big = { .gp_mask = 0xff, .fixed_mask = 0xf, .offcore_swap = true };
	printf("Share of random constraint sets placed\n");
	printf("  %-46s %6s %8s %9s %9s %8s %8s\n", "sets", "count", "oracle", "sched", "greedy",
	       "ns sched", "ns greedy");
	placement_row("1-8 events, 2-8 GP + 0-4 fixed, counters only", 20000, 1, 8, true, NULL);
	placement_row("1-8 events, 2-8 GP + 0-4 fixed, all rules", 20000, 1, 8, false, NULL);
	placement_row("8 events, 8 GP + 4 fixed, counters only", 20000, 8, 8, true, &big);
	placement_row("9-12 events, 8 GP + 4 fixed, counters only", 20000, 9, 12, true, &big);
	icx_row("8-12 icx table events, counters only", 20000, 8, 12, true);
	icx_row("8-12 icx table events, all rules", 20000, 8, 12, false);
	printf("  (oracle: exhaustive search, up to 8 events; the scheduler is exact, so where the\n"
	       "   oracle is n/a its share is the share of placeable sets)\n");
}

int main(void)
{
	timing_table();
	icx_timing();
	placement_table();
	return 0;
}
