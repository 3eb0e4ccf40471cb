/* arch/caps: where the counters and global controls are (the MSR bases in
 * struct pmu_caps), checked against the SDM's MSRs for emulated models
 * with and without full-width writes, and pmu/ programming going to
 * exactly those MSRs (counted per MSR by the model). */
#include "test_pmu_support.h"

#define IP 0x401000

/* SDM Vol. 3B, "Full-Width Writes to Performance Counter Registers":
 * with IA32_PERF_CAPABILITIES.FW_WRITE[13] GP counters are written through
 * IA32_A_PMCx (4C1H on), else through IA32_PMCx (0C1H on). */
static const struct { const char *model; u32 gp_write_base; } models[] = {
	{ "icx", MSR_IA32_A_PMC0 }, { "spr", MSR_IA32_A_PMC0 }, { "adl", MSR_IA32_A_PMC0 },
	{ "skl", MSR_IA32_A_PMC0 }, { "bdw", MSR_IA32_A_PMC0 }, { "hsw", MSR_IA32_A_PMC0 },
	{ "nhm", MSR_IA32_PMC0 }, { "core2", MSR_IA32_PMC0 },
};

static void assert_intel_bases(const struct pmu_caps *c, u32 gp_write_base)
{
	assert_int_equal(c->msr_gp_counter_base, MSR_IA32_PMC0);
	assert_int_equal(c->msr_gp_counter_write_base, gp_write_base);
	assert_int_equal(c->msr_gp_event_select_base, MSR_IA32_PERFEVTSEL0);
	assert_int_equal(c->msr_fixed_counter_base, MSR_IA32_FIXED_CTR0);
	assert_int_equal(c->msr_fixed_ctr_ctrl, MSR_IA32_FIXED_CTR_CTRL);
	assert_int_equal(c->msr_global_ctrl, MSR_IA32_PERF_GLOBAL_CTRL);
	assert_int_equal(c->msr_global_status, MSR_IA32_PERF_GLOBAL_STATUS);
	assert_int_equal(c->msr_global_status_reset, MSR_IA32_PERF_GLOBAL_STATUS_RESET);
	assert_int_equal(c->msr_global_status_set, MSR_IA32_PERF_GLOBAL_STATUS_SET);
}

static void test_models_get_intel_bases(void **state)
{
	for (size_t m = 0; m < ARRAY_SIZE(models); m++) {
		model_caps(models[m].model);
		assert_int_equal(caps.full_width_write, models[m].gp_write_base == MSR_IA32_A_PMC0);
		assert_intel_bases(&caps, models[m].gp_write_base);
		unsigned last_gp = caps.num_gp - 1u, last_fixed = caps.num_fixed - 1u;
		assert_int_equal(caps_gp_counter_msr(&caps, last_gp), msr_pmc(last_gp));
		assert_int_equal(caps_gp_counter_write_msr(&caps, last_gp),
				 models[m].gp_write_base + last_gp);
		assert_int_equal(caps_gp_eventsel_msr(&caps, last_gp), msr_perfevtsel(last_gp));
		assert_int_equal(caps_fixed_counter_msr(&caps, last_fixed), msr_fixed_ctr(last_fixed));
		assert_int_equal(counter_write_msr(&caps, counter_gp(1)), models[m].gp_write_base + 1);
		assert_int_equal(counter_read_msr(&caps, counter_gp(1)), msr_pmc(1));
		assert_int_equal(counter_write_msr(&caps, counter_fixed(1)), msr_fixed_ctr(1));
		assert_int_equal(counter_read_msr(&caps, counter_fixed(1)), msr_fixed_ctr(1));
		sim_close();
	}
}

/* A GP and a fixed event enabled, read, overflowed and closed: every
 * counter and global MSR touched is the one caps names. Returns the GP
 * counter's index. */
