/* pmu/: the disable / add / remove / enable protocol and its MSR cost,
 * on the emulated PMU. Every figure is counted by the
 * seam (hw_stats) and, per MSR, by the model (sim_msr_writes). */
#include "test_pmu_support.h"

#define IP 0x401000

/* Writes pmu_enable() must make the first time for events on `counters`
 * (GLOBAL_CTRL layout): per event its counter value, per GP event its
 * IA32_PERFEVTSELx, once IA32_FIXED_CTR_CTRL if a fixed counter is used,
 * and IA32_PERF_GLOBAL_CTRL. */
static u64 first_enable_writes(u64 counters)
{
	u64 gp = counters & GENMASK(31, 0), fixed = counters >> GLOBAL_FIXED_SHIFT;
	return 2 * (u64)__builtin_popcountll(gp) + (u64)__builtin_popcountll(fixed) +
	       (fixed ? 1 : 0) + 1;
}

static void add_list(const char *text, int *ids, int n_expected)
{
	struct pmu_event ev[PMU_MAX_EVENTS];
	char err[512];
	int n = parse(text, ev, PMU_MAX_EVENTS);
	assert_int_equal(n, n_expected);
	for (int i = 0; i < n; i++) {
		ids[i] = pmu_add(&pmu, &ev[i], 0, err, sizeof(err));
		if (ids[i] < 0)
			fail_msg("add %s: %s", ev[i].name, err);
	}
}

static void test_open_costs_one_write(void **state)
{
	model_caps("icx");
	counts_reset();
	char err[256];
	assert_int_equal(pmu_open(&pmu, &caps, false, err, sizeof(err)), 0);
	assert_int_equal(seam_writes(), 1);
	assert_int_equal(sim_msr_writes(MSR_IA32_PERF_GLOBAL_CTRL), 1);
	pmu_close(&pmu);
}

static void test_first_enable_writes_each_counter_once(void **state)
{
	int id[4];
	open_pmu("icx");	/* pmu_open leaves it disabled: no pmu_disable here */
	add_list("instructions,cycles,branches,branch-misses", id, 4);
	counts_reset();
	pmu_enable(&pmu);
	u64 used = 0;
	for (int i = 0; i < 4; i++) {
		assert_int_not_equal(pmu_counter_of(&pmu, id[i]), COUNTER_NONE);
		used |= BIT(pmu_counter_of(&pmu, id[i]));
	}
	/* fixed counters preferred for the events that have one */
	assert_int_equal(pmu_counter_of(&pmu, id[0]), counter_fixed(0));
	assert_int_equal(pmu_counter_of(&pmu, id[1]), counter_fixed(1));
	assert_int_equal(seam_writes(), first_enable_writes(used));
	assert_int_equal(sim_msr_writes(MSR_IA32_FIXED_CTR_CTRL), 1);
	assert_int_equal(sim_msr_writes(MSR_IA32_PERF_GLOBAL_CTRL), 1);
	assert_int_equal(sim_regs()->global_ctrl, used);
	pmu_close(&pmu);
}

/* Re-enabling with nothing changed: the global enable alone. */
static void test_reenable_unchanged_is_one_write(void **state)
{
	int id[4];
	open_pmu("icx");
	add_list("instructions,cycles,branches,branch-misses", id, 4);
	pmu_enable(&pmu);
	u64 global = sim_regs()->global_ctrl;
	for (int round = 0; round < 3; round++) {
		counts_reset();
		pmu_disable(&pmu);
		assert_int_equal(seam_writes(), 1);
		assert_int_equal(sim_regs()->global_ctrl, 0);
		counts_reset();
		pmu_enable(&pmu);
		assert_int_equal(seam_writes(), 1);
		assert_int_equal(sim_msr_writes(MSR_IA32_PERF_GLOBAL_CTRL), 1);
		assert_int_equal(sim_regs()->global_ctrl, global);
	}
	/* nested disable: only the outermost pair touches the MSR */
	counts_reset();
	pmu_disable(&pmu);
	pmu_disable(&pmu);
	pmu_enable(&pmu);
	assert_int_equal(sim_regs()->global_ctrl, 0);
	pmu_enable(&pmu);
	assert_int_equal(seam_writes(), 2);
	assert_int_equal(sim_regs()->global_ctrl, global);
	pmu_close(&pmu);
}

