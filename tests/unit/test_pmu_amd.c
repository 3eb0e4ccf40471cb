/* pmu/amd.c's protocol driven against the AMD models (sim:zen4 with
 * PerfMonV2, sim:zen2 with PERF_CTL.En as the only enable): counting,
 * PMI-mode sampling, and pmu_close() putting back every register and the
 * APIC as pmu_open() found them. Raw events (r0c0: AMD's ex_ret_instr,
 * r076: ls_not_halted_cyc) as the named AMD event tables are not in yet. */
#include "test_sampling_support.h"

static const char *amd_models[] = { "zen4", "zen2" };

/* Counting (APM Vol. 2: En, and PerfMonV2's global enable): exact
 * retired instructions and cycles, and nothing but them changed after
 * close. */
static void test_counting_and_close(void **state)
{
	for (size_t m = 0; m < ARRAY_SIZE(amd_models); m++) {
		struct sim_snapshot before;
		model_caps(amd_models[m]);
		sim_snapshot(&before);
		char err[256];
		if (pmu_open(&pmu, &caps, false, err, sizeof(err)))
			fail_msg("pmu_open(%s): %s", amd_models[m], err);
		int inst = add_ok("r0c0", 0), cyc = add_ok("r076", 0);
		pmu_enable(&pmu);
		sim_run(200000, 123457, 0x1000);
		pmu_disable(&pmu);
		sim_run(1000, 1000, 0x1000);	/* disabled: not counted */
		assert_int_equal(pmu_read(&pmu, inst), 123457);
		assert_int_equal(pmu_read(&pmu, cyc), 200000);
		pmu_close(&pmu);
		assert_snapshot_same(&before);
		assert_int_equal(fault_count, 0);
		struct sim_stats st;
		sim_stats_total(&st);
		assert_int_equal(st.reserved_dropped, 0);	/* bareperf sets no reserved bit */
		sim_close();
	}
}

/* PMI-mode sampling: the counter preset to -period overflows after period
 * events; the PMI (AMD: LVT PC not masked by the APIC) samples and
 * presets again. zen4 finds the overflow in PerfCntrGlobalStatus, zen2
 * by the counter's top bit (Linux x86_pmu_handle_irq). Teardown and
 * close leave the PMU and APIC as found. */
static void test_sampling_pmi(void **state)
{
	for (size_t m = 0; m < ARRAY_SIZE(amd_models); m++) {
		struct sampling_opts o = opts_period(10007);
		start_sampling(amd_models[m], "r0c0,r076", &o, false);
		sim_run(600000, 300000, run_ip);
		stop_sampling();
		struct sim_stats st = model_stats();
		u32 per_event[2] = { 0 };
		for (u32 i = 0; i < ngot; i++) {
			assert_int_equal(got[i].ip, RUN_IP);
			per_event[got[i].event]++;
		}
		assert_int_equal(per_event[0], 300000 / 10007);
		assert_int_equal(per_event[1], 600000 / 10007);
		assert_int_equal(st.pmis_delivered, smp.pmi.st.pmis);
		assert_int_equal(smp.pmi.st.spurious + smp.pmi.st.unexpected, 0);
		assert_int_equal(pmu_read(&pmu, smp.id[0]), 300000);
		assert_accounting(st.overflows);
		finish_sampling();
		sim_close();
	}
}

/* Firmware left counter 0 counting (sim_inject_counters_running): open
 * refuses without --force, and with it stops the counter and puts it back
 * counting at close. */
static void test_force_over_firmware_counter(void **state)
{
	for (size_t m = 0; m < ARRAY_SIZE(amd_models); m++) {
		char err[256];
		model_caps(amd_models[m]);
		sim_inject_counters_running();
		struct sim_snapshot before;
		sim_snapshot(&before);
		assert_int_equal(pmu_open(&pmu, &caps, false, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "already running"));
		assert_int_equal(pmu_open(&pmu, &caps, true, err, sizeof(err)), 0);
		add_ok("r0c0", 0);
		pmu_enable(&pmu);
		sim_run(100, 100, 0x1000);
		pmu_close(&pmu);
		assert_snapshot_same(&before);
		assert_int_equal(fault_count, 0);
		sim_close();
	}
}

