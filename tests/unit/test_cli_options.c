/* cli_parse_options, the table-driven option parser every command uses:
 * each kind of option, both spellings of a value, and the messages for a
 * refused value, an unknown option and a missing value. */
#include "test.h"
#include "cmd/cli.h"
#include "host/capture.h"
#include "lib/out.h"

struct opts {
	bool all;
	int verbose;
	u64 period;
	u32 freq;
	const char *output;
	u8 mode;
	char events[32];
	const char *called_with;
	int rest_at;
	bool help;
};

static const char *const modes[] = { "slow", "fast", NULL };

static int take_call(const char *cmd, const char *value, void *o)
{
	if (strcmp(value, "bad") == 0) {
		err_printf("%s refuses\n", cmd);
		return -1;
	}
	((struct opts *)o)->called_with = value;
	return 0;
}

static const struct cli_option table[] = {
	{ .short_name = "-a", .kind = CLI_FLAG, CLI_AT(struct opts, all) },
	{ .name = "--verbose", .short_name = "-v", .kind = CLI_COUNT, CLI_AT(struct opts, verbose) },
	{ .name = "--period", .short_name = "-c", .kind = CLI_NUMBER, CLI_AT(struct opts, period),
	  .min = 2, .max = 1ULL << 40, .expect = "expected a period from 2 to 2^40" },
	{ .short_name = "-F", .kind = CLI_NUMBER, CLI_AT(struct opts, freq),
	  .min = 1, .max = 1000, .expect = "expected 1 to 1000 Hz" },
	{ .name = "--output", .short_name = "-o", .kind = CLI_STRING, CLI_AT(struct opts, output),
	  .min = 1, .max = 8, .expect = "expected 1 to 8 characters" },
	{ .name = "--mode", .kind = CLI_ENUM, CLI_AT(struct opts, mode), .words = modes,
	  .expect = "expected 'slow' or 'fast'" },
	{ .name = "--event", .short_name = "-e", .kind = CLI_EVENTS, CLI_AT(struct opts, events) },
	{ .name = "--call", .kind = CLI_CALL, .parse = take_call },
	{ .name = "--workload", .kind = CLI_REST, CLI_AT(struct opts, rest_at) },
	{ .name = "--help", .kind = CLI_FLAG, CLI_AT(struct opts, help), .ends = true },
};

static const struct cli_spec spec = {
	.cmd = "t", .options = table, .count = ARRAY_SIZE(table), .dashdash_ends = true,
};

static char out[4096];
static struct opts o;
static int next;

/* Parses the words of line (blank separated; no quotes) with s from the
 * first word on, into o and next; out holds what was printed. */
static int parse_with(const struct cli_spec *s, const char *line)
{
	static char buf[512];
	char *argv[CLI_MAX_ARGS];
	const char *err;
	snprintf(buf, sizeof(buf), "cmd %s", line);
	int argc = cli_split(buf, argv, CLI_MAX_ARGS, &err);
	memset(&o, 0, sizeof(o));
	next = 1;
	host_capture_start(out, sizeof(out));
	int rc = cli_parse_options(s, argc, argv, &next, &o);
	host_capture_stop();
	return rc;
}

static int parse(const char *line)
{
	return parse_with(&spec, line);
}

