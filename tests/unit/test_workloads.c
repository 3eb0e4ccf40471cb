/* The built-in workloads' option parsing and ground truth: branchy
 * (controlled mispredicts) and stream (memory bandwidth). The truths are
 * checked against the NASM loops run for real on this machine. */
#include "test.h"
#include "arch/msr.h"
#include "workload/branchy.h"
#include "workload/stream.h"

u64 branchy_walk(u64 iterations, u64 *state, u64 threshold);

static int parse_branchy(const char *a1, const char *a2, struct branchy_opts *o)
{
	char *argv[] = { "branchy", (char *)a1, (char *)a2, NULL };
	return branchy_parse(a1 ? (a2 ? 3 : 2) : 1, argv, o);
}

static void test_branchy_defaults_and_options(void **state)
{
	struct branchy_opts o;
	assert_int_equal(parse_branchy(NULL, NULL, &o), 0);
	assert_int_equal(o.iterations, BRANCHY_DEFAULT_ITERATIONS);
	assert_int_equal(o.taken_percent, BRANCHY_DEFAULT_TAKEN);
	assert_int_equal(parse_branchy("--taken", "10", &o), 0);
	assert_int_equal(o.taken_percent, 10);
	assert_int_equal(parse_branchy("-n", "1234", &o), 0);
	assert_int_equal(o.iterations, 1234);
}

static void test_branchy_bad_options(void **state)
{
	struct branchy_opts o;
	assert_int_equal(parse_branchy("--taken", "101", &o), -1);
	assert_int_equal(parse_branchy("--taken", "x", &o), -1);
	assert_int_equal(parse_branchy("-n", "0", &o), -1);
	assert_int_equal(parse_branchy("--taken", NULL, &o), -1);
	assert_int_equal(parse_branchy("--fast", NULL, &o), -1);
}

/* The loop really takes the data branch with the asked probability:
 * xorshift64 is uniform enough that 1e6 draws land within 0.5 %. */
static void test_branchy_taken_rate(void **state)
{
	static const u64 percents[] = { 0, 10, 50, 90, 100 };
	for (size_t i = 0; i < ARRAY_SIZE(percents); i++) {
		u64 s = 0x2545F4914F6CDD1DULL, n = 1000000;
		u64 thr = percents[i] >= 100 ? ~0ULL
			  : (u64)(((unsigned __int128)percents[i] << 64) / 100);
		u64 taken = branchy_walk(n, &s, thr);
		double rate = 100.0 * (double)taken / (double)n;
		assert_true(rate > (double)percents[i] - 0.5 && rate < (double)percents[i] + 0.5);
	}
}

static void test_branchy_truth(void **state)
{
	struct branchy_opts o = { .iterations = 1000, .taken_percent = 30 };
	struct workload_truth t = { 0 };
	branchy_truth(&o, 300, &t);
	assert_int_equal(t.parts, 1);
	assert_string_equal(t.part_name[0], "branchy_walk");
	assert_int_equal(t.part_instructions[0], 1000 * 15 + 2);
	assert_int_equal(t.cond_branches, 2000);		/* jb + jnz */
	assert_int_equal(t.branches, 2000 + 700);	/* + jmp when not taken */
	assert_int_equal(t.taken, 300);
	assert_int_equal(t.mispredict_permille, 300);	/* min(p, 1-p) */
	o.taken_percent = 80;
	branchy_truth(&o, 800, &t);
	assert_int_equal(t.mispredict_permille, 200);
}

static void test_branchy_profile(void **state)
{
	struct branchy_opts o = { .iterations = 1, .taken_percent = 50 };
	struct code_profile p;
	branchy_profile(&o, &p);
	assert_int_equal(p.nrates, 2);
	assert_int_equal(p.rate[0].event, ARCH_CODE_BRANCH_RETIRED);
	assert_int_equal(p.rate[0].per_kilo_insn, 2500 / 15);	/* 2.5 branches / 15 insns */
	assert_int_equal(p.rate[1].event, ARCH_CODE_BRANCH_MISSES);
	assert_int_equal(p.rate[1].per_kilo_insn, 500 / 15);
	u32 ipc_random = p.ipc_permille;
	o.taken_percent = 100;
	branchy_profile(&o, &p);
	assert_int_equal(p.rate[1].per_kilo_insn, 0);
	assert_true(p.ipc_permille > ipc_random);	/* no mispredicts: faster */
}

static int parse_stream(const char *a1, const char *a2, struct stream_opts *o)
{
	char *argv[] = { "stream", (char *)a1, (char *)a2, NULL };
	return stream_parse(a1 ? (a2 ? 3 : 2) : 1, argv, o);
}

