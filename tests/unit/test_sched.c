/* sched/: the counter scheduler against a brute-force oracle, real CPU
 * constraints, and its preferences (fixed counters, previous placements). */
#include "test.h"
#include "sched_oracle.h"
#include "sched/sched.h"
#include "arch/msr.h"

static const struct sched_ctx skl4 = { .gp_mask = 0x0f, .fixed_mask = 0x7, .offcore_swap = true };
static const struct sched_ctx skl8 = { .gp_mask = 0xff, .fixed_mask = 0x7, .offcore_swap = true };
static const struct sched_ctx spr8 = { .gp_mask = 0xff, .fixed_mask = 0xf, .offcore_swap = true };

/* ---- the facts-sheet overlap case --------------------------------------- */

/* intel-pmu.md "Constraints": e0 on {0,3}, e1..e3 on {0,1,2}. Greedy puts
 * e0 on 0 and strands e3; the only answer is e0=3 and e1..e3 on 0..2. */
static void test_overlap_case(void **state)
{
	struct pmu_event ev[4];
	int out[4], greedy[4];
	make_event(&ev[0], "e0", 0x10, 1, 0x9, 0);
	for (int i = 1; i < 4; i++)
		make_event(&ev[i], i == 1 ? "e1" : i == 2 ? "e2" : "e3", 0x20, 1, 0x7, 0);
	assert_false(greedy_by_weight(&skl4, ev, 4, greedy));	/* the trap is real */
	assert_int_equal(sched_assign(&skl4, ev, 4, NULL, out, NULL, NULL), 4);
	assert_int_equal(out[0], 3);
	assert_int_equal(out[1] | out[2] | out[3], 0x3);	/* e1..e3 on 0, 1, 2 */
	assert_int_not_equal(out[1], out[2]);
	assert_null(oracle_check(&skl4, ev, 4, 0xf, out, NULL));
}

/* ---- random sets against the oracle -------------------------------------- */

struct tally {
	int sets, feasible, fast, moved_sets;
};

/* One random set: the scheduler places it iff the oracle can, never breaks
 * a rule, moves no more events than needed and uses the fixed counters as
 * well as the best assignment does. When it cannot, its partial placement
 * is valid and keeps exactly the units that fit with those before them. */
static void check_one(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
		      const int *prev, bool swap_out, struct tally *t)
{
	int out[ORACLE_MAX_EVENTS];
	u32 extra[ORACLE_MAX_EVENTS];
	struct sched_report why;
	struct sched_ctx eff = *ctx;
	if (!swap_out)
		eff.offcore_swap = false;	/* NULL extra output: no MSR swap */
	u64 all = (1ull << n) - 1;
	int r = sched_assign(ctx, ev, n, prev, out, swap_out ? extra : NULL, &why);
	struct oracle_best best = oracle_solve(&eff, ev, n, all, prev);
	t->sets++;
	if (best.feasible != (r == n))
		fail_msg("set %d: oracle says %d, scheduler returned %d", t->sets, best.feasible, r);
	if (r == n) {
		t->feasible++;
		t->fast += why.fast_path;
		t->moved_sets += why.moved > 0;
		const char *bad = oracle_check(&eff, ev, n, all, out, swap_out ? extra : NULL);
		if (bad)
			fail_msg("set %d: %s", t->sets, bad);
		assert_int_equal(why.moved, best.moves);
		assert_int_equal(oracle_gp_not_fixed(ctx, ev, n, out), best.gp_not_fixed);
		assert_int_equal(why.placed, n);
		return;
	}
	assert_true(r < 0);
	u64 placed = oracle_placed(out, n);
	const char *bad = oracle_check(&eff, ev, n, placed, out, swap_out ? extra : NULL);
	if (bad)
		fail_msg("set %d partial: %s", t->sets, bad);
	u64 kept = 0;
	for (int i = 0; i < n; i++) {
		if (sched_unit_of(ev, n, i) != i)
			continue;
		u64 unit = sched_unit_members(ev, n, i);
		bool fits = oracle_solve(&eff, ev, n, kept | unit, NULL).feasible;
		assert_int_equal(fits, (placed & unit) == unit);
		if (fits)
			kept |= unit;
		for (int e = 0; e < n; e++)
			if ((unit & (1ull << e)) && !fits)
				assert_int_not_equal(why.reason[e], SCHED_OK);
	}
	assert_int_equal(kept, placed);
	/* the result is the reason of the first event that failed itself */
	for (int e = 0; e < n; e++)
		if (!(placed & (1ull << e)) && why.reason[e] != SCHED_GROUP) {
			assert_int_equal(-r, why.reason[e]);
			break;
		}
}

static void test_random_sets_vs_oracle(void **state)
{
	u64 rng = 0x5eed5c4ed0001ull;
	struct tally t = { 0 };
	for (int k = 0; k < 6000; k++) {
		struct sched_ctx ctx;
		struct pmu_event ev[ORACLE_MAX_EVENTS];
		int prev[ORACLE_MAX_EVENTS];
		random_ctx(&rng, &ctx, 8);
		int n = 1 + (int)rng_below(&rng, ORACLE_MAX_EVENTS);
		random_events(&rng, &ctx, ev, n, true);
		random_prev(&rng, n, prev);
		bool with_prev = rng_below(&rng, 2);
		check_one(&ctx, ev, n, with_prev ? prev : NULL, rng_below(&rng, 4) != 0, &t);
	}
	print_message("# %d random sets, %d placeable, %d by the fast path, %d with moves\n",
		      t.sets, t.feasible, t.fast, t.moved_sets);
	/* the generator must produce both outcomes in quantity */
	assert_true(t.feasible > t.sets / 5 && t.feasible < t.sets * 4 / 5);
	assert_true(t.fast > 20 && t.moved_sets > 100);
}

/* Previous placements taken from a real earlier schedule of a similar set:
 * the usual case on a multiplexing tick or an add. */
