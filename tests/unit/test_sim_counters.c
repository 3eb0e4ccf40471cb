/* sim/: counter MSRs and counting, one SDM rule per test (Vol. 3B ch. 20). */
#include "test_sim_support.h"
#include "sim/sim_machine.h"

#define EN_OS_USR (EVTSEL_EN | EVTSEL_OS | EVTSEL_USR)
#define EV(code, umask) ((u64)(code) | (u64)(umask) << EVTSEL_UMASK_SHIFT)

/* SDM 20.2.5 / 20.2.6: a write to IA32_PMCx keeps bits 31:0 and
 * sign-extends bit 31 to the counter width; EDX is ignored. */
static void test_legacy_alias_sign_extends(void **state)
{
	open_model("skl");
	hw_wrmsr(msr_pmc(0), 0x80000001ULL);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 0xFFFF80000001ULL);
	hw_wrmsr(msr_pmc(1), 0xABCD00000010ULL);	/* high bits dropped */
	assert_int_equal(hw_rdmsr(msr_pmc(1)), 0x10);
	assert_int_equal(fault_count, 0);
}

/* SDM 20.2.6 (full-width writes): IA32_A_PMCx writes all bits; bits
 * beyond the counter width #GP. Reads through either alias agree. */
static void test_full_width_alias(void **state)
{
	open_model("icx");
	hw_wrmsr(msr_a_pmc(2), 0xFFFF00000000ULL);
	assert_int_equal(hw_rdmsr(msr_pmc(2)), 0xFFFF00000000ULL);
	assert_int_equal(hw_rdmsr(msr_a_pmc(2)), 0xFFFF00000000ULL);
	expect_wrmsr_gp(msr_a_pmc(2), BIT(48), "width");
	expect_wrmsr_gp(msr_fixed_ctr(0), BIT(48), "width");
	assert_int_equal(hw_rdmsr(msr_pmc(2)), 0xFFFF00000000ULL);	/* unchanged */
}

/* SDM 20.2.1.1: reserved PERFEVTSEL bits #GP: AnyThread when CPUID.0AH
 * says deprecated, IN_TX without TSX, the adaptive bit without baseline. */
static void test_evtsel_reserved_bits(void **state)
{
	open_model("icx");
	hw_wrmsr(msr_perfevtsel(0), EN_OS_USR | EVTSEL_INT | EVTSEL_ADAPTIVE_RECORD | EV(0xC0, 0));
	expect_wrmsr_gp(msr_perfevtsel(0), EVTSEL_ANY, "reserved");
	expect_wrmsr_gp(msr_perfevtsel(0), BIT(35), "reserved");
	assert_int_equal(sim_regs()->evtsel[0] & EVTSEL_ADAPTIVE_RECORD, EVTSEL_ADAPTIVE_RECORD);
	sim_close();
	open_model("skl");	/* v4: AnyThread valid; no baseline */
	hw_wrmsr(msr_perfevtsel(1), EVTSEL_ANY | EVTSEL_IN_TX);
	expect_wrmsr_gp(msr_perfevtsel(1), EVTSEL_ADAPTIVE_RECORD, "reserved");
	expect_wrmsr_gp(msr_perfevtsel(4), 0, "not implemented");	/* 4 GP with HT */
	sim_close();
	open_model("adl");	/* no TSX */
	expect_wrmsr_gp(msr_perfevtsel(0), EVTSEL_IN_TX, "reserved");
}

/* SDM 20.2.2: IA32_FIXED_CTR_CTRL has a 4-bit field per present fixed
 * counter, and (baseline) the adaptive bit 32+4i; anything else is
 * reserved. kvm-unit-tests x86/pmu_pebs.c writes 0x1111 << 32 for fixed
 * 0-3 and Linux shifts ICL_FIXED_0_ADAPTIVE by 4i. */
static void test_fixed_ctrl_reserved(void **state)
{
	open_model("icx");
	hw_wrmsr(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(3, FIXED_CTRL_OS | FIXED_CTRL_PMI) |
		 fixed_ctrl_adaptive(3));
	assert_int_equal(fixed_ctrl_adaptive(1), BIT(36));
	hw_wrmsr(MSR_IA32_FIXED_CTR_CTRL, 0x1111ULL << 32);
	expect_wrmsr_gp(MSR_IA32_FIXED_CTR_CTRL, BIT(33), "reserved");
	expect_wrmsr_gp(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(4, FIXED_CTRL_OS), "reserved");
	expect_wrmsr_gp(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(0, FIXED_CTRL_ANY), "reserved");
	sim_close();
	open_model("skl");
	expect_wrmsr_gp(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(3, FIXED_CTRL_OS), "reserved");
	expect_wrmsr_gp(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_adaptive(0), "reserved");
}

/* SDM 20.2.2: a counter counts only with its GLOBAL_CTRL bit set; at RESET
 * the GP bits are set and the fixed ones clear. */
