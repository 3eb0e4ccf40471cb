/* sim/: the CPU models as the capability reader (arch/caps.c) sees them
 * through the seam, and the per-CPU layouts of the hybrid part. */
#include "test_sim_support.h"
#include "arch/caps.h"
#include "events/events.h"

static void read_caps(const char *model, struct pmu_caps *c)
{
	open_model(model);
	pmu_caps_read(c);
}

static void test_icx_enumeration(void **state)
{
	struct pmu_caps c;
	read_caps("icx", &c);
	assert_string_equal(c.vendor, "GenuineIntel");
	assert_int_equal(c.signature, 0x606A6);
	assert_int_equal(c.model, 0x6A);
	assert_string_equal(c.brand, "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz");
	assert_false(c.hypervisor);
	assert_false(c.hybrid);
	assert_int_equal(c.version, 5);
	assert_int_equal(c.num_gp, 8);
	assert_int_equal(c.gp_width, 48);
	assert_int_equal(c.num_fixed, 4);
	assert_int_equal(c.fixed_mask, 0xF);
	assert_true(caps_arch_event(&c, ARCH_EVENT_TOPDOWN_SLOTS));
	assert_true(c.anythread_deprecated);
	assert_int_equal(c.pebs_format, 4);
	assert_true(c.pebs_baseline && c.full_width_write);
	/* cleared: neither perf metrics nor PEBS output to PT is modelled
	 * (sim/README.md, "Capabilities") */
	assert_false(c.perf_metrics || c.pebs_output_pt);
	assert_true(c.ds && c.dtes64 && c.pdcm && c.x2apic);
	assert_true(caps_has_pebs(&c));
	assert_string_equal(hw_current()->name, "sim:icx");
	assert_true(hw_current()->emulated);
	assert_int_equal(fault_count, 0);
}

static void test_skl_enumeration(void **state)
{
	struct pmu_caps c;
	read_caps("skl", &c);
	assert_int_equal(c.signature, 0x506E3);
	assert_int_equal(c.version, 4);
	assert_int_equal(c.num_gp, 4);
	assert_int_equal(c.num_fixed, 3);
	assert_int_equal(c.arch_events_len, 7);
	assert_false(c.anythread_deprecated);
	assert_int_equal(c.pebs_format, 3);
	assert_false(c.pebs_baseline);
	assert_true(c.full_width_write);
	assert_true(caps_has_pebs(&c));
}

static void test_spr_enumeration(void **state)
{
	struct pmu_caps c;
	read_caps("spr", &c);
	assert_int_equal(c.signature, 0x806F8);
	assert_false(c.hybrid);
	assert_int_equal(c.version, 5);
	assert_int_equal(c.num_gp, 8);
	/* The real part reports format 4 with baseline (format 5 is newer). */
	assert_int_equal(c.pebs_format, 4);
	assert_true(c.pebs_baseline);
	assert_int_equal(c.lbr_format, 0x3F);	/* architectural LBR */
}

static void test_nhm_old_pebs(void **state)
{
	struct pmu_caps c;
	read_caps("nhm", &c);
	assert_int_equal(c.version, 3);
	assert_int_equal(c.pebs_format, 1);
	assert_false(c.full_width_write);
	assert_false(c.x2apic);
	/* No full-width alias without PERF_CAPABILITIES[13]. */
	expect_rdmsr_gp(msr_a_pmc(0), "FW_WRITE");
	/* v3 has no STATUS_SET / INUSE. */
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_STATUS_SET, 1, "not implemented");
}

/* Like QEMU's TCG: CPUID.0AH = 0, PDCM and DS clear, a hypervisor. */
static void test_nopmu(void **state)
{
	struct pmu_caps c;
	read_caps("nopmu", &c);
	assert_false(caps_has_pmu(&c));
	assert_true(c.hypervisor);
	assert_string_equal(c.hypervisor_sig, "TCGTCGTCGTCG");
	assert_false(c.pdcm || c.ds);
	expect_rdmsr_gp(msr_pmc(0), "no architectural perfmon");
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_CTRL, 0, "no architectural perfmon");
	expect_rdmsr_gp(MSR_IA32_PERF_CAPABILITIES, "PDCM");
	/* The APIC is still there. */
	assert_int_equal(hw_rdmsr(MSR_IA32_APIC_BASE) & APIC_BASE_ADDR_MASK, XAPIC_BASE);
}

/* Hybrid: CPUID.07H:EDX[15]; CPUID.1AH tells the core type per CPU. Both
 * core types enumerate the common 6 GP + 3 fixed in CPUID.0AH; the P-core
 * physically has 8 + 4. */
