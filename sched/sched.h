/* The counter scheduler: which counter each event goes on.
 *
 * Input: a list of events (struct pmu_event, events/event.h) and, optionally,
 * the counter each had before. Output: one counter per event, in the
 * unified index of events/event.h (GP i = i, fixed i = 32 + i).
 *
 * What it guarantees:
 *  - It never fails when a valid assignment exists. Placing events on
 *    counters is a bipartite matching; the scheduler solves it exactly
 *    (augmenting paths to decide, a minimum-cost assignment to choose),
 *    where a greedy pass can strand an event (intel-pmu.md, "Constraints").
 *  - Every constraint holds: the event's allowed GP/fixed counters; only
 *    its PEBS counters when precise > 0; only counters the CPU has; an AMD
 *    large-increment event on an even counter with the odd one after it
 *    left for its Merge event (pmu_event.amd_pair; Linux pair_constraint); a
 *    taken-alone event is the only event scheduled; events sharing an extra
 *    MSR (MSR_OFFCORE_RSP_0/1, MSR_PEBS_LD_LAT_THRESHOLD, ...) agree on its
 *    value; a group is placed all-or-nothing.
 *  - Among the valid assignments it picks, in this order: the fewest events
 *    moved off their previous counter, then the most events that have a
 *    fixed counter sitting on it (freeing GP counters). Ties are broken by a
 *    fixed order, so the same input gives the same output.
 *  - Fast path: when every previously placed event's counter is still valid
 *    and the new events fit on the free counters, nothing moves and only the
 *    new events are matched (a steady multiplexing tick costs O(n)).
 *
 * Portable code: no libc, no allocation, no floating point. */
#ifndef BP_SCHED_H
#define BP_SCHED_H
#include "../lib/types.h"
#include "../events/event.h"

struct pmu_caps;
struct event_table;

/* Events per call. Must stay <= 64: sets of events are u64 bitmaps. */
#define SCHED_MAX_EVENTS   64
/* Counter indexes fit a u64 bitmap: GP 0..31 in bits 0..31, fixed i in 32+i. */
#define SCHED_MAX_COUNTERS 64

/* What the scheduler knows of the CPU. */
struct sched_ctx {
	u32 gp_mask;		/* GP counters present (pmu_caps.gp_mask) */
	u32 fixed_mask;		/* fixed counters present (pmu_caps.fixed_mask) */
	/* Offcore-response events have two encodings, one per offcore MSR:
	 * the event's own (event/umask with MSR_OFFCORE_RSP_0) and its
	 * alternate (pmu_event.has_alt: alt_event/alt_umask with
	 * alt_extra_msr = MSR_OFFCORE_RSP_1), both from the model's perfmon
	 * file (0xB7/0xBB on Sandy Bridge..Ice Lake, 0x2A/0x2B on Golden Cove
	 * and later, 0xB7 umask 0x01/0x02 on Atom cores). When set, an event
	 * with an alternate may move to it, so two different response masks
	 * count at once; an event without one stays on its MSR. Clear it to
	 * keep every event on its own encoding. */
	bool offcore_swap;
};

/* Counter masks from the CPU's capabilities; offcore_swap on, as which
 * events may move is the events' own alternates (no vendor asked). */
void sched_ctx_from_caps(struct sched_ctx *ctx, const struct pmu_caps *caps);

/* Why an event is not placed. sched_assign() returns minus the reason of
 * the first unplaced event. */
enum sched_reason {
	SCHED_OK = 0,
	SCHED_INVALID,		/* bad input: n out of range, bad group index */
	SCHED_NO_COUNTER,	/* none of its allowed counters exists here */
	SCHED_COUNTERS_TAKEN,	/* its counters are all needed by other events */
	SCHED_TAKEN_ALONE,	/* it or another event must run alone */
	SCHED_EXTRA_MSR,	/* its extra MSR holds another event's value */
	SCHED_GROUP,		/* another member of its group cannot be placed */
};
const char *sched_reason_name(enum sched_reason r);

/* Filled by sched_assign() (pass NULL if not wanted). On success every
 * reason is SCHED_OK. On failure the out_counter array holds a partial
 * placement (events and groups considered in list order, each kept when it
 * fits with the ones kept before it) and the fields say why the others do
 * not fit. */
struct sched_report {		/* per-event arrays: entries 0..n-1 */
	int placed;			/* events with a counter */
	int moved;			/* placed events not on their previous counter */
	bool fast_path;			/* nothing had to move */
	u8 reason[SCHED_MAX_EVENTS];	/* enum sched_reason per event */
	int8_t culprit[SCHED_MAX_EVENTS];	/* the event it conflicts with, or -1 */
	/* SCHED_COUNTERS_TAKEN: the events that compete for the same counters
	 * (itself included) and those counters: more events than counters. */
	u64 rivals[SCHED_MAX_EVENTS];
	u64 rival_counters[SCHED_MAX_EVENTS];
};

