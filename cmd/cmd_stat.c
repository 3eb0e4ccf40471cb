/* `bareperf stat -e LIST [-I MS] [--] WORKLOAD [ARGS]`: counts events over
 * a built-in workload and prints them in perf stat's layout. When the
 * events do not fit on the counters together, they are multiplexed on a
 * timer and their counts scaled as perf does (count * enabled / running),
 * with the share of time each ran. */
#include "cli.h"
#include "backend.h"
#include "session.h"
#include "stat_engine.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../workload/workload.h"

#define STAT_DEFAULT_EVENTS "cycles,instructions,branches,branch-misses"
#define STAT_MUX_MS 10

struct stat_run {
	struct session s;
	struct stat_engine eng;
	struct pmu_event ev[SESSION_MAX_EVENTS];
	int n;
	u32 interval_ms;
	u64 start, next_interval;
};

static struct stat_run run;	/* the PMU state must outlive the command for exit hooks */

static void print_interval(struct stat_run *r, u64 now)
{
	double t = session_seconds(now - r->start);
	char num[32];
	for (int i = 0; i < r->n; i++) {
		struct stat_event *e = &r->eng.st[i];
		u64 c = stat_engine_scaled(&r->eng, i);
		out_printf("%15.9f %18s      %s\n", t,
			   fmt_thousands(c - e->interval_scaled, num, sizeof(num)), r->ev[i].name);
		e->interval_scaled = c;
	}
}

static void on_timer(void *ctx)
{
	struct stat_run *r = ctx;
	u64 now = plat_ticks();
	stat_engine_tick(&r->eng, now);
	if (r->interval_ms && now >= r->next_interval) {
		print_interval(r, now);
		r->next_interval += (u64)r->interval_ms * plat_ticks_per_second() / 1000;
	}
}

static int find_event(const struct stat_run *r, const char *generic, u8 code, u8 umask)
{
	for (int i = 0; i < r->n; i++)
		if (bp_strcmp(r->ev[i].name, generic) == 0 ||
		    (r->ev[i].event == code && r->ev[i].umask == umask && !r->ev[i].cmask))
			return i;
	return -1;
}

static void print_line(const struct stat_run *r, int i, int cycles)
{
	const struct stat_event *e = &r->eng.st[i];
	char num[32], note[64] = "";
	if (!e->time.running) {
		out_printf("%18s      %-26s\n", "<not counted>", r->ev[i].name);
		return;
	}
	u64 c = stat_engine_scaled(&r->eng, i);
	u64 cyc = cycles >= 0 ? stat_engine_scaled(&r->eng, cycles) : 0;
	if (cycles >= 0 && cycles != i && r->ev[i].event == 0xC0 && cyc)
		bp_snprintf(note, sizeof(note), "#  %5.2f  insn per cycle", (double)c / (double)cyc);
	out_printf("%18s      %-26s%-32s", fmt_thousands(c, num, sizeof(num)), r->ev[i].name, note);
	if (e->time.running < e->time.enabled)
		out_printf("  (%u.%02u%%)", sched_mux_running_pct100(&e->time) / 100,
			   sched_mux_running_pct100(&e->time) % 100);
	out_puts("\n");
}

static void print_summary(const struct stat_run *r, const char *workload, u64 ticks)
{
	int cycles = find_event(r, "cycles", 0x3C, 0x00);
	out_printf("\n Performance counter stats for '%s'%s:\n\n", workload,
		   r->s.emulated ? " (EMULATED PMU)" : "");
	for (int i = 0; i < r->n; i++)
		print_line(r, i, cycles);
	out_printf("\n%18.9f seconds time elapsed\n\n", session_seconds(ticks));
}

struct stat_opts {
	char events[1024];
	u32 interval_ms;
	int workload_at;
};

