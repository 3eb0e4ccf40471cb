/* The PEBS drain; the rules and the accounting are in drain.h. */
#include "drain.h"
#include "decode.h"
#include "out.h"
#include "../events/event.h"
#include "../lib/fmt.h"
#include "../lib/str.h"

void pebs_ctx_init(struct pebs_ctx *c, struct pebs_ds *ds, enum pebs_dse_family fam, u32 cpu)
{
	bp_memset(c, 0, sizeof(*c));
	c->ds = ds;
	c->dse_family = fam;
	c->cpu = cpu;
	bp_memset(c->slot_of_bit, PEBS_NO_COUNTER, sizeof(c->slot_of_bit));
	pebs_load_sources_init(&c->loads, fam);
}

bool pebs_ctx_add(struct pebs_ctx *c, const struct pebs_counter *pc, char *err, size_t errlen)
{
	if (pc->counter < 0 || pc->counter >= 64) {
		bp_snprintf(err, errlen, "PEBS counter index %d is outside 0..63", pc->counter);
		return false;
	}
	if (c->enabled & BIT(pc->counter)) {
		bp_snprintf(err, errlen, "PEBS counter %d is configured twice", pc->counter);
		return false;
	}
	if (pc->period == 0) {
		bp_snprintf(err, errlen, "PEBS counter %d has period 0", pc->counter);
		return false;
	}
	if (c->ncounters >= PEBS_MAX_COUNTERS) {
		bp_snprintf(err, errlen, "more than %d PEBS counters", PEBS_MAX_COUNTERS);
		return false;
	}
	c->slot_of_bit[pc->counter] = (u8)c->ncounters;
	c->counters[c->ncounters] = *pc;
	c->counters[c->ncounters].records = 0;
	c->ncounters++;
	c->enabled |= BIT(pc->counter);
	return true;
}

/* A loop, not __builtin_popcountll: without -mpopcnt that is a libgcc
 * call, and this runs in the PMI handler. At most 64 rounds. */