static void test_remove_then_enable_is_global_only(void **state)
{
	int id[4];
	open_pmu("icx");
	add_list("instructions,cycles,branches,branch-misses", id, 4);
	pmu_enable(&pmu);
	int gone = pmu_counter_of(&pmu, id[2]);
	int kept[3] = { pmu_counter_of(&pmu, id[0]), pmu_counter_of(&pmu, id[1]),
			pmu_counter_of(&pmu, id[3]) };
	pmu_disable(&pmu);
	counts_reset();
	pmu_remove(&pmu, id[2]);
	pmu_enable(&pmu);
	assert_int_equal(sim_msr_writes(MSR_IA32_PERF_GLOBAL_CTRL), 1);
	assert_int_equal(seam_writes(), 1);
	assert_false(sim_regs()->global_ctrl & BIT(gone));
	assert_int_equal(pmu_counter_of(&pmu, id[0]), kept[0]);
	assert_int_equal(pmu_counter_of(&pmu, id[1]), kept[1]);
	assert_int_equal(pmu_counter_of(&pmu, id[3]), kept[2]);
	assert_int_equal(pmu_counter_of(&pmu, id[2]), COUNTER_NONE);
	pmu_close(&pmu);
}

/* An event that fits a free counter costs its EVTSEL, its counter value
 * and GLOBAL_CTRL; nothing else moves. */
static void test_add_to_free_counter_costs_three_writes(void **state)
{
	int id[3];
	open_pmu("icx");
	add_list("instructions,branches,branch-misses", id, 3);
	pmu_enable(&pmu);
	int before[3];
	for (int i = 0; i < 3; i++)
		before[i] = pmu_counter_of(&pmu, id[i]);
	pmu_disable(&pmu);
	counts_reset();
	int added = add_ok("r01c2", 0);
	pmu_enable(&pmu);
	int c = pmu_counter_of(&pmu, added);
	assert_false(counter_is_fixed(c));
	assert_int_equal(seam_writes(), 3);
	assert_int_equal(sim_msr_writes(msr_perfevtsel(counter_index(c))), 1);
	assert_int_equal(sim_msr_writes(msr_a_pmc(counter_index(c))), 1);
	assert_int_equal(sim_msr_writes(MSR_IA32_PERF_GLOBAL_CTRL), 1);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pmu_counter_of(&pmu, id[i]), before[i]);
	pmu_close(&pmu);
}

/* A group that cannot be scheduled whole is refused: no MSR access, the
 * same slots, the same counters, and the next enable costs one write. */
static void test_failed_group_add_changes_nothing(void **state)
{
	int id[6];
	open_pmu("skl");	/* 4 GP counters */
	add_list("r01c2,r02c2,r03c2,instructions", id, 4);
	pmu_enable(&pmu);
	struct pmu before = pmu;
	pmu_disable(&pmu);
	counts_reset();
	struct pmu_event g[2];
	assert_int_equal(parse("{r01c4,r00c5}", g, 2), 2);
	char err[512] = "";
	assert_int_equal(pmu_add_group(&pmu, g, 2, 0, id + 4, err, sizeof(err)), -1);
	assert_true(err[0]);
	assert_int_equal(seam_writes(), 0);
	assert_int_equal(seam_reads(), 0);
	assert_int_equal(sim_msr_accesses(), 0);
	for (int s = 0; s < PMU_MAX_EVENTS; s++) {
		assert_int_equal(pmu.slot[s].used, before.slot[s].used);
		assert_int_equal(pmu.slot[s].counter, before.slot[s].counter);
	}
	assert_false(pmu.added);
	pmu_enable(&pmu);
	assert_int_equal(seam_writes(), 1);
	pmu_close(&pmu);
}

