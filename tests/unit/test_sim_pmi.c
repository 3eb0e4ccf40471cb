/* sim/: the PMI path, the local APIC model, snapshots, fault injection. */
#include "test_sim_support.h"

#define EN_OS_USR (EVTSEL_EN | EVTSEL_OS | EVTSEL_USR)
#define CYCLES 0x3CULL

static void program_gp0(u64 left, bool with_int)
{
	hw_wrmsr(msr_a_pmc(0), minus(left, 48));
	hw_wrmsr(msr_perfevtsel(0), EN_OS_USR | CYCLES | (with_int ? EVTSEL_INT : 0));
}

/* SDM 20.2.1.1 + 11.5.1: a PMI needs the counter's INT bit and an
 * unmasked LVT PC; delivering it sets the LVT PC mask bit. */
static void test_pmi_needs_int_and_unmasked_lvt(void **state)
{
	struct sim_stats st;
	open_model("icx");
	hook_irqs();
	program_gp0(10, false);
	unmask_lvt_pc();
	sim_run(20, 0, 0x1000);
	assert_int_equal(irqs.count, 0);	/* overflow without INT */
	assert_true(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS) & 1);

	hw_mmio_write32(XAPIC_BASE + APIC_LVT_PERFCNT, APIC_LVT_MASKED | PMI_VECTOR);
	program_gp0(10, true);
	sim_run(20, 0, 0x1000);
	assert_int_equal(irqs.count, 0);	/* INT, but LVT PC masked */
	sim_stats_get(0, &st);
	assert_int_equal(st.pmis_raised, 1);
	assert_int_equal(st.pmis_masked, 1);

	unmask_lvt_pc();
	program_gp0(10, true);
	sim_run(20, 0, 0x1000);
	assert_int_equal(irqs.count, 1);
	assert_int_equal(irqs.vector[0], PMI_VECTOR);
	assert_int_equal(irqs.cpu[0], 0);
	assert_true(irqs.lvt_seen[0] & APIC_LVT_MASKED);	/* set on delivery */
	assert_int_equal(hw_mmio_read32(XAPIC_BASE + APIC_LVT_PERFCNT),
			 APIC_LVT_MASKED | PMI_VECTOR);
	/* Until the handler unmasks, the next overflow is dropped. */
	program_gp0(10, true);
	sim_run(20, 0, 0x1000);
	assert_int_equal(irqs.count, 1);
	sim_stats_get(0, &st);
	assert_int_equal(st.pmis_delivered, 1);
	assert_int_equal(st.pmis_masked, 2);
}

/* Fixed counters raise a PMI with their PMI bit (FIXED_CTR_CTRL bit 4i+3). */
static void test_fixed_counter_pmi(void **state)
{
	open_model("skl");
	hook_irqs();
	unmask_lvt_pc();
	hw_wrmsr(msr_fixed_ctr(0), minus(100, 48));
	hw_wrmsr(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(0, FIXED_CTRL_OS | FIXED_CTRL_PMI));
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, global_fixed_bit(0));
	sim_run(1000, 99, 0x1000);
	assert_int_equal(irqs.count, 0);
	sim_run(10, 1, 0x1000);
	assert_int_equal(irqs.count, 1);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS), global_fixed_bit(0));
}

/* LVT PC in NMI delivery mode: the hook gets vector 2, no ISR bit. */
static void test_nmi_delivery(void **state)
{
	open_model("icx");
	hook_irqs();
	hw_mmio_write32(XAPIC_BASE + APIC_LVT_PERFCNT, APIC_LVT_DELIVERY_NMI);
	program_gp0(5, true);
	sim_run(5, 0, 0x1000);
	assert_int_equal(irqs.count, 1);
	assert_int_equal(irqs.vector[0], SIM_NMI_VECTOR);
	for (int i = 0; i < 8; i++)
		assert_int_equal(sim_regs()->isr[i], 0);
}

/* A Linux-shaped handler: disable, read status, reload, ack, enable,
 * unmask LVT PC, EOI. It runs when the counter overflows, mid-run. */
static u64 seen_counter[16];
static void linux_like_handler(void)
{
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	u64 status = hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	if (irqs.count <= 16)
		seen_counter[irqs.count - 1] = hw_rdmsr(msr_pmc(0));
	if (status & 1)
		hw_wrmsr(msr_a_pmc(0), minus(1000, 48));
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_RESET, status);
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 1);
	hw_mmio_write32(XAPIC_BASE + APIC_LVT_PERFCNT, PMI_VECTOR);
	hw_mmio_write32(XAPIC_BASE + APIC_EOI, 0);
}

