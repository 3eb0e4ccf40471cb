/* The command-line core: word splitting, global options, dispatch and the
 * errors a user sees for bad input. */
#include "test.h"
#include "fake_hw.h"
#include "cmd/cli.h"
#include "cli_run.h"
#include "host/capture.h"
#include "lib/out.h"
#include <unistd.h>
#include <sys/resource.h>
#include "workload/workload.h"
#include "lib/plat.h"

static char out[16384];

/* Runs a command line (words separated by blanks) and captures output. */
static int run(const char *line, struct global_opts *g)
{
	return cli_run_line(line, g, out, sizeof(out));
}

static void test_split(void **state)
{
	char line[] = "  record -e \"cycles:pp,instructions\"  -o a\\\"b  x ";
	char *argv[8];
	const char *err;
	int n = cli_split(line, argv, 8, &err);
	assert_int_equal(n, 6);
	assert_string_equal(argv[5], "x");
	assert_string_equal(argv[0], "record");
	assert_string_equal(argv[2], "cycles:pp,instructions");
	assert_string_equal(argv[4], "a\"b");
	assert_null(err);
}

static void test_split_errors(void **state)
{
	char open_quote[] = "stat -e \"cycles";
	char many[] = "a b c d e";
	char *argv[4];
	const char *err;
	assert_int_equal(cli_split(open_quote, argv, 4, &err), -1);
	assert_string_equal(err, "unterminated quote on the command line");
	assert_int_equal(cli_split(many, argv, 4, &err), -1);
	assert_non_null(strstr(err, "too many words"));
}

static void test_unknown_command_suggests(void **state)
{
	assert_int_equal(run("inof", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "unknown command 'inof'"));
	assert_non_null(strstr(out, "did you mean 'info'?"));
	assert_non_null(strstr(out, "usage: bareperf"));
}

static void test_no_command(void **state)
{
	assert_int_equal(run("--qemu-exit", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "no command given"));
}

static void test_unknown_global_option(void **state)
{
	assert_int_equal(run("--frobnicate info", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "unknown global option '--frobnicate'"));
}

static void test_bad_pmu_value(void **state)
{
	assert_int_equal(run("--pmu=real info", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "--pmu=real: expected 'hw', 'sim' or 'sim:MODEL'"));
	assert_int_equal(run("--pmu", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "option --pmu needs a value"));
}

/* A missing value is said once: report used to go on to call the option
 * unknown and print its usage as well. */
static void test_missing_value_said_once(void **state)
{
	assert_int_equal(run("report -i", NULL), EXIT_USAGE);
	assert_string_equal(out, "bareperf: option -i needs a value\n");
	assert_int_equal(run("report --sort", NULL), EXIT_USAGE);
	assert_string_equal(out, "bareperf: option --sort needs a value\n");
}

static void test_globals_parsed(void **state)
{
	struct global_opts g = { 0 };
	assert_int_equal(run("--qemu-exit -v --pmu hw info --help", &g), EXIT_OK);
	assert_true(g.qemu_exit);
	assert_int_equal(g.verbose, 1);
	assert_string_equal(g.pmu, "hw");
	assert_non_null(strstr(out, "usage: bareperf [GLOBAL OPTIONS] info"));
}

static void test_help_and_version(void **state)
{
	assert_int_equal(run("--help", NULL), EXIT_OK);
	assert_non_null(strstr(out, "Commands:"));
	assert_non_null(strstr(out, "info"));
	assert_int_equal(run("--version", NULL), EXIT_OK);
	assert_non_null(strstr(out, "bareperf 0."));
}

static void test_info_extra_argument(void **state)
{
	assert_int_equal(run("info bogus", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "unexpected argument 'bogus'"));
}

/* No fixed buffer cuts input or output
 * silently. 30 icx events, 1093 characters (the old 1024-byte list cut
 * the last name to "mem_load_l3_miss_retired.remote_h..." and refused it
 * as unknown). */
