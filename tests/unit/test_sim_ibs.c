/* sim/sim_ibs.c and the extended APIC space of sim/sim_apic.c: the rules
 * of AMD64 APM Vol. 2, "Instruction-Based Sampling" and "Extended APIC
 * Registers", field layouts as Linux's arch/x86/include/asm/amd-ibs.h. */
#include "test_sim_support.h"

#define IBS_VECTOR  0xF2
#define OFFSET      1	/* what the model's "firmware" left in IBS_CTL */
#define OP_PERIOD   0x1000
#define IP_A        0x401000ULL
#define IP_B        0x402000ULL

static void eilvt_write(unsigned n, u32 v) { hw_mmio_write32(XAPIC_BASE + apic_eilvt(n), v); }
static u32 eilvt_read(unsigned n) { return hw_mmio_read32(XAPIC_BASE + apic_eilvt(n)); }

/* IBS_OP_CTL armed for a period (bits 19:4 in MaxCnt). */
static void arm_op(u64 period, bool cnt_ctl)
{
	hw_wrmsr(MSR_AMD_IBS_OP_CTL, IBS_OP_ENABLE | (cnt_ctl ? IBS_OP_CNT_CTL : 0) |
				     (period >> IBS_PERIOD_SHIFT));
}

static bool op_val(void) { return hw_rdmsr(MSR_AMD_IBS_OP_CTL) & IBS_OP_VAL; }

/* The registers exist only where CPUID says IBS (80000001H:ECX[10]) and
 * the unit or extension is in 8000001BH:EAX. */
static void test_ibs_msrs_exist_per_cpuid(void **state)
{
	open_model("icx");
	expect_rdmsr_gp(MSR_AMD_IBS_OP_CTL, "no IBS");
	expect_wrmsr_gp(MSR_AMD_IBS_FETCH_CTL, 0, "no IBS");
	expect_rdmsr_gp(MSR_AMD_IBS_CTL, "no IBS");
	close_model(state);

	open_model("zen4");	/* 8000001BH:EAX 0xBFF: no OpData4 */
	assert_int_equal(hw_rdmsr(MSR_AMD_IBS_OP_CTL), 0);
	assert_int_equal(hw_rdmsr(MSR_AMD_IBS_BR_TARGET), 0);
	expect_rdmsr_gp(MSR_AMD_IBS_OP_DATA4, "lacks");
	/* IBS_CTL: the firmware's offset, valid, read-only. */
	assert_int_equal(hw_rdmsr(MSR_AMD_IBS_CTL), IBS_CTL_LVT_OFFSET_VALID | OFFSET);
	expect_wrmsr_gp(MSR_AMD_IBS_CTL, 0, "read-only");
}

/* Reserved bits #GP; CntCtl, MaxCnt[26:20] and L3MissOnly exist with
 * their CPUID bits (OpCnt, OpCntExt, the Zen 4 extensions). */
static void test_op_ctl_reserved_bits(void **state)
{
	open_model("zen4");
	expect_wrmsr_gp(MSR_AMD_IBS_OP_CTL, BIT(63), "reserved");
	expect_wrmsr_gp(MSR_AMD_IBS_OP_CTL, BIT(27), "reserved");
	expect_wrmsr_gp(MSR_AMD_IBS_FETCH_CTL, BIT(60), "reserved");
	hw_wrmsr(MSR_AMD_IBS_OP_CTL, IBS_OP_L3_MISS_ONLY | IBS_OP_MAX_CNT_EXT_MASK | IBS_OP_CNT_CTL);
	assert_int_equal(hw_rdmsr(MSR_AMD_IBS_OP_CTL),
			 IBS_OP_L3_MISS_ONLY | IBS_OP_MAX_CNT_EXT_MASK | IBS_OP_CNT_CTL);
	close_model(state);
	open_model("zen2");	/* 0x3FF: no Zen 4 extensions */
	expect_wrmsr_gp(MSR_AMD_IBS_OP_CTL, IBS_OP_L3_MISS_ONLY, "reserved");
	expect_wrmsr_gp(MSR_AMD_IBS_FETCH_CTL, IBS_FETCH_L3_MISS_ONLY, "reserved");
	hw_wrmsr(MSR_AMD_IBS_OP_CTL, IBS_OP_CNT_CTL);	/* OpCnt: bit 4 of 0x3FF */
}

