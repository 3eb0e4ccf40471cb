/* `bareperf selftest [--json] [CHECK...]`: does this machine's PMU work?
 * Runs the checks of pmu/selftest.h with this CPU's PMU taken over (and
 * given back) here, the session driving an emulated one, and prints a
 * PASS/FAIL/SKIP table with a reason for each. Exit status 0 when nothing
 * failed. */
#include "cli.h"
#include "backend.h"
#include "session.h"
#include "output.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/result.h"
#include "../lib/str.h"
#include "../arch/hw.h"
#include "../pmu/selftest.h"
#include "../pmu/probe.h"
#include "../lib/plat.h"

struct selftest_opts {
	bool json;
	u32 mask;		/* checks to run; 0 until one is named */
	const char *output;	/* -o: FILE, serial or http://... (cmd/output.h) */
	struct cmd_output out;
};

/* "unknown option '--fast' (checks: counters, ...)": the checks it knows. */
static void refuse(const char *what, const char *arg)
{
	err_printf("bareperf selftest: %s '%s' (checks: ", what, arg);
	for (int c = 0; c < SELFTEST_COUNT; c++)
		err_printf("%s%s", c ? ", " : "", selftest_check_name((enum selftest_check)c));
	err_printf(")\n");
}

static void unknown_option(const char *arg)
{
	refuse("unknown option", arg);
}

static const struct cli_option selftest_options[] = {
	{ .name = "--json", .kind = CLI_FLAG, CLI_AT(struct selftest_opts, json) },
	{ .short_name = "-o", .kind = CLI_STRING, CLI_AT(struct selftest_opts, output),
	  .min = 1, .max = 400, .expect = "expected a file name, serial or http://HOST[:PORT]/PATH" },
};

static const struct cli_spec selftest_spec = {
	.cmd = "selftest", .options = selftest_options, .count = ARRAY_SIZE(selftest_options),
	.unknown = unknown_option,
};

/* Options and check names in any order. */
static int parse_opts(int argc, char **argv, struct selftest_opts *o)
{
	o->json = false;
	o->mask = 0;
	o->output = NULL;
	for (int i = 1; i < argc; i++) {
		int rc = cli_parse_options(&selftest_spec, argc, argv, &i, o);
		if (rc != EXIT_OK)
			return rc;
		if (i == argc)
			break;
		int c = selftest_check_find(argv[i]);
		if (c < 0) {
			refuse("unknown check", argv[i]);
			return EXIT_USAGE;
		}
		o->mask |= BIT(c);
	}
	if (!o->mask)
		o->mask = (u32)GENMASK(SELFTEST_COUNT - 1, 0);
	return cmd_output_parse(&o->out, o->output, o->json ? "selftest.json" : "selftest.txt",
				"selftest");
}

struct tally {
	unsigned passed, failed, skipped;
};

static struct tally count_verdicts(const struct selftest_result *r, u32 mask)
{
	struct tally t = { 0, 0, 0 };
	for (int c = 0; c < SELFTEST_COUNT; c++) {
		if (!(mask & BIT(c)))
			continue;
		t.passed += r[c].verdict == SELFTEST_PASS;
		t.failed += r[c].verdict == SELFTEST_FAIL;
		t.skipped += r[c].verdict == SELFTEST_SKIP;
	}
	return t;
}

static const char *ibs_units(const struct pmu_caps *c)
{
	bool op = c->ibs && (c->ibs_caps & IBS_CAPS_OPSAM);
	bool fetch = c->ibs && (c->ibs_caps & IBS_CAPS_FETCHSAM);
	return op && fetch ? "op and fetch" : op ? "op" : fetch ? "fetch" : "not available";
}

/* AMD: core counters, PerfMonV2 (APM Vol. 2: global control and status)
 * and the IBS units (CPUID.8000001BH). */
static void print_amd_pmu(const struct pmu_caps *c)
{
	out_printf("AMD core counters: %u x %u bits, %s; IBS %s\n\n",
		   (unsigned)__builtin_popcount(c->gp_mask), c->gp_width,
		   c->perfmon_v2 ? "PerfMonV2 (global control and status)"
				 : "no PerfMonV2 (PERF_CTL En bits, overflow in the top bit)",
		   ibs_units(c));
}

static void print_header(const struct pmu_caps *c)
{
	out_printf("bareperf selftest on %s (%s)\n", c->brand[0] ? c->brand : c->vendor,
		   hw_current()->name);
	if (c->amd && caps_has_pmu(c))
		print_amd_pmu(c);
	else if (caps_has_pmu(c))
		out_printf("perfmon v%u: %u GP x %u bits, %u fixed x %u bits; PEBS %s (format %u)\n\n",
			   c->version, (unsigned)__builtin_popcount(c->gp_mask), c->gp_width,
			   (unsigned)__builtin_popcount(c->fixed_mask), c->fixed_width,
			   caps_has_pebs(c) ? "available" : "not available", c->pebs_format);
	else
		out_printf("no architectural PMU\n\n");
}