static void test_adl_hybrid_cpus(void **state)
{
	struct pmu_caps c;
	read_caps("adl", &c);
	assert_int_equal(sim_cpu_count(), 2);
	assert_true(c.hybrid);
	assert_int_equal(c.core_type, CPUID_1A_CORE_TYPE_CORE);
	struct cpuid_regs leaf0a;
	hw_cpuid(CPUID_LEAF_ARCH_PERFMON, 0, &leaf0a);
	assert_int_equal(FIELD(leaf0a.eax, 15, 8), 6);	/* the common view */
	assert_int_equal(c.num_gp, 8);			/* caps adds the P-core's 2 */
	assert_int_equal(c.num_fixed, 4);
	hw_wrmsr(msr_a_pmc(7), 0x1234);	/* P-core GP7 exists */
	assert_int_equal(hw_rdmsr(msr_pmc(7)), 0x1234);
	hw_wrmsr(msr_fixed_ctr(3), 5);

	sim_set_cpu(1);
	pmu_caps_read(&c);
	assert_int_equal(c.core_type, CPUID_1A_CORE_TYPE_ATOM);
	assert_int_equal(c.num_gp, 6);
	assert_int_equal(c.num_fixed, 3);
	assert_int_equal(fault_count, 0);
	expect_rdmsr_gp(msr_pmc(6), "not implemented");
	expect_wrmsr_gp(msr_fixed_ctr(3), 0, "not implemented");
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_CTRL, BIT(7), "reserved");
	/* Each CPU has its own PMU and APIC. */
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 0);
	struct cpuid_regs r;
	hw_cpuid(CPUID_LEAF_FEATURES, 0, &r);
	assert_int_equal(r.ebx >> 24, 1);	/* initial APIC ID */
	assert_int_equal(hw_mmio_read32(XAPIC_BASE + APIC_ID) >> 24, 1);
	sim_set_cpu(0);
	assert_int_equal(hw_rdmsr(msr_pmc(7)), 0x1234);
}

/* cpus=N: more logical CPUs, their core types repeating the model's
 * pattern; sim_open_cpus gives at least the machine's count (at most 4). */
static void test_cpu_count_option(void **state)
{
	char err[160];
	struct pmu_caps c;
	open_model("adl,cpus=4");
	assert_int_equal(sim_cpu_count(), 4);
	for (u32 cpu = 0; cpu < 4; cpu++) {
		sim_set_cpu(cpu);
		pmu_caps_read(&c);
		assert_int_equal(c.core_type, cpu % 2 ? CPUID_1A_CORE_TYPE_ATOM : CPUID_1A_CORE_TYPE_CORE);
		assert_int_equal(hw_mmio_read32(XAPIC_BASE + APIC_ID) >> 24, cpu);
	}
	sim_set_cpu(0);
	sim_close();
	assert_null(sim_open("icx,cpus=5", err, sizeof(err)));
	assert_non_null(strstr(err, "CPUs from 1 to 4"));
	assert_null(sim_open("icx,cpus=0", err, sizeof(err)));
	assert_null(sim_open("icx,cpus=2x", err, sizeof(err)));
	assert_non_null(sim_open_cpus("icx", 3, err, sizeof(err)));
	assert_int_equal(sim_cpu_count(), 3);
	assert_non_null(sim_open_cpus("icx", 64, err, sizeof(err)));
	assert_int_equal(sim_cpu_count(), 4);
	assert_non_null(sim_open_cpus("icx", 1, err, sizeof(err)));
	assert_int_equal(sim_cpu_count(), 2);	/* the model's own count */
	assert_non_null(sim_open_cpus("icx,cpus=1", 4, err, sizeof(err)));
	assert_int_equal(sim_cpu_count(), 1);	/* cpus=N wins */
}

static void test_unknown_model_and_options(void **state)
{
	char err[160];
	assert_null(sim_open("k6", err, sizeof(err)));
	assert_non_null(strstr(err, "known: icx, skl"));
	assert_null(sim_open("icx,turbo", err, sizeof(err)));
	assert_non_null(strstr(err, "turbo"));
	assert_null(sim_open("nhm,x2apic", err, sizeof(err)));	/* NHM has no x2APIC */
	assert_non_null(strstr(err, "x2APIC"));
	open_model("icx,x2apic");
	assert_true(hw_rdmsr(MSR_IA32_APIC_BASE) & APIC_BASE_X2APIC_ENABLE);
	assert_int_equal(hw_rdmsr(x2apic_msr(APIC_LVT_PERFCNT)), APIC_LVT_MASKED);
}

/* Perfmon v6 on Lunar Lake: CPUID.07H.1:EAX[8] announces CPUID.23H, whose
 * sub-leaf 1 gives each core type's counters as bitmaps (SDM Vol. 2A,
 * CPUID leaf 23H; Linux 6.12 update_pmu_cap); counters past the legacy
 * blocks' eight GP and four fixed exist only at 1900H + 4n and 1980H + 4n
 * (SDM Vol. 3B, "Architectural Performance Monitoring Version 6"). */