static const char long_list[] =
	"cpu_clk_unhalted.one_thread_active,"
	"cpu_clk_unhalted.ref_distributed,"
	"dsb2mite_switches.penalty_cycles,"
	"dtlb_load_misses.walk_completed_1g,"
	"dtlb_load_misses.walk_completed_2m_4m,"
	"dtlb_load_misses.walk_completed_4k,"
	"dtlb_store_misses.walk_completed,"
	"dtlb_store_misses.walk_completed_1g,"
	"dtlb_store_misses.walk_completed_2m_4m,"
	"dtlb_store_misses.walk_completed_4k,"
	"fp_arith_inst_retired.128b_packed_double,"
	"fp_arith_inst_retired.128b_packed_single,"
	"fp_arith_inst_retired.256b_packed_double,"
	"fp_arith_inst_retired.256b_packed_single,"
	"fp_arith_inst_retired.512b_packed_double,"
	"fp_arith_inst_retired.512b_packed_single,"
	"fp_arith_inst_retired.scalar_double,"
	"fp_arith_inst_retired.scalar_single,"
	"idq_uops_not_delivered.cycles_fe_was_ok,"
	"itlb_misses.walk_completed_2m_4m,"
	"mem_inst_retired.stlb_miss_loads,"
	"mem_inst_retired.stlb_miss_stores,"
	"mem_load_l3_hit_retired.xsnp_fwd,"
	"mem_load_l3_hit_retired.xsnp_miss,"
	"mem_load_l3_hit_retired.xsnp_no_fwd,"
	"mem_load_l3_hit_retired.xsnp_none,"
	"mem_load_l3_miss_retired.local_dram,"
	"mem_load_l3_miss_retired.remote_dram,"
	"mem_load_l3_miss_retired.remote_fwd,"
	"mem_load_l3_miss_retired.remote_hitm";

static void test_long_event_list_taken_whole(void **state)
{
	static char line[4096];
	assert_true(sizeof(long_list) > 1024);
	snprintf(line, sizeof(line), "--pmu=sim:icx stat -e %s soak -n 20000", long_list);
	assert_int_equal(run(line, NULL), EXIT_OK);
	assert_non_null(strstr(out, "mem_load_l3_miss_retired.remote_hitm"));
	/* two halves through two -e: stat and record join them; sched too */
	snprintf(line, sizeof(line), "--pmu=sim:icx sched -e cycles -e %s", long_list);
	assert_int_equal(run(line, NULL), EXIT_FAILURE_STATUS);	/* 31 do not fit: multiplexed */
	assert_non_null(strstr(out, "cycles"));
	assert_non_null(strstr(out, "mem_load_l3_miss_retired.remote_hitm"));
}

static void test_event_list_refused_by_name(void **state)
{
	static char line[16384], list[6000];
	assert_int_equal(run("--pmu=sim:icx stat -e \"\" soak", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "stat: -e '': expected an event list"));
	assert_int_equal(run("--pmu=sim:icx sched -e \"\"", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "sched: -e '': expected an event list"));
	memset(list, 'x', sizeof(list) - 1);
	list[sizeof(list) - 1] = 0;
	snprintf(line, sizeof(line), "--pmu=sim:icx record -e %s soak", list);
	assert_int_equal(run(line, NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "record: -e: the event list would be 5999 characters long; "
				    "at most 4095 are taken"));
}

/* The whole usage text, however long: record's ends with --pmi. */
static void test_help_not_cut(void **state)
{
	assert_int_equal(run("record --help", NULL), EXIT_OK);
	assert_true(strlen(out) > 1024);
	assert_non_null(strstr(out, "--pebs-threshold 1|N|max  PEBS records per PMI"));
	assert_non_null(strstr(out, "-o FILE    output"));
	assert_non_null(strstr(out, "-q         no progress lines"));
	assert_non_null(strstr(out, "--pebs-buffer KIB  the PEBS buffer per CPU"));
	assert_non_null(strstr(out, "--ring SAMPLES  the sample ring per CPU"));
	assert_non_null(strstr(out, "samples code that runs with interrupts off"));
}

/* Options that would be ignored, and a value that
 * took the command word, are refused by name before the PMU is touched. */
static void test_options_not_ignored(void **state)
{
	assert_int_equal(run("--pmu=sim:icx record --pebs-threshold 1 -e cycles soak", NULL),
			 EXIT_USAGE);
	assert_non_null(strstr(out, "--pebs-threshold applies to PEBS events (:p, :pp, :ppp), "
				    "and 'cycles' has none"));
	assert_int_equal(run("--pmu=sim:icx record --pebs-buffer 64 soak", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "--pebs-buffer applies to PEBS events"));
	assert_int_equal(run("--pmu info", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "--pmu took 'info' as its value and left no command"));
}

/* A GLOBAL_CTRL that keeps its value whatever is written
 * (the model's ",held": firmware, SMM or a BMC holding the PMU) used to
 * give 0 counts, 0 samples and exit 0. Now each command names the CPU and
 * the values, and exits 1. */
/* --results: one BPRESULT line per selftest check, stat event and
 * record figure, and the command's exit status (issue 37: a lab's LAVA
 * monitors read them); none without it. */
