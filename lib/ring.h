/* The sample ring: fixed-size struct bp_sample slots, preallocated, with one
 * producer (the PMI handler, or the PEBS drain it calls) and one consumer
 * (the main flow: the perf.data writer) on the SAME CPU.
 *
 * A full ring drops the NEW sample and counts it: nothing already in the
 * ring is ever overwritten, so what the consumer reads is exactly what was
 * accepted, and ring_dropped() says how much was not.
 *
 * Why no lock is needed: the producer runs only in the interrupt handler,
 * which interrupts the consumer but is never interrupted by it. Each index
 * has a single writer (head: producer, tail: consumer). The producer fills
 * the slot before it publishes head; the consumer copies the slot out
 * before it publishes tail. On one CPU the processor sees its own stores
 * in program order, so the only reordering to prevent is the compiler's:
 * a compiler barrier between "slot" and "index" on each side, and volatile
 * index reads so that a value is never cached across an interrupt. Across
 * CPUs (record -a: an AP's PMI produces, the BSP's timer consumes) the
 * same code is correct on x86 alone: its memory order (TSO, SDM Vol. 3A
 * 9.2.2) keeps stores in program order as other CPUs see them, and never
 * moves a load after a later store or before an earlier load, which is
 * the acquire/release pairing each side needs. A port to a weaker memory
 * model would need real fences here. The indexes run freely and wrap modulo 2^32; the
 * capacity is a power of two so that head - tail is the fill level. */
#ifndef BP_RING_H
#define BP_RING_H
#include "types.h"
#include "sample.h"

struct sample_ring {
	struct bp_sample *slots;
	u32 capacity;		/* a power of two */
	u32 mask;		/* capacity - 1 */
	volatile u32 head;	/* next slot to fill; written by the producer only */
	volatile u32 tail;	/* next slot to read; written by the consumer only */
	volatile u64 pushed;	/* samples accepted (producer only) */
	volatile u64 dropped;	/* samples refused because the ring was full (producer only) */
	volatile u64 newest_tsc;	/* the newest published sample's TSC (producer only) */
	bool owns_slots;	/* slots came from ring_alloc */
};

/* Uses caller-provided storage; capacity must be a nonzero power of two.
 * Returns false (and leaves the ring unusable) otherwise. */
bool ring_init(struct sample_ring *r, struct bp_sample *slots, u32 capacity);
/* Allocates capacity slots with plat_alloc; false on a bad capacity or
 * when memory is short. */
bool ring_alloc(struct sample_ring *r, u32 capacity);
void ring_free(struct sample_ring *r);

/* Producer side (interrupt context: bounded, no allocation). Returns false
 * and counts the drop when the ring is full. */
bool ring_push(struct sample_ring *r, const struct bp_sample *s);
/* A slot to fill in place, or NULL when full (the drop is counted); the
 * sample becomes visible at ring_commit(). Saves a copy of a large struct
 * in the PMI path. Exactly one ring_commit() must follow a non-NULL
 * ring_reserve() before the next reserve. */
struct bp_sample *ring_reserve(struct sample_ring *r);
void ring_commit(struct sample_ring *r);
/* The same for a producer with many samples at once (the PEBS drain): the
 * free slots that follow head up to the end of the array, so that filling
 * them takes no index wrap or fill check per sample. *n gets their number;
 * 0 (and NULL) when the ring is full, the drop counted as ring_reserve
 * counts it. Fill them in order from the first; ring_commit_run(r, filled),
 * filled <= *n, publishes them and must come before the next reserve. */
static inline struct bp_sample *ring_reserve_run(struct sample_ring *r, u32 *n)
{
	u32 head = r->head;
	u32 used = head - r->tail;
	if (used >= r->capacity) {
		*n = 0;
		r->dropped++;
		return NULL;
	}
	*n = MIN(r->capacity - used, r->capacity - (head & r->mask));
	return &r->slots[head & r->mask];
}

static inline void ring_commit_run(struct sample_ring *r, u32 filled)
{
	/* The slots' contents must be in memory before the consumer can see
	 * the new head. */
	compiler_barrier();
	if (filled)
		r->newest_tsc = r->slots[(r->head + filled - 1) & r->mask].tsc;
	r->head = r->head + filled;
	r->pushed += filled;
}

/* Consumer side (main flow). Returns false when empty. */
bool ring_pop(struct sample_ring *r, struct bp_sample *out);
/* The oldest sample, left in the ring; NULL when empty. It stays valid
 * until the consumer pops it (the producer fills only free slots). */
const struct bp_sample *ring_peek(const struct sample_ring *r);
u32 ring_count(const struct sample_ring *r);
static inline u64 ring_dropped(const struct sample_ring *r) { return r->dropped; }
static inline u64 ring_pushed(const struct sample_ring *r) { return r->pushed; }

#endif
