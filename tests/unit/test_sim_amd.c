/* sim/: the AMD models (zen4: EPYC 9654, PerfMonV2; zen2: EPYC 7742)
 * and the AMD64 APM Vol. 2 rules sim_amd.c models ("Performance
 * Monitoring Counters"), with Linux's KVM (arch/x86/kvm/svm/pmu.c,
 * arch/x86/kvm/pmu.c) as the reference for what the hardware does. CPUID
 * values are those of tests/unit/test_caps_amd.c's fake CPUs. */
#include "test_sim_support.h"
#include "arch/caps.h"
#include "sim/sim_machine.h"

#define EN_OS_USR (EVTSEL_EN | EVTSEL_OS | EVTSEL_USR)
#define CTL(n) (MSR_AMD_PERF_CTL0 + 2 * (n))
#define CTR(n) (MSR_AMD_PERF_CTR0 + 2 * (n))
#define TOP48 GENMASK(47, 0)

static struct cpuid_regs cpuid(u32 leaf)
{
	struct cpuid_regs r;
	hw_cpuid(leaf, 0, &r);
	return r;
}

static void assert_regs(u32 leaf, u32 a, u32 b, u32 c, u32 d)
{
	struct cpuid_regs r = cpuid(leaf);
	if (r.eax != a || r.ebx != b || r.ecx != c || r.edx != d)
		fail_msg("CPUID 0x%x: %08x %08x %08x %08x, want %08x %08x %08x %08x", leaf,
			 r.eax, r.ebx, r.ecx, r.edx, a, b, c, d);
}

/* Zen 4: AuthenticAMD, family 19h model 11h, PerfCtrExtCore (80000001H
 * ECX[23]), IBS (ECX[10], 8000001BH EAX 0xBFF), PerfMonV2 (80000022H EAX
 * 7, EBX 0x4106: 6 core counters); no leaf 0AH PMU, no PDCM, no DS. AMD
 * returns zeros beyond the highest leaf (Intel: the highest basic leaf). */
static void test_zen4_cpuid(void **state)
{
	open_model("zen4");
	assert_regs(0, 0x10, 0x68747541, 0x444D4163, 0x69746E65);	/* "AuthenticAMD" */
	struct cpuid_regs r = cpuid(1);
	assert_int_equal(r.eax, 0x00A10F11);
	assert_false(r.ecx & CPUID_01_ECX_PDCM);
	assert_false(r.edx & CPUID_01_EDX_DS);
	assert_regs(CPUID_LEAF_ARCH_PERFMON, 0, 0, 0, 0);
	assert_regs(CPUID_LEAF_EXT_MAX, 0x80000028, 0, 0, 0);
	assert_regs(CPUID_LEAF_AMD_FEATURES, 0x00A10F11, 0, 0x75C237FF, 0x2FD3FBFF);
	assert_regs(CPUID_LEAF_AMD_IBS, 0xBFF, 0, 0, 0);
	assert_regs(CPUID_LEAF_AMD_PERFMON, 0x7, 0x4106, 0, 0);
	assert_regs(0x80000029, 0, 0, 0, 0);
	assert_regs(0x11, 0, 0, 0, 0);

	struct pmu_caps c;
	pmu_caps_read(&c);
	assert_true(c.amd && c.perfctr_core && c.perfmon_v2 && c.ibs);
	assert_int_equal(c.family, 0x19);
	assert_int_equal(c.model, 0x11);
	assert_int_equal(c.num_gp, 6);
	assert_int_equal(c.ibs_caps, 0xBFF);
	assert_string_equal(c.brand, "AMD EPYC 9654 96-Core Processor");
	assert_false(c.counters_unusable);	/* the 0xabcd probe sticks */
	assert_int_equal(fault_count, 0);
}

/* Zen 2: family 17h model 31h, PerfCtrExtCore, no PerfMonV2: leaf
 * 80000022H is beyond its highest extended leaf (80000020H). */
static void test_zen2_cpuid(void **state)
{
	open_model("zen2");
	assert_int_equal(cpuid(1).eax, 0x00830F10);
	assert_regs(CPUID_LEAF_EXT_MAX, 0x80000020, 0, 0, 0);
	assert_regs(CPUID_LEAF_AMD_PERFMON, 0, 0, 0, 0);
	assert_regs(CPUID_LEAF_AMD_IBS, 0x3FF, 0, 0, 0);
	struct pmu_caps c;
	pmu_caps_read(&c);
	assert_int_equal(c.family, 0x17);
	assert_int_equal(c.model, 0x31);
	assert_true(c.perfctr_core);
	assert_false(c.perfmon_v2);
	assert_int_equal(c.num_gp, 6);
	assert_false(c.counters_unusable);
	assert_int_equal(fault_count, 0);
}