static void test_lnl_perfmon_v6(void **state)
{
	struct pmu_caps c;
	read_caps("lnl", &c);
	assert_int_equal(c.version, 6);
	assert_true(c.hybrid && c.arch_perfmon_ext && c.has_leaf_23);
	assert_int_equal(c.leaf23_subleaves, 0x3);
	assert_true(c.umask2 && c.evtsel_eq);
	assert_int_equal(c.core_type, CPUID_1A_CORE_TYPE_CORE);
	assert_int_equal(c.gp_mask, 0x3FF);
	assert_int_equal(c.num_gp, 10);
	assert_int_equal(c.fixed_mask, 0xF);
	assert_false(c.hybrid_core_extra);	/* CPUID.23H counts, no guess */
	assert_int_equal(c.pebs_format, 6);
	assert_true(caps_has_pebs(&c));
	assert_int_equal(caps_gp_counter_msr(&c, 9), 0x1924);
	assert_int_equal(caps_gp_eventsel_msr(&c, 9), 0x1925);
	assert_int_equal(caps_fixed_counter_msr(&c, 3), 0x198C);
	/* GP 9 is reached through the v6 block only; the legacy IA32_PMC0
	 * and IA32_A_PMC0 alias GP 0. */
	hw_wrmsr(msr_v6_gp_ctr(9), 0xABCD12345678ull);
	assert_int_equal(hw_rdmsr(msr_v6_gp_ctr(9)), 0xABCD12345678ull);
	expect_rdmsr_gp(msr_pmc(8), "not implemented");
	hw_wrmsr(msr_a_pmc(0), 0x800012345678ull);
	assert_int_equal(hw_rdmsr(msr_v6_gp_ctr(0)), 0x800012345678ull);
	hw_wrmsr(msr_v6_gp_cfg_a(0), EVTSEL_EN | EVTSEL_OS | 0x3C);
	assert_int_equal(hw_rdmsr(msr_perfevtsel(0)), EVTSEL_EN | EVTSEL_OS | 0x3C);
	hw_wrmsr(msr_v6_gp_cfg_a(1), EVTSEL_EN | EVTSEL_OS | 0xC4 | 1ull << EVTSEL_UMASK2_SHIFT);
	expect_wrmsr_gp(msr_v6_gp_ctr(9), BIT(48), "beyond the 48-bit");
	/* No auto counter reload or Architectural PEBS here: no CFG_B/C. */
	expect_rdmsr_gp(MSR_IA32_PMC_GP0_CFG_B, "auto counter reload is not enumerated");
	expect_wrmsr_gp(MSR_IA32_PMC_FX0_CFG_C, 0, "Architectural PEBS is not enumerated");

	/* Skymont: 8 GP, fixed 0-2 and 4-6; no fixed 3 anywhere. */
	sim_set_cpu(1);
	int faults = fault_count;
	pmu_caps_read(&c);
	assert_int_equal(c.core_type, CPUID_1A_CORE_TYPE_ATOM);
	assert_int_equal(c.gp_mask, 0xFF);
	assert_int_equal(c.fixed_mask, 0x77);
	assert_int_equal(c.num_fixed, 7);
	assert_int_equal(fault_count, faults);
	hw_wrmsr(msr_v6_fx_ctr(5), 77);
	assert_int_equal(hw_rdmsr(msr_v6_fx_ctr(5)), 77);
	hw_wrmsr(msr_v6_fx_ctr(1), 11);
	assert_int_equal(hw_rdmsr(msr_fixed_ctr(1)), 11);	/* the legacy alias */
	expect_rdmsr_gp(msr_v6_fx_ctr(3), "not implemented");
	expect_rdmsr_gp(msr_fixed_ctr(3), "not implemented");
	expect_rdmsr_gp(msr_v6_gp_ctr(8), "not implemented");
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_CTRL, global_fixed_bit(3), "reserved");
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, global_fixed_bit(6) | global_gp_bit(7));
	expect_wrmsr_gp(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(3, FIXED_CTRL_OS), "reserved");
	hw_wrmsr(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(4, FIXED_CTRL_OS));
	sim_set_cpu(0);
}

/* Panther Lake: hybrid with Architectural PEBS, and CPUID.23H is per core
 * type (SDM Vol. 2A, CPUID leaf 23H; ISE, "Architectural PEBS"): sub-leaf
 * 1 and 5 give Cougar Cove's 10 GP and fixed 0-3 on CPU 0 and Darkmont's
 * 8 GP and fixed 0-2, 4-6 on CPU 1, PDist on GP 0-1 and fixed 0 of both
 * (pantherlake_*_core.json "PDISTCounter"); CPUID.1AH's native model is
 * the mapfile's 4, so each CPU finds its own event table. */
