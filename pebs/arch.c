/* Architectural PEBS: buffer, groups, threshold and drain (arch.h). */
#include "arch.h"
#include "decode.h"
#include "out.h"
#include "../lib/fmt.h"
#include "../lib/plat.h"
#include "../lib/str.h"

bool arch_pebs_layout_for(struct arch_pebs_layout *l, u32 fields, u64 offered,
			  char *err, size_t errlen)
{
	*l = (struct arch_pebs_layout){
		.record_bytes = ARCH_PEBS_HEADER_BYTES + ARCH_PEBS_BASIC_BYTES,
		.latency_split = true,	/* struct arch_pebs_aux: instr [15:0], cache [47:32] */
	};
	if (fields & PEBS_MEM_FIELDS) {
		l->groups |= ARCH_PEBS_AUX;
		l->record_bytes += ARCH_PEBS_AUX_BYTES;
	}
	if (fields & BP_SAMPLE_REGS_INTR) {
		l->groups |= ARCH_PEBS_GPR;
		l->record_bytes += ARCH_PEBS_GPR_BYTES;
	}
	u64 missing = l->groups & ~offered;
	if (!missing)
		return true;
	bp_snprintf(err, errlen, "Architectural PEBS records on this CPU carry no %s group "
		    "(CPUID.23H.4:EBX bit %u clear), which %s need",
		    missing & ARCH_PEBS_AUX ? "aux (memory info)" : "GPR",
		    (unsigned)__builtin_ctzll(missing) - ARCH_PEBS_CAPS_SHIFT,
		    missing & ARCH_PEBS_AUX ? "data addresses, sources and latencies"
					    : "sampled registers");
	return false;
}

/* log2 of bytes / 4 KiB when bytes is a power of two in range, else -1. */
static int size_field(size_t bytes)
{
	if (bytes < ARCH_PEBS_MIN_BYTES || bytes > ARCH_PEBS_MAX_BYTES || (bytes & (bytes - 1)))
		return -1;
	return __builtin_ctzll(bytes) - ARCH_PEBS_PAGE_SHIFT;
}

bool arch_pebs_size_ok(size_t bytes, char *err, size_t errlen)
{
	bytes = bytes ? bytes : ARCH_PEBS_DEFAULT_BYTES;
	if (size_field(bytes) >= 0)
		return true;
	bp_snprintf(err, errlen, "Architectural PEBS buffer size %llu bytes: the buffer is "
		    "4 KiB << SIZE (IA32_PEBS_BASE[3:0]), a power of two from %u KiB to %u MiB",
		    (unsigned long long)bytes, ARCH_PEBS_MIN_BYTES / 1024, ARCH_PEBS_MAX_BYTES >> 20);
	return false;
}

bool arch_pebs_buf_init(struct arch_pebs_buf *b, size_t bytes, const struct arch_pebs_layout *l,
			char *err, size_t errlen)
{
	bp_memset(b, 0, sizeof(*b));
	if (!arch_pebs_size_ok(bytes, err, errlen))
		return false;
	bytes = bytes ? bytes : ARCH_PEBS_DEFAULT_BYTES;
	int size = size_field(bytes);
	if (bytes < l->record_bytes) {
		bp_snprintf(err, errlen, "Architectural PEBS buffer of %llu bytes holds no %u-byte "
			    "record", (unsigned long long)bytes, l->record_bytes);
		return false;
	}
	b->buffer = plat_alloc_pages(bytes >> ARCH_PEBS_PAGE_SHIFT);
	if (!b->buffer) {
		bp_snprintf(err, errlen, "no memory for the Architectural PEBS buffer (%llu KiB)",
			    (unsigned long long)bytes / 1024);
		return false;
	}
	b->bytes = bytes;
	b->layout = *l;
	b->base_msr = (u64)(uintptr_t)b->buffer | (u64)size;
	b->max_records = bytes / l->record_bytes;
	/* What the CPU has not written reads as consumed: a walk past it
	 * (a corrupt index) counts stale records, never decodes zeros. */
	bp_memset(b->buffer, 0xFF, bytes);
	arch_pebs_buf_set_threshold(b, 1);
	return true;
}

void arch_pebs_buf_free(struct arch_pebs_buf *b)
{
	if (b->buffer)
		plat_free_pages(b->buffer, b->bytes >> ARCH_PEBS_PAGE_SHIFT);
	b->buffer = NULL;
}