static void test_global_ctrl_gates(void **state)
{
	open_model("icx");
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL), 0xFF);
	hw_wrmsr(msr_perfevtsel(0), EN_OS_USR | EV(0x3C, 0));
	hw_wrmsr(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(1, FIXED_CTRL_OS));
	sim_run(1000, 500, 0x1000);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 1000);
	assert_int_equal(hw_rdmsr(msr_fixed_ctr(1)), 0);	/* fixed 1 not enabled globally */
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, global_fixed_bit(1));
	sim_run(1000, 500, 0x1000);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 1000);
	assert_int_equal(hw_rdmsr(msr_fixed_ctr(1)), 1000);
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_CTRL, BIT(8), "reserved");
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_CTRL, BIT(36), "reserved");
}

/* Fixed counters count instructions, core cycles, reference cycles (TSC
 * rate) and topdown slots consistently with the run. */
static void test_run_counts_consistently(void **state)
{
	open_model("icx");	/* TSC 2300 MHz, core 3000 MHz, 5 slots/cycle */
	hw_wrmsr(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(0, FIXED_CTRL_OS) |
		 fixed_ctrl_field(1, FIXED_CTRL_OS) | fixed_ctrl_field(2, FIXED_CTRL_OS) |
		 fixed_ctrl_field(3, FIXED_CTRL_OS));
	hw_wrmsr(msr_perfevtsel(0), EN_OS_USR | EV(0xC0, 0));
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0xFULL << 32 | 1);
	u64 tsc0 = sim_tsc();
	sim_run(3000000, 2000000, 0x1000);
	assert_int_equal(hw_rdmsr(msr_fixed_ctr(0)), 2000000);
	assert_int_equal(hw_rdmsr(msr_fixed_ctr(1)), 3000000);
	assert_int_equal(hw_rdmsr(msr_fixed_ctr(2)), 2300000);
	assert_int_equal(hw_rdmsr(msr_fixed_ctr(3)), 15000000);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 2000000);
	assert_int_equal(sim_tsc() - tsc0, 2300000);
}

/* SDM 20.2.1.1: USR counts at CPL 1-3, OS at CPL 0; fixed fields likewise. */
static void test_usr_os_filter(void **state)
{
	open_model("skl");
	hw_wrmsr(msr_perfevtsel(0), EVTSEL_EN | EVTSEL_OS | EV(0x3C, 0));
	hw_wrmsr(msr_perfevtsel(1), EVTSEL_EN | EVTSEL_USR | EV(0x3C, 0));
	hw_wrmsr(msr_perfevtsel(2), EVTSEL_EN | EV(0x3C, 0));	/* neither: never counts */
	sim_run(100, 0, 0x1000);
	sim_set_cpl(3);
	sim_run(30, 0, 0x400000);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 100);
	assert_int_equal(hw_rdmsr(msr_pmc(1)), 30);
	assert_int_equal(hw_rdmsr(msr_pmc(2)), 0);
}

/* SDM 20.2.1.1: CMASK counts cycles with >= CMASK occurrences, INV
 * inverts that comparison, EDGE counts the cycles where the condition
 * starts; without CMASK every occurrence counts. */
static void test_cmask_inv_edge(void **state)
{
	open_model("icx");
	u64 ev = EN_OS_USR | EV(0xD1, 0x01);
	hw_wrmsr(msr_perfevtsel(0), ev);
	hw_wrmsr(msr_perfevtsel(1), ev | 2ULL << EVTSEL_CMASK_SHIFT);
	hw_wrmsr(msr_perfevtsel(2), ev | 3ULL << EVTSEL_CMASK_SHIFT | EVTSEL_INV);
	hw_wrmsr(msr_perfevtsel(3), ev | 1ULL << EVTSEL_CMASK_SHIFT | EVTSEL_EDGE);
	/* 10 occurrences at 3 per cycle: cycles see 3,3,3,1 */
	struct sim_occ o = { .event = 0xD1, .umask = 0x01, .count = 10, .per_cycle = 3, .ip = 0x2000 };
	sim_event(&o);
	sim_event(&o);	/* a second burst: a second edge */
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 20);
	assert_int_equal(hw_rdmsr(msr_pmc(1)), 6);	/* 3 cycles of 3 per burst */
	assert_int_equal(hw_rdmsr(msr_pmc(2)), 2);	/* the cycle with 1 < 3 per burst */
	assert_int_equal(hw_rdmsr(msr_pmc(3)), 2);
	/* INV with CMASK 0 is ignored. */
	hw_wrmsr(msr_perfevtsel(4), ev | EVTSEL_INV);
	sim_event(&o);
	assert_int_equal(hw_rdmsr(msr_pmc(4)), 10);
}

/* Instruction cmask on a run: with 3 instructions over 4 cycles no cycle
 * retires 2, and one cycle in four retires none (INV, CMASK 1). */
static void test_cmask_on_run(void **state)
{
	open_model("skl");
	hw_wrmsr(msr_perfevtsel(0), EN_OS_USR | EV(0xC0, 0) | 1ULL << EVTSEL_CMASK_SHIFT | EVTSEL_INV);
	hw_wrmsr(msr_perfevtsel(1), EN_OS_USR | EV(0xC0, 0) | 2ULL << EVTSEL_CMASK_SHIFT);
	sim_run(4000, 3000, 0x1000);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 1000);
	assert_int_equal(hw_rdmsr(msr_pmc(1)), 0);
}

