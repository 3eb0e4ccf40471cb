/* Helpers shared by the pmu/ and sampling tests: a model behind the seam,
 * its capabilities, events parsed as a user types them, and the PMU taken
 * over with pmu_open(). */
#ifndef BP_TEST_PMU_SUPPORT_H
#define BP_TEST_PMU_SUPPORT_H
#include "test_sim_support.h"
#include "arch/caps.h"
#include "events/evparse.h"
#include "events/events.h"
#include "pmu/pmu.h"

static struct pmu_caps caps;
static struct pmu pmu;

/* Opens the model and reads its capabilities (no pmu_open yet). */
static inline void model_caps(const char *model)
{
	open_model(model);
	pmu_caps_read(&caps);
}

/* Parses `text` for the open model; fails the test on a parse error. */
static inline int parse(const char *text, struct pmu_event *out, int max)
{
	char err[512];
	int n = evparse_list(text, event_table_for_caps(&caps), &caps, out, max, err, sizeof(err));
	if (n < 0)
		fail_msg("evparse_list(%s): %s", text, err);
	return n;
}

static inline struct pmu_event parse_one(const char *text)
{
	struct pmu_event e;
	parse(text, &e, 1);
	return e;
}

/* Opens the model and takes its PMU over. */
static inline void open_pmu(const char *model)
{
	char err[512];
	model_caps(model);
	if (pmu_open(&pmu, &caps, false, err, sizeof(err)))
		fail_msg("pmu_open(%s): %s", model, err);
}

static inline int add_ok(const char *text, u64 period)
{
	char err[512];
	struct pmu_event e = parse_one(text);
	int id = pmu_add(&pmu, &e, period, err, sizeof(err));
	if (id < 0)
		fail_msg("pmu_add(%s): %s", text, err);
	return id;
}

/* MSR writes and reads through the seam since the last reset. */
static inline u64 seam_writes(void)
{
	struct hw_stats st;
	hw_stats_get(&st);
	return st.wrmsr;
}

static inline u64 seam_reads(void)
{
	struct hw_stats st;
	hw_stats_get(&st);
	return st.rdmsr;
}

static inline void counts_reset(void)
{
	hw_stats_reset();
	sim_msr_counts_reset();
}

static inline void assert_snapshot_same(const struct sim_snapshot *before)
{
	struct sim_snapshot after;
	char diff[256];
	sim_snapshot(&after);
	if (!sim_snapshot_equal(before, &after, diff, sizeof(diff)))
		fail_msg("state not restored: %s", diff);
}

#endif
