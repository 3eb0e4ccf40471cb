/* stat's counting core: multiplexing over more events than counters, with
 * perf's enabled/running time and scaling, against the model's exact
 * counts. */
#include "test_pmu_support.h"
#include "sampling/count.h"

#define TICK 1000	/* time units per multiplexing tick */
#define IP   0x401000

struct rate {
	u8 event, umask;
	u64 per_tick;
};

static struct stat_engine eng;

static void run_ticks(const struct rate *r, int nrates, int ticks, u64 *now)
{
	for (int t = 0; t < ticks; t++) {
		for (int k = 0; k < nrates; k++)
			sim_events(r[k].event, r[k].umask, r[k].per_tick, IP);
		*now += TICK;
		stat_engine_tick(&eng, *now);
	}
}

static int teardown(void **state)
{
	pmu_close(&pmu);
	return close_model(state);
}

/* Six GP events on Skylake's four GP counters: each runs part of the time,
 * and at a constant rate its scaled count is exact. */
static void test_mux_scaling_exact_at_constant_rates(void **state)
{
	static const struct rate rates[] = {
		{ 0xC4, 0x00, 1000 }, { 0xC5, 0x00, 10 }, { 0xD0, 0x81, 300 },
		{ 0xD1, 0x20, 7 }, { 0x2E, 0x41, 50 }, { 0x2E, 0x4F, 90 },
	};
	struct pmu_event ev[8];
	char err[512];
	u64 now = 0;
	open_pmu("skl");
	int n = parse("branches,branch-misses,mem_inst_retired.all_loads,"
		      "mem_load_retired.l3_miss,cache-misses,cache-references", ev, 8);
	assert_int_equal(n, 6);
	assert_int_equal(stat_engine_init(&eng, &pmu, ev, n, now, err, sizeof(err)), 0);
	assert_true(eng.mux);
	pmu_enable(&pmu);
	const int ticks = 60;
	run_ticks(rates, 6, ticks, &now);
	pmu_disable(&pmu);
	stat_engine_update(&eng, now);
	for (int i = 0; i < n; i++) {
		const struct stat_event *s = &eng.st[i];
		u64 truth = rates[i].per_tick * ticks;
		assert_int_equal(s->time.enabled, (u64)ticks * TICK);
		/* 6 events share 4 counters: each runs 4/6 of the ticks. */
		assert_true(s->time.running > 0 && s->time.running < s->time.enabled);
		assert_int_equal(stat_engine_scaled(&eng, i), truth);
		assert_int_equal(sched_mux_running_pct100(&s->time), 6666);
	}
}

/* Fixed-counter events never leave their counters; the rotation only
 * shares the GP counters. */
static void test_fixed_events_always_run(void **state)
{
	struct pmu_event ev[8];
	char err[512];
	u64 now = 0;
	open_pmu("skl");
	int n = parse("instructions,cycles,branches,branch-misses,"
		      "mem_inst_retired.all_loads,mem_load_retired.l3_miss,cache-misses", ev, 8);
	assert_int_equal(stat_engine_init(&eng, &pmu, ev, n, now, err, sizeof(err)), 0);
	assert_true(eng.mux);
	pmu_enable(&pmu);
	for (int t = 0; t < 40; t++) {
		sim_run(100000, 50000, IP);
		now += TICK;
		stat_engine_tick(&eng, now);
	}
	pmu_disable(&pmu);
	stat_engine_update(&eng, now);
	assert_int_equal(eng.st[0].time.running, eng.st[0].time.enabled);
	assert_int_equal(eng.st[1].time.running, eng.st[1].time.enabled);
	assert_int_equal(eng.st[0].count, 40 * 50000);
	assert_int_equal(eng.st[1].count, 40 * 100000);
	assert_true(eng.st[2].time.running < eng.st[2].time.enabled);
}

/* Without multiplexing every event runs all the time and counts exactly. */
static void test_no_mux_counts_exact(void **state)
{
	static const struct rate rates[] = { { 0xC4, 0x00, 123 }, { 0xC5, 0x00, 4 } };
	struct pmu_event ev[2];
	char err[512];
	u64 now = 0;
	open_pmu("icx");
	int n = parse("branches,branch-misses", ev, 2);
	assert_int_equal(stat_engine_init(&eng, &pmu, ev, n, now, err, sizeof(err)), 0);
	assert_false(eng.mux);
	pmu_enable(&pmu);
	run_ticks(rates, 2, 25, &now);
	pmu_disable(&pmu);
	stat_engine_update(&eng, now);
	assert_int_equal(eng.st[0].count, 123 * 25);
	assert_int_equal(eng.st[1].count, 4 * 25);
	assert_int_equal(eng.st[0].time.running, eng.st[0].time.enabled);
}

/* An event that cannot be counted even alone is refused up front. */
static void test_unplaceable_event_refused(void **state)
{
	struct pmu_event ev[2];
	char err[512];
	open_pmu("skl");
	int n = parse("branches", ev, 2);
	ev[0].gp_allowed = 0;	/* as if no counter of this CPU could count it */
	ev[0].fixed_allowed = 0;
	assert_int_equal(stat_engine_init(&eng, &pmu, ev, n, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot count branches"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_mux_scaling_exact_at_constant_rates, teardown),
		cmocka_unit_test_teardown(test_fixed_events_always_run, teardown),
		cmocka_unit_test_teardown(test_no_mux_counts_exact, teardown),
		cmocka_unit_test_teardown(test_unplaceable_event_refused, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
