/* The sample ring; the reasoning about interrupt safety is in ring.h. */
#include "ring.h"
#include "plat.h"
#include "str.h"

/* Stops the compiler from moving memory accesses across this point. One
 * CPU observes its own stores in program order, so this is all that the
 * handler-versus-interrupted-flow case needs. */

bool ring_init(struct sample_ring *r, struct bp_sample *slots, u32 capacity)
{
	bp_memset(r, 0, sizeof(*r));
	if (!slots || capacity == 0 || (capacity & (capacity - 1)))
		return false;
	r->slots = slots;
	r->capacity = capacity;
	r->mask = capacity - 1;
	return true;
}

bool ring_alloc(struct sample_ring *r, u32 capacity)
{
	bp_memset(r, 0, sizeof(*r));
	if (capacity == 0 || (capacity & (capacity - 1)))
		return false;
	struct bp_sample *slots = plat_alloc((size_t)capacity * sizeof(*slots));
	if (!slots)
		return false;
	ring_init(r, slots, capacity);
	r->owns_slots = true;
	return true;
}

void ring_free(struct sample_ring *r)
{
	if (r->owns_slots)
		plat_free(r->slots);
	bp_memset(r, 0, sizeof(*r));
}

u32 ring_count(const struct sample_ring *r)
{
	return r->head - r->tail;
}

struct bp_sample *ring_reserve(struct sample_ring *r)
{
	u32 head = r->head;
	if (head - r->tail >= r->capacity) {
		r->dropped++;
		return NULL;
	}
	return &r->slots[head & r->mask];
}

void ring_commit(struct sample_ring *r)
{
	ring_commit_run(r, 1);
}

bool ring_push(struct sample_ring *r, const struct bp_sample *s)
{
	struct bp_sample *slot = ring_reserve(r);
	if (!slot)
		return false;
	bp_sample_copy(slot, s);
	ring_commit(r);
	return true;
}

const struct bp_sample *ring_peek(const struct sample_ring *r)
{
	u32 tail = r->tail;
	if (r->head == tail)
		return NULL;
	compiler_barrier();	/* read the slot only after seeing head */
	return &r->slots[tail & r->mask];
}

bool ring_pop(struct sample_ring *r, struct bp_sample *out)
{
	u32 tail = r->tail;
	if (r->head == tail)
		return false;
	compiler_barrier();	/* read the slot only after seeing head */
	bp_sample_copy(out, &r->slots[tail & r->mask]);
	/* The copy must be complete before the producer may reuse the slot. */
	compiler_barrier();
	r->tail = tail + 1;
	return true;
}
