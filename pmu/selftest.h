/* `bareperf selftest`: does the PMU in front of us behave as the SDM
 * (Intel) or the AMD64 APM Vol. 2 (AMD) says? Each check programs the PMU
 * through the hardware seam only, runs a short busy loop, and judges what
 * it reads back. Every wait is bounded by plat_ticks(); every MSR access
 * that could fault is a probing one, so a half-working virtual PMU gives a
 * FAIL with a reason, never a crash.
 *
 * Each check leaves the PMU MSRs it touched, IA32_DS_AREA, the IBS
 * controls, LVT PC, the extended LVT entry of IBS and the PMI's IDT gate
 * as it found them, whatever its verdict.
 *
 * On the emulated PMU the counters advance only while the model is driven
 * (sim/drive.h): the caller starts the drive; nothing here knows about it. */
#ifndef BP_SELFTEST_H
#define BP_SELFTEST_H
#include "../arch/caps.h"

enum selftest_check {
	SELFTEST_COUNTERS,	/* every GP and fixed counter counts */
	SELFTEST_WIDTHS,	/* legacy and full-width writes, counter widths */
	SELFTEST_OVERFLOW_PMI,	/* overflow is seen and raises a PMI */
	SELFTEST_LVT_MASK,	/* LVT PC after delivery, as the architecture says */
	SELFTEST_PEBS_RECORD,	/* records of the advertised format and size */
	SELFTEST_PEBS_THRESHOLD,	/* N records at a threshold of N: one PMI */
	SELFTEST_AUTO_RELOAD,	/* a record reloads the counter from the DS area */
	SELFTEST_IBS_OP,	/* AMD IBS op sampling: a sample, an interrupt */
	SELFTEST_IBS_FETCH,	/* AMD IBS fetch sampling: a sample, an interrupt */
	SELFTEST_COUNT
};

enum selftest_verdict {
	SELFTEST_NOT_RUN,
	SELFTEST_PASS,
	SELFTEST_FAIL,
	SELFTEST_SKIP,		/* the CPU lacks what the check needs */
};

struct selftest_result {
	enum selftest_verdict verdict;
	char reason[192];	/* why, in one line, for every verdict */
};

#define SELFTEST_BUSY_MS 20	/* counting window: several 1 ms drive ticks */
#define SELFTEST_WAIT_MS 500	/* the longest any check waits for an event */

const char *selftest_check_name(enum selftest_check c);	/* "counters", ... */
const char *selftest_check_summary(enum selftest_check c);
/* The check named `name`, or -1. */
int selftest_check_find(const char *name);
const char *selftest_verdict_name(enum selftest_verdict v);	/* "PASS", ... */

/* Runs the checks whose bit (1 << check) is set in `mask`; the others get
 * SELFTEST_NOT_RUN. caps must describe the CPU behind the seam. The PMU
 * should be idle (GLOBAL_CTRL clear: pmu_open does that). */
void selftest_run(const struct pmu_caps *caps, u32 mask,
		  struct selftest_result out[SELFTEST_COUNT]);
/* One check. */
void selftest_run_one(const struct pmu_caps *caps, enum selftest_check c,
		      struct selftest_result *out);

#endif