/* Which MSRs exist (KVM's amd_is_valid_msr): the legacy four pairs, six
 * PerfCtrExtCore pairs, the PerfMonV2 globals only with PerfMonV2; no
 * IA32 PMU, MISC_ENABLE, PERF_CAPABILITIES or DS_AREA on AMD. */
static void test_msr_existence(void **state)
{
	open_model("zen4");
	const u32 intel[] = { MSR_IA32_PMC0, MSR_IA32_PERFEVTSEL0, MSR_IA32_PERF_GLOBAL_CTRL,
			      MSR_IA32_MISC_ENABLE, MSR_IA32_PERF_CAPABILITIES, MSR_IA32_DS_AREA };
	for (size_t i = 0; i < ARRAY_SIZE(intel); i++)
		expect_rdmsr_gp(intel[i], "not implemented");
	expect_rdmsr_gp(CTL(6), "not implemented");	/* six pairs only */
	expect_wrmsr_gp(CTR(6), 0, "not implemented");
	expect_rdmsr_gp(MSR_K7_EVNTSEL0 + 8, "not implemented");
	hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS);	/* v2: they exist */
	assert_int_equal(fault_count, 9);

	open_model("zen2");
	const u32 v2[] = { MSR_AMD_PERF_CNTR_GLOBAL_STATUS, MSR_AMD_PERF_CNTR_GLOBAL_CTL,
			   MSR_AMD_PERF_CNTR_GLOBAL_STATUS_CLR, MSR_AMD_PERF_CNTR_GLOBAL_STATUS_SET };
	for (size_t i = 0; i < ARRAY_SIZE(v2); i++) {
		expect_rdmsr_gp(v2[i], "PerfMonV2");
		expect_wrmsr_gp(v2[i], 0, "PerfMonV2");
	}
	hw_wrmsr(CTL(5), EN_OS_USR | AMD_EVENT_RETIRED_INSTRUCTIONS);
	assert_int_equal(fault_count, 8);
}

/* DebugCtl (APM Vol. 2): bits 5:0 (LBR, BTF, PB0-3); other bits #GP.
 * With LbrAndPmcFreeze (zen4) the freeze-on-PMI bits exist, but the
 * model does not emulate freezing and says so. */
static void test_debugctl(void **state)
{
	open_model("zen4");
	hw_wrmsr(MSR_IA32_DEBUGCTL, DEBUGCTL_LBR | DEBUGCTL_BTF);
	assert_int_equal(hw_rdmsr(MSR_IA32_DEBUGCTL), DEBUGCTL_LBR | DEBUGCTL_BTF);
	expect_wrmsr_gp(MSR_IA32_DEBUGCTL, BIT(6), "reserved");
	expect_wrmsr_gp(MSR_IA32_DEBUGCTL, DEBUGCTL_FREEZE_LBRS_ON_PMI, "not emulated");
	open_model("zen2");
	expect_wrmsr_gp(MSR_IA32_DEBUGCTL, DEBUGCTL_FREEZE_LBRS_ON_PMI, "reserved");
}

/* The legacy K7 registers alias counters 0-3 (arch/x86/kvm/pmu.c:
 * "MSR_F15H_PERF_CTR[0-3] are aliased to MSR_K7_PERFCTRn"). */
static void test_legacy_aliases(void **state)
{
	open_model("zen2");
	for (u32 i = 0; i < AMD_LEGACY_COUNTERS; i++) {
		hw_wrmsr(MSR_K7_PERFCTR0 + i, 1000 + i);
		assert_int_equal(hw_rdmsr(CTR(i)), 1000 + i);
		hw_wrmsr(CTL(i), EVTSEL_OS | (0x40 + i));
		assert_int_equal(hw_rdmsr(MSR_K7_EVNTSEL0 + i), EVTSEL_OS | (0x40 + i));
	}
	hw_wrmsr(CTR(4), 77);	/* counter 4 has no legacy alias */
	for (u32 i = 0; i < AMD_LEGACY_COUNTERS; i++)
		assert_int_not_equal(hw_rdmsr(MSR_K7_PERFCTR0 + i), 77);
	assert_int_equal(fault_count, 0);
}

