/* `bareperf stat -e LIST [-I MS] [-a [-A] | -C LIST] [--] WORKLOAD [ARGS]`:
 * counts events over a built-in workload and prints them in perf stat's
 * layout. When the events do not fit on the counters together, they are
 * multiplexed on a timer and their counts scaled as perf does (count *
 * enabled / running), with the share of time each ran. Each CPU counts on
 * its own PMU (sampling/percpu.h), multiplexing on itself: this one, or
 * those of -a or -C, whose counts are summed, or shown per CPU with -A. */
#include "cli.h"
#include "cpus.h"
#include "../sampling/percpu.h"
#include "backend.h"
#include "session.h"
#include "output.h"
#include "../sampling/count.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/result.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../workload/workload.h"

#define STAT_DEFAULT_EVENTS "cycles,instructions,branches,branch-misses"
#define STAT_MUX_MS 10

/* One CPU's counting (its PMU, its events: its own table on a hybrid part,
 * their multiplexing) is a struct stat_engine (sampling/count.h), which
 * the per-CPU engine's counting ops hold; percpu_counts reads it. */

struct stat_run {
	struct session s;
	struct pmu_event ev[SESSION_MAX_EVENTS];
	struct percpu_types types;	/* the events of each core type counted, ev's first */
	struct percpu pc;		/* with percpu_counting */
	bool every_cpu;			/* -a or -C: "system wide" */
	int n;
	u32 interval_ms;
	u64 start, next_interval;
	u64 interval_scaled[SESSION_MAX_EVENTS];	/* totals at the last -I line */
	/* --results, taken before the PMU is given back (the engines' state
	 * goes with it) and printed after -o's file is closed. */
	u64 result_total[SESSION_MAX_EVENTS];
	bool result_counted[SESSION_MAX_EVENTS];
};

static struct stat_run run;	/* the PMU state must outlive the command for exit hooks */

static u64 scaled(const struct stat_engine *c, int i)
{
	return stat_engine_scaled(c, i);
}

/* The CPUs that count: this one, or each of -a/-C that is ready. */
static u32 cpu_count(const struct stat_run *r)
{
	return r->pc.count;
}

static const struct stat_engine *cpu_at(const struct stat_run *r, u32 i, u32 *number)
{
	*number = r->pc.cpu[i]->cpu;
	return percpu_counts(&r->pc, i);
}

/* Event i summed over the CPUs (each scaled on its own). */
static u64 total_scaled(const struct stat_run *r, int i)
{
	u64 sum = 0;
	u32 number;
	for (u32 k = 0; k < cpu_count(r); k++) {
		const struct stat_engine *c = cpu_at(r, k, &number);
		if (c)
			sum += scaled(c, i);
	}
	return sum;
}

static void print_interval(struct stat_run *r, u64 now)
{
	double t = session_seconds(now - r->start);
	char num[32];
	for (int i = 0; i < r->n; i++) {
		u64 c = total_scaled(r, i);
		out_printf("%15.9f %18s      %s\n", t,
			   fmt_thousands(c - r->interval_scaled[i], num, sizeof(num)),
			   r->ev[i].name);
		r->interval_scaled[i] = c;
	}
}

static void on_timer(void *ctx)
{
	struct stat_run *r = ctx;
	u64 now = plat_ticks();
	percpu_tick(&r->pc);
	if (r->interval_ms && now >= r->next_interval) {
		print_interval(r, now);
		r->next_interval += (u64)r->interval_ms * plat_ticks_per_second() / 1000;
	}
}

static int find_event(const struct pmu_event *ev, int n, const char *generic, u8 code, u8 umask)
{
	for (int i = 0; i < n; i++)
		if (bp_strcmp(ev[i].name, generic) == 0 ||
		    (ev[i].event == code && ev[i].umask == umask && !ev[i].cmask))
			return i;
	return -1;
}

#define STAT_NAME_WIDTH 26	/* the event name's column, as perf stat's */

/* One line: count (scaled), name, insn per cycle, running share. prefix
 * is "CPU3      " with -A, else "". */