/* Skylake's INST_RETIRED.PREC_DIST (0xC0/0x01) counts instructions as
 * ANY_P does, so TOTAL_CYCLES_PS (it with INV, CMASK 10: cycles:p's PEBS
 * alias there) counts every cycle of a run that retires < 10 a cycle. */
static void test_total_cycles_ps(void **state)
{
	open_model("skl");
	hw_wrmsr(msr_perfevtsel(0), EN_OS_USR | EV(0xC0, 0x01));
	hw_wrmsr(msr_perfevtsel(1), EN_OS_USR | EV(0xC0, 0x01) | 10ULL << EVTSEL_CMASK_SHIFT | EVTSEL_INV);
	sim_run(4000, 3000, 0x1000);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 3000);
	assert_int_equal(hw_rdmsr(msr_pmc(1)), 4000);
}

/* SDM 20.2.2: overflow wraps at the counter width and sets the counter's
 * GLOBAL_STATUS bit, INT or not. */
static void test_overflow_sets_status(void **state)
{
	open_model("skl");
	hw_wrmsr(msr_a_pmc(0), minus(10, 48));
	hw_wrmsr(msr_perfevtsel(0), EN_OS_USR | EV(0x3C, 0));
	hw_wrmsr(msr_fixed_ctr(1), minus(5, 48));
	hw_wrmsr(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(1, FIXED_CTRL_OS));
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 1 | global_fixed_bit(1));
	sim_run(9, 0, 0x1000);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS), global_fixed_bit(1));
	sim_run(3, 0, 0x1000);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 2);
	assert_int_equal(hw_rdmsr(msr_fixed_ctr(1)), 7);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS), 1 | global_fixed_bit(1));
	struct sim_stats st;
	sim_stats_get(0, &st);
	assert_int_equal(st.overflows, 2);
	assert_int_equal(st.pmis_raised, 0);	/* no INT/PMI bits */
}

/* SDM 20.2.4 (v4): GLOBAL_STATUS is read-only; STATUS_RESET (0x390)
 * clears with 1s, STATUS_SET (0x391) sets; reserved bits #GP. */
static void test_status_reset_and_set(void **state)
{
	open_model("icx");
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_STATUS, 0, "read-only");
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_SET, BIT(3) | global_fixed_bit(2) | GLOBAL_STATUS_OVF_BUFFER);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS),
			 BIT(3) | global_fixed_bit(2) | GLOBAL_STATUS_OVF_BUFFER);
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_RESET, BIT(3) | GLOBAL_STATUS_OVF_BUFFER);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS), global_fixed_bit(2));
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_STATUS_RESET, BIT(40), "reserved");
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_STATUS_SET, GLOBAL_STATUS_COND_CHGD, "reserved");
	struct sim_stats st;
	sim_stats_get(0, &st);
	assert_int_equal(st.pmis_raised, 0);	/* setting status raises no PMI */
	/* INUSE: read-only, reflects event selects and fixed enables. */
	hw_wrmsr(msr_perfevtsel(5), EV(0xC0, 0));
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_INUSE) & 0xFF, BIT(5));
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_INUSE, 0, "read-only");
}

/* The bits STATUS_RESET (OVF_CTRL before v4) clears, by version (SDM
 * Vol. 4, the architectural MSRs): Ovf_Uncore "If CPUID.0AH: EAX[7:0] >
 * 2", so reserved on a version 2 PMU (core2); ASCI (bit 60) in the
 * version 4 layout of STATUS_RESET and STATUS_SET (icx), not before (nhm,
 * version 3). */
static void test_status_bits_by_version(void **state)
{
	open_model("icx");
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_SET, GLOBAL_STATUS_ASCI | GLOBAL_STATUS_OVF_UNCORE);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS), GLOBAL_STATUS_ASCI | GLOBAL_STATUS_OVF_UNCORE);
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_RESET, GLOBAL_STATUS_ASCI | GLOBAL_STATUS_OVF_UNCORE);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS), 0);
	open_model("nhm");
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_OVF_UNCORE | GLOBAL_STATUS_COND_CHGD);
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_ASCI, "reserved");
	open_model("core2");
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_OVF_BUFFER | GLOBAL_STATUS_COND_CHGD);
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_OVF_UNCORE, "reserved");
}

/* Advertised means implemented: a model whose PERF_CAPABILITIES sets
 * perf metrics (bit 15) has PERF_METRICS (329H) and GLOBAL_CTRL bit 48, one
 * that sets PEBS output to Intel PT (bit 16) takes PEBS_ENABLE bit 60
 * (PEBS_OUTPUT_PT); a model without them faults there, as the hardware
 * does. A guest that believes the bits (Linux does) must not #GP. */
