/* The PEBS drain over arbitrary DS areas and buffers: any index, absolute
 * maximum, threshold and buffer base in the DS area (the drain must trust
 * only its own copies of the bounds), any record bytes, for formats 0..5.
 *
 * Input:
 *   [format % 6] [data_cfg u64: adaptive formats only] [raw: bit 7 keeps
 *   data_cfg as given, else it is masked to the groups we know]
 *   [records in the buffer: 1 + u8 % 8] [flags: bit 0 NHM data sources,
 *   bit 1 throttled] [ring capacity: 1 << (u8 % 6)] [counters: u8 % 6,
 *   then per counter: index u8 (bit 7: fixed [3:0], else GP [5:0]),
 *   period u32 (0 is refused), memory kind u8 % 3] [drains: 1 + u8 % 3]
 *   and per drain: [index mode u8, value u64] [absolute max, threshold,
 *   buffer base: u64 each, written to the DS area] [stamp u8: bit 0 right
 *   adaptive sizes, bit 1 applicable bits among the enabled counters];
 *   the record bytes are the rest of the input, repeated to fill the
 *   buffer (a later drain reads its values from the same bytes).
 *
 * The bytes past absolute max inside the buffer's pages are poisoned, so
 * ASan reports any read outside [base, absolute max). Checked after each
 * drain: found == delivered + lost (pebs_loss_balanced), the index is
 * back at base, the ring got exactly the delivered samples, each with the
 * event, period and CPU of a configured counter, and records attributed
 * to counters == found - orphans - corrupt. */
#include "fuzz/input.h"
#include "pebs/drain.h"
#include "events/event.h"
#include "arch/msr.h"
#include <sanitizer/asan_interface.h>

#define DATA_CFG_KNOWN (PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP | PEBS_DATACFG_XMMS | \
			PEBS_DATACFG_LBRS | GENMASK(31, PEBS_DATACFG_LBR_SHIFT))

struct fuzz_state {
	struct pebs_ds ds;
	struct pebs_ctx ctx;
	struct sample_ring ring;
	struct pebs_loss loss;
	u64 found_before;
};

static void add_counters(struct input *in, struct pebs_ctx *ctx)
{
	unsigned n = in_u8(in) % 6;
	for (unsigned i = 0; i < n; i++) {
		u8 idx = in_u8(in);
		struct pebs_counter pc = {
			.counter = idx & 0x80 ? counter_fixed(idx & 0xf) : counter_gp(idx & 0x3f),
			.event = ctx->ncounters,	/* its slot, for the checks */
			.period = in_u32(in),
			.mem = (enum pebs_mem_kind)(in_u8(in) % 3),
		};
		char err[120] = "";
		if (!pebs_ctx_add(ctx, &pc, err, sizeof(err)))
			FUZZ_CHECK(err[0] != 0);
	}
}

/* The CPU's index for this drain: on a record boundary, anywhere near the
 * buffer, below base, or any value at all. */
static u64 pick_index(struct input *in, const struct pebs_ds *ds)
{
	u8 mode = in_u8(in);
	u64 v = in_u64(in);
	switch (mode % 4) {
	case 0: return ds->base + (v % (ds->max_records + 2)) * ds->layout.record_size;
	case 1: return ds->base + v % (ds->abs_max - ds->base + 64);
	case 2: return ds->base - v % 4096;
	default: return v;
	}
}

/* Fills [base, abs_max) with the input's bytes, repeated; optionally
 * stamps each adaptive record with the right size and each record with
 * the enabled counters, so that deeper paths are reached more often. */
static void fill_buffer(struct input *in, const struct pebs_ds *ds, u64 enabled, u8 stamp)
{
	u8 *buf = ds->buffer;
	size_t bytes = ds->abs_max - ds->base, size = ds->layout.record_size;
	if (in->left) {
		for (size_t i = 0; i < bytes; i++)
			buf[i] = in->p[i % in->left];
	} else {
		memset(buf, 0, bytes);
	}
	for (size_t at = 0; at + size <= bytes; at += size) {
		u64 *basic = (u64 *)(buf + at);
		if ((stamp & 1) && ds->layout.adaptive)
			basic[0] = (basic[0] & GENMASK(47, 0)) | (u64)size << PEBS_BASIC_SIZE_SHIFT;
		if (stamp & 2) {
			u32 off = ds->layout.adaptive ? PEBS_BASIC_APPLICABLE : PEBS_REC_STATUS;
			if (ds->layout.format > 0)
				*(u64 *)(buf + at + off) = enabled & (basic[1] | (stamp >> 2));
		}
	}
}