static void test_random_reschedules_vs_oracle(void **state)
{
	u64 rng = 0xfeedbeef77ull;
	struct tally t = { 0 };
	for (int k = 0; k < 3000; k++) {
		struct sched_ctx ctx;
		struct pmu_event ev[ORACLE_MAX_EVENTS];
		int prev[ORACLE_MAX_EVENTS];
		random_ctx(&rng, &ctx, 8);
		int n = 2 + (int)rng_below(&rng, ORACLE_MAX_EVENTS - 1);
		random_events(&rng, &ctx, ev, n, false);
		int old = 1 + (int)rng_below(&rng, (unsigned)n - 1);	/* the first `old` were placed */
		if (sched_assign(&ctx, ev, old, NULL, prev, NULL, NULL) != old)
			continue;
		for (int i = old; i < n; i++)
			prev[i] = COUNTER_NONE;
		check_one(&ctx, ev, n, prev, false, &t);
	}
	print_message("# %d reschedules, %d placeable, %d by the fast path, %d with moves\n",
		      t.sets, t.feasible, t.fast, t.moved_sets);
	assert_true(t.sets > 1000 && t.fast > 100 && t.moved_sets > 10);
}

/* AMD's large-increment events hold an even counter and the odd one
 * after it (Linux pair_constraint, arch/x86/events/amd/core.c; the
 * oracle restates the rule): random sets and reschedules on Zen's six
 * counters and the legacy four, against the brute force. */
static void test_amd_pairs_vs_oracle(void **state)
{
	u64 rng = 0xa3d0a1f5ull;
	struct tally t = { 0 }, r = { 0 };
	int pairs_placed = 0;
	for (int k = 0; k < 4000; k++) {
		struct sched_ctx ctx;
		struct pmu_event ev[ORACLE_MAX_EVENTS];
		int prev[ORACLE_MAX_EVENTS], out[ORACLE_MAX_EVENTS];
		random_amd_ctx(&rng, &ctx);
		int n = 1 + (int)rng_below(&rng, 6);
		random_amd_events(&rng, ev, n, true);
		random_prev(&rng, n, prev);
		check_one(&ctx, ev, n, rng_below(&rng, 2) ? prev : NULL, false, &t);
		/* and as a reschedule: the first `old` placed before */
		int old = 1 + (int)rng_below(&rng, (unsigned)n);
		if (old < n && sched_assign(&ctx, ev, old, NULL, prev, NULL, NULL) == old) {
			for (int i = old; i < n; i++)
				prev[i] = COUNTER_NONE;
			check_one(&ctx, ev, n, prev, false, &r);
		}
		if (sched_assign(&ctx, ev, n, NULL, out, NULL, NULL) == n)
			for (int i = 0; i < n; i++)
				pairs_placed += ev[i].amd_pair;
	}
	print_message("# AMD: %d sets (%d placeable), %d reschedules (%d by the fast path), "
		      "%d pair events placed\n", t.sets, t.feasible, r.sets, r.fast, pairs_placed);
	assert_true(t.feasible > t.sets / 5 && t.feasible < t.sets * 4 / 5);
	assert_true(r.sets > 500 && r.fast > 50 && pairs_placed > 1000);
}

static void make_pair_event(struct pmu_event *e, const char *name)
{
	make_event(e, name, 0x03, 0xff, 0x3f, 0);
	e->amd_pair = true;
}

/* The rule on Zen's six counters: three pairs at most, the odd counter
 * never given to another event, a held counter spoiling its pair. */
static void test_amd_pair_placement(void **state)
{
	const struct sched_ctx zen = { .gp_mask = 0x3f };
	struct pmu_event ev[6];
	int out[6];
	for (int i = 0; i < 4; i++)
		make_pair_event(&ev[i], "fp_ret_sse_avx_ops.all");
	assert_int_equal(sched_assign(&zen, ev, 3, NULL, out, NULL, NULL), 3);
	assert_int_equal((1 << out[0]) | (1 << out[1]) | (1 << out[2]), 0x15);	/* gp0, 2, 4 */
	assert_int_equal(sched_assign(&zen, ev, 4, NULL, out, NULL, NULL), -SCHED_COUNTERS_TAKEN);

	/* one pair and four others fill the six; two pairs and three do not */
	make_pair_event(&ev[0], "fp");
	for (int i = 1; i < 6; i++)
		make_event(&ev[i], "other", (u8)(0x40 + i), 1, 0x3f, 0);
	assert_int_equal(sched_assign(&zen, ev, 5, NULL, out, NULL, NULL), 5);
	for (int i = 1; i < 5; i++)
		assert_int_not_equal(out[i], out[0] + 1);
	make_pair_event(&ev[1], "fp2");
	assert_int_equal(sched_assign(&zen, ev, 5, NULL, out, NULL, NULL), -SCHED_COUNTERS_TAKEN);

	/* gp1 held by the firmware: gp0 has no partner, gp2 and gp4 remain */
	const struct sched_ctx held = { .gp_mask = 0x3d };
	make_pair_event(&ev[0], "fp");
	assert_int_equal(sched_allowed(&held, &ev[0]), 0x14);
	assert_int_equal(sched_assign(&held, ev, 2, NULL, out, NULL, NULL), 2);
	assert_int_equal((1 << out[0]) | (1 << out[1]), 0x14);
}

/* The fast path keeps a pair's odd counter free, and places a new pair
 * only where both counters are free. */