static unsigned program_gp_and_fixed(const char *model)
{
	open_pmu(model);
	int gp_id = add_ok("r01c2", 1000), fixed_id = add_ok("instructions", 0);
	counts_reset();
	pmu_enable(&pmu);
	unsigned gp = counter_index(pmu_counter_of(&pmu, gp_id));
	unsigned fixed = counter_index(pmu_counter_of(&pmu, fixed_id));
	assert_true(counter_is_fixed(pmu_counter_of(&pmu, fixed_id)));
	assert_int_equal(sim_msr_writes(caps_gp_eventsel_msr(&caps, gp)), 1);
	assert_int_equal(sim_msr_writes(caps_gp_counter_write_msr(&caps, gp)), 1);
	assert_int_equal(sim_msr_writes(caps_fixed_counter_msr(&caps, fixed)), 1);
	assert_int_equal(sim_msr_writes(caps.msr_fixed_ctr_ctrl), 1);
	assert_int_equal(sim_msr_writes(caps.msr_global_ctrl), 1);
	assert_int_equal(seam_writes(), 5);

	sim_events(0xC2, 0x01, 1000, IP);	/* the GP counter overflows */
	assert_true(sim_regs()->global_status & global_gp_bit(gp));
	/* Counts are read by RDPMC (arch/x86/events/core.c reads them so):
	 * no counter MSR is read. */
	struct hw_stats before, after;
	hw_stats_get(&before);
	pmu_read(&pmu, gp_id);
	pmu_read(&pmu, fixed_id);
	hw_stats_get(&after);
	assert_int_equal(after.rdpmc - before.rdpmc, 2);
	assert_int_equal(sim_msr_reads(caps_gp_counter_msr(&caps, gp)), 0);
	assert_int_equal(sim_msr_reads(caps_fixed_counter_msr(&caps, fixed)), 0);

	pmu_disable(&pmu);
	pmu_close(&pmu);
	assert_int_equal(sim_msr_reads(caps.msr_global_status), 1);
	assert_int_equal(sim_msr_writes(caps.msr_global_status_reset), 1);
	assert_false(sim_regs()->global_status & global_gp_bit(gp));
	assert_int_equal(fault_count, 0);
	return gp;
}

/* Written through IA32_A_PMCx only, read through IA32_PMCx only. */
static void test_full_width_part_programs_through_a_pmc(void **state)
{
	unsigned gp = program_gp_and_fixed("icx");
	assert_true(sim_msr_writes(msr_a_pmc(gp)) > 0);
	assert_int_equal(sim_msr_writes(msr_pmc(gp)), 0);
	assert_int_equal(sim_msr_reads(msr_a_pmc(gp)), 0);
}

/* IA32_A_PMCx does not exist without FW_WRITE: never touched. */
static void test_legacy_part_programs_through_pmc(void **state)
{
	unsigned gp = program_gp_and_fixed("nhm");
	assert_true(sim_msr_writes(msr_pmc(gp)) > 0);
	assert_int_equal(sim_msr_writes(msr_a_pmc(gp)) + sim_msr_reads(msr_a_pmc(gp)), 0);
}

/* Perfmon v6 (Lunar Lake): every counter through the 1900H block, as
 * Linux from 6.11 ("Support V6+ MSR Aliasing", intel_pmu_init: perfctr,
 * eventsel and fixedctr at MSR_IA32_PMC_V6_*, 4 apart); the legacy
 * aliases are never touched. */
