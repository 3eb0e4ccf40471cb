/* pmu/precise_ibs.c against the emulated Zen 4 (sim/sim_ibs.c), through
 * the sampling engine: the extended LVT entry IBS_CTL names taken and put
 * back (Linux setup_APIC_ibs / clear_APIC_ibs), MaxCnt from the period
 * and CurCnt's random low bits (perf_ibs_start, perf_ibs_handle_irq),
 * samples at the model's RIPs with the data address OpData3 vouches for
 * (perf_ibs_parse_ld_st_data), and what setup refuses (ibs_eilvt_valid). */
#include "test_sampling_support.h"
#include "pmu/precise.h"
#include "pebs/datasrc.h"

#define PERIOD  0x1000
#define IP_A    0x401000ULL
#define IP_B    0x402000ULL

static u32 eilvt(unsigned n) { return hw_mmio_read32(XAPIC_BASE + apic_eilvt(n)); }
static u64 op_ctl(void) { return sim_regs()->ibs_op_ctl; }

static void assert_ibs_accounting(void)
{
	const struct precise_ibs_loss *l = &smp.precise.ibs.loss;
	assert_int_equal(l->found, l->delivered + l->ring_full + l->throttled + l->rip_invalid);
	assert_int_equal(l->delivered, ngot);
	assert_int_equal(sampling_lost(&smp), l->ring_full + l->throttled + l->rip_invalid);
}

static int teardown(void **state)
{
	(void)state;
	sim_close();
	hw_set_fault_handler(NULL);
	return 0;
}

/* Samples carry the model's RIPs, exact; N samples for C cycles at a
 * period P whose low 4 bits are random: C/P <= N <= C/(P-15) + 1. The
 * entry holds the PMI's vector while sampling; teardown puts the entry
 * and IBS_OP_CTL back as found. */
static void test_op_samples_at_model_rips(void **state)
{
	(void)state;
	struct sampling_opts o = opts_period(PERIOD);
	start_sampling("zen4", "ibs_op//", &o, false);
	assert_int_equal(eilvt(1), APIC_LVT_DELIVERY_FIXED | PMI_VECTOR);
	assert_int_equal(op_ctl() & IBS_OP_MAX_CNT_MASK, PERIOD >> IBS_PERIOD_SHIFT);
	assert_true(op_ctl() & IBS_OP_ENABLE);
	assert_true(FIELD(op_ctl(), 58, 32) < 16);	/* CurCnt's random start */
	sim_run(100 * PERIOD, 100 * PERIOD, IP_A);
	poll_samples();
	u32 first = ngot;
	assert_true(first >= 100 && first <= 100 * PERIOD / (PERIOD - 15) + 1);
	sim_run(50 * PERIOD, 50 * PERIOD, IP_B);
	stop_sampling();
	assert_true(ngot - first >= 49 && ngot - first <= 51);
	for (u32 i = 0; i < ngot; i++) {
		assert_int_equal(got[i].ip, i < first ? IP_A : IP_B);
		assert_int_equal(got[i].period, PERIOD);
		assert_true(got[i].flags & BP_SAMPLE_EXACT_IP);
	}
	assert_int_equal(model_stats().ibs_tags, ngot);
	assert_ibs_accounting();
	/* Stopped: IBS counts no more. */
	sim_run(10 * PERIOD, 10 * PERIOD, IP_A);
	assert_int_equal(model_stats().ibs_tags, ngot);
	finish_sampling();
	assert_int_equal(eilvt(1), APIC_LVT_MASKED);
}

/* A full ring loses samples, counted by reason: every Val the drain
 * found is delivered or lost (found == delivered + lost), and the model's
 * tags are all found. */
