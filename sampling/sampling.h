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
#include "../pmu/pmu.h"
#include "../pmu/precise.h"

#define SAMPLING_DEFAULT_PERIOD  100003
#define SAMPLING_DEFAULT_RING    16384	/* samples */
#define SAMPLING_MAX_PMIS_PER_S  100000	/* throttle above this (as Linux's default) */
#define SAMPLING_MAX_CPU_PERCENT 25	/* of the time in the handler, at most
					 * (Linux's perf_cpu_time_max_percent) */
#define SAMPLING_CPU_HORIZON_MS  100	/* ... as a share of this long: one drain
					 * may take up to 25 ms, not a storm */
/* The shortest period a PEBS event gets: a shorter one is raised to it.
 * Each record costs an assist of the order of a hundred cycles, so at
 * fewer events per record the machine does little but write records,
 * with no PMI for throttling to see until the buffer fills. Linux raises
 * short periods the same way on the parts where they misbehave
 * (arch/x86/events/intel/core.c: 128 in bdw_limit_period for
 * INST_RETIRED.ALL and spr_limit_period for :ppp, 32 in
 * nhm_limit_period). */
#define SAMPLING_MIN_PEBS_PERIOD 128

struct sampling_opts {
	u64 period;		/* -c; 0: the event's default, or freq */
	u32 freq;		/* -F in Hz; 0: fixed period */
	bool callchain;		/* -g */
	bool weight;		/* -W: every sample's latencies (PERF_SAMPLE_WEIGHT_STRUCT) */
	struct pebs_threshold_opt threshold;
	size_t pebs_buffer_bytes;	/* 0: the default for the format */
	u32 ring_samples;	/* 0: SAMPLING_DEFAULT_RING */
	u32 cpu;		/* what samples carry in their CPU field */
	u8 pmi_vector;		/* the vector of the PMI handler the caller
				 * installed (sampling/percpu: one for every
				 * CPU); the engine installs none */
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
	bool any_pebs;			/* some event samples precisely */
	struct precise precise;		/* the PMU's precise engine (PEBS) */
	struct sample_ring ring;
	struct pmi_ctx pmi;
	bool held;			/* sampling_hold stopped the counters */
	u64 pebs_period_asked;		/* a -c below SAMPLING_MIN_PEBS_PERIOD
					 * that PEBS events did not get; 0: none */
	u64 last_adjust, last_count[PMU_MAX_EVENTS];
	/* Platform ticks the counters were held (sampling_hold) in all, and
	 * as of the last adjustment: frequency mode measures rates over the
	 * time the events counted. */
	u64 held_ticks, held_since, held_at_adjust;
};

/* The sample fields event e's samples carry under o (enum
 * bp_sample_flags): what its perf.data attr announces and what the PEBS
 * threshold policy weighs. */
u32 sampling_fields(const struct pmu_event *e, const struct sampling_opts *o);

/* Sets everything up; nothing counts until sampling_start(). On failure
 * everything set up so far is undone and err says why. */
int sampling_setup(struct sampling *s, struct pmu *pmu, const struct pmu_event *ev, int n,
		   const struct sampling_opts *o, char *err, size_t errlen);
/* Before sampling_start: throttling windows go by the seam's TSC, which
 * runs at tsc_per_second, instead of the platform's clock, and the PMI
 * handler may take at most SAMPLING_MAX_CPU_PERCENT of each window. Both
 * are measured on the clock the interrupted code runs by: on an emulated
 * CPU the TSC follows the emulated machine's time, which excludes the
 * emulator's own work. Without it (tests that drive a model by hand),
 * only the PMI rate is bounded. */
void sampling_set_tsc_clock(struct sampling *s, u64 tsc_per_second);
/* -c's real range: the largest period any counter of this CPU takes (its
 * widest counter's, fixed or general-purpose: half its range, as the
 * counter is preset to -period), with that counter's width in bits. 0 when
 * the CPU has no counter. sampling_setup still checks the counter each
 * event gets (a narrower one may take less). */
u64 sampling_max_period(const struct pmu_caps *c, unsigned *bits);
/* "-c P: this CPU's counters take periods up to M (N-bit counters)" into
 * err when period is above that, for a usage error; false then. */
bool sampling_check_period(const struct pmu_caps *c, u64 period, const char *opt, char *err,
			   size_t errlen);
/* The precise engine's options sampling_setup would use, checked from the
 * CPU's capabilities alone: a --pebs-threshold the buffer cannot hold, or
 * that an event forbids, is refused before the PMU is taken (a usage
 * error). True when they would be accepted, or when only sampling_setup
 * can tell. */
bool sampling_check_threshold(const struct pmu_caps *c, const struct pmu_event *ev, int n,
			      const struct sampling_opts *o, char *err, size_t errlen);
void sampling_start(struct sampling *s);
/* Stops counting and drains what the PEBS buffer still holds. */
void sampling_stop(struct sampling *s);
void sampling_teardown(struct sampling *s);
/* Main flow, from its timer: frequency mode adapts periods; a throttled
 * PMI window ends. */
void sampling_tick(struct sampling *s);
/* Main flow: stops counting while the tool does its own work (writing
 * samples), so that work is neither measured nor sampled, as perf never
 * samples itself when it records a workload; sampling_release starts the
 * counters again. Nothing is done on a PMU that the handler stopped. */
void sampling_hold(struct sampling *s);
void sampling_release(struct sampling *s);
/* Takes up to max samples out of the ring. */
u32 sampling_poll(struct sampling *s, struct bp_sample *out, u32 max);
/* The ring's oldest sample, left there (NULL: empty). */
const struct bp_sample *sampling_peek(const struct sampling *s);
/* The TSC of the newest sample this CPU delivered (0: none yet). */
u64 sampling_newest_tsc(const struct sampling *s);
/* Samples lost so far, all reasons, PMI and PEBS paths together. */
u64 sampling_lost(const struct sampling *s);
/* Records the precise engine holds that no drain has taken yet. */
u64 sampling_pending(const struct sampling *s);
/* One line on the threshold (PEBS) or "PMI mode" otherwise. */
int sampling_describe(const struct sampling *s, char *buf, size_t len);
/* One line on the precise engine's records, delivered and lost by
 * reason; 0 (nothing written) when no event samples precisely. */
int sampling_describe_loss(const struct sampling *s, char *buf, size_t len);

#endif
