/* `bareperf bench overhead|error`: the studies behind large PEBS, and
 * their IBS counterparts on AMD.
 *
 * overhead: the workload unsampled, then for each period in the two modes
 * the PMU's precise engine offers (struct bench_study), each several
 * times (median): the elapsed time of the workload's own timed part,
 * PMIs, samples and losses. With PEBS, plain (threshold 1) against multi
 * (large threshold): the seed's table (Linux, kernbench) shows plain
 * costing about twice multi at period 10003 and both meeting from about
 * 800003 on; this measures the same for our own handler. IBS has no
 * buffer and no threshold (one sample per interrupt), so there the study
 * is PMI mode (a core counter's overflow) against IBS.
 *
 * error: per function of soak, the share of samples against the share of
 * instructions by construction, in PMI mode and with the precise engine
 * (PEBS or IBS), per period.
 *
 * Each sampled run opens the PMU of this CPU through the per-CPU engine
 * (sampling/percpu.h), as record does without -a/-C, and gives it back.
 * Nothing is written to a file: samples are counted (and, for error,
 * attributed) straight from the ring after each run. */
#include "cli.h"
#include "backend.h"
#include "session.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/result.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../perfdata/symtab.h"
#include "../events/evparse.h"
#include "../arch/exec.h"
#include "../arch/hw.h"
#include "../pmu/precise.h"
#include "../sampling/percpu.h"
#include "../sampling/sampling.h"
#include "../workload/workload.h"

#define BENCH_MAX_PERIODS 16
#define BENCH_MAX_RUNS    15
#define BENCH_RING        65536	/* samples held per run: the ring is read after it */
#define BENCH_POLL_MS     10	/* sampling_tick: throttle windows */
#define BENCH_BATCH       256
#define BENCH_MAX_IPS     (1u << 20)	/* bench error: samples per run */
#define BENCH_DEFAULT_RUNS 3
#define BENCH_DEFAULT_PERIODS "10003,20003,40003,80003,100003,800003,1000003,2000003"
#define BENCH_ERROR_PERIODS   "10003,100003,1000003"
/* soak with 32 M instructions: 3,200 samples at 10003, 16 at 2000003. */
#define BENCH_DEFAULT_SOAK_N  "4000000"
/* A PEBS-capable instructions event, most specific last: generic
 * instructions:pp where the table allows it (icx, spr), else the
 * precise-distribution event (skl). */
static const char *const default_events[] = { "instructions:pp", "INST_RETIRED.PREC_DIST:ppp" };
/* An engine with one sample per interrupt (IBS): perf's default precise
 * event, which Linux forwards to ibs_op (forward_event_to_ibs). */
static const char *const default_events_one[] = { "cycles:p" };

/* MODE_MULTI: the precise engine as it collects best (PEBS: the large
 * threshold; IBS, which has none: IBS as it is). */
enum bench_mode { MODE_NONE, MODE_PMI, MODE_PLAIN, MODE_MULTI };

/* The two modes a study compares and their names, as the PMU's precise
 * engine allows (pmu/precise.h multi_record): a threshold engine is
 * compared with itself, one record per PMI against many; a one sample
 * per interrupt engine with PMI mode. */
struct bench_study {
	const char *engine;	/* without an engine: the name it would have */
	bool threshold;
	enum bench_mode mode[2];
	const char *col[2];	/* the modes' column names */
	const char *lost_col;	/* the lost column's "a/b" */
	const char *compares;	/* for the usage error on a non-precise event */
	const char *assist;	/* the hardware's per-sample work */
	const char *const *defaults;
	size_t ndefaults;
};

static const struct bench_study study_threshold = {
	.engine = "PEBS", .threshold = true, .mode = { MODE_PLAIN, MODE_MULTI },
	.col = { "plain", "multi" }, .lost_col = "p/m", .compares = "PEBS thresholds",
	.assist = "PEBS assist",
	.defaults = default_events, .ndefaults = ARRAY_SIZE(default_events),
};
static const struct bench_study study_one = {
	.engine = "IBS", .threshold = false, .mode = { MODE_PMI, MODE_MULTI },
	.col = { "PMI", "IBS" }, .lost_col = "PMI/IBS", .compares = "PMI mode with IBS",
	.assist = "IBS tagging",
	.defaults = default_events_one, .ndefaults = ARRAY_SIZE(default_events_one),
};

