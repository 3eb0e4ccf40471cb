/* sampling/sampling with PEBS on the emulated PMU: one
 * record per PMI, large PEBS, several PEBS counters at once, a full DS
 * buffer, a corrupted index; on every model with PEBS, formats 0 to 4.
 * The accounting invariant is checked in each, and the PMU and APIC are
 * compared with their state before pmu_open() at the end. */
#include "test_sampling_support.h"

static const char *pebs_models[] = { "icx", "skl", "spr", "adl", "nhm", "hsw", "core2" };
#define NPEBS (sizeof(pebs_models) / sizeof(pebs_models[0]))

/* The model table's PEBS branch event, :p: BR_INST_RETIRED.ALL_BRANCHES_PEBS
 * where the file has it (Haswell to Skylake: umask 4, the plain event has
 * no PEBS), else BR_INST_RETIRED.ALL_BRANCHES. Core 2 has no table (no
 * perfmon file; the parser refuses :p there), so the event is built as a
 * table would give it: PEBS on PMC0 only (SDM 18.6.2.4: format 0 PEBS is
 * on IA32_PMC0 only). */
static struct pmu_event pebs_event(void)
{
	const struct event_table *t = event_table_for_caps(&caps);
	if (t)
		return parse_one(event_find(t, "BR_INST_RETIRED.ALL_BRANCHES_PEBS")
				 ? "BR_INST_RETIRED.ALL_BRANCHES_PEBS:p"
				 : "BR_INST_RETIRED.ALL_BRANCHES:p");
	struct pmu_event e = parse_one("r00c4");
	snprintf(e.name, sizeof(e.name), "r00c4:p");
	e.precise = 1;
	e.pebs_gp = caps.pebs_format == 0 ? 1u : caps.gp_mask;
	e.gp_allowed &= e.pebs_gp;
	return e;
}

static u8 pebs_umask;	/* of the event being sampled (0xC4 / umask) */

static void start_pebs(const char *model, int nevents, const struct sampling_opts *o)
{
	struct pmu_event ev[2];
	model_caps(model);
	for (int i = 0; i < nevents; i++)
		ev[i] = pebs_event();
	assert_int_equal(ev[0].event, 0xC4);
	pebs_umask = ev[0].umask;
	start_events(ev, nevents, o, false);
}

/* n branches at ip, one instruction each (3 bytes long). */
static void branches(u64 n, u64 ip)
{
	struct sim_occ occ = { .event = 0xC4, .umask = pebs_umask, .count = n, .ip = ip, .insn_len = 3 };
	sim_event(&occ);
}

/* Formats 0 and 1 report the next instruction; 2+ the eventing IP. */
static u64 expected_ip(u64 ip)
{
	return caps.pebs_format >= 2 ? ip : ip + 3;
}

/* Events between two records of the event in slot `k`: the period, and on
 * a counter without PDist one more, the event after the overflow that
 * takes the assist (SDM Vol. 3B, PEBS: "Upon occurrence of the next PEBS
 * event, the PEBS hardware triggers an assist"). The sample's period stays
 * the one programmed, as Linux reports it. */
static u64 events_per_record(int k, u64 period)
{
	int counter = pmu_counter_of(&pmu, smp.id[k]);
	return period + !sim_pebs_at_overflow((unsigned)counter);
}

static void assert_pebs_accounting(void)
{
	struct sim_stats st = model_stats();
	assert_accounting(st.pebs_records + st.pebs_lost);
}

/* --pebs-threshold 1: a PMI per record, a sample per record. */
static void test_one_record_pebs_every_model(void **state)
{
	for (size_t m = 0; m < NPEBS; m++) {
		struct sampling_opts o = opts_period(1009);
		o.threshold.mode = PEBS_THRESHOLD_ONE;
		start_pebs(pebs_models[m], 1, &o);
		assert_int_equal(smp.precise.threshold.records, 1);
		branches(events_per_record(0, 1009) * 50 + 7, RUN_IP);
		struct sim_stats st = model_stats();
		assert_int_equal(st.pebs_records, 50);
		assert_int_equal(st.pmis_delivered, 50);
		assert_int_equal(smp.pmi.st.buffer_pmis, 50);
		stop_sampling();
		assert_int_equal(ngot, 50);
		for (u32 i = 0; i < ngot; i++) {
			assert_int_equal(got[i].ip, expected_ip(RUN_IP));
			assert_int_equal(got[i].period, 1009);
		}
		assert_pebs_accounting();
		finish_sampling();
		sim_close();
	}
}