static void test_amd_pair_fast_path(void **state)
{
	const struct sched_ctx zen = { .gp_mask = 0x3f };
	struct pmu_event ev[3];
	struct sched_report why;
	make_pair_event(&ev[0], "fp");
	make_event(&ev[1], "other", 0x76, 0, 0x3f, 0);
	int prev[3] = { 2, COUNTER_NONE, COUNTER_NONE }, out[3];
	assert_int_equal(sched_assign(&zen, ev, 2, prev, out, NULL, &why), 2);
	assert_true(why.fast_path);
	assert_int_equal(out[0], 2);
	assert_int_equal(out[1], 0);
	prev[0] = 2;
	prev[1] = 3;	/* the odd counter of the pair: one of the two moves */
	assert_int_equal(sched_assign(&zen, ev, 2, prev, out, NULL, &why), 2);
	assert_false(why.fast_path);
	assert_int_equal(why.moved, 1);
	assert_true(out[1] != out[0] && out[1] != out[0] + 1);

	/* a new pair beside events on gp0 and gp3: gp4 is the only pair left */
	make_event(&ev[1], "a", 0x76, 0, 0x3f, 0);
	make_event(&ev[2], "b", 0xC0, 0, 0x3f, 0);
	make_pair_event(&ev[0], "fp");
	int kept[3] = { COUNTER_NONE, 0, 3 };
	assert_int_equal(sched_assign(&zen, ev, 3, kept, out, NULL, &why), 3);
	assert_true(why.fast_path);
	assert_int_equal(out[0], 4);
}

/* sched_explain names the pair the event needs and who holds it. */
static void test_amd_pair_explained(void **state)
{
	const struct sched_ctx zen = { .gp_mask = 0x3f };
	struct pmu_event ev[4];
	int out[4];
	struct sched_report why;
	char text[512];
	make_pair_event(&ev[0], "fp_a");
	make_pair_event(&ev[1], "fp_b");
	make_pair_event(&ev[2], "fp_c");
	make_pair_event(&ev[3], "fp_d");
	assert_int_equal(sched_assign(&zen, ev, 4, NULL, out, NULL, &why), -SCHED_COUNTERS_TAKEN);
	assert_int_equal(out[3], COUNTER_NONE);
	sched_explain(&zen, ev, 4, out, &why, text, sizeof(text));
	assert_non_null(strstr(text, "fp_d: needs an even counter and the odd one after it"));
	assert_non_null(strstr(text, "fp_a (gp0 and the next)"));
}

/* Adversarial: every set of 4 events whose allowed counters are any
 * non-empty subsets of 4 GP counters (15^4 sets), where overlap traps like
 * the facts-sheet case live. */
static void test_every_4x4_set(void **state)
{
	struct pmu_event ev[4];
	int out[4];
	int feasible = 0, greedy_misses = 0;
	for (int i = 0; i < 4; i++)
		make_event(&ev[i], "e", 0x10, 1, 0, 0);
	for (u32 code = 0; code < 15 * 15 * 15 * 15; code++) {
		u32 c = code;
		for (int i = 0; i < 4; i++, c /= 15)
			ev[i].gp_allowed = 1 + c % 15;
		bool ok = oracle_solve(&skl4, ev, 4, 0xf, NULL).feasible;
		assert_int_equal(sched_assign(&skl4, ev, 4, NULL, out, NULL, NULL) == 4, ok);
		if (ok) {
			assert_null(oracle_check(&skl4, ev, 4, 0xf, out, NULL));
			feasible++;
			greedy_misses += !greedy_by_weight(&skl4, ev, 4, out);
		}
	}
	print_message("# 50625 sets: %d placeable, greedy-by-weight misses %d of them\n",
		      feasible, greedy_misses);
	assert_true(greedy_misses > 0);
}

/* ---- real constraints ----------------------------------------------------- */

/* intel-pmu.md "Constraints": on Skylake 0xD0/0xD1/0xD2/0xCD/0xC6 count
 * only on GP0-3, INST_RETIRED.PREC_DIST only on GP1. */
static void skl_events(struct pmu_event *ev)
{
	make_event(&ev[0], "INST_RETIRED.PREC_DIST:ppp", 0xC0, 0x01, 0xff, 0);
	ev[0].precise = 3;
	ev[0].pebs_gp = 0x2;
	make_event(&ev[1], "MEM_INST_RETIRED.ALL_LOADS", 0xD0, 0x81, 0x0f, 0);
	make_event(&ev[2], "MEM_LOAD_RETIRED.L3_MISS", 0xD1, 0x20, 0x0f, 0);
	make_event(&ev[3], "MEM_LOAD_L3_HIT_RETIRED.XSNP_HIT", 0xD2, 0x02, 0x0f, 0);
	make_event(&ev[4], "cycles", 0x3C, 0x00, 0xff, 0x2);
	make_event(&ev[5], "instructions", 0xC0, 0x00, 0xff, 0x1);
	make_event(&ev[6], "FRONTEND_RETIRED.DSB_MISS", 0xC6, 0x01, 0x0f, 0);
	make_event(&ev[7], "BR_MISP_RETIRED.ALL_BRANCHES", 0xC5, 0x00, 0xff, 0);
	make_event(&ev[8], "UOPS_ISSUED.ANY", 0x0E, 0x01, 0xff, 0);
}

static void test_skylake_constraints(void **state)
{
	struct pmu_event ev[9];
	int out[9];
	struct sched_report why;
	char text[512];
	skl_events(ev);

	/* HT on (4 GP): PREC_DIST on GP1, three memory events on 0, 2, 3,
	 * cycles and instructions on their fixed counters. */
	assert_int_equal(sched_assign(&skl4, ev, 6, NULL, out, NULL, &why), 6);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[4], counter_fixed(1));
	assert_int_equal(out[5], counter_fixed(0));
	assert_null(oracle_check(&skl4, ev, 6, 0x3f, out, NULL));

	/* A fourth memory event needs GP0-3 too: five events for four. */
	assert_int_equal(sched_assign(&skl4, ev, 7, NULL, out, NULL, &why), -SCHED_COUNTERS_TAKEN);
	assert_int_equal(why.reason[6], SCHED_COUNTERS_TAKEN);
	assert_int_equal(oracle_placed(out, 7), 0x3f);
	sched_explain(&skl4, ev, 7, out, &why, text, sizeof(text));
	assert_string_equal(text, "FRONTEND_RETIRED.DSB_MISS: needs a counter among gp0-3, all taken by "
			    "INST_RETIRED.PREC_DIST:ppp (gp1), MEM_INST_RETIRED.ALL_LOADS (gp3), "
			    "MEM_LOAD_RETIRED.L3_MISS (gp2), MEM_LOAD_L3_HIT_RETIRED.XSNP_HIT (gp0)\n");

	/* HT off (8 GP), without PREC_DIST: the four memory events take
	 * GP0-3, the others GP4-7 and the fixed counters. */
	assert_int_equal(sched_assign(&skl8, ev + 1, 8, NULL, out, NULL, &why), 8);
	assert_null(oracle_check(&skl8, ev + 1, 8, 0xff, out, NULL));
	assert_true(out[0] < 4 && out[1] < 4 && out[2] < 4 && out[5] < 4);
	/* ... and with it, five events need GP0-3: no. */
	assert_int_equal(sched_assign(&skl8, ev, 9, NULL, out, NULL, &why), -SCHED_COUNTERS_TAKEN);
}

