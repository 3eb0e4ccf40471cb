/* `bareperf selftest` against the emulated PMU: every check passes on every
 * model that has what it needs (and SKIPs with a reason otherwise: IBS on
 * Intel, PEBS on AMD), each
 * check FAILs on a model broken in the way it looks for, and the PMU and
 * APIC are left exactly as found, whatever the verdicts. The model runs
 * under its real drive tick (SIGALRM), as in `bareperf --pmu=sim`. */
#include "test_sim_support.h"
#include "cmd/cli.h"
#include "cli_run.h"
#include "arch/caps.h"
#include "pmu/pmu.h"
#include "pmu/selftest.h"
#include "sim/drive.h"
#include "workload/workload.h"

static struct pmu_caps caps;
static struct selftest_result res[SELFTEST_COUNT];
static struct sim_snapshot before, after;

static void start(const char *model)
{
	const char *why;
	open_model(model);
	pmu_caps_read(&caps);
	if (sim_drive_start(SIM_DRIVE_PERIOD_US, workload_insn_rate(), &why))
		fail_msg("sim_drive_start: %s", why);
}

/* Runs the checks in mask and asserts the PMU and APIC were left as found. */
static void run_checks(u32 mask)
{
	char diff[160];
	sim_snapshot(&before);
	selftest_run(&caps, mask, res);
	sim_drive_stop();	/* no tick may change the model after this */
	sim_snapshot(&after);
	if (!sim_snapshot_equal(&before, &after, diff, sizeof(diff)))
		fail_msg("selftest changed the PMU/APIC state: %s", diff);
	assert_int_equal(fault_count, 0);	/* probing accesses only: no fatal #GP */
}

static int teardown(void **state)
{
	sim_drive_stop();
	return close_model(state);
}

static void expect(enum selftest_check c, enum selftest_verdict v, const char *words)
{
	if (res[c].verdict != v)
		fail_msg("%s: %s (%s), expected %s", selftest_check_name(c),
			 selftest_verdict_name(res[c].verdict), res[c].reason, selftest_verdict_name(v));
	if (words && !strstr(res[c].reason, words))
		fail_msg("%s: reason '%s' lacks '%s'", selftest_check_name(c), res[c].reason, words);
}

static bool is_ibs(int c) { return c == SELFTEST_IBS_OP || c == SELFTEST_IBS_FETCH; }
static bool is_pebs(int c)
{
	return c == SELFTEST_PEBS_RECORD || c == SELFTEST_PEBS_THRESHOLD || c == SELFTEST_AUTO_RELOAD;
}

/* Intel: everything passes but the IBS checks, which say why not. */
static void expect_all_pass(void)
{
	for (int c = 0; c < SELFTEST_COUNT; c++)
		if (is_ibs(c))
			expect((enum selftest_check)c, SELFTEST_SKIP, "no IBS on Intel");
		else
			expect((enum selftest_check)c, SELFTEST_PASS, NULL);
}

/* AMD: everything passes but the PEBS checks, which say why not. */
static void expect_amd_pass(void)
{
	for (int c = 0; c < SELFTEST_COUNT; c++)
		if (is_pebs(c))
			expect((enum selftest_check)c, SELFTEST_SKIP, "AMD has no PEBS");
		else
			expect((enum selftest_check)c, SELFTEST_PASS, NULL);
}

#define ALL ((u32)GENMASK(SELFTEST_COUNT - 1, 0))

/* ---- every model passes ------------------------------------------------- */

static void passes_on(const char *model)
{
	start(model);
	run_checks(ALL);
	expect_all_pass();
}