/* -c below SAMPLING_MIN_PEBS_PERIOD: PEBS events get the shortest PEBS
 * period, records carry it, and the mode line says what was asked. */
static void test_short_pebs_period_raised(void **state)
{
	struct sampling_opts o = opts_period(2);
	o.threshold.mode = PEBS_THRESHOLD_ONE;
	start_pebs("icx", 1, &o);
	assert_int_equal(smp.period[0], SAMPLING_MIN_PEBS_PERIOD);
	assert_int_equal(smp.pebs_period_asked, 2);
	char line[320];
	sampling_describe(&smp, line, sizeof(line));
	assert_non_null(strstr(line, "PEBS events sample every 128 events, not 2"));
	branches(events_per_record(0, SAMPLING_MIN_PEBS_PERIOD) * 10, RUN_IP);
	stop_sampling();
	assert_int_equal(ngot, 10);
	assert_int_equal(got[0].period, SAMPLING_MIN_PEBS_PERIOD);
	assert_pebs_accounting();
	finish_sampling();
}

/* Large PEBS (format 3+ with a fixed period and only fields the record
 * has): one PMI per threshold's worth of records. */
static void test_large_pebs_one_pmi_per_threshold(void **state)
{
	static const char *models[] = { "icx", "skl", "spr", "adl" };
	for (size_t m = 0; m < 4; m++) {
		struct sampling_opts o = opts_period(131);
		o.pebs_buffer_bytes = 64 * 1024;
		start_pebs(models[m], 1, &o);
		u64 threshold = smp.precise.threshold.records;
		assert_true(smp.precise.threshold.large);
		assert_true(threshold > 100);
		u64 records = 3 * threshold + threshold / 2;
		branches(events_per_record(0, 131) * records, RUN_IP);
		struct sim_stats st = model_stats();
		assert_int_equal(st.pebs_records, records);
		assert_int_equal(st.pmis_delivered, records / threshold);
		assert_int_equal(smp.pmi.st.pmis, records / threshold);
		assert_int_equal(st.pebs_lost, 0);
		/* the half buffer below the threshold waits, and progress
		 * lines can see it (issue 39 item 16) */
		assert_int_equal(sampling_pending(&smp), records % threshold);
		stop_sampling();			/* drains the last half buffer */
		assert_int_equal(ngot, records);
		assert_pebs_accounting();
		finish_sampling();
		sim_close();
	}
}

/* Two PEBS counters overflowing together share one record (SDM 18.6.2.4
 * applicable counters). Format 3+: one sample per counter bit. Formats
 * 1-2 store GLOBAL_STATUS: a record with two bits is a collision, both
 * samples lost and counted. On Alder Lake, GP0 has PDist and writes its
 * record at the overflow, GP1 at the event after: two records apart,
 * drifting by one event each period. */
static void test_several_pebs_counters(void **state)
{
	static const struct { const char *model; bool exact; } cases[] = {
		{ "icx", true }, { "skl", true }, { "adl", true }, { "hsw", false }, { "nhm", false },
	};
	for (size_t m = 0; m < sizeof(cases) / sizeof(cases[0]); m++) {
		struct sampling_opts o = opts_period(1009);
		o.threshold.mode = PEBS_THRESHOLD_ONE;
		start_pebs(cases[m].model, 2, &o);
		u64 per[2] = { events_per_record(0, 1009), events_per_record(1, 1009) };
		bool together = per[0] == per[1];
		branches(MAX(per[0], per[1]) * 20, RUN_IP);
		stop_sampling();
		struct sim_stats st = model_stats();
		assert_int_equal(st.pebs_records, together ? 20 : 40);
		if (cases[m].exact) {
			assert_int_equal(ngot, 40);
			u32 per_event[2] = { 0 };
			for (u32 i = 0; i < ngot; i++)
				per_event[got[i].event]++;
			assert_int_equal(per_event[0], 20);
			assert_int_equal(per_event[1], 20);
		} else {
			assert_true(together);
			assert_int_equal(ngot, 0);
			assert_int_equal(smp.precise.loss.lost[PEBS_LOST_COLLISION], 40);
		}
		/* every record owes one sample per counter bit in it */
		assert_accounting((together ? 2 : 1) * (st.pebs_records + st.pebs_lost));
		finish_sampling();
		sim_close();
	}
}

