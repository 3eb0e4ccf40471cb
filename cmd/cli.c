#include "cli.h"
#include "backend.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/str.h"



bool cli_is_help(const char *arg)
{
	return bp_strcmp(arg, "--help") == 0 || bp_strcmp(arg, "-h") == 0;
}

/* out_puts: a usage text may be longer than one formatted line. */
void cli_usage(const struct command *c)
{
	out_puts("usage: bareperf [GLOBAL OPTIONS] ");
	out_puts(c->name);
	out_puts(c->usage);
	out_puts("\n\n  ");
	out_puts(c->summary);
	out_puts("\n");
}

int cli_append_events(char *list, size_t cap, const char *value, const char *cmd)
{
	size_t len = bp_strlen(list), add = bp_strlen(value);
	if (!add) {
		err_printf("bareperf %s: -e '': expected an event list, e.g. -e cycles,instructions\n",
			   cmd);
		return -1;
	}
	if (len + (len ? 1 : 0) + add >= cap) {
		err_printf("bareperf %s: -e: the event list would be %zu characters long; at most %zu "
			   "are taken (give fewer events)\n", cmd, len + (len ? 1 : 0) + add, cap - 1);
		return -1;
	}
	bp_snprintf(list + len, cap - len, "%s%s", len ? "," : "", value);
	return 0;
}

static void global_usage(void)
{
	out_puts("usage: bareperf [GLOBAL OPTIONS] COMMAND [ARGS]\n\n"
		 "Global options:\n"
		 "  --pmu=hw|sim[:MODEL]  the real PMU (default) or the emulated one\n"
		 "  --qemu-exit           end QEMU with the exit status (isa-debug-exit)\n"
		 "  --force               go on although the PMU is in use\n"
		 "  -v, --verbose         more detail\n"
		 "  --version             print the version\n"
		 "  -h, --help            this help; COMMAND --help for a command\n\n"
		 "Commands:\n");
	for (size_t i = 0; i < command_count; i++)
		out_printf("  %-10s %s\n", commands[i]->name, commands[i]->summary);
}

const char *cli_option_value(int argc, char **argv, int *i, const char *name,
			     bool *missing)
{
	const char *arg = argv[*i];
	size_t n = bp_strlen(name);

	*missing = false;
	if (bp_strncmp(arg, name, n) != 0)
		return NULL;
	if (arg[n] == '=')
		return arg + n + 1;
	if (arg[n] != 0)
		return NULL;
	if (*i + 1 >= argc) {
		err_printf("bareperf: option %s needs a value\n", name);
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < command_count; i++)
		if (bp_strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static void suggest_command(const char *name)
{
	const char *best = NULL;
	unsigned best_d = 3;
	for (size_t i = 0; i < command_count; i++) {
		unsigned d = bp_edit_distance(name, commands[i]->name);
		if (d < best_d)
			best_d = d, best = commands[i]->name;
	}
	if (best)
		err_printf("  did you mean '%s'?\n", best);
}

/* Returns the index of the command word, or -1 after printing an error,
 * or argc when only global actions (help, version) were asked for. */
static int parse_globals(int argc, char **argv, struct global_opts *g,
			 bool *handled)
{
	*handled = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool missing;
		const char *v;

		if (a[0] != '-')
			return i;
		if ((v = cli_option_value(argc, argv, &i, "--pmu", &missing))) {
			g->pmu = v;
		} else if (missing) {
			return -1;
		} else if (bp_strcmp(a, "--qemu-exit") == 0) {
			g->qemu_exit = true;
		} else if (bp_strcmp(a, "--force") == 0) {
			g->force = true;
		} else if (bp_strcmp(a, "-v") == 0 || bp_strcmp(a, "--verbose") == 0) {
			g->verbose++;
		} else if (bp_strcmp(a, "--version") == 0) {
			out_printf("bareperf %s\n", BP_VERSION);
			*handled = true;
			return argc;
		} else if (cli_is_help(a)) {
			global_usage();
			*handled = true;
			return argc;
		} else {
			err_printf("bareperf: unknown global option '%s'\n", a);
			return -1;
		}
	}
	return argc;
}

int cli_main(int argc, char **argv, struct global_opts *g)
{
	bool handled;

	g->pmu = "hw";
	int cmd_index = parse_globals(argc, argv, g, &handled);
	if (cmd_index == argc && !handled && g->pmu && find_command(g->pmu)) {
		/* "--pmu info": the value took the command word */
		err_printf("bareperf: --pmu took '%s' as its value and left no command; "
			   "give the PMU first (--pmu=hw %s, --pmu sim %s)\n", g->pmu, g->pmu, g->pmu);
		return EXIT_USAGE;
	}
	if (handled)
		return EXIT_OK;
	if (cmd_index < 0) {
		global_usage();
		return EXIT_USAGE;
	}
	if (cmd_index >= argc) {
		err_printf("bareperf: no command given\n");
		global_usage();
		return EXIT_USAGE;
	}
	const struct command *c = find_command(argv[cmd_index]);
	if (!c) {
		err_printf("bareperf: unknown command '%s'\n", argv[cmd_index]);
		suggest_command(argv[cmd_index]);
		global_usage();
		return EXIT_USAGE;
	}
	for (int i = cmd_index + 1; i < argc && bp_strcmp(argv[i], "--") != 0; i++) {
		if (cli_is_help(argv[i])) {
			cli_usage(c);
			return EXIT_OK;
		}
	}
	int rc = backend_select(g);
	if (rc != EXIT_OK)
		return rc;
	rc = c->run(argc - cmd_index, argv + cmd_index, g);
	backend_release();
	return rc;
}

int cli_split(char *line, char **argv, int max, const char **err)
{
	int n = 0;
	char *r = line, *w = line;

	*err = NULL;
	for (;;) {
		while (bp_isspace(*r))
			r++;
		if (!*r)
			return n;
		if (n == max) {
			*err = "too many words on the command line";
			return -1;
		}
		argv[n++] = w;
		bool quoted = false;
		for (; *r && (quoted || !bp_isspace(*r)); r++) {
			if (*r == '"') {
				quoted = !quoted;
			} else if (*r == '\\' && (r[1] == '"' || r[1] == '\\')) {
				*w++ = *++r;
			} else {
				*w++ = *r;
			}
		}
		if (quoted) {
			*err = "unterminated quote on the command line";
			return -1;
		}
		if (*r)
			r++;
		*w++ = 0;
	}
}