static void test_flag_and_count(void **state)
{
	assert_int_equal(parse("-a -v --verbose -v"), EXIT_OK);
	assert_true(o.all);
	assert_int_equal(o.verbose, 3);
	assert_int_equal(next, 5);
	/* a flag takes no value */
	assert_int_equal(parse("-a=1"), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: unknown option '-a=1'\n");
}

static void test_number_both_spellings(void **state)
{
	assert_int_equal(parse("-c 5 -F=7"), EXIT_OK);
	assert_int_equal(o.period, 5);
	assert_int_equal(o.freq, 7);
	assert_int_equal(parse("--period=1099511627776 -F 1000"), EXIT_OK);
	assert_int_equal(o.period, 1ULL << 40);
	assert_int_equal(o.freq, 1000);
	/* glued to a short name, the value is not taken */
	assert_int_equal(parse("-c5"), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: unknown option '-c5'\n");
}

static void test_number_out_of_range(void **state)
{
	assert_int_equal(parse("-c 1"), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: -c '1': expected a period from 2 to 2^40\n");
	assert_int_equal(parse("--period=1099511627777"), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: --period '1099511627777': expected a period "
				 "from 2 to 2^40\n");
	assert_int_equal(parse("-F 1001"), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: -F '1001': expected 1 to 1000 Hz\n");
	assert_int_equal(parse("-F x"), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: -F 'x': expected 1 to 1000 Hz\n");
}

static void test_string(void **state)
{
	assert_int_equal(parse("-o a.data"), EXIT_OK);
	assert_string_equal(o.output, "a.data");
	assert_int_equal(parse("--output=b"), EXIT_OK);
	assert_string_equal(o.output, "b");
	/* the next word is the value, even when it starts with '-' */
	assert_int_equal(parse("--output -x"), EXIT_OK);
	assert_string_equal(o.output, "-x");
	assert_int_equal(parse("-o="), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: -o '': expected 1 to 8 characters\n");
	assert_int_equal(parse("-o 123456789"), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: -o '123456789': expected 1 to 8 characters\n");
}

static void test_enum(void **state)
{
	assert_int_equal(parse("--mode=fast"), EXIT_OK);
	assert_int_equal(o.mode, 1);
	assert_int_equal(parse("--mode fast --mode slow"), EXIT_OK);
	assert_int_equal(o.mode, 0);
	assert_int_equal(parse("--mode=FAST"), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: --mode 'FAST': expected 'slow' or 'fast'\n");
}

static void test_events_add_up(void **state)
{
	assert_int_equal(parse("-e cycles --event=instructions -e=branches"), EXIT_OK);
	assert_string_equal(o.events, "cycles,instructions,branches");
	assert_int_equal(parse("-e="), EXIT_USAGE);
	assert_non_null(strstr(out, "bareperf t: -e '': expected an event list"));
	assert_int_equal(parse("-e abcdefghijklmnop -e abcdefghijklmnop"), EXIT_USAGE);
	assert_non_null(strstr(out, "the event list would be 33 characters long; at most 31"));
}

static void test_call(void **state)
{
	assert_int_equal(parse("--call x"), EXIT_OK);
	assert_string_equal(o.called_with, "x");
	assert_int_equal(parse("--call=bad"), EXIT_USAGE);
	assert_string_equal(out, "t refuses\n");
}

static void test_rest(void **state)
{
	assert_int_equal(parse("-a --workload soak -n 5 --bogus"), EXIT_OK);
	assert_int_equal(o.rest_at, 3);
	assert_int_equal(next, 7);
	/* with nothing after it, it names no workload, and says so (issue
	 * 39 item 17: it was called an unknown option) */
	assert_int_equal(parse("--workload"), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: --workload needs a workload after it "
			    "(--workload WORKLOAD [ITS OPTIONS])\n");
}

static void test_unknown_option(void **state)
{
	assert_int_equal(parse("-a --bogus -v"), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: unknown option '--bogus'\n");
	assert_int_equal(o.verbose, 0);	/* nothing after it is taken */
	/* a prefix of a name is not the name */
	assert_int_equal(parse("--out x"), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: unknown option '--out'\n");
}

static void test_missing_value(void **state)
{
	assert_int_equal(parse("-a -c"), EXIT_USAGE);
	assert_string_equal(out, "bareperf: option -c needs a value\n");
	assert_int_equal(parse("--period"), EXIT_USAGE);
	assert_string_equal(out, "bareperf: option --period needs a value\n");
}

static void test_stops_at_first_word(void **state)
{
	assert_int_equal(parse("-a soak -v"), EXIT_OK);
	assert_int_equal(next, 2);
	assert_int_equal(o.verbose, 0);
	/* "--" ends the options: what follows is a word, whatever it is */
	assert_int_equal(parse("-a -- -v"), EXIT_OK);
	assert_int_equal(next, 3);
	assert_int_equal(parse("-a --"), EXIT_OK);
	assert_int_equal(next, 3);
	assert_int_equal(parse(""), EXIT_OK);
	assert_int_equal(next, 1);
	/* after an option that ends the parse, nothing is looked at */
	assert_int_equal(parse("--help --bogus"), EXIT_OK);
	assert_true(o.help);
	assert_int_equal(next, 2);
}

static void unknown_here(const char *arg)
{
	err_printf("no '%s' here\n", arg);
}

static void test_spec_choices(void **state)
{
	struct cli_spec s = spec;
	s.dashdash_ends = false;
	assert_int_equal(parse_with(&s, "--"), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: unknown option '--'\n");
	/* a lone "-": an option unless dash_is_word */
	assert_int_equal(parse_with(&s, "-"), EXIT_USAGE);
	assert_string_equal(out, "bareperf t: unknown option '-'\n");
	s.dash_is_word = true;
	assert_int_equal(parse_with(&s, "-a -"), EXIT_OK);
	assert_int_equal(next, 2);
	/* a command's own message for an unknown option */
	s.unknown = unknown_here;
	assert_int_equal(parse_with(&s, "-x"), EXIT_USAGE);
	assert_string_equal(out, "no '-x' here\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flag_and_count),
		cmocka_unit_test(test_number_both_spellings),
		cmocka_unit_test(test_number_out_of_range),
		cmocka_unit_test(test_string),
		cmocka_unit_test(test_enum),
		cmocka_unit_test(test_events_add_up),
		cmocka_unit_test(test_call),
		cmocka_unit_test(test_rest),
		cmocka_unit_test(test_unknown_option),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_stops_at_first_word),
		cmocka_unit_test(test_spec_choices),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