/* PERF_CTL's reserved bits (19, 21, 39:36, 63:42) are dropped without a
 * #GP: "AMD EPYC CPUs never raise a #GP for a WRMSR to a PerfEvtSeln MSR"
 * (Linux commit 9b026073db2f). HostOnly/GuestOnly (41:40) and
 * EventSelect[11:8] (35:32) are kept. */
static void test_perf_ctl_reserved_bits(void **state)
{
	open_model("zen4");
	u64 kept = AMD_EVTSEL_HOST_ONLY | AMD_EVTSEL_GUEST_ONLY | AMD_EVTSEL_EVENT_HI_MASK |
		   GENMASK(31, 22) | BIT(20) | GENMASK(18, 0);
	u64 reserved = BIT(19) | BIT(21) | BIT(36) | BIT(39) | BIT(42) | BIT(63);
	assert_int_equal(hw_wrmsr_safe(CTL(2), kept | reserved), 0);
	assert_int_equal(hw_rdmsr(CTL(2)), kept);
	struct sim_stats st;
	sim_stats_get(0, &st);
	assert_int_equal(st.reserved_dropped, 1);
	hw_wrmsr(CTL(2), kept);
	sim_stats_get(0, &st);
	assert_int_equal(st.reserved_dropped, 1);
	assert_int_equal(fault_count, 0);
}

/* Counters are 48 bits: a write keeps bits 47:0 whole (no sign extension
 * of bit 31, unlike Intel's IA32_PMCx) and drops 63:48 (KVM's
 * pmc_write_counter); RDPMC ECX 0-5 reads them zero-extended, other
 * indexes #GP (KVM's amd_check_rdpmc_early). */
static void test_counter_width_and_rdpmc(void **state)
{
	open_model("zen4");
	hw_wrmsr(CTR(0), ~0ULL);
	assert_int_equal(hw_rdmsr(CTR(0)), TOP48);
	hw_wrmsr(CTR(1), 0x80000000ULL);
	assert_int_equal(hw_rdmsr(CTR(1)), 0x80000000ULL);
	for (u32 i = 0; i < AMD_RDPMC_CORE_MAX; i++) {
		hw_wrmsr(CTR(i), 0x123456789ULL + i);
		assert_int_equal(hw_rdpmc(i), 0x123456789ULL + i);
	}
	int before = fault_count;
	hw_rdpmc(AMD_RDPMC_CORE_MAX);
	hw_rdpmc(BIT(30));	/* no fixed counters */
	assert_int_equal(fault_count, before + 2);
	assert_non_null(strstr(last_fault.rule, "RDPMC"));
}

/* Retired instructions (0xC0) and core cycles not in halt (0x76) count
 * exactly; the 12-bit event 0x1C0 is another event. */
static void test_counting_exact(void **state)
{
	const char *models[] = { "zen4", "zen2" };
	for (size_t m = 0; m < ARRAY_SIZE(models); m++) {
		open_model(models[m]);
		hw_wrmsr(CTL(0), EN_OS_USR | AMD_EVENT_RETIRED_INSTRUCTIONS);
		hw_wrmsr(CTL(1), EN_OS_USR | AMD_EVENT_CYCLES_NOT_HALTED);
		hw_wrmsr(CTL(2), EN_OS_USR | AMD_EVENT_RETIRED_INSTRUCTIONS |
				 (1ULL << AMD_EVTSEL_EVENT_HI_SHIFT));
		hw_wrmsr(CTL(3), EVTSEL_EN | EVTSEL_USR | AMD_EVENT_RETIRED_INSTRUCTIONS);
		sim_run(100000, 77777, 0x1000);
		assert_int_equal(hw_rdmsr(CTR(0)), 77777);
		assert_int_equal(hw_rdmsr(CTR(1)), 100000);
		assert_int_equal(hw_rdmsr(CTR(2)), 0);
		assert_int_equal(hw_rdmsr(CTR(3)), 0);	/* CPL 0, USR only */
		sim_set_cpl(3);
		sim_run(10, 10, 0x1000);
		assert_int_equal(hw_rdmsr(CTR(3)), 10);
		assert_int_equal(fault_count, 0);
	}
}

