/* Model resolution for commands with --cpu (see model.h). */
#include "model.h"
#include "backend.h"
#include "cli.h"
#include "../lib/out.h"
#include "../lib/str.h"
#include "../sched/sched.h"
#include "../pmu/arch.h"

static int unknown_cpu(const char *command, const char *cpu)
{
	char names[EVENT_TABLE_NAMES_LEN];

	event_table_names(names, sizeof(names));
	err_printf("bareperf %s: unknown --cpu '%s'; known models: %s\n", command, cpu, names);
	return EXIT_USAGE;
}

static int no_pmu(const char *command, const struct pmu_caps *c)
{
	char names[EVENT_TABLE_NAMES_LEN];

	event_table_names(names, sizeof(names));
	char why[300];
	pmu_absent_reason(c, why, sizeof(why));
	err_printf("bareperf %s: this CPU reports no PMU bareperf can use: %s", command, why);
	err_printf(".\n  Name a model with --cpu MODEL (%s)\n", names);
	return EXIT_NO_PMU;
}

int cmd_model_resolve(const char *command, const char *cpu, bool json, struct cmd_model *m)
{
	bp_memset(m, 0, sizeof(*m));
	if (cpu) {
		m->t = event_table_by_name(cpu);
		return m->t ? EXIT_OK : unknown_cpu(command, cpu);
	}
	if (!json)
		backend_banner();
	pmu_caps_read(&m->this_cpu);
	char why[8];
	if (pmu_absent_reason(&m->this_cpu, why, sizeof(why)))
		return no_pmu(command, &m->this_cpu);
	m->caps = &m->this_cpu;
	m->t = event_table_for_caps(m->caps);
	return EXIT_OK;
}

void model_sched_ctx_from_table(struct sched_ctx *ctx, const struct event_table *t)
{
	ctx->gp_mask = t->gp_mask;
	ctx->fixed_mask = t->fixed_mask;
	ctx->offcore_swap = true;
}

void cmd_model_sched_ctx(const struct cmd_model *m, struct sched_ctx *ctx)
{
	if (!m->caps) {
		model_sched_ctx_from_table(ctx, m->t);
		return;
	}
	/* The counters are what this CPU enumerates; which offcore events
	 * may switch MSR, the alternates its table gives them. */
	sched_ctx_from_caps(ctx, m->caps);
}
