/* `bareperf sched`: placements on named models, the reasons for events that
 * cannot be placed, the multiplexing plan, JSON, bad input, and this CPU
 * through the hardware seam (a fake CPU). Output is captured
 * (host/capture.h). */
#include "test.h"
#include "fake_hw.h"
#include "cmd/cli.h"
#include "host/capture.h"

extern const struct command cmd_sched;

static char out[1 << 16];

/* Runs `sched ARGS...` (NULL-terminated) and captures what it prints. */
static int run_sched(const char *a1, ...)
{
	char *argv[16] = { "sched" };
	int argc = 1;
	va_list ap;
	struct global_opts g = { .pmu = "hw" };

	va_start(ap, a1);
	for (const char *a = a1; a && argc < 15; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	host_capture_start(out, sizeof(out));
	int rc = cmd_sched.run(argc, argv, &g);
	host_capture_stop();
	return rc;
}

/* Sum of every "running_pct": X.YY of the JSON output, in hundredths. */
static int sum_running_pct100(void)
{
	int sum = 0;
	for (const char *p = out; (p = strstr(p, "\"running_pct\": ")); p++) {
		unsigned whole, frac;
		assert_int_equal(sscanf(p + 15, "%u.%2u", &whole, &frac), 2);
		sum += (int)(whole * 100 + frac);
	}
	return sum;
}

/* Skylake with hyper-threading on: every GP event on GP0-3, and
 * INST_RETIRED.PREC_DIST:ppp only on GP1 (intel-pmu.md, "Constraints"). */
#define SKL_FIVE "MEM_INST_RETIRED.ALL_LOADS,MEM_LOAD_RETIRED.L3_MISS," \
		 "MEM_LOAD_L3_HIT_RETIRED.XSNP_HIT,UOPS_ISSUED.ANY,BR_MISP_RETIRED.ALL_BRANCHES"

static void test_fits(void **state)
{
	assert_int_equal(run_sched("--cpu", "skl", "-e",
				   "cycles,instructions,ref-cycles,MEM_LOAD_RETIRED.L3_MISS:pp,"
				   "INST_RETIRED.PREC_DIST:ppp", NULL), EXIT_OK);
	assert_non_null(strstr(out, "skl (Skylake client"));
	assert_non_null(strstr(out, "4 GP + 3 fixed counters (gp0-3,fixed0-2)"));
	/* events with a fixed counter get it (sched.h preferences) */
	assert_non_null(strstr(out, "  cycles                                           fixed1\n"));
	assert_non_null(strstr(out, "  instructions                                     fixed0\n"));
	assert_non_null(strstr(out, "  ref-cycles                                       fixed2\n"));
	assert_non_null(strstr(out, "  INST_RETIRED.PREC_DIST:ppp                       gp1\n"));
	assert_non_null(strstr(out, "All 5 events fit together."));
	assert_null(strstr(out, "Multiplexing"));
	assert_null(strstr(out, "EMULATED"));	/* --cpu: no hardware involved */

	/* Icelake server has 8 GP counters (icelakex_core.json Counter fields). */
#define ICX_NINE "{cycles,instructions},MEM_INST_RETIRED.ALL_LOADS,MEM_LOAD_RETIRED.L3_MISS," \
		 "MEM_LOAD_RETIRED.L1_MISS,MEM_LOAD_RETIRED.L2_MISS,UOPS_ISSUED.ANY," \
		 "BR_MISP_RETIRED.ALL_BRANCHES,topdown.slots"
	assert_int_equal(run_sched("--cpu=icx", "--event", ICX_NINE, NULL), EXIT_OK);
	assert_non_null(strstr(out, "8 GP + 4 fixed counters (gp0-7,fixed0-3)"));
	assert_non_null(strstr(out, "  topdown.slots                                    fixed3\n"));
	assert_non_null(strstr(out, "All 9 events fit together."));
	/* A tenth event for GP0-3 (L2_RQSTS.RFO_MISS, like the loads) does not;
	 * the rotation gives the five GP0-3 events 4 ticks of 5. */
	assert_int_equal(run_sched("--cpu=icx", "--event", ICX_NINE ",L2_RQSTS.RFO_MISS", NULL),
			 EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "  L2_RQSTS.RFO_MISS: needs a counter among gp0-3, all taken by "));
	assert_non_null(strstr(out, "repeats every 5 ticks"));
	assert_int_equal(count_substr(out, " 80.00%\n"), 5);
	assert_int_equal(count_substr(out, "100.00%\n"), 5);

	/* Gracemont: 6 GP + 3 fixed in alderlake_gracemont_core.json. */
	assert_int_equal(run_sched("--cpu", "adl-e", "-e", "cycles", NULL), EXIT_OK);
	assert_non_null(strstr(out, "6 GP + 3 fixed counters (gp0-5,fixed0-2)"));
}