/* Cycle mode: the op is tagged when CurCnt reaches {MaxCnt, 0000b}, not
 * one cycle before; OpRip is the tagged op's. */
static void test_maxcnt_counts_cycles(void **state)
{
	open_model("zen4");
	arm_op(OP_PERIOD, false);
	sim_run(OP_PERIOD - 1, 10, IP_A);
	assert_false(op_val());
	assert_int_equal(FIELD(hw_rdmsr(MSR_AMD_IBS_OP_CTL), 58, 32), OP_PERIOD - 1);
	sim_run(1, 0, IP_B);
	assert_true(op_val());
	assert_int_equal(hw_rdmsr(MSR_AMD_IBS_OP_RIP), IP_B);
}

/* Op mode (IbsOpCntCtl): cycles without ops do not count; ops do. The
 * tag falls inside a long run, at the op that reached MaxCnt. */
static void test_maxcnt_counts_ops(void **state)
{
	struct sim_stats st;
	open_model("zen4");
	arm_op(OP_PERIOD, true);
	sim_run(10 * OP_PERIOD, 0, IP_A);	/* halted-ish: no ops */
	assert_false(op_val());
	sim_run(4 * OP_PERIOD, OP_PERIOD / 2, IP_A);
	assert_false(op_val());
	assert_int_equal(FIELD(hw_rdmsr(MSR_AMD_IBS_OP_CTL), 58, 32), OP_PERIOD / 2);
	sim_run(4 * OP_PERIOD, OP_PERIOD, IP_B);
	assert_true(op_val());
	assert_int_equal(hw_rdmsr(MSR_AMD_IBS_OP_RIP), IP_B);
	sim_stats_get(0, &st);
	assert_int_equal(st.ibs_tags, 1);
}

/* A tagged load: IbsDcLinAd and OpData3's LdOp, DcLinAddrValid and, for
 * a miss, DcMissLat (Linux perf_ibs_parse_ld_st_data reads them). */
static void test_load_latches_data_address(void **state)
{
	open_model("zen4");
	arm_op(OP_PERIOD, false);
	sim_run_load(OP_PERIOD, OP_PERIOD, IP_A, 0x7000, 250);
	assert_true(op_val());
	u64 d3 = hw_rdmsr(MSR_AMD_IBS_OP_DATA3);
	assert_true(d3 & IBS_OP_DATA3_LD_OP);
	assert_true(d3 & IBS_OP_DATA3_LIN_ADDR_VALID);
	assert_true(d3 & IBS_OP_DATA3_DC_MISS);
	assert_int_equal(FIELD(d3, 47, 32), 250);
	assert_int_equal(hw_rdmsr(MSR_AMD_IBS_DC_LINADDR), 0x7000);
	/* An op without memory access: no address. */
	arm_op(OP_PERIOD, false);
	sim_run(OP_PERIOD, OP_PERIOD, IP_B);
	assert_false(hw_rdmsr(MSR_AMD_IBS_OP_DATA3) & IBS_OP_DATA3_LIN_ADDR_VALID);
}

/* Val latches: one interrupt, through the EILVT entry IBS_CTL names, and
 * no second sample until software clears Val (Linux re-arms by writing
 * the control register, perf_ibs_handle_irq). */
