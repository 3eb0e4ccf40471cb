#include "cli.h"
#include "backend.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/result.h"
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

/* ---- options from a table ------------------------------------------------ */

static bool takes_value(enum cli_kind kind)
{
	return kind != CLI_FLAG && kind != CLI_COUNT && kind != CLI_REST;
}

/* Whether word is one of o's names, alone or (for an option with a value)
 * followed by "=VALUE". Returns the name it spells, with *value set to
 * what follows the '=' or to NULL; NULL when word is not o. */
static const char *spelled_name(const struct cli_option *o, const char *word,
				const char **value)
{
	const char *names[] = { o->name, o->short_name };
	for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
		size_t n = names[k] ? bp_strlen(names[k]) : 0;
		if (!n || bp_strncmp(word, names[k], n) != 0)
			continue;
		if (!word[n] || (word[n] == '=' && takes_value(o->kind))) {
			*value = word[n] ? word + n + 1 : NULL;
			return names[k];
		}
	}
	return NULL;
}

static const struct cli_option *find_option(const struct cli_spec *s, const char *word,
					    const char **name, const char **value)
{
	for (size_t i = 0; i < s->count; i++)
		if ((*name = spelled_name(&s->options[i], word, value)))
			return &s->options[i];
	return NULL;
}

void cli_unknown_option(const struct cli_spec *s, const char *arg)
{
	if (s->unknown)
		s->unknown(arg);
	else
		err_printf("bareperf %s: unknown option '%s'\n", s->cmd, arg);
}

static int refuse(const struct cli_spec *s, const struct cli_option *o, const char *name,
		  const char *value)
{
	/* A global option's spec names no command. */
	err_printf("bareperf%s%s: %s '%s': %s\n", s->cmd ? " " : "", s->cmd ? s->cmd : "", name,
		   value, o->expect);
	return -1;
}

/* Numbers and enum indexes go into fields of the width the options
 * struct gives them (u32 -F, u64 -c, a bool for a two-word enum). */
static void store_unsigned(void *field, size_t size, u64 v)
{
	if (size == sizeof(u8))
		*(u8 *)field = (u8)v;
	else if (size == sizeof(u16))
		*(u16 *)field = (u16)v;
	else if (size == sizeof(u32))
		*(u32 *)field = (u32)v;
	else
		*(u64 *)field = v;
}

static int take_number(const struct cli_spec *s, const struct cli_option *o, const char *name,
		       const char *value, void *field)
{
	u64 v;
	if (!bp_parse_u64(value, &v) || v < o->min || v > o->max)
		return refuse(s, o, name, value);
	store_unsigned(field, o->size, v);
	return 0;
}

static int take_string(const struct cli_spec *s, const struct cli_option *o, const char *name,
		       const char *value, void *field)
{
	size_t len = bp_strlen(value);
	if (o->max && (len < o->min || len > o->max))
		return refuse(s, o, name, value);
	*(const char **)field = value;
	return 0;
}

static int take_enum(const struct cli_spec *s, const struct cli_option *o, const char *name,
		     const char *value, void *field)
{
	for (u64 i = 0; o->words[i]; i++)
		if (bp_strcmp(value, o->words[i]) == 0) {
			store_unsigned(field, o->size, i);
			return 0;
		}
	return refuse(s, o, name, value);
}

/* Stores option o, given as name with value (NULL for one without).
 * Returns 0, or -1 after printing why the value was refused. */
static int take(const struct cli_spec *s, const struct cli_option *o, const char *name,
		const char *value, void *opts)
{
	void *field = (char *)opts + o->offset;
	switch (o->kind) {
	case CLI_FLAG:
		*(bool *)field = true;
		return 0;
	case CLI_COUNT:
		(*(int *)field)++;
		return 0;
	case CLI_NUMBER:
		return take_number(s, o, name, value, field);
	case CLI_STRING:
		return take_string(s, o, name, value, field);
	case CLI_ENUM:
		return take_enum(s, o, name, value, field);
	case CLI_EVENTS:
		return cli_append_events(field, o->size, value, s->cmd);
	case CLI_CALL:
		return o->parse(s->cmd, value, opts);
	case CLI_REST:
		break;	/* taken in take_option: it stores an index into argv */
	}
	return 0;
}

/* Takes the option at argv[*i] and its value; *i is left at the last word
 * it used. Returns 1 when the parse ends with it, 0 when it goes on, or
 * -1 after printing what was wrong. */
static int take_option(const struct cli_spec *s, int argc, char **argv, int *i, void *opts)
{
	const char *name, *value;
	const struct cli_option *o = find_option(s, argv[*i], &name, &value);

	if (!o) {
		cli_unknown_option(s, argv[*i]);
		return -1;
	}
	/* A --workload with nothing after it names no workload. */
	if (o->kind == CLI_REST && *i + 1 >= argc) {
		err_printf("bareperf %s: %s needs a workload after it (%s WORKLOAD "
			   "[ITS OPTIONS])\n", s->cmd, name, name);
		return -1;
	}
	if (o->kind == CLI_REST) {
		*(int *)((char *)opts + o->offset) = *i + 1;
		*i = argc - 1;
		return 1;
	}
	if (takes_value(o->kind) && !value) {
		if (*i + 1 >= argc) {
			err_printf("bareperf: option %s needs a value\n", name);
			return -1;
		}
		value = argv[++*i];
	}
	if (take(s, o, name, value, opts))
		return -1;
	return o->ends ? 1 : 0;
}