static void test_advertised_capabilities(void **state)
{
	for (size_t i = 0; i < sim_model_count(); i++) {
		open_model(sim_model_name(i));
		struct cpuid_regs r;
		hw_cpuid(0, 0, &r);
		if (r.ebx != 0x756E6547)	/* "Genu": Intel's capability MSR only */
			continue;
		u64 cap = 0;
		if (hw_rdmsr_safe(MSR_IA32_PERF_CAPABILITIES, &cap))
			continue;	/* no PDCM */
		u64 v;
		bool metrics = hw_rdmsr_safe(MSR_PERF_METRICS, &v) == 0;
		if (!!(cap & PERF_CAP_PERF_METRICS) != metrics)
			fail_msg("%s: perf metrics advertised %d, PERF_METRICS readable %d",
				 sim_model_name(i), !!(cap & PERF_CAP_PERF_METRICS), metrics);
		bool pt = hw_wrmsr_safe(MSR_IA32_PEBS_ENABLE, BIT(60)) == 0;
		if (cap & PERF_CAP_PEBS_OUTPUT_PT)
			assert_true(pt);
		assert_false(!(cap & PERF_CAP_PEBS_OUTPUT_PT) && pt);
	}
}

/* v4 freeze (SDM 20.2.4.1): with FREEZE_PERFMON_ON_PMI the PMU sets
 * CTR_FRZ when it raises a PMI and counters stop until it is cleared. */
static void test_freeze_on_pmi_v4(void **state)
{
	open_model("icx");
	hook_irqs();
	hw_wrmsr(MSR_IA32_DEBUGCTL, DEBUGCTL_FREEZE_PERFMON_ON_PMI | DEBUGCTL_FREEZE_LBRS_ON_PMI);
	hw_wrmsr(msr_a_pmc(0), minus(100, 48));
	hw_wrmsr(msr_perfevtsel(0), EN_OS_USR | EVTSEL_INT | EV(0x3C, 0));
	hw_wrmsr(msr_perfevtsel(1), EN_OS_USR | EV(0x3C, 0));
	sim_run(500, 0, 0x1000);	/* LVT PC masked: PMI dropped, freeze still happens */
	u64 st = hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	assert_true(st & GLOBAL_STATUS_CTR_FRZ);
	assert_true(st & GLOBAL_STATUS_LBR_FRZ);
	assert_int_equal(hw_rdmsr(msr_pmc(1)), 100);	/* stopped at the PMI */
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL), 0xFF);	/* untouched */
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_RESET, GLOBAL_STATUS_CTR_FRZ);
	sim_run(50, 0, 0x1000);
	assert_int_equal(hw_rdmsr(msr_pmc(1)), 150);
}

/* v2/v3 freeze (SDM 20.2.2): the PMI clears GLOBAL_CTRL and DEBUGCTL.LBR. */
static void test_freeze_on_pmi_v3(void **state)
{
	open_model("nhm");
	hw_wrmsr(MSR_IA32_DEBUGCTL, DEBUGCTL_FREEZE_PERFMON_ON_PMI | DEBUGCTL_FREEZE_LBRS_ON_PMI |
		 DEBUGCTL_LBR);
	hw_wrmsr(msr_pmc(0), minus(10, 32));
	hw_wrmsr(msr_perfevtsel(0), EN_OS_USR | EVTSEL_INT | EV(0x3C, 0));
	sim_run(20, 0, 0x1000);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL), 0);
	assert_int_equal(hw_rdmsr(MSR_IA32_DEBUGCTL) & DEBUGCTL_LBR, 0);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS) & GLOBAL_STATUS_CTR_FRZ, 0);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 0);	/* wrapped to 0, then frozen */
}

/* Loud faults: unknown MSRs, read-only capability MSRs, MISC_ENABLE's
 * read-only bits, BTS (not modelled), non-canonical DS_AREA. */
static void test_loud_faults(void **state)
{
	open_model("icx");
	expect_rdmsr_gp(0x329, "not implemented");
	expect_wrmsr_gp(MSR_IA32_PERF_CAPABILITIES, 0, "read-only");
	expect_wrmsr_gp(MSR_IA32_MISC_ENABLE, 0x850089 | MISC_ENABLE_PEBS_UNAVAILABLE, "read-only");
	hw_wrmsr(MSR_IA32_MISC_ENABLE, 0x850089 | BIT(3));	/* R/W bits are fine */
	expect_wrmsr_gp(MSR_IA32_DEBUGCTL, DEBUGCTL_BTS, "not emulated");
	expect_wrmsr_gp(MSR_IA32_DEBUGCTL, BIT(20), "reserved");
	expect_wrmsr_gp(MSR_IA32_DS_AREA, 0x0000800000000000ULL, "canonical");
	expect_wrmsr_gp(MSR_PEBS_LD_LAT_THRESHOLD, BIT(16), "reserved");
	struct sim_stats st;
	sim_stats_get(0, &st);
	assert_int_equal(st.faults, 7 * 2);	/* each expect_* faults twice */
	assert_non_null(strstr(sim_last_error(), "LD_LAT"));
}

/* Per-MSR access counts, for "MSR accesses per PMI" figures. */
static void test_msr_access_counts(void **state)
{
	open_model("icx");
	sim_msr_counts_reset();
	hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	u64 v;
	hw_rdmsr_safe(0x329, &v);	/* faulting accesses count too */
	assert_int_equal(sim_msr_reads(MSR_IA32_PERF_GLOBAL_STATUS), 2);
	assert_int_equal(sim_msr_writes(MSR_IA32_PERF_GLOBAL_CTRL), 1);
	assert_int_equal(sim_msr_reads(MSR_IA32_PERF_GLOBAL_CTRL), 0);
	assert_int_equal(sim_msr_reads(0x329), 1);
	assert_int_equal(sim_msr_accesses(), 4);
}

