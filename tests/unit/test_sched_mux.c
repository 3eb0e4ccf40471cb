/* sched/mux: round-robin rotation over simulated ticks, time enabled and
 * running, perf-style scaling. */
#include "test.h"
#include "sched_oracle.h"
#include "sched/mux.h"
#include "arch/msr.h"

#define MAXN 16

static const struct sched_ctx gp4 = { .gp_mask = 0x0f, .fixed_mask = 0x7, .offcore_swap = true };

/* Runs `ticks` ticks; counts in ticks[] how often each event ran and
 * checks every tick's placement against the rules. */
static void run_ticks(const struct sched_ctx *ctx, const struct pmu_event *ev, int n, int ticks,
		      int *ran, struct mux_time *t)
{
	struct sched_mux m;
	int prev[MAXN], cur[MAXN];
	u32 msr[MAXN];
	sched_mux_init(&m);
	for (int i = 0; i < n; i++) {
		prev[i] = COUNTER_NONE;
		ran[i] = 0;
	}
	for (int k = 0; k < ticks; k++) {
		int placed = sched_mux_select(&m, ctx, ev, n, prev, cur, msr);
		assert_true(placed > 0);
		u64 on = 0;
		for (int i = 0; i < n; i++)
			if (cur[i] != COUNTER_NONE) {
				on |= 1ull << i;
				ran[i]++;
				/* kept on its counter when it also ran last tick:
				 * these sets have no constraint that forces a move */
				if (prev[i] != COUNTER_NONE)
					assert_int_equal(cur[i], prev[i]);
			}
		assert_int_equal(__builtin_popcountll(on), placed);
		const char *bad = oracle_check(ctx, ev, n, on, cur, msr);
		if (bad)
			fail_msg("tick %d: %s", k, bad);
		if (t)
			sched_mux_account(t, n, cur, 1000);
		memcpy(prev, cur, sizeof(prev));
	}
}

/* Six events that each fit any of four GP counters: every event runs
 * 4 ticks out of 6, so 2/3 of the time. */
static void test_rotation_is_fair(void **state)
{
	struct pmu_event ev[6];
	int ran[6];
	struct mux_time t[6] = { 0 };
	for (int i = 0; i < 6; i++)
		make_event(&ev[i], "e", (u8)(0x10 + i), 1, 0xf, 0);
	run_ticks(&gp4, ev, 6, 12, ran, t);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(ran[i], 8);
		assert_int_equal(t[i].enabled, 12000);
		assert_int_equal(t[i].running, 8000);
		assert_int_equal(sched_mux_running_pct100(&t[i]), 6666);
	}
}

/* Groups rotate as one unit: a member never runs without the others. */
static void test_rotation_keeps_groups_together(void **state)
{
	struct pmu_event ev[7];
	int ran[7];
	for (int i = 0; i < 7; i++)
		make_event(&ev[i], "e", (u8)(0x10 + i), 1, 0xf, 0);
	ev[1].group = ev[2].group = ev[3].group = 1;	/* {1,2,3} */
	ev[5].group = ev[6].group = 5;			/* {5,6} */
	run_ticks(&gp4, ev, 7, 20, ran, NULL);
	assert_int_equal(ran[1], ran[2]);
	assert_int_equal(ran[2], ran[3]);
	assert_int_equal(ran[5], ran[6]);
	for (int i = 0; i < 7; i++)
		assert_true(ran[i] >= 20 / 4);	/* 4 units: each leads once in 4 ticks at most */
}

/* A taken-alone event gets ticks of its own; an event no counter can take
 * never runs and does not block the others. */
static void test_rotation_alone_and_impossible(void **state)
{
	struct pmu_event ev[4];
	int ran[4];
	struct mux_time t[4] = { 0 };
	make_event(&ev[0], "a", 0x10, 1, 0xf, 0);
	make_event(&ev[1], "alone", 0x11, 1, 0xf, 0);
	ev[1].taken_alone = true;
	make_event(&ev[2], "nowhere", 0x12, 1, 0x100, 0);	/* GP8: not on this CPU */
	make_event(&ev[3], "b", 0x13, 1, 0xf, 0);
	run_ticks(&gp4, ev, 4, 8, ran, t);
	assert_int_equal(ran[2], 0);
	assert_int_equal(sched_mux_scale(123, &t[2]), 0);	/* never ran: no estimate */
	assert_int_equal(sched_mux_running_pct100(&t[2]), 0);
	assert_true(ran[1] >= 2);
	assert_true(ran[0] >= 2 && ran[3] >= 2);
	assert_int_equal(ran[0] + ran[1], 8);	/* a and alone never share a tick */
}

/* Constant event rates: scaling the counts of the running ticks back to
 * the whole time gives the exact totals the model would count. */
static void test_scaled_counts_match_exact_counts(void **state)
{
	struct pmu_event ev[5];
	struct sched_mux m;
	struct mux_time t[5] = { 0 };
	int cur[5], prev[5];
	u64 counted[5] = { 0 }, rate[5] = { 1000, 2500, 7, 123456, 999 };
	for (int i = 0; i < 5; i++) {
		make_event(&ev[i], "e", (u8)(0x10 + i), 1, 0x3, 0);	/* 2 counters */
		prev[i] = COUNTER_NONE;
	}
	sched_mux_init(&m);
	const int ticks = 50;
	for (int k = 0; k < ticks; k++) {
		assert_int_equal(sched_mux_select(&m, &gp4, ev, 5, prev, cur, NULL), 2);
		for (int i = 0; i < 5; i++)
			if (cur[i] != COUNTER_NONE)
				counted[i] += rate[i];
		sched_mux_account(t, 5, cur, 4);	/* 4 time units per tick */
		memcpy(prev, cur, sizeof(prev));
	}
	for (int i = 0; i < 5; i++) {
		assert_int_equal(t[i].enabled, 200);
		assert_int_equal(t[i].running, 80);	/* 2 of 5 counters: 40% */
		assert_int_equal(sched_mux_running_pct100(&t[i]), 4000);
		assert_int_equal(sched_mux_scale(counted[i], &t[i]), rate[i] * ticks);
	}
}