static void test_icx(void **state)   { passes_on("icx"); }
static void test_skl(void **state)   { passes_on("skl"); }
static void test_spr(void **state)   { passes_on("spr"); }
static void test_adl(void **state)   { passes_on("adl"); }
static void test_nhm(void **state)   { passes_on("nhm"); }
static void test_hsw(void **state)   { passes_on("hsw"); }
static void test_core2(void **state) { passes_on("core2"); }
static void test_x2apic(void **state) { passes_on("icx,x2apic"); }
/* Architectural PEBS: the PEBS checks run on its registers and say so. */
static void test_cwf(void **state)
{
	passes_on("cwf");
	expect(SELFTEST_PEBS_RECORD, SELFTEST_PASS, "Architectural PEBS: 1 record(s) of 64 bytes");
	expect(SELFTEST_PEBS_THRESHOLD, SELFTEST_PASS, "GLOBAL_STATUS bit 54");
	expect(SELFTEST_AUTO_RELOAD, SELFTEST_PASS, "CFG_C's reload");
}
/* Diamond Rapids: family 19, Architectural PEBS. */
static void test_dmr(void **state) { passes_on("dmr"); }
/* Panther Lake: hybrid, Architectural PEBS on the P-core's 10 GP. */
static void test_ptl(void **state)
{
	passes_on("ptl");
	expect(SELFTEST_COUNTERS, SELFTEST_PASS, "10 GP + 4 fixed");
	expect(SELFTEST_PEBS_THRESHOLD, SELFTEST_PASS, "GLOBAL_STATUS bit 54");
}

/* ---- AMD ------------------------------------------------------------------ */

/* PerfMonV2: PerfCntrGlobalCtl enables, PerfCntrGlobalStatus shows the
 * overflow and PerfCntrGlobalStatusClr clears it; the APIC leaves LVT PC
 * unmasked; both IBS units sample and interrupt. The PMU, IBS controls,
 * the extended LVT entries and LVT PC are left as found (run_checks). */
static void test_zen4(void **state)
{
	start("zen4");
	run_checks(ALL);
	expect_amd_pass();
	expect(SELFTEST_COUNTERS, SELFTEST_PASS, "6 GP + 0 fixed counted");
	expect(SELFTEST_WIDTHS, SELFTEST_PASS, "6 PERF_CTR x 48 bits, each written whole");
	expect(SELFTEST_OVERFLOW_PMI, SELFTEST_PASS, "PerfCntrGlobalStatus 0x1");
	expect(SELFTEST_LVT_MASK, SELFTEST_PASS, "a second PMI came without unmasking");
	expect(SELFTEST_IBS_OP, SELFTEST_PASS, "through extended LVT entry 1; cleared");
	expect(SELFTEST_IBS_FETCH, SELFTEST_PASS, "IbsFetchLinAd");
}

/* Without PerfMonV2: each PERF_CTL's En enables, the overflow is the
 * counter's top bit clear after the wrap. */
static void test_zen2(void **state)
{
	start("zen2");
	run_checks(ALL);
	expect_amd_pass();
	expect(SELFTEST_OVERFLOW_PMI, SELFTEST_PASS, "PERF_CTR0's top bit clear at the PMI");
	expect(SELFTEST_IBS_OP, SELFTEST_PASS, "IbsOpRip");
}

static void test_zen4_x2apic(void **state)
{
	start("zen4,x2apic");
	run_checks(ALL);
	expect_amd_pass();
}

static void test_amd_dead_counter_fails(void **state)
{
	start("zen2");
	sim_inject_dead_counters(BIT(2));
	run_checks(BIT(SELFTEST_COUNTERS) | BIT(SELFTEST_OVERFLOW_PMI));
	expect(SELFTEST_COUNTERS, SELFTEST_FAIL, "GP2 counted no core cycles");
	expect(SELFTEST_OVERFLOW_PMI, SELFTEST_PASS, NULL);
}

/* PERF_CTR1 (C001_0203H) drops writes. */
static void test_amd_ignored_counter_write_fails(void **state)
{
	start("zen4");
	sim_inject_ignored_writes(MSR_AMD_PERF_CTR0 + 2);
	run_checks(BIT(SELFTEST_WIDTHS));
	expect(SELFTEST_WIDTHS, SELFTEST_FAIL, "PERF_CTR1: wrote 0x5a5a12345678, read back 0x0");
}