static int parse_opts(int argc, char **argv, struct stat_opts *o)
{
	o->events[0] = 0;
	o->interval_ms = 0;
	o->workload_at = -1;
	for (int i = 1; i < argc; i++) {
		bool missing;
		const char *v;
		if (bp_strcmp(argv[i], "--") == 0) {
			o->workload_at = i + 1;
			break;
		}
		if (argv[i][0] != '-') {
			o->workload_at = i;
			break;
		}
		if ((v = cli_option_value(argc, argv, &i, "-e", &missing)) ||
		    (!missing && (v = cli_option_value(argc, argv, &i, "--event", &missing)))) {
			size_t len = bp_strlen(o->events);
			bp_snprintf(o->events + len, sizeof(o->events) - len, "%s%s", len ? "," : "", v);
		} else if (!missing && (v = cli_option_value(argc, argv, &i, "-I", &missing))) {
			u64 ms;
			if (!bp_parse_u64(v, &ms) || ms < 10 || ms > 3600000) {
				err_printf("bareperf stat: -I '%s': expected milliseconds from 10 to 3600000\n", v);
				return EXIT_USAGE;
			}
			o->interval_ms = (u32)ms;
		} else {
			if (!missing)
				err_printf("bareperf stat: unknown option '%s'\n", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (o->workload_at < 0 || o->workload_at >= argc) {
		err_printf("bareperf stat: no workload given (built-in: soak, chase)\n");
		return EXIT_USAGE;
	}
	if (!o->events[0])
		bp_strlcpy(o->events, STAT_DEFAULT_EVENTS, sizeof(o->events));
	return EXIT_OK;
}

static int stat_run(int argc, char **argv, const struct global_opts *g)
{
	struct stat_opts o;
	struct stat_run *r = &run;
	int rc = parse_opts(argc, argv, &o);
	if (rc != EXIT_OK)
		return rc;
	const struct workload *w = workload_find(argv[o.workload_at]);
	if (!w) {
		workload_unknown(argv[o.workload_at]);
		return EXIT_USAGE;
	}
	bp_memset(r, 0, sizeof(*r));
	backend_banner();
	if ((rc = session_probe(&r->s, "stat")) != EXIT_OK)
		return rc;
	r->n = session_parse_events(&r->s, "stat", o.events, r->ev, SESSION_MAX_EVENTS);
	if (r->n < 0)
		return EXIT_USAGE;
	if ((rc = session_start(&r->s, g, "stat")) != EXIT_OK)
		return rc;
	char err[512];
	r->start = plat_ticks();
	if (stat_engine_init(&r->eng, &r->s.pmu, r->ev, r->n, r->start, err, sizeof(err))) {
		err_printf("bareperf stat: %s\n", err);
		session_stop(&r->s);
		return EXIT_FAILURE_STATUS;
	}
	int ids[SESSION_MAX_EVENTS];
	for (int i = 0; i < r->n; i++)
		ids[i] = r->eng.st[i].id;
	pmu_commit_schedule(&r->s.pmu);
	session_show_placement(&r->s, r->ev, ids, r->n);
	r->interval_ms = o.interval_ms;
	struct workload_result wr;
	r->next_interval = r->start + (u64)o.interval_ms * plat_ticks_per_second() / 1000;
	bool timer = r->eng.mux || o.interval_ms;
	if (timer)
		plat_timer_start(o.interval_ms && !r->eng.mux ? o.interval_ms : STAT_MUX_MS, on_timer, r);
	pmu_enable(&r->s.pmu);
	int wrc = w->run(argc - o.workload_at, argv + o.workload_at, &wr);
	pmu_disable(&r->s.pmu);
	if (timer)
		plat_timer_stop();
	stat_engine_update(&r->eng, plat_ticks());
	session_stop(&r->s);
	if (wrc)
		return EXIT_USAGE;
	print_summary(r, w->name, wr.ticks);
	return EXIT_OK;
}

const struct command cmd_stat = {
	.name = "stat",
	.summary = "count events over a built-in workload (perf stat's layout)",
	.usage = " [-e LIST] [-I MS] [--] WORKLOAD [ARGS]\n\n"
		 "  -e LIST   events (default " STAT_DEFAULT_EVENTS "); see `list`\n"
		 "  -I MS     also print counts every MS milliseconds\n"
		 "  WORKLOAD  soak [-n ITERATIONS] | chase [--size BYTES] [--steps N]",
	.run = stat_run,
};