static bool is_option(const struct cli_spec *s, const char *word)
{
	return word[0] == '-' && (word[1] || !s->dash_is_word);
}

int cli_parse_options(const struct cli_spec *s, int argc, char **argv, int *next, void *opts)
{
	int i;
	for (i = *next; i < argc; i++) {
		if (s->dashdash_ends && bp_strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (!is_option(s, argv[i]))
			break;
		int taken = take_option(s, argc, argv, &i, opts);
		if (taken < 0)
			return EXIT_USAGE;
		if (taken > 0) {
			i++;
			break;
		}
	}
	*next = i;
	return EXIT_OK;
}

/* ---- global options ------------------------------------------------------ */

/* What the global options fill: --help and --version are actions, done
 * once the words before the command are parsed. */
struct global_parse {
	struct global_opts opts;
	bool help, version;
};

const char *const cli_then_words[] = { "exit", "reset", "poweroff", NULL };

static const struct cli_option global_options[] = {
	{ .name = "--pmu", .kind = CLI_STRING, CLI_AT(struct global_parse, opts.pmu),
	  .value_name = "hw|sim[:MODEL]", .help = "the real PMU (default) or the emulated one" },
	{ .name = "--qemu-exit", .kind = CLI_FLAG, CLI_AT(struct global_parse, opts.qemu_exit),
	  .help = "end QEMU with the exit status (isa-debug-exit)" },
	{ .name = "--then", .kind = CLI_ENUM, CLI_AT(struct global_parse, opts.then),
	  .words = cli_then_words, .value_name = "ACTION",
	  .expect = "expected exit (the default), reset or poweroff",
	  .help = "then exit (default), reset or poweroff" },
	{ .name = "--results", .kind = CLI_FLAG, CLI_AT(struct global_parse, opts.results),
	  .help = "also print BPRESULT lines for a lab (LAVA)" },
	{ .name = "--force", .kind = CLI_FLAG, CLI_AT(struct global_parse, opts.force),
	  .help = "go on although the PMU is in use" },
	{ .name = "--verbose", .short_name = "-v", .kind = CLI_COUNT,
	  CLI_AT(struct global_parse, opts.verbose), .help = "more detail" },
	{ .name = "--version", .kind = CLI_FLAG, CLI_AT(struct global_parse, version),
	  .ends = true, .help = "print the version" },
	{ .name = "--help", .short_name = "-h", .kind = CLI_FLAG, CLI_AT(struct global_parse, help),
	  .ends = true, .help = "this help; COMMAND --help for a command" },
};

static void unknown_global(const char *arg)
{
	err_printf("bareperf: unknown global option '%s'\n", arg);
}

/* No command name: a refused value (--then) is told as "bareperf: ...". */
static const struct cli_spec global_spec = {
	.options = global_options, .count = ARRAY_SIZE(global_options),
	.unknown = unknown_global,
};

/* One line per option: "  -v, --verbose         more detail". */
static void print_option_help(const struct cli_option *o)
{
	char synopsis[64];
	bp_snprintf(synopsis, sizeof(synopsis), "%s%s%s%s%s", o->short_name ? o->short_name : "",
		    o->short_name ? ", " : "", o->name, o->value_name ? "=" : "",
		    o->value_name ? o->value_name : "");
	out_printf("  %-20s  %s\n", synopsis, o->help);
}

static void global_usage(void)
{
	out_puts("usage: bareperf [GLOBAL OPTIONS] COMMAND [ARGS]\n\n"
		 "Global options:\n");
	for (size_t i = 0; i < ARRAY_SIZE(global_options); i++)
		print_option_help(&global_options[i]);
	out_puts("\nCommands:\n");
	for (size_t i = 0; i < command_count; i++)
		out_printf("  %-10s %s\n", commands[i]->name, commands[i]->summary);
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
	struct global_parse p = { .opts = *g };
	int next = 1;
	int rc = cli_parse_options(&global_spec, argc, argv, &next, &p);

	*g = p.opts;	/* even on an error: the caller needs --qemu-exit */
	*handled = rc == EXIT_OK && (p.version || p.help);
	if (rc != EXIT_OK)
		return -1;
	if (p.version)
		out_printf("bareperf %s\n", BP_VERSION);
	else if (p.help)
		global_usage();
	return *handled ? argc : next;
}

int cli_main(int argc, char **argv, struct global_opts *g)
{
	bool handled;

	/* *g is only an output: every option starts at its default. */
	*g = (struct global_opts){ .pmu = "hw" };
	int cmd_index = parse_globals(argc, argv, g, &handled);
	results_enable(g->results);
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
	result_start(BP_VERSION, c->name);
	int rc = backend_select(g);
	if (rc == EXIT_OK) {
		rc = c->run(argc - cmd_index, argv + cmd_index, g);
		backend_release();
	}
	result_end(c->name, rc);
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