void arch_pebs_buf_set_threshold(struct arch_pebs_buf *b, u64 records)
{
	records = MIN(MAX(records, 1), b->max_records);
	b->thresh_units = records * b->layout.record_bytes >> ARCH_PEBS_UNIT_SHIFT;
}

u64 arch_pebs_index_armed(const struct arch_pebs_buf *b)
{
	return ARCH_PEBS_INDEX_EN | b->thresh_units << ARCH_PEBS_INDEX_THRESH_SHIFT;
}

u64 arch_pebs_cfg_c(const struct arch_pebs_layout *l, u64 period)
{
	return ARCH_PEBS_EN | l->groups | (-period & ARCH_PEBS_RELOAD);
}

/* ---- the drain ------------------------------------------------------------ */

static u64 hdr_of(const u8 *at) { return pebs_rec_u64(at, 0); }
static u32 hdr_size(u64 hdr) { return (u32)(hdr & ARCH_PEBS_HDR_SIZE_MASK); }

/* Linux arch_pebs_record_continued: CONT, or a header naming no group,
 * says another fragment of the record follows. */
static bool continued(u64 hdr)
{
	return (hdr & ARCH_PEBS_HDR_CONT) || !(hdr & ~(u64)GENMASK(15, 0));
}

/* One record's parts, found in its fragments. */
struct arch_rec {
	const u8 *basic, *aux;
	u32 bytes;		/* all its fragments */
};

/* Where a fragment's basic and aux groups are: basic first after the
 * header, aux right after it (struct arch_pebs_header's group order). */
static void find_groups(const u8 *frag, u64 hdr, struct arch_rec *r)
{
	u32 off = ARCH_PEBS_HEADER_BYTES;
	if (hdr & ARCH_PEBS_HDR_BASIC) {
		r->basic = frag + off;
		off += ARCH_PEBS_BASIC_BYTES;
	}
	if ((hdr & ARCH_PEBS_AUX) && off + ARCH_PEBS_AUX_BYTES <= hdr_size(hdr))
		r->aux = frag + off;
}

/* A fragment's header must state a size of whole 16-byte units, at least
 * the header and its basic group, inside [at, top). */
static bool fragment_ok(u64 hdr, u64 at, u64 top, struct pebs_loss *loss)
{
	u32 size = hdr_size(hdr);
	u32 least = ARCH_PEBS_HEADER_BYTES + (hdr & ARCH_PEBS_HDR_BASIC ? ARCH_PEBS_BASIC_BYTES : 0);
	if (size == 0) {
		loss->zero_size++;
		return false;
	}
	if (size < least || size % (1u << ARCH_PEBS_UNIT_SHIFT) || size > top - at) {
		loss->size_mismatch++;
		return false;
	}
	return true;
}

/* The record starting at `at` (its first fragment has the basic group),
 * followed through its fragments. False when one cannot be followed. */
static bool read_record(const u8 *buf, u64 at, u64 top, struct arch_rec *r, struct pebs_loss *loss)
{
	*r = (struct arch_rec){ 0 };
	/* each round moves on by a checked size >= 16, so at most top/16 rounds */
	for (u64 frag = at; frag < top;) {
		u64 hdr = hdr_of(buf + frag);
		if (!fragment_ok(hdr, frag, top, loss))
			return false;
		find_groups(buf + frag, hdr, r);
		frag += hdr_size(hdr);
		r->bytes = (u32)(frag - at);
		if (!continued(hdr))
			return true;
	}
	loss->size_mismatch++;	/* the last fragment says more follow */
	return false;
}

struct arch_walk {
	struct pebs_ctx *c;
	struct pebs_loss *loss;
	struct pebs_out out;
	bool latency_split;
};