/* APM Vol. 2: PerfCntrGlobalStatusClr clears a status bit. */
static void test_amd_stuck_status_fails(void **state)
{
	start("zen4");
	sim_inject_stuck_status(BIT(0));
	run_checks(BIT(SELFTEST_OVERFLOW_PMI));
	expect(SELFTEST_OVERFLOW_PMI, SELFTEST_FAIL, "does not clear through PerfCntrGlobalStatusClr");
}

/* A counter that never wraps raises no PMI; without PerfMonV2 the reason
 * reads the counter. */
static void test_amd_no_overflow_fails(void **state)
{
	start("zen2");
	sim_inject_dead_counters(BIT(0));
	run_checks(BIT(SELFTEST_OVERFLOW_PMI) | BIT(SELFTEST_LVT_MASK));
	expect(SELFTEST_OVERFLOW_PMI, SELFTEST_FAIL, "did not overflow");
	expect(SELFTEST_LVT_MASK, SELFTEST_FAIL, "did not overflow");
}

/* On AMD the APIC leaves LVT PC unmasked: a mask set by delivery is a
 * FAIL there, by AMD's rule. */
static void test_amd_lvt_masked_fails(void **state)
{
	start("zen2");
	sim_inject_lvt_pc_masks(true);
	run_checks(BIT(SELFTEST_LVT_MASK) | BIT(SELFTEST_OVERFLOW_PMI));
	expect(SELFTEST_LVT_MASK, SELFTEST_FAIL, "delivery set the mask bit (Linux "
	       "amd_pmu_v2_handle_irq says it does not)");
	expect(SELFTEST_OVERFLOW_PMI, SELFTEST_PASS, NULL);
}

/* The firmware assigned IBS no extended LVT entry: both IBS checks SKIP
 * and say so; the core counter checks still run. */
static void test_ibs_without_lvt_offset_skips(void **state)
{
	start("zen4");
	sim_inject_ibs_ctl(0);
	run_checks(ALL);
	expect(SELFTEST_IBS_OP, SELFTEST_SKIP, "LvtOffsetVal clear");
	expect(SELFTEST_IBS_FETCH, SELFTEST_SKIP, "LvtOffsetVal clear");
	expect(SELFTEST_COUNTERS, SELFTEST_PASS, NULL);
}

/* Someone's unmasked entry at IBS_CTL's offset is left alone. */
static void test_ibs_entry_in_use_skips(void **state)
{
	start("zen4");
	hw_mmio_write32(XAPIC_BASE + apic_eilvt(1), APIC_LVT_DELIVERY_FIXED | 0x42);
	run_checks(BIT(SELFTEST_IBS_OP));
	expect(SELFTEST_IBS_OP, SELFTEST_SKIP, "extended LVT entry 1, which IBS_CTL names, is in use "
	       "(0x42, unmasked)");
}

/* IBS_OP_CTL drops writes: the unit never samples. */
static void test_ibs_op_dead_fails(void **state)
{
	start("zen4");
	sim_inject_ignored_writes(MSR_AMD_IBS_OP_CTL);
	run_checks(BIT(SELFTEST_IBS_OP) | BIT(SELFTEST_IBS_FETCH));
	expect(SELFTEST_IBS_OP, SELFTEST_FAIL, "IBS_OP_CTL = 0x0: no sample in 500 ms");
	expect(SELFTEST_IBS_FETCH, SELFTEST_PASS, NULL);
}

/* The extended LVT entry ignores writes (x2APIC: an MSR): the sample is
 * taken, the interrupt never comes. */
static void test_ibs_no_interrupt_fails(void **state)
{
	start("zen4,x2apic");
	sim_inject_ignored_writes(x2apic_msr(apic_eilvt(1)));
	run_checks(BIT(SELFTEST_IBS_FETCH) | BIT(SELFTEST_LVT_MASK));
	expect(SELFTEST_IBS_FETCH, SELFTEST_FAIL, "a sample (Val) but no interrupt through extended "
	       "LVT entry 1");
	expect(SELFTEST_LVT_MASK, SELFTEST_PASS, NULL);
}