/* A trace of steps: a loop in ring 3 with a syscall in ring 0. */
static void test_replay_trace(void **state)
{
	open_model("skl");
	hw_wrmsr(msr_perfevtsel(0), EVTSEL_EN | EVTSEL_USR | EV(0xC0, 0));
	hw_wrmsr(msr_perfevtsel(1), EVTSEL_EN | EVTSEL_OS | EV(0xC0, 0));
	hw_wrmsr(msr_perfevtsel(2), EN_OS_USR | EV(0xD1, 0x08));
	const struct sim_step trace[] = {
		{ .kind = SIM_STEP_CPL, .arg = 3 },
		{ .kind = SIM_STEP_RUN, .repeat = 10, .cycles = 1000, .instructions = 2500, .ip = 0x401000 },
		{ .kind = SIM_STEP_EVENT, .repeat = 4,
		  .occ = { .event = 0xD1, .umask = 0x08, .count = 3, .ip = 0x401020 } },
		{ .kind = SIM_STEP_CPL, .arg = 0 },
		{ .kind = SIM_STEP_RUN, .cycles = 400, .instructions = 100, .ip = 0xFFFF0000 },
	};
	sim_replay(trace, ARRAY_SIZE(trace));
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 25000);
	assert_int_equal(hw_rdmsr(msr_pmc(1)), 100);
	assert_int_equal(hw_rdmsr(msr_pmc(2)), 12);
}

/* Injected: counters that do not count, writes that do not stick. */
static void test_inject_dead_and_ignored(void **state)
{
	open_model("icx");
	hw_wrmsr(msr_perfevtsel(0), EN_OS_USR | EV(0x3C, 0));
	hw_wrmsr(msr_perfevtsel(1), EN_OS_USR | EV(0x3C, 0));
	sim_inject_dead_counters(BIT(1));
	sim_run(10, 0, 0);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 10);
	assert_int_equal(hw_rdmsr(msr_pmc(1)), 0);
	sim_inject_ignored_writes(MSR_IA32_PERF_GLOBAL_CTRL);
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL), 0xFF);
	sim_inject_ignored_writes(0);
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL), 0);
	assert_int_equal(fault_count, 0);
}

/* MSR_PEBS_FRONTEND's valid bits per core, as Linux's extra_regs
 * (arch/x86/events/intel/core.c: intel_skl_extra_regs and
 * intel_icl_extra_regs 0x7fff17, intel_spr_extra_regs 0x7fff1f); no such
 * MSR before Skylake or on Gracemont (intel_grt_extra_regs has none). */
static void test_frontend_msr_valid_bits(void **state)
{
	open_model("skl");
	assert_int_equal(hw_wrmsr_safe(MSR_PEBS_FRONTEND, PEBS_FRONTEND_VALID_SKL), 0);
	assert_int_equal(hw_rdmsr(MSR_PEBS_FRONTEND), PEBS_FRONTEND_VALID_SKL);
	expect_wrmsr_gp(MSR_PEBS_FRONTEND, 0x8, "MSR_PEBS_FRONTEND");	/* EVTSEL bit 3 */
	expect_wrmsr_gp(MSR_PEBS_FRONTEND, BIT(23), "MSR_PEBS_FRONTEND");
	sim_close();
	open_model("icx");
	expect_wrmsr_gp(MSR_PEBS_FRONTEND, 0x8, "MSR_PEBS_FRONTEND");
	sim_close();
	open_model("spr");
	assert_int_equal(hw_wrmsr_safe(MSR_PEBS_FRONTEND, 0x8), 0);	/* 0x04c2's mask */
	expect_wrmsr_gp(MSR_PEBS_FRONTEND, 0x20, "MSR_PEBS_FRONTEND");
	sim_close();
	open_model("adl");
	assert_int_equal(hw_wrmsr_safe(MSR_PEBS_FRONTEND, 0x11), 0);	/* P-core */
	sim_set_cpu(1);
	expect_rdmsr_gp(MSR_PEBS_FRONTEND, NULL);			/* E-core */
	sim_set_cpu(0);
	sim_close();
	open_model("hsw");
	expect_rdmsr_gp(MSR_PEBS_FRONTEND, NULL);
}

/* MSR_OFFCORE_RSP_x reserved bits #GP, per core (arch/msr.h: Linux's
 * masks): icx bit 14 (intel_icl_extra_regs 0x3fffffbfff), skl bits 12-14
 * (0x3fffff8fff), nhm above bit 15 (0xffff); adl's E-core takes bits
 * 46-47 (its file's OCR.*_STREAMING_WR.*). */
