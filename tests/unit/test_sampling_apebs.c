/* sampling/ with Architectural PEBS on the emulated Clearwater Forest
 * (cwf: PEBS_FORMAT 0xF, CPUID.23H sub-leaves 4 and 5): one record per
 * PMI, large PEBS, two counters, a full buffer, the PMU and APIC given
 * back exactly as found (CFG_C, IA32_PEBS_BASE and IA32_PEBS_INDEX
 * included), and the differential test: the same workload on the same
 * core with DS-based adaptive PEBS (cwf,fmt=5) gives the same samples;
 * and on both core types of the hybrid Panther Lake (ptl). */
#include "test_sampling_support.h"

#define PERIOD 1009

static void branches(u64 n, u64 ip)
{
	struct sim_occ occ = { .event = 0xC4, .umask = 0x00, .count = n, .ip = ip, .insn_len = 3 };
	sim_event(&occ);
}

/* Events between records on the counter of event k: the period, one more
 * where the counter has no PDist (the record at the next event). */
static u64 events_per_record(int k, u64 period)
{
	return period + !sim_pebs_at_overflow((unsigned)pmu_counter_of(&pmu, smp.id[k]));
}

static void assert_apebs_accounting(u64 samples_owed)
{
	u64 lost = sampling_lost(&smp);
	if (samples_owed != ngot + lost)
		fail_msg("owed %llu != delivered %u + lost %llu", (unsigned long long)samples_owed,
			 ngot, (unsigned long long)lost);
	assert_true(pebs_loss_balanced(&smp.precise.apebs.loss));
}

/* The engine is Architectural PEBS, and the registers say so: the
 * buffer's address and SIZE in IA32_PEBS_BASE, EN and THRESH in
 * IA32_PEBS_INDEX, EN and -period in the PEBS counter's CFG_C, and no
 * INT in its event select (the PMI comes from GLOBAL_STATUS bit 54). */
static void test_registers_programmed(void **state)
{
	struct sampling_opts o = opts_period(PERIOD);
	o.threshold.mode = PEBS_THRESHOLD_ONE;
	start_sampling("cwf", "BR_INST_RETIRED.ALL_BRANCHES:p", &o, false);
	assert_string_equal(smp.precise.ops->name, "Architectural PEBS");
	int counter = pmu_counter_of(&pmu, smp.id[0]);
	assert_true(counter >= 0 && counter < 8);
	const struct sim_cpu_regs *r = sim_regs();
	assert_int_equal(r->pebs_base, smp.precise.apebs.buf.base_msr);
	assert_int_equal(r->pebs_base & ARCH_PEBS_BASE_SIZE_MASK, 8);	/* 1 MiB */
	assert_int_equal(r->pebs_index, ARCH_PEBS_INDEX_EN |
			 (u64)(64 >> 4) << ARCH_PEBS_INDEX_THRESH_SHIFT);
	assert_int_equal(r->cfg_c[counter], ARCH_PEBS_EN | (0x100000000ull - PERIOD));
	assert_false(r->evtsel[counter] & EVTSEL_INT);
	assert_int_equal(r->pebs_enable, 0);
	stop_sampling();
	finish_sampling();
	sim_close();
}

/* A fixed counter writes records too (CPUID.23H.5:ECX; no baseline PEBS
 * needed): INST_RETIRED.ANY on fixed 0, its CFG_C (IA32_PMC_FX0_CFG_C)
 * enabled with -period, and a record per period there (fixed 0 has
 * PDist on cwf: at the overflow). */
static void test_fixed_counter(void **state)
{
	struct sampling_opts o = opts_period(PERIOD);
	start_sampling("cwf", "INST_RETIRED.ANY:pp", &o, false);
	int counter = pmu_counter_of(&pmu, smp.id[0]);
	assert_true(counter_is_fixed(counter) && counter_index(counter) == 0);
	const struct sim_cpu_regs *r = sim_regs();
	assert_int_equal(r->cfg_c_fixed[0], ARCH_PEBS_EN | (0x100000000ull - PERIOD));
	sim_run(PERIOD * 25, PERIOD * 25, RUN_IP);	/* 25 periods of instructions */
	stop_sampling();
	assert_int_equal(ngot, 25);
	for (u32 i = 0; i < ngot; i++)
		assert_true(got[i].ip == RUN_IP && got[i].period == PERIOD &&
			    (got[i].flags & BP_SAMPLE_EXACT_IP));
	finish_sampling();
	sim_close();
}