static void test_intel_skips_ibs(void **state)
{
	start("icx");
	run_checks(BIT(SELFTEST_IBS_OP) | BIT(SELFTEST_IBS_FETCH));
	expect(SELFTEST_IBS_OP, SELFTEST_SKIP, "no IBS on Intel");
	expect(SELFTEST_IBS_FETCH, SELFTEST_SKIP, "no IBS on Intel");
}

/* The reasons carry what was measured: sizes per format (SDM 20.6.2.4). */
static void test_record_sizes_in_reasons(void **state)
{
	static const struct { const char *model, *size; } want[] = {
		{ "core2", "144 bytes, format 0" }, { "nhm", "176 bytes, format 1" },
		{ "hsw", "192 bytes, format 2" }, { "skl", "200 bytes, format 3" },
		/* 32 basic + 32 memory info + 144 GPRs */
		{ "icx", "208 bytes, format 4" },
	};
	for (unsigned i = 0; i < ARRAY_SIZE(want); i++) {
		start(want[i].model);
		run_checks(BIT(SELFTEST_PEBS_RECORD));
		expect(SELFTEST_PEBS_RECORD, SELFTEST_PASS, want[i].size);
		close_model(NULL);
	}
}

static void test_nopmu_skips(void **state)
{
	open_model("nopmu");
	pmu_caps_read(&caps);
	selftest_run(&caps, ALL, res);
	for (int c = 0; c < SELFTEST_COUNT; c++)
		expect((enum selftest_check)c, SELFTEST_SKIP, "no architectural PMU");
	assert_int_equal(fault_count, 0);
}

static void test_pebs_unavailable_skips(void **state)
{
	const char *why;
	open_model("icx");
	sim_inject_pebs_unavailable(true);	/* before caps are read: "firmware" */
	pmu_caps_read(&caps);
	assert_int_equal(sim_drive_start(SIM_DRIVE_PERIOD_US, workload_insn_rate(), &why), 0);
	run_checks(ALL);
	expect(SELFTEST_COUNTERS, SELFTEST_PASS, NULL);
	expect(SELFTEST_OVERFLOW_PMI, SELFTEST_PASS, NULL);
	expect(SELFTEST_PEBS_RECORD, SELFTEST_SKIP, "IA32_MISC_ENABLE[12]");
	expect(SELFTEST_PEBS_THRESHOLD, SELFTEST_SKIP, "PEBS unavailable");
	expect(SELFTEST_AUTO_RELOAD, SELFTEST_SKIP, "PEBS unavailable");
}

static void test_only_named_checks_run(void **state)
{
	start("skl");
	run_checks(BIT(SELFTEST_WIDTHS) | BIT(SELFTEST_LVT_MASK));
	expect(SELFTEST_WIDTHS, SELFTEST_PASS, NULL);
	expect(SELFTEST_LVT_MASK, SELFTEST_PASS, NULL);
	expect(SELFTEST_COUNTERS, SELFTEST_NOT_RUN, NULL);
	expect(SELFTEST_PEBS_RECORD, SELFTEST_NOT_RUN, NULL);
}

/* ---- each check fails on a model broken its way ------------------------------ */

static void test_dead_gp_counter_fails(void **state)
{
	start("icx");
	sim_inject_dead_counters(BIT(2));
	run_checks(ALL);
	expect(SELFTEST_COUNTERS, SELFTEST_FAIL, "GP2 counted no core cycles");
	expect(SELFTEST_WIDTHS, SELFTEST_PASS, NULL);
}

static void test_dead_fixed_counter_fails(void **state)
{
	start("skl");
	sim_inject_dead_counters(global_fixed_bit(1));
	run_checks(BIT(SELFTEST_COUNTERS));
	expect(SELFTEST_COUNTERS, SELFTEST_FAIL, "fixed1 counted no core cycles");
}

static void test_ignored_counter_write_fails(void **state)
{
	start("icx");
	sim_inject_ignored_writes(msr_pmc(1));
	run_checks(BIT(SELFTEST_WIDTHS));
	expect(SELFTEST_WIDTHS, SELFTEST_FAIL, "IA32_PMC1: wrote 0x12345678, read back 0x0");
}