static void test_ptl_hybrid_arch_pebs(void **state)
{
	struct pmu_caps c;
	read_caps("ptl", &c);
	assert_true(c.hybrid && caps_has_arch_pebs(&c) && !caps_has_ds_pebs(&c));
	assert_int_equal(c.core_type, CPUID_1A_CORE_TYPE_CORE);
	assert_int_equal(c.gp_mask, 0x3FF);
	assert_int_equal(c.arch_pebs_counters, 0xF000003FFull);
	assert_int_equal(c.arch_pebs_pdists, 0x100000003ull);
	assert_string_equal(event_table_for_caps(&c)->name, "ptl");
	sim_set_cpu(1);
	pmu_caps_read(&c);
	assert_int_equal(c.core_type, CPUID_1A_CORE_TYPE_ATOM);
	assert_int_equal(c.gp_mask, 0xFF);
	assert_int_equal(c.fixed_mask, 0x77);
	assert_true(caps_has_arch_pebs(&c));
	assert_int_equal(c.arch_pebs_counters, 0x77000000FFull);
	assert_int_equal(c.arch_pebs_pdists, 0x100000003ull);
	assert_string_equal(event_table_for_caps(&c)->name, "ptl-e");
	sim_set_cpu(0);
}

/* Diamond Rapids: display family 19 from CPUID.01H's extended family
 * (SDM Vol. 2A, CPUID: 0FH + 4), model 01H, so caps knows Panther Cove
 * (its OMR data sources) and the event table Linux's tables gave;
 * Architectural PEBS; the load-latency threshold MSR, and no
 * offcore-response MSRs (intel_pnc_extra_regs has OMR_0..3 instead). */
static void test_dmr(void **state)
{
	struct pmu_caps c;
	read_caps("dmr", &c);
	assert_int_equal(c.family, 19);
	assert_int_equal(c.model, 0x01);
	assert_true(caps_panther_cove(&c));
	assert_true(caps_has_arch_pebs(&c) && !caps_has_ds_pebs(&c));
	assert_int_equal(c.arch_pebs_pdists, 0x100000000ull);	/* fixed 0 alone */
	assert_string_equal(event_table_for_caps(&c)->name, "dmr");
	hw_wrmsr(MSR_PEBS_LD_LAT_THRESHOLD, 32);
	assert_int_equal(hw_rdmsr(MSR_PEBS_LD_LAT_THRESHOLD), 32);
	expect_rdmsr_gp(MSR_OFFCORE_RSP_0, "");
	read_caps("spr", &c);
	assert_false(caps_panther_cove(&c));
}

/* Every model lists a summary, and only the hybrid ones say so. */
static void test_every_model_opens(void **state)
{
	for (size_t i = 0; i < sim_model_count(); i++) {
		struct pmu_caps c;
		read_caps(sim_model_name(i), &c);
		assert_non_null(sim_model_summary(i));
		assert_int_equal(c.hybrid, strcmp(sim_model_name(i), "adl") == 0 ||
					   strcmp(sim_model_name(i), "lnl") == 0 ||
					   strcmp(sim_model_name(i), "ptl") == 0);
		assert_int_equal(fault_count, 0);
		sim_close();
	}
}

/* After sim_close the seam answers loudly instead of using stale state. */
static void test_closed_model_is_loud(void **state)
{
	open_model("icx");
	sim_close();
	expect_rdmsr_gp(MSR_IA32_PERF_GLOBAL_CTRL, "closed");
	int before = fault_count;
	hw_mmio_read32(XAPIC_BASE + APIC_ID);
	assert_int_equal(fault_count, before + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_icx_enumeration, close_model),
		cmocka_unit_test_teardown(test_skl_enumeration, close_model),
		cmocka_unit_test_teardown(test_spr_enumeration, close_model),
		cmocka_unit_test_teardown(test_nhm_old_pebs, close_model),
		cmocka_unit_test_teardown(test_nopmu, close_model),
		cmocka_unit_test_teardown(test_adl_hybrid_cpus, close_model),
		cmocka_unit_test_teardown(test_lnl_perfmon_v6, close_model),
		cmocka_unit_test_teardown(test_cpu_count_option, close_model),
		cmocka_unit_test_teardown(test_unknown_model_and_options, close_model),
		cmocka_unit_test_teardown(test_ptl_hybrid_arch_pebs, close_model),
		cmocka_unit_test_teardown(test_dmr, close_model),
		cmocka_unit_test_teardown(test_every_model_opens, close_model),
		cmocka_unit_test_teardown(test_closed_model_is_loud, close_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
