/* The scheduler against the brute-force oracle (sched_oracle.h) on event
 * sets drawn from the real event tables of Skylake, Ice Lake server,
 * Sapphire Rapids, Alder Lake (P- and E-core) and Arrow Lake: every event parsed by the
 * event parser, with its :p/:ppp variants where the table allows them,
 * taken-alone events, offcore and load-latency events with their MSR
 * values, fixed-counter events and groups. Counters are the model's
 * (model_sched_ctx_from_table). Fixed seeds, so a failure repeats. */
#include "test.h"
#include "sched_oracle.h"
#include "table_pool.h"
#include "sched/sched.h"
#include "events/evparse.h"
#include "events/events.h"
#include "arch/msr.h"

/* Joins runs of neighbours into groups {a,b,...} (leader = first). */
static void make_groups(u64 *rng, struct pmu_event *ev, int n)
{
	for (int i = 1; i < n; i++)
		if (rng_below(rng, 4) == 0) {
			int leader = ev[i - 1].group >= 0 ? ev[i - 1].group : i - 1;
			ev[leader].group = leader;
			ev[i].group = leader;
		}
}

struct tally {
	int sets, placed, by_reason[SCHED_GROUP + 1], greedy_misses;
	int alt_msr;		/* placed sets with an event on its alternate MSR */
};

/* The scheduler places the set iff the oracle can; a placement breaks no
 * rule and is as good as the oracle's best (fewest moves, then most
 * fixed-counter events on fixed counters); a failed one leaves a valid
 * partial placement. */
static void check_set(const struct pool *p, const struct pmu_event *ev, int n, const int *prev,
		      struct tally *t)
{
	int out[ORACLE_MAX_EVENTS], greedy[ORACLE_MAX_EVENTS];
	u32 msr[ORACLE_MAX_EVENTS];
	struct sched_report why;
	u64 all = (1ull << n) - 1;

	int r = sched_assign(&p->ctx, ev, n, prev, out, msr, &why);
	struct oracle_best best = oracle_solve(&p->ctx, ev, n, all, prev);
	t->sets++;
	if (best.feasible != (r == n))
		fail_msg("%s set %d (%s, ...): oracle %d, scheduler %d", p->t->name, t->sets,
			 ev[0].name, best.feasible, r);
	const char *bad = oracle_check(&p->ctx, ev, n, oracle_placed(out, n), out, msr);
	if (bad)
		fail_msg("%s set %d: %s", p->t->name, t->sets, bad);
	if (r == n) {
		t->placed++;
		assert_int_equal(why.moved, best.moves);
		assert_int_equal(oracle_gp_not_fixed(&p->ctx, ev, n, out), best.gp_not_fixed);
		t->greedy_misses += !greedy_by_weight(&p->ctx, ev, n, greedy);
		for (int i = 0; i < n; i++)
			if (msr[i] != ev[i].extra_msr) {
				/* only to the event's own alternate (oracle_check) */
				t->alt_msr++;
				break;
			}
		return;
	}
	assert_true(r < 0 && -r <= SCHED_GROUP);
	t->by_reason[-r]++;
}

/* Pool events that have a second offcore encoding (pmu_event.has_alt). */
static int pool_alternates(const struct pool *p)
{
	int n = 0;
	for (int i = 0; i < p->n; i++)
		n += p->ev[i].has_alt && p->ev[i].alt_extra_msr == MSR_OFFCORE_RSP_1;
	return n;
}