static void test_val_latch_one_interrupt_rearm(void **state)
{
	struct sim_stats st;
	open_model("zen4");
	hook_irqs();
	eilvt_write(OFFSET, APIC_LVT_DELIVERY_FIXED | IBS_VECTOR);
	arm_op(OP_PERIOD, false);
	sim_run(3 * OP_PERIOD, 0, IP_A);
	assert_int_equal(irqs.count, 1);
	assert_int_equal(irqs.vector[0], IBS_VECTOR);
	assert_int_equal(hw_rdmsr(MSR_AMD_IBS_OP_RIP), IP_A);
	/* No more samples while Val is set, and the entry stays unmasked
	 * (unlike LVT PC on Intel). */
	sim_run(3 * OP_PERIOD, 0, IP_B);
	assert_int_equal(irqs.count, 1);
	assert_int_equal(hw_rdmsr(MSR_AMD_IBS_OP_RIP), IP_A);
	assert_int_equal(eilvt_read(OFFSET), APIC_LVT_DELIVERY_FIXED | IBS_VECTOR);
	hw_mmio_write32(XAPIC_BASE + APIC_EOI, 0);
	arm_op(OP_PERIOD, false);	/* clears Val */
	sim_run(OP_PERIOD, 0, IP_B);
	assert_int_equal(irqs.count, 2);
	assert_int_equal(hw_rdmsr(MSR_AMD_IBS_OP_RIP), IP_B);
	sim_stats_get(0, &st);
	assert_int_equal(st.ibs_irqs, 2);
	assert_int_equal(st.ibs_tags, 2);
}

/* A masked entry (the reset value) delivers nothing; the sample is still
 * latched. Without a valid IBS_CTL offset nothing is delivered either. */
static void test_masked_entry_delivers_nothing(void **state)
{
	struct sim_stats st;
	open_model("zen4");
	hook_irqs();
	assert_int_equal(eilvt_read(OFFSET), APIC_LVT_MASKED);
	arm_op(OP_PERIOD, false);
	sim_run(OP_PERIOD, 0, IP_A);
	assert_int_equal(irqs.count, 0);
	assert_true(op_val());
	sim_stats_get(0, &st);
	assert_int_equal(st.ibs_irqs_masked, 1);
	/* The entry unmasked, but IBS_CTL names none. */
	eilvt_write(OFFSET, APIC_LVT_DELIVERY_FIXED | IBS_VECTOR);
	sim_inject_ibs_ctl(0);
	arm_op(OP_PERIOD, false);
	sim_run(OP_PERIOD, 0, IP_A);
	assert_int_equal(irqs.count, 0);
	/* NMI delivery through another entry IBS_CTL names. */
	sim_inject_ibs_ctl(IBS_CTL_LVT_OFFSET_VALID | 3);
	eilvt_write(3, APIC_LVT_DELIVERY_NMI);
	arm_op(OP_PERIOD, false);
	sim_run(OP_PERIOD, 0, IP_A);
	assert_int_equal(irqs.count, 1);
	assert_int_equal(irqs.vector[0], SIM_NMI_VECTOR);
}

/* The extended APIC space (APM: APIC_VERSION[31], APIC_EXT_FEATURE's
 * extended LVT count) on AMD models, in xAPIC and x2APIC mode; none on
 * Intel's. */
static void test_extended_apic_space(void **state)
{
	open_model("zen4");
	assert_true(hw_mmio_read32(XAPIC_BASE + APIC_VERSION) & APIC_VERSION_EXT_APIC_SPACE);
	assert_int_equal(FIELD(hw_mmio_read32(XAPIC_BASE + APIC_EXT_FEATURE), 23, 16),
			 APIC_EILVT_COUNT_MAX);
	for (unsigned n = 0; n < APIC_EILVT_COUNT_MAX; n++)
		assert_int_equal(eilvt_read(n), APIC_LVT_MASKED);
	hw_wrmsr(MSR_IA32_APIC_BASE, hw_rdmsr(MSR_IA32_APIC_BASE) | APIC_BASE_X2APIC_ENABLE);
	hw_wrmsr(x2apic_msr(apic_eilvt(2)), APIC_LVT_DELIVERY_NMI);
	assert_int_equal(hw_rdmsr(x2apic_msr(apic_eilvt(2))), APIC_LVT_DELIVERY_NMI);
	expect_wrmsr_gp(x2apic_msr(apic_eilvt(2)), BIT(20), "reserved");
	close_model(state);
	open_model("icx");
	hw_wrmsr(MSR_IA32_APIC_BASE, hw_rdmsr(MSR_IA32_APIC_BASE) | APIC_BASE_X2APIC_ENABLE);
	assert_false(hw_rdmsr(x2apic_msr(APIC_VERSION)) & APIC_VERSION_EXT_APIC_SPACE);
	expect_rdmsr_gp(x2apic_msr(apic_eilvt(0)), "cannot be read");
}