/* --pebs-threshold 1: a PMI per record, a sample per record, at the
 * eventing IP with the programmed period. */
static void test_one_record_per_pmi(void **state)
{
	struct sampling_opts o = opts_period(PERIOD);
	o.threshold.mode = PEBS_THRESHOLD_ONE;
	start_sampling("cwf", "BR_INST_RETIRED.ALL_BRANCHES:p", &o, false);
	assert_int_equal(smp.precise.apebs.threshold.records, 1);
	branches(events_per_record(0, PERIOD) * 50 + 7, RUN_IP);
	struct sim_stats st = model_stats();
	assert_int_equal(st.pebs_records, 50);
	assert_int_equal(st.pmis_delivered, 50);
	assert_int_equal(smp.pmi.st.buffer_pmis, 50);
	stop_sampling();
	assert_int_equal(ngot, 50);
	for (u32 i = 0; i < ngot; i++) {
		assert_int_equal(got[i].ip, RUN_IP);
		assert_int_equal(got[i].period, PERIOD);
		assert_true(got[i].flags & BP_SAMPLE_EXACT_IP);
	}
	assert_apebs_accounting(st.pebs_records);
	finish_sampling();
	sim_close();
}

/* Large PEBS: one PMI per threshold's worth of records; what waits below
 * the threshold is pending (progress lines) and drained at the stop. */
static void test_large_pebs(void **state)
{
	struct sampling_opts o = opts_period(131);
	o.pebs_buffer_bytes = 64 * 1024;
	start_sampling("cwf", "BR_INST_RETIRED.ALL_BRANCHES:p", &o, false);
	u64 threshold = smp.precise.apebs.threshold.records;
	assert_true(smp.precise.apebs.threshold.large);
	/* room for one more record per PEBS-capable counter (CPUID.23H.5:
	 * GP 0-7 and fixed 0-2, 4-6) after the PMI is raised */
	assert_int_equal(threshold, 64 * 1024 / 64 - 14);
	u64 records = 3 * threshold + threshold / 2;
	branches(events_per_record(0, 131) * records, RUN_IP);
	struct sim_stats st = model_stats();
	assert_int_equal(st.pebs_records, records);
	assert_int_equal(st.pmis_delivered, records / threshold);
	assert_int_equal(st.pebs_lost, 0);
	assert_int_equal(sampling_pending(&smp), records % threshold);
	stop_sampling();
	assert_int_equal(ngot, records);
	assert_apebs_accounting(records);
	finish_sampling();
	sim_close();
}

/* Two PEBS counters on GP 0 and 1, both with PDist on cwf: their records
 * come at the same events, one record naming both, a sample each. */
static void test_two_counters_one_record(void **state)
{
	struct sampling_opts o = opts_period(PERIOD);
	o.threshold.mode = PEBS_THRESHOLD_ONE;
	start_sampling("cwf", "BR_INST_RETIRED.ALL_BRANCHES:p,BR_INST_RETIRED.ALL_BRANCHES:p",
		       &o, false);
	branches(PERIOD * 20, RUN_IP);
	stop_sampling();
	struct sim_stats st = model_stats();
	assert_int_equal(st.pebs_records, 20);
	assert_int_equal(ngot, 40);
	u32 per_event[2] = { 0 };
	for (u32 i = 0; i < ngot; i++)
		per_event[got[i].event]++;
	assert_int_equal(per_event[0], 20);
	assert_int_equal(per_event[1], 20);
	assert_apebs_accounting(2 * st.pebs_records);
	finish_sampling();
	sim_close();
}

/* A 4 KiB buffer with the PMI held off (LVT PC masked): the records fill
 * it, the next does not fit, IA32_PEBS_INDEX.FULL is set and that record
 * is skipped with its reload. When the PMI comes, the drain reports the
 * full buffer and sampling goes on. */