static void test_results_lines(void **state)
{
	char line[160], path[64], want[96];
	assert_int_equal(run("--results --pmu=sim:icx selftest counters lvt-mask", NULL), EXIT_OK);
	assert_non_null(strstr(out, "BPSTART bareperf " BP_VERSION " selftest\n"));
	assert_non_null(strstr(out, "\nBPEND selftest 0\n"));
	assert_non_null(strstr(out, "\nBPRESULT selftest.counters pass\n"));
	assert_non_null(strstr(out, "\nBPRESULT selftest.lvt-mask pass\n"));
	assert_non_null(strstr(out, "\nBPRESULT selftest.exit pass 0 status\n"));
	assert_null(strstr(out, "selftest.widths"));
	assert_int_equal(run("--pmu=sim:icx,held --results selftest counters", NULL),
			 EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "\nBPRESULT selftest.counters fail\n"));
	assert_non_null(strstr(out, "\nBPRESULT selftest.exit fail 1 status\n"));
	assert_int_equal(run("--pmu=sim:icx selftest counters", NULL), EXIT_OK);
	assert_null(strstr(out, "BPRESULT"));
	/* stat's line carries the count its table prints */
	assert_int_equal(run("--results --pmu=sim:icx stat -e instructions soak -n 20000", NULL),
			 EXIT_OK);
	unsigned long long printed = 0;
	const char *row = strstr(out, " instructions");
	assert_non_null(row);
	while (row > out && row[-1] != '\n')
		row--;
	for (; *row == ' ' || *row == ',' || (*row >= '0' && *row <= '9'); row++)
		if (*row >= '0' && *row <= '9')
			printed = printed * 10 + (unsigned)(*row - '0');
	assert_true(printed > 0);
	snprintf(want, sizeof(want), "\nBPRESULT stat.instructions pass %llu events\n", printed);
	assert_non_null(strstr(out, want));
	assert_int_equal(run("--results --pmu=sim:icx stat -e nosuch soak", NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "BPRESULT stat.exit fail 2 status"));
	snprintf(path, sizeof(path), "/tmp/bp-results-%d.data", (int)getpid());
	snprintf(line, sizeof(line), "--results --pmu=sim:icx record -q -c 100003 -o %s soak "
		 "-n 2000000", path);
	assert_int_equal(run(line, NULL), EXIT_OK);
	assert_non_null(strstr(out, "\nBPRESULT record.samples pass "));
	assert_non_null(strstr(out, "\nBPRESULT record.lost pass 0 samples\n"));
	assert_non_null(strstr(out, "\nBPRESULT record.written pass\n"));
	unlink(path);
}

static void test_held_pmu_says_so(void **state)
{
	char line[160], path[64];
	assert_int_equal(run("--pmu=sim:icx,held stat soak -n 20000", NULL), EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "stat: IA32_PERF_GLOBAL_CTRL reads 0xff after bareperf wrote "
				    "0x300000003: something else holds the PMU"));
	/* GP0-1 ran under the holder's 0xff: not "nothing was counted"
	 * (issue 39 item 17); the fixed counters did not start */
	assert_non_null(strstr(out, "counters 0x300000000 did not start, and no count is to "
				    "be trusted"));
	assert_null(strstr(out, "nothing was counted"));
	assert_int_equal(run("--pmu=sim:icx,held,cpus=2 stat -a soak -n 20000", NULL),
			 EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "stat: CPU 1: IA32_PERF_GLOBAL_CTRL reads 0xff"));
	snprintf(path, sizeof(path), "/tmp/bp-held-%d.data", (int)getpid());
	snprintf(line, sizeof(line), "--pmu=sim:icx,held record -q -o %s soak -n 200000", path);
	assert_int_equal(run(line, NULL), EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "record: CPU 0: IA32_PERF_GLOBAL_CTRL reads 0xff"));
	unlink(path);
	/* selftest's counters check names the holder, not a dead counter
	 * (it said "fixed0 counted no instructions (dead counter?)") */
	assert_int_equal(run("--pmu=sim:icx,held selftest counters", NULL), EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "IA32_PERF_GLOBAL_CTRL reads 0xff after selftest wrote "
				    "0xf000000ff: something else holds the PMU"));
	assert_null(strstr(out, "dead counter"));
	/* the same model without ",held" counts and exits 0 */
	assert_int_equal(run("--pmu=sim:icx stat soak -n 20000", NULL), EXIT_OK);
	assert_null(strstr(out, "holds the PMU"));
}

/* A formatted line longer than out_printf's buffer says it was cut. */
static void test_long_line_says_cut(void **state)
{
	static char big[2001];
	memset(big, 'a', 2000);
	host_capture_start(out, sizeof(out));
	out_printf("%s", big);
	host_capture_stop();
	assert_non_null(strstr(out, "[... 977 characters cut]"));
}

