/* Which CPU model a command plans for: `--cpu MODEL` (an event table by
 * name, no hardware involved) or this CPU (its capabilities through the
 * hardware seam and the table its signature and core type select). Shared
 * by the commands that take --cpu (list, sched). */
#ifndef BP_CMD_MODEL_H
#define BP_CMD_MODEL_H
#include "../lib/types.h"
#include "../arch/caps.h"
#include "../events/events.h"

struct sched_ctx;

struct cmd_model {
	const struct event_table *t;	/* NULL: architectural events only */
	const struct pmu_caps *caps;	/* this CPU; NULL for --cpu MODEL */
	struct pmu_caps this_cpu;	/* what caps points to */
};

/* Resolves `cpu` (the --cpu value, or NULL for this CPU) into m. For this
 * CPU it prints the emulation banner first unless `json` (a banner would
 * break the JSON). Returns EXIT_OK, or after an error that starts with
 * "bareperf COMMAND:" EXIT_USAGE (unknown model, listing the known ones)
 * or EXIT_NO_PMU (not Intel, or no architectural PMU). */
int cmd_model_resolve(const char *command, const char *cpu, bool json, struct cmd_model *m);

/* The scheduler's view of the model: this CPU's counters from its caps,
 * a named model's from its table (model_sched_ctx_from_table). */
void cmd_model_sched_ctx(const struct cmd_model *m, struct sched_ctx *ctx);

/* A model named by its event table (--cpu MODEL), no hardware involved:
 * the counters its perfmon file names (event_table.gp_mask/fixed_mask,
 * events/events.h); offcore_swap on. */
void model_sched_ctx_from_table(struct sched_ctx *ctx, const struct event_table *t);

#endif