static void test_stream_options(void **state)
{
	struct stream_opts o;
	assert_int_equal(parse_stream(NULL, NULL, &o), 0);
	assert_int_equal(o.size, STREAM_DEFAULT_SIZE);
	assert_int_equal(o.passes, STREAM_DEFAULT_PASSES);
	assert_int_equal(parse_stream("--size", "65536", &o), 0);
	assert_int_equal(stream_elements(&o), 8192);
	assert_int_equal(parse_stream("--size", "100", &o), -1);
	assert_int_equal(parse_stream("--passes", "0", &o), -1);
	assert_int_equal(parse_stream("--bytes", "1", &o), -1);
}

static void test_stream_truth(void **state)
{
	struct stream_opts o = { .size = 8000, .passes = 3 };
	struct workload_truth t = { 0 };
	stream_truth(&o, &t);
	u64 n = 1000, insns = 0;
	assert_int_equal(t.parts, 4);
	assert_string_equal(t.part_name[3], "stream_triad");
	assert_int_equal(t.part_instructions[0], 3 * (5 * n + 2));
	assert_int_equal(t.part_instructions[3], 3 * (7 * n + 2));
	for (u32 k = 0; k < t.parts; k++)
		insns += t.part_instructions[k];
	assert_int_equal(insns, 3 * (24 * n + 8));
	assert_int_equal(t.loads, 3 * 6 * n);
	assert_int_equal(t.stores, 3 * 4 * n);
	assert_int_equal(t.bytes, 3 * 80 * n);	/* STREAM's count: 16+16+24+24 B */
	assert_int_equal(t.working_set, 24000);
}

void stream_copy(u64 *dst, const u64 *src, u64 n);
void stream_scale(u64 *dst, const u64 *src, u64 n, u64 k);
void stream_add(u64 *dst, const u64 *x, const u64 *y, u64 n);
void stream_triad(u64 *dst, const u64 *x, const u64 *y, u64 n, u64 k);

u64 soak_hot(u64), soak_warm(u64), soak_cool(u64), soak_cold(u64);
u64 irqoff_masked(u64), irqoff_open(u64);

/* Every NASM loop starts on a 64-byte line (workload/loop8.inc says why:
 * a soak loop across a page ran over ten times slower under TCG, and the
 * emulated PMU's shares followed the time, not the instructions). */
static void test_loops_are_line_aligned(void **state)
{
	static const struct { const char *name; const void *at; } loops[] = {
		{ "soak_hot", (const void *)soak_hot }, { "soak_warm", (const void *)soak_warm },
		{ "soak_cool", (const void *)soak_cool }, { "soak_cold", (const void *)soak_cold },
		{ "irqoff_masked", (const void *)irqoff_masked },
		{ "irqoff_open", (const void *)irqoff_open },
		{ "branchy_walk", (const void *)branchy_walk },
		{ "stream_copy", (const void *)stream_copy },
		{ "stream_scale", (const void *)stream_scale },
		{ "stream_add", (const void *)stream_add },
		{ "stream_triad", (const void *)stream_triad },
	};
	for (size_t i = 0; i < ARRAY_SIZE(loops); i++)
		if ((uintptr_t)loops[i].at % 64)
			fail_msg("%s at %p is not on a 64-byte line", loops[i].name, loops[i].at);
}

/* The kernels compute what STREAM defines. */
static void test_stream_kernels(void **state)
{
	u64 a[5] = { 1, 2, 3, 4, 5 }, b[5], c[5];
	stream_copy(c, a, 5);
	stream_scale(b, c, 5, 3);
	stream_add(c, a, b, 5);
	stream_triad(a, b, c, 5, 3);
	for (int i = 0; i < 5; i++) {
		u64 x = (u64)i + 1;
		assert_int_equal(b[i], 3 * x);
		assert_int_equal(c[i], 4 * x);
		assert_int_equal(a[i], 3 * x + 3 * 4 * x);
	}
}

static void test_stream_profile(void **state)
{
	struct stream_opts small = { .size = 1 << 20, .passes = 1 };
	struct stream_opts big = { .size = 64ULL << 20, .passes = 1 };
	struct code_profile p;
	stream_profile(&small, 0x100000, &p);
	assert_int_equal(p.rate[0].per_kilo_insn, 250);	/* 6 loads / 24 insns */
	assert_int_equal(p.rate[1].per_kilo_insn, 166);	/* 4 stores / 24 insns */
	assert_int_equal(p.rate[0].addr_base, 0x100000);
	assert_int_equal(p.rate[0].addr_size, 3 << 20);
	u32 ipc_small = p.ipc_permille, lat_small = p.rate[0].latency;
	stream_profile(&big, 0x100000, &p);
	assert_true(p.ipc_permille < ipc_small);	/* DRAM-bound */
	assert_true(p.rate[0].latency > lat_small);
}