static void test_offcore_msr_valid_bits(void **state)
{
	open_model("icx");
	assert_int_equal(hw_wrmsr_safe(MSR_OFFCORE_RSP_0, 0x3fffffbfffULL), 0);
	expect_wrmsr_gp(MSR_OFFCORE_RSP_0, 0x4000, "MSR_OFFCORE_RSP_0");
	expect_wrmsr_gp(MSR_OFFCORE_RSP_1, BIT(38), "MSR_OFFCORE_RSP_1");
	sim_close();
	open_model("skl");
	expect_wrmsr_gp(MSR_OFFCORE_RSP_0, 0x1000, "MSR_OFFCORE_RSP_0");
	sim_close();
	open_model("nhm");
	expect_wrmsr_gp(MSR_OFFCORE_RSP_0, 0x10000, "MSR_OFFCORE_RSP_0");
	sim_close();
	open_model("adl");
	expect_wrmsr_gp(MSR_OFFCORE_RSP_0, BIT(47), "MSR_OFFCORE_RSP_0");	/* P-core */
	sim_set_cpu(1);
	assert_int_equal(hw_wrmsr_safe(MSR_OFFCORE_RSP_0, BIT(47) | 0x10000), 0);
	sim_set_cpu(0);
}

/* FRONTEND_RETIRED (0xC6/0x01) counts only retirements that met the
 * condition MSR_PEBS_FRONTEND selects; for an IDQ bubble (EVTSEL 0x06)
 * one at least as long and as wide as asked. Encodings from
 * sapphirerapids_core.json: DSB_MISS 0x11, ITLB_MISS 0x14, LATENCY_GE_8
 * 0x600806, LATENCY_GE_16 0x601006. */
static void test_frontend_retired_qualified(void **state)
{
	open_model("spr");
	hw_wrmsr(msr_pmc(0), 0);
	hw_wrmsr(msr_perfevtsel(0), EVTSEL_EN | EVTSEL_OS | EVTSEL_USR | 0x01C6);
	hw_wrmsr(MSR_PEBS_FRONTEND, 0x11);
	struct sim_occ o = { .event = 0xC6, .umask = 0x01, .count = 5, .ip = 0x1000,
			     .insn_len = 4, .frontend = 0x11 };
	sim_event(&o);
	o.frontend = 0x14;
	sim_event(&o);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 5);
	hw_wrmsr(MSR_PEBS_FRONTEND, 0x600806);
	o.frontend = 0x600A06;	/* a 10-cycle bubble, full width: counts */
	sim_event(&o);
	o.frontend = 0x600406;	/* 4 cycles: too short */
	sim_event(&o);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 10);
	hw_wrmsr(MSR_PEBS_FRONTEND, 0x601006);
	o.frontend = 0x600A06;
	sim_event(&o);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 10);
}

/* kvm-unit-tests x86/pmu.c check_tsx_cycles counts transactional cycles
 * committed (IN_TXCP) on GP counter 2 only; KVM's intel_pmu_set_msr
 * (arch/x86/kvm/vmx/pmu_intel.c) keeps the bit reserved on the others. */
static void test_in_txcp_only_on_pmc2(void **state)
{
	open_model("skl");
	u64 sel = EN_OS_USR | EV(0x3C, 0);
	assert_int_equal(hw_wrmsr_safe(msr_perfevtsel(2), sel | EVTSEL_IN_TXCP), 0);
	assert_int_equal(hw_wrmsr_safe(msr_perfevtsel(0), sel | EVTSEL_IN_TX), 0);
	expect_wrmsr_gp(msr_perfevtsel(0), sel | EVTSEL_IN_TXCP, "IA32_PERFEVTSEL0");
	expect_wrmsr_gp(msr_perfevtsel(3), sel | EVTSEL_IN_TXCP, "IA32_PERFEVTSEL3");
	sim_close();
	open_model("adl");	/* no TSX: neither bit */
	expect_wrmsr_gp(msr_perfevtsel(2), sel | EVTSEL_IN_TXCP, "IA32_PERFEVTSEL2");
}

/* kvm-unit-tests x86/pmu.c check_running_counter_wrmsr: a write of 0 to
 * a counting counter restarts it from 0; a write of -1 (full width through
 * IA32_A_PMCx) makes the next event overflow and set its status bit. */
static void test_running_counter_writes(void **state)
{
	open_model("icx");
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, BIT(0));
	hw_wrmsr(msr_pmc(0), 0);
	hw_wrmsr(msr_perfevtsel(0), EN_OS_USR | EV(0xC0, 0));
	sim_run(1000, 1000, 0x1000);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 1000);
	hw_wrmsr(msr_pmc(0), 0);			/* while it counts */
	sim_run(10, 10, 0x1000);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 10);
	hw_wrmsr(msr_a_pmc(0), GENMASK(47, 0));		/* -1 at 48 bits */
	assert_false(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS) & BIT(0));
	sim_run(1, 1, 0x1000);
	assert_true(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS) & BIT(0));
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 0);
}

/* kvm-unit-tests x86/pmu.c check_counters_many and check_counter_overflow
 * in one: every GP and fixed counter at once, each written to its full
 * width's -1 through IA32_A_PMCx (GP; PERF_CAPABILITIES.FW_WRITE) or
 * IA32_FIXED_CTRx, overflows on its next events: GLOBAL_STATUS shows all
 * of them and each counter wrapped to what it counted past the top. */