static void print_line(const char *prefix, const char *name, const struct pmu_event *ev, u64 c,
		       u64 cycles, const struct mux_time *time)
{
	char num[32], note[64] = "";
	if (!time->running) {
		out_printf("%s%18s      %s\n", prefix, "<not counted>", name);
		return;
	}
	if (ev->event == ARCH_CODE_INST_RETIRED && cycles)
		bp_snprintf(note, sizeof(note), "#  %5.2f  insn per cycle", (double)c / (double)cycles);
	bool mux = time->running < time->enabled;
	out_printf("%s%18s      %s", prefix, fmt_thousands(c, num, sizeof(num)), name);
	if (note[0] || mux) {
		/* A name as long as its column (a raw cpu/event=...,umask=.../)
		 * keeps two spaces before the comment. */
		int pad = STAT_NAME_WIDTH - (int)bp_strlen(name);
		out_printf("%*s%-*s", pad > 0 ? pad : 2, "", mux ? 32 : 0, note);
	}
	if (mux)
		out_printf("  (%u.%02u%%)", sched_mux_running_pct100(time) / 100,
			   sched_mux_running_pct100(time) % 100);
	out_puts("\n");
}

static void print_cpu(const struct stat_engine *c, const char *prefix)
{
	int cycles = find_event(c->ev, c->n, "cycles", ARCH_CODE_CORE_CYCLES,
				ARCH_UMASK_CORE_CYCLES);
	for (int i = 0; i < c->n; i++)
		print_line(prefix, c->ev[i].name, &c->ev[i], scaled(c, i),
			   cycles >= 0 && cycles != i ? scaled(c, cycles) : 0, &c->st[i].time);
}

/* Without -A: each event summed over the CPUs (one without -a/-C); its
 * running share is the sum of the CPUs' times. */
static void print_totals(const struct stat_run *r)
{
	int cycles = find_event(r->ev, r->n, "cycles", ARCH_CODE_CORE_CYCLES,
				ARCH_UMASK_CORE_CYCLES);
	u32 number;
	for (int i = 0; i < r->n; i++) {
		struct mux_time t = { 0 };
		for (u32 k = 0; k < cpu_count(r); k++) {
			const struct stat_engine *c = cpu_at(r, k, &number);
			if (c) {
				t.enabled += c->st[i].time.enabled;
				t.running += c->st[i].time.running;
			}
		}
		print_line("", r->ev[i].name, &r->ev[i], total_scaled(r, i),
			   cycles >= 0 && cycles != i ? total_scaled(r, cycles) : 0, &t);
	}
}

/* --results: each event's count over every CPU measured (stat.NAME,
 * events; a count never taken fails), kept while the engines exist. */
static void take_results(struct stat_run *r)
{
	u32 number;
	for (int i = 0; i < r->n; i++) {
		bool counted = false;
		for (u32 k = 0; k < cpu_count(r); k++) {
			const struct stat_engine *c = cpu_at(r, k, &number);
			counted |= c && c->st[i].time.running;
		}
		r->result_counted[i] = counted;
		r->result_total[i] = total_scaled(r, i);
	}
}

/* ... and printed, with the time, after -o's file is closed. */
static void print_results(const struct stat_run *r, u64 ticks)
{
	for (int i = 0; i < r->n; i++) {
		char id[96];
		bp_snprintf(id, sizeof(id), "stat.%s", r->ev[i].name);
		result_count(id, r->result_counted[i] ? RESULT_PASS : RESULT_FAIL,
			     r->result_total[i], "events");
	}
	result_measure("stat.seconds", RESULT_PASS, session_seconds(ticks), "seconds");
}

static void print_summary(const struct stat_run *r, const char *workload, u64 ticks, bool per_cpu)
{
	u32 number;
	out_printf("\n Performance counter stats for '%s'%s:\n\n",
		   r->every_cpu ? "system wide" : workload, r->s.emulated ? " (EMULATED PMU)" : "");
	if (!per_cpu)
		print_totals(r);
	else
		for (u32 k = 0; k < cpu_count(r); k++) {
			const struct stat_engine *c = cpu_at(r, k, &number);
			char prefix[16];
			bp_snprintf(prefix, sizeof(prefix), "CPU%-6u", number);
			if (c)
				print_cpu(c, prefix);
		}
	out_printf("\n%18.9f seconds time elapsed\n\n", session_seconds(ticks));
}

