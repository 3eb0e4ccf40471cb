/* The command-line core: word splitting, global options, dispatch and the
 * errors a user sees for bad input. */
#include "test.h"
#include "fake_hw.h"
#include "cmd/cli.h"
#include "cli_run.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_split_errors),
		cmocka_unit_test(test_unknown_command_suggests),
		cmocka_unit_test(test_no_command),
		cmocka_unit_test(test_unknown_global_option),
		cmocka_unit_test(test_bad_pmu_value),
		cmocka_unit_test(test_globals_parsed),
		cmocka_unit_test(test_help_and_version),
		cmocka_unit_test(test_info_extra_argument),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