/* A PMI-mode counter overflows at the very event where the PEBS counter
 * overflows and arms: the PMI finds the PEBS counter's bit set with its
 * record still to come. The handler must leave that counter alone (Linux's
 * handle_pmi_common leaves PEBS counters to the drain): presetting it
 * would replace the armed overflow and lose the record. */
static void test_pmi_while_pebs_armed(void **state)
{
	struct sampling_opts o = opts_period(1009);
	o.threshold.mode = PEBS_THRESHOLD_ONE;
	struct pmu_event ev[2];
	model_caps("icx");
	ev[0] = pebs_event();
	ev[1] = parse_one("BR_INST_RETIRED.ALL_BRANCHES");	/* PMI mode */
	pebs_umask = ev[0].umask;
	start_events(ev, 2, &o, false);
	u64 per = events_per_record(0, 1009);
	assert_int_equal(per, 1010);
	branches(per * 5, RUN_IP);
	stop_sampling();
	u32 per_event[2] = { 0 };
	for (u32 i = 0; i < ngot; i++)
		per_event[got[i].event]++;
	assert_int_equal(per_event[0], 5);			/* no record lost */
	assert_int_equal(per_event[1], per * 5 / 1009);
	assert_int_equal(smp.pmi.st.pebs_pending, 1);	/* the first: together */
	assert_int_equal(smp.pmi.st.pebs_preset, 0);
	finish_sampling();
}

/* The PMI cannot be taken (LVT PC masked, as with interrupts off): the
 * buffer fills to absolute maximum and the CPU drops records. The drain
 * sees and reports the full buffer, but the number of records dropped is
 * not knowable (the CPU keeps no count and the counter auto-reloads), so
 * the buffer-full loss is reported as an event, not in samples: the
 * invariant holds for the records the CPU wrote. */
static void test_full_ds_buffer(void **state)
{
	struct sampling_opts o = opts_period(131);
	o.pebs_buffer_bytes = 4096;
	o.threshold.mode = PEBS_THRESHOLD_ONE;
	start_pebs("icx", 1, &o);
	u64 max = smp.precise.ds.max_records;
	/* The PMI at each record does not come (LVT PC masked, as while the
	 * firmware runs with interrupts off and the PMI waits): the buffer
	 * fills, and the next overflow's assist is skipped, without a reload
	 * (SDM Vol. 3B: "If the bounds checks fail, the PEBS will be skipped
	 * entirely"), so the counter counts on from zero and overflows no
	 * more: one assist lost, whatever comes after. */
	hw_mmio_write32(XAPIC_BASE + APIC_LVT_PERFCNT, APIC_LVT_MASKED | smp.pmi.vector);
	branches(events_per_record(0, 131) * (max + 25), RUN_IP);
	struct sim_stats st = model_stats();
	assert_int_equal(st.pebs_records, max);
	assert_int_equal(st.pebs_lost, 1);
	assert_int_equal(st.pmis_delivered, 0);
	/* The waiting PMI arrives: the handler drains the full buffer and,
	 * seeing the counter's overflow bit still set, presets it again, so
	 * sampling goes on: 10 more records, a PMI each. */
	hw_mmio_write32(XAPIC_BASE + APIC_LVT_PERFCNT, smp.pmi.vector);
	sim_inject_spurious_pmi();
	branches(events_per_record(0, 131) * 10, RUN_IP);
	st = model_stats();
	assert_int_equal(st.pebs_records, max + 10);
	assert_int_equal(st.pebs_lost, 1);
	stop_sampling();
	assert_int_equal(ngot, max + 10);
	assert_int_equal(smp.precise.loss.buffer_was_full, 1);
	assert_int_equal(smp.pmi.st.pebs_preset, 1);
	char line[256];
	pebs_loss_describe(&smp.precise.loss, line, sizeof(line));
	assert_non_null(strstr(line, "absolute max"));
	assert_accounting(st.pebs_records);
	finish_sampling();
}