static void test_handler_runs_at_overflow(void **state)
{
	open_model("icx");
	hook_irqs();
	irqs.then = linux_like_handler;
	unmask_lvt_pc();
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 1);
	program_gp0(1000, true);
	sim_msr_counts_reset();
	sim_run(10500, 5000, 0x1000);
	assert_int_equal(irqs.count, 10);
	for (int i = 0; i < 10; i++)
		assert_int_equal(seen_counter[i], 0);	/* read right at the overflow */
	assert_int_equal(hw_rdmsr(msr_pmc(0)), minus(500, 48));
	/* 6 MSR accesses per PMI in this handler (+1 for the read above). */
	assert_int_equal(sim_msr_accesses(), 10 * 6 + 1);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS), 0);
}

/* Fixed delivery: a vector in service blocks the next one of the same
 * class until EOI; it waits in IRR, then arrives. */
static void test_isr_irr_eoi(void **state)
{
	open_model("skl");
	hook_irqs();
	unmask_lvt_pc();
	program_gp0(5, true);
	sim_run(5, 0, 0x1000);
	assert_int_equal(irqs.count, 1);
	assert_true(sim_regs()->isr[PMI_VECTOR / 32] & (1u << (PMI_VECTOR % 32)));
	unmask_lvt_pc();	/* re-armed, but no EOI yet */
	program_gp0(5, true);
	sim_run(5, 0, 0x1000);
	assert_int_equal(irqs.count, 1);
	assert_true(sim_regs()->irr[PMI_VECTOR / 32] & (1u << (PMI_VECTOR % 32)));
	hw_mmio_write32(XAPIC_BASE + APIC_EOI, 0);
	assert_int_equal(irqs.count, 2);
}

/* x2APIC: registers as MSRs 0x800 + off/16; EOI must be written with 0;
 * the MMIO page is no longer the APIC (SDM 11.12). */
static void test_x2apic_mode(void **state)
{
	open_model("icx");
	hook_irqs();
	hw_wrmsr(MSR_IA32_APIC_BASE, hw_rdmsr(MSR_IA32_APIC_BASE) | APIC_BASE_X2APIC_ENABLE);
	assert_int_equal(hw_rdmsr(x2apic_msr(APIC_ID)), 0);
	hw_wrmsr(x2apic_msr(APIC_LVT_PERFCNT), PMI_VECTOR);
	expect_wrmsr_gp(x2apic_msr(APIC_LVT_PERFCNT), BIT(20), "reserved");
	program_gp0(5, true);
	sim_run(5, 0, 0x1000);
	assert_int_equal(irqs.count, 1);
	assert_int_equal(hw_rdmsr(x2apic_msr(APIC_LVT_PERFCNT)), APIC_LVT_MASKED | PMI_VECTOR);
	expect_wrmsr_gp(x2apic_msr(APIC_EOI), 1, "x2APIC EOI");
	expect_rdmsr_gp(x2apic_msr(APIC_EOI), "cannot be read");
	hw_wrmsr(x2apic_msr(APIC_EOI), 0);
	/* x2APIC to xAPIC directly is invalid. */
	expect_wrmsr_gp(MSR_IA32_APIC_BASE, XAPIC_BASE | APIC_BASE_GLOBAL_ENABLE, "invalid");
	int before = fault_count;
	hw_mmio_read32(XAPIC_BASE + APIC_LVT_PERFCNT);	/* loud: not the APIC now */
	assert_int_equal(fault_count, before + 1);
	assert_non_null(strstr(last_fault.rule, "x2APIC mode"));
	/* Self IPI through the x2APIC SELF IPI register. */
	hw_wrmsr(MSR_X2APIC_SELF_IPI, 0x40);
	assert_int_equal(irqs.vector[1], 0x40);
}

/* xAPIC mode: x2APIC MSRs #GP; a self IPI through the ICR arrives. */
static void test_xapic_ipi(void **state)
{
	open_model("adl");
	hook_irqs();
	expect_rdmsr_gp(x2apic_msr(APIC_LVT_PERFCNT), "not in x2APIC mode");
	hw_mmio_write32(XAPIC_BASE + APIC_ICR_HIGH, 0);
	hw_mmio_write32(XAPIC_BASE + APIC_ICR_LOW, APIC_ICR_DEST_SELF | APIC_ICR_LEVEL_ASSERT | 0x41);
	assert_int_equal(irqs.count, 1);
	assert_int_equal(irqs.vector[0], 0x41);
	/* An IPI to CPU 1 runs the hook as CPU 1. */
	hw_mmio_write32(XAPIC_BASE + APIC_ICR_HIGH, 1u << 24);
	hw_mmio_write32(XAPIC_BASE + APIC_ICR_LOW, 0x42);
	assert_int_equal(irqs.count, 2);
	assert_int_equal(irqs.cpu[1], 1);
	assert_int_equal(sim_current_cpu(), 0);
}