/* SPR: codes below 0x90 only on GP0-3 except 0x2E and 0x3C; 0x04A4,
 * 0x08A4, 0x02CD and 0xCE only on GP0. */
static void spr_event(struct pmu_event *e, const char *name, u8 event, u8 umask)
{
	u32 gp = 0xff;
	if (event < 0x90 && event != 0x2E && event != 0x3C)
		gp = 0x0f;
	if ((event == 0xA4 && (umask == 0x04 || umask == 0x08)) ||
	    (event == 0xCD && umask == 0x02) || event == 0xCE)
		gp = 0x01;
	make_event(e, name, event, umask, gp, 0);
}

static void test_sapphire_rapids_constraints(void **state)
{
	struct pmu_event ev[8];
	int out[8], greedy[8];
	struct sched_report why;
	char text[512];
	spr_event(&ev[0], "TOPDOWN.BACKEND_BOUND_SLOTS", 0xA4, 0x08);
	spr_event(&ev[1], "LD_BLOCKS.STORE_FORWARD", 0x03, 0x82);
	spr_event(&ev[2], "DTLB_LOAD_MISSES.WALK_COMPLETED", 0x12, 0x0e);
	spr_event(&ev[3], "L2_RQSTS.MISS", 0x24, 0x3f);
	spr_event(&ev[4], "LONGEST_LAT_CACHE.MISS", 0x2E, 0x41);
	spr_event(&ev[5], "CPU_CLK_UNHALTED.THREAD_P", 0x3C, 0x00);
	spr_event(&ev[6], "MEM_INST_RETIRED.ALL_LOADS", 0xD0, 0x81);
	spr_event(&ev[7], "AMX_OPS_RETIRED.INT8", 0xCE, 0x01);

	/* Seven events on eight counters, three of them squeezed into GP1-3. */
	assert_int_equal(sched_assign(&spr8, ev, 7, NULL, out, NULL, &why), 7);
	assert_int_equal(out[0], 0);
	assert_null(oracle_check(&spr8, ev, 7, 0x7f, out, NULL));
	assert_true(greedy_by_weight(&spr8, ev, 7, greedy));

	/* 0xCE wants GP0 as well: the second GP0-only event cannot go. */
	assert_int_equal(sched_assign(&spr8, ev, 8, NULL, out, NULL, &why), -SCHED_COUNTERS_TAKEN);
	assert_int_equal(oracle_placed(out, 8), 0x7f);
	sched_explain(&spr8, ev, 8, out, &why, text, sizeof(text));
	assert_string_equal(text, "AMX_OPS_RETIRED.INT8: needs a counter among gp0, all taken by "
			    "TOPDOWN.BACKEND_BOUND_SLOTS (gp0)\n");

	/* Four events below 0x90 next to a GP0-only one: five for GP0-3. The
	 * holders of GP0-3 could not move either: the report names them all. */
	spr_event(&ev[7], "IDQ.MITE_UOPS", 0x79, 0x04);
	assert_int_equal(sched_assign(&spr8, ev, 8, NULL, out, NULL, &why), -SCHED_COUNTERS_TAKEN);
	assert_int_equal(__builtin_popcountll(why.rivals[7]), 5);
	assert_int_equal(why.rival_counters[7], 0x0f);
}

/* ---- preferences --------------------------------------------------------- */

static void test_prefers_fixed_counters(void **state)
{
	struct pmu_event ev[3];
	int out[3];
	make_event(&ev[0], "instructions", 0xC0, 0x00, 0xff, 0x1);
	make_event(&ev[1], "cycles", 0x3C, 0x00, 0xff, 0x2);
	make_event(&ev[2], "ref-cycles", 0x00, 0x03, 0, 0x4);	/* fixed 2 only */
	assert_int_equal(sched_assign(&skl4, ev, 3, NULL, out, NULL, NULL), 3);
	assert_int_equal(out[0], counter_fixed(0));
	assert_int_equal(out[1], counter_fixed(1));
	assert_int_equal(out[2], counter_fixed(2));

	/* No fixed counters (a hypervisor hiding them): GP for the first two,
	 * nothing can count ref-cycles. */
	struct sched_ctx nofixed = { .gp_mask = 0xf, .fixed_mask = 0 };
	assert_int_equal(sched_assign(&nofixed, ev, 2, NULL, out, NULL, NULL), 2);
	assert_false(counter_is_fixed(out[0]) || counter_is_fixed(out[1]));
	assert_int_equal(sched_assign(&nofixed, ev, 3, NULL, out, NULL, NULL), -SCHED_NO_COUNTER);

	/* Precise instructions without fixed-counter PEBS: a GP counter. */
	ev[0].precise = 2;
	ev[0].pebs_gp = 0xf;
	assert_int_equal(sched_assign(&skl4, ev, 1, NULL, out, NULL, NULL), 1);
	assert_false(counter_is_fixed(out[0]));
	ev[0].pebs_fixed = 0x1;	/* baseline PEBS: fixed counters can */
	assert_int_equal(sched_assign(&skl4, ev, 1, NULL, out, NULL, NULL), 1);
	assert_int_equal(out[0], counter_fixed(0));
}

