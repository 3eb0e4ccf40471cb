/* A precise-sampling engine: the hardware writes a record per sample (the
 * IP of the instruction that caused the event, data address, latency,
 * ...) instead of the PMI reading the interrupted IP. Legacy Intel's is
 * PEBS through the Debug Store (pmu/precise_ds.c, SDM Vol. 3B "Processor
 * Event Based Sampling"); Architectural PEBS replaces it on the newest
 * parts (pmu/precise_arch.c); AMD's is Instruction-Based Sampling
 * (pmu/precise_ibs.c, APM Vol. 2), whose units sample on no core counter
 * and keep one sample in MSRs. A PMU
 * architecture names its engine (pmu/arch.h); sampling/ sets it up,
 * drains it from the PMI and reads its losses through these operations
 * alone.
 *
 * The engine's state is one struct precise per CPU, its members after ops
 * per engine (a union). Its records become struct bp_sample in the CPU's
 * sample ring; every record is delivered or counted lost with a reason
 * (the drain's conservation law: pebs/drain.h; IBS: precise_ibs.c). */
#ifndef BP_PMU_PRECISE_H
#define BP_PMU_PRECISE_H
#include "../arch/caps.h"
#include "../events/event.h"
#include "../lib/ring.h"
#include "../pebs/ds.h"
#include "../pebs/drain.h"
#include "../pebs/threshold.h"
#include "../pebs/arch.h"
#include "../arch/apic.h"

struct pmu;

/* One event sampled precisely, as the engine needs it. */
struct precise_event {
	const struct pmu_event *ev;
	int counter;		/* the counter the scheduler gave it */
	u32 sample_event;	/* bp_sample.event of its samples */
	u64 period;		/* fixed; the engine reloads the counter by itself */
	u32 fields;		/* enum bp_sample_flags its samples carry */
	bool freq_mode;		/* -F: the period is adapted at each PMI */
};

struct precise_opts {
	struct pebs_threshold_opt threshold;
	size_t buffer_bytes;	/* 0: the engine's default */
	u32 cpu;		/* what samples carry in their CPU field */
	u8 vector;		/* the PMI's vector (LVT PC's), for engines */
	bool nmi;		/* ... or NMI delivery: with their own LVT entry */
};

/* AMD IBS (pmu/precise_ibs.c): one unit, op or fetch. */
enum { PRECISE_IBS_OP, PRECISE_IBS_FETCH, PRECISE_IBS_UNITS };
struct precise_ibs_unit {
	bool on;
	u32 event;		/* bp_sample.event of its samples */
	u64 period;		/* as armed: a multiple of 16 */
	u64 period_asked;	/* as the session asked */
	u64 ctl;		/* the control value that arms it (En set) */
	u64 found;		/* the control register as found */
	u32 fields;		/* enum bp_sample_flags its samples carry */
	u64 samples;		/* tagged samples read */
};
struct precise_ibs_loss {
	u64 found, delivered;
	u64 ring_full, throttled, rip_invalid;
};
struct precise_ibs {
	struct pmu *pmu;
	struct apic_state apic;
	u32 caps;		/* CPUID.8000001BH:EAX */
	u32 cpu;
	u64 ibs_ctl;		/* IBS_CTL as read at setup */
	unsigned offset;	/* the extended LVT entry IBS_CTL names */
	u32 eilvt_found;	/* that entry as found, put back at teardown */
	bool eilvt_taken;
	bool running;		/* armed between enable(true) and enable(false) */
	u64 rand;		/* the CurCnt randomisation's state */
	struct precise_ibs_unit unit[PRECISE_IBS_UNITS];
	struct precise_ibs_loss loss;
};

/* One CPU's engine state. The members after ops belong to the engine
 * that set them up. */
struct precise {
	const struct precise_ops *ops;
	bool ready;
	u64 counters;		/* status-layout bits of the precise counters */
	union {
		struct {	/* DS-based PEBS */
			struct pebs_ds ds;
			struct pebs_ctx pebs;
			struct pebs_loss loss;
			struct pebs_threshold_choice threshold;
		};
		struct precise_ibs ibs;	/* AMD IBS */
		struct {	/* Architectural PEBS (pmu/precise_arch.c) */
			struct arch_pebs_buf buf;
			struct pebs_ctx ctx;
			struct pebs_loss loss;
			struct pebs_threshold_choice threshold;
			u64 saved_base, saved_index;	/* as found, put back at teardown */
			u64 saved_cfg_c[64];		/* of the counters in cfg_c_taken */
			u64 cfg_c_taken;		/* status layout */
			bool base_taken;
		} apebs;
	};
};