static unsigned popcount64(u64 v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* One walk over the buffer: what depends on the layout, the counters and
 * the caller's settings, resolved once per drain rather than per record. */
struct walk {
	struct pebs_ctx *c;
	struct pebs_loss *loss;
	const struct pebs_layout *layout;
	u64 base, top;		/* the records to walk: [base, top) */
	u32 mark_off;		/* pebs_record_mark_offset */
	u32 applicable_off;	/* 0: the format has no applicable-counters field */
	u64 lone;		/* counters a record with no enabled bit belongs to */
	bool collide;		/* several bits are a collision (before format 3) */
	u64 fill_tsc;		/* time of samples whose record has none; 0: none */
	struct pebs_out out;
};

/* Format 0 has no applicable-counters field: the record belongs to the
 * one PEBS counter (Core 2 has PEBS on PMC0 only). Formats 1-3 can write
 * a status of 0 when the assist races with the handler clearing
 * GLOBAL_STATUS (Haswell and earlier); with one PEBS counter the record
 * is still its own, as Linux assumes (intel_pmu_drain_pebs_nhm,
 * arch/x86/events/intel/ds.c). */
static u64 lone_counters(const struct pebs_ctx *c, const struct pebs_layout *l)
{
	if (l->format == 0)
		return c->enabled;
	return !l->adaptive && popcount64(c->enabled) == 1 ? c->enabled : 0;
}

static void walk_init(struct walk *w, struct pebs_ctx *c, struct sample_ring *ring,
		      struct pebs_loss *loss, u64 top)
{
	const struct pebs_layout *l = &c->ds->layout;
	*w = (struct walk){
		.c = c, .loss = loss, .layout = l, .out = { .ring = ring },
		.base = c->ds->base, .top = top,
		.mark_off = pebs_record_mark_offset(l),
		.applicable_off = pebs_record_applicable_offset(l),
		.lone = lone_counters(c, l),
		/* SDM Vol. 3B 20.6.2.4: before format 3 the status field
		 * does not say which of several overflowed counters the
		 * record is for. */
		.collide = l->format < 3,
		.fill_tsc = pebs_record_fields(l->format) & BP_SAMPLE_TIME ? 0 : c->drain_tsc,
	};
}

/* One sample for counter pc from record rec. */
static ALWAYS_INLINE void emit(struct walk *w, const void *rec, struct pebs_counter *pc,
			      pebs_decode_fn *decode)
{
	struct bp_sample *s = pebs_out_sample(&w->out, w->c, w->loss, pc);
	if (!s)
		return;
	decode(w->layout, rec, pc->mem, &w->c->loads, s);
	if (w->fill_tsc) {
		s->tsc = w->fill_tsc;
		s->flags |= BP_SAMPLE_TIME;
	}
}

/* A record for no enabled counter, or (before format 3) for several. */
static void lose_unattributed(struct walk *w, u64 bits)
{
	struct pebs_loss *loss = w->loss;
	if (!bits) {
		loss->found++;
		loss->lost[PEBS_LOST_ORPHAN]++;
		return;
	}
	/* Each counter still overflowed once: count it, lose its sample. */
	unsigned n = 0;
	for (u64 b = bits; b; b &= b - 1, n++)
		w->c->counters[w->c->slot_of_bit[__builtin_ctzll(b)]].records++;
	loss->found += n;
	loss->lost[PEBS_LOST_COLLISION] += n;
}

static ALWAYS_INLINE void attribute(struct walk *w, const void *rec, pebs_decode_fn *decode)
{
	struct pebs_ctx *c = w->c;
	u64 bits = w->applicable_off ? pebs_rec_u64(rec, w->applicable_off) & c->enabled : 0;
	bits = bits ? bits : w->lone;
	w->loss->records++;
	if (bits && !(bits & (bits - 1))) {	/* one counter: the usual case */
		emit(w, rec, &c->counters[c->slot_of_bit[__builtin_ctzll(bits)]], decode);
		return;
	}
	if (!bits || w->collide) {
		lose_unattributed(w, bits);
		return;
	}
	for (u64 b = bits; b; b &= b - 1)	/* at most 64 rounds */
		emit(w, rec, &c->counters[c->slot_of_bit[__builtin_ctzll(b)]], decode);
}

/* The index the CPU left, checked against our own bounds. Returns the
 * top of the area to walk (base when there is nothing to walk). */
static u64 checked_top(const struct pebs_ds *ds, u64 index, struct pebs_loss *loss)
{
	u32 size = ds->layout.record_size;
	if (index < ds->base) {
		loss->index_below_base++;
		return ds->base;
	}
	if (index > ds->abs_max) {
		/* the CPU never writes past absolute max: the index is
		 * corrupt; the records below absolute max may be real */
		loss->index_beyond_max++;
		index = ds->abs_max;
	}
	if (index == ds->abs_max)
		loss->buffer_was_full++;
	/* Every record in the buffer has the layout's size (the buffer is
	 * drained before PEBS_DATA_CFG changes), adaptive ones included. */
	if ((index - ds->base) % size) {
		u64 whole = ds->base + (index - ds->base) / size * size;
		loss->index_misaligned++;
		pebs_loss_lose_rest(loss, whole, index, size);
		index = whole;
	}
	return index;
}

/* Adaptive records state their size: one that differs from the layout's
 * cannot be followed. */
static bool size_as_stated(struct pebs_loss *loss, const void *rec, u32 size)
{
	u32 stated = pebs_record_stated_size(rec);
	if (stated == size)
		return true;
	if (stated == 0)
		loss->zero_size++;
	else
		loss->size_mismatch++;
	return false;
}

/* The walk, compiled once per decoder (pebs_drain's switch) so that the
 * decoder is inlined into the loop. */
static ALWAYS_INLINE void walk_records(struct walk *w, pebs_decode_fn *decode, bool adaptive)
{
	struct pebs_loss *loss = w->loss;
	/* locals: the mark store may alias anything */
	u64 at = w->base, top = w->top;
	u32 size = w->layout->record_size, mark_off = w->mark_off;

	/* Each round advances by size > 0 and top <= abs_max, so at most
	 * max_records rounds. */
	while (at < top) {
		const void *rec = (const void *)(uintptr_t)at;
		if (top - at < size) {
			pebs_loss_lose_rest(loss, at, top, size);	/* truncated record */
			break;
		}
		if (pebs_rec_is_consumed(rec, mark_off)) {
			pebs_loss_lose_stale(loss);	/* its size was checked when consumed */
			at += size;
			continue;
		}
		if (adaptive && !size_as_stated(loss, rec, size)) {
			pebs_loss_lose_rest(loss, at, top, size);
			break;
		}
		attribute(w, rec, decode);
		pebs_rec_mark_consumed((void *)(uintptr_t)at, mark_off);
		at += size;
	}
}

u64 pebs_drain(struct pebs_ctx *c, struct sample_ring *ring, struct pebs_loss *loss)
{
	struct pebs_ds *ds = c->ds;
	volatile u64 *index_p = &ds->area->pebs_index;
	u64 delivered_before = loss->delivered;
	struct walk w;

	walk_init(&w, c, ring, loss, checked_top(ds, *index_p, loss));
	if (w.top > w.base)
		loss->drains++;
	switch (pebs_decoder_kind(&ds->layout)) {
	case PEBS_DECODE_FMT0: walk_records(&w, pebs_decode_fmt0, false); break;
	case PEBS_DECODE_FMT1: walk_records(&w, pebs_decode_fmt1, false); break;
	case PEBS_DECODE_FMT2: walk_records(&w, pebs_decode_fmt2, false); break;
	case PEBS_DECODE_FMT3: walk_records(&w, pebs_decode_fmt3, false); break;
	case PEBS_DECODE_BASIC: walk_records(&w, pebs_decode_basic, true); break;
	case PEBS_DECODE_MEMINFO: walk_records(&w, pebs_decode_meminfo, true); break;
	case PEBS_DECODERS: break;
	}
	pebs_out_publish(&w.out);
	*index_p = ds->base;
	return loss->delivered - delivered_before;
}

u64 pebs_loss_lost_total(const struct pebs_loss *l)
{
	u64 sum = 0;
	for (unsigned r = 0; r < PEBS_LOST_NR; r++)
		sum += l->lost[r];
	return sum;
}

bool pebs_loss_balanced(const struct pebs_loss *l)
{
	return l->found == l->delivered + pebs_loss_lost_total(l);
}

const char *pebs_loss_reason_name(enum pebs_loss_reason r)
{
	static const char *const names[PEBS_LOST_NR] = {
		[PEBS_LOST_BUFFER_FULL] = "buffer full",
		[PEBS_LOST_RING_FULL] = "ring full",
		[PEBS_LOST_COLLISION] = "collision",
		[PEBS_LOST_ORPHAN] = "orphan",
		[PEBS_LOST_CORRUPT] = "corrupt",
		[PEBS_LOST_THROTTLED] = "throttled",
	};
	return (unsigned)r < PEBS_LOST_NR ? names[r] : "?";
}

/* snprintf at buf[*pos], keeping *pos the length the full line would have. */
PRINTF_LIKE(4, 5)
static void appendf(char *buf, size_t len, int *pos, const char *fmt, ...)
{
	size_t at = MIN((size_t)*pos, len);
	va_list ap;
	va_start(ap, fmt);
	*pos += bp_vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
}

/* Appends ", name N" (no comma first) when n != 0. */
static void put_count(char *buf, size_t len, int *pos, const char *name, u64 n, bool *first)
{
	if (!n)
		return;
	appendf(buf, len, pos, "%s%s %llu", *first ? "" : ", ", name, (unsigned long long)n);
	*first = false;
}

int pebs_loss_describe(const struct pebs_loss *l, char *buf, size_t len)
{
	int pos = 0;
	u64 lost = pebs_loss_lost_total(l);
	appendf(buf, len, &pos, "PEBS: %llu records, %llu samples delivered, %llu lost",
		(unsigned long long)l->records, (unsigned long long)l->delivered,
		(unsigned long long)lost);
	bool first = true;
	if (lost) {
		appendf(buf, len, &pos, " (");
		for (unsigned r = 0; r < PEBS_LOST_NR; r++)
			put_count(buf, len, &pos, pebs_loss_reason_name(r), l->lost[r], &first);
		appendf(buf, len, &pos, ")");
	}
	u64 anomalies = l->index_below_base + l->index_beyond_max + l->index_misaligned +
			l->zero_size + l->size_mismatch + l->stale_records;
	if (anomalies) {
		first = true;
		appendf(buf, len, &pos, "; clamped: ");
		put_count(buf, len, &pos, "index below base", l->index_below_base, &first);
		put_count(buf, len, &pos, "index beyond absolute max", l->index_beyond_max, &first);
		put_count(buf, len, &pos, "misaligned index", l->index_misaligned, &first);
		put_count(buf, len, &pos, "zero-size record", l->zero_size, &first);
		put_count(buf, len, &pos, "record size mismatch", l->size_mismatch, &first);
		put_count(buf, len, &pos, "stale record", l->stale_records, &first);
	}
	if (l->buffer_was_full)
		appendf(buf, len, &pos, "; buffer reached absolute max %llu times",
			(unsigned long long)l->buffer_was_full);
	return pos;
}
