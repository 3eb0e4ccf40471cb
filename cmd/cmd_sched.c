/* `bareperf sched [--cpu MODEL] -e LIST [--json]`: plans an event set
 * before a run. Parses LIST for the model, runs the counter scheduler
 * (sched/sched.h) on the model's counters and says where each event goes,
 * or which events cannot be placed and why; for a set that does not fit,
 * how the multiplexing rotation (sched/mux.h) would share the counters.
 * Exit status: 0 everything fits, 1 it does not, 2 bad input. */
#include "cli.h"
#include "model.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/str.h"
#include "../events/evparse.h"
#include "../arch/msr.h"
#include "../sched/mux.h"
#include "../sched/sched.h"

struct sched_opts {
	const char *cpu;	/* --cpu MODEL, or NULL: this CPU */
	char events[CLI_EVENTS_MAX];	/* every -e LIST, joined */
	bool json;
};

/* One rotation cycle of the multiplexer, as `sched` reports it. The
 * rotation state is only the unit a tick starts from, so the ticks repeat
 * after at most one tick per unit plus one. */
#define MUX_MAX_TICKS (SCHED_MAX_EVENTS + 1)

struct mux_plan {
	int first, ticks;		/* the cycle: ticks first..first+ticks-1 */
	u64 ran[MUX_MAX_TICKS];		/* events that run in each tick */
	u32 pct100[SCHED_MAX_EVENTS];	/* running share over the cycle */
};

/* The whole plan; static because it is large for a firmware stack (a
 * command runs once at a time). */
static struct plan {
	struct cmd_model model;
	struct sched_ctx ctx;
	struct pmu_event ev[SCHED_MAX_EVENTS];
	int n;
	int counter[SCHED_MAX_EVENTS];
	u32 extra_msr[SCHED_MAX_EVENTS];
	struct sched_report why;
	bool fits;
	char explain[SCHED_MAX_EVENTS * 320];
	struct mux_plan mux;
} plan;

/* ---- the rotation --------------------------------------------------------- */

static u64 running_set(const int *counter, int n)
{
	u64 m = 0;
	for (int i = 0; i < n; i++)
		if (counter[i] != COUNTER_NONE)
			m |= BIT(i);
	return m;
}

/* Runs the rotation from its first tick until its start unit repeats,
 * then takes the running share of each event over the repeating part:
 * what perf would show as the running percentage of a long run. */
static void plan_mux(struct plan *p)
{
	struct mux_plan *mp = &p->mux;
	struct sched_mux mux;
	int seen_at[SCHED_MAX_EVENTS], counter[SCHED_MAX_EVENTS];
	u32 extra_msr[SCHED_MAX_EVENTS];	/* lets offcore events switch MSR */
	struct mux_time time[SCHED_MAX_EVENTS];

	for (int i = 0; i < p->n; i++)
		seen_at[i] = -1;
	sched_mux_init(&mux);
	for (int tick = 0; tick < MUX_MAX_TICKS; tick++) {
		int start = sched_unit_of(p->ev, p->n, mux.start);
		if (seen_at[start] >= 0) {
			mp->first = seen_at[start];
			mp->ticks = tick - mp->first;
			break;
		}
		seen_at[start] = tick;
		sched_mux_select(&mux, &p->ctx, p->ev, p->n, NULL, counter, extra_msr);
		mp->ran[tick] = running_set(counter, p->n);
	}
	bp_memset(time, 0, sizeof(time));
	for (int tick = mp->first; tick < mp->first + mp->ticks; tick++) {
		for (int i = 0; i < p->n; i++)
			counter[i] = (mp->ran[tick] & BIT(i)) ? 0 : COUNTER_NONE;
		sched_mux_account(time, p->n, counter, 1);
	}
	for (int i = 0; i < p->n; i++)
		mp->pct100[i] = sched_mux_running_pct100(&time[i]);
}

/* ---- text output ------------------------------------------------------------ */

static const char *msr_label(u32 msr)
{
	const char *name = sched_msr_name(msr);
	return name ? name : "MSR";
}