static void test_ignored_full_width_write_fails(void **state)
{
	start("skl");
	sim_inject_ignored_writes(msr_a_pmc(3));
	run_checks(BIT(SELFTEST_WIDTHS));
	expect(SELFTEST_WIDTHS, SELFTEST_FAIL, "IA32_A_PMC3: wrote 0x5a5a12345678");
}

static void test_ignored_fixed_write_fails(void **state)
{
	start("core2");
	sim_inject_ignored_writes(msr_fixed_ctr(2));
	run_checks(BIT(SELFTEST_WIDTHS));
	expect(SELFTEST_WIDTHS, SELFTEST_FAIL, "IA32_FIXED_CTR2");
}

/* SDM 20.2.4: an overflow bit stays set until software clears it through
 * GLOBAL_OVF_CTRL / STATUS_RESET; one that will not clear is a FAIL. */
static void test_stuck_status_fails(void **state)
{
	start("skl");
	sim_inject_stuck_status(BIT(0));
	run_checks(BIT(SELFTEST_OVERFLOW_PMI));
	expect(SELFTEST_OVERFLOW_PMI, SELFTEST_FAIL, "does not clear");
}

/* LVT PC writes that do not stick (x2APIC: the LVT is an MSR): the
 * overflow happens, the PMI never comes. */
static void test_no_pmi_fails(void **state)
{
	start("icx,x2apic");
	sim_inject_ignored_writes(x2apic_msr(APIC_LVT_PERFCNT));
	run_checks(BIT(SELFTEST_OVERFLOW_PMI) | BIT(SELFTEST_LVT_MASK) | BIT(SELFTEST_COUNTERS));
	expect(SELFTEST_OVERFLOW_PMI, SELFTEST_FAIL, "but no PMI arrived");
	expect(SELFTEST_LVT_MASK, SELFTEST_FAIL, "no PMI arrived");
	expect(SELFTEST_COUNTERS, SELFTEST_PASS, NULL);
}

static void test_dead_pmi_counter_fails(void **state)
{
	start("nhm");
	sim_inject_dead_counters(BIT(0));
	run_checks(BIT(SELFTEST_OVERFLOW_PMI));
	expect(SELFTEST_OVERFLOW_PMI, SELFTEST_FAIL, "did not overflow");
}

/* SDM Vol. 3A 11.5.1: delivery sets the LVT PC mask bit. */
static void test_lvt_not_masked_fails(void **state)
{
	start("icx");
	sim_inject_lvt_pc_no_mask(true);
	run_checks(ALL);
	expect(SELFTEST_LVT_MASK, SELFTEST_FAIL, "did not set the mask bit");
	expect(SELFTEST_OVERFLOW_PMI, SELFTEST_PASS, NULL);
}

static void test_short_records_fail(void **state)
{
	start("skl");
	sim_inject_pebs_record_size(192);	/* format 3 is 200 bytes */
	run_checks(BIT(SELFTEST_PEBS_RECORD));
	expect(SELFTEST_PEBS_RECORD, SELFTEST_FAIL, "200-byte format-3 records");
}

static void test_short_adaptive_records_fail(void **state)
{
	start("icx");
	sim_inject_pebs_record_size(176);	/* 208 with memory info and GPRs */
	run_checks(BIT(SELFTEST_PEBS_RECORD));
	expect(SELFTEST_PEBS_RECORD, SELFTEST_FAIL, "208");
}

static void test_pebs_refused_fails(void **state)
{
	start("hsw");	/* caps say PEBS is there; then the CPU refuses it */
	sim_inject_pebs_unavailable(true);
	run_checks(BIT(SELFTEST_PEBS_RECORD));
	expect(SELFTEST_PEBS_RECORD, SELFTEST_FAIL, "IA32_PEBS_ENABLE faulted");
}

/* SDM 18.4.9: the threshold PMI comes when the index reaches the
 * threshold, not per record. */