static void test_every_counter_overflows(void **state)
{
	static const struct { const char *model; unsigned gp, fixed; } m[] = {
		{ "icx", 8, 4 }, { "spr", 8, 4 }, { "skl", 4, 3 }, { "hsw", 4, 3 },
	};
	for (size_t k = 0; k < ARRAY_SIZE(m); k++) {
		open_model(m[k].model);
		assert_true(hw_rdmsr(MSR_IA32_PERF_CAPABILITIES) & PERF_CAP_FW_WRITE);
		u64 all = 0, fixed_ctrl = 0;
		for (unsigned i = 0; i < m[k].gp; i++) {
			hw_wrmsr(msr_a_pmc(i), GENMASK(47, 0));
			hw_wrmsr(msr_perfevtsel(i), EN_OS_USR | EV(0xC0, 0));
			all |= BIT(i);
		}
		for (unsigned i = 0; i < m[k].fixed; i++) {
			hw_wrmsr(msr_fixed_ctr(i), GENMASK(47, 0));
			fixed_ctrl |= fixed_ctrl_field(i, FIXED_CTRL_OS | FIXED_CTRL_USR);
			all |= global_fixed_bit(i);
		}
		hw_wrmsr(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl);
		hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, all);
		sim_run(100, 100, 0x1000);	/* 100 cycles, 100 instructions */
		hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
		assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS), all);
		for (unsigned i = 0; i < m[k].gp; i++)
			assert_int_equal(hw_rdmsr(msr_pmc(i)), 99);
		assert_int_equal(hw_rdmsr(msr_fixed_ctr(0)), 99);	/* instructions */
		assert_int_equal(hw_rdmsr(msr_fixed_ctr(1)), 99);	/* core cycles */
		assert_true(hw_rdmsr(msr_fixed_ctr(2)) < 99);	/* TSC rate below the core's */
		assert_int_equal(fault_count, 0);
		sim_close();
	}
}

/* One architectural event (SDM Table 20-1) driven for the test: the
 * run-driven ones by 1000 cycles retiring 1000 instructions, the others
 * by 1000 injected occurrences. Returns what counter 0..n must show at
 * least (ref cycles: the crystal clock's share of the run). */
static u64 drive_arch_event(unsigned arch, u8 event, u8 umask)
{
	if (arch == ARCH_EVENT_CORE_CYCLES || arch == ARCH_EVENT_INST_RETIRED ||
	    arch == ARCH_EVENT_REF_CYCLES || arch == ARCH_EVENT_TOPDOWN_SLOTS) {
		sim_run(1000, 1000, 0x1000);
		return arch == ARCH_EVENT_REF_CYCLES ? 1 : 1000;
	}
	sim_events(event, umask, 1000, 0x1000);
	return 1000;
}

/* kvm-unit-tests x86/pmu.c check_gp_counters: every architectural event
 * CPUID.0AH reports available (EAX[31:24] long, EBX bit clear) counts on
 * every GP counter CPUID.0AH:EAX[15:8] enumerates. */
static void test_arch_events_on_every_gp_counter(void **state)
{
	static const struct { u8 event, umask; } arch[] = {
		{ 0x3C, 0x00 }, { 0xC0, 0x00 }, { 0x3C, 0x01 }, { 0x2E, 0x4F },
		{ 0x2E, 0x41 }, { 0xC4, 0x00 }, { 0xC5, 0x00 }, { 0xA4, 0x01 },
	};
	static const char *const models[] = { "icx", "spr", "skl", "hsw", "nhm" };
	for (size_t m = 0; m < ARRAY_SIZE(models); m++) {
		struct cpuid_regs r;
		open_model(models[m]);
		hw_cpuid(0xA, 0, &r);
		unsigned gp = (r.eax >> 8) & 0xFF, len = r.eax >> 24, tested = 0;
		for (unsigned e = 0; e < len && e < ARRAY_SIZE(arch); e++) {
			if (r.ebx & BIT(e))
				continue;	/* reported unavailable */
			for (unsigned i = 0; i < gp; i++) {
				hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, BIT(i));
				hw_wrmsr(msr_pmc(i), 0);
				hw_wrmsr(msr_perfevtsel(i), EN_OS_USR | EV(arch[e].event, arch[e].umask));
				u64 least = drive_arch_event(e, arch[e].event, arch[e].umask);
				u64 got = hw_rdmsr(msr_pmc(i));
				if (got < least)
					fail_msg("%s: arch event %u on GP%u counted %llu", models[m], e, i,
						 (unsigned long long)got);
				hw_wrmsr(msr_perfevtsel(i), 0);
				tested++;
			}
		}
		assert_true(tested >= 7 * 4);
		assert_int_equal(fault_count, 0);
		sim_close();
	}
}

/* kvm-unit-tests x86/pmu.c set_ref_cycle_expectations: GP reference
 * cycles (0x3C/01, the core crystal clock) keep a fixed ratio to the TSC,
 * which the suite measures once and scales its bounds by. Over runs of
 * two lengths the TSC : GP-ref ratio agrees within 1 %, on every model. */