/* Two response masks: the second offcore event moves to MSR_OFFCORE_RSP_1
 * with the model's second encoding, shown as programmed; a third mask has
 * no MSR left. */
static void test_offcore_msrs(void **state)
{
	static const struct { const char *model, *alt; } models[] = {
		{ "icx", "(event 0xbb umask 0x01)" },	/* 0xB7/0xBB */
		{ "spr", "(event 0x2b umask 0x01)" },	/* 0x2A/0x2B */
		{ "adl", "(event 0x2b umask 0x01)" },
		{ "adl-e", "(event 0xb7 umask 0x02)" },	/* Atom: same code, umask 2 */
	};
	for (size_t m = 0; m < ARRAY_SIZE(models); m++) {
		assert_int_equal(run_sched("--cpu", models[m].model, "-e",
					   "ocr.demand_data_rd.any_response,ocr.demand_data_rd.dram",
					   NULL), EXIT_OK);
		assert_non_null(strstr(out, "MSR_OFFCORE_RSP_0=0x10001\n"));
		assert_non_null(strstr(out, "MSR_OFFCORE_RSP_1="));
		assert_non_null(strstr(out, models[m].alt));
		assert_non_null(strstr(out, "All 2 events fit together."));
	}

	assert_int_equal(run_sched("--cpu", "icx", "-e", "ocr.demand_code_rd.any_response,"
				   "ocr.demand_code_rd.dram", NULL), EXIT_OK);
	assert_non_null(strstr(out, "MSR_OFFCORE_RSP_0=0x10004\n"));
	assert_non_null(strstr(out, "MSR_OFFCORE_RSP_1=0x73c000004 (event 0xbb umask 0x01)\n"));

	assert_int_equal(run_sched("--cpu", "icx", "-e", "ocr.demand_code_rd.any_response,"
				   "ocr.demand_code_rd.dram,ocr.demand_data_rd.dram", NULL),
			 EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "  ocr.demand_data_rd.dram: needs MSR_OFFCORE_RSP_0 or "
			       "MSR_OFFCORE_RSP_1 = 0x73c000001, but they hold 0x10004"));
	/* In the rotation each pair of masks gets its turn: 2 ticks of 3. */
	assert_int_equal(count_substr(out, "66.66%"), 3);
	assert_null(strstr(out, "never runs"));
}

/* Five events for GP0-3 next to PREC_DIST, which needs GP1: one cannot be
 * placed (Hall's condition: six events, four counters). */
static void test_unschedulable(void **state)
{
	assert_int_equal(run_sched("--cpu", "skl", "-e", SKL_FIVE ",INST_RETIRED.PREC_DIST:ppp,cycles",
				   NULL), EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "5 of 7 events fit together; these cannot be placed:\n"));
	/* Events are kept in list order: the fifth GP event and PREC_DIST
	 * are the ones left out. */
	assert_non_null(strstr(out, "  BR_MISP_RETIRED.ALL_BRANCHES                     -\n"));
	assert_non_null(strstr(out, "  INST_RETIRED.PREC_DIST:ppp                       -\n"));
	assert_non_null(strstr(out, "  BR_MISP_RETIRED.ALL_BRANCHES: needs a counter among gp0-3, "
			       "all taken by "));
	assert_non_null(strstr(out, "  INST_RETIRED.PREC_DIST:ppp: needs a PEBS counter among gp1, "
			       "all taken by "));
	assert_non_null(strstr(out, "these 5 events can only use gp0-3 (4 counters)"));
	assert_non_null(strstr(out, "Multiplexing: the rotation (one tick per timer period) "
			       "repeats every "));
	assert_non_null(strstr(out, "  tick 1: "));
	assert_non_null(strstr(out, "  cycles                                           100.00%\n"));
	assert_null(strstr(out, "never runs"));
}

/* The rotation keeps all four GP counters busy: the events that can be
 * counted together form a transversal matroid, so every maximal set the
 * rotation picks has four events, and the running shares of the six GP
 * events add up to 400% (less the rounding down of each). */