static void test_full_buffer(void **state)
{
	struct sampling_opts o = opts_period(131);
	o.pebs_buffer_bytes = 4096;
	o.threshold.mode = PEBS_THRESHOLD_ONE;
	start_sampling("cwf", "BR_INST_RETIRED.ALL_BRANCHES:p", &o, false);
	u64 max = smp.precise.apebs.buf.max_records;
	assert_int_equal(max, 4096 / 64);
	hw_mmio_write32(XAPIC_BASE + APIC_LVT_PERFCNT, APIC_LVT_MASKED | smp.pmi.vector);
	branches(events_per_record(0, 131) * (max + 25), RUN_IP);
	struct sim_stats st = model_stats();
	assert_int_equal(st.pebs_records, max);
	assert_int_equal(st.pebs_lost, 1);
	assert_true(sim_regs()->pebs_index & ARCH_PEBS_INDEX_FULL);
	hw_mmio_write32(XAPIC_BASE + APIC_LVT_PERFCNT, smp.pmi.vector);
	sim_inject_spurious_pmi();
	branches(events_per_record(0, 131) * 10, RUN_IP);
	stop_sampling();
	st = model_stats();
	assert_int_equal(st.pebs_records, max + 10);
	assert_int_equal(ngot, max + 10);
	assert_int_equal(smp.precise.apebs.loss.buffer_was_full, 1);
	assert_apebs_accounting(st.pebs_records);
	finish_sampling();
	sim_close();
}

/* A period CFG_C's 32-bit reload value cannot hold is refused at setup,
 * named, with the PMU given back. */
static void test_period_too_long(void **state)
{
	char err[512];
	struct pmu_event ev;
	struct sampling_opts o = opts_period(3000000000ull);
	model_caps("cwf");
	ev = parse_one("BR_INST_RETIRED.ALL_BRANCHES:p");
	sim_snapshot(&before_open);
	assert_int_equal(pmu_open(&pmu, &caps, false, err, sizeof(err)), 0);
	o.pmi_vector = PMI_VECTOR;
	assert_int_not_equal(sampling_setup(&smp, &pmu, &ev, 1, &o, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "32-bit reload value"));
	pmu_close(&pmu);
	assert_snapshot_same(&before_open);
	sim_close();
}

/* A buffer size Architectural PEBS cannot have is a usage error before
 * the PMU is taken (sampling_check_threshold, as record checks it). */
static void test_buffer_size_checked_first(void **state)
{
	char err[512];
	struct sampling_opts o = opts_period(PERIOD);
	model_caps("cwf");
	struct pmu_event ev = parse_one("BR_INST_RETIRED.ALL_BRANCHES:p");
	o.pebs_buffer_bytes = 100 * 1024;
	assert_false(sampling_check_threshold(&caps, &ev, 1, &o, err, sizeof(err)));
	assert_non_null(strstr(err, "power of two"));
	o.pebs_buffer_bytes = 128 * 1024;
	assert_true(sampling_check_threshold(&caps, &ev, 1, &o, err, sizeof(err)));
	sim_close();
}

/* ---- the differential test ------------------------------------------------ */

/* Loads (of the core's load event) and branches at several IPs,
 * addresses, latencies and data sources: the same occurrences whatever
 * the model. */
struct load_event { u8 event, umask; };
static const struct load_event darkmont_loads = { 0xD0, 0x05 };	/* MEM_UOPS_RETIRED.LOAD_LATENCY */
static const struct load_event cougar_cove_loads = { 0xD0, 0x81 };	/* MEM_INST_RETIRED.ALL_LOADS */

static u64 workload_loads = 1000;	/* loads of 37 events each */

static void workload(struct load_event le)
{
	static const u64 sources[] = { 0x1, 0x2, 0x4, 0x6, 0x8 };
	for (u64 k = 0; k < workload_loads; k++) {
		struct sim_occ load = { .event = le.event, .umask = le.umask, .count = 37,
					.ip = RUN_IP + 16 * (k % 7), .insn_len = 4,
					.data_addr = 0x70000 + 64 * (k % 1000), .latency = 20 + k % 50,
					.instr_latency = 5, .data_src = sources[k % 5] };
		sim_event(&load);
		branches(53, RUN_IP + 0x100 + 8 * (k % 5));
	}
}

static u32 record_workload(const char *model, u32 cpu, struct load_event le, const char *events,
			   struct bp_sample *out, u32 max)
{
	struct sampling_opts o = opts_period(131);
	start_sampling_on(model, cpu, events, &o, false);
	assert_true(smp.precise.ops->multi_record);
	workload(le);
	stop_sampling();
	u32 n = MIN(ngot, max);
	memcpy(out, got, n * sizeof(*out));
	finish_sampling();
	sim_set_cpu(0);
	sim_close();
	return n;
}