/* A counter counts when PERF_CTL.En is set and, with PerfMonV2, its
 * PerfCntrGlobalCtl bit too (APM Vol. 2, "Global Control"). GlobalCtl
 * resets to every counter's bit (KVM commit de120e1d692d). Without
 * PerfMonV2, En alone. */
static void test_enable_gating(void **state)
{
	open_model("zen4");
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_CTL), 0x3F);
	hw_wrmsr(CTL(0), EN_OS_USR | AMD_EVENT_RETIRED_INSTRUCTIONS);
	hw_wrmsr(CTL(1), EVTSEL_OS | AMD_EVENT_RETIRED_INSTRUCTIONS);	/* no En */
	hw_wrmsr(MSR_AMD_PERF_CNTR_GLOBAL_CTL, 0x3E);	/* counter 0 off */
	sim_run(100, 100, 0x1000);
	assert_int_equal(hw_rdmsr(CTR(0)), 0);
	assert_int_equal(hw_rdmsr(CTR(1)), 0);
	hw_wrmsr(MSR_AMD_PERF_CNTR_GLOBAL_CTL, 0x1);
	sim_run(100, 100, 0x1000);
	assert_int_equal(hw_rdmsr(CTR(0)), 100);
	hw_wrmsr(MSR_AMD_PERF_CNTR_GLOBAL_CTL, ~0ULL);	/* reserved bits dropped */
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_CTL), 0x3F);

	open_model("zen2");
	hw_wrmsr(CTL(0), EN_OS_USR | AMD_EVENT_RETIRED_INSTRUCTIONS);
	hw_wrmsr(CTL(1), EVTSEL_OS | AMD_EVENT_RETIRED_INSTRUCTIONS);
	sim_run(100, 100, 0x1000);
	assert_int_equal(hw_rdmsr(CTR(0)), 100);
	assert_int_equal(hw_rdmsr(CTR(1)), 0);
	assert_int_equal(fault_count, 0);
}

/* PerfMonV2 overflow: the counter wraps past 2^48 - 1, GlobalStatus bit n
 * is set, and with Int a PMI goes through LVT PC, which AMD's APIC does
 * not mask on delivery (Linux amd_pmu_v2_handle_irq: "the Mask (M) bit of
 * the LVT PMI entry is not set by the local APIC"): a second overflow
 * interrupts without the handler unmasking. */
static void test_zen4_overflow_pmi_unmasked(void **state)
{
	open_model("zen4");
	hook_irqs();
	unmask_lvt_pc();
	hw_wrmsr(CTR(0), minus(10, 48));
	hw_wrmsr(CTL(0), EN_OS_USR | EVTSEL_INT | AMD_EVENT_RETIRED_INSTRUCTIONS);
	hw_wrmsr(CTR(1), minus(5, 48));
	hw_wrmsr(CTL(1), EN_OS_USR | AMD_EVENT_RETIRED_INSTRUCTIONS);	/* no Int */
	sim_run(9, 9, 0x1000);
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS), 0x2);
	assert_int_equal(irqs.count, 0);
	sim_run(2, 2, 0x1000);
	assert_int_equal(irqs.count, 1);
	assert_int_equal(irqs.vector[0], PMI_VECTOR);
	assert_false(irqs.lvt_seen[0] & APIC_LVT_MASKED);
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS), 0x3);
	assert_int_equal(hw_rdmsr(CTR(0)), 1);	/* wrapped */
	hw_mmio_write32(XAPIC_BASE + APIC_EOI, 0);
	hw_wrmsr(CTR(0), minus(1, 48));
	sim_run(1, 1, 0x1000);
	assert_int_equal(irqs.count, 2);	/* LVT PC was never masked */
	assert_int_equal(fault_count, 0);
}

/* GlobalStatus is read-only: a write is ignored, not faulted ("Per PPR,
 * Read-only MSR. Writes are ignored.", KVM's kvm_pmu_set_msr).
 * GlobalStatusClr clears, GlobalStatusSet sets (no PMI), both read 0 and
 * drop bits beyond the counters. */
static void test_zen4_status_clr_set(void **state)
{
	open_model("zen4");
	hook_irqs();
	unmask_lvt_pc();
	hw_wrmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS_SET, 0x5 | BIT(63));
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS), 0x5);
	assert_int_equal(irqs.count, 0);
	hw_wrmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS, 0);
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS), 0x5);
	hw_wrmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS_CLR, 0x1);
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS), 0x4);
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS_CLR), 0);
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS_SET), 0);
	hw_wrmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS_CLR, ~0ULL);
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS), 0);
	assert_int_equal(fault_count, 0);
}