struct stat_opts {
	char events[CLI_EVENTS_MAX];
	u32 interval_ms;
	bool all_cpus, per_cpu;		/* -a, -A */
	const char *cpu_list;		/* -C */
	const char *output;		/* -o: FILE, serial or http://... (cmd/output.h) */
	struct cmd_output out;
	int workload_at;
};

static const struct cli_option stat_options[] = {
	{ .name = "--event", .short_name = "-e", .kind = CLI_EVENTS,
	  CLI_AT(struct stat_opts, events) },
	{ .short_name = "-I", .kind = CLI_NUMBER, CLI_AT(struct stat_opts, interval_ms),
	  .min = 10, .max = 3600000, .expect = "expected milliseconds from 10 to 3600000" },
	{ .short_name = "-C", .kind = CLI_STRING, CLI_AT(struct stat_opts, cpu_list) },
	{ .short_name = "-a", .kind = CLI_FLAG, CLI_AT(struct stat_opts, all_cpus) },
	{ .short_name = "-A", .kind = CLI_FLAG, CLI_AT(struct stat_opts, per_cpu) },
	{ .short_name = "-o", .kind = CLI_STRING, CLI_AT(struct stat_opts, output),
	  .min = 1, .max = 400, .expect = "expected a file name, serial or http://HOST[:PORT]/PATH" },
};

static const struct cli_spec stat_spec = {
	.cmd = "stat", .options = stat_options, .count = ARRAY_SIZE(stat_options),
	.dashdash_ends = true,
};

static int parse_opts(int argc, char **argv, struct stat_opts *o)
{
	bp_memset(o, 0, sizeof(*o));
	o->workload_at = 1;
	int rc = cli_parse_options(&stat_spec, argc, argv, &o->workload_at, o);
	if (rc != EXIT_OK)
		return rc;
	if (o->all_cpus && o->cpu_list) {
		err_printf("bareperf stat: -a and -C exclude each other\n");
		return EXIT_USAGE;
	}
	if (o->per_cpu && !o->all_cpus && !o->cpu_list) {
		err_printf("bareperf stat: -A (per CPU) needs -a or -C LIST\n");
		return EXIT_USAGE;
	}
	if (o->workload_at >= argc) {
		err_printf("bareperf stat: no workload given (built-in: %s)\n", workload_names());
		return EXIT_USAGE;
	}
	if (!o->events[0])
		bp_strlcpy(o->events, STAT_DEFAULT_EVENTS, sizeof(o->events));
	return cmd_output_parse(&o->out, o->output, "stat.txt", "stat");
}

/* With -v and no -a/-C: the counter each event got on this CPU. */
static void show_placement(const struct stat_run *r)
{
	const struct percpu_cpu *c = r->pc.cpu[0];
	const struct stat_engine *e = percpu_counts(&r->pc, 0);
	int ids[SESSION_MAX_EVENTS];
	for (int i = 0; i < e->n; i++)
		ids[i] = e->st[i].id;
	session_show_placement(&r->s, &c->pmu, e->ev, ids, e->n);
}

/* Takes the PMU of this CPU (or of every CPU of -a/-C) and places the
 * events on it. */
static int open_counting(struct stat_run *r, const struct stat_opts *o, const struct global_opts *g)
{
	u64 mask;
	struct sampling_opts none = { 0 };
	int rc, failed;
	if ((rc = cpus_mask_of(o->all_cpus, o->cpu_list, "stat", &mask)) != EXIT_OK)
		return rc;
	if (r->every_cpu) {
		percpu_types_add_cpus(&r->types, mask);
		failed = percpu_open(&r->pc, mask, &r->types, g->force, &none, &percpu_counting, "stat");
	} else {
		failed = percpu_open_self(&r->pc, &r->types, g->force, &none, &percpu_counting, "stat");
	}
	if (failed)
		return EXIT_FAILURE_STATUS;
	/* The emulated CPU runs once the PMU is ours and stops before it is
	 * given back, as record's does. */
	if ((rc = session_start_drive(&r->s, g, "stat")) != EXIT_OK) {
		percpu_close(&r->pc);
		return rc;
	}
	if (!r->every_cpu)
		show_placement(r);
	return EXIT_OK;
}

