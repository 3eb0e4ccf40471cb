/* The PEBS interrupt-threshold policy (SDM Vol. 3B, "Debug Store (DS)
 * Mechanism": the PEBS interrupt threshold of the DS save area; Linux's
 * large PEBS, arch/x86/events/intel/ds.c).
 *
 * A multi-record ("large") threshold lets the CPU write many records per
 * PMI. It is only correct when nothing a sample needs is collected at PMI
 * time: every PEBS event must have a fixed period (frequency mode adapts
 * the period per PMI), no callchain (a stack walk at the PMI would belong
 * to a later instruction than the record), and only sample fields the
 * record itself supplies. Otherwise the threshold is one record. */
#ifndef BP_PEBS_THRESHOLD_H
#define BP_PEBS_THRESHOLD_H
#include "../lib/types.h"
#include "../lib/sample.h"

/* One PEBS event as the policy sees it. */
struct pebs_event_req {
	bool freq_mode;		/* -F: period adapted at each PMI */
	u32 fields;		/* enum bp_sample_flags: the fields its samples carry */
};

enum pebs_threshold_mode {
	PEBS_THRESHOLD_AUTO,	/* the policy decides */
	PEBS_THRESHOLD_ONE,	/* --pebs-threshold=1 */
	PEBS_THRESHOLD_N,	/* --pebs-threshold=N */
	PEBS_THRESHOLD_MAX,	/* --pebs-threshold=max */
};

struct pebs_threshold_opt {
	enum pebs_threshold_mode mode;
	u64 records;		/* N for PEBS_THRESHOLD_N */
};

/* Parses the value of --pebs-threshold= ("1", "N", "max"). */
bool pebs_threshold_parse(const char *arg, struct pebs_threshold_opt *out,
			  char *err, size_t errlen);

struct pebs_threshold_choice {
	u64 records;		/* threshold in records from the buffer base */
	bool large;		/* more than one record per PMI */
	char reason[96];	/* why, for pebs_threshold_explain */
};

/* Decides the threshold for events reqs[0..n) on a buffer of max_records
 * records, with pebs_counters PEBS-capable counters on this CPU. Large
 * threshold = max_records - pebs_counters (room for one more record per
 * counter after the PMI is raised). Returns false (err says why) when an
 * override is impossible: N larger than the large threshold, or N > 1 while
 * an event needs a record-per-PMI threshold. */
bool pebs_threshold_choose(const struct pebs_event_req *reqs, unsigned n, u8 format,
			   u64 max_records, unsigned pebs_counters,
			   const struct pebs_threshold_opt *opt,
			   struct pebs_threshold_choice *out, char *err, size_t errlen);

/* One line for `record`, e.g. "PEBS threshold: 1310 records (large PEBS:
 * fixed period, no callchain)". Returns the length, like snprintf. */
int pebs_threshold_explain(const struct pebs_threshold_choice *c, char *buf, size_t len);

#endif
