/* The command line, perf style: bareperf [GLOBAL OPTIONS] COMMAND [ARGS].
 * Shared by the image (argv from LoadOptions or the ESP file) and the host
 * twin (argv from the shell). */
#ifndef BP_CLI_H
#define BP_CLI_H

/* bareperf's version: `bareperf --version` and perf.data's VERSION. */
#define BP_VERSION "0.1"
#include "../lib/types.h"

#define CLI_MAX_ARGS 64

/* Exit statuses, as the image returns them and qemu-run passes them on. */
enum {
	EXIT_OK = 0,
	EXIT_FAILURE_STATUS = 1,	/* the command ran and failed */
	EXIT_USAGE = 2,			/* bad command line */
	EXIT_NO_PMU = 3,		/* the command needs a PMU this machine lacks */
};

struct global_opts {
	const char *pmu;	/* "hw" or "sim[:MODEL]" */
	bool qemu_exit;
	bool force;
	int verbose;
	unsigned then;		/* --then: enum cli_then */
	bool results;		/* --results: BPRESULT lines (lib/result.h) */
};

/* --then: how an unattended run ends once the command is done (the image
 * acts on it in boot/exit.c; the host twin just exits). */
enum cli_then { CLI_THEN_EXIT, CLI_THEN_RESET, CLI_THEN_POWEROFF };
extern const char *const cli_then_words[];	/* by enum cli_then, NULL-ended */

struct command {
	const char *name;
	const char *summary;
	const char *usage;	/* lines after "usage: bareperf NAME" */
	/* argv[0] is the command name. Returns an exit status. */
	int (*run)(int argc, char **argv, const struct global_opts *g);
};

/* Every command, in the order `bareperf --help` lists them. */
extern const struct command *const commands[];
extern const size_t command_count;

/* Parses and runs a whole command line (argv[0] is the program name).
 * *g receives the global options even when the command fails, so the
 * caller knows about --qemu-exit. Returns the exit status. */
int cli_main(int argc, char **argv, struct global_opts *g);

/* Splits a command line into words in place: blanks separate words,
 * double quotes group, backslash escapes a quote. Returns the word count
 * or -1 with *err set when there are more than max words or a quote is
 * left open. */
int cli_split(char *line, char **argv, int max, const char **err);

/* Helpers for commands' own option parsing. */
void cli_usage(const struct command *c);
bool cli_is_help(const char *arg);
#define CLI_EVENTS_MAX 4096	/* an event list, every -e joined, with its NUL */
/* Appends one -e value to the comma-separated list (several -e add up,
 * as perf's do). Returns 0, or -1 after naming what was wrong: an empty
 * value, or a list longer than CLI_EVENTS_MAX - 1 characters (never cut). */
int cli_append_events(char *list, size_t cap, const char *value, const char *cmd);

/* ---- options from a table ---------------------------------------------
 * A command lists its options in a table of struct cli_option, and
 * cli_parse_options() walks argv by it. An option with a value takes it
 * as `NAME VALUE` or `NAME=VALUE`, under either of its names (--event,
 * -e); one without takes only the bare word. Rules between options (-c
 * and -F exclude each other) stay with the command, after the parse. */

enum cli_kind {
	CLI_FLAG,	/* no value: sets a bool */
	CLI_COUNT,	/* no value: adds one to an int each time (-v -v) */
	CLI_NUMBER,	/* a number from min to max, into an unsigned field of any width */
	CLI_STRING,	/* the value itself, into a const char *; max > 0: its length from min to max */
	CLI_ENUM,	/* one of words: its index, into an unsigned field or a bool */
	CLI_EVENTS,	/* an event list: each value appended to a char array (cli_append_events) */
	CLI_CALL,	/* the value handed to the command's own parse */
	CLI_REST,	/* no value: the words after it (a workload with options of its
			 * own) are its; the index of the first, into an int. With
			 * no word after it, it is an unknown option. */
};

struct cli_option {
	const char *name;		/* "--event", or NULL */
	const char *short_name;		/* "-e", or NULL */
	enum cli_kind kind;
	size_t offset, size;		/* where it is stored in the options: CLI_AT */
	u64 min, max;			/* CLI_NUMBER's range, CLI_STRING's length */
	const char *const *words;	/* CLI_ENUM's, NULL-terminated */
	/* CLI_CALL: returns 0, or -1 after printing what was wrong. */
	int (*parse)(const char *cmd, const char *value, void *opts);
	/* A refused value is told "bareperf CMD: NAME 'VALUE': EXPECT". */
	const char *expect;
	bool ends;			/* the words after it are not looked at (--help) */
	const char *value_name;		/* in a generated usage: --pmu=hw|sim[:MODEL] */
	const char *help;		/* its line in a generated usage (the global
					 * options'; commands write theirs by hand) */
};

/* A number's macro as text, for an expect message: "15" for BENCH_MAX_RUNS. */
#define CLI_TEXT_OF(x) #x
#define CLI_NUMBER_TEXT(x) CLI_TEXT_OF(x)

/* The field of an options struct an option is stored in. */
#define CLI_AT(type, member) \
	.offset = offsetof(type, member), .size = sizeof(((type *)0)->member)

struct cli_spec {
	const char *cmd;		/* messages start "bareperf CMD: " */
	const struct cli_option *options;
	size_t count;
	bool dashdash_ends;		/* "--" ends the options (a workload may start with '-') */
	bool dash_is_word;		/* a lone "-" is a word, not an option */
	/* Says an option is not in the table; NULL: "bareperf CMD: unknown option 'ARG'". */
	void (*unknown)(const char *arg);
};

/* Parses the options in argv from *next on into opts. Stops at the end,
 * at the first word that is no option, or after an option that ends the
 * parse (or after "--" with dashdash_ends); *next is then the index of
 * the first word not taken. Returns EXIT_OK, or EXIT_USAGE after printing
 * what was wrong: an unknown option, a missing value or a refused one. */
int cli_parse_options(const struct cli_spec *s, int argc, char **argv, int *next, void *opts);
/* The spec's message for an option it does not know; also for a word a
 * command takes none of. */
void cli_unknown_option(const struct cli_spec *s, const char *arg);

#endif