static bool any_mux(const struct stat_run *r)
{
	u32 number;
	for (u32 k = 0; k < cpu_count(r); k++) {
		const struct stat_engine *c = cpu_at(r, k, &number);
		if (c && c->mux)
			return true;
	}
	return false;
}

static int stat_run(int argc, char **argv, const struct global_opts *g)
{
	struct stat_opts o;
	struct stat_run *r = &run;
	int rc = parse_opts(argc, argv, &o);
	if (rc != EXIT_OK)
		return rc;
	const struct workload *w = workload_checked(argc - o.workload_at, argv + o.workload_at);
	if (!w)
		return EXIT_USAGE;
	bp_memset(r, 0, sizeof(*r));
	backend_banner();
	if ((rc = session_probe(&r->s, "stat")) != EXIT_OK)
		return rc;
	r->n = session_parse_events(&r->s, "stat", o.events, r->ev, SESSION_MAX_EVENTS);
	if (r->n < 0)
		return EXIT_USAGE;
	percpu_types_init(&r->types, &r->s.caps, o.events, r->ev, r->n);
	r->every_cpu = o.all_cpus || o.cpu_list;
	if ((rc = open_counting(r, &o, g)) != EXIT_OK)
		return rc;
	r->interval_ms = o.interval_ms;
	struct workload_result wr;
	r->start = plat_ticks();
	r->next_interval = r->start + (u64)o.interval_ms * plat_ticks_per_second() / 1000;
	bool mux = any_mux(r);
	/* With -a/-C every CPU counts whatever runs there: the timer also
	 * keeps each CPU's counts from wrapping between rotations. */
	bool timer = mux || o.interval_ms || r->every_cpu;
	/* -o: the -I lines and the table, as perf stat -o writes them. */
	bool to_file = o.output && cmd_output_begin(&o.out, "stat") == 0;
	if (timer)
		plat_timer_start(o.interval_ms && !mux ? o.interval_ms : STAT_MUX_MS, on_timer, r);
	exec_workload_only(true);
	percpu_start(&r->pc);
	int wrc = w->run(argc - o.workload_at, argv + o.workload_at, &wr);
	exec_settle();	/* an emulated PMU charges the workload's last told instructions */
	percpu_stop(&r->pc);
	exec_workload_only(false);
	if (timer)
		plat_timer_stop();
	if (!wrc) {
		print_summary(r, w->name, wr.ticks, o.per_cpu);
		take_results(r);
	}
	/* Counts of a PMU that never started are not counts: say so, and fail. */
	bool held = percpu_report_held(&r->pc) != 0;
	session_stop(&r->s);
	percpu_close(&r->pc);
	bool unsent = to_file ? cmd_output_end(&o.out, "stat") != 0 : o.output != NULL;
	if (!wrc)
		print_results(r, wr.ticks);
	/* Its options were checked before: a workload that fails now could
	 * not run (its memory), a failed command, not a bad line. */
	return wrc || held || unsent ? EXIT_FAILURE_STATUS : EXIT_OK;
}

const struct command cmd_stat = {
	.name = "stat",
	.summary = "count events over a built-in workload (perf stat's layout)",
	.usage = " [-e LIST] [-I MS] [-a [-A] | -C LIST [-A]] [-o FILE|serial|URL] [--] WORKLOAD [ARGS]\n\n"
		 "  -e LIST   events (default " STAT_DEFAULT_EVENTS "); see `list`\n"
		 "  -I MS     also print counts every MS milliseconds\n"
		 "  -a        count on every CPU (the others wait in bareperf's loop meanwhile)\n"
		 "  -C LIST   count on these CPUs (0,2-3)\n"
		 "  -A        with -a/-C: one figure per CPU instead of the sum\n"
		 "  -o FILE   the counts also into FILE of the output folder; serial: stat.txt,\n"
		 "            then sent over the serial line; http://HOST[:PORT]/PATH: PATH's\n"
		 "            last part, then sent by HTTP PUT\n"
		 "  WORKLOAD  soak [-n ITERATIONS] | chase [--size BYTES] [--steps N] |\n"
		 "            branchy [-n ITERATIONS] [--taken PERCENT] |\n"
		 "            stream [--size BYTES] [--passes N] | irqoff [-n ITERATIONS]",
	.run = stat_run,
};
