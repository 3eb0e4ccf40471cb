/* A DS area taken away while we sample: something
 * (firmware, an SMI handler) points IA32_DS_AREA elsewhere. The next
 * drain notices, sampling stops with the PMU left disabled, the records
 * written to our buffer before are kept, and teardown puts the value
 * pmu_open() found back. */
#include "test_sampling_support.h"

static struct ds_fixture other;	/* where "the firmware" points the CPU */

static void branches(u64 n)
{
	struct sim_occ occ = { .event = 0xC4, .umask = 0, .count = n, .ip = RUN_IP, .insn_len = 3 };
	sim_event(&occ);
}

/* icx GP0 has no PDist: the period, then the event after the overflow
 * that takes the assist (SDM Vol. 3B, PEBS). */
#define EVENTS_PER_RECORD (1009 + 1)

static void test_ds_area_moved_stops_sampling(void **state)
{
	struct sampling_opts o = opts_period(1009);
	o.threshold.mode = PEBS_THRESHOLD_ONE;
	start_sampling("icx", "BR_INST_RETIRED.ALL_BRANCHES:p", &o, false);
	branches(EVENTS_PER_RECORD * 3);
	poll_samples();
	assert_int_equal(ngot, 3);
	assert_false(smp.pmi.st.ds_area_lost);

	ds_setup(&other, 4096, 1);	/* writes IA32_DS_AREA; a PMI per record */
	u64 moved_to = (u64)(uintptr_t)other.ds;
	branches(EVENTS_PER_RECORD * 3);
	/* The record went to the other area, its PMI found the MSR changed. */
	assert_true(smp.pmi.st.ds_area_lost);
	assert_int_equal(smp.pmi.st.ds_area_moved, moved_to);
	assert_true(smp.pmi.stopped);
	assert_int_equal(sim_regs()->global_ctrl, 0);
	u64 records = model_stats().pebs_records;
	branches(1009 * 10);		/* stopped: nothing more is counted */
	sampling_tick(&smp);		/* and the timer does not restart it */
	branches(1009 * 10);
	assert_int_equal(model_stats().pebs_records, records);
	stop_sampling();
	assert_int_equal(ngot, 3);	/* ours only, none read from elsewhere */
	finish_sampling();		/* IA32_DS_AREA back to what pmu_open found */
}

/* The check on the way out catches a move no PMI saw. */
static void test_ds_area_moved_seen_at_stop(void **state)
{
	struct sampling_opts o = opts_period(1009);
	o.pebs_buffer_bytes = 64 * 1024;
	start_sampling("icx", "BR_INST_RETIRED.ALL_BRANCHES:p", &o, false);
	assert_true(smp.precise.threshold.large);
	hw_wrmsr(MSR_IA32_DS_AREA, 0);
	stop_sampling();
	assert_true(smp.pmi.st.ds_area_lost);
	assert_int_equal(smp.pmi.st.ds_area_moved, 0);
	finish_sampling();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_ds_area_moved_stops_sampling, close_model),
		cmocka_unit_test_teardown(test_ds_area_moved_seen_at_stop, close_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