/* An index the CPU would never leave: beyond absolute max, or not on a
 * record boundary. It is clamped and counted, never followed; the samples
 * delivered are the records really written.
 * With a one-record threshold (hsw: fmt2; core2: fmt0) the buffer still
 * holds the last record, drained at its PMI, at base: the clamped walk
 * meets it again and must count it stale, not deliver it twice. */
static void test_corrupted_index(void **state)
{
	static const char *models[] = { "icx", "skl", "hsw", "core2" };
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++) {
		for (int kind = 0; kind < 2; kind++) {
			struct sampling_opts o = opts_period(1009);
			o.pebs_buffer_bytes = 8192;
			start_pebs(models[m], 1, &o);
			u32 size = smp.precise.ds.layout.record_size;
			branches(events_per_record(0, 1009) * 3, RUN_IP);	/* three real records */
			u64 real = model_stats().pebs_records;
			assert_int_equal(real, 3);
			sim_inject_pebs_index(kind == 0 ? smp.precise.ds.abs_max + 4096
					      : smp.precise.ds.base + 3 * size + 8);
			stop_sampling();
			if (kind == 0)
				assert_int_equal(smp.precise.loss.index_beyond_max, 1);
			else
				assert_int_equal(smp.precise.loss.index_misaligned, 1);
			/* Beyond max, the walk meets only stale slots after the
			 * records written since the last drain: none at a
			 * one-record threshold (the last record, drained at its
			 * PMI, sits at base), three otherwise. */
			if (kind == 0)
				assert_int_equal(smp.precise.loss.stale_records,
						 smp.precise.ds.max_records - (smp.precise.ds.threshold_records == 1 ? 0 : 3));
			if (ngot != 3) fail_msg("%s kind %d: %u samples", models[m], kind, ngot);
			assert_true(pebs_loss_balanced(&smp.precise.loss));
			assert_true(sampling_lost(&smp) >= 1);	/* reported, not silent */
			finish_sampling();
			sim_close();
		}
	}
}

/* Three PEBS records' worth of loads of event/umask (latency 321 cycles,
 * instruction latency 9, data at 0x7000) on the sampling started; each of
 * the 3 samples is event 0's, with want_weight as its load latency (perf's
 * var1) and want_instr as its instruction latency (var2); then the PMU is
 * given back and the model closed. */
static void loads_sampled(u8 event, u8 umask, u64 want_weight, u64 want_instr)
{
	struct sim_occ occ = { .event = event, .umask = umask,
			       .count = events_per_record(0, 131) * 3, .ip = RUN_IP,
			       .insn_len = 4, .data_addr = 0x7000, .latency = 321,
			       .instr_latency = 9, .data_src = 0x4 };
	sim_event(&occ);
	stop_sampling();
	assert_int_equal(ngot, 3);
	for (u32 k = 0; k < ngot; k++) {
		assert_int_equal(got[k].event, 0);
		assert_int_equal(got[k].weight & BP_WEIGHT_LOAD_MASK, want_weight);
		assert_int_equal(got[k].weight >> BP_WEIGHT_INSTR_SHIFT & BP_WEIGHT_W_MASK, want_instr);
		assert_int_equal(got[k].addr, 0x7000);
	}
	assert_pebs_accounting();
	finish_sampling();
	sim_close();
}


/* The weight of a load sample is its load latency on every modelled
 * part: icx writes it whole, spr and adl's P-core split the field
 * (instruction latency [15:0], cache latency [47:32]; Linux's struct
 * pebs_meminfo) and the decoder must take the cache latency, and the
 * instruction latency as perf's var2 (Linux setup_pebs_adaptive_sample_data,
 * PMU_FL_INSTR_LATENCY). */