struct precise_ops {
	const char *name;	/* "PEBS" */
	const char *column;	/* the name in a table's narrow column: "PEBS" */
	/* Whether records gather in a buffer until a threshold the session
	 * chooses (PEBS: threshold 1 against a large one, pebs/threshold.h);
	 * false: one sample per interrupt (IBS keeps one sample in MSRs). */
	bool multi_record;
	/* Why the engine cannot run on this CPU ("no Debug Store", ...);
	 * NULL when it can. */
	const char *(*missing)(const struct pmu_caps *c);
	/* Before the PMU is taken: whether these events' options can be met
	 * (a threshold the buffer cannot hold is a usage error). True when
	 * they can, or when only setup can tell. */
	bool (*check)(const struct pmu_caps *c, const struct precise_event *ev, unsigned n,
		      const struct precise_opts *o, char *err, size_t errlen);
	/* With the events on their counters and the PMU disabled: buffers,
	 * reload values, the hardware's pointers. 0, or -1 with err (what was
	 * set up is undone by teardown). */
	int (*setup)(struct precise *pr, struct pmu *p, const struct precise_event *ev,
		     unsigned n, const struct precise_opts *o, char *err, size_t errlen);
	/* Records into the ring (counted lost while throttled). From the PMI
	 * on PMU_STATUS_PRECISE, or from the main flow with the counters
	 * stopped. Returns true when the buffer had filled, so that records
	 * were lost and a counter's reload may have been skipped. */
	bool (*drain)(struct precise *pr, struct sample_ring *ring, bool throttled);
	/* Whether the hardware still writes where the engine reads; *found is
	 * where it writes now: what base_reg holds (NULL: no such register),
	 * against ours(). */
	bool (*still_ours)(const struct precise *pr, u64 *found);
	const char *base_reg;
	u64 (*ours)(const struct precise *pr);
	u64 (*lost)(const struct precise *pr);
	/* Records the hardware wrote that no drain has taken yet (a large
	 * PEBS buffer below its threshold), read without draining: for
	 * progress lines. NULL: the engine holds none (IBS). */
	u64 (*pending)(const struct precise *pr);
	/* One line on how records are collected (the threshold). */
	int (*describe)(const struct precise *pr, char *buf, size_t len);
	/* One line on what was delivered and lost, by reason. */
	int (*describe_loss)(const struct precise *pr, char *buf, size_t len);
	void (*teardown)(struct precise *pr);
	/* An engine that samples apart from the core counters (IBS) starts
	 * and stops with the session (sampling_start/stop, hold/release), and
	 * stops itself when a drain finds sampling throttled, to be enabled
	 * again at the unthrottle; NULL: it follows the counters' global
	 * enable. */
	void (*enable)(struct precise *pr, bool on);
};

/* Both PEBS engines: which encoding the part's load data sources use
 * (caps knows the parts), and what an event's memory fields mean (the
 * event table says whether it counts stores). */
enum pebs_dse_family precise_pebs_dse_family(const struct pmu_caps *c);
enum pebs_mem_kind precise_pebs_mem_kind(const struct pmu_event *e);
/* The threshold policy's view of each event (pebs/threshold.h); returns n. */
unsigned precise_pebs_reqs_of(const struct precise_event *ev, unsigned n,
			      struct pebs_event_req *reqs);

/* The engine of the PMU that caps describe (its architecture's), or NULL
 * with *why when there is none. */
const struct precise_ops *precise_engine_for(const struct pmu_caps *c, const char **why);

extern const struct precise_ops precise_ds_pebs;
extern const struct precise_ops precise_arch_pebs;
extern const struct precise_ops precise_ibs;

/* For perf.data: the Linux PMU that samples an IBS event ("ibs_op",
 * "ibs_fetch") and the attr config perf gives it there (the control
 * register's bits the session sets: cnt_ctl config:19, rand_en config:57,
 * arch/x86/events/amd/ibs.c's format); NULL for any other event. */
const char *precise_ibs_perf_pmu(const struct pmu_event *e, u64 *config);

#endif