static void test_pmi_per_record_fails(void **state)
{
	start("spr");
	sim_inject_pebs_threshold_ignored(true);
	run_checks(BIT(SELFTEST_PEBS_THRESHOLD) | BIT(SELFTEST_PEBS_RECORD));
	expect(SELFTEST_PEBS_THRESHOLD, SELFTEST_FAIL, "a PMI after 1 record(s); the threshold was 8");
	expect(SELFTEST_PEBS_RECORD, SELFTEST_PASS, NULL);
}

static void test_stuck_buffer_bit_fails(void **state)
{
	start("adl");
	sim_inject_stuck_status(GLOBAL_STATUS_OVF_BUFFER);
	run_checks(BIT(SELFTEST_PEBS_THRESHOLD));
	expect(SELFTEST_PEBS_THRESHOLD, SELFTEST_FAIL, "bit 62 (DS buffer)");
}

/* SDM 20.6.2.4: after a record the counter restarts from its DS reset value. */
static void test_no_reload_fails(void **state)
{
	start("core2");
	sim_inject_pebs_no_reload(true);
	run_checks(BIT(SELFTEST_AUTO_RELOAD) | BIT(SELFTEST_PEBS_RECORD));
	expect(SELFTEST_AUTO_RELOAD, SELFTEST_FAIL, "no auto-reload");
	expect(SELFTEST_PEBS_RECORD, SELFTEST_PASS, NULL);
}

/* The same two faults under Architectural PEBS: a PMI before THRESH,
 * and no reload from CFG_C. */
static void test_cwf_pmi_per_record_fails(void **state)
{
	start("cwf");
	sim_inject_pebs_threshold_ignored(true);
	run_checks(BIT(SELFTEST_PEBS_THRESHOLD));
	expect(SELFTEST_PEBS_THRESHOLD, SELFTEST_FAIL, "a PMI after 1 record(s); the threshold was 8");
}

static void test_cwf_no_reload_fails(void **state)
{
	start("cwf");
	sim_inject_pebs_no_reload(true);
	run_checks(BIT(SELFTEST_AUTO_RELOAD));
	expect(SELFTEST_AUTO_RELOAD, SELFTEST_FAIL, "no reload");
}

/* ---- left as found ---------------------------------------------------------------- */

/* pmu_open (taking over with force), every check, pmu_close: the
 * firmware state the caller set up comes back whole. */
static void session_leaves_state(void)
{
	char err[256], diff[160];
	const char *why;
	struct pmu p;
	pmu_caps_read(&caps);
	sim_snapshot(&before);
	assert_int_equal(pmu_open(&p, &caps, true, err, sizeof(err)), 0);
	assert_int_equal(sim_drive_start(SIM_DRIVE_PERIOD_US, workload_insn_rate(), &why), 0);
	selftest_run(&caps, ALL, res);
	sim_drive_stop();
	pmu_close(&p);
	sim_snapshot(&after);
	if (!sim_snapshot_equal(&before, &after, diff, sizeof(diff)))
		fail_msg("not left as found: %s", diff);
}

/* Firmware state everywhere the selftest writes: counters running (taken
 * over with force), counter values, a DS area, a PEBS_DATA_CFG, DEBUGCTL
 * bits, an unmasked LVT PC of its own. pmu_open + selftest + pmu_close
 * puts all of it back. */
static void test_session_leaves_firmware_state(void **state)
{
	static u64 firmware_ds[64];
	open_model("icx");
	sim_inject_counters_running();
	hw_wrmsr(msr_pmc(3), 0x1234);
	hw_wrmsr(msr_fixed_ctr(3), 0x777);
	hw_wrmsr(MSR_IA32_DS_AREA, (u64)(uintptr_t)firmware_ds);
	hw_wrmsr(MSR_PEBS_DATA_CFG, PEBS_DATACFG_XMMS);
	hw_wrmsr(MSR_IA32_DEBUGCTL, DEBUGCTL_FREEZE_LBRS_ON_PMI);
	hw_mmio_write32(XAPIC_BASE + APIC_LVT_PERFCNT, APIC_LVT_DELIVERY_NMI);
	session_leaves_state();
	expect_all_pass();
}

/* The same on AMD without PerfMonV2: a firmware counter running (its
 * PERF_CTL's En the enable), counter values, IBS controls set up but not
 * enabled, extended LVT entries with vectors (masked), an NMI LVT PC. */