static void test_keeps_previous_placements(void **state)
{
	struct pmu_event ev[5];
	int prev[5], out[5];
	struct sched_report why;
	make_event(&ev[0], "a", 0x10, 1, 0xf, 0);
	make_event(&ev[1], "b", 0x11, 1, 0xf, 0);
	make_event(&ev[2], "c", 0x12, 1, 0xf, 0);
	make_event(&ev[3], "cycles", 0x3C, 0, 0xf, 0x2);
	make_event(&ev[4], "d", 0x13, 1, 0x1, 0);

	/* Counters from an older schedule: adding a new event moves nothing. */
	prev[0] = 3; prev[1] = 0; prev[2] = 2; prev[3] = COUNTER_NONE;
	assert_int_equal(sched_assign(&skl4, ev, 4, prev, out, NULL, &why), 4);
	assert_true(why.fast_path);
	assert_int_equal(why.moved, 0);
	assert_int_equal(out[0], 3);
	assert_int_equal(out[1], 0);
	assert_int_equal(out[2], 2);
	assert_int_equal(out[3], counter_fixed(1));

	/* d only counts on GP0, held by b: b moves (to GP1, the free one) and
	 * nothing else does. */
	memcpy(prev, out, sizeof(prev));
	prev[4] = COUNTER_NONE;
	assert_int_equal(sched_assign(&skl4, ev, 5, prev, out, NULL, &why), 5);
	assert_false(why.fast_path);
	assert_int_equal(why.moved, 1);
	assert_int_equal(out[4], 0);
	assert_int_equal(out[1], 1);
	assert_int_equal(out[0], 3);
	assert_int_equal(out[2], 2);

	/* A previous GP counter is kept even where a fixed one is free. */
	prev[0] = 3; prev[1] = 0; prev[2] = 2; prev[3] = 1;
	assert_int_equal(sched_assign(&skl4, ev, 4, prev, out, NULL, &why), 4);
	assert_int_equal(out[3], 1);
	assert_int_equal(why.moved, 0);
}

static void test_taken_alone(void **state)
{
	struct pmu_event ev[2];
	int out[2];
	struct sched_report why;
	char text[256];
	make_event(&ev[0], "UOPS_EXECUTED.X87", 0xB1, 0x10, 0xf, 0);
	make_event(&ev[1], "cycles", 0x3C, 0, 0xf, 0x2);
	ev[0].taken_alone = true;
	assert_int_equal(sched_assign(&skl4, ev, 1, NULL, out, NULL, NULL), 1);
	assert_int_equal(sched_assign(&skl4, ev, 2, NULL, out, NULL, &why), -SCHED_TAKEN_ALONE);
	assert_int_equal(out[0], 0);	/* the first one keeps the PMU */
	assert_int_equal(out[1], COUNTER_NONE);
	sched_explain(&skl4, ev, 2, out, &why, text, sizeof(text));
	assert_string_equal(text, "cycles: cannot run with UOPS_EXECUTED.X87, which must be the only "
			    "event scheduled (taken alone)\n");
}

/* Skylake..Ice Lake encodings: 0xB7 with RSP_0, alternate 0xBB with RSP_1. */
static void offcore_event(struct pmu_event *e, const char *name, u64 value)
{
	make_offcore_event(e, name, 0xB7, 0x01, 0xBB, 0x01, value);
}

static void test_extra_msr_sharing(void **state)
{
	struct pmu_event ev[4];
	int out[4];
	u32 msr[4];
	struct sched_report why;
	char text[256];
	offcore_event(&ev[0], "OCR.DEMAND_DATA_RD.ANY_RESPONSE", 0x10001);
	offcore_event(&ev[1], "OCR.DEMAND_RFO.ANY_RESPONSE", 0x10002);
	offcore_event(&ev[2], "OCR.DEMAND_DATA_RD.L3_MISS", 0x3fbfc00001);

	/* Two response masks: the second event moves to RSP_1, where it
	 * counts as its alternate encoding (event 0xBB). */
	assert_int_equal(sched_assign(&skl4, ev, 2, NULL, out, msr, NULL), 2);
	assert_int_equal(msr[0], MSR_OFFCORE_RSP_0);
	assert_int_equal(msr[1], MSR_OFFCORE_RSP_1);
	struct pmu_event moved = ev[1];
	assert_true(sched_event_use_msr(&moved, msr[1]));
	assert_int_equal(moved.event, 0xBB);
	/* Without the output array no event changes MSR: they conflict. */
	assert_int_equal(sched_assign(&skl4, ev, 2, NULL, out, NULL, NULL), -SCHED_EXTRA_MSR);
	/* The same value shares one MSR. */
	ev[1].extra_value = 0x10001;
	assert_int_equal(sched_assign(&skl4, ev, 2, NULL, out, msr, NULL), 2);
	assert_int_equal(msr[1], MSR_OFFCORE_RSP_0);
	/* Three masks for two MSRs. */
	ev[1].extra_value = 0x10002;
	assert_int_equal(sched_assign(&skl4, ev, 3, NULL, out, msr, &why), -SCHED_EXTRA_MSR);
	assert_int_equal(why.reason[2], SCHED_EXTRA_MSR);
	sched_explain(&skl4, ev, 3, out, &why, text, sizeof(text));
	assert_string_equal(text, "OCR.DEMAND_DATA_RD.L3_MISS: needs MSR_OFFCORE_RSP_0 or "
			    "MSR_OFFCORE_RSP_1 = 0x3fbfc00001, but they hold 0x10001 for "
			    "OCR.DEMAND_DATA_RD.ANY_RESPONSE, 0x10002 for OCR.DEMAND_RFO.ANY_RESPONSE\n");

	/* One load-latency threshold MSR: all its users agree on the value. */
	for (int i = 0; i < 2; i++) {
		make_event(&ev[i], i ? "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_128" :
			   "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", 0xCD, 0x01, 0xf, 0);
		ev[i].extra_msr = MSR_PEBS_LD_LAT_THRESHOLD;
		ev[i].extra_value = i ? 128 : 4;
	}
	assert_int_equal(sched_assign(&skl4, ev, 2, NULL, out, msr, &why), -SCHED_EXTRA_MSR);
	sched_explain(&skl4, ev, 2, out, &why, text, sizeof(text));
	assert_string_equal(text, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_128: needs MSR_PEBS_LD_LAT_THRESHOLD "
			    "= 0x80, but it holds 0x4 for MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4\n");
	ev[1].extra_value = 4;
	assert_int_equal(sched_assign(&skl4, ev, 2, NULL, out, msr, &why), 2);
}

