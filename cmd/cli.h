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
};

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
/* Matches "--name=value" or "--name value" (advancing *i); returns the
 * value or NULL. Prints an error when the value is missing. */
#define CLI_EVENTS_MAX 4096	/* an event list, every -e joined, with its NUL */
/* Appends one -e value to the comma-separated list (several -e add up,
 * as perf's do). Returns 0, or -1 after naming what was wrong: an empty
 * value, or a list longer than CLI_EVENTS_MAX - 1 characters (never cut). */
int cli_append_events(char *list, size_t cap, const char *value, const char *cmd);

const char *cli_option_value(int argc, char **argv, int *i, const char *name,
			     bool *missing);

#endif