static void test_load_weight_per_part(void **state)
{
	static const char *const models[] = { "icx", "spr", "adl" };
	for (size_t m = 0; m < ARRAY_SIZE(models); m++) {
		struct sampling_opts o = opts_period(131);
		o.threshold.mode = PEBS_THRESHOLD_ONE;
		start_sampling(models[m], "MEM_LOAD_RETIRED.L3_MISS:pp", &o, false);
		assert_int_equal(caps_pebs_latency_split(&caps), m > 0);
		loads_sampled(0xD1, 0x20, 321, m > 0 ? 9 : 0);
	}
}

/* Load latency on Golden Cove (Linux:
 * PMU_FL_MEM_LOADS_AUX): the model reports a load's latency and data
 * source only while the auxiliary event counts beside it, and bareperf
 * adds that event (count only, in the load-latency event's group, after
 * the events typed) on spr and on the adl P-core, not on icx. Without it,
 * as the list would be without bareperf's rule, the weight is lost. */
static void ldlat_samples(const char *model, bool drop_aux, int want_events, u64 want_weight)
{
	struct pmu_event ev[PMU_MAX_EVENTS];
	struct sampling_opts o = opts_period(131);
	o.threshold.mode = PEBS_THRESHOLD_ONE;
	model_caps(model);
	int n = parse("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32:pp", ev, PMU_MAX_EVENTS);
	assert_int_equal(n, want_events);
	if (n == 2) {
		assert_string_equal(ev[1].name, "mem-loads-aux");
		assert_true(ev[1].count_only && ev[1].event == 0x03 && ev[1].umask == 0x82);
		assert_int_equal(ev[0].group, 0);
		assert_int_equal(ev[1].group, 0);
	}
	if (drop_aux) {
		n = 1;
		ev[0].group = -1;
	}
	start_events(ev, n, &o, false);
	loads_sampled(0xCD, 0x01, want_weight,
			    caps_pebs_latency_split(&caps) && !drop_aux ? 9 : 0);
}

static void test_load_latency_aux_event(void **state)
{
	ldlat_samples("spr", false, 2, 321);
	ldlat_samples("spr", true, 2, 0);	/* the hardware's rule, modelled */
	ldlat_samples("adl", false, 2, 321);	/* CPU 0: a P-core */
	ldlat_samples("icx", false, 1, 321);
}

/* Format 2 (hsw) records whose status field is 0 (the model's injection
 * of what Linux's intel_pmu_drain_pebs_nhm describes for Haswell and
 * earlier): with one PEBS counter each is still a sample of it; with two
 * (overflowing together, one record each time) the record cannot be
 * attributed and is lost as an orphan, counted. */
static void test_zero_status_records(void **state)
{
	struct sampling_opts o = opts_period(1009);
	o.threshold.mode = PEBS_THRESHOLD_ONE;
	start_pebs("hsw", 1, &o);
	sim_inject_pebs_status_zero(true);
	branches(events_per_record(0, 1009) * 10, RUN_IP);
	stop_sampling();
	assert_int_equal(ngot, 10);
	assert_int_equal(smp.precise.loss.lost[PEBS_LOST_ORPHAN], 0);
	assert_pebs_accounting();
	finish_sampling();
	sim_close();

	start_pebs("hsw", 2, &o);
	sim_inject_pebs_status_zero(true);
	branches(events_per_record(0, 1009) * 10, RUN_IP);	/* both together: 10 records */
	stop_sampling();
	assert_int_equal(ngot, 0);
	assert_int_equal(smp.precise.loss.lost[PEBS_LOST_ORPHAN], 10);
	assert_pebs_accounting();
	finish_sampling();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_one_record_pebs_every_model, close_model),
		cmocka_unit_test_teardown(test_short_pebs_period_raised, close_model),
		cmocka_unit_test_teardown(test_large_pebs_one_pmi_per_threshold, close_model),
		cmocka_unit_test_teardown(test_several_pebs_counters, close_model),
		cmocka_unit_test_teardown(test_pmi_while_pebs_armed, close_model),
		cmocka_unit_test_teardown(test_full_ds_buffer, close_model),
		cmocka_unit_test_teardown(test_corrupted_index, close_model),
		cmocka_unit_test_teardown(test_load_weight_per_part, close_model),
		cmocka_unit_test_teardown(test_load_latency_aux_event, close_model),
		cmocka_unit_test_teardown(test_zero_status_records, close_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