/* "MSR_OFFCORE_RSP_1=0x10001 (event 0x2b umask 0x01)"; empty when the
 * event has no extra MSR. The encoding is shown when the scheduler moved
 * an offcore event to its alternate MSR: the event code and umask that
 * are programmed then (the model's second offcore encoding). */
static void format_extra(const struct plan *p, int i, char *buf, size_t cap)
{
	const struct pmu_event *e = &p->ev[i];
	u32 msr = p->counter[i] != COUNTER_NONE ? p->extra_msr[i] : e->extra_msr;
	size_t k;

	buf[0] = 0;
	if (!msr)
		return;
	k = (size_t)bp_snprintf(buf, cap, "%s=0x%llx", msr_label(msr),
				(unsigned long long)e->extra_value);
	struct pmu_event alt = *e;
	if (sched_event_use_msr(&alt, msr) && k < cap)
		bp_snprintf(buf + k, cap - k, " (event 0x%02x umask 0x%02x)", alt.event, alt.umask);
}

static void format_where(const struct plan *p, int i, char *buf, size_t cap)
{
	if (p->counter[i] == COUNTER_NONE) {
		bp_snprintf(buf, cap, "-");
		return;
	}
	int k = sched_format_counter(p->counter[i], buf, cap);
	if (p->ev[i].amd_pair && k >= 0 && (size_t)k < cap)	/* the odd one counts Merge */
		bp_snprintf(buf + k, cap - k, "+gp%d", p->counter[i] + 1);
}

static void print_header(const struct plan *p)
{
	const struct event_table *t = p->model.t;
	u64 present = p->ctx.gp_mask | ((u64)p->ctx.fixed_mask << COUNTER_FIXED_BASE);
	char counters[64];

	sched_format_counters(present, counters, sizeof(counters));
	if (p->model.caps)
		out_printf("This CPU (%s%s%s): ", t ? t->name : "not in the event tables, "
			   "architectural events only", t ? ", " : "", t ? t->desc : "");
	else
		out_printf("%s (%s): ", t->name, t->desc);
	out_printf("%d GP + %d fixed counters (%s)\n\n", __builtin_popcount(p->ctx.gp_mask),
		   __builtin_popcount(p->ctx.fixed_mask), counters);
}

static void print_placement(const struct plan *p)
{
	char where[16], extra[96];

	out_printf("  %-48s %-8s %s\n", "event", "counter", "extra MSR");
	for (int i = 0; i < p->n; i++) {
		format_where(p, i, where, sizeof(where));
		format_extra(p, i, extra, sizeof(extra));
		if (extra[0])
			out_printf("  %-48s %-8s %s\n", p->ev[i].name, where, extra);
		else
			out_printf("  %-48s %s\n", p->ev[i].name, where);
	}
}

static void print_names(const struct plan *p, u64 set)
{
	bool first = true;
	for (int i = 0; i < p->n; i++)
		if (set & BIT(i)) {
			out_printf("%s%s", first ? "" : ", ", p->ev[i].name);
			first = false;
		}
	if (first)
		out_printf("(nothing)");
}

#define MUX_TICKS_SHOWN 8

static void print_mux(const struct plan *p)
{
	const struct mux_plan *mp = &p->mux;

	out_printf("\nMultiplexing: the rotation (one tick per timer period) repeats every "
		   "%d tick%s:\n", mp->ticks, mp->ticks == 1 ? "" : "s");
	for (int k = 0; k < mp->ticks && k < MUX_TICKS_SHOWN; k++) {
		out_printf("  tick %d: ", k + 1);
		print_names(p, mp->ran[mp->first + k]);
		out_printf("\n");
	}
	if (mp->ticks > MUX_TICKS_SHOWN)
		out_printf("  ... (%d more ticks)\n", mp->ticks - MUX_TICKS_SHOWN);
	out_printf("Running share (counts are scaled by enabled/running time):\n");
	for (int i = 0; i < p->n; i++)
		out_printf("  %-48s %3u.%02u%%%s\n", p->ev[i].name, mp->pct100[i] / 100,
			   mp->pct100[i] % 100, mp->pct100[i] ? "" : "  (never runs: cannot be "
			   "placed even alone)");
}