/* Places all n events or none.
 *   prev: the counter each event had, COUNTER_NONE for new ones; NULL when
 *         all are new. An invalid or out-of-range previous counter just
 *         means the event moves.
 *   out_counter: n counters (COUNTER_NONE for unplaced events on failure);
 *         may be the prev array (updated in place).
 *   out_extra_msr: n entries, may be NULL: the extra MSR each event uses
 *         (0 for none). It differs from ev->extra_msr only when an
 *         offcore event was moved to its alternate MSR (alt_extra_msr);
 *         then it must be programmed with its alternate encoding
 *         (sched_event_use_msr). NULL means no event is moved.
 * Returns n when everything is placed, otherwise -(enum sched_reason). */
int sched_assign(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
		 const int *prev, int *out_counter, u32 *out_extra_msr,
		 struct sched_report *why);

/* The same for the events whose bit is set in `active` (a subset of the
 * list, whole groups only); the others get COUNTER_NONE. Returns the
 * number of active events or -(enum sched_reason). */
int sched_assign_subset(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
			u64 active, const int *prev, int *out_counter,
			u32 *out_extra_msr, struct sched_report *why);

/* The SDM name of an extra MSR events use (MSR_OFFCORE_RSP_0, ...,
 * MSR_PEBS_FRONTEND), or NULL for another MSR. */
const char *sched_msr_name(u32 msr);

/* Writes one line per unplaced event saying why, e.g.
 *   "MEM_LOAD_RETIRED.L3_MISS:pp: needs a PEBS counter among gp0-3, all
 *    taken by A (gp0), B (gp1), C (gp2), D (gp3)"
 * from the report and the partial placement of a failed sched_assign().
 * Returns the length of the full text (like snprintf). */
int sched_explain(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
		  const int *counter, const struct sched_report *why,
		  char *buf, size_t len);

/* Counters an event may use on this CPU, as a bitmap of counter indexes
 * (precise events: their PEBS counters only). */
u64 sched_allowed(const struct sched_ctx *ctx, const struct pmu_event *e);
/* The same before intersecting with the counters the CPU has. */
u64 sched_wanted(const struct pmu_event *e);
/* "gp0-3,fixed1" for a counter bitmap; "none" when empty. */
int sched_format_counters(u64 mask, char *buf, size_t len);
/* "gp2" or "fixed0". */
int sched_format_counter(int counter, char *buf, size_t len);
/* May this event move to its alternate offcore MSR here? True when
 * ctx->offcore_swap is set and the event has an alternate encoding for the
 * other MSR of the pair MSR_OFFCORE_RSP_0/1. */
bool sched_offcore_swappable(const struct sched_ctx *ctx, const struct pmu_event *e);
/* Turns e into the encoding that counts it with extra MSR `msr` (an
 * out_extra_msr entry of sched_assign): when msr is its alternate MSR,
 * event/umask/extra_msr take the alternate's values and the old ones
 * become the alternate (so it can move back). Returns true when the
 * encoding changed; false (e untouched) for its own MSR or any other. */
bool sched_event_use_msr(struct pmu_event *e, u32 msr);
/* Index of the unit (group) an event belongs to: its leader's index. */
int sched_unit_of(const struct pmu_event *ev, int n, int i);

/* Incremental placement: add events or whole groups one at a time; each
 * add either fits with everything added before (possibly moving those to
 * other counters) or changes nothing. Decides exactly (augmenting paths),
 * so the order of adds only matters when not everything fits. Used for the
 * partial placement of a failed assignment and by the multiplexing rotation
 * (sched/mux.h). */
struct sched_set {
	const struct sched_ctx *ctx;
	const struct pmu_event *ev;
	int n;
	u64 members;			/* events in the set */
	bool swap;			/* offcore events may change MSR (ctx->offcore_swap) */
	u64 pairs;			/* AMD pair events: they hold two counters */
	u64 allowed[SCHED_MAX_EVENTS];
	int8_t counter_of[SCHED_MAX_EVENTS];	/* matching: event -> counter */
	int8_t event_on[SCHED_MAX_COUNTERS];	/* matching: counter -> event */
};

/* Returns SCHED_OK or SCHED_INVALID (bad n or group index). */
enum sched_reason sched_set_init(struct sched_set *s, const struct sched_ctx *ctx,
				 const struct pmu_event *ev, int n);
/* Adds the events in `events` (a bitmap: one event or a whole group).
 * On failure nothing changes; if `why` is given, its reason/culprit/rivals
 * entries are set for the events of the add that failed. */
enum sched_reason sched_set_add(struct sched_set *s, u64 events, struct sched_report *why);
/* Bitmap of the events of unit u (u = sched_unit_of(...)). */
u64 sched_unit_members(const struct pmu_event *ev, int n, int u);

#endif
