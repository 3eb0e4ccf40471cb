/* pmu/: counts against the model's exact numbers, 64-bit counts across
 * counter wrap, legacy and full-width counter writes. */
#include "test_pmu_support.h"
#include "pmu/counter.h"

#define IP 0x401000

static void test_counts_match_model(void **state)
{
	static const char *models[] = { "icx", "skl", "spr", "adl", "nhm", "hsw", "core2" };
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++) {
		int id[5];
		struct pmu_event ev[5];
		char err[256];
		open_pmu(models[m]);
		/* core2 has two GP counters: no raw event there */
		int n = parse(caps.num_gp > 2 ? "cycles,instructions,branches,r003c,r01c2"
			      : "cycles,instructions,branches,r003c", ev, 5);
		for (int i = 0; i < n; i++)
			if ((id[i] = pmu_add(&pmu, &ev[i], 0, err, sizeof(err))) < 0)
				fail_msg("%s: %s", models[m], err);
		pmu_enable(&pmu);
		sim_run(1000003, 400009, IP);
		sim_events(0xC4, 0x00, 77777, IP);	/* branches */
		sim_events(0xC2, 0x01, 31337, IP);	/* UOPS_RETIRED.ALL, injected */
		sim_run(500000, 200000, IP + 64);
		pmu_disable(&pmu);
		sim_run(999, 999, IP);			/* not counted: disabled */
		assert_int_equal(pmu_read(&pmu, id[0]), 1500003);
		assert_int_equal(pmu_read(&pmu, id[1]), 600009);
		assert_int_equal(pmu_read(&pmu, id[2]), 77777);
		assert_int_equal(pmu_read(&pmu, id[3]), 1500003);	/* core cycles on a GP counter */
		if (n > 4)	/* the injected uops and one per instruction run */
			assert_int_equal(pmu_read(&pmu, id[4]), 31337 + 600009);
		pmu_close(&pmu);
		sim_close();
	}
}

/* An event added and placed (pmu_commit_schedule) but not yet enabled has
 * counted nothing: its counter still holds its previous owner's value. */
static void test_read_before_first_enable_is_zero(void **state)
{
	open_pmu("icx");
	int a = add_ok("r01c2", 0);
	pmu_enable(&pmu);
	sim_events(0xC2, 0x01, 5000, IP);
	pmu_disable(&pmu);
	int c = pmu_counter_of(&pmu, a);
	pmu_remove(&pmu, a);
	struct pmu_event e = parse_one("r00c4");
	e.gp_allowed = BIT(c);	/* lands on the counter that holds 5000 */
	char err[256];
	int b = pmu_add(&pmu, &e, 0, err, sizeof(err));
	assert_true(b >= 0);
	pmu_commit_schedule(&pmu);
	assert_int_equal(pmu_counter_of(&pmu, b), c);
	assert_int_equal(pmu_read(&pmu, b), 0);
	pmu_enable(&pmu);
	sim_events(0xC4, 0x00, 10, IP);
	assert_int_equal(pmu_read(&pmu, b), 10);
	pmu_close(&pmu);
}

/* SDM 20.2.1: counters are gp_width bits wide and wrap; the 64-bit count
 * survives as long as it is read at least once per wrap. The events come
 * in bursts (many per cycle), the model's fast path for huge counts. */
static void test_counts_survive_wrap(void **state)
{
	static const char *models[] = { "icx", "core2" };	/* 48 and 40 bits */
	for (size_t m = 0; m < 2; m++) {
		open_pmu(models[m]);
		int id = add_ok("r01c2", 0);
		pmu_enable(&pmu);
		u64 width = caps.gp_width, chunk = (1ULL << (width - 1)) + 12345, total = 0;
		for (int k = 0; k < 9; k++) {	/* 4.5 wraps of the counter */
			struct sim_occ o = { .event = 0xC2, .umask = 0x01, .count = chunk,
					     .per_cycle = 1u << 30, .ip = IP };
			sim_event(&o);
			total += chunk;
			assert_int_equal(pmu_read(&pmu, id), total);
		}
		assert_int_equal(fault_count, 0);
		assert_true(total > (1ULL << width) * 4);
		assert_true(total > (1ULL << 48) || width < 48);
		pmu_close(&pmu);
		sim_close();
	}
}

/* Full-width writes (PERF_CAPABILITIES[13]) go to IA32_A_PMCx; without
 * them (nhm, core2) to IA32_PMCx, which keeps bits 31:0 and sign-extends
 * bit 31 (SDM 20.2.5), so a period of up to 2^31 is preset exactly. */
static void test_legacy_and_full_width_writes(void **state)
{
	struct { const char *model; bool fw; } cases[] = {
		{ "icx", true }, { "skl", true }, { "nhm", false }, { "core2", false },
	};
	for (size_t m = 0; m < sizeof(cases) / sizeof(cases[0]); m++) {
		open_pmu(cases[m].model);
		assert_int_equal(caps.full_width_write, cases[m].fw);
		u64 max = counter_max_period(&caps, counter_gp(0));
		assert_int_equal(max, cases[m].fw ? caps_gp_mask_value(&caps) >> 1 : 1ULL << 31);
		assert_int_equal(counter_max_period(&caps, counter_fixed(0)),
				 caps_fixed_mask_value(&caps) >> 1);
		counts_reset();
		int id = add_ok("r01c2", max);	/* PMI mode, the longest period */
		pmu_enable(&pmu);
		unsigned i = counter_index(pmu_counter_of(&pmu, id));
		assert_int_equal(sim_msr_writes(msr_pmc(i)), cases[m].fw ? 0 : 1);
		if (cases[m].fw)
			assert_int_equal(sim_msr_writes(msr_a_pmc(i)), 1);
		assert_int_equal(sim_regs()->pmc[i], counter_preset(&caps, counter_gp(i), max));
		assert_int_equal(sim_regs()->pmc[i], (0 - max) & caps_gp_mask_value(&caps));
		/* max - 1 events: no overflow yet; one more: overflow */
		sim_events(0xC2, 0x01, max - 1, IP);
		assert_false(sim_regs()->global_status & BIT(i));
		assert_int_equal(pmu_read(&pmu, id), max - 1);
		pmu_disable(&pmu);
		pmu_close(&pmu);
		assert_int_equal(fault_count, 0);
		sim_close();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_counts_match_model, close_model),
		cmocka_unit_test_teardown(test_read_before_first_enable_is_zero, close_model),
		cmocka_unit_test_teardown(test_counts_survive_wrap, close_model),
		cmocka_unit_test_teardown(test_legacy_and_full_width_writes, close_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