/* Without PerfMonV2 there is no status: the PMI comes, and software sees
 * the overflow by the counter's top bit, clear after a negative preset
 * (Linux x86_pmu_handle_irq). */
static void test_zen2_overflow_by_top_bit(void **state)
{
	open_model("zen2");
	hook_irqs();
	unmask_lvt_pc();
	hw_wrmsr(CTR(2), minus(100, 48));
	hw_wrmsr(CTL(2), EN_OS_USR | EVTSEL_INT | AMD_EVENT_CYCLES_NOT_HALTED);
	sim_run(99, 0, 0x1000);
	assert_true(hw_rdmsr(CTR(2)) & BIT(47));
	assert_int_equal(irqs.count, 0);
	sim_run(1, 0, 0x1000);
	assert_int_equal(irqs.count, 1);
	assert_false(hw_rdmsr(CTR(2)) & BIT(47));
	assert_false(sim_regs()->lvt_pc & APIC_LVT_MASKED);
	assert_int_equal(fault_count, 0);
}

#define FP_OPS (EN_OS_USR | AMD_EVENT_FP_RET_SSE_AVX_OPS | 0xFF00)	/* .all */
#define MERGE_EN (EVTSEL_EN | (AMD_EVENT_MERGE & 0xFF) | \
		  ((u64)(AMD_EVENT_MERGE >> 8) << AMD_EVTSEL_EVENT_HI_SHIFT))

static void fp_burst(u64 count, u32 per_cycle)
{
	struct sim_occ o = { .event = AMD_EVENT_FP_RET_SSE_AVX_OPS, .umask = 0x01,
			     .count = count, .per_cycle = per_cycle, .ip = 0x1000 };
	sim_event(&o);
}

/* Large-increment events (PPR for family 17h and later, "Large Increment
 * per Cycle Events"): fp_ret_sse_avx_ops counts up to 64 a cycle; a lone
 * counter adds at most 15 a cycle ("It does not provide a useful count
 * without the use of the MergeEvent"), an even counter with the Merge
 * event on the odd one counts every one, the odd counter holding the
 * upper 16 bits of a 64-bit count (Linux writes 0xffff there beside a
 * negative 48-bit preset: x86_perf_event_set_period). */
static void test_large_increment_merge(void **state)
{
	const char *models[] = { "zen4", "zen2" };
	for (size_t m = 0; m < ARRAY_SIZE(models); m++) {
		open_model(models[m]);
		hw_wrmsr(CTL(2), FP_OPS);		/* lone */
		hw_wrmsr(CTL(0), FP_OPS);		/* merged with counter 1 */
		hw_wrmsr(CTL(1), MERGE_EN);
		fp_burst(64 * 1000 + 20, 64);		/* 1,000 cycles of 64, one of 20 */
		assert_int_equal(hw_rdmsr(CTR(0)), 64020);
		assert_int_equal(hw_rdmsr(CTR(1)), 0);
		assert_int_equal(hw_rdmsr(CTR(2)), 15 * 1000 + 15);
		fp_burst(300, 10);			/* 10 a cycle: a lone counter keeps up */
		assert_int_equal(hw_rdmsr(CTR(2)), 15015 + 300);

		/* the carry: even wraps at 2^48, the odd counter takes it */
		hw_wrmsr(CTR(0), TOP48 - 9);
		hw_wrmsr(CTR(1), 0x7);
		fp_burst(64, 64);
		assert_int_equal(hw_rdmsr(CTR(0)), 54);
		assert_int_equal(hw_rdmsr(CTR(1)), 0x8);
		/* Merge without En, or on an even counter: no pair */
		hw_wrmsr(CTL(1), MERGE_EN & ~EVTSEL_EN);
		hw_wrmsr(CTR(0), 0);
		fp_burst(64, 64);
		assert_int_equal(hw_rdmsr(CTR(0)), 15);
		hw_wrmsr(CTL(3), FP_OPS);
		hw_wrmsr(CTL(4), MERGE_EN);		/* extends nothing: 3 is odd */
		fp_burst(64, 64);
		assert_int_equal(hw_rdmsr(CTR(3)), 15);
		assert_int_equal(fault_count, 0);
	}
}