static void test_rotation_shares(void **state)
{
	assert_int_equal(run_sched("--cpu", "skl", "--json", "-e", SKL_FIVE ",INST_RETIRED.PREC_DIST:ppp",
				   NULL), EXIT_FAILURE_STATUS);
	int sum = sum_running_pct100();
	assert_true(sum <= 40000 && sum > 40000 - 6);
	assert_int_equal(count_substr(out, "\"running_pct\": 100.00"), 0);
	assert_int_equal(count_substr(out, "\"running_pct\": 0.00"), 0);
}

static void test_json(void **state)
{
	assert_int_equal(run_sched("--cpu", "skl", "--json", "-e", SKL_FIVE ",INST_RETIRED.PREC_DIST:ppp",
				   NULL), EXIT_FAILURE_STATUS);
	static const char head[] = "{\"model\": \"skl\", \"gp_counters\": \"0xf\", "
		"\"fixed_counters\": \"0x7\", \"fits\": false, \"placed\": 4, \"events\": [";
	assert_memory_equal(out, head, sizeof(head) - 1);
	assert_int_equal(count_substr(out, "\"name\": "), 6);
	assert_int_equal(count_substr(out, "\"counter\": null"), 2);
	assert_int_equal(count_substr(out, "\"counter\": \"gp"), 4);
	assert_non_null(strstr(out, "{\"name\": \"INST_RETIRED.PREC_DIST:ppp\", \"counter\": null, "
			       "\"event\": \"0xc0\", \"umask\": \"0x01\", \"extra_msr\": null, \"extra_value\": null, \"reason\": \"needs a PEBS "
			       "counter among gp1, all taken by "));
	assert_non_null(strstr(out, "\"rotation\": [["));
	assert_non_null(strstr(out, "]]}\n"));
	assert_int_equal(count_substr(out, "{"), count_substr(out, "}"));
	assert_int_equal(count_substr(out, "["), count_substr(out, "]"));

	/* Fits: every reason null, everything runs all the time. */
	assert_int_equal(run_sched("--cpu", "icx", "--json", "-e",
				   "instructions,ocr.demand_code_rd.any_response,ocr.demand_code_rd.dram",
				   NULL), EXIT_OK);
	assert_non_null(strstr(out, "\"fits\": true, \"placed\": 3"));
	assert_non_null(strstr(out, "{\"name\": \"instructions\", \"counter\": \"fixed0\", "
			       "\"event\": \"0xc0\", \"umask\": \"0x00\", \"extra_msr\": null, \"extra_value\": null, \"reason\": null, "
			       "\"running_pct\": 100.00}"));
	/* The moved offcore event shows its second encoding (0xBB). */
	assert_non_null(strstr(out, "\"event\": \"0xbb\", \"umask\": \"0x01\", "
			       "\"extra_msr\": \"0x1a7\", \"extra_value\": \"0x73c000004\""));
	assert_int_equal(count_substr(out, "\"event\": \"0xb7\""), 1);
	assert_int_equal(count_substr(out, "\"reason\": null"), 3);
	assert_non_null(strstr(out, "\"rotation\": []}\n"));

	/* A name with a quote is escaped. */
	assert_int_equal(run_sched("--cpu", "icx", "--json", "-e", "cpu/event=0x3c,name=a\"b/",
				   NULL), EXIT_OK);
	assert_non_null(strstr(out, "\"name\": \"a\\\"b\""));
}

static void test_bad_input(void **state)
{
	assert_int_equal(run_sched("--cpu", "skl", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "bareperf sched: no events given; use -e LIST"));
	assert_int_equal(run_sched("--cpu", "skl", "-e", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "option -e needs a value"));
	assert_int_equal(run_sched("--cpu", "core2", "-e", "cycles", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "bareperf sched: unknown --cpu 'core2'; known models: nhm, nhm-ex"));
	assert_int_equal(run_sched("--cpu", "skl", "-e", "mem_load_retired.l3_mis", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "bareperf sched: "));
	assert_non_null(strstr(out, "MEM_LOAD_RETIRED.L3_MISS"));	/* the close name */
	assert_int_equal(run_sched("--cpu", "skl", "-e", "branches:ppp", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "cannot be sampled precisely"));
	assert_int_equal(run_sched("--cpu", "skl", "-e", "cycles", "extra", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "unexpected argument 'extra'"));
	assert_int_equal(run_sched("--cpu", "skl", "-e", "{cycles,", NULL), EXIT_USAGE);
}

/* ---- this CPU, through the hardware seam ---------------------------------- */

/* CPUID of an Ice Lake server (6-6A stepping 6) with a version-5 PMU of
 * `gp` GP counters (CPUID.0AH:EAX[15:8]) and fixed counters 0-3. */