static void print_text(const struct plan *p)
{
	print_header(p);
	print_placement(p);
	if (p->fits) {
		out_printf("\nAll %d event%s fit together.\n", p->n, p->n == 1 ? "" : "s");
		return;
	}
	out_printf("\n%d of %d events fit together; these cannot be placed:\n",
		   p->why.placed, p->n);
	for (const char *line = p->explain; *line;) {
		const char *end = bp_strchr(line, '\n');
		int len = end ? (int)(end - line) : (int)bp_strlen(line);
		out_printf("  %.*s\n", len, line);
		line += len + (end ? 1 : 0);
	}
	print_mux(p);
}

/* ---- JSON output ------------------------------------------------------------- */

/* A JSON string literal of s[0..len): quotes, backslashes and control
 * characters escaped. */
static void json_string(const char *s, size_t len)
{
	out_printf("\"");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			out_printf("\\%c", c);
		else if (c < 0x20)
			out_printf("\\u%04x", c);
		else
			out_printf("%c", c);
	}
	out_printf("\"");
}

/* The explanation of unplaced event i: sched_explain writes one line per
 * unplaced event, in list order, each starting with "NAME: ". */
static void explain_line(const struct plan *p, int i, const char **text, size_t *len)
{
	const char *line = p->explain;
	for (int e = 0; e < i; e++)
		if (p->why.reason[e] != SCHED_OK) {
			const char *end = bp_strchr(line, '\n');
			line = end ? end + 1 : line + bp_strlen(line);
		}
	const char *end = bp_strchr(line, '\n');
	size_t skip = bp_strlen(p->ev[i].name) + 2;
	size_t full = end ? (size_t)(end - line) : bp_strlen(line);
	*text = full >= skip ? line + skip : line;
	*len = full >= skip ? full - skip : full;
}

static void print_json_event(const struct plan *p, int i)
{
	char where[16];
	const char *why = "";
	size_t why_len = 0;
	u32 msr = p->counter[i] != COUNTER_NONE ? p->extra_msr[i] : p->ev[i].extra_msr;

	out_printf("%s\n    {\"name\": ", i ? "," : "");
	json_string(p->ev[i].name, bp_strlen(p->ev[i].name));
	if (p->counter[i] == COUNTER_NONE) {
		out_printf(", \"counter\": null");
	} else {
		sched_format_counter(p->counter[i], where, sizeof(where));
		out_printf(", \"counter\": \"%s\"", where);
		if (p->ev[i].amd_pair)
			out_printf(", \"merge_counter\": \"gp%d\"", p->counter[i] + 1);
	}
	/* The encoding programmed: the alternate one on its alternate MSR. */
	struct pmu_event enc = p->ev[i];
	sched_event_use_msr(&enc, msr);
	out_printf(", \"event\": \"0x%02x\", \"umask\": \"0x%02x\"", enc.event, enc.umask);
	if (msr)
		out_printf(", \"extra_msr\": \"0x%x\", \"extra_value\": \"0x%llx\"", msr,
			   (unsigned long long)p->ev[i].extra_value);
	else
		out_printf(", \"extra_msr\": null, \"extra_value\": null");
	out_printf(", \"reason\": ");
	if (p->why.reason[i] == SCHED_OK) {
		out_printf("null");
	} else {
		explain_line(p, i, &why, &why_len);
		json_string(why, why_len);
	}
	out_printf(", \"running_pct\": %u.%02u}", p->mux.pct100[i] / 100, p->mux.pct100[i] % 100);
}

static void print_json(const struct plan *p)
{
	const struct event_table *t = p->model.t;

	out_printf("{\"model\": \"%s\", \"gp_counters\": \"0x%x\", \"fixed_counters\": \"0x%x\", "
		   "\"fits\": %s, \"placed\": %d, \"events\": [", t ? t->name : "arch",
		   p->ctx.gp_mask, p->ctx.fixed_mask, p->fits ? "true" : "false", p->why.placed);
	for (int i = 0; i < p->n; i++)
		print_json_event(p, i);
	out_printf("\n], \"rotation\": [");
	for (int k = 0; !p->fits && k < p->mux.ticks; k++) {
		u64 ran = p->mux.ran[p->mux.first + k];
		out_printf("%s[", k ? ", " : "");
		for (int i = 0, first = 1; i < p->n; i++)
			if (ran & BIT(i)) {
				out_printf("%s%d", first ? "" : ",", i);
				first = 0;
			}
		out_printf("]");
	}
	out_printf("]}\n");
}

