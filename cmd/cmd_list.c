/* `bareperf list [--cpu MODEL] [--json] [PATTERN]`: the events of this CPU
 * (the table its signature and core type select) or of a named model, with
 * encodings, and in JSON with every constraint. */
#include "cli.h"
#include "model.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/str.h"
#include "../arch/caps.h"
#include "../events/events.h"
#include "../events/evparse.h"

struct list_opts {
	const char *cpu;	/* --cpu MODEL, or NULL: this CPU */
	const char *pattern;	/* NULL: everything */
	bool json;
};

/* What is listed: the table (NULL: architectural only) and, for this CPU,
 * its caps. */
struct list_src {
	const struct event_table *t;
	const struct pmu_caps *caps;
	u32 events_shown;
};

/* ---- pattern ---------------------------------------------------------- */

/* '*' matches any run, '?' one character, case-insensitively. On a
 * mismatch only the last '*' takes one more character (a match that an
 * earlier star could reach, the last one reaches too), so the time is
 * O(pattern x name) whatever the number of stars; trying every star's
 * every length took exponential time. */
static bool glob_match(const char *p, const char *s)
{
	const char *star = NULL, *star_s = NULL;

	while (*s) {
		if (*p == '*') {
			star = p++;
			star_s = s;
		} else if (*p && (*p == '?' || bp_tolower(*p) == bp_tolower(*s))) {
			p++, s++;
		} else if (star) {
			p = star + 1;
			s = ++star_s;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return !*p;
}

static bool substring_match(const char *needle, const char *hay)
{
	size_t n = bp_strlen(needle);
	for (; *hay; hay++)
		if (bp_strncasecmp(hay, needle, n) == 0)
			return true;
	return n == 0;
}

static bool pattern_match(const char *pattern, const char *name)
{
	if (!pattern || !name)
		return !pattern;
	if (bp_strchr(pattern, '*') || bp_strchr(pattern, '?'))
		return glob_match(pattern, name);
	return substring_match(pattern, name);
}

/* ---- formatting ------------------------------------------------------- */

static void lowercase(char *dst, const char *src, size_t cap)
{
	size_t i = 0;
	for (; src[i] && i + 1 < cap; i++)
		dst[i] = (char)bp_tolower(src[i]);
	dst[i] = 0;
}

/* The term that sets an extra MSR; an MSR no term sets (Nova Lake's
 * MSR_OMR_x) is shown by number. */
static const char *extra_term(u32 msr)
{
	static char other[24];
	switch (msr) {
	case MSR_PEBS_LD_LAT_THRESHOLD: return "ldlat";
	case MSR_PEBS_FRONTEND: return "frontend";
	case MSR_OFFCORE_RSP_0: case MSR_OFFCORE_RSP_1: return "offcore_rsp";
	default:
		bp_snprintf(other, sizeof(other), "msr_0x%x", msr);
		return other;
	}
}

/* "event=0xd1,umask=0x20,cmask=1,inv,ldlat=0x4" or "fixed counter 1". */
static void format_encoding(const struct pmu_event *ev, char *buf, size_t cap)
{
	size_t n;

	if (!ev->gp_allowed) {
		unsigned f = 0;
		while (f < 31 && !(ev->fixed_allowed & (1u << f)))
			f++;
		bp_snprintf(buf, cap, "fixed counter %u", f);
		return;
	}
	n = (size_t)bp_snprintf(buf, cap, "event=0x%02x,umask=0x%02x", ev->event, ev->umask);
	if (ev->umask_ext && n < cap)
		n += (size_t)bp_snprintf(buf + n, cap - n, ",umask2=0x%02x", ev->umask_ext);
	if (ev->cmask && n < cap)
		n += (size_t)bp_snprintf(buf + n, cap - n, ",cmask=%u", ev->cmask);
	if (ev->inv && n < cap)
		n += (size_t)bp_snprintf(buf + n, cap - n, ",inv");
	if (ev->edge && n < cap)
		n += (size_t)bp_snprintf(buf + n, cap - n, ",edge");
	if (ev->any && n < cap)
		n += (size_t)bp_snprintf(buf + n, cap - n, ",any");
	if (ev->extra_msr && n < cap)
		bp_snprintf(buf + n, cap - n, ",%s=0x%llx", extra_term(ev->extra_msr),
			    (unsigned long long)ev->extra_value);
}

/* JSON array of counter indexes: [0,1,2,3]. */
static void format_counters(u32 mask, char *buf, size_t cap)
{
	size_t n = (size_t)bp_snprintf(buf, cap, "[");
	bool first = true;

	for (unsigned i = 0; i < 32 && n < cap; i++) {
		if (!(mask & (1u << i)))
			continue;
		n += (size_t)bp_snprintf(buf + n, cap - n, "%s%u", first ? "" : ",", i);
		first = false;
	}
	if (n < cap)
		bp_snprintf(buf + n, cap - n, "]");
}

static const char *json_bool(bool b) { return b ? "true" : "false"; }

/* ---- one event -------------------------------------------------------- */

static void print_text(const char *name, const char *alias, const struct pmu_event *ev,
		       bool generic)
{
	char lname[EVENT_NAME_MAX + 32], enc[160];

	lowercase(lname, name, sizeof(lname));
	if (alias) {
		size_t n = bp_strlen(lname);
		bp_snprintf(lname + n, sizeof(lname) - n, " OR %s", alias);
	}
	format_encoding(ev, enc, sizeof(enc));
	out_printf("  %-52s [%s%s%s]\n", lname, generic ? "generic: " : "", enc,
		   (ev->pebs_gp || ev->pebs_fixed) ? ", precise" : "");
}

static void print_json(const char *name, const struct pmu_event *ev, bool generic,
		       const struct ev_entry *e, bool first)
{
	char gp[96], fixed[48], pgp[96], pfixed[48];

	format_counters(ev->gp_allowed, gp, sizeof(gp));
	format_counters(ev->fixed_allowed, fixed, sizeof(fixed));
	format_counters(ev->pebs_gp, pgp, sizeof(pgp));
	format_counters(ev->pebs_fixed, pfixed, sizeof(pfixed));
	out_printf("%s\n    {\"name\": \"%s\", \"generic\": %s, \"event\": \"0x%02x\", "
		   "\"umask\": \"0x%02x\", \"umask_ext\": \"0x%02x\", \"cmask\": %u, "
		   "\"inv\": %s, \"edge\": %s, \"any\": %s, ",
		   first ? "" : ",", name, json_bool(generic), ev->event, ev->umask,
		   ev->umask_ext, ev->cmask, json_bool(ev->inv), json_bool(ev->edge),
		   json_bool(ev->any));
	out_printf("\"counters\": %s, \"fixed_counters\": %s, \"pebs_counters\": %s, "
		   "\"pebs_fixed_counters\": %s, \"precise\": %s, ",
		   gp, fixed, pgp, pfixed, json_bool(ev->pebs_gp || ev->pebs_fixed));
	if (e) {
		format_counters(ev_pdist_gp(e), pgp, sizeof(pgp));
		format_counters(ev_pdist_fixed(e), pfixed, sizeof(pfixed));
		out_printf("\"pdist_counters\": %s, \"pdist_fixed_counters\": %s, "
			   "\"precise_store\": %s, ", pgp, pfixed,
			   json_bool(ev_precise_store(e)));
	}
	out_printf("\"pebs_only\": %s, \"data_la\": %s, \"taken_alone\": %s, "
		   "\"extra_msr\": \"0x%x\", \"extra_value\": \"0x%llx\", "
		   "\"sample_after\": %llu}",
		   json_bool(e && (e->flags & EVF_PEBS_ONLY)), json_bool(ev->data_la),
		   json_bool(ev->taken_alone), ev->extra_msr,
		   (unsigned long long)ev->extra_value, (unsigned long long)ev->sample_after);
}

static void show(struct list_src *src, const struct list_opts *o, const char *name,
		 const char *alias, const struct pmu_event *ev, const struct ev_entry *e)
{
	bool generic = e == NULL;

	if (!pattern_match(o->pattern, name) && !(alias && pattern_match(o->pattern, alias)))
		return;
	if (o->json)
		print_json(name, ev, generic, e, src->events_shown == 0);
	else
		print_text(name, alias, ev, generic);
	src->events_shown++;
}

/* ---- the lists -------------------------------------------------------- */

/* Generic names that this model or CPU can count (others are skipped). */
static void list_generic(struct list_src *src, const struct list_opts *o)
{
	const char *name, *alias;
	struct pmu_event ev;
	char err[256];

	for (size_t i = 0; evparse_generic(i, &name, &alias); i++)
		if (evparse_event(name, src->t, src->caps, &ev, err, sizeof(err)) == 0)
			show(src, o, name, alias, &ev, NULL);
}

static void list_table(struct list_src *src, const struct list_opts *o)
{
	struct pmu_event ev;

	for (u16 i = 0; src->t && i < src->t->count; i++) {
		const struct ev_entry *e = event_at(src->t, i);
		bp_memset(&ev, 0, sizeof(ev));
		event_entry_fill(src->t, e, &ev);
		show(src, o, ev_name(e), NULL, &ev, e);
	}
}

static void print_header(const struct list_src *src, const struct list_opts *o)
{
	const struct event_table *t = src->t;

	if (o->json) {
		out_printf("{\"cpu\": \"%s\", \"description\": \"%s\", \"source\": \"%s\", "
			   "\"gp_counters\": \"0x%x\", \"fixed_counters\": \"0x%x\", \"events\": [",
			   t ? t->name : "arch", t ? t->desc : "architectural events (CPUID.0AH)",
			   t ? t->source : "CPUID.0AH",
			   t ? t->gp_mask : src->caps->gp_mask,
			   t ? t->fixed_mask : src->caps->fixed_mask);
		return;
	}
	if (t)
		out_printf("Events of %s: %s (%s)\n\n", t->name, t->desc, t->source);
	else
		out_printf("Events of this CPU (family 0x%x model 0x%x): not in the event "
			   "tables, architectural events of CPUID.0AH only\n\n",
			   src->caps->family, src->caps->model);
}

static int list_events(struct list_src *src, const struct list_opts *o)
{
	print_header(src, o);
	list_generic(src, o);
	list_table(src, o);
	if (o->json)
		out_printf("\n]}\n");
	else if (!src->events_shown)
		out_printf("  (no event matches '%s')\n", o->pattern);
	return EXIT_OK;
}

/* ---- command line ----------------------------------------------------- */

static const struct cli_option list_options[] = {
	{ .name = "--cpu", .kind = CLI_STRING, CLI_AT(struct list_opts, cpu) },
	{ .name = "--json", .kind = CLI_FLAG, CLI_AT(struct list_opts, json) },
};

/* Options and the PATTERN in any order; a lone "-" is a pattern. */
static const struct cli_spec list_spec = {
	.cmd = "list", .options = list_options, .count = ARRAY_SIZE(list_options),
	.dash_is_word = true,
};

static int parse_args(int argc, char **argv, struct list_opts *o)
{
	for (int i = 1; i < argc; i++) {
		int rc = cli_parse_options(&list_spec, argc, argv, &i, o);
		if (rc != EXIT_OK)
			return rc;
		if (i == argc)
			break;
		if (o->pattern) {
			err_printf("bareperf list: only one PATTERN, got '%s' and '%s'\n",
				   o->pattern, argv[i]);
			return EXIT_USAGE;
		}
		o->pattern = argv[i];
	}
	return EXIT_OK;
}

static int list_run(int argc, char **argv, const struct global_opts *g)
{
	struct list_opts o = { NULL, NULL, false };
	struct list_src src = { NULL, NULL, 0 };
	struct cmd_model m;
	int rc = parse_args(argc, argv, &o);

	if (rc != EXIT_OK)
		return rc;
	rc = cmd_model_resolve("list", o.cpu, o.json, &m);
	if (rc != EXIT_OK)
		return rc;
	src.t = m.t;
	src.caps = m.caps;
	return list_events(&src, &o);
}

const struct command cmd_list = {
	.name = "list",
	.summary = "list the events of this CPU or of --cpu MODEL",
	.usage = " [--cpu MODEL] [--json] [PATTERN]\n\n"
		 "  PATTERN: case-insensitive substring, or a glob with * and ?.\n"
		 "  --cpu MODEL: every core PMU in Intel's perfmon files, e.g. nhm\n"
		 "               snb hsw bdw skl clx icx spr gnr srf adl adl-e lnl\n"
		 "               nvl nvl-e (an unknown name lists them all)\n"
		 "  --json: encodings and constraints of each event",
	.run = list_run,
};