#define ICX_CPUID(gp)								\
	{ 0x0, 0, { 0x1b, 0x756e6547, 0x6c65746e, 0x49656e69 } },		\
	{ 0x1, 0, { 0x606a6, 0, 0, 0 } },					\
	{ 0xa, 0, { 5 | (gp) << 8 | 48 << 16 | 8u << 24, 0, 0xf, 4 | 48 << 5 } },	\
	FAKE_END_CPUID

static const struct fake_cpuid icx8_cpuid[] = { ICX_CPUID(8) };
static const struct fake_cpuid icx2_cpuid[] = { ICX_CPUID(2) };
static const struct fake_cpuid tcg_cpuid[] = {
	{ 0x0, 0, { 0x1b, 0x756e6547, 0x6c65746e, 0x49656e69 } },
	{ 0x1, 0, { 0x606a6, 0, 0, 0 } },
	FAKE_END_CPUID
};
static const struct fake_msr no_msrs[] = { FAKE_END_MSR };

static void test_this_cpu(void **state)
{
	const struct fake_cpu icx8 = { .name = "icx8", .cpuid = icx8_cpuid, .msrs = no_msrs };
	const struct fake_cpu icx2 = { .name = "icx2", .cpuid = icx2_cpuid, .msrs = no_msrs };
	const struct fake_cpu tcg = { .name = "tcg", .cpuid = tcg_cpuid, .msrs = no_msrs };

	fake_hw_select(&icx8);
	assert_int_equal(run_sched("-e", "cycles,MEM_LOAD_RETIRED.L3_MISS", NULL), EXIT_OK);
	assert_non_null(strstr(out, "This CPU (icx, Ice Lake server): 8 GP + 4 fixed counters"));

	/* The counters are the ones CPUID enumerates (a hypervisor may give
	 * fewer than the model has), the constraints the model's table. */
	fake_hw_select(&icx2);
	assert_int_equal(run_sched("-e", "cycles,MEM_LOAD_RETIRED.L3_MISS,MEM_LOAD_RETIRED.L2_MISS,"
				   "MEM_LOAD_RETIRED.L1_MISS", NULL), EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "2 GP + 4 fixed counters (gp0-1,fixed0-3)"));
	assert_non_null(strstr(out, "MEM_LOAD_RETIRED.L1_MISS: needs a counter among gp0-1, all taken"));

	fake_hw_select(&tcg);	/* QEMU TCG: CPUID.0AH all zero */
	assert_int_equal(run_sched("-e", "cycles", NULL), EXIT_NO_PMU);
	assert_non_null(strstr(out, "bareperf sched: this CPU reports no PMU"));
	assert_non_null(strstr(out, "--cpu MODEL"));
}

/* Zen's large-increment events take a counter pair (Linux
 * pair_constraint): the table shows the odd counter beside the even one,
 * JSON names it, and a fourth pair event on six counters is explained and
 * multiplexed with the others. */
static void test_amd_pairs(void **state)
{
	assert_int_equal(run_sched("--cpu", "zen4", "-e", "fp_ret_sse_avx_ops.all,r0c0,r076", NULL),
			 EXIT_OK);
	assert_non_null(strstr(out, "  fp_ret_sse_avx_ops.all                           gp0+gp1\n"));
	assert_non_null(strstr(out, "  r0c0                                             gp2\n"));
	assert_int_equal(run_sched("--cpu", "zen4", "--json", "-e", "fp_ret_sse_avx_ops.all", NULL),
			 EXIT_OK);
	assert_non_null(strstr(out, "\"counter\": \"gp0\", \"merge_counter\": \"gp1\""));
	run_sched("--cpu", "zen4", "-e", "fp_ret_sse_avx_ops.all,fp_ret_sse_avx_ops.all,"
		  "fp_ret_sse_avx_ops.all,fp_ret_sse_avx_ops.add_sub_flops", NULL);
	assert_non_null(strstr(out, "3 of 4 events fit together"));
	assert_non_null(strstr(out, "fp_ret_sse_avx_ops.add_sub_flops: needs an even counter "
				    "and the odd one after it"));
	assert_non_null(strstr(out, "fp_ret_sse_avx_ops.all (gp4 and the next)"));
	assert_non_null(strstr(out, "fp_ret_sse_avx_ops.add_sub_flops                  75.00%"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_offcore_msrs),
		cmocka_unit_test(test_unschedulable),
		cmocka_unit_test(test_rotation_shares),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_this_cpu),
		cmocka_unit_test(test_amd_pairs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