/* The pair overflows when the 64-bit count wraps: status (PerfMonV2) and
 * the PMI are the even counter's; with 0xffff in the odd counter that is
 * exactly the even counter's wrap, so a sampling period works as on a lone
 * counter. Without the upper ones it would take 2^64 events. */
static void test_large_increment_overflow(void **state)
{
	open_model("zen4");
	hook_irqs();
	unmask_lvt_pc();
	hw_wrmsr(CTR(0), minus(1000, 48));
	hw_wrmsr(CTR(1), AMD_MERGE_UPPER_ONES);
	hw_wrmsr(CTL(1), MERGE_EN);
	hw_wrmsr(CTL(0), FP_OPS | EVTSEL_INT);
	fp_burst(960, 64);
	assert_int_equal(irqs.count, 0);
	fp_burst(64, 64);
	assert_int_equal(irqs.count, 1);
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS), 0x1);
	assert_int_equal(hw_rdmsr(CTR(0)), 24);
	assert_int_equal(hw_rdmsr(CTR(1)), 0);
	assert_int_equal(fault_count, 0);
}

/* Unit masks select sub-events (APM, "PerfEvtSeln"): ls_dispatch (0x29)
 * with 0x07 counts loads and stores, with 0x01 loads only. Events the
 * drive and the machine report in Intel's encoding count as AMD's:
 * branches as ex_ret_brn (0xC2), not as ex_ret_brn_tkn (0xC4, Intel's
 * branch code). */
static void test_subevents_and_intel_encoding(void **state)
{
	open_model("zen4");
	hw_wrmsr(CTL(0), EN_OS_USR | AMD_EVENT_LS_DISPATCH |
			 (u64)(AMD_UMASK_LS_DISPATCH_LD | AMD_UMASK_LS_DISPATCH_ST |
			       AMD_UMASK_LS_DISPATCH_LD_ST) << EVTSEL_UMASK_SHIFT);
	hw_wrmsr(CTL(1), EN_OS_USR | AMD_EVENT_LS_DISPATCH |
			 (u64)AMD_UMASK_LS_DISPATCH_LD << EVTSEL_UMASK_SHIFT);
	hw_wrmsr(CTL(2), EN_OS_USR | AMD_EVENT_RETIRED_BRANCHES);
	hw_wrmsr(CTL(3), EN_OS_USR | AMD_EVENT_RETIRED_TAKEN_BRANCHES);
	hw_wrmsr(CTL(4), EN_OS_USR | AMD_EVENT_LS_DMND_FILLS |
			 (u64)AMD_UMASK_FILLS_DRAM_NEAR << EVTSEL_UMASK_SHIFT);
	sim_events(AMD_EVENT_LS_DISPATCH, AMD_UMASK_LS_DISPATCH_LD, 30, 0x1000);
	sim_events(AMD_EVENT_LS_DISPATCH, AMD_UMASK_LS_DISPATCH_ST, 20, 0x1000);
	assert_int_equal(hw_rdmsr(CTR(0)), 50);
	assert_int_equal(hw_rdmsr(CTR(1)), 30);
	struct sim_occ br = { .event = ARCH_CODE_BRANCH_RETIRED, .umask = ARCH_UMASK_BRANCH_RETIRED,
			      .count = 40, .ip = 0x1000 };
	sim_event_from_intel(&br);
	struct sim_occ ld = { .event = EVENT_MEM_INST_RETIRED,
			      .umask = UMASK_MEM_INST_RETIRED_ALL_LOADS, .count = 7, .ip = 0x1000 };
	sim_event_from_intel(&ld);
	struct sim_occ dram = { .event = EVENT_MEM_LOAD_RETIRED,
				.umask = UMASK_MEM_LOAD_RETIRED_L3_MISS, .count = 3, .ip = 0x1000 };
	sim_event_from_intel(&dram);
	hw_wrmsr(CTL(5), EN_OS_USR | AMD_EVENT_L2_CACHE_REQ_STAT | 0x09ULL << EVTSEL_UMASK_SHIFT);
	struct sim_occ miss = { .event = ARCH_CODE_LLC_MISSES, .umask = ARCH_UMASK_LLC_MISSES,
				.count = 4, .ip = 0x1000 };
	sim_event_from_intel(&miss);	/* Linux's cache-misses, 0x0964 */
	assert_int_equal(hw_rdmsr(CTR(5)), 4);
	assert_int_equal(hw_rdmsr(CTR(2)), 40);
	assert_int_equal(hw_rdmsr(CTR(3)), 0);
	assert_int_equal(hw_rdmsr(CTR(0)), 57);
	assert_int_equal(hw_rdmsr(CTR(1)), 37);
	assert_int_equal(hw_rdmsr(CTR(4)), 3);
	assert_int_equal(fault_count, 0);
}