static void test_session_leaves_amd_firmware_state(void **state)
{
	open_model("zen2");
	sim_inject_counters_running();
	hw_wrmsr(MSR_AMD_PERF_CTR0 + 2 * 3, 0x1234);
	hw_wrmsr(MSR_AMD_IBS_OP_CTL, 0x100);
	hw_wrmsr(MSR_AMD_IBS_FETCH_CTL, 0x200);
	for (unsigned n = 0; n < APIC_EILVT_COUNT_MAX; n++)
		hw_mmio_write32(XAPIC_BASE + apic_eilvt(n), APIC_LVT_MASKED | (0x40 + n));
	hw_mmio_write32(XAPIC_BASE + APIC_LVT_PERFCNT, APIC_LVT_DELIVERY_NMI);
	session_leaves_state();
	expect_amd_pass();
}

/* ---- the command ---------------------------------------------------------------------- */

static char out[16384];

static int run_cmd(const char *line)
{
	return cli_run_line(line, NULL, out, sizeof(out));
}

static void test_command_table(void **state)
{
	assert_int_equal(run_cmd("--pmu=sim:icx selftest"), EXIT_OK);
	assert_non_null(strstr(out, "*** EMULATED PMU (sim:icx)"));
	assert_non_null(strstr(out, "pebs-threshold   PASS"));
	assert_non_null(strstr(out, "7 passed, 0 failed, 2 skipped"));
	assert_non_null(strstr(out, "ibs-op           SKIP   no IBS on Intel"));
	assert_null(strstr(out, "FAIL"));
}

static void test_command_table_amd(void **state)
{
	assert_int_equal(run_cmd("--pmu=sim:zen2 selftest"), EXIT_OK);
	assert_non_null(strstr(out, "AMD core counters: 6 x 48 bits, no PerfMonV2"));
	assert_non_null(strstr(out, "ibs-fetch        PASS"));
	assert_non_null(strstr(out, "pebs-record      SKIP   AMD has no PEBS; IBS checks below"));
	assert_non_null(strstr(out, "6 passed, 0 failed, 3 skipped"));
	assert_null(strstr(out, "FAIL"));
}

static void test_command_json_and_selection(void **state)
{
	assert_int_equal(run_cmd("--pmu=sim:skl selftest --json widths auto-reload"), EXIT_OK);
	assert_non_null(strstr(out, "{\"backend\":\"sim:skl\",\"emulated\":true,\"checks\":["
				    "{\"name\":\"widths\",\"result\":\"PASS\""));
	assert_non_null(strstr(out, "{\"name\":\"auto-reload\",\"result\":\"PASS\""));
	assert_non_null(strstr(out, "\"passed\":2,\"failed\":0,\"skipped\":0}\n"));
	assert_null(strstr(out, "EMULATED PMU"));	/* the JSON says it instead */
	assert_int_equal(run_cmd("--pmu=sim:zen4 selftest --json ibs-op pebs-record"), EXIT_OK);
	assert_non_null(strstr(out, "{\"name\":\"pebs-record\",\"result\":\"SKIP\""));
	assert_non_null(strstr(out, "{\"name\":\"ibs-op\",\"result\":\"PASS\""));
	assert_non_null(strstr(out, "\"passed\":1,\"failed\":0,\"skipped\":1}\n"));
}

static void test_command_bad_input(void **state)
{
	assert_int_equal(run_cmd("--pmu=sim:icx selftest countrs"), EXIT_USAGE);
	assert_non_null(strstr(out, "unknown check 'countrs' (checks: counters, widths,"));
	assert_int_equal(run_cmd("--pmu=sim:icx selftest --fast"), EXIT_USAGE);
	assert_non_null(strstr(out, "unknown option '--fast'"));
}