/* Removing frees the counter at once: the same disabled section can give
 * it to a new event. */
static void test_remove_frees_counter_at_once(void **state)
{
	int id[4];
	char err[512];
	open_pmu("skl");
	add_list("r01c2,r02c2,r03c2,r04c2", id, 4);	/* every GP counter */
	pmu_enable(&pmu);
	pmu_disable(&pmu);
	struct pmu_event e = parse_one("r00c4");
	assert_int_equal(pmu_add(&pmu, &e, 0, err, sizeof(err)), -1);
	int freed = pmu_counter_of(&pmu, id[1]);
	pmu_remove(&pmu, id[1]);
	int nid = pmu_add(&pmu, &e, 0, err, sizeof(err));
	assert_true(nid >= 0);
	pmu_enable(&pmu);
	assert_int_equal(pmu_counter_of(&pmu, nid), freed);
	assert_true(sim_regs()->global_ctrl & BIT(freed));
	assert_int_equal(sim_regs()->evtsel[freed] & 0xFFFF, 0x00C4);
	pmu_close(&pmu);
}

/* An event that can only go where another already is: that one moves,
 * nobody else; the mover's count carries over to its new counter. */
static void test_reschedule_moves_fewest(void **state)
{
	int id[3];
	char err[512];
	open_pmu("icx");
	add_list("r00c4,r00c5,r01c2", id, 3);
	pmu_enable(&pmu);
	sim_events(0xC4, 0x00, 1000, IP);
	int taken = pmu_counter_of(&pmu, id[0]);
	int others[2] = { pmu_counter_of(&pmu, id[1]), pmu_counter_of(&pmu, id[2]) };
	pmu_disable(&pmu);
	struct pmu_event only = parse_one("r00c0");
	only.gp_allowed = BIT(taken);
	only.fixed_allowed = 0;
	counts_reset();
	int nid = pmu_add(&pmu, &only, 0, err, sizeof(err));
	assert_true(nid >= 0);
	pmu_enable(&pmu);
	assert_int_equal(pmu_counter_of(&pmu, nid), taken);
	int moved = pmu_counter_of(&pmu, id[0]);
	assert_int_not_equal(moved, taken);
	assert_int_equal(pmu_counter_of(&pmu, id[1]), others[0]);
	assert_int_equal(pmu_counter_of(&pmu, id[2]), others[1]);
	/* two events (re)programmed: value + EVTSEL each, then GLOBAL_CTRL */
	assert_int_equal(seam_writes(), 5);
	sim_events(0xC4, 0x00, 234, IP);
	assert_int_equal(pmu_read(&pmu, id[0]), 1234);
	pmu_close(&pmu);
}

/* pmu_close() puts every MSR back as pmu_open() found it. */
static void test_close_restores_everything(void **state)
{
	static const char *models[] = { "icx", "skl", "spr", "adl", "nhm", "hsw", "core2" };
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++) {
		struct sim_snapshot before;
		int id[4];
		model_caps(models[m]);
		sim_snapshot(&before);
		char err[256];
		if (pmu_open(&pmu, &caps, false, err, sizeof(err)))
			fail_msg("%s: %s", models[m], err);
		add_list("instructions,cycles,branches,branch-misses", id, 4);
		pmu_enable(&pmu);
		sim_run(100000, 50000, IP);
		assert_int_equal(pmu_read(&pmu, id[0]), 50000);
		pmu_disable(&pmu);
		pmu_close(&pmu);
		assert_snapshot_same(&before);
		assert_int_equal(fault_count, 0);
		sim_close();
	}
}

/* Counters the firmware left running: refused without --force (nothing
 * written), taken over with it, and given back running, as found. */
