/* `bareperf msr [-a | -C LIST] MSR...`: reads MSRs on each CPU, as
 * msr-tools' `rdmsr -a` does under Linux. A read that raises #GP is
 * reported for that CPU and that MSR; on an AP it never reaches the
 * firmware's exception handler (boot/idt.h: every AP procedure runs with
 * our #GP gate). Read-only: nothing is left changed. */
#include "cli.h"
#include "backend.h"
#include "cpus.h"
#include "../sampling/percpu.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../arch/exec.h"
#include "../arch/hw.h"

#define MSR_CMD_MAX 8	/* MSRs per command line */

struct msr_opts {
	bool all_cpus;
	const char *cpu_list;
	u32 msr[MSR_CMD_MAX];
	u32 count;
};

struct msr_reading {
	u64 value[MSR_CMD_MAX];
	bool faulted[MSR_CMD_MAX];
	struct hw_fault fault[MSR_CMD_MAX];	/* why, where faulted */
	const u32 *msr;
	u32 count;
	u32 cpu;		/* where its faults are kept (arch/hw.h) */
};

static int parse_msr(const char *arg, u32 *msr)
{
	u64 v;
	if (!bp_parse_u64(arg, &v) || v > 0xffffffffULL) {
		err_printf("bareperf msr: '%s': expected an MSR number (0x38f, 911)\n", arg);
		return EXIT_USAGE;
	}
	*msr = (u32)v;
	return EXIT_OK;
}

static const struct cli_option msr_options[] = {
	{ .short_name = "-a", .kind = CLI_FLAG, CLI_AT(struct msr_opts, all_cpus) },
	{ .short_name = "-C", .kind = CLI_STRING, CLI_AT(struct msr_opts, cpu_list) },
};

static const struct cli_spec msr_spec = {
	.cmd = "msr", .options = msr_options, .count = ARRAY_SIZE(msr_options),
};

/* Options and MSR numbers in any order. */
static int parse_opts(int argc, char **argv, struct msr_opts *o)
{
	bp_memset(o, 0, sizeof(*o));
	for (int i = 1; i < argc; i++) {
		int rc = cli_parse_options(&msr_spec, argc, argv, &i, o);
		if (rc != EXIT_OK)
			return rc;
		if (i == argc)
			break;
		if (o->count == MSR_CMD_MAX) {
			err_printf("bareperf msr: at most %u MSRs at a time\n", MSR_CMD_MAX);
			return EXIT_USAGE;
		}
		if (parse_msr(argv[i], &o->msr[o->count++]))
			return EXIT_USAGE;
	}
	if (o->all_cpus && o->cpu_list) {
		err_printf("bareperf msr: -a and -C exclude each other\n");
		return EXIT_USAGE;
	}
	if (!o->count) {
		err_printf("bareperf msr: which MSR? (e.g. bareperf msr -a 0x38f)\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* On the CPU: the fatal accessor, with faults kept rather than fatal
 * (hw_fault_defer), so a #GP here takes the same way as one in sampling
 * code would. */
static void read_here(void *ctx)
{
	struct msr_reading *r = ctx;
	for (u32 i = 0; i < r->count; i++) {
		r->value[i] = hw_rdmsr(r->msr[i]);
		r->faulted[i] = hw_fault_take(r->cpu, &r->fault[i], NULL);
	}
}

static void print_reading(u32 cpu, const struct msr_opts *o, const struct msr_reading *r)
{
	for (u32 i = 0; i < o->count; i++)
		if (r->faulted[i])
			/* The backend's words: the CPU's #GP, the model's
			 * rule, or the host build's "no RDMSR ran". */
			out_printf("%-4u 0x%-10x %s (%s)\n", cpu, o->msr[i],
				   r->fault[i].not_run ? "no value" : "#GP", r->fault[i].rule);
		else
			out_printf("%-4u 0x%-10x 0x%016llx\n", cpu, o->msr[i],
				   (unsigned long long)r->value[i]);
}

static int read_on(u32 cpu, const struct msr_opts *o, bool *faulted)
{
	struct msr_reading r = { .msr = o->msr, .count = o->count,
				 .cpu = exec_fault_cpu(cpu) };
	const char *why;
	if (exec_run_on(cpu, read_here, &r, &why)) {
		err_printf("bareperf msr: CPU %u: cannot run code there: %s\n", cpu, why);
		return EXIT_FAILURE_STATUS;
	}
	print_reading(cpu, o, &r);
	for (u32 i = 0; i < o->count; i++)
		*faulted |= r.faulted[i];
	return EXIT_OK;
}

static int msr_main(int argc, char **argv, const struct global_opts *g)
{
	(void)g;
	struct msr_opts o;
	u64 mask;
	int rc = parse_opts(argc, argv, &o);
	if (rc != EXIT_OK || (rc = cpus_mask_of(o.all_cpus, o.cpu_list, "msr", &mask)) != EXIT_OK)
		return rc;
	backend_banner();
	bool faulted = false;
	out_printf("%-4s %-12s %s\n", "CPU", "MSR", "value");
	hw_fault_defer(true);
	for (u64 m = mask; m; m &= m - 1)
		if (read_on((u32)__builtin_ctzll(m), &o, &faulted) != EXIT_OK)
			rc = EXIT_FAILURE_STATUS;
	hw_fault_defer(false);
	return rc != EXIT_OK || faulted ? EXIT_FAILURE_STATUS : EXIT_OK;
}

const struct command cmd_msr = {
	.name = "msr",
	.summary = "read MSRs on each CPU (a #GP is reported, not fatal)",
	.usage = " [-a | -C LIST] MSR...\n\n"
		 "  MSR      up to 8 MSR numbers, hex (0x38f) or decimal\n"
		 "  -a       on every CPU; -C LIST: on these (0,2-3); default: this CPU\n\n"
		 "  One line per CPU and MSR: its value, or #GP when reading it faults.\n"
		 "  Exit status 0 when every read succeeded, 1 when one faulted.",
	.run = msr_main,
};