/* The weight without the retire latency (var3): Architectural PEBS's
 * basic group has it (so its samples' weight flag is set), an adaptive
 * record only with PEBS timing info (IA32_PERF_CAPABILITIES bit 17),
 * which these models do not set. */
#define LOAD_AND_INSTR_LATENCY (((u64)1 << BP_WEIGHT_RETIRE_SHIFT) - 1)

static bool same_sample(const struct bp_sample *a, const struct bp_sample *b)
{
	return a->ip == b->ip && a->tsc == b->tsc && a->addr == b->addr && a->period == b->period &&
	       (a->weight & LOAD_AND_INSTR_LATENCY) == (b->weight & LOAD_AND_INSTR_LATENCY) &&
	       a->data_src == b->data_src && a->event == b->event &&
	       (a->flags | BP_SAMPLE_WEIGHT) == (b->flags | BP_SAMPLE_WEIGHT);
}

static struct bp_sample adaptive[2000], arch[2000];

/* The same events on model,fmt=5 (DS-based adaptive PEBS) and on model
 * (Architectural PEBS), on cpu: the same samples, in order. */
static u32 same_samples_on(const char *model, u32 cpu, struct load_event le, const char *events)
{
	char adaptive_model[32];
	snprintf(adaptive_model, sizeof(adaptive_model), "%s,fmt=5", model);
	u32 n_adaptive = record_workload(adaptive_model, cpu, le, events, adaptive, 2000);
	u32 n_arch = record_workload(model, cpu, le, events, arch, 2000);
	assert_int_equal(n_arch, n_adaptive);
	for (u32 i = 0; i < n_arch; i++)
		if (!same_sample(&arch[i], &adaptive[i]))
			fail_msg("%s CPU %u %s: sample %u differs: ip 0x%llx/0x%llx addr 0x%llx/0x%llx "
				 "weight %llu/%llu src 0x%llx/0x%llx", model, cpu, events, i,
				 (unsigned long long)arch[i].ip, (unsigned long long)adaptive[i].ip,
				 (unsigned long long)arch[i].addr, (unsigned long long)adaptive[i].addr,
				 (unsigned long long)arch[i].weight, (unsigned long long)adaptive[i].weight,
				 (unsigned long long)arch[i].data_src,
				 (unsigned long long)adaptive[i].data_src);
	return n_arch;
}

static u32 same_samples(const char *events)
{
	return same_samples_on("cwf", 0, darkmont_loads, events);
}

/* Every sample of arch[0..n) carries its load's fields: the load latency
 * is the cache latency (20-69), the instruction's (5) is perf's var2, and
 * the basic group's retire latency (the model's: the instruction
 * latency) var3. */
static void assert_load_fields(u32 n)
{
	for (u32 i = 0; i < n; i++) {
		u64 load = arch[i].weight & BP_WEIGHT_LOAD_MASK;
		assert_true(load >= 20 && load < 70 &&
			    (arch[i].flags & BP_SAMPLE_ADDR) && arch[i].addr >= 0x70000 &&
			    (arch[i].flags & BP_SAMPLE_DATA_SRC));
		assert_int_equal(arch[i].weight >> BP_WEIGHT_INSTR_SHIFT & BP_WEIGHT_W_MASK, 5);
		assert_int_equal(arch[i].weight >> BP_WEIGHT_RETIRE_SHIFT, 5);
	}
}

/* cwf,fmt=5 is the same core with DS-based adaptive PEBS: every sample
 * has the same IP, time, address, latency and data source. A load
 * latency event is taken alone on this core, so loads and branches are
 * two recordings. */
static void test_same_samples_as_adaptive_pebs(void **state)
{
	u32 n = same_samples("MEM_UOPS_RETIRED.LOAD_LATENCY_GT_4:pp");
	assert_true(n > 200);
	assert_load_fields(n);
	n = same_samples("BR_INST_RETIRED.ALL_BRANCHES:p,BR_INST_RETIRED.ALL_BRANCHES:pp");
	assert_true(n > 500);
}