static void print_table(const struct selftest_result *r, u32 mask)
{
	out_printf("%-16s %-6s %s\n", "check", "result", "reason");
	for (int c = 0; c < SELFTEST_COUNT; c++)
		if (mask & BIT(c))
			out_printf("%-16s %-6s %s\n", selftest_check_name((enum selftest_check)c),
				   selftest_verdict_name(r[c].verdict), r[c].reason);
	struct tally t = count_verdicts(r, mask);
	out_printf("\n%u passed, %u failed, %u skipped\n", t.passed, t.failed, t.skipped);
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void print_json_string(const char *s)
{
	out_puts("\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			out_printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			out_printf("\\u%04x", (unsigned char)*s);
		else
			out_printf("%c", *s);
	}
	out_puts("\"");
}

static void print_json(const struct selftest_result *r, u32 mask)
{
	struct tally t = count_verdicts(r, mask);
	out_printf("{\"backend\":");
	print_json_string(hw_current()->name);
	out_printf(",\"emulated\":%s,\"checks\":[", backend_is_emulated() ? "true" : "false");
	bool first = true;
	for (int c = 0; c < SELFTEST_COUNT; c++) {
		if (!(mask & BIT(c)))
			continue;
		out_printf("%s{\"name\":\"%s\",\"result\":\"%s\",\"reason\":", first ? "" : ",",
			   selftest_check_name((enum selftest_check)c),
			   selftest_verdict_name(r[c].verdict));
		print_json_string(r[c].reason);
		out_puts("}");
		first = false;
	}
	out_printf("],\"passed\":%u,\"failed\":%u,\"skipped\":%u}\n", t.passed, t.failed, t.skipped);
}

/* One BPRESULT line per check (--results): selftest.NAME pass|fail|skip. */
static void print_results(const struct selftest_result *r, u32 mask)
{
	for (int c = 0; c < SELFTEST_COUNT; c++) {
		if (!(mask & BIT(c)))
			continue;
		char id[48];
		bp_snprintf(id, sizeof(id), "selftest.%s", selftest_check_name((enum selftest_check)c));
		result_case(id, r[c].verdict == SELFTEST_PASS   ? RESULT_PASS
				: r[c].verdict == SELFTEST_FAIL ? RESULT_FAIL
								: RESULT_SKIP);
	}
}

/* The table or the JSON, also into -o's file and sent as it asks;
 * returns -1 when -o's file could not be written or sent. */
static int report(const struct session *s, struct selftest_opts *o,
		  const struct selftest_result *r)
{
	bool to_file = o->output && cmd_output_begin(&o->out, "selftest") == 0;
	if (o->json)
		print_json(r, o->mask);
	else {
		print_header(&s->caps);
		print_table(r, o->mask);
	}
	int rc = to_file ? cmd_output_end(&o->out, "selftest") : o->output ? -1 : 0;
	print_results(r, o->mask);
	return rc;
}

static struct session sess;	/* exit hooks reach it after the command */
static struct pmu pmu;		/* the PMU the checks run on, this CPU's */
static bool pmu_taken;

static void give_back(void *ctx)
{
	if (pmu_taken)
		pmu_close(&pmu);
	pmu_taken = false;
}

/* Checks that the advertised counters can be read (pmu_probe_reads) and
 * takes the PMU over; that they keep what is written is not checked here:
 * the widths check reports it. Given back on every exit path, after the
 * session (whose exit hook comes later, so runs first). */
static int take_pmu(const struct global_opts *g)
{
	char err[512];
	if (pmu_probe_reads(&sess.caps, err, sizeof(err)) ||
	    pmu_open(&pmu, &sess.caps, g->force, err, sizeof(err))) {
		err_printf("bareperf selftest: %s\n", err);
		return EXIT_FAILURE_STATUS;
	}
	pmu_taken = true;
	plat_on_exit(give_back, NULL);
	return EXIT_OK;
}

static int selftest_main(int argc, char **argv, const struct global_opts *g)
{
	struct selftest_opts o;
	struct selftest_result r[SELFTEST_COUNT];
	int rc = parse_opts(argc, argv, &o);
	if (rc != EXIT_OK)
		return rc;
	bp_memset(&sess, 0, sizeof(sess));
	if (!o.json)
		backend_banner();
	rc = session_probe(&sess, "selftest");
	if (rc != EXIT_OK) {
		/* No PMU: every check says why it could not run. */
		selftest_run(&sess.caps, o.mask, r);
		report(&sess, &o, r);
		return rc;
	}
	if ((rc = take_pmu(g)) != EXIT_OK)
		return rc;
	if ((rc = session_start_drive(&sess, g, "selftest")) != EXIT_OK) {
		give_back(NULL);
		return rc;
	}
	selftest_run(&sess.caps, o.mask, r);
	session_stop(&sess);
	give_back(NULL);
	if (report(&sess, &o, r))
		return EXIT_FAILURE_STATUS;
	return count_verdicts(r, o.mask).failed ? EXIT_FAILURE_STATUS : EXIT_OK;
}

const struct command cmd_selftest = {
	.name = "selftest",
	.summary = "check that this machine's PMU works (PASS/FAIL/SKIP per check)",
	.usage = " [--json] [-o FILE|serial|URL] [CHECK...]\n\n"
		 "  CHECK   run only these: counters, widths, overflow-pmi, lvt-mask,\n"
		 "          pebs-record, pebs-threshold, auto-reload (Intel),\n"
		 "          ibs-op, ibs-fetch (AMD) (default: all)\n"
		 "  --json  one JSON object with each check's result and reason\n"
		 "  -o FILE the table (or JSON) also into FILE of the output folder;\n"
		 "          serial: selftest.txt (.json) then sent over the serial line;\n"
		 "          http://HOST[:PORT]/PATH: PATH's last part, then sent by HTTP PUT\n\n"
		 "  Exit status 0 when no check failed, 1 when one did, 3 without a PMU.\n"
		 "  The PMU, IA32_DS_AREA, the IBS controls, LVT PC, IBS's extended LVT\n"
		 "  entry and the PMI gate are left as found.",
	.run = selftest_main,
};