static void test_ring_full_is_accounted(void **state)
{
	(void)state;
	struct sampling_opts o = opts_period(PERIOD);
	o.ring_samples = 16;
	start_sampling("zen4", "ibs_op//", &o, false);
	sim_run(100 * PERIOD, 100 * PERIOD, IP_A);
	stop_sampling();
	const struct precise_ibs_loss *l = &smp.precise.ibs.loss;
	assert_true(l->ring_full > 0);
	assert_int_equal(l->found, model_stats().ibs_tags);
	assert_ibs_accounting();
	char line[256];
	sampling_describe_loss(&smp, line, sizeof(line));
	assert_non_null(strstr(line, "ring full"));
	finish_sampling();
}

/* RipInvalid (checked where CPUID says RipInvalidChk): the sample has no
 * IP to give, and is counted lost as such rather than put at 0. */
static void test_rip_invalid_is_lost_with_its_reason(void **state)
{
	(void)state;
	struct sampling_opts o = opts_period(PERIOD);
	start_sampling("zen4", "ibs_op//", &o, false);
	sim_run(10 * PERIOD, 10 * PERIOD, IP_A);
	poll_samples();
	u32 good = ngot;
	sim_inject_ibs_rip_invalid(true);
	sim_run(10 * PERIOD, 10 * PERIOD, IP_A);
	sim_inject_ibs_rip_invalid(false);
	stop_sampling();
	assert_int_equal(ngot, good);
	assert_true(smp.precise.ibs.loss.rip_invalid >= 9);
	assert_ibs_accounting();
	finish_sampling();
}

/* cnt_ctl=1: the op counter counts dispatched ops, not cycles. */
static void test_cnt_ctl_counts_ops(void **state)
{
	(void)state;
	struct sampling_opts o = opts_period(PERIOD);
	start_sampling("zen4", "ibs_op/cnt_ctl=1/", &o, false);
	assert_true(op_ctl() & IBS_OP_CNT_CTL);
	sim_run(50 * PERIOD, 0, IP_A);
	assert_int_equal(poll_samples(), 0);
	sim_run(50 * PERIOD, 20 * PERIOD, IP_B);
	stop_sampling();
	assert_true(ngot >= 20 && ngot <= 21);
	finish_sampling();
}

/* A load's data address and DC miss latency reach the sample. */
static void test_data_address_and_latency(void **state)
{
	(void)state;
	struct sampling_opts o = opts_period(PERIOD);
	start_sampling("zen4", "ibs_op//", &o, false);
	sim_run_load(10 * PERIOD, 10 * PERIOD, IP_A, 0x7ff000, 300);
	stop_sampling();
	assert_true(ngot >= 10);
	assert_true(got[0].flags & BP_SAMPLE_ADDR);
	assert_int_equal(got[0].addr, 0x7ff000);
	assert_true(got[0].flags & BP_SAMPLE_WEIGHT);
	assert_int_equal(got[0].weight, 300);
	finish_sampling();
}

/* The model's loads (sim_set_run_loads: what the drive's workload
 * profiles and the QEMU machine state, in Intel's source codes) reach
 * perf's data source through IBS_OP_DATA2/3 and the engine's decoding
 * (pmu/ibs_datasrc.c, Linux's rules): every level on Zen 4 and Zen 2,
 * and one tag in four a load at 250 loads per 1,000 ops. */