static void test_gp_ref_cycles_track_tsc(void **state)
{
	static const char *const models[] = { "icx", "spr", "adl", "skl", "hsw", "nhm" };
	for (size_t m = 0; m < ARRAY_SIZE(models); m++) {
		double ratio[2];
		open_model(models[m]);
		hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, BIT(0));
		hw_wrmsr(msr_perfevtsel(0), EN_OS_USR | EV(0x3C, 0x01));
		for (int k = 0; k < 2; k++) {
			hw_wrmsr(msr_pmc(0), 0);
			u64 t0 = hw_rdtsc();
			sim_run(k ? 30000000 : 10000000, 1000, 0x1000);
			u64 tsc = hw_rdtsc() - t0, ref = hw_rdmsr(msr_pmc(0));
			assert_true(ref > 0 && tsc > ref);
			ratio[k] = (double)tsc / (double)ref;
		}
		double off = ratio[1] / ratio[0] - 1;
		if (off > 0.01 || off < -0.01)
			fail_msg("%s: TSC/ref %.2f then %.2f", models[m], ratio[0], ratio[1]);
		sim_close();
	}
}

static u64 rdpmc(u32 ecx)
{
	char why[160];
	u64 v = 0;
	if (sim_machine_rdpmc(0, ecx, &v, why, sizeof(why)))
		fail_msg("RDPMC 0x%x: %s", ecx, why);
	return v;
}

/* kvm-unit-tests x86/pmu.c check_rdpmc: after 0xff0123456789 is written
 * through the legacy alias (bits 31:0, sign-extended) or the full-width
 * one, RDPMC i reads it back masked to the counter width, ECX[31] (fast
 * read) its low 32 bits; fixed counters through ECX[30]. An index beyond
 * the counters #GPs (SDM Vol. 2B, RDPMC). */
static void test_rdpmc(void **state)
{
	const u64 val = 0xff0123456789ULL, width = GENMASK(47, 0);
	open_model("icx");
	for (unsigned i = 0; i < 8; i++) {
		hw_wrmsr(msr_pmc(i), val);
		assert_int_equal(rdpmc(i), (u64)(s64)(s32)(u32)val & width);
		hw_wrmsr(msr_a_pmc(i), val);
		assert_int_equal(rdpmc(i), val & width);
		assert_int_equal(rdpmc(i | BIT(31)), (u32)val);
	}
	for (unsigned i = 0; i < 4; i++) {
		hw_wrmsr(msr_fixed_ctr(i), val & width);
		assert_int_equal(rdpmc(i | BIT(30)), val & width);
		assert_int_equal(rdpmc(i | BIT(30) | BIT(31)), (u32)val);
	}
	char why[160];
	u64 v;
	assert_int_not_equal(sim_machine_rdpmc(0, 8, &v, why, sizeof(why)), 0);
	assert_int_not_equal(sim_machine_rdpmc(0, BIT(30) | 4, &v, why, sizeof(why)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_legacy_alias_sign_extends, close_model),
		cmocka_unit_test_teardown(test_full_width_alias, close_model),
		cmocka_unit_test_teardown(test_evtsel_reserved_bits, close_model),
		cmocka_unit_test_teardown(test_fixed_ctrl_reserved, close_model),
		cmocka_unit_test_teardown(test_global_ctrl_gates, close_model),
		cmocka_unit_test_teardown(test_run_counts_consistently, close_model),
		cmocka_unit_test_teardown(test_usr_os_filter, close_model),
		cmocka_unit_test_teardown(test_cmask_inv_edge, close_model),
		cmocka_unit_test_teardown(test_cmask_on_run, close_model),
		cmocka_unit_test_teardown(test_total_cycles_ps, close_model),
		cmocka_unit_test_teardown(test_overflow_sets_status, close_model),
		cmocka_unit_test_teardown(test_status_bits_by_version, close_model),
		cmocka_unit_test_teardown(test_advertised_capabilities, close_model),
		cmocka_unit_test_teardown(test_status_reset_and_set, close_model),
		cmocka_unit_test_teardown(test_freeze_on_pmi_v4, close_model),
		cmocka_unit_test_teardown(test_freeze_on_pmi_v3, close_model),
		cmocka_unit_test_teardown(test_loud_faults, close_model),
		cmocka_unit_test_teardown(test_msr_access_counts, close_model),
		cmocka_unit_test_teardown(test_replay_trace, close_model),
		cmocka_unit_test_teardown(test_inject_dead_and_ignored, close_model),
		cmocka_unit_test_teardown(test_frontend_msr_valid_bits, close_model),
		cmocka_unit_test_teardown(test_in_txcp_only_on_pmc2, close_model),
		cmocka_unit_test_teardown(test_running_counter_writes, close_model),
		cmocka_unit_test_teardown(test_every_counter_overflows, close_model),
		cmocka_unit_test_teardown(test_arch_events_on_every_gp_counter, close_model),
		cmocka_unit_test_teardown(test_gp_ref_cycles_track_tsc, close_model),
		cmocka_unit_test_teardown(test_rdpmc, close_model),
		cmocka_unit_test_teardown(test_offcore_msr_valid_bits, close_model),
		cmocka_unit_test_teardown(test_frontend_retired_qualified, close_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