static void check_samples(struct fuzz_state *st, u64 delivered)
{
	struct bp_sample s;
	u64 popped = 0;
	while (ring_pop(&st->ring, &s)) {
		popped++;
		FUZZ_CHECK(s.event < st->ctx.ncounters);
		FUZZ_CHECK(s.period == st->ctx.counters[s.event].period);
		FUZZ_CHECK(s.cpu == st->ctx.cpu);
		FUZZ_CHECK(s.flags & BP_SAMPLE_PEBS);
	}
	FUZZ_CHECK(popped == delivered);
}

static void check_accounting(const struct fuzz_state *st)
{
	const struct pebs_loss *l = &st->loss;
	u64 attributed = 0;
	char line[96];
	for (unsigned i = 0; i < st->ctx.ncounters; i++)
		attributed += st->ctx.counters[i].records;
	FUZZ_CHECK(pebs_loss_balanced(l));
	FUZZ_CHECK(attributed == l->found - l->lost[PEBS_LOST_ORPHAN] - l->lost[PEBS_LOST_CORRUPT]);
	FUZZ_CHECK(st->ds.area->pebs_index == st->ds.base);
	int n = pebs_loss_describe(l, line, sizeof(line));
	FUZZ_CHECK(n >= 0 && memchr(line, 0, sizeof(line)));
	FUZZ_CHECK(strlen(line) == (size_t)MIN((size_t)n, sizeof(line) - 1));
}

static void drain_once(struct input *in, struct fuzz_state *st)
{
	struct ds_area *area = st->ds.area;
	u64 index = pick_index(in, &st->ds);
	area->pebs_absolute_maximum = in_u64(in);
	area->pebs_interrupt_threshold = in_u64(in);
	area->pebs_buffer_base = in_u64(in);
	u8 stamp = in_u8(in);
	fill_buffer(in, &st->ds, st->ctx.enabled, stamp);
	area->pebs_index = index;
	u64 delivered = pebs_drain(&st->ctx, &st->ring, &st->loss);
	check_samples(st, delivered);
	check_accounting(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct fuzz_state st;
	struct pebs_layout layout;
	char err[160];

	memset(&st, 0, sizeof(st));
	u8 format = in_u8(&in) % 6;
	u64 cfg = format >= 4 ? in_u64(&in) : 0;
	if (!(in_u8(&in) & 0x80))
		cfg &= DATA_CFG_KNOWN;
	if (!pebs_layout_init(&layout, format, cfg, err, sizeof(err))) {
		FUZZ_CHECK(err[0] != 0);
		return 0;
	}
	u32 records = 1 + in_u8(&in) % 8;
	u8 flags = in_u8(&in);
	FUZZ_CHECK(pebs_ds_init(&st.ds, &layout, (size_t)records * layout.record_size,
				err, sizeof(err)));
	FUZZ_CHECK(ring_alloc(&st.ring, 1u << (in_u8(&in) % 6)));
	pebs_ctx_init(&st.ctx, &st.ds, flags & 1 ? PEBS_DSE_NHM : PEBS_DSE_SNB, 7);
	st.ctx.throttled = flags & 2;
	add_counters(&in, &st.ctx);

	/* Nothing may be read between absolute max and the end of the pages. */
	u8 *end = st.ds.buffer + st.ds.buffer_pages * PEBS_PAGE_SIZE;
	u8 *abs_max = (u8 *)(uintptr_t)st.ds.abs_max;
	ASAN_POISON_MEMORY_REGION(abs_max, (size_t)(end - abs_max));
	unsigned drains = 1 + in_u8(&in) % 3;
	for (unsigned i = 0; i < drains; i++)
		drain_once(&in, &st);
	ASAN_UNPOISON_MEMORY_REGION(abs_max, (size_t)(end - abs_max));

	ring_free(&st.ring);
	pebs_ds_free(&st.ds);
	return 0;
}