struct bench_opts {
	const char *event;	/* NULL: the default for this CPU */
	u64 periods[BENCH_MAX_PERIODS];
	u32 nperiods;
	u32 runs;
	int workload_at;	/* --workload: the index of W in argv; 0: soak */
	int wargc;
	char **wargv;
};

/* What one run measured. */
struct bench_run {
	u64 ticks;		/* the workload's timed part */
	u64 pmis, samples, lost;
	u64 model_ticks;	/* emulated PMU: time the model itself took */
	struct workload_truth truth;
};

struct bench_ctx {
	struct session s;
	const struct bench_study *study;
	const char *engine;	/* the precise engine's name: "PEBS", "IBS" */
	const char *engine_column;	/* and in the error table's columns */
	struct pmu_event ev;
	const char *event;	/* the text ev was parsed from */
	struct percpu_types types;	/* ev, what each run samples on this CPU */
	/* PMI mode's event: ev itself with a threshold engine (its precise
	 * level dropped at setup), ev's core twin with IBS (pmi_twin) */
	struct pmu_event pmi_ev;
	struct percpu_types pmi_types;
	bool force;		/* --force: take a PMU that is in use */
	struct percpu pc;	/* one CPU, this one, while a sampled run runs */
	const struct workload *w;
	const char *cmd;
	/* bench error: samples per soak part (WORKLOAD_MAX_PARTS: other) */
	struct workload_truth truth;	/* the parts samples are attributed to */
	u64 part_samples[WORKLOAD_MAX_PARTS + 1];
	u64 polled;		/* samples taken out of the ring during this run */
	/* bench error: IPs stashed during the run, attributed after it, so
	 * that the symbol lookups do not run (and get sampled) in the run */
	u64 *ips;
	u64 nips;
	struct bp_sample batch[BENCH_BATCH];
};


/* ---- options ---------------------------------------------------------------- */