/* ---- command line ---------------------------------------------------------- */

static const struct cli_option sched_options[] = {
	{ .name = "--cpu", .kind = CLI_STRING, CLI_AT(struct sched_opts, cpu) },
	{ .name = "--event", .short_name = "-e", .kind = CLI_EVENTS,
	  CLI_AT(struct sched_opts, events) },
	{ .name = "--json", .kind = CLI_FLAG, CLI_AT(struct sched_opts, json) },
};

/* Unknown options and words alike: sched takes no word of its own. */
static void unexpected(const char *arg)
{
	err_printf("bareperf sched: unexpected argument '%s' (the events go after -e)\n", arg);
}

static const struct cli_spec sched_spec = {
	.cmd = "sched", .options = sched_options, .count = ARRAY_SIZE(sched_options),
	.unknown = unexpected,
};

static int parse_args(int argc, char **argv, struct sched_opts *o)
{
	int next = 1;
	int rc = cli_parse_options(&sched_spec, argc, argv, &next, o);
	if (rc != EXIT_OK)
		return rc;
	if (next < argc) {
		unexpected(argv[next]);
		return EXIT_USAGE;
	}
	if (!o->events[0]) {
		err_printf("bareperf sched: no events given; use -e LIST, e.g. "
			   "-e cycles,instructions\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int plan_events(struct plan *p, const struct sched_opts *o)
{
	char err[320];

	p->n = evparse_list(o->events, p->model.t, p->model.caps, p->ev, SCHED_MAX_EVENTS,
			    err, sizeof(err));
	if (p->n < 0) {
		err_printf("bareperf sched: %s\n", err);
		return EXIT_USAGE;
	}
	cmd_model_sched_ctx(&p->model, &p->ctx);
	p->fits = sched_assign(&p->ctx, p->ev, p->n, NULL, p->counter, p->extra_msr,
			       &p->why) == p->n;
	sched_explain(&p->ctx, p->ev, p->n, p->counter, &p->why, p->explain,
		      sizeof(p->explain));
	if (p->fits) {
		for (int i = 0; i < p->n; i++)
			p->mux.pct100[i] = 10000;
		p->mux.ticks = 0;
	} else {
		plan_mux(p);
	}
	return EXIT_OK;
}

static int sched_run(int argc, char **argv, const struct global_opts *g)
{
	static struct sched_opts o;	/* static: the list is 4 KiB */
	bp_memset(&o, 0, sizeof(o));
	int rc = parse_args(argc, argv, &o);

	(void)g;
	if (rc != EXIT_OK)
		return rc;
	bp_memset(&plan, 0, sizeof(plan));
	rc = cmd_model_resolve("sched", o.cpu, o.json, &plan.model);
	if (rc == EXIT_OK)
		rc = plan_events(&plan, &o);
	if (rc != EXIT_OK)
		return rc;
	if (o.json)
		print_json(&plan);
	else
		print_text(&plan);
	return plan.fits ? EXIT_OK : EXIT_FAILURE_STATUS;
}

const struct command cmd_sched = {
	.name = "sched",
	.summary = "plan an event set: which counter each event gets, or why not",
	.usage = " [--cpu MODEL] -e LIST [--json]\n\n"
		 "  -e LIST: events as for perf (docs/events.md), e.g.\n"
		 "           -e '{cycles,instructions},MEM_LOAD_RETIRED.L3_MISS:pp'\n"
		 "  --cpu MODEL: plan for a model's counters (see `list --help`);\n"
		 "               default: this CPU\n"
		 "  --json: one object: model, fits, and per event its counter,\n"
		 "          extra MSR, reason and running share\n"
		 "  Exit status: 0 the events fit, 1 they do not, 2 bad input.",
	.run = sched_run,
};