/* The second encoding is the event's own (pmu_event.alt_*), whatever the
 * model's codes: Golden Cove 0x2A/0x2B, Atom cores 0xB7 umask 0x01/0x02. */
static void test_offcore_alternates_per_model(void **state)
{
	static const u8 pairs[][4] = {
		{ 0xB7, 0x01, 0xBB, 0x01 }, { 0x2A, 0x01, 0x2B, 0x01 }, { 0xB7, 0x01, 0xB7, 0x02 },
	};
	for (size_t k = 0; k < ARRAY_SIZE(pairs); k++) {
		const u8 *p = pairs[k];
		struct pmu_event ev[2];
		int out[2];
		u32 msr[2];
		make_offcore_event(&ev[0], "OCR.A", p[0], p[1], p[2], p[3], 0x10001);
		make_offcore_event(&ev[1], "OCR.B", p[0], p[1], p[2], p[3], 0x10002);
		assert_int_equal(sched_assign(&spr8, ev, 2, NULL, out, msr, NULL), 2);
		assert_int_equal(msr[0], MSR_OFFCORE_RSP_0);
		assert_int_equal(msr[1], MSR_OFFCORE_RSP_1);
		assert_null(oracle_check(&spr8, ev, 2, 0x3, out, msr));
		struct pmu_event moved = ev[1], kept = ev[0];
		assert_true(sched_event_use_msr(&moved, msr[1]));
		assert_false(sched_event_use_msr(&kept, msr[0]));
		assert_int_equal(moved.event, p[2]);
		assert_int_equal(moved.umask, p[3]);
		assert_int_equal(moved.extra_msr, MSR_OFFCORE_RSP_1);
		assert_int_equal(kept.event, p[0]);
		/* The old encoding became the alternate: it can move back. */
		assert_true(sched_event_use_msr(&moved, MSR_OFFCORE_RSP_0));
		assert_memory_equal(&moved, &ev[1], sizeof(moved));
	}
}

/* An offcore event without an alternate (a raw event=0xb7 on a model with
 * no second encoding, or offcore_swap off) stays on its MSR, and the
 * explanation names that MSR alone. */
static void test_offcore_without_alternate(void **state)
{
	struct pmu_event ev[2], copy;
	int out[2];
	u32 msr[2];
	struct sched_report why;
	char text[256];
	make_offcore_event(&ev[0], "OCR.A", 0x2A, 0x01, 0x2B, 0x01, 0x10001);
	make_offcore_event(&ev[1], "OCR.B", 0x2A, 0x01, 0x2B, 0x01, 0x10002);
	ev[1].has_alt = false;
	/* One of the two may move: the one with an alternate does. */
	assert_int_equal(sched_assign(&spr8, ev, 2, NULL, out, msr, NULL), 2);
	assert_int_equal(msr[0], MSR_OFFCORE_RSP_1);
	assert_int_equal(msr[1], MSR_OFFCORE_RSP_0);
	copy = ev[1];
	assert_false(sched_event_use_msr(&copy, MSR_OFFCORE_RSP_1));	/* nothing to use */
	ev[0].has_alt = false;
	assert_int_equal(sched_assign(&spr8, ev, 2, NULL, out, msr, &why), -SCHED_EXTRA_MSR);
	sched_explain(&spr8, ev, 2, out, &why, text, sizeof(text));
	assert_string_equal(text, "OCR.B: needs MSR_OFFCORE_RSP_0 = 0x10002, but it holds "
			    "0x10001 for OCR.A\n");
	/* offcore_swap off: alternates are not used either. */
	struct sched_ctx fixed_msrs = spr8;
	fixed_msrs.offcore_swap = false;
	ev[0].has_alt = ev[1].has_alt = true;
	assert_int_equal(sched_assign(&fixed_msrs, ev, 2, NULL, out, msr, NULL), -SCHED_EXTRA_MSR);
}

/* ---- the fast path and its fall-backs ------------------------------------ */

/* sched_assign(prev) must return `want`, and the same with prev updated in
 * place (out == prev, as pmu.c passes it) must give the same counters.
 * Returns whether the fast path placed them. */
static bool assign_both_ways(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
			     const int *prev, u32 *msr, int want, int *out, struct sched_report *why)
{
	int in_place[8];
	memcpy(in_place, prev, (size_t)n * sizeof(int));
	assert_int_equal(sched_assign(ctx, ev, n, in_place, in_place, msr, NULL), want);
	assert_int_equal(sched_assign(ctx, ev, n, prev, out, msr, why), want);
	assert_memory_equal(in_place, out, (size_t)n * sizeof(int));
	return why->fast_path;
}

/* The fast path declines; the full path places all n, moving one event. */
static void assert_one_moves(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
			     const int *prev, int *out)
{
	struct sched_report why;
	assert_false(assign_both_ways(ctx, ev, n, prev, NULL, n, out, &why));
	assert_int_equal(why.moved, 1);
}

