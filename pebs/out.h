/* How the PEBS drains (DS-based: drain.c; Architectural: arch.c) hand
 * samples to the ring: a run of slots reserved at once and published
 * when full or when the walk ends, so the ring's indexes are not touched
 * per sample; and each sample owed accounted as delivered or lost with
 * its reason (drain.h's conservation law). */
#ifndef BP_PEBS_OUT_H
#define BP_PEBS_OUT_H
#include "drain.h"

struct pebs_out {
	struct sample_ring *ring;
	/* ring slots reserved: [run, end); [run, next) filled, not published */
	struct bp_sample *run, *next, *end;
};

/* Makes the filled slots visible to the consumer. */
static inline void pebs_out_publish(struct pebs_out *o)
{
	if (o->next != o->run)
		ring_commit_run(o->ring, (u32)(o->next - o->run));
	o->run = o->next;
}

/* Publishes what is filled and reserves the next run of slots. False when
 * the ring is full (the ring counted the drop). */
static ALWAYS_INLINE bool pebs_out_reserve(struct pebs_out *o)
{
	u32 n;
	pebs_out_publish(o);
	o->run = o->next = ring_reserve_run(o->ring, &n);
	o->end = n ? o->run + n : o->run;
	return n != 0;
}

/* The sample a record owes counter pc: a slot started for it (the caller
 * decodes the record into it), or NULL when the sample is lost while
 * throttled or for lack of ring room. Either way it is accounted. */
static ALWAYS_INLINE struct bp_sample *pebs_out_sample(struct pebs_out *o, const struct pebs_ctx *c,
						      struct pebs_loss *loss, struct pebs_counter *pc)
{
	pc->records++;
	loss->found++;
	if (c->throttled) {
		loss->lost[PEBS_LOST_THROTTLED]++;
		return NULL;
	}
	if (o->next == o->end && !pebs_out_reserve(o)) {
		loss->lost[PEBS_LOST_RING_FULL]++;
		return NULL;
	}
	struct bp_sample *s = o->next++;
	bp_sample_init(s, pc->event, c->cpu, pc->period);
	loss->delivered++;
	return s;
}

#endif