/* irqoff: two parts of 20 rounds x (8 instructions per iteration + 3 per
 * call), n/2 iterations each (workload/irqoff_loops.asm); the host twin
 * cannot turn interrupts off, so the run here checks the truth and the
 * options only. */
static void test_irqoff_truth_and_options(void **state)
{
	const struct workload *w = workload_find("irqoff");
	struct workload_result r;
	char a0[] = "irqoff", a1[] = "-n", a2[] = "400000", bad[] = "39", opt[] = "--bogus";
	char *argv[] = { a0, a1, a2 };
	assert_non_null(w);
	assert_int_equal(w->run(3, argv, &r), 0);
	assert_int_equal(r.truth.parts, 2);
	assert_string_equal(r.truth.part_name[0], "irqoff_masked");
	assert_string_equal(r.truth.part_name[1], "irqoff_open");
	assert_int_equal(r.truth.part_instructions[0], 20 * (10000 * 8 + 3));
	assert_int_equal(r.truth.part_instructions[1], r.truth.part_instructions[0]);
	char *too_few[] = { a0, a1, bad };
	assert_int_equal(w->run(3, too_few, &r), -1);
	char *unknown[] = { a0, opt };
	assert_int_equal(w->run(2, unknown, &r), -1);
}

/* soak -n 1000000: 100 rounds of the four parts (50/30/15/5 % of the
 * iterations), 8 instructions and one jnz an iteration, 3 instructions
 * and one ret a call (workload/loop8.inc). tools/linux-guest printed
 * "truth branches 0" for it. The QEMU PMU counts 1,014,127 branches for
 * `stat` of it, bareperf's own path included (README). */
static void test_soak_truth(void **state)
{
	const struct workload *w = workload_find("soak");
	struct workload_result r;
	char a0[] = "soak", n[] = "-n", v[] = "1000000";
	char *argv[] = { a0, n, v };
	assert_int_equal(w->run(3, argv, &r), 0);
	u64 insns = 0;
	for (u32 i = 0; i < r.truth.parts; i++)
		insns += r.truth.part_instructions[i];
	assert_int_equal(r.truth.parts, 4);
	assert_int_equal(insns, 100 * (10000 * 8 + 4 * 3));
	assert_int_equal(r.truth.branches, 100 * (10000 + 4));
}

/* The emulated chase follows its working set (issue 39 item 15: an
 * L1-sized walk was modelled at DRAM's IPC 0.02): an L1-sized walk runs
 * at IPC 0.8 with L1 hits, the default 16 MiB one at DRAM's. */
static void test_chase_profile_follows_size(void **state)
{
	struct code_profile p;
	chase_profile(&p, 0x100000, 16 << 10);
	assert_int_equal(p.ipc_permille, 800);
	assert_int_equal(p.rate[1].umask, UMASK_MEM_LOAD_RETIRED_L1_HIT);
	assert_int_equal(p.rate[0].latency, 5);
	assert_int_equal(p.rate[0].data_src, 0x1);
	assert_int_equal(p.rate[0].addr_size, 16 << 10);
	chase_profile(&p, 0x100000, 512 << 10);
	assert_int_equal(p.rate[0].latency, 14);
	chase_profile(&p, 0x100000, 4 << 20);
	assert_int_equal(p.rate[1].umask, UMASK_MEM_LOAD_RETIRED_L3_HIT);
	chase_profile(&p, 0x100000, 16 << 20);
	assert_int_equal(p.ipc_permille, 20);
	assert_int_equal(p.rate[1].umask, UMASK_MEM_LOAD_RETIRED_L3_MISS);
	assert_int_equal(p.rate[0].data_src, 0xC);
}

static void test_registered(void **state)
{
	assert_non_null(workload_find("branchy"));
	assert_non_null(workload_find("stream"));
	assert_non_null(workload_find("soak"));
	assert_non_null(workload_find("chase"));
	assert_non_null(workload_find("irqoff"));
	assert_int_equal(workload_count(), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_branchy_defaults_and_options),
		cmocka_unit_test(test_branchy_bad_options),
		cmocka_unit_test(test_branchy_taken_rate),
		cmocka_unit_test(test_soak_truth),
		cmocka_unit_test(test_chase_profile_follows_size),
		cmocka_unit_test(test_branchy_truth),
		cmocka_unit_test(test_branchy_profile),
		cmocka_unit_test(test_stream_options),
		cmocka_unit_test(test_stream_truth),
		cmocka_unit_test(test_irqoff_truth_and_options),
		cmocka_unit_test(test_stream_kernels),
		cmocka_unit_test(test_loops_are_line_aligned),
		cmocka_unit_test(test_stream_profile),
		cmocka_unit_test(test_registered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