static void run_model(const char *model, u64 seed, int sets)
{
	struct pool p;
	struct tally t = { 0 };
	u64 rng = seed;

	pool_init(&p, model);
	for (int k = 0; k < sets; k++) {
		struct pmu_event ev[ORACLE_MAX_EVENTS];
		int prev[ORACLE_MAX_EVENTS];
		int n = 2 + (int)rng_below(&rng, ORACLE_MAX_EVENTS - 1);
		if (k % 2)
			pool_adversarial_set(&p, &rng, ev, n);
		else
			pool_random_set(&p, &rng, ev, n);
		if (rng_below(&rng, 3) == 0)
			make_groups(&rng, ev, n);
		bool with_prev = rng_below(&rng, 4) == 0;
		if (with_prev)
			random_prev(&rng, n, prev);
		check_set(&p, ev, n, with_prev ? prev : NULL, &t);
	}
	print_message("# %s: %d events in the pool (%d narrow, %d extra MSR, %d taken alone, "
		      "%d fixed, %d precise); %d sets, %d placed (greedy misses %d), not placed: "
		      "%d counters, %d taken alone, %d extra MSR, %d no counter; %d placed with an "
		      "offcore event on its alternate MSR\n",
		      model, p.n, p.count[K_NARROW], p.count[K_EXTRA], p.count[K_ALONE],
		      p.count[K_FIXED], p.count[K_PRECISE], t.sets, t.placed, t.greedy_misses,
		      t.by_reason[SCHED_COUNTERS_TAKEN], t.by_reason[SCHED_TAKEN_ALONE],
		      t.by_reason[SCHED_EXTRA_MSR], t.by_reason[SCHED_NO_COUNTER], t.alt_msr);
	/* The sets must exercise both outcomes and the counter bottleneck. */
	assert_true(t.placed > sets / 5 && t.placed < sets * 4 / 5);
	assert_true(t.by_reason[SCHED_COUNTERS_TAKEN] > sets / 20);
	/* Where offcore events have a second encoding, some sets need it. */
	if (pool_alternates(&p) > 0)
		assert_true(t.alt_msr > 0);
	pool_free(&p);
}

#define SETS_PER_MODEL 20000

static void test_skylake(void **state)       { run_model("skl", 0x5c1a1e0001ull, SETS_PER_MODEL); }
static void test_icelake_server(void **state) { run_model("icx", 0x1c0e5e0002ull, SETS_PER_MODEL); }
static void test_sapphire_rapids(void **state) { run_model("spr", 0x5a9900003ull, SETS_PER_MODEL); }
static void test_alder_lake(void **state)    { run_model("adl", 0xad1000004ull, SETS_PER_MODEL); }
/* Gracemont: 6 GP counters; offcore events' second encoding is 0xB7 with
 * umask 0x02 (not 0xBB). */
static void test_alder_lake_e(void **state)  { run_model("adl-e", 0xad1e00005ull, SETS_PER_MODEL); }
/* Lion Cove: 10 GP counters and the most varied masks of the tables (GP0,
 * GP0-1, GP2, GP3, GP0-3, GP2-9), 14 counters for the oracle. */
static void test_arrow_lake(void **state)    { run_model("arl", 0xa41000006ull, SETS_PER_MODEL); }

/* The pools hold what the sets need: on every model precise variants and
 * load-latency events; offcore events where the model has them. */
static void test_pools(void **state)
{
	static const char *const models[] = { "skl", "icx", "spr", "adl" };
	for (size_t m = 0; m < ARRAY_SIZE(models); m++) {
		struct pool p;
		int ldlat = 0, offcore = 0, ppp = 0;
		pool_init(&p, models[m]);
		for (int i = 0; i < p.n; i++) {
			ldlat += p.ev[i].extra_msr == MSR_PEBS_LD_LAT_THRESHOLD;
			offcore += p.ev[i].extra_msr == MSR_OFFCORE_RSP_0;
			ppp += p.ev[i].precise == 3;
		}
		assert_true(ldlat > 0 && offcore > 10 && ppp > 0);
		/* every named offcore event has its RSP_1 encoding */
		assert_int_equal(pool_alternates(&p), offcore);
		assert_true(p.count[K_ALONE] > 0 && p.count[K_NARROW] > 5);
		/* skl: 4 GP (HT on) + 3 fixed; the others 8 GP + 4 fixed */
		assert_int_equal(p.ctx.gp_mask, m == 0 ? 0xf : 0xff);
		assert_int_equal(p.ctx.fixed_mask, m == 0 ? 0x7 : 0xf);
		pool_free(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pools),
		cmocka_unit_test(test_skylake),
		cmocka_unit_test(test_icelake_server),
		cmocka_unit_test(test_sapphire_rapids),
		cmocka_unit_test(test_alder_lake),
		cmocka_unit_test(test_alder_lake_e),
		cmocka_unit_test(test_arrow_lake),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