/* Panther Lake is hybrid with Architectural PEBS on both core types
 * (ISE, "Architectural PEBS"; CPUID.23H.5 per core type): on CPU 0, the
 * Cougar Cove P-core (its 10 GP counters, PDist on GP 0-1), and on CPU 1,
 * the Darkmont E-core, the engine is Architectural PEBS and gives the
 * same samples as the same core with adaptive PEBS. */
static void test_ptl_both_core_types(void **state)
{
	u32 n = same_samples_on("ptl", 0, cougar_cove_loads, "MEM_INST_RETIRED.ALL_LOADS:pp");
	assert_true(n > 200);
	assert_load_fields(n);
	n = same_samples_on("ptl", 1, darkmont_loads, "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_4:pp");
	assert_true(n > 200);
	assert_load_fields(n);
	/* ten branch events at once: GP 8 and 9 exist on the P-core only */
	const char *ten = "BR_INST_RETIRED.ALL_BRANCHES:p,BR_INST_RETIRED.ALL_BRANCHES:p,"
			  "BR_INST_RETIRED.ALL_BRANCHES:p,BR_INST_RETIRED.ALL_BRANCHES:p,"
			  "BR_INST_RETIRED.ALL_BRANCHES:p,BR_INST_RETIRED.ALL_BRANCHES:p,"
			  "BR_INST_RETIRED.ALL_BRANCHES:p,BR_INST_RETIRED.ALL_BRANCHES:p,"
			  "BR_INST_RETIRED.ALL_BRANCHES:p,BR_INST_RETIRED.ALL_BRANCHES:p";
	struct sampling_opts o = opts_period(131);
	start_sampling("ptl", ten, &o, false);
	assert_string_equal(smp.precise.ops->name, "Architectural PEBS");
	for (int k = 0; k < 10; k++)
		assert_true(pmu_counter_of(&pmu, smp.id[k]) >= 0);
	/* 20 records each: a counter without PDist records at the event
	 * after the period's (events_per_record) */
	branches(132 * 20, RUN_IP);
	stop_sampling();
	assert_int_equal(ngot, 10 * 20);
	finish_sampling();
	sim_close();
}

/* Diamond Rapids (dmr, Panther Cove): Architectural PEBS with the OMR
 * data-source encoding. Against the same core with adaptive PEBS
 * (dmr,fmt=5), the same samples; the loads' sources decode by Linux's
 * pnc_latency_data (an L1 hit, an L3 hit as the local non-shared cache,
 * another socket's cache). */
static void test_dmr_same_samples(void **state)
{
	u32 n = same_samples_on("dmr", 0, cougar_cove_loads, "MEM_INST_RETIRED.ALL_LOADS:pp");
	assert_true(n > 200);
	assert_load_fields(n);
	u32 remote = 0, l1 = 0;
	for (u32 i = 0; i < n; i++) {
		u64 src = arch[i].data_src;
		u64 lvlnum = src >> BP_MEM_LVLNUM_SHIFT & 0xF;
		assert_true(lvlnum == BP_MEM_LVLNUM_L1 || lvlnum == BP_MEM_LVLNUM_LFB ||
			    lvlnum == BP_MEM_LVLNUM_L3);
		if (lvlnum == BP_MEM_LVLNUM_L3)	/* every L3 hit names its region */
			assert_int_not_equal(src >> BP_MEM_REGION_SHIFT & 0x1F, 0);
		remote += (src & BP_MEM(REMOTE, REMOTE)) != 0;
		l1 += lvlnum == BP_MEM_LVLNUM_L1;
	}
	assert_true(remote > n / 10 && l1 > n / 10);	/* a fifth of the loads each */
}

/* Store latency (MEM_TRANS_RETIRED.STORE_SAMPLE) on dmr and on spr: each
 * sample a store, at the level its source says (an L1 hit, 0x1 in the
 * model's SDM encoding, OMR-encoded on dmr), with the store's latency as
 * weight, as Linux's pnc_latency_data and store_latency_data give them. */