static void test_force_over_running_counters(void **state)
{
	static const char *models[] = { "icx", "skl", "nhm", "core2" };
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++) {
		struct sim_snapshot before;
		char err[512] = "";
		int id[2];
		model_caps(models[m]);
		sim_inject_counters_running();
		sim_run(5000, 2500, IP);	/* they count something first */
		sim_snapshot(&before);
		counts_reset();
		assert_int_equal(pmu_open(&pmu, &caps, false, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "--force"));
		assert_non_null(strstr(err, "gp0"));
		assert_int_equal(seam_writes(), 0);
		assert_snapshot_same(&before);

		assert_int_equal(pmu_open(&pmu, &caps, true, err, sizeof(err)), 0);
		add_list("instructions,branches", id, 2);
		pmu_enable(&pmu);
		sim_run(1000, 700, IP);
		assert_int_equal(pmu_read(&pmu, id[0]), 700);
		pmu_disable(&pmu);
		pmu_close(&pmu);
		assert_snapshot_same(&before);
		assert_int_equal(fault_count, 0);
		sim_close();
	}
}

/* Two offcore events with different response masks: the second counts on
 * MSR_OFFCORE_RSP_1 with the model's second encoding in its
 * IA32_PERFEVTSELx (perfmon files: icelakex "0xB7, 0xBB"; sapphirerapids
 * and alderlake_goldencove "0x2A,0x2B"); the first keeps its own. A later
 * event with a third mask takes MSR_OFFCORE_RSP_0 once it is free, and
 * pmu_close() puts both MSRs back. */
static void test_offcore_alternate_encoding(void **state)
{
	static const struct { const char *model; u8 event, alt_event; } models[] = {
		{ "icx", 0xB7, 0xBB }, { "spr", 0x2A, 0x2B }, { "adl", 0x2A, 0x2B },
	};
	for (size_t m = 0; m < ARRAY_SIZE(models); m++) {
		struct sim_snapshot before;
		char err[512];
		int id[3];
		model_caps(models[m].model);
		sim_snapshot(&before);
		if (pmu_open(&pmu, &caps, false, err, sizeof(err)))
			fail_msg("%s: %s", models[m].model, err);
		struct pmu_event a = parse_one("ocr.demand_data_rd.any_response");
		struct pmu_event b = parse_one("ocr.demand_data_rd.dram");
		assert_int_equal(a.event, models[m].event);
		assert_int_equal(b.extra_msr, MSR_OFFCORE_RSP_0);
		assert_int_not_equal(a.extra_value, b.extra_value);
		id[0] = pmu_add(&pmu, &a, 0, err, sizeof(err));
		id[1] = pmu_add(&pmu, &b, 0, err, sizeof(err));
		if (id[0] < 0 || id[1] < 0)
			fail_msg("%s: %s", models[m].model, err);
		pmu_enable(&pmu);
		const struct sim_cpu_regs *r = sim_regs();
		u64 sel_a = r->evtsel[pmu_counter_of(&pmu, id[0])];
		u64 sel_b = r->evtsel[pmu_counter_of(&pmu, id[1])];
		assert_int_equal(r->offcore_rsp[0], a.extra_value);
		assert_int_equal(r->offcore_rsp[1], b.extra_value);
		assert_int_equal(sel_a & 0xFF, models[m].event);
		assert_int_equal((sel_a >> 8) & 0xFF, a.umask);
		assert_int_equal(sel_b & 0xFF, models[m].alt_event);
		assert_int_equal((sel_b >> 8) & 0xFF, b.alt_umask);
		assert_true(sel_b & EVTSEL_EN);

		/* The first leaves; a third mask takes the freed RSP_0 with the
		 * own encoding while the second stays on RSP_1. */
		pmu_disable(&pmu);
		pmu_remove(&pmu, id[0]);
		struct pmu_event c = parse_one("ocr.demand_rfo.any_response");
		id[2] = pmu_add(&pmu, &c, 0, err, sizeof(err));
		if (id[2] < 0)
			fail_msg("%s: %s", models[m].model, err);
		pmu_enable(&pmu);
		assert_int_equal(r->offcore_rsp[0], c.extra_value);
		assert_int_equal(r->offcore_rsp[1], b.extra_value);
		assert_int_equal(r->evtsel[pmu_counter_of(&pmu, id[2])] & 0xFF, models[m].event);
		assert_int_equal(r->evtsel[pmu_counter_of(&pmu, id[1])] & 0xFF, models[m].alt_event);
		pmu_disable(&pmu);
		pmu_close(&pmu);
		assert_snapshot_same(&before);
		assert_int_equal(fault_count, 0);
		sim_close();
	}
}