static void test_command_no_pmu(void **state)
{
	assert_int_equal(run_cmd("--pmu=sim:nopmu selftest"), EXIT_NO_PMU);
	assert_non_null(strstr(out, "counters         SKIP   no architectural PMU"));
	assert_non_null(strstr(out, "0 passed, 0 failed, 9 skipped"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_icx, teardown),
		cmocka_unit_test_teardown(test_skl, teardown),
		cmocka_unit_test_teardown(test_spr, teardown),
		cmocka_unit_test_teardown(test_adl, teardown),
		cmocka_unit_test_teardown(test_nhm, teardown),
		cmocka_unit_test_teardown(test_hsw, teardown),
		cmocka_unit_test_teardown(test_core2, teardown),
		cmocka_unit_test_teardown(test_x2apic, teardown),
		cmocka_unit_test_teardown(test_cwf, teardown),
		cmocka_unit_test_teardown(test_ptl, teardown),
		cmocka_unit_test_teardown(test_dmr, teardown),
		cmocka_unit_test_teardown(test_zen4, teardown),
		cmocka_unit_test_teardown(test_zen2, teardown),
		cmocka_unit_test_teardown(test_zen4_x2apic, teardown),
		cmocka_unit_test_teardown(test_amd_dead_counter_fails, teardown),
		cmocka_unit_test_teardown(test_amd_ignored_counter_write_fails, teardown),
		cmocka_unit_test_teardown(test_amd_stuck_status_fails, teardown),
		cmocka_unit_test_teardown(test_amd_no_overflow_fails, teardown),
		cmocka_unit_test_teardown(test_amd_lvt_masked_fails, teardown),
		cmocka_unit_test_teardown(test_ibs_without_lvt_offset_skips, teardown),
		cmocka_unit_test_teardown(test_ibs_entry_in_use_skips, teardown),
		cmocka_unit_test_teardown(test_ibs_op_dead_fails, teardown),
		cmocka_unit_test_teardown(test_ibs_no_interrupt_fails, teardown),
		cmocka_unit_test_teardown(test_intel_skips_ibs, teardown),
		cmocka_unit_test_teardown(test_record_sizes_in_reasons, teardown),
		cmocka_unit_test_teardown(test_nopmu_skips, teardown),
		cmocka_unit_test_teardown(test_pebs_unavailable_skips, teardown),
		cmocka_unit_test_teardown(test_only_named_checks_run, teardown),
		cmocka_unit_test_teardown(test_dead_gp_counter_fails, teardown),
		cmocka_unit_test_teardown(test_dead_fixed_counter_fails, teardown),
		cmocka_unit_test_teardown(test_ignored_counter_write_fails, teardown),
		cmocka_unit_test_teardown(test_ignored_full_width_write_fails, teardown),
		cmocka_unit_test_teardown(test_ignored_fixed_write_fails, teardown),
		cmocka_unit_test_teardown(test_stuck_status_fails, teardown),
		cmocka_unit_test_teardown(test_no_pmi_fails, teardown),
		cmocka_unit_test_teardown(test_dead_pmi_counter_fails, teardown),
		cmocka_unit_test_teardown(test_lvt_not_masked_fails, teardown),
		cmocka_unit_test_teardown(test_short_records_fail, teardown),
		cmocka_unit_test_teardown(test_short_adaptive_records_fail, teardown),
		cmocka_unit_test_teardown(test_pebs_refused_fails, teardown),
		cmocka_unit_test_teardown(test_pmi_per_record_fails, teardown),
		cmocka_unit_test_teardown(test_stuck_buffer_bit_fails, teardown),
		cmocka_unit_test_teardown(test_no_reload_fails, teardown),
		cmocka_unit_test_teardown(test_cwf_pmi_per_record_fails, teardown),
		cmocka_unit_test_teardown(test_cwf_no_reload_fails, teardown),
		cmocka_unit_test_teardown(test_session_leaves_firmware_state, teardown),
		cmocka_unit_test_teardown(test_session_leaves_amd_firmware_state, teardown),
		cmocka_unit_test(test_command_table),
		cmocka_unit_test(test_command_table_amd),
		cmocka_unit_test(test_command_json_and_selection),
		cmocka_unit_test(test_command_bad_input),
		cmocka_unit_test(test_command_no_pmu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