static void test_store_latency(void **state)
{
	static const char *const models[] = { "dmr", "spr" };
	for (unsigned m = 0; m < 2; m++) {
		struct sampling_opts o = opts_period(131);
		start_sampling(models[m], "MEM_TRANS_RETIRED.STORE_SAMPLE:pp", &o, false);
		struct sim_occ st = { .event = 0xCD, .umask = 0x02, .count = 132 * 10, .ip = RUN_IP,
				      .insn_len = 4, .data_addr = 0x9000, .latency = 12,
				      .data_src = 0x1 };
		sim_event(&st);
		stop_sampling();
		assert_int_equal(ngot, 10);
		for (u32 i = 0; i < ngot; i++) {
			u64 src = got[i].data_src;
			assert_int_equal(src & BP_MEM_OP_MASK, BP_MEM(OP, STORE));
			assert_int_equal(src >> BP_MEM_LVLNUM_SHIFT & 0xF, BP_MEM_LVLNUM_L1);
			assert_int_equal(got[i].weight & BP_WEIGHT_LOAD_MASK, 12);
			assert_int_equal(got[i].addr, 0x9000);
		}
		finish_sampling();
		sim_close();
	}
}

/* The differential test of Architectural PEBS against adaptive PEBS on
 * another part (issue: "the same workload and events on spr and on dmr
 * give the same samples"): Sapphire Rapids records at the overflowing
 * load where its GP0 has PDist, Panther Cove at the next one, so the
 * sample streams are offset by an event and compared by their shares:
 * each IP's share of the samples and each level's (the SDM's encoding on
 * spr, OMR on dmr, as perf reads them) agree within 0.1 point, and every
 * sample's latency and address are those of a load of the workload. */
struct shares { u32 n, by_ip[7], by_level[16]; };

static void shares_of(const struct bp_sample *s, u32 n, struct shares *out)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	for (u32 i = 0; i < n; i++) {
		u64 k = (s[i].ip - RUN_IP) / 16;
		assert_true(s[i].ip >= RUN_IP && k < 7 && (s[i].ip - RUN_IP) % 16 == 0);
		out->by_ip[k]++;
		out->by_level[s[i].data_src >> BP_MEM_LVLNUM_SHIFT & 0xF]++;
		u64 load = s[i].weight & BP_WEIGHT_LOAD_MASK;
		u64 at = (s[i].addr - 0x70000) / 64;
		assert_true(s[i].addr >= 0x70000 && at < 1000 && load == 20 + at % 50);
	}
}

static void assert_share_close(u32 a, u32 na, u32 b, u32 nb, const char *what, unsigned k)
{
	double d = 100.0 * a / na - 100.0 * b / nb;
	if (d > 0.1 || d < -0.1)
		fail_msg("%s %u: %.2f %% on spr, %.2f %% on dmr", what, k, 100.0 * a / na,
			 100.0 * b / nb);
}

static void test_dmr_against_spr(void **state)
{
	static struct bp_sample on_spr[20000], on_dmr[20000];
	struct shares s, d;
	workload_loads = 60000;	/* 2.2 M load events: about 17,000 samples */
	u32 ns = record_workload("spr", 0, cougar_cove_loads, "MEM_INST_RETIRED.ALL_LOADS:pp",
				 on_spr, 20000);
	u32 nd = record_workload("dmr", 0, cougar_cove_loads, "MEM_INST_RETIRED.ALL_LOADS:pp",
				 on_dmr, 20000);
	workload_loads = 1000;
	assert_true(ns > 15000 && nd > 15000 && ns < 20000 && nd < 20000);
	shares_of(on_spr, ns, &s);
	shares_of(on_dmr, nd, &d);
	for (unsigned k = 0; k < 7; k++)
		assert_share_close(s.by_ip[k], ns, d.by_ip[k], nd, "IP", k);
	for (unsigned k = 0; k < 16; k++)
		assert_share_close(s.by_level[k], ns, d.by_level[k], nd, "level", k);
	assert_int_equal(d.by_level[BP_MEM_LVLNUM_NA], 0);	/* every source decoded */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registers_programmed),
		cmocka_unit_test(test_one_record_per_pmi),
		cmocka_unit_test(test_fixed_counter),
		cmocka_unit_test(test_large_pebs),
		cmocka_unit_test(test_two_counters_one_record),
		cmocka_unit_test(test_full_buffer),
		cmocka_unit_test(test_period_too_long),
		cmocka_unit_test(test_buffer_size_checked_first),
		cmocka_unit_test(test_same_samples_as_adaptive_pebs),
		cmocka_unit_test(test_ptl_both_core_types),
		cmocka_unit_test(test_dmr_same_samples),
		cmocka_unit_test(test_store_latency),
		cmocka_unit_test(test_dmr_against_spr),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
