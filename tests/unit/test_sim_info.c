/* `bareperf --pmu=sim:MODEL info` reports each modelled PMU as the real
 * part's CPUID and capability MSRs describe it. */
#include "test.h"
#include "cmd/cli.h"
#include <unistd.h>

/* Runs a command line and returns what it printed on stdout. */
static char *run_cli(const char *pmu, const char *cmd, int *rc)
{
	char pmu_arg[64];
	snprintf(pmu_arg, sizeof(pmu_arg), "--pmu=%s", pmu);
	char *argv[] = { "bareperf", pmu_arg, (char *)cmd, NULL };
	struct global_opts g = { 0 };
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	dup2(fileno(tmp), STDOUT_FILENO);
	*rc = cli_main(3, argv, &g);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	long len = ftell(tmp);
	char *out = calloc(1, (size_t)len + 1);
	rewind(tmp);
	assert_int_equal(fread(out, 1, (size_t)len, tmp), (size_t)len);
	fclose(tmp);
	return out;
}

static void expect_lines(const char *pmu, const char *const *lines)
{
	int rc;
	char *out = run_cli(pmu, "info", &rc);
	assert_int_equal(rc, EXIT_OK);
	for (; *lines; lines++)
		if (!strstr(out, *lines))
			fail_msg("%s info lacks '%s'; it printed:\n%s", pmu, *lines, out);
	free(out);
}

static void test_info_icx(void **state)
{
	static const char *const lines[] = {
		"*** EMULATED PMU (sim:icx)",
		"signature 0x000606a6",
		"brand:        Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz",
		"perfmon:      version 5",
		"gp counters:  8 x 48 bits (mask 0xff)",
		"fixed:        4 x 48 bits (mask 0xf)",
		"  topdown slots                available",
		"IA32_PERF_CAPABILITIES = 0x74c5",
		"  perf metrics           no",
		"  PEBS record format     4",
		"  PEBS baseline          yes",
		"PEBS:         available",
		"local APIC:   xAPIC, id 0, base 0xfee00000",
		"LVT PC:       0x00010000 (vector 0x00, fixed, masked)",
		NULL };
	expect_lines("sim:icx", lines);
}

static void test_info_adl_hybrid(void **state)
{
	static const char *const lines[] = {
		"signature 0x00090672",
		"hybrid:       yes; this CPU is a performance core (Core) (0x40)",
		/* CPUID.0AH's common 6 + 3, and the P-core's 2 + 1 (Linux) */
		"gp counters:  8 x 48 bits (mask 0xff) [CPUID.0AH's common ones and this P-core's own]",
		"fixed:        4 x 48 bits (mask 0xf) [CPUID.0AH's common ones and this P-core's own]",
		"  PEBS record format     4",
		"  perf metrics           no",
		NULL };
	expect_lines("sim:adl", lines);
}

static void test_info_skl_nhm_core2_hsw(void **state)
{
	static const char *const skl[] = {
		"perfmon:      version 4", "gp counters:  4 x 48 bits", "fixed:        3 x 48 bits",
		"  PEBS record format     3", "  full-width writes      yes", "anythread:    supported",
		NULL };
	static const char *const nhm[] = {
		"perfmon:      version 3", "  PEBS record format     1", "  full-width writes      no",
		NULL };
	static const char *const core2[] = {
		"perfmon:      version 2", "gp counters:  2 x 40 bits", "  PEBS record format     0",
		NULL };
	static const char *const hsw[] = { "  PEBS record format     2", NULL };
	static const char *const spr[] = { "signature 0x000806f8", "  PEBS record format     4",
					   "  LBR format             63", NULL };
	expect_lines("sim:skl", skl);
	expect_lines("sim:nhm", nhm);
	expect_lines("sim:core2", core2);
	expect_lines("sim:hsw", hsw);
	expect_lines("sim:spr", spr);
}

static void test_info_nopmu_and_x2apic(void **state)
{
	static const char *const nopmu[] = {
		"hypervisor:   yes, signature 'TCGTCGTCGTCG'",
		"perfmon:      none: this CPU reports no architectural performance monitoring (CPUID.0AH version 0)",
		"PEBS:         not available", NULL };
	static const char *const x2[] = { "local APIC:   x2APIC, id 0", NULL };
	expect_lines("sim:nopmu", nopmu);
	expect_lines("sim:icx,x2apic", x2);
}

/* The AMD models through `info`: vendor, family/model and the counter
 * MSRs caps decodes from their CPUID (sim/README.md, AMD models). */
static void test_info_amd(void **state)
{
	static const char *const zen4[] = {
		"cpu:          AuthenticAMD, family 0x19 model 0x11 stepping 0x1 (signature 0x00a10f11)",
		"core counters: 6 x 48 bits (mask 0x3f) at PERF_CTL/PERF_CTR C001_0200H+ [PerfCtrExtCore]",
		"PerfMonV2:    yes", NULL };
	static const char *const zen2[] = {
		"cpu:          AuthenticAMD, family 0x17 model 0x31 stepping 0x0 (signature 0x00830f10)",
		"brand:        AMD EPYC 7742 64-Core Processor", "PerfMonV2:    no", NULL };
	expect_lines("sim:zen4", zen4);
	expect_lines("sim:zen2", zen2);
}

static void test_info_unknown_model(void **state)
{
	int rc;
	char *out = run_cli("sim:k6", "info", &rc);
	assert_int_equal(rc, EXIT_USAGE);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_info_icx),
		cmocka_unit_test(test_info_adl_hybrid),
		cmocka_unit_test(test_info_skl_nhm_core2_hsw),
		cmocka_unit_test(test_info_nopmu_and_x2apic),
		cmocka_unit_test(test_info_amd),
		cmocka_unit_test(test_info_unknown_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