static void decode(const struct arch_walk *w, const struct arch_rec *r, enum pebs_mem_kind mem,
		   struct bp_sample *s)
{
	s->ip = pebs_rec_u64(r->basic, ARCH_PEBS_BASIC_IP);
	s->tsc = pebs_rec_u64(r->basic, ARCH_PEBS_BASIC_TSC);
	s->flags |= BP_SAMPLE_PEBS | BP_SAMPLE_EXACT_IP | BP_SAMPLE_TIME;
	if (r->aux)
		pebs_decode_meminfo_fields(s, mem, &w->c->loads,
					   pebs_rec_u64(r->aux, ARCH_PEBS_AUX_ADDRESS),
					   pebs_rec_u64(r->aux, ARCH_PEBS_AUX_SOURCE),
					   pebs_rec_u64(r->aux, ARCH_PEBS_AUX_LATENCY), w->latency_split);
	/* The basic group's retire latency, when its valid bit says the CPU
	 * measured it, is perf's var3 (Linux setup_arch_pebs_sample_data). */
	u64 retire = pebs_rec_u64(r->basic, ARCH_PEBS_BASIC_RETIRE);
	if (retire & ARCH_PEBS_RETIRE_LAT_VALID) {
		s->weight |= (retire & ARCH_PEBS_RETIRE_LAT_MASK) << BP_WEIGHT_RETIRE_SHIFT;
		s->flags |= BP_SAMPLE_WEIGHT;
	}
}

/* One sample per enabled counter the record names; an orphan otherwise. */
static void attribute(struct arch_walk *w, const struct arch_rec *r)
{
	struct pebs_ctx *c = w->c;
	u64 bits = pebs_rec_u64(r->basic, ARCH_PEBS_BASIC_APPLICABLE) & c->enabled;
	w->loss->records++;
	if (!bits) {
		w->loss->found++;
		w->loss->lost[PEBS_LOST_ORPHAN]++;
		return;
	}
	for (; bits; bits &= bits - 1) {	/* at most 64 rounds */
		struct pebs_counter *pc = &c->counters[c->slot_of_bit[__builtin_ctzll(bits)]];
		struct bp_sample *s = pebs_out_sample(&w->out, c, w->loss, pc);
		if (s)
			decode(w, r, pc->mem, s);
	}
}

/* The bytes to walk: WR's, within our buffer. */
static u64 checked_top(const struct arch_pebs_buf *b, u64 index, struct pebs_loss *loss)
{
	u64 top = (index & ARCH_PEBS_INDEX_WR_MASK) >> ARCH_PEBS_INDEX_WR_SHIFT << ARCH_PEBS_UNIT_SHIFT;
	if (index & ARCH_PEBS_INDEX_FULL)
		loss->buffer_was_full++;
	if (top > b->bytes) {
		loss->index_beyond_max++;
		top = b->bytes;
	}
	return top;
}

u64 arch_pebs_drain(struct pebs_ctx *c, struct arch_pebs_buf *b, u64 index,
		    struct sample_ring *ring, struct pebs_loss *loss)
{
	struct arch_walk w = { .c = c, .loss = loss, .out = { .ring = ring },
			       .latency_split = b->layout.latency_split };
	u64 delivered_before = loss->delivered, top = checked_top(b, index, loss);
	u32 size = b->layout.record_bytes;
	if (top)
		loss->drains++;
	/* each round moves on by at least 16 bytes (a checked fragment) */
	for (u64 at = 0; at < top;) {
		u8 *rec = b->buffer + at;
		struct arch_rec r;
		if (hdr_of(rec) == PEBS_RECORD_CONSUMED) {
			pebs_loss_lose_stale(loss);
			at += size;
			continue;
		}
		if (!read_record(b->buffer, at, top, &r, loss)) {
			pebs_loss_lose_rest(loss, at, top, size);
			break;
		}
		/* Linux skips a fragment run without the basic group: not a
		 * record's start, no sample owed. */
		if (r.basic)
			attribute(&w, &r);
		*(pebs_u64_alias *)rec = PEBS_RECORD_CONSUMED;
		at += r.bytes;
	}
	pebs_out_publish(&w.out);
	return loss->delivered - delivered_before;
}

u64 arch_pebs_pending(const struct arch_pebs_buf *b)
{
	u64 n = 0;
	if (!b->buffer)
		return 0;
	for (u64 at = 0; at + ARCH_PEBS_HEADER_BYTES <= b->bytes;) {
		u64 hdr = hdr_of(b->buffer + at);
		u32 size = hdr_size(hdr);
		if (hdr == PEBS_RECORD_CONSUMED || size < ARCH_PEBS_HEADER_BYTES || size > b->bytes - at)
			break;
		n += (hdr & ARCH_PEBS_HDR_BASIC) != 0;
		at += size;
	}
	return n;
}