/* cmd: "bench overhead" or "bench error". */
static int parse_periods(const char *cmd, const char *list, struct bench_opts *o)
{
	char buf[256];
	bp_strlcpy(buf, list, sizeof(buf));
	o->nperiods = 0;
	for (char *p = buf; *p;) {
		char *comma = p;
		while (*comma && *comma != ',')
			comma++;
		bool last = !*comma;
		*comma = 0;
		u64 v;
		if (o->nperiods == BENCH_MAX_PERIODS || !bp_parse_u64(p, &v) || v < 2 ||
		    v > (~0ULL >> 1)) {	/* the CPU's bound: bench_begin */
			err_printf("bareperf %s: --periods: '%s': expected up to %d periods "
				   "of 2 or more (at most what this CPU's counters take: 2^47 - 1 "
				   "on 48-bit counters), comma separated\n", cmd, p,
				   BENCH_MAX_PERIODS);
			return EXIT_USAGE;
		}
		o->periods[o->nperiods++] = v;
		p = last ? comma : comma + 1;
	}
	if (!o->nperiods) {
		err_printf("bareperf %s: --periods: empty list\n", cmd);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int take_periods(const char *cmd, const char *value, void *opts)
{
	return parse_periods(cmd, value, opts) == EXIT_OK ? 0 : -1;
}

/* overhead's options; error's are the same without the first, --event
 * (error samples soak's instructions, its ground truth). */
static const struct cli_option bench_options[] = {
	{ .name = "--event", .kind = CLI_STRING, CLI_AT(struct bench_opts, event) },
	{ .name = "--periods", .kind = CLI_CALL, .parse = take_periods },
	{ .name = "--runs", .kind = CLI_NUMBER, CLI_AT(struct bench_opts, runs),
	  .min = 1, .max = BENCH_MAX_RUNS,
	  .expect = "expected 1 to " CLI_NUMBER_TEXT(BENCH_MAX_RUNS) },
	{ .name = "--workload", .kind = CLI_REST, CLI_AT(struct bench_opts, workload_at) },
};

/* argv[1] is the study, checked by the caller: its options follow it. */
static int parse_opts(int argc, char **argv, bool overhead, struct bench_opts *o)
{
	static char *soak_argv[] = { "soak", "-n", BENCH_DEFAULT_SOAK_N, NULL };
	const struct cli_spec spec = {
		.cmd = overhead ? "bench overhead" : "bench error",
		.options = bench_options + !overhead,
		.count = ARRAY_SIZE(bench_options) - !overhead,
	};
	bp_memset(o, 0, sizeof(*o));
	o->runs = BENCH_DEFAULT_RUNS;
	o->wargc = 3;
	o->wargv = soak_argv;
	parse_periods(spec.cmd, overhead ? BENCH_DEFAULT_PERIODS : BENCH_ERROR_PERIODS, o);
	int next = 2;
	int rc = cli_parse_options(&spec, argc, argv, &next, o);
	if (rc != EXIT_OK)
		return rc;
	if (next < argc) {	/* the workload comes after --workload only */
		cli_unknown_option(&spec, argv[next]);
		return EXIT_USAGE;
	}
	if (o->workload_at) {
		o->wargc = argc - o->workload_at;
		o->wargv = argv + o->workload_at;
	}
	return EXIT_OK;
}

/* ---- one run ------------------------------------------------------------------- */

static u64 take_samples(struct bench_ctx *b);

/* The main flow's timer, as record's: throttle windows; and the ring
 * emptied once it is half full, so that a long run loses nothing to a
 * full ring while a short one is not disturbed at all (samples copied out
 * during the run cost time, and PMI-mode samples would land in the copy). */
static void on_timer(void *c)
{
	struct bench_ctx *b = c;
	percpu_tick_self(&b->pc);
	if (percpu_ring_half_full(&b->pc, 0))	/* this CPU's, the only one */
		b->polled += take_samples(b);
}

static u64 model_ticks_now(const struct bench_ctx *b)
{
	struct exec_stats st;
	if (!b->s.driving)
		return 0;
	exec_stats(&st);
	return st.model_ticks;
}

/* Which soak part a sample's IP is in (parts: other). */
static u32 part_of(u64 ip, const struct workload_truth *t)
{
	u64 off;
	const char *name = symtab_lookup(ip - plat_image_base(), &off);
	for (u32 k = 0; name && k < t->parts; k++)
		if (bp_strcmp(name, t->part_name[k]) == 0)
			return k;
	return WORKLOAD_MAX_PARTS;
}

static u64 take_samples(struct bench_ctx *b)
{
	u64 total = 0;
	u32 n;
	while ((n = percpu_poll(&b->pc, 0, b->batch, BENCH_BATCH)) > 0) {
		total += n;
		for (u32 i = 0; b->ips && i < n && b->nips < BENCH_MAX_IPS; i++)
			b->ips[b->nips++] = b->batch[i].ip;
	}
	return total;
}

static void attribute_ips(struct bench_ctx *b)
{
	for (u64 i = 0; i < b->nips; i++)
		b->part_samples[part_of(b->ips[i], &b->truth)]++;
	b->nips = 0;
}

static int workload_once(struct bench_ctx *b, const struct bench_opts *o, struct workload_result *wr)
{
	/* Options checked before: failing now is failing to run (memory). */
	return b->w->run(o->wargc, o->wargv, wr) ? EXIT_FAILURE_STATUS : EXIT_OK;
}

/* PMI mode: the event as parsed, without PEBS (a cycles:p alias keeps
 * its encoding). */
static int setup_without_pebs(struct percpu_cpu *c, char *err, size_t errlen)
{
	for (int i = 0; i < c->n; i++)
		c->ev[i].precise = 0;
	return percpu_sampling.setup(c, err, errlen);
}

static const struct percpu_ops *ops_for(enum bench_mode mode)
{
	static struct percpu_ops without_pebs;
	if (mode != MODE_PMI)
		return &percpu_sampling;
	without_pebs = percpu_sampling;
	without_pebs.setup = setup_without_pebs;
	return &without_pebs;
}

static int sampled_once(struct bench_ctx *b, const struct bench_opts *o, enum bench_mode mode,
			u64 period, struct bench_run *out)
{
	struct sampling_opts so = { .period = period, .ring_samples = BENCH_RING };
	struct workload_result wr;
	so.threshold.mode = mode == MODE_PLAIN ? PEBS_THRESHOLD_ONE : PEBS_THRESHOLD_MAX;
	struct percpu_types *types = mode == MODE_PMI ? &b->pmi_types : &b->types;
	if (percpu_open_self(&b->pc, types, b->force, &so, ops_for(mode), "bench"))
		return EXIT_FAILURE_STATUS;
	b->polled = 0;
	plat_timer_start(BENCH_POLL_MS, on_timer, b);
	percpu_start(&b->pc);
	int rc = workload_once(b, o, &wr);
	percpu_stop(&b->pc);
	plat_timer_stop();
	out->ticks = wr.ticks;
	out->truth = wr.truth;
	struct pmi_stats st;
	percpu_pmi_stats(&b->pc, &st);	/* this CPU's, the only one */
	out->pmis = st.pmis;
	out->lost = percpu_lost(&b->pc);
	out->samples = b->polled + take_samples(b);
	if (b->ips && b->nips < out->samples)	/* beyond the stash: not attributed */
		out->lost += out->samples - b->nips;
	attribute_ips(b);
	percpu_close(&b->pc);
	return rc;
}

static int run_once(struct bench_ctx *b, const struct bench_opts *o, enum bench_mode mode,
		    u64 period, struct bench_run *out)
{
	struct workload_result wr;
	bp_memset(out, 0, sizeof(*out));
	u64 m0 = model_ticks_now(b);
	int rc;
	if (mode == MODE_NONE) {
		rc = workload_once(b, o, &wr);
		out->ticks = wr.ticks;
		out->truth = wr.truth;
	} else {
		rc = sampled_once(b, o, mode, period, out);
	}
	out->model_ticks = model_ticks_now(b) - m0;
	return rc;
}

/* Runs `runs` times and keeps the run with the median elapsed time. */
static int run_median(struct bench_ctx *b, const struct bench_opts *o, enum bench_mode mode,
		      u64 period, struct bench_run *median)
{
	struct bench_run r[BENCH_MAX_RUNS];
	for (u32 i = 0; i < o->runs; i++) {
		int rc = run_once(b, o, mode, period, &r[i]);
		if (rc != EXIT_OK)
			return rc;
	}
	for (u32 i = 1; i < o->runs; i++)	/* insertion sort by time */
		for (u32 j = i; j > 0 && r[j].ticks < r[j - 1].ticks; j--) {
			struct bench_run t = r[j];
			r[j] = r[j - 1];
			r[j - 1] = t;
		}
	*median = r[o->runs / 2];
	return EXIT_OK;
}

/* ---- setup ----------------------------------------------------------------------- */

/* The study this PMU's precise engine allows. Without an engine, the
 * threshold study: its default events fail to parse and say why. */
static void study_for(struct bench_ctx *b)
{
	const char *why;
	const struct precise_ops *engine = precise_engine_for(&b->s.caps, &why);
	b->study = engine && !engine->multi_record ? &study_one : &study_threshold;
	b->engine = engine ? engine->name : b->study->engine;
	b->engine_column = engine ? engine->column : b->study->engine;
}

static int pick_event(struct bench_ctx *b, const struct bench_opts *o)
{
	char err[512];
	const struct bench_study *st = b->study;
	b->event = o->event;
	if (o->event)
		return session_parse_events(&b->s, "bench", o->event, &b->ev, 1) == 1 ? EXIT_OK
										       : EXIT_USAGE;
	for (size_t i = 0; i < st->ndefaults; i++) {
		b->event = st->defaults[i];
		if (evparse_list(b->event, b->s.table, &b->s.caps, &b->ev, 1, err, sizeof(err)) == 1)
			return EXIT_OK;
	}
	err_printf("bareperf bench: no %s-capable %sevent on this CPU (%s); name one with "
		   "--event\n", b->engine, st->threshold ? "instructions " : "", err);
	return EXIT_FAILURE_STATUS;
}

/* IBS op's PMI-mode twin: the core event that counts what the op unit
 * counts to its period, as Linux's core_pmu_ibs_config maps them the
 * other way (arch/x86/events/amd/ibs.c): cnt_ctl=0 counts cycles, the
 * twin of cycles and r76 (PMCx076, cycles not in halt); cnt_ctl=1
 * counts dispatched ops, which Linux gives r0C1 (PMCx0C1, retired ops:
 * the nearest core count, APM Vol. 2 and the PPR). ibs_fetch has none. */
static const char *ibs_twin(const struct pmu_event *ev)
{
	if (ev->ibs != EVENT_IBS_OP)
		return NULL;
	return ev->ibs_cnt_ctl ? "r0C1" : "cycles";
}

static int pick_pmi_event(struct bench_ctx *b)
{
	char err[512];
	const char *twin = ibs_twin(&b->ev);
	b->pmi_ev = b->ev;
	if (event_needs_counter(&b->ev))	/* the same event, precise dropped at setup */
		return (percpu_types_init(&b->pmi_types, &b->s.caps, b->event, &b->pmi_ev, 1),
			EXIT_OK);
	if (!twin) {
		err_printf("bareperf bench: %s: no core event counts what this IBS unit counts, so "
			   "there is no PMI mode to compare it with; use ibs_op// or cycles:p\n",
			   b->ev.name);
		return EXIT_USAGE;
	}
	if (evparse_list(twin, b->s.table, &b->s.caps, &b->pmi_ev, 1, err, sizeof(err)) != 1) {
		err_printf("bareperf bench: %s: its PMI-mode twin %s: %s\n", b->ev.name, twin, err);
		return EXIT_FAILURE_STATUS;
	}
	percpu_types_init(&b->pmi_types, &b->s.caps, twin, &b->pmi_ev, 1);
	return EXIT_OK;
}

static int bench_begin(struct bench_ctx *b, const struct bench_opts *o, const struct global_opts *g)
{
	int rc;
	b->w = workload_checked(o->wargc, o->wargv);
	if (!b->w)
		return EXIT_USAGE;
	backend_banner();
	if ((rc = session_probe(&b->s, "bench")) != EXIT_OK)
		return rc;
	study_for(b);
	if ((rc = pick_event(b, o)) != EXIT_OK)
		return rc;
	if (!b->ev.precise) {
		err_printf("bareperf bench: %s: the event must be precise (%s) to compare %s\n",
			   b->ev.name, b->study->threshold ? ":p, :pp or :ppp" : ":p or :pp, or ibs_op//",
			   b->study->compares);
		return EXIT_USAGE;
	}
	if ((rc = pick_pmi_event(b)) != EXIT_OK)
		return rc;
	char err[160];
	for (u32 i = 0; i < o->nperiods; i++)
		if (!sampling_check_period(&b->s.caps, o->periods[i], "--periods:", err,
					   sizeof(err))) {
			err_printf("bareperf bench: %s\n", err);
			return EXIT_USAGE;
		}
	b->force = g->force;
	percpu_types_init(&b->types, &b->s.caps, b->event, &b->ev, 1);
	return session_start_drive(&b->s, g, "bench");
}

static void print_workload(const struct bench_opts *o)
{
	out_printf("workload:");
	for (int i = 0; i < o->wargc; i++)
		out_printf(" %s", o->wargv[i]);
	out_printf("\n");
}

static const char *pmu_kind(const struct bench_ctx *b)
{
	return b->s.emulated ? "EMULATED PMU" : "real PMU";
}

/* ---- overhead ------------------------------------------------------------------------ */

static double pct_over(u64 t, u64 base)
{
	return base ? 100.0 * ((double)t - (double)base) / (double)base : 0.0;
}

static void print_overhead_title(const struct bench_ctx *b)
{
	if (b->study->threshold)
		out_printf("\nSampling overhead, %s %s: plain (threshold 1) vs multi (large "
			   "threshold), %s (%s)\n", b->ev.name, b->engine, pmu_kind(b),
			   hw_current()->name);
	else
		out_printf("\nSampling overhead, PMI mode vs %s: PMI (%s on a core counter) vs %s "
			   "(%s, one sample per interrupt), %s (%s)\n", b->engine,
			   b->pmi_ev.name, b->engine, b->ev.name, pmu_kind(b),
			   hw_current()->name);
}

/* A mode's time column: "plain (s)". */
static const char *secs(char *buf, size_t len, const char *mode)
{
	bp_snprintf(buf, len, "%s (s)", mode);
	return buf;
}

static void print_overhead_header(const struct bench_ctx *b, const struct bench_opts *o,
				  const struct bench_run *base)
{
	const struct bench_study *st = b->study;
	char s0[24], s1[24], d[24];
	print_overhead_title(b);
	print_workload(o);
	out_printf("elapsed: the workload's timed part, median of %u run%s (plat_ticks: %s)\n",
		   o->runs, o->runs > 1 ? "s" : "",
		   bp_strcmp(plat_name(), "host") == 0 ? "CLOCK_MONOTONIC" : "TSC");
	out_printf("unsampled: %.6f s", session_seconds(base->ticks));
	if (b->s.emulated)
		out_printf(" (model %.6f s)", session_seconds(base->model_ticks));
	out_printf("\n\n");
	out_printf("%10s %10s %10s %10s %9s %9s %9s %9s %9s %9s %7s",
		   "period", secs(s0, sizeof(s0), st->col[0]),
		   secs(s1, sizeof(s1), st->col[1]), "delta (s)", st->col[0], st->col[1],
		   "PMIs", "PMIs", "samples", "samples", "lost");
	if (b->s.emulated)
		out_printf(" %9s %9s %9s %9s", "model (s)", "model (s)", st->col[0], st->col[1]);
	out_printf("\n%10s %10s %10s %10s %9s %9s %9s %9s %9s %9s %7s", "", "", "",
		   (bp_snprintf(d, sizeof(d), "%s-%s", st->col[0], st->col[1]), d), "overhead", "overhead", st->col[0], st->col[1],
		   st->col[0], st->col[1], st->lost_col);
	if (b->s.emulated)
		out_printf(" %9s %9s %9s %9s", st->col[0], st->col[1], "net ovh", "net ovh");
	out_printf("\n");
}

/* Overhead without the emulated PMU's own time, on both sides. */
static double net_pct(const struct bench_run *r, const struct bench_run *base)
{
	return pct_over(r->ticks - r->model_ticks, base->ticks - base->model_ticks);
}

/* --results: the two columns' overheads at this period, named as the
 * table's columns (bench.overhead.plain.PERIOD and .multi., or .PMI. and
 * .IBS.). */
static void print_overhead_results(const struct bench_ctx *b, u64 period,
				   const struct bench_run *base, const struct bench_run *p,
				   const struct bench_run *m)
{
	const struct bench_run *runs[2] = { p, m };
	for (int i = 0; i < 2; i++) {
		char id[64];
		bp_snprintf(id, sizeof(id), "bench.overhead.%s.%llu", b->study->col[i],
			    (unsigned long long)period);
		result_measure(id, RESULT_PASS, pct_over(runs[i]->ticks, base->ticks), "percent");
	}
}

static void print_overhead_row(const struct bench_ctx *b, u64 period, const struct bench_run *base,
			       const struct bench_run *p, const struct bench_run *m)
{
	char lost[24];
	bp_snprintf(lost, sizeof(lost), "%llu/%llu", (unsigned long long)p->lost,
		    (unsigned long long)m->lost);
	out_printf("%10llu %10.6f %10.6f %10.6f %+8.1f%% %+8.1f%% %9llu %9llu %9llu %9llu %7s",
		   (unsigned long long)period, session_seconds(p->ticks), session_seconds(m->ticks),
		   session_seconds(p->ticks) - session_seconds(m->ticks),
		   pct_over(p->ticks, base->ticks), pct_over(m->ticks, base->ticks),
		   (unsigned long long)p->pmis, (unsigned long long)m->pmis,
		   (unsigned long long)p->samples, (unsigned long long)m->samples, lost);
	if (b->s.emulated)
		out_printf(" %9.6f %9.6f %+8.1f%% %+8.1f%%", session_seconds(p->model_ticks),
			   session_seconds(m->model_ticks), net_pct(p, base), net_pct(m, base));
	out_printf("\n");
	print_overhead_results(b, period, base, p, m);
}

static int overhead_table(struct bench_ctx *b, const struct bench_opts *o)
{
	struct bench_run base, plain[BENCH_MAX_PERIODS], multi[BENCH_MAX_PERIODS];
	const enum bench_mode *mode = b->study->mode;	/* plain: the first, multi: the second */
	int rc = run_median(b, o, MODE_NONE, 0, &base);
	for (u32 i = 0; i < o->nperiods && rc == EXIT_OK; i++) {
		rc = run_median(b, o, mode[0], o->periods[i], &plain[i]);
		if (rc == EXIT_OK)
			rc = run_median(b, o, mode[1], o->periods[i], &multi[i]);
	}
	if (rc != EXIT_OK)
		return rc;
	print_overhead_header(b, o, &base);
	for (u32 i = 0; i < o->nperiods; i++)
		print_overhead_row(b, o->periods[i], &base, &plain[i], &multi[i]);
	if (b->s.emulated)
		out_printf("\nmodel: time the emulated PMU itself took (counting, its %s), "
			   "included in the elapsed times;\nnet ovh: overhead with the model's time "
			   "taken out of both runs: our PMI handler's cost.\nThe hardware's own "
			   "%s cost is not modelled (BENCHMARKS.md).\n", b->study->assist,
			   b->study->assist);
	return EXIT_OK;
}

/* ---- error ------------------------------------------------------------------------------ */

#define ERR_COLS (2 * BENCH_MAX_PERIODS)

struct error_col {
	enum bench_mode mode;
	u64 period;
	u64 samples[WORKLOAD_MAX_PARTS + 1];
	u64 total, lost;
};

static const char *mode_name(const struct bench_ctx *b, enum bench_mode m)
{
	return m == MODE_PMI ? "PMI" : b->engine_column;
}

static double share(u64 part, u64 total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

static int error_column(struct bench_ctx *b, const struct bench_opts *o, struct error_col *c,
			struct workload_truth *truth)
{
	struct bench_run r;
	bp_memset(b->part_samples, 0, sizeof(b->part_samples));
	for (u32 i = 0; i < o->runs; i++) {	/* samples of all runs add up */
		int rc = run_once(b, o, c->mode, c->period, &r);
		if (rc != EXIT_OK)
			return rc;
		c->total += r.samples;
		c->lost += r.lost;
	}
	*truth = r.truth;
	bp_memcpy(c->samples, b->part_samples, sizeof(c->samples));
	return EXIT_OK;
}

static void print_error_table(const struct bench_ctx *b, const struct bench_opts *o,
			      const struct error_col *c, u32 ncols, const struct workload_truth *t)
{
	u64 total_insns = 0;
	for (u32 k = 0; k < t->parts; k++)
		total_insns += t->part_instructions[k];
	out_printf("\nSampling error per function of soak, %s (%s): sample share vs instruction "
		   "share by construction\n", pmu_kind(b), hw_current()->name);
	print_workload(o);
	if (b->study->threshold)
		out_printf("event %s; PMI: the same event without %s; samples of %u run%s per "
			   "column\n\n", b->ev.name, b->engine, o->runs, o->runs > 1 ? "s" : "");
	else
		out_printf("event %s (%s); PMI: %s on a core counter, the count %s samples on; "
			   "samples of %u run%s per column\n\n", b->ev.name, b->engine,
			   b->pmi_ev.name, b->engine, o->runs, o->runs > 1 ? "s" : "");
	out_printf("%-10s %7s", "function", "truth");
	for (u32 j = 0; j < ncols; j++)
		out_printf(" %4s %-8llu", mode_name(b, c[j].mode),
			   (unsigned long long)c[j].period);
	out_printf("\n");
	for (u32 k = 0; k <= t->parts; k++) {
		bool other = k == t->parts;
		u32 idx = other ? WORKLOAD_MAX_PARTS : k;
		out_printf("%-10s %6.2f%%", other ? "(other)" : t->part_name[k],
			   other ? 0.0 : share(t->part_instructions[k], total_insns));
		for (u32 j = 0; j < ncols; j++)
			if (c[j].total)
				out_printf(" %12.2f%%", share(c[j].samples[idx], c[j].total));
			else	/* no samples: no share */
				out_printf(" %13s", "-");
		out_printf("\n");
	}
	out_printf("%-10s %7s", "samples", "");
	for (u32 j = 0; j < ncols; j++)
		out_printf(" %13llu", (unsigned long long)c[j].total);
	out_printf("\n%-10s %7s", "lost", "");
	for (u32 j = 0; j < ncols; j++)
		out_printf(" %13llu", (unsigned long long)c[j].lost);
	out_printf("\n%-10s %7s", "max |err|", "");
	for (u32 j = 0; j < ncols; j++) {
		double worst = 0;
		if (!c[j].total) {
			out_printf(" %13s", "-");
			continue;
		}
		for (u32 k = 0; k < t->parts; k++) {
			double e = share(c[j].samples[k], c[j].total) -
				   share(t->part_instructions[k], total_insns);
			worst = e < 0 ? (-e > worst ? -e : worst) : (e > worst ? e : worst);
		}
		out_printf(" %11.2fpp", worst);
	}
	out_printf("\n");
}

static int error_table(struct bench_ctx *b, const struct bench_opts *o)
{
	static struct error_col cols[ERR_COLS];
	struct workload_truth truth = { 0 };
	u32 n = 0;
	struct bench_run first;
	int rc = run_once(b, o, MODE_NONE, 0, &first);	/* the parts, by name */
	if (rc != EXIT_OK)
		return rc;
	b->truth = first.truth;
	b->ips = plat_alloc(BENCH_MAX_IPS * sizeof(u64));
	if (!b->ips) {
		err_printf("bareperf bench error: cannot allocate the sample stash\n");
		return EXIT_FAILURE_STATUS;
	}
	for (u32 i = 0; i < o->nperiods; i++) {
		cols[n++] = (struct error_col){ .mode = MODE_PMI, .period = o->periods[i] };
		cols[n++] = (struct error_col){ .mode = MODE_MULTI, .period = o->periods[i] };
	}
	for (u32 j = 0; j < n; j++) {
		rc = error_column(b, o, &cols[j], &truth);
		if (rc != EXIT_OK)
			break;
	}
	plat_free(b->ips);
	b->ips = NULL;
	if (rc != EXIT_OK)
		return rc;
	print_error_table(b, o, cols, n, &truth);
	/* A share of no samples is no measurement: say which columns, and
	 * fail, rather than let "-" pass for a result. */
	for (u32 j = 0; j < n; j++)
		if (!cols[j].total) {
			err_printf("bareperf bench error: %s period %llu: no samples (the workload "
				   "retired fewer events than the period), so no error figure\n",
				   mode_name(b, cols[j].mode),
				   (unsigned long long)cols[j].period);
			rc = EXIT_FAILURE_STATUS;
		}
	return rc;
}

/* ---- the command -------------------------------------------------------------------------- */

static int bench_with(struct bench_ctx *b, int argc, char **argv, const struct global_opts *g)
{
	struct bench_opts o;
	if (argc < 2 || (bp_strcmp(argv[1], "overhead") && bp_strcmp(argv[1], "error"))) {
		err_printf("bareperf bench: expected 'overhead' or 'error'%s%s%s\n",
			   argc < 2 ? "" : ", not '", argc < 2 ? "" : argv[1], argc < 2 ? "" : "'");
		return EXIT_USAGE;
	}
	bool overhead = bp_strcmp(argv[1], "overhead") == 0;
	int rc = parse_opts(argc, argv, overhead, &o);
	if (rc != EXIT_OK)
		return rc;
	if (!overhead && bp_strcmp(o.wargv[0], "soak") != 0) {
		err_printf("bareperf bench error: the ground truth is soak's (got '%s')\n", o.wargv[0]);
		return EXIT_USAGE;
	}
	bp_memset(b, 0, sizeof(*b));
	rc = bench_begin(b, &o, g);
	if (rc == EXIT_OK)
		rc = overhead ? overhead_table(b, &o) : error_table(b, &o);
	session_stop(&b->s);
	return rc;
}

static int bench_main(int argc, char **argv, const struct global_opts *g)
{
	struct bench_ctx *b = session_state_alloc("bench", sizeof(*b));
	if (!b)
		return EXIT_FAILURE_STATUS;
	int rc = bench_with(b, argc, argv, g);
	session_state_free(b, sizeof(*b));
	return rc;
}

const struct command cmd_bench = {
	.name = "bench",
	.summary = "sampling overhead (plain vs large PEBS; PMI mode vs IBS) and sampling error "
		   "studies",
	.usage = " overhead [--event EV] [--periods LIST] [--runs N] [--workload W [ARGS]]\n"
		 "       bareperf bench error [--periods LIST] [--runs N] [--workload soak [ARGS]]\n\n"
		 "  overhead   the workload unsampled, then per period with PEBS threshold 1\n"
		 "             (plain) and large (multi), or on AMD in PMI mode and with IBS:\n"
		 "             elapsed, overhead, PMIs, samples, lost\n"
		 "  error      per soak function: sample share vs its share of instructions,\n"
		 "             in PMI mode and with PEBS (AMD: IBS)\n"
		 "  --event EV       a precise event (default instructions:pp, or\n"
		 "                   INST_RETIRED.PREC_DIST:ppp where that is the PEBS one;\n"
		 "                   AMD: cycles:p, or ibs_op//, PMI mode on its core twin)\n"
		 "  --periods LIST   comma separated (overhead default " BENCH_DEFAULT_PERIODS ";\n"
		 "                   error default " BENCH_ERROR_PERIODS ")\n"
		 "  --runs N         runs per cell, median (overhead) or summed (error); default 3\n"
		 "  --workload W ... the workload and its options, last (default soak -n "
		 BENCH_DEFAULT_SOAK_N ")",
	.run = bench_main,
};