static void test_data_source_by_level(void **state)
{
	(void)state;
	static const struct {
		u32 dse;
		u64 level;	/* the level and level-number fields expected */
	} levels[] = {
		{ INTEL_DSE_L1_HIT, BP_MEM(LVL, L1) | BP_MEM(LVL, HIT) | BP_MEM(LVLNUM, L1) },
		{ INTEL_DSE_L2_HIT, BP_MEM(LVL, L2) | BP_MEM(LVL, HIT) | BP_MEM(LVLNUM, L2) },
		{ INTEL_DSE_LFB_HIT, BP_MEM(LVL, LFB) | BP_MEM(LVL, HIT) | BP_MEM(LVLNUM, LFB) },
		{ INTEL_DSE_L3_HIT, BP_MEM(LVL, L3) | BP_MEM(LVL, HIT) },
		{ 0xC, BP_MEM(LVL, LOC_RAM) | BP_MEM(LVL, HIT) | BP_MEM(LVLNUM, RAM) },
	};
	const char *models[] = { "zen4", "zen2" };
	for (size_t m = 0; m < ARRAY_SIZE(models); m++)
		for (size_t k = 0; k < ARRAY_SIZE(levels); k++) {
			struct sampling_opts o = opts_period(PERIOD);
			start_sampling(models[m], "ibs_op//", &o, false);
			struct sim_run_loads l = { .per_kilo = 1000, .base = 0x800000, .size = 1 << 20,
						   .latency = 77, .data_src = levels[k].dse };
			sim_set_run_loads(&l);
			sim_run(10 * PERIOD, 10 * PERIOD, IP_A);
			stop_sampling();
			assert_true(ngot >= 10);
			for (u32 i = 0; i < ngot; i++) {
				const struct bp_sample *g = &got[i];
				assert_true(g->flags & BP_SAMPLE_DATA_SRC);
				assert_true(g->addr >= 0x800000 && g->addr < 0x900000);
				assert_int_equal(g->data_src & BP_MEM_OP_MASK, BP_MEM(OP, LOAD));
				assert_int_equal(g->data_src & levels[k].level, levels[k].level);
				/* a miss has its latency as the weight; an L1 hit none */
				bool miss = levels[k].dse != INTEL_DSE_L1_HIT;
				assert_int_equal(!!(g->flags & BP_SAMPLE_WEIGHT), miss);
				if (miss)
					assert_int_equal(g->weight, 77);
			}
			finish_sampling();
			sim_close();
		}
	struct sampling_opts o = opts_period(PERIOD);
	start_sampling("zen4", "ibs_op//", &o, false);
	struct sim_run_loads quarter = { .per_kilo = 250, .base = 0x800000, .size = 4096,
					 .latency = 200, .data_src = 0xC };
	sim_set_run_loads(&quarter);
	sim_run(400 * PERIOD, 400 * PERIOD, IP_A);
	stop_sampling();
	u32 loads = 0;
	for (u32 i = 0; i < ngot; i++)
		loads += (got[i].data_src & BP_MEM_OP_MASK) == BP_MEM(OP, LOAD);
	assert_int_equal(loads, ngot / 4);
	assert_int_equal(got[0].data_src, BP_MEM_NA);	/* not a load */
	finish_sampling();
}

/* A period that is no multiple of 16 is rounded down (perf_ibs_init);
 * with OpCntExt, period bits 26:20 go to MaxCnt[26:20] in place. */
static void test_period_encoding(void **state)
{
	(void)state;
	struct sampling_opts o = opts_period(0x1234567);
	start_sampling("zen4", "ibs_op//", &o, false);
	assert_int_equal(op_ctl() & IBS_OP_MAX_CNT_MASK, (0x1234560 & 0xFFFFF) >> 4);
	assert_int_equal(op_ctl() & IBS_OP_MAX_CNT_EXT_MASK, 0x1234560 & IBS_OP_MAX_CNT_EXT_MASK);
	char line[256];
	sampling_describe(&smp, line, sizeof(line));
	assert_non_null(strstr(line, "not 19088743"));
	stop_sampling();
	finish_sampling();
}

/* cycles:p on AMD samples through ibs_op, in NMI mode through an NMI
 * entry. */
static void test_cycles_p_in_nmi_mode(void **state)
{
	(void)state;
	struct sampling_opts o = opts_period(PERIOD);
	o.pmi_nmi = true;
	start_sampling("zen4", "cycles:p", &o, false);
	assert_int_equal(eilvt(1), APIC_LVT_DELIVERY_NMI);
	sim_run(10 * PERIOD, 10 * PERIOD, IP_A);
	stop_sampling();
	assert_int_equal(vector_seen, SIM_NMI_VECTOR);
	assert_true(ngot >= 10);
	assert_int_equal(got[0].ip, IP_A);
	finish_sampling();
}