/* New events beside kept ones get what the minimum-cost assignment gives
 * them: a fixed counter when one is free, else the lowest free GP one. */
static void test_fast_path_new_events(void **state)
{
	struct pmu_event ev[4];
	int out[4];
	struct sched_report why;
	make_event(&ev[0], "a", 0x10, 1, 0xf, 0);
	make_event(&ev[1], "b", 0x11, 1, 0xf, 0);
	make_event(&ev[2], "instructions", 0xC0, 0, 0xf, 0x1);
	make_event(&ev[3], "INST_RETIRED.ANY_P", 0xC0, 0, 0xf, 0x1);

	const int one_new[] = { 2, 0, COUNTER_NONE, COUNTER_NONE };
	const int fixed0_kept[] = { 2, 0, counter_fixed(0), COUNTER_NONE };
	assert_true(assign_both_ways(&skl4, ev, 3, one_new, NULL, 3, out, &why));
	assert_int_equal(out[2], counter_fixed(0));

	assert_true(assign_both_ways(&skl4, ev, 4, fixed0_kept, NULL, 4, out, &why));
	assert_int_equal(out[3], 1);	/* GP1 and GP3 are free: the lowest */

	assert_true(assign_both_ways(&skl4, ev, 4, one_new, NULL, 4, out, &why));	/* two new */
	assert_int_equal(out[2], counter_fixed(0));
	assert_int_equal(out[3], 1);

	/* The new event's only counter is kept by another: the full path
	 * moves that one, and only it. */
	make_event(&ev[3], "d", 0x13, 1, 0x1, 0);
	assert_one_moves(&skl4, ev, 4, fixed0_kept, out);
	assert_int_equal(out[3], 0);
}

/* A kept counter that is no longer valid sends the whole set to the full
 * path, which moves just the events that must move. */
static void test_fast_path_stale_counters(void **state)
{
	struct pmu_event ev[3];
	int out[3];
	struct sched_report why;
	for (int i = 0; i < 3; i++)
		make_event(&ev[i], i == 0 ? "a" : i == 1 ? "b" : "c", (u8)(0x10 + i), 1, 0xf, 0);
	const int kept[] = { 0, 1, 2 };
	assert_true(assign_both_ways(&skl4, ev, 3, kept, NULL, 3, out, &why));
	assert_int_equal(why.moved, 0);

	static const int stale[][3] = {
		{ 1, 1, 2 },	/* a counter kept twice */
		{ 40, 1, 2 },	/* out of range */
		{ -7, 1, 2 },	/* not a counter */
		{ 3, 1, 2 },	/* absent on the CPU below */
	};
	struct sched_ctx three = { .gp_mask = 0x7, .fixed_mask = 0x7 };
	for (size_t k = 0; k < sizeof(stale) / sizeof(stale[0]); k++) {
		assert_one_moves(&three, ev, 3, stale[k], out);
		assert_null(oracle_check(&three, ev, 3, 0x7, out, NULL));
	}

	ev[0].gp_allowed = 0xe;	/* a's counter now forbidden for it */
	assert_one_moves(&skl4, ev, 3, kept, out);
	assert_int_equal(out[0], 3);
}

/* Counters that are still valid are not enough: taken-alone and extra MSR
 * conflicts among kept events fail as they would on the full path. */
static void test_fast_path_rules(void **state)
{
	struct pmu_event ev[2];
	int out[2];
	u32 msr[2];
	struct sched_report why;
	make_event(&ev[0], "UOPS_EXECUTED.X87", 0xB1, 0x10, 0xf, 0);
	make_event(&ev[1], "mem-loads-aux", 0x03, 0x82, 0xf, 0);
	ev[0].taken_alone = true;
	const int kept[] = { 0, 1 };
	assert_false(assign_both_ways(&skl4, ev, 2, kept, NULL, -SCHED_TAKEN_ALONE, out, &why));
	ev[1].count_only = true;	/* an auxiliary event may run beside it */
	assert_true(assign_both_ways(&skl4, ev, 2, kept, NULL, 2, out, &why));

	for (int i = 0; i < 2; i++) {
		make_event(&ev[i], i ? "LOAD_LATENCY_GT_128" : "LOAD_LATENCY_GT_4", 0xCD, 0x01, 0xf, 0);
		ev[i].extra_msr = MSR_PEBS_LD_LAT_THRESHOLD;
		ev[i].extra_value = i ? 128 : 4;
	}
	assert_false(assign_both_ways(&skl4, ev, 2, kept, msr, -SCHED_EXTRA_MSR, out, &why));
	ev[1].extra_value = 4;
	assert_true(assign_both_ways(&skl4, ev, 2, kept, msr, 2, out, &why));
	assert_int_equal(msr[1], MSR_PEBS_LD_LAT_THRESHOLD);

	/* Two response masks on kept counters: the second takes RSP_1, which
	 * it may only do when the caller gets the MSRs back (msr given). */
	offcore_event(&ev[0], "OCR.DEMAND_DATA_RD.ANY_RESPONSE", 0x10001);
	offcore_event(&ev[1], "OCR.DEMAND_RFO.ANY_RESPONSE", 0x10002);
	assert_true(assign_both_ways(&skl4, ev, 2, kept, msr, 2, out, &why));
	assert_int_equal(msr[0], MSR_OFFCORE_RSP_0);
	assert_int_equal(msr[1], MSR_OFFCORE_RSP_1);
	assert_false(assign_both_ways(&skl4, ev, 2, kept, NULL, -SCHED_EXTRA_MSR, out, &why));
}