/* With no workload, stat names every built-in one (from the table). */
static void test_stat_no_workload_lists_all(void **state)
{
	assert_int_equal(run("--pmu=sim:icx stat", NULL), EXIT_USAGE);
	for (size_t i = 0; i < workload_count(); i++)
		assert_non_null(strstr(out, workload_at(i)->name));
	assert_true(workload_count() >= 5);
}

/* ASan reserves terabytes of shadow memory: no address-space limit
 * leaves it room, so the limit is tested in the plain build only. */
#if !defined(__SANITIZE_ADDRESS__)
/* A workload that cannot have its memory is a command that failed
 * (exit 1), not a bad command line (2): README's exit statuses. The
 * address space is capped below chase's 16 GiB. */
static void test_out_of_memory_exits_1(void **state)
{
	static const char *lines[] = {
		"--pmu=sim:icx stat chase --size 17179869184",
		"--pmu=sim:icx record -q -o oom.data chase --size 17179869184",
		"--pmu=sim:icx bench overhead --runs 1 --periods 100003 --workload chase --size 17179869184",
	};
	struct rlimit old, small;
	assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
	small = old;
	small.rlim_cur = 8ULL << 30;
	assert_int_equal(setrlimit(RLIMIT_AS, &small), 0);
	int rc[3];
	for (int i = 0; i < 3; i++) {
		rc[i] = run(lines[i], NULL);
		if (rc[i] != 1)
			print_message("%s: exit %d: %s\n", lines[i], rc[i], out);
	}
	assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(rc[i], 1);
	assert_non_null(strstr(out, "cannot allocate"));
}
#endif

/* -c's range is the CPU's: 2^47 on 48-bit counters (icx) is refused as
 * a bad command line naming the bound those counters take, 2^47 - 1,
 * which runs. */
static void test_period_bound_is_the_cpus(void **state)
{
	assert_int_equal(run("--pmu=sim:icx record -q -o big.data -c 140737488355328 soak", NULL),
			 EXIT_USAGE);
	assert_non_null(strstr(out, "up to 140737488355327"));
	assert_non_null(strstr(out, "48-bit"));
	assert_int_equal(run("--pmu=sim:icx record -q -o big.data -c 140737488355327 soak", NULL),
			 0);
	assert_int_equal(run("--pmu=sim:icx bench overhead --runs 1 --periods 140737488355328",
			     NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "up to 140737488355327"));
}

/* The model's cpus=N beyond this machine's CPUs: -C and -a take the
 * machine's, and say that the model's others are not used, and why. */
static void test_model_cpus_beyond_machine_said(void **state)
{
	u32 n = plat_cpu_count();
	char line[128];
	if (n >= 4) {
		print_message("skipped: this host has %u CPUs, the model at most 4\n", n);
		return;
	}
	snprintf(line, sizeof(line), "--pmu=sim:icx,cpus=4 msr -C 3 0x38f");
	assert_int_equal(run(line, NULL), EXIT_USAGE);
	assert_non_null(strstr(out, "CPU 3 does not exist"));
	assert_non_null(strstr(out, "models 4 CPUs"));
	assert_int_equal(run("--pmu=sim:icx,cpus=4 msr -a 0x38f", NULL), 0);
	assert_non_null(strstr(out, "models 4 CPUs"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_split_errors),
		cmocka_unit_test(test_unknown_command_suggests),
		cmocka_unit_test(test_no_command),
		cmocka_unit_test(test_unknown_global_option),
		cmocka_unit_test(test_bad_pmu_value),
		cmocka_unit_test(test_missing_value_said_once),
		cmocka_unit_test(test_globals_parsed),
		cmocka_unit_test(test_help_and_version),
		cmocka_unit_test(test_info_extra_argument),
		cmocka_unit_test(test_long_event_list_taken_whole),
		cmocka_unit_test(test_event_list_refused_by_name),
		cmocka_unit_test(test_help_not_cut),
		cmocka_unit_test(test_long_line_says_cut),
		cmocka_unit_test(test_options_not_ignored),
		cmocka_unit_test(test_held_pmu_says_so),
		cmocka_unit_test(test_results_lines),
		cmocka_unit_test(test_stat_no_workload_lists_all),
#if !defined(__SANITIZE_ADDRESS__)
		cmocka_unit_test(test_out_of_memory_exits_1),
#endif
		cmocka_unit_test(test_period_bound_is_the_cpus),
		cmocka_unit_test(test_model_cpus_beyond_machine_said),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