static void fp_burst(u64 count)
{
	struct sim_occ o = { .event = AMD_EVENT_FP_RET_SSE_AVX_OPS, .umask = 0x01,
			     .count = count, .per_cycle = 64, .ip = RUN_IP };
	sim_event(&o);
}

/* A large-increment event (fp_ret_sse_avx_ops, 64 a cycle here) beside
 * four others fills Zen's six counters: it gets an even counter, its odd
 * neighbour counts the Merge event and no other event (Linux
 * pair_constraint and __x86_pmu_enable_event), so every FLOP counts; on
 * a lone counter the model adds at most 15 a cycle. Close puts the Merge
 * counter back as found. */
static void test_large_increment_pair(void **state)
{
	for (size_t m = 0; m < ARRAY_SIZE(amd_models); m++) {
		struct sim_snapshot before;
		char err[256];
		model_caps(amd_models[m]);
		sim_snapshot(&before);
		if (pmu_open(&pmu, &caps, false, err, sizeof(err)))
			fail_msg("pmu_open(%s): %s", amd_models[m], err);
		int other[4];
		for (int i = 0; i < 4; i++)
			other[i] = add_ok(i % 2 ? "r076" : "r0c0", 0);
		int fp = add_ok("fp_ret_sse_avx_ops.all", 0);
		pmu_enable(&pmu);
		int c = pmu_counter_of(&pmu, fp);
		assert_int_equal(c % 2, 0);
		for (int i = 0; i < 4; i++)
			assert_true(pmu_counter_of(&pmu, other[i]) != c + 1);
		fp_burst(64 * 5000 + 7);
		sim_run(1000, 900, RUN_IP);
		pmu_disable(&pmu);
		assert_int_equal(pmu_read(&pmu, fp), 320007);
		assert_int_equal(pmu_read(&pmu, other[0]), 900);
		assert_int_equal(pmu_read(&pmu, other[1]), 1000);
		/* the pair gone, Merge leaves its odd counter (Linux
		 * x86_pmu_disable_event writes 0 there) */
		u32 odd_ctl = caps_gp_eventsel_msr(&caps, (unsigned)c + 1);
		assert_true(AMD_EVTSEL_EVENT_12BIT(hw_rdmsr(odd_ctl)) == AMD_EVENT_MERGE);
		pmu_remove(&pmu, fp);
		pmu_enable(&pmu);
		assert_int_equal(hw_rdmsr(odd_ctl), 0);
		pmu_disable(&pmu);
		pmu_close(&pmu);
		assert_snapshot_same(&before);
		assert_int_equal(fault_count, 0);
		sim_close();
	}
}

/* Sampling a large-increment event: the pair overflows with its even
 * counter (the odd one preset to 0xffff on every preset, as Linux's
 * x86_perf_event_set_period does), one sample per period. */
static void test_large_increment_sampling(void **state)
{
	for (size_t m = 0; m < ARRAY_SIZE(amd_models); m++) {
		struct sampling_opts o = opts_period(10007);
		start_sampling(amd_models[m], "fp_ret_sse_avx_ops.all", &o, false);
		for (int k = 0; k < 10; k++)
			fp_burst(64 * 1000);
		stop_sampling();
		struct sim_stats st = model_stats();
		assert_int_equal(ngot, 640000 / 10007);
		assert_int_equal(pmu_read(&pmu, smp.id[0]), 640000);
		assert_accounting(st.overflows);
		finish_sampling();
		sim_close();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_counting_and_close, close_model),
		cmocka_unit_test_teardown(test_sampling_pmi, close_model),
		cmocka_unit_test_teardown(test_force_over_firmware_counter, close_model),
		cmocka_unit_test_teardown(test_large_increment_pair, close_model),
		cmocka_unit_test_teardown(test_large_increment_sampling, close_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
