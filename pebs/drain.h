/* Draining the PEBS buffer into the sample ring, from the PMI handler (on
 * GLOBAL_STATUS bit 62) or the main flow (stop, period/layout change,
 * count read). Interrupt-safe: no allocation, no floating point, no
 * firmware call, every loop bounded by the buffer size.
 *
 * The walker trusts nothing it reads from memory: the buffer bounds come
 * from struct pebs_ds, and an index outside [base, absolute max], an index
 * that is not a whole number of records, or an adaptive record whose
 * stated size is zero or differs from the layout's is clamped, counted and
 * never followed.
 *
 * Accounting. Every record owes one sample per enabled PEBS counter whose
 * applicable-counters bit is set (exact from format 3; before that a
 * record with several such bits is a collision and all its samples are
 * lost). A record with no enabled bit owes one sample, lost as an orphan;
 * records behind a corrupt index or record are estimated with the layout's
 * record size and lost as corrupt. A record the drain already consumed
 * (marked so, see pebs_record_mark_consumed), met again behind a clamped
 * index, is stale: never delivered twice, counted as a stale anomaly and
 * owed one sample lost as corrupt. Then, always:
 *
 *     found == delivered + sum(lost[reason])
 *
 * (pebs_loss_balanced). Records the CPU could not write because the buffer
 * was full are added by the caller, who knows the counts
 * (pebs_loss_add_buffer_full). */
#ifndef BP_PEBS_DRAIN_H
#define BP_PEBS_DRAIN_H
#include "../lib/types.h"
#include "../lib/ring.h"
#include "record.h"
#include "ds.h"

#define PEBS_MAX_COUNTERS 16	/* PEBS counters one context drives */
#define PEBS_NO_COUNTER   0xFF

struct pebs_counter {
	int counter;		/* unified index: GP i = i, fixed i = 32 + i */
	u32 event;		/* bp_sample.event */
	u64 period;		/* auto-reload period: each record stands for this many events */
	enum pebs_mem_kind mem;
	u64 records;		/* records attributed so far (delivered or lost) */
};

struct pebs_ctx {
	struct pebs_ds *ds;
	enum pebs_dse_family dse_family;
	u32 cpu;
	bool throttled;		/* set by the caller: samples are counted lost, not delivered */
	u64 drain_tsc;		/* set by the caller: the TSC at this drain, the time of
				 * records that carry none (formats 0-2: the TSC field
				 * came with format 3, SDM 20.6.2.4.2), as Linux stamps
				 * them with the time of the PMI that drains them */
	u64 enabled;		/* unified bitmap of the PEBS counters below */
	unsigned ncounters;
	struct pebs_counter counters[PEBS_MAX_COUNTERS];
	u8 slot_of_bit[64];	/* counter bit -> index in counters[] */
	struct pebs_load_sources loads;	/* of dse_family, set by pebs_ctx_init */
};

enum pebs_loss_reason {
	PEBS_LOST_BUFFER_FULL,	/* the CPU could not write the record */
	PEBS_LOST_RING_FULL,	/* the sample ring had no room */
	PEBS_LOST_COLLISION,	/* pre-fmt3 record for several counters */
	PEBS_LOST_ORPHAN,	/* record for no enabled PEBS counter */
	PEBS_LOST_CORRUPT,	/* behind a corrupt index or record */
	PEBS_LOST_THROTTLED,	/* dropped while sampling was throttled */
	PEBS_LOST_NR
};

struct pebs_loss {
	u64 drains;		/* pebs_drain calls that found records */
	u64 records;		/* records walked */
	u64 found;		/* samples owed (see the invariant above) */
	u64 delivered;		/* samples appended to the ring */
	u64 lost[PEBS_LOST_NR];
	/* anomalies: how often each check fired (events, not samples) */
	u64 index_below_base;
	u64 index_beyond_max;
	u64 index_misaligned;
	u64 zero_size;
	u64 size_mismatch;
	u64 stale_records;	/* already consumed records met again */
	u64 buffer_was_full;	/* index had reached absolute max: records were lost */
};

void pebs_ctx_init(struct pebs_ctx *c, struct pebs_ds *ds, enum pebs_dse_family fam, u32 cpu);
/* Adds one PEBS counter. False (err says why) for a bad or repeated
 * counter index, a zero period, or too many counters. */
bool pebs_ctx_add(struct pebs_ctx *c, const struct pebs_counter *pc, char *err, size_t errlen);
/* Events counted by counter slot i: records x period (auto-reload). */
static inline u64 pebs_counter_events(const struct pebs_ctx *c, unsigned i)
{
	return c->counters[i].records * c->counters[i].period;
}

/* Walks [base, index), appends samples, resets the index to base. Returns
 * the samples delivered by this call. It is the ring's only producer: the
 * main flow may call it only while the PEBS counters are stopped and the
 * PMI cannot run (GLOBAL_CTRL cleared or LVT PC masked). Samples are
 * published a run of ring slots at a time (ring_reserve_run): all of them
 * by the time it returns. */
u64 pebs_drain(struct pebs_ctx *c, struct sample_ring *ring, struct pebs_loss *loss);

/* Records [at, top) that cannot be followed: estimated with the layout's
 * record size, at least one, lost as corrupt. */
static inline void pebs_loss_lose_rest(struct pebs_loss *loss, u64 at, u64 top, u32 size)
{
	u64 n = MAX((top - at + size - 1) / size, (u64)1);
	loss->found += n;
	loss->lost[PEBS_LOST_CORRUPT] += n;
}

/* A record consumed by an earlier drain: only a clamped walk goes past
 * what the CPU wrote since then. Its sample was accounted then; this
 * walk owes one, lost as corrupt, so the invariant holds. */
static inline void pebs_loss_lose_stale(struct pebs_loss *loss)
{
	loss->stale_records++;
	loss->records++;
	loss->found++;
	loss->lost[PEBS_LOST_CORRUPT]++;
}

static inline void pebs_loss_add_buffer_full(struct pebs_loss *l, u64 records)
{
	l->found += records;
	l->lost[PEBS_LOST_BUFFER_FULL] += records;
}
u64 pebs_loss_lost_total(const struct pebs_loss *l);
bool pebs_loss_balanced(const struct pebs_loss *l);
const char *pebs_loss_reason_name(enum pebs_loss_reason r);
/* One line: delivered, lost by reason, anomalies. Returns the length. */
int pebs_loss_describe(const struct pebs_loss *l, char *buf, size_t len);

#endif