static void test_groups_all_or_nothing(void **state)
{
	struct pmu_event ev[4];
	int out[4];
	struct sched_report why;
	char text[256];
	struct sched_ctx two = { .gp_mask = 0x3, .fixed_mask = 0 };
	make_event(&ev[0], "a", 0x10, 1, 0x1, 0);
	make_event(&ev[1], "b", 0x11, 1, 0x1, 0);	/* group {b, c} */
	make_event(&ev[2], "c", 0x12, 1, 0x2, 0);
	make_event(&ev[3], "d", 0x13, 1, 0x2, 0);
	ev[1].group = 1;
	ev[2].group = 1;
	/* b cannot have GP0, so c, which alone would fit on GP1, is left out
	 * too, and d gets GP1. */
	assert_int_equal(sched_assign(&two, ev, 4, NULL, out, NULL, &why), -SCHED_COUNTERS_TAKEN);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], COUNTER_NONE);
	assert_int_equal(out[2], COUNTER_NONE);
	assert_int_equal(out[3], 1);
	assert_int_equal(why.reason[2], SCHED_GROUP);
	assert_int_equal(why.culprit[2], 1);
	assert_int_equal(why.placed, 2);
	sched_explain(&two, ev, 4, out, &why, text, sizeof(text));
	assert_string_equal(text, "b: needs a counter among gp0, all taken by a (gp0)\n"
			    "  so its group is not placed either: c\n");

	/* A subset must hold whole groups. */
	assert_int_equal(sched_assign_subset(&two, ev, 4, 0x2, NULL, out, NULL, &why), -SCHED_INVALID);
	assert_int_equal(sched_assign_subset(&two, ev, 4, 0x6, NULL, out, NULL, &why), 2);
}

static void test_no_usable_counter(void **state)
{
	struct pmu_event ev[2];
	int out[2];
	struct sched_report why;
	char text[256];
	make_event(&ev[0], "MEM_LOAD_RETIRED.L3_MISS:pp", 0xD1, 0x20, 0x0f, 0);
	ev[0].precise = 2;	/* the table gives no PEBS counter */
	make_event(&ev[1], "UNC_THING", 0x99, 1, 0x30, 0);
	assert_int_equal(sched_assign(&skl4, ev, 2, NULL, out, NULL, &why), -SCHED_NO_COUNTER);
	sched_explain(&skl4, ev, 2, out, &why, text, sizeof(text));
	assert_string_equal(text, "MEM_LOAD_RETIRED.L3_MISS:pp: cannot be sampled precisely (:p): "
			    "no counter can do PEBS for it\n"
			    "UNC_THING: needs a counter among gp4-5, which this CPU does not have "
			    "(it has gp0-3,fixed0-2)\n");
}

static void test_bad_input(void **state)
{
	struct pmu_event ev[2];
	int out[2];
	make_event(&ev[0], "a", 0x10, 1, 0xf, 0);
	make_event(&ev[1], "b", 0x10, 1, 0xf, 0);
	ev[1].group = 7;	/* no such leader */
	assert_int_equal(sched_assign(&skl4, ev, 2, NULL, out, NULL, NULL), -SCHED_INVALID);
	assert_int_equal(sched_assign(&skl4, ev, SCHED_MAX_EVENTS + 1, NULL, out, NULL, NULL), -SCHED_INVALID);
	assert_int_equal(sched_assign(&skl4, ev, 0, NULL, out, NULL, NULL), 0);
}

static void test_deterministic(void **state)
{
	u64 rng = 42;
	for (int k = 0; k < 500; k++) {
		struct sched_ctx ctx;
		struct pmu_event ev[ORACLE_MAX_EVENTS];
		int prev[ORACLE_MAX_EVENTS], a[ORACLE_MAX_EVENTS], b[ORACLE_MAX_EVENTS];
		u32 ma[ORACLE_MAX_EVENTS], mb[ORACLE_MAX_EVENTS];
		random_ctx(&rng, &ctx, 8);
		int n = 1 + (int)rng_below(&rng, ORACLE_MAX_EVENTS);
		random_events(&rng, &ctx, ev, n, true);
		random_prev(&rng, n, prev);
		memset(b, 0x5a, sizeof(b));	/* stale output must not matter */
		int ra = sched_assign(&ctx, ev, n, prev, a, ma, NULL);
		int rb = sched_assign(&ctx, ev, n, prev, b, mb, NULL);
		assert_int_equal(ra, rb);
		assert_memory_equal(a, b, (size_t)n * sizeof(int));
		assert_memory_equal(ma, mb, (size_t)n * sizeof(u32));
	}
}

static void test_format_counters(void **state)
{
	char buf[64];
	sched_format_counters(0x0f | (0x7ull << 32), buf, sizeof(buf));
	assert_string_equal(buf, "gp0-3,fixed0-2");
	sched_format_counters(0x0a, buf, sizeof(buf));
	assert_string_equal(buf, "gp1,gp3");
	sched_format_counters(0, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	sched_format_counter(counter_fixed(1), buf, sizeof(buf));
	assert_string_equal(buf, "fixed1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overlap_case),
		cmocka_unit_test(test_random_sets_vs_oracle),
		cmocka_unit_test(test_random_reschedules_vs_oracle),
		cmocka_unit_test(test_every_4x4_set),
		cmocka_unit_test(test_amd_pairs_vs_oracle),
		cmocka_unit_test(test_amd_pair_placement),
		cmocka_unit_test(test_amd_pair_fast_path),
		cmocka_unit_test(test_amd_pair_explained),
		cmocka_unit_test(test_skylake_constraints),
		cmocka_unit_test(test_sapphire_rapids_constraints),
		cmocka_unit_test(test_prefers_fixed_counters),
		cmocka_unit_test(test_keeps_previous_placements),
		cmocka_unit_test(test_fast_path_new_events),
		cmocka_unit_test(test_fast_path_stale_counters),
		cmocka_unit_test(test_fast_path_rules),
		cmocka_unit_test(test_taken_alone),
		cmocka_unit_test(test_extra_msr_sharing),
		cmocka_unit_test(test_offcore_alternates_per_model),
		cmocka_unit_test(test_offcore_without_alternate),
		cmocka_unit_test(test_groups_all_or_nothing),
		cmocka_unit_test(test_no_usable_counter),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_format_counters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