static void test_v6_part_programs_through_its_block(void **state)
{
	model_caps("lnl");
	assert_int_equal(caps.msr_gp_counter_base, MSR_IA32_PMC_GP0_CTR);
	assert_int_equal(caps.msr_gp_counter_write_base, MSR_IA32_PMC_GP0_CTR);
	assert_int_equal(caps.msr_gp_event_select_base, MSR_IA32_PMC_GP0_CFG_A);
	assert_int_equal(caps.msr_fixed_counter_base, MSR_IA32_PMC_FX0_CTR);
	assert_int_equal(caps.msr_fixed_ctr_ctrl, MSR_IA32_FIXED_CTR_CTRL);
	assert_int_equal(caps.msr_global_ctrl, MSR_IA32_PERF_GLOBAL_CTRL);
	assert_int_equal(counter_write_msr(&caps, counter_gp(9)), 0x1924);
	assert_int_equal(counter_read_msr(&caps, counter_fixed(3)), 0x198C);
	sim_close();
	unsigned gp = program_gp_and_fixed("lnl");
	assert_true(sim_msr_writes(msr_v6_gp_ctr(gp)) > 0);
	assert_true(sim_msr_writes(msr_v6_gp_cfg_a(gp)) > 0);
	for (unsigned i = 0; i < MSR_LEGACY_GP_MAX; i++)
		assert_int_equal(sim_msr_writes(msr_pmc(i)) + sim_msr_writes(msr_a_pmc(i)) +
				 sim_msr_writes(msr_perfevtsel(i)) + sim_msr_reads(msr_pmc(i)) +
				 sim_msr_reads(msr_perfevtsel(i)), 0);
	for (unsigned i = 0; i < MSR_LEGACY_FIXED_MAX; i++)
		assert_int_equal(sim_msr_writes(msr_fixed_ctr(i)) + sim_msr_reads(msr_fixed_ctr(i)), 0);
}

/* All ten of Lion Cove's GP counters take events at once, counters 8
 * and 9 through the 1900H block only, and each counts. */
static void test_v6_ten_gp_counters_count(void **state)
{
	open_pmu("lnl");
	int ids[10];
	for (unsigned k = 0; k < 10; k++)
		ids[k] = add_ok("r01c2", 0);
	counts_reset();
	pmu_enable(&pmu);
	unsigned used = 0;
	for (unsigned k = 0; k < 10; k++) {
		int counter = pmu_counter_of(&pmu, ids[k]);
		assert_false(counter_is_fixed(counter));
		used |= 1u << counter_index(counter);
	}
	assert_int_equal(used, 0x3FF);
	assert_int_equal(sim_msr_writes(msr_v6_gp_cfg_a(9)), 1);
	sim_events(0xC2, 0x01, 1234, IP);
	for (unsigned k = 0; k < 10; k++)
		assert_int_equal(pmu_read(&pmu, ids[k]), 1234);
	pmu_disable(&pmu);
	pmu_close(&pmu);
	assert_int_equal(fault_count, 0);
}

/* Skymont has fixed counters 0-2 and 4-6 (CPUID.23H.1:EBX = 0x77): an
 * event only fixed counter 5 counts goes there, at 1980H + 4 * 5. */
static void test_v6_sparse_fixed_counter(void **state)
{
	char err[512];
	open_model("lnl");
	sim_set_cpu(1);
	pmu_caps_read(&caps);
	assert_int_equal(caps.fixed_mask, 0x77);
	assert_int_equal(pmu_open(&pmu, &caps, false, err, sizeof(err)), 0);
	int id = add_ok("topdown_fe_bound.all", 0);
	counts_reset();
	pmu_enable(&pmu);
	int counter = pmu_counter_of(&pmu, id);
	assert_true(counter_is_fixed(counter));
	assert_int_equal(counter_index(counter), 5);
	assert_int_equal(sim_msr_writes(msr_v6_fx_ctr(5)), 1);
	assert_true(sim_regs()->fixed_ctrl & fixed_ctrl_field(5, FIXED_CTRL_OS));
	assert_true(sim_regs()->global_ctrl & global_fixed_bit(5));
	pmu_disable(&pmu);
	pmu_close(&pmu);
	assert_int_equal(fault_count, 0);
	sim_set_cpu(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_models_get_intel_bases, close_model),
		cmocka_unit_test_teardown(test_full_width_part_programs_through_a_pmc, close_model),
		cmocka_unit_test_teardown(test_legacy_part_programs_through_pmc, close_model),
		cmocka_unit_test_teardown(test_v6_part_programs_through_its_block, close_model),
		cmocka_unit_test_teardown(test_v6_ten_gp_counters_count, close_model),
		cmocka_unit_test_teardown(test_v6_sparse_fixed_counter, close_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
