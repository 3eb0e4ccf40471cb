/* The seam's fatal faults where they cannot be reported (arch/hw.h): kept
 * per CPU and handed to the CPU that runs the command, and the `msr`
 * command that reads MSRs on each CPU through that path. Code on an AP
 * may not call firmware services (PI spec, EFI_MP_SERVICES_PROTOCOL:
 * "the AP procedure ... may not call boot services"), so a #GP there is
 * reported by the BSP; the host's one CPU stands in for the home CPU
 * with deferral on. */
#include "test.h"
#include "fake_hw.h"
#include "cli_run.h"
#include "arch/msr.h"

static const struct fake_cpuid some_cpuid[] = { FAKE_END_CPUID };
static const struct fake_msr some_msrs[] = {
	{ MSR_IA32_MISC_ENABLE, 0x850089 },
	FAKE_END_MSR,
};
static const struct fake_cpu some_cpu = { .name = "some", .cpuid = some_cpuid, .msrs = some_msrs };

static void test_deferred_fault_is_kept_once(void **state)
{
	(void)state;
	struct hw_fault f;
	u32 more = 99;
	fake_hw_select(&some_cpu);
	hw_fault_home(0);
	hw_fault_defer(true);
	assert_int_equal(hw_rdmsr(MSR_IA32_MISC_ENABLE), 0x850089);
	assert_false(hw_fault_take(0, &f, &more));
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL), 0);	/* faults: reads 0 */
	hw_wrmsr(MSR_IA32_PEBS_ENABLE, 0x5);
	hw_wrmsr(MSR_IA32_PEBS_ENABLE, 0x6);
	hw_fault_defer(false);
	assert_true(hw_fault_take(0, &f, &more));
	assert_int_equal(f.msr, MSR_IA32_PERF_GLOBAL_CTRL);	/* the first one */
	assert_false(f.write);
	assert_int_equal(more, 2);
	assert_false(hw_fault_take(0, &f, &more));		/* handed over once */
	assert_false(hw_fault_take(HW_FAULT_CPUS, &f, &more));
}

static void test_fault_words_name_the_msr(void **state)
{
	(void)state;
	char buf[300];
	struct hw_fault f = { .msr = MSR_IA32_PEBS_ENABLE, .value = 0x5, .write = true };
	snprintf(f.rule, sizeof(f.rule), "reserved bit 63");
	hw_fault_describe(&f, buf, sizeof(buf));
	assert_string_equal(buf, "#GP: WRMSR 0x3f1 <- 0x5: reserved bit 63");
	f.write = false;
	hw_fault_describe(&f, buf, sizeof(buf));
	assert_string_equal(buf, "#GP: RDMSR 0x3f1: reserved bit 63");
	/* No instruction ran (the host build): no "#GP" either. */
	f.not_run = true;
	snprintf(f.rule, sizeof(f.rule), "no RDMSR ran: user space cannot read MSRs");
	hw_fault_describe(&f, buf, sizeof(buf));
	assert_string_equal(buf, "RDMSR 0x3f1: no RDMSR ran: user space cannot read MSRs");
}

static char out[8192];

/* On the emulated icx: IA32_PERF_GLOBAL_CTRL reads its power-on value,
 * an MSR the model does not implement faults, named with its CPU. */
static void test_msr_command_reads_and_reports_gp(void **state)
{
	(void)state;
	int rc = cli_run("--pmu=sim:icx msr 0x38f 0x1a0 0x40000123", out, sizeof(out));
	assert_int_equal(rc, 1);
	assert_non_null(strstr(out, "0    0x38f        0x00000000000000ff"));
	assert_non_null(strstr(out, "0    0x40000123   #GP"));
	assert_null(strstr(out, "0x1a0        #GP"));
	rc = cli_run("--pmu=sim:icx msr 0x38f", out, sizeof(out));
	assert_int_equal(rc, 0);
}

/* The host twin runs no RDMSR at all (user space cannot): it says so,
 * not that the CPU raised #GP; the model's #GP names its rule. */
static void test_msr_command_says_why_no_value(void **state)
{
	(void)state;
	assert_int_equal(cli_run("--pmu=hw msr 0x38f", out, sizeof(out)), 1);
	assert_non_null(strstr(out, "user space cannot read MSRs"));
	assert_null(strstr(out, "raised #GP"));
	assert_int_equal(cli_run("--pmu=sim:icx msr 0x40000123", out, sizeof(out)), 1);
	assert_non_null(strstr(out, "0x40000123   #GP ("));
	assert_null(strstr(out, "the CPU raised #GP"));
}

static void test_msr_command_bad_input(void **state)
{
	(void)state;
	assert_int_equal(cli_run("--pmu=sim:icx msr", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "which MSR?"));
	assert_int_equal(cli_run("--pmu=sim:icx msr 0xzz", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "'0xzz': expected an MSR number"));
	assert_int_equal(cli_run("--pmu=sim:icx msr 0x100000000", out, sizeof(out)), 2);
	assert_int_equal(cli_run("--pmu=sim:icx msr -a -C 0 0x38f", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "-a and -C exclude each other"));
	assert_int_equal(cli_run("--pmu=sim:icx msr -C 7 0x38f", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "CPU 7 does not exist"));
	assert_int_equal(cli_run("--pmu=sim:icx msr -x", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "unknown option '-x'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deferred_fault_is_kept_once),
		cmocka_unit_test(test_fault_words_name_the_msr),
		cmocka_unit_test(test_msr_command_reads_and_reports_gp),
		cmocka_unit_test(test_msr_command_says_why_no_value),
		cmocka_unit_test(test_msr_command_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
