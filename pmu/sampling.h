/* The sampling engine: events on counters with a period, the PMI handler,
 * and, for precise events, the DS area with its PEBS buffer. Samples go to
 * a preallocated ring that the main flow empties (sampling_poll).
 *
 * Modes, per event:
 *   - PMI mode (no :p): the counter starts at -period and raises a PMI on
 *     overflow; the handler records the interrupted IP (and a callchain
 *     with -g) and presets the counter again.
 *   - PEBS (:p, :pp, :ppp): the CPU writes a record per overflow and
 *     reloads the counter from the DS area by itself. A PMI comes when the
 *     buffer reaches the interrupt threshold: one record (threshold 1) or
 *     many ("large PEBS") when every PEBS event qualifies. */
#ifndef BP_SAMPLING_H
#define BP_SAMPLING_H
#include "pmi.h"
#include "pmu.h"
#include "../pebs/ds.h"
#include "../pebs/threshold.h"

#define SAMPLING_DEFAULT_PERIOD  100003
#define SAMPLING_DEFAULT_RING    16384	/* samples */
#define SAMPLING_MAX_PMIS_PER_S  100000	/* throttle above this (as Linux's default) */

struct sampling_opts {
	u64 period;		/* -c; 0: the event's default, or freq */
	u32 freq;		/* -F in Hz; 0: fixed period */
	bool callchain;		/* -g */
	struct pebs_threshold_opt threshold;
	size_t pebs_buffer_bytes;	/* 0: the default for the format */
	u32 ring_samples;	/* 0: SAMPLING_DEFAULT_RING */
	u32 cpu;		/* what samples carry in their CPU field */
	u8 pmi_vector;		/* 0: install our own PMI handler; else the
				 * vector of a handler the caller installed
				 * (one for several CPUs) */
	bool pmi_nmi;		/* LVT PC delivers the PMI as an NMI (the
				 * caller installed the NMI handler) */
};

struct sampling {
	struct pmu *pmu;
	int n;
	struct pmu_event ev[PMU_MAX_EVENTS];
	int id[PMU_MAX_EVENTS];		/* pmu slot of each event */
	u64 period[PMU_MAX_EVENTS];	/* current period of each event */
	u32 freq;
	bool any_pebs;
	bool pebs_ready;
	struct pebs_ds ds;
	struct pebs_ctx pebs;
	struct pebs_loss loss;
	struct pebs_threshold_choice threshold;
	struct sample_ring ring;
	struct pmi_ctx pmi;
	bool pmi_installed;
	u64 last_adjust, last_count[PMU_MAX_EVENTS];
};

/* Sets everything up; nothing counts until sampling_start(). On failure
 * everything set up so far is undone and err says why. */
int sampling_setup(struct sampling *s, struct pmu *pmu, const struct pmu_event *ev, int n,
		   const struct sampling_opts *o, char *err, size_t errlen);
void sampling_start(struct sampling *s);
/* Stops counting and drains what the PEBS buffer still holds. */
void sampling_stop(struct sampling *s);
void sampling_teardown(struct sampling *s);
/* Main flow, from its timer: frequency mode adapts periods; a throttled
 * PMI window ends. */
void sampling_tick(struct sampling *s);
/* Takes up to max samples out of the ring. */
u32 sampling_poll(struct sampling *s, struct bp_sample *out, u32 max);
/* Samples lost so far, all reasons, PMI and PEBS paths together. */
u64 sampling_lost(const struct sampling *s);
/* One line on the threshold (PEBS) or "PMI mode" otherwise. */
int sampling_describe(const struct sampling *s, char *buf, size_t len);

#endif