/* Inside a machine (QEMU's TCG PMU through sim_machine.h): the AMD
 * model owns the AMD counter MSRs and not Intel's (nor MISC_ENABLE's
 * perfmon bits), and what the guest
 * retires (reported as the machine reports it for every part) counts on
 * AMD's events: instructions on 0xC0, branches on 0xC2, misses on 0xC3,
 * loads and stores on ls_dispatch, loads from memory on 0x43/08, the
 * requests past L1 on Linux's cache-references (0xFF60). */
static void test_machine_retire(void **state)
{
	open_model("zen4");
	assert_true(sim_machine_owns_msr(CTR(5)));
	assert_true(sim_machine_owns_msr(MSR_K7_EVNTSEL0));
	assert_true(sim_machine_owns_msr(MSR_AMD_PERF_CNTR_GLOBAL_STATUS_SET));
	assert_false(sim_machine_owns_msr(MSR_IA32_PERFEVTSEL0));
	assert_false(sim_machine_owns_msr(MSR_IA32_PERF_GLOBAL_CTRL));
	u64 mask = 1;
	sim_machine_misc_enable_bits(0, &mask);
	assert_int_equal(mask, 0);	/* AMD has no IA32_MISC_ENABLE to share */
	char why[160];
	const u64 sel[] = {
		AMD_EVENT_RETIRED_INSTRUCTIONS, AMD_EVENT_RETIRED_BRANCHES,
		AMD_EVENT_RETIRED_BRANCH_MISPRED,
		AMD_EVENT_LS_DISPATCH | (u64)AMD_UMASK_LS_DISPATCH_ST << EVTSEL_UMASK_SHIFT,
		AMD_EVENT_LS_DMND_FILLS | (u64)AMD_UMASK_FILLS_DRAM_NEAR << EVTSEL_UMASK_SHIFT,
		AMD_EVENT_L2_REQUEST_G1 | 0xFFULL << EVTSEL_UMASK_SHIFT,	/* Linux's 0xff60 */
	};
	assert_false(sim_machine_counts_memory(0));
	for (u32 i = 0; i < ARRAY_SIZE(sel); i++)
		assert_int_equal(sim_machine_wrmsr(0, CTL(i), EN_OS_USR | sel[i], why, sizeof(why)), 0);
	assert_true(sim_machine_counts_memory(0));
	struct sim_machine_retired r = { .instructions = 1000, .branches = 150, .branch_misses = 9,
					 .loads = { 200, 20, 5 }, .stores = 100,
					 .llc_references = 25, .llc_misses = 5, .ip = 0x1000 };
	sim_machine_retire(0, &r);
	const u64 want[] = { 1000, 150, 9, 100, 5, 25 };
	for (u32 i = 0; i < ARRAY_SIZE(want); i++)
		assert_int_equal(hw_rdmsr(CTR(i)), want[i]);
	assert_int_equal(fault_count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_zen4_cpuid, close_model),
		cmocka_unit_test_teardown(test_zen2_cpuid, close_model),
		cmocka_unit_test_teardown(test_msr_existence, close_model),
		cmocka_unit_test_teardown(test_debugctl, close_model),
		cmocka_unit_test_teardown(test_legacy_aliases, close_model),
		cmocka_unit_test_teardown(test_perf_ctl_reserved_bits, close_model),
		cmocka_unit_test_teardown(test_counter_width_and_rdpmc, close_model),
		cmocka_unit_test_teardown(test_counting_exact, close_model),
		cmocka_unit_test_teardown(test_enable_gating, close_model),
		cmocka_unit_test_teardown(test_zen4_overflow_pmi_unmasked, close_model),
		cmocka_unit_test_teardown(test_zen4_status_clr_set, close_model),
		cmocka_unit_test_teardown(test_zen2_overflow_by_top_bit, close_model),
		cmocka_unit_test_teardown(test_subevents_and_intel_encoding, close_model),
		cmocka_unit_test_teardown(test_large_increment_merge, close_model),
		cmocka_unit_test_teardown(test_large_increment_overflow, close_model),
		cmocka_unit_test_teardown(test_machine_retire, close_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