static void test_scale_arithmetic(void **state)
{
	struct mux_time t = { .enabled = 3ull << 40, .running = 1ull << 40 };
	/* count * enabled overflows 64 bits; the result does not */
	assert_int_equal(sched_mux_scale(1ull << 60, &t), 3ull << 60);
	/* a result beyond 64 bits saturates */
	assert_int_equal(sched_mux_scale(~0ull, &t), ~0ull);
	t.running = t.enabled;
	assert_int_equal(sched_mux_scale(77, &t), 77);
	assert_int_equal(sched_mux_running_pct100(&t), 10000);
	t.enabled = 3;
	t.running = 1;
	assert_int_equal(sched_mux_scale(10, &t), 30);
	assert_int_equal(sched_mux_running_pct100(&t), 3333);
	t.enabled = 0;
	t.running = 0;
	assert_int_equal(sched_mux_running_pct100(&t), 0);
}

/* Random sets on small CPUs: every tick is valid and maximal (no left-out
 * unit fits next to the chosen ones), and every unit that fits alone runs
 * at least once in any window of U ticks (U units). */
static void test_rotation_random_sets(void **state)
{
	u64 rng = 0xabcdef12345ull;
	int checked = 0;
	for (int k = 0; k < 400; k++) {
		struct sched_ctx ctx;
		struct pmu_event ev[ORACLE_MAX_EVENTS];
		random_ctx(&rng, &ctx, 4);
		int n = 2 + (int)rng_below(&rng, ORACLE_MAX_EVENTS - 1);
		random_events(&rng, &ctx, ev, n, true);
		int units = 0;
		u64 runnable = 0;
		for (int i = 0; i < n; i++)
			if (sched_unit_of(ev, n, i) == i) {
				units++;
				u64 u = sched_unit_members(ev, n, i);
				if (oracle_solve(&ctx, ev, n, u, NULL).feasible)
					runnable |= u;
			}
		if (!runnable)
			continue;
		struct sched_mux m;
		int prev[ORACLE_MAX_EVENTS], cur[ORACLE_MAX_EVENTS];
		u32 msr[ORACLE_MAX_EVENTS];
		int last_ran[ORACLE_MAX_EVENTS];
		sched_mux_init(&m);
		for (int i = 0; i < n; i++) {
			prev[i] = COUNTER_NONE;
			last_ran[i] = -1;
		}
		for (int tick = 0; tick < 3 * units; tick++) {
			sched_mux_select(&m, &ctx, ev, n, prev, cur, msr);
			u64 on = 0;
			for (int i = 0; i < n; i++)
				if (cur[i] != COUNTER_NONE) {
					on |= 1ull << i;
					last_ran[i] = tick;
				}
			const char *bad = oracle_check(&ctx, ev, n, on, cur, msr);
			if (bad)
				fail_msg("set %d tick %d: %s", k, tick, bad);
			for (int i = 0; i < n; i++) {
				u64 u = sched_unit_members(ev, n, sched_unit_of(ev, n, i));
				if (!(on & u))
					assert_false(oracle_solve(&ctx, ev, n, on | u, NULL).feasible);
				if ((runnable & (1ull << i)) && tick >= units)
					assert_true(tick - last_ran[i] < units);
				if (!(runnable & (1ull << i)))
					assert_int_equal(last_ran[i], -1);
			}
			memcpy(prev, cur, sizeof(prev));
		}
		checked++;
	}
	print_message("# %d random multiplexed sets\n", checked);
	assert_true(checked > 300);
}

/* Without an extra-MSR output no offcore event may switch MSR
 * (sched_assign's rule), so the rotation must not choose a set that only
 * fits with a switch: two response masks on MSR_OFFCORE_RSP_0 then take
 * turns, and every tick places what it chose. */
static void test_rotation_without_msr_output(void **state)
{
	struct pmu_event ev[2];
	struct sched_mux m;
	int cur[2], ran[2] = { 0, 0 };
	for (int i = 0; i < 2; i++) {
		make_offcore_event(&ev[i], i ? "OCR.B" : "OCR.A", 0xB7, 0x01, 0xBB, 0x01,
				   0x10001 + (u64)i);
	}
	sched_mux_init(&m);
	for (int k = 0; k < 4; k++) {
		assert_int_equal(sched_mux_select(&m, &gp4, ev, 2, NULL, cur, NULL), 1);
		for (int i = 0; i < 2; i++)
			ran[i] += cur[i] != COUNTER_NONE;
		assert_null(oracle_check(&gp4, ev, 2, cur[0] != COUNTER_NONE ? 1 : 2, cur, NULL));
	}
	assert_int_equal(ran[0], 2);
	assert_int_equal(ran[1], 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rotation_is_fair),
		cmocka_unit_test(test_rotation_keeps_groups_together),
		cmocka_unit_test(test_rotation_alone_and_impossible),
		cmocka_unit_test(test_scaled_counts_match_exact_counts),
		cmocka_unit_test(test_scale_arithmetic),
		cmocka_unit_test(test_rotation_random_sets),
		cmocka_unit_test(test_rotation_without_msr_output),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
