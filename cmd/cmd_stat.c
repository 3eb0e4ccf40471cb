/* `bareperf stat -e LIST [-I MS] [--] WORKLOAD [ARGS]`: counts events over
 * a built-in workload and prints them in perf stat's layout. When the
 * events do not fit on the counters together, they are multiplexed on a
 * timer and their counts scaled as perf does (count * enabled / running),
 * with the share of time each ran. */
#include "cli.h"
#include "backend.h"
#include "session.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../sched/mux.h"
#include "../workload/workload.h"

#define STAT_DEFAULT_EVENTS "cycles,instructions,branches,branch-misses"
#define STAT_MUX_MS 10

struct stat_event {
	int id;			/* pmu slot, -1 while not on a counter */
	u64 count;		/* events counted while it ran */
	u64 last;		/* pmu_read() of its slot at the last update */
	struct mux_time time;
	u64 interval_scaled;	/* scaled count at the last -I line */
};

struct stat_run {
	struct session s;
	struct pmu_event ev[SESSION_MAX_EVENTS];
	struct stat_event st[SESSION_MAX_EVENTS];
	int n;
	bool mux;
	struct sched_mux rot;
	u64 last_update;
	u32 interval_ms;
	u64 start, next_interval;
};

static struct stat_run run;	/* the PMU state must outlive the command for exit hooks */

static void update_counts(struct stat_run *r, u64 now)
{
	int counter[SESSION_MAX_EVENTS];
	for (int i = 0; i < r->n; i++) {
		struct stat_event *e = &r->st[i];
		counter[i] = e->id >= 0 ? pmu_counter_of(&r->s.pmu, e->id) : COUNTER_NONE;
		if (e->id < 0)
			continue;
		u64 c = pmu_read(&r->s.pmu, e->id);
		e->count += c - e->last;
		e->last = c;
	}
	for (int i = 0; i < r->n; i++) {
		u64 elapsed = now - r->last_update;
		r->st[i].time.enabled += elapsed;
		if (counter[i] != COUNTER_NONE)
			r->st[i].time.running += elapsed;
	}
	r->last_update = now;
}

static int add_unit(struct stat_run *r, int leader, char *err, size_t errlen)
{
	int ids[SESSION_MAX_EVENTS], k = 0;
	struct pmu_event members[SESSION_MAX_EVENTS];
	u64 mask = sched_unit_members(r->ev, r->n, leader);
	for (int i = 0; i < r->n; i++)
		if (mask & BIT(i))
			members[k++] = r->ev[i];
	if (pmu_add_group(&r->s.pmu, members, k, 0, ids, err, errlen))
		return -1;
	k = 0;
	for (int i = 0; i < r->n; i++)
		if (mask & BIT(i)) {
			r->st[i].id = ids[k++];
			r->st[i].last = 0;
		}
	return 0;
}

/* Multiplexing: the rotation picks the next subset; events leaving are
 * removed, units joining are added, the rest stay on their counters. */
static void rotate(struct stat_run *r)
{
	int prev[SESSION_MAX_EVENTS], next[SESSION_MAX_EVENTS];
	u32 extra[SESSION_MAX_EVENTS];
	for (int i = 0; i < r->n; i++)
		prev[i] = r->st[i].id >= 0 ? pmu_counter_of(&r->s.pmu, r->st[i].id) : COUNTER_NONE;
	if (sched_mux_select(&r->rot, &r->s.pmu.sched, r->ev, r->n, prev, next, extra) < 0)
		return;
	for (int i = 0; i < r->n; i++)
		if (r->st[i].id >= 0 && next[i] == COUNTER_NONE) {
			pmu_remove(&r->s.pmu, r->st[i].id);
			r->st[i].id = -1;
		}
	for (int i = 0; i < r->n; i++)
		if (next[i] != COUNTER_NONE && r->st[i].id < 0 &&
		    sched_unit_of(r->ev, r->n, i) == i)
			add_unit(r, i, NULL, 0);
}

static u64 scaled(const struct stat_event *e)
{
	return sched_mux_scale(e->count, &e->time);
}

static void print_interval(struct stat_run *r, u64 now)
{
	double t = session_seconds(now - r->start);
	char num[32];
	for (int i = 0; i < r->n; i++) {
		u64 c = scaled(&r->st[i]);
		out_printf("%15.9f %18s      %s\n", t,
			   fmt_thousands(c - r->st[i].interval_scaled, num, sizeof(num)),
			   r->ev[i].name);
		r->st[i].interval_scaled = c;
	}
}

static void on_timer(void *ctx)
{
	struct stat_run *r = ctx;
	u64 now = plat_ticks();
	pmu_disable(&r->s.pmu);
	update_counts(r, now);
	if (r->mux)
		rotate(r);
	pmu_enable(&r->s.pmu);
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
	const struct stat_event *e = &r->st[i];
	char num[32], note[64] = "";
	if (!e->time.running) {
		out_printf("%18s      %-26s\n", "<not counted>", r->ev[i].name);
		return;
	}
	u64 c = scaled(e);
	if (cycles >= 0 && cycles != i && r->ev[i].event == 0xC0 && scaled(&r->st[cycles]))
		bp_snprintf(note, sizeof(note), "#  %5.2f  insn per cycle",
			    (double)c / (double)scaled(&r->st[cycles]));
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

static int check_each_fits(struct stat_run *r)
{
	char why[512];
	for (int u = 0; u < r->n; u++) {
		if (sched_unit_of(r->ev, r->n, u) != u)
			continue;
		if (add_unit(r, u, why, sizeof(why))) {
			err_printf("bareperf stat: cannot count %s on this CPU: %s\n", r->ev[u].name, why);
			return EXIT_FAILURE_STATUS;
		}
		pmu_remove(&r->s.pmu, r->st[u].id);
		for (int i = 0; i < r->n; i++)
			r->st[i].id = -1;
	}
	return EXIT_OK;
}

static int place_events(struct stat_run *r)
{
	int counter[SESSION_MAX_EVENTS];
	for (int i = 0; i < r->n; i++)
		r->st[i] = (struct stat_event){ .id = -1 };
	int rc = check_each_fits(r);
	if (rc != EXIT_OK)
		return rc;
	r->mux = sched_assign(&r->s.pmu.sched, r->ev, r->n, NULL, counter, NULL, NULL) != r->n;
	if (r->mux) {
		sched_mux_init(&r->rot);
		rotate(r);
		return EXIT_OK;
	}
	for (int u = 0; u < r->n; u++)
		if (sched_unit_of(r->ev, r->n, u) == u)
			add_unit(r, u, NULL, 0);
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
	if ((rc = place_events(r)) != EXIT_OK) {
		session_stop(&r->s);
		return rc;
	}
	r->interval_ms = o.interval_ms;
	struct workload_result wr;
	r->start = r->last_update = plat_ticks();
	r->next_interval = r->start + (u64)o.interval_ms * plat_ticks_per_second() / 1000;
	bool timer = r->mux || o.interval_ms;
	if (timer)
		plat_timer_start(o.interval_ms && !r->mux ? o.interval_ms : STAT_MUX_MS, on_timer, r);
	pmu_enable(&r->s.pmu);
	int wrc = w->run(argc - o.workload_at, argv + o.workload_at, &wr);
	pmu_disable(&r->s.pmu);
	if (timer)
		plat_timer_stop();
	update_counts(r, plat_ticks());
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