/* A FRONTEND_RETIRED.* event's extra value goes to MSR_PEBS_FRONTEND:
 * one write on the first enable, none on a later enable with nothing
 * changed, and pmu_close() puts back what the firmware left there. A
 * second FRONTEND_RETIRED event with another value cannot share the MSR
 * (Linux: EXTRA_REG_FE is a shared register, intel_shared_regs_constraints
 * in arch/x86/events/intel/core.c). Values from the perfmon files:
 * DSB_MISS 0x11, ITLB_MISS 0x14. */
static void test_frontend_msr_programmed(void **state)
{
	static const char *const models[] = { "skl", "icx", "spr", "adl" };
	for (size_t m = 0; m < ARRAY_SIZE(models); m++) {
		struct sim_snapshot before;
		char err[512];
		model_caps(models[m]);
		hw_wrmsr(MSR_PEBS_FRONTEND, 0x12);	/* the firmware's value */
		sim_snapshot(&before);
		if (pmu_open(&pmu, &caps, false, err, sizeof(err)))
			fail_msg("%s: %s", models[m], err);
		struct pmu_event dsb = parse_one("FRONTEND_RETIRED.DSB_MISS");
		struct pmu_event itlb = parse_one("FRONTEND_RETIRED.ITLB_MISS");
		assert_int_equal(dsb.extra_msr, MSR_PEBS_FRONTEND);
		assert_int_equal(dsb.extra_value, 0x11);
		int id = pmu_add(&pmu, &dsb, 0, err, sizeof(err));
		if (id < 0)
			fail_msg("%s: %s", models[m], err);
		assert_int_equal(pmu_add(&pmu, &itlb, 0, err, sizeof(err)), -1);
		/* On skl the events are TakenAlone too (skylake_core.json). */
		if (!strstr(err, "MSR_PEBS_FRONTEND") && !strstr(err, "taken alone"))
			fail_msg("%s: '%s' names neither MSR_PEBS_FRONTEND nor taken alone",
				 models[m], err);
		counts_reset();
		pmu_enable(&pmu);
		assert_int_equal(sim_msr_writes(MSR_PEBS_FRONTEND), 1);
		assert_int_equal(sim_regs()->pebs_frontend, 0x11);
		pmu_disable(&pmu);
		pmu_enable(&pmu);
		assert_int_equal(sim_msr_writes(MSR_PEBS_FRONTEND), 1);
		pmu_disable(&pmu);
		pmu_close(&pmu);
		assert_int_equal(sim_msr_writes(MSR_PEBS_FRONTEND), 2);
		assert_snapshot_same(&before);
		assert_int_equal(fault_count, 0);
		sim_close();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_open_costs_one_write, close_model),
		cmocka_unit_test_teardown(test_first_enable_writes_each_counter_once, close_model),
		cmocka_unit_test_teardown(test_reenable_unchanged_is_one_write, close_model),
		cmocka_unit_test_teardown(test_remove_then_enable_is_global_only, close_model),
		cmocka_unit_test_teardown(test_add_to_free_counter_costs_three_writes, close_model),
		cmocka_unit_test_teardown(test_failed_group_add_changes_nothing, close_model),
		cmocka_unit_test_teardown(test_remove_frees_counter_at_once, close_model),
		cmocka_unit_test_teardown(test_reschedule_moves_fewest, close_model),
		cmocka_unit_test_teardown(test_close_restores_everything, close_model),
		cmocka_unit_test_teardown(test_force_over_running_counters, close_model),
		cmocka_unit_test_teardown(test_offcore_alternate_encoding, close_model),
		cmocka_unit_test_teardown(test_frontend_msr_programmed, close_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