/* Snapshots: equal when nothing changed; otherwise the first difference. */
static void test_snapshot_compare(void **state)
{
	struct sim_snapshot a, b;
	char diff[128];
	open_model("adl");
	sim_snapshot(&a);
	sim_snapshot(&b);
	assert_true(sim_snapshot_equal(&a, &b, diff, sizeof(diff)));
	sim_set_cpu(1);
	hw_mmio_write32(XAPIC_BASE + APIC_LVT_PERFCNT, PMI_VECTOR);
	sim_snapshot(&b);
	assert_false(sim_snapshot_equal(&a, &b, diff, sizeof(diff)));
	assert_string_equal(diff, "cpu1 lvt_pc: 0x10000 != 0xfe");
	hw_wrmsr(msr_perfevtsel(3), 0x3C);
	sim_snapshot(&b);
	assert_false(sim_snapshot_equal(&a, &b, diff, sizeof(diff)));
	assert_string_equal(diff, "cpu1 evtsel[3]: 0x0 != 0x3c");
}

static u64 status_in_handler;
static void read_status(void) { status_in_handler = hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS); }

/* Injected faults: spurious PMI, a stuck status bit, firmware counters. */
static void test_fault_injection(void **state)
{
	open_model("icx");
	hook_irqs();
	irqs.then = read_status;
	unmask_lvt_pc();
	sim_inject_spurious_pmi();
	assert_int_equal(irqs.count, 1);
	assert_int_equal(status_in_handler, 0);

	sim_inject_stuck_status(BIT(2));
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_RESET, BIT(2) | BIT(1));
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS), BIT(2));
	sim_inject_stuck_status(0);
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_RESET, BIT(2));
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS), 0);

	sim_inject_counters_running();
	assert_true(hw_rdmsr(msr_perfevtsel(0)) & EVTSEL_EN);
	sim_run(100, 50, 0x1000);
	assert_int_equal(hw_rdmsr(msr_fixed_ctr(0)), 50);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 100);

	sim_inject_pebs_unavailable(true);
	assert_true(hw_rdmsr(MSR_IA32_MISC_ENABLE) & MISC_ENABLE_PEBS_UNAVAILABLE);
	expect_wrmsr_gp(MSR_IA32_PEBS_ENABLE, 1, "MISC_ENABLE");
}

/* Injected: delivery leaves LVT PC unmasked (SDM 11.5.1 says it sets the
 * mask bit), so the handler sees its own unmasked value. */
static void test_inject_lvt_pc_no_mask(void **state)
{
	open_model("skl");
	hook_irqs();
	unmask_lvt_pc();
	sim_inject_lvt_pc_no_mask(true);
	sim_inject_spurious_pmi();
	assert_int_equal(irqs.count, 1);
	assert_int_equal(irqs.lvt_seen[0], APIC_LVT_DELIVERY_FIXED | PMI_VECTOR);
	sim_inject_lvt_pc_no_mask(false);
	hw_mmio_write32(XAPIC_BASE + APIC_EOI, 0);
	sim_inject_spurious_pmi();
	assert_int_equal(irqs.count, 2);
	assert_true(irqs.lvt_seen[1] & APIC_LVT_MASKED);
}

/* An interrupt with no hook registered is a loud model error. */
static void test_no_hook_is_loud(void **state)
{
	open_model("icx");
	unmask_lvt_pc();
	program_gp0(5, true);
	sim_run(5, 0, 0x1000);
	assert_int_equal(fault_count, 1);
	assert_non_null(strstr(last_fault.rule, "no interrupt hook"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_pmi_needs_int_and_unmasked_lvt, close_model),
		cmocka_unit_test_teardown(test_fixed_counter_pmi, close_model),
		cmocka_unit_test_teardown(test_nmi_delivery, close_model),
		cmocka_unit_test_teardown(test_handler_runs_at_overflow, close_model),
		cmocka_unit_test_teardown(test_isr_irr_eoi, close_model),
		cmocka_unit_test_teardown(test_x2apic_mode, close_model),
		cmocka_unit_test_teardown(test_xapic_ipi, close_model),
		cmocka_unit_test_teardown(test_snapshot_compare, close_model),
		cmocka_unit_test_teardown(test_fault_injection, close_model),
		cmocka_unit_test_teardown(test_inject_lvt_pc_no_mask, close_model),
		cmocka_unit_test_teardown(test_no_hook_is_loud, close_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