/* Fetch sampling: IbsFetchVal, FetchLinAd at MaxCnt fetches, IbsFetchCnt
 * showing bits 19:4 of the count (Linux get_ibs_fetch_count), periods
 * beyond 16 bits included; IbsRandEn starts the count at a random 0-15,
 * so the tag comes up to 15 fetches early. */
static void test_fetch_sampling(void **state)
{
	open_model("zen4");
	const u64 big = 100000;	/* IbsFetchMaxCnt 6250: the count passes 0xFFFF */
	hw_wrmsr(MSR_AMD_IBS_FETCH_CTL, IBS_FETCH_ENABLE | (big >> IBS_PERIOD_SHIFT));
	sim_run(big, big - 1, IP_A);
	assert_false(hw_rdmsr(MSR_AMD_IBS_FETCH_CTL) & IBS_FETCH_VAL);
	assert_int_equal(FIELD(hw_rdmsr(MSR_AMD_IBS_FETCH_CTL), 31, 16), (big - 1) >> 4);
	sim_run(1, 1, IP_B);
	assert_true(hw_rdmsr(MSR_AMD_IBS_FETCH_CTL) & IBS_FETCH_VAL);
	assert_int_equal(hw_rdmsr(MSR_AMD_IBS_FETCH_LINADDR), IP_B);
	/* the count that reached MaxCnt stays for the handler to read: Linux
	 * (perf_ibs_handle_irq, get_ibs_fetch_count) samples only when it
	 * completes the period */
	assert_int_equal(FIELD(hw_rdmsr(MSR_AMD_IBS_FETCH_CTL), 31, 16), big >> 4);
	hw_wrmsr(MSR_AMD_IBS_FETCH_CTL, 0);
	hw_wrmsr(MSR_AMD_IBS_FETCH_CTL, IBS_FETCH_ENABLE | IBS_FETCH_RAND_EN |
					(OP_PERIOD >> IBS_PERIOD_SHIFT));
	assert_int_equal(FIELD(hw_rdmsr(MSR_AMD_IBS_FETCH_CTL), 31, 16), 0);
	u64 ran = 0;
	while (!(hw_rdmsr(MSR_AMD_IBS_FETCH_CTL) & IBS_FETCH_VAL) && ran < OP_PERIOD) {
		sim_run(1, 1, IP_A);
		ran++;
	}
	assert_true(ran <= OP_PERIOD && ran > OP_PERIOD - 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_ibs_msrs_exist_per_cpuid, close_model),
		cmocka_unit_test_teardown(test_op_ctl_reserved_bits, close_model),
		cmocka_unit_test_teardown(test_maxcnt_counts_cycles, close_model),
		cmocka_unit_test_teardown(test_maxcnt_counts_ops, close_model),
		cmocka_unit_test_teardown(test_load_latches_data_address, close_model),
		cmocka_unit_test_teardown(test_val_latch_one_interrupt_rearm, close_model),
		cmocka_unit_test_teardown(test_masked_entry_delivers_nothing, close_model),
		cmocka_unit_test_teardown(test_extended_apic_space, close_model),
		cmocka_unit_test_teardown(test_fetch_sampling, close_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