static void setup_fails(const char *events, u64 period, const char *needle)
{
	struct pmu_event ev[4];
	struct sampling_opts o = opts_period(period);
	char err[512];
	int n = parse(events, ev, 4);
	o.pmi_vector = PMI_VECTOR;
	sim_snapshot(&before_open);
	assert_int_equal(pmu_open(&pmu, &caps, false, err, sizeof(err)), 0);
	if (sampling_setup(&smp, &pmu, ev, n, &o, err, sizeof(err)) == 0)
		fail_msg("%s: set up, but should be refused ('%s')", events, needle);
	if (!strstr(err, needle))
		fail_msg("'%s' lacks '%s'", err, needle);
	pmu_close(&pmu);
	assert_snapshot_same(&before_open);
}

/* What setup refuses, leaving everything as found: no valid offset in
 * IBS_CTL (Linux: "invalid IBS interrupt offset"), the entry in use by
 * someone else, a second event for one unit, a period beyond MaxCnt. */
static void test_setup_refusals(void **state)
{
	(void)state;
	model_caps("zen4");
	sim_inject_ibs_ctl(1);	/* offset 1, LvtOffsetVal clear */
	setup_fails("ibs_op//", PERIOD, "LvtOffsetVal");
	sim_inject_ibs_ctl(IBS_CTL_LVT_OFFSET_VALID | 1);
	hw_mmio_write32(XAPIC_BASE + apic_eilvt(1), APIC_LVT_DELIVERY_FIXED | 0x31);
	setup_fails("ibs_op//", PERIOD, "in use");
	hw_mmio_write32(XAPIC_BASE + apic_eilvt(1), APIC_LVT_MASKED);
	setup_fails("ibs_op//,ibs_op/cnt_ctl=1/", PERIOD, "one event at a time");
	setup_fails("ibs_fetch//", 0x100000, "periods up to");
}

/* What the firmware left is put back: a masked entry with content, and
 * an IBS_OP_CTL with MaxCnt written and En clear. */
static void test_teardown_restores_as_found(void **state)
{
	(void)state;
	struct sampling_opts o = opts_period(PERIOD);
	model_caps("zen4");
	hw_mmio_write32(XAPIC_BASE + apic_eilvt(1), APIC_LVT_MASKED | APIC_LVT_DELIVERY_NMI);
	hw_wrmsr(MSR_AMD_IBS_OP_CTL, 0x55);
	struct pmu_event ev[2];
	int n = parse("ibs_op//,ibs_fetch//", ev, 2);
	start_events(ev, n, &o, false);
	sim_run(20 * PERIOD, 20 * PERIOD, IP_A);
	stop_sampling();
	u32 op = 0, fetch = 0;
	for (u32 i = 0; i < ngot; i++)
		got[i].event == 0 ? op++ : fetch++;
	assert_true(op >= 20 && fetch >= 20);
	finish_sampling();
	assert_int_equal(eilvt(1), APIC_LVT_MASKED | APIC_LVT_DELIVERY_NMI);
	assert_int_equal(hw_rdmsr(MSR_AMD_IBS_OP_CTL), 0x55);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_op_samples_at_model_rips, teardown),
		cmocka_unit_test_teardown(test_cnt_ctl_counts_ops, teardown),
		cmocka_unit_test_teardown(test_ring_full_is_accounted, teardown),
		cmocka_unit_test_teardown(test_rip_invalid_is_lost_with_its_reason, teardown),
		cmocka_unit_test_teardown(test_data_address_and_latency, teardown),
		cmocka_unit_test_teardown(test_data_source_by_level, teardown),
		cmocka_unit_test_teardown(test_period_encoding, teardown),
		cmocka_unit_test_teardown(test_cycles_p_in_nmi_mode, teardown),
		cmocka_unit_test_teardown(test_setup_refusals, teardown),
		cmocka_unit_test_teardown(test_teardown_restores_as_found, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
