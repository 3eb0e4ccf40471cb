/* pebs/drain: attribution, corruption handling and loss accounting over
 * synthetic DS areas for every record format. Every test ends by checking
 * the accounting invariant found == delivered + lost. */
#include "test.h"
#include "pebs/drain.h"
#include "events/event.h"
#include "arch/msr.h"
#include "pebs_synth.h"

struct fix {
	struct pebs_ds ds;
	struct pebs_ctx ctx;
	struct sample_ring ring;
	struct pebs_loss loss;
};

static void fix_init(struct fix *f, u8 fmt, u64 cfg, size_t bytes, u32 ring_cap)
{
	struct pebs_layout l;
	char err[160];
	memset(f, 0, sizeof(*f));
	assert_true(pebs_layout_init(&l, fmt, cfg, err, sizeof(err)));
	assert_true(pebs_ds_init(&f->ds, &l, bytes, err, sizeof(err)));
	assert_true(ring_alloc(&f->ring, ring_cap));
	pebs_ctx_init(&f->ctx, &f->ds, PEBS_DSE_SNB, 3);
}

static void fix_free(struct fix *f)
{
	assert_true(pebs_loss_balanced(&f->loss));	/* the invariant, always */
	pebs_ds_free(&f->ds);
	ring_free(&f->ring);
}

static void add(struct fix *f, int counter, u32 event, u64 period, enum pebs_mem_kind mem)
{
	struct pebs_counter pc = { .counter = counter, .event = event, .period = period, .mem = mem };
	char err[120];
	assert_true(pebs_ctx_add(&f->ctx, &pc, err, sizeof(err)));
}

/* Writes a record at the index and advances it, as the CPU does. */
static void cpu_write(struct fix *f, const struct synth_rec *r)
{
	u64 at = f->ds.area->pebs_index;
	assert_true(at + f->ds.layout.record_size <= f->ds.abs_max);
	f->ds.area->pebs_index = at + synth_write(&f->ds.layout, (void *)(uintptr_t)at, r);
}

static struct synth_rec rec_for(u64 applicable, u64 n)
{
	struct synth_rec r = {
		.ip = 0x1001 + n, .eventing_ip = 0x1000 + n, .applicable = applicable,
		.tsc = 1000 + n, .addr = 0x8000 + n, .dse = 0x1, .latency = 10 + n,
	};
	return r;
}

/* The CPU writes n records for the counters in applicable. */
static void cpu_write_n(struct fix *f, u64 applicable, u64 n)
{
	for (u64 i = 0; i < n; i++) {
		struct synth_rec r = rec_for(applicable, i);
		cpu_write(f, &r);
	}
}

static u64 cfg_for(u8 fmt)
{
	return fmt >= 4 ? PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP : 0;
}

/* One PEBS counter, each format: one sample per record, period and event
 * from the counter, fields per format; the index goes back to base. */
static void test_drain_each_format(void **state)
{
	for (u8 fmt = 0; fmt <= 5; fmt++) {
		struct fix f;
		fix_init(&f, fmt, cfg_for(fmt), 0, 64);
		add(&f, counter_gp(0), 4, 10007, PEBS_MEM_LOAD);
		cpu_write_n(&f, BIT(0), 5);
		f.ctx.drain_tsc = 777777;	/* the PMI's time */
		assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 5);
		assert_int_equal(f.ds.area->pebs_index, f.ds.base);
		assert_int_equal(f.loss.records, 5);
		assert_int_equal(f.loss.delivered, 5);
		assert_int_equal(pebs_counter_events(&f.ctx, 0), 5 * 10007);	/* records x period */
		struct bp_sample s;
		for (u64 i = 0; i < 5; i++) {
			assert_true(ring_pop(&f.ring, &s));
			assert_int_equal(s.event, 4);
			assert_int_equal(s.period, 10007);
			assert_int_equal(s.cpu, 3);
			assert_int_equal(s.ip, fmt >= 2 ? 0x1000 + i : 0x1001 + i);
			assert_int_equal(!!(s.flags & BP_SAMPLE_EXACT_IP), fmt >= 2);
			/* Formats 0-2 carry no TSC: the drain's time, so that
			 * perf orders them after the COMM and MMAP records. */
			assert_int_equal(s.tsc, fmt >= 3 ? 1000 + i : 777777);
			assert_true(s.flags & BP_SAMPLE_TIME);
			assert_int_equal(s.addr, fmt >= 1 ? 0x8000 + i : 0);
			assert_int_equal(s.weight, fmt >= 1 ? 10 + i : 0);
		}
		assert_false(ring_pop(&f.ring, &s));
		/* drained: a second drain finds nothing */
		assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 0);
		assert_int_equal(f.loss.records, 5);
		fix_free(&f);
	}
}

/* SDM: from format 3 the applicable-counters field is exact: one sample
 * for each enabled PEBS counter whose bit is set. */
static void test_drain_fmt3_multi_counter(void **state)
{
	for (u8 fmt = 3; fmt <= 5; fmt++) {
		struct fix f;
		fix_init(&f, fmt, cfg_for(fmt), 0, 64);
		add(&f, counter_gp(0), 0, 1000, PEBS_MEM_NONE);
		add(&f, counter_gp(1), 1, 2000, PEBS_MEM_LOAD);
		add(&f, counter_fixed(0), 2, 3000, PEBS_MEM_NONE);
		struct synth_rec r = rec_for(BIT(0) | BIT(1) | BIT(32) | BIT(5), 0);	/* GP5: not PEBS */
		cpu_write(&f, &r);
		r = rec_for(BIT(1), 1);
		cpu_write(&f, &r);
		assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 4);
		assert_int_equal(f.loss.records, 2);
		struct bp_sample s;
		u32 events[4];
		u64 periods[4];
		for (int i = 0; i < 4; i++) {
			assert_true(ring_pop(&f.ring, &s));
			events[i] = s.event;
			periods[i] = s.period;
		}
		assert_int_equal(events[0], 0);
		assert_int_equal(events[1], 1);
		assert_int_equal(events[2], 2);
		assert_int_equal(events[3], 1);
		assert_int_equal(periods[2], 3000);
		assert_int_equal(pebs_counter_events(&f.ctx, 1), 2 * 2000);
		assert_int_equal(f.loss.lost[PEBS_LOST_COLLISION], 0);
		fix_free(&f);
	}
}

/* Before format 3 a record with several PEBS counters set is a collision:
 * dropped and counted (one lost sample per counter involved). */
static void test_drain_collision_pre_fmt3(void **state)
{
	for (u8 fmt = 1; fmt <= 2; fmt++) {
		struct fix f;
		fix_init(&f, fmt, 0, 0, 64);
		add(&f, counter_gp(0), 0, 1000, PEBS_MEM_NONE);
		add(&f, counter_gp(1), 1, 1000, PEBS_MEM_NONE);
		struct synth_rec r = rec_for(BIT(0), 0);
		cpu_write(&f, &r);
		r = rec_for(BIT(0) | BIT(1), 1);	/* collision */
		cpu_write(&f, &r);
		r = rec_for(BIT(1) | BIT(6), 2);	/* GP6 not PEBS: no collision */
		cpu_write(&f, &r);
		assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 2);
		assert_int_equal(f.loss.records, 3);
		assert_int_equal(f.loss.lost[PEBS_LOST_COLLISION], 2);
		assert_int_equal(f.loss.found, 4);
		/* both counters still overflowed twice: counts stay right */
		assert_int_equal(f.ctx.counters[0].records, 2);
		assert_int_equal(f.ctx.counters[1].records, 2);
		struct bp_sample s;
		assert_true(ring_pop(&f.ring, &s));
		assert_int_equal(s.ip, 0x1001 + (fmt >= 2 ? -1 : 0));
		assert_true(ring_pop(&f.ring, &s));
		assert_int_equal(s.event, 1);
		fix_free(&f);
	}
}

/* A record for no enabled PEBS counter is an orphan; so is one with a
 * status of 0 when two PEBS counters are enabled (with one, Linux's
 * intel_pmu_drain_pebs_nhm takes it for that counter:
 * test_sampling_pebs.c test_zero_status_records). */
static void test_drain_orphan(void **state)
{
	struct fix f;
	fix_init(&f, 3, 0, 0, 64);
	add(&f, counter_gp(2), 0, 500, PEBS_MEM_NONE);
	add(&f, counter_gp(3), 0, 500, PEBS_MEM_NONE);
	struct synth_rec r = rec_for(BIT(0), 0);	/* not an enabled PEBS counter */
	cpu_write(&f, &r);
	r = rec_for(0, 1);
	cpu_write(&f, &r);
	r = rec_for(BIT(2), 2);
	cpu_write(&f, &r);
	assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 1);
	assert_int_equal(f.loss.lost[PEBS_LOST_ORPHAN], 2);
	assert_int_equal(f.loss.found, 3);
	fix_free(&f);
}

/* Format 0 records have no status field: they belong to the one counter. */
static void test_drain_fmt0_single_counter(void **state)
{
	struct fix f;
	fix_init(&f, 0, 0, 0, 64);
	add(&f, counter_gp(0), 9, 100, PEBS_MEM_NONE);
	for (u64 i = 0; i < 28; i++) {	/* one page holds 28 records */
		struct synth_rec r = rec_for(0, i);
		cpu_write(&f, &r);
	}
	assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 28);
	assert_int_equal(f.loss.buffer_was_full, 1);
	fix_free(&f);
}

/* An index past absolute max is clamped: only [base, abs max) is read. */
static void test_drain_index_beyond_max(void **state)
{
	struct fix f;
	fix_init(&f, 3, 0, 4096, 64);		/* 20 records of 200 B */
	add(&f, counter_gp(0), 0, 100, PEBS_MEM_NONE);
	cpu_write_n(&f, BIT(0), f.ds.max_records);
	f.ds.area->pebs_index = f.ds.abs_max + 100 * 200;	/* corrupt */
	assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 20);
	assert_int_equal(f.loss.index_beyond_max, 1);
	assert_int_equal(f.loss.records, 20);
	assert_int_equal(f.ds.area->pebs_index, f.ds.base);
	char line[300];
	pebs_loss_describe(&f.loss, line, sizeof(line));
	assert_non_null(strstr(line, "index beyond absolute max 1"));
	fix_free(&f);
}

static void test_drain_index_below_base(void **state)
{
	struct fix f;
	fix_init(&f, 4, 0, 0, 64);
	add(&f, counter_gp(0), 0, 100, PEBS_MEM_NONE);
	struct synth_rec r = rec_for(BIT(0), 0);
	cpu_write(&f, &r);
	f.ds.area->pebs_index = f.ds.base - 32;
	assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 0);
	assert_int_equal(f.loss.index_below_base, 1);
	assert_int_equal(f.loss.records, 0);
	assert_int_equal(f.ds.area->pebs_index, f.ds.base);	/* repaired */
	f.ds.area->pebs_index = 0;
	assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 0);
	assert_int_equal(f.loss.index_below_base, 2);
	fix_free(&f);
}

/* An index that is not a whole number of records: the partial record is
 * not followed and is counted as one corrupt record. */
static void test_drain_index_misaligned(void **state)
{
	for (u8 fmt = 1; fmt <= 5; fmt += 4) {
		struct fix f;
		fix_init(&f, fmt, cfg_for(fmt), 0, 64);
		add(&f, counter_gp(0), 0, 100, PEBS_MEM_NONE);
		cpu_write_n(&f, BIT(0), 3);
		f.ds.area->pebs_index += 8;
		assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 3);
		assert_int_equal(f.loss.index_misaligned, 1);
		assert_int_equal(f.loss.lost[PEBS_LOST_CORRUPT], 1);
		fix_free(&f);
	}
}

/* A drained record stays in memory; a clamped index walks over it again.
 * It is recognised as consumed (the mark the drain leaves: all-ones in
 * applicable counters, in RFLAGS on format 0, whose bits 63:22 are
 * reserved zero per SDM Vol. 1 3.4.3) and counted stale and lost as
 * corrupt, never delivered a second time. Slots never written read as
 * consumed too. Every format. */
static void test_drain_stale_after_clamp(void **state)
{
	for (u8 fmt = 0; fmt <= 5; fmt++) {
		struct fix f;
		fix_init(&f, fmt, cfg_for(fmt), 0, 64);
		add(&f, counter_gp(0), 0, 100, PEBS_MEM_NONE);
		cpu_write_n(&f, BIT(0), 2);
		assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 2);
		cpu_write_n(&f, BIT(0), 1);	/* over the first, at base */
		f.ds.area->pebs_index = f.ds.abs_max + 4096;
		u64 lost_before = f.loss.lost[PEBS_LOST_CORRUPT];
		if (pebs_drain(&f.ctx, &f.ring, &f.loss) != 1)
			fail_msg("fmt %u: a consumed record was delivered again", fmt);
		assert_int_equal(f.loss.index_beyond_max, 1);
		assert_int_equal(f.loss.stale_records, f.ds.max_records - 1);
		assert_int_equal(f.loss.lost[PEBS_LOST_CORRUPT] - lost_before, f.ds.max_records - 1);
		assert_int_equal(f.loss.delivered, 3);
		char line[400];
		pebs_loss_describe(&f.loss, line, sizeof(line));
		assert_non_null(strstr(line, "stale record"));
		fix_free(&f);
	}
}

/* Adaptive records state their size: a zero size would loop forever, a
 * wrong one would misparse everything after it. Neither is followed. */
static void test_drain_adaptive_bad_sizes(void **state)
{
	for (int bad = 0; bad < 2; bad++) {
		struct fix f;
		fix_init(&f, 4, PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP, 0, 64);	/* 208 B */
		add(&f, counter_gp(0), 0, 100, PEBS_MEM_LOAD);
		for (u64 i = 0; i < 5; i++) {
			struct synth_rec r = rec_for(BIT(0), i);
			if (i == 2)
				r.stated_size = bad ? 64 : 0;
			cpu_write(&f, &r);
			if (i == 2 && !bad) {	/* synth writes the layout size for 0 */
				u64 *fs = (u64 *)(uintptr_t)(f.ds.area->pebs_index - 208);
				*fs &= GENMASK(47, 0);
			}
		}
		assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 2);
		assert_int_equal(f.loss.zero_size, bad ? 0 : 1);
		assert_int_equal(f.loss.size_mismatch, bad ? 1 : 0);
		assert_int_equal(f.loss.lost[PEBS_LOST_CORRUPT], 3);	/* records 2..4 */
		assert_int_equal(ring_count(&f.ring), 2);
		assert_int_equal(f.ds.area->pebs_index, f.ds.base);
		fix_free(&f);
	}
}

/* A full buffer: every record the CPU wrote is delivered; the records it
 * could not write are added by the caller as buffer-full losses. */
static void test_drain_full_buffer(void **state)
{
	struct fix f;
	fix_init(&f, 5, PEBS_DATACFG_MEMINFO, 8192, 512);	/* 128 records of 64 B */
	add(&f, counter_fixed(0), 0, 100, PEBS_MEM_NONE);
	cpu_write_n(&f, BIT(32), f.ds.max_records);
	assert_int_equal(f.ds.area->pebs_index, f.ds.abs_max);
	assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 128);
	assert_int_equal(f.loss.buffer_was_full, 1);
	pebs_loss_add_buffer_full(&f.loss, 7);
	assert_int_equal(f.loss.lost[PEBS_LOST_BUFFER_FULL], 7);
	assert_int_equal(f.loss.found, 135);
	char line[300];
	pebs_loss_describe(&f.loss, line, sizeof(line));
	assert_string_equal(line, "PEBS: 128 records, 128 samples delivered, 7 lost (buffer full 7); "
			    "buffer reached absolute max 1 times");
	fix_free(&f);
}

/* A full ring drops new samples and counts them; the ring's own drop
 * counter agrees. */
static void test_drain_ring_full(void **state)
{
	struct fix f;
	fix_init(&f, 3, 0, 0, 4);
	add(&f, counter_gp(0), 0, 100, PEBS_MEM_NONE);
	cpu_write_n(&f, BIT(0), 10);
	assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 4);
	assert_int_equal(f.loss.lost[PEBS_LOST_RING_FULL], 6);
	assert_int_equal(ring_dropped(&f.ring), 6);
	struct bp_sample s;
	assert_true(ring_pop(&f.ring, &s));
	assert_int_equal(s.ip, 0x1000);	/* the oldest survive */
	assert_int_equal(pebs_counter_events(&f.ctx, 0), 10 * 100);
	fix_free(&f);
}

static void test_drain_throttled(void **state)
{
	struct fix f;
	fix_init(&f, 3, 0, 0, 64);
	add(&f, counter_gp(0), 0, 100, PEBS_MEM_NONE);
	f.ctx.throttled = true;
	cpu_write_n(&f, BIT(0), 3);
	assert_int_equal(pebs_drain(&f.ctx, &f.ring, &f.loss), 0);
	assert_int_equal(f.loss.lost[PEBS_LOST_THROTTLED], 3);
	assert_int_equal(ring_count(&f.ring), 0);
	fix_free(&f);
}

static void test_ctx_add_checks(void **state)
{
	struct fix f;
	char err[120];
	fix_init(&f, 3, 0, 0, 4);
	struct pebs_counter pc = { .counter = 64, .period = 1 };
	assert_false(pebs_ctx_add(&f.ctx, &pc, err, sizeof(err)));
	assert_non_null(strstr(err, "64"));
	pc.counter = 1;
	pc.period = 0;
	assert_false(pebs_ctx_add(&f.ctx, &pc, err, sizeof(err)));
	assert_non_null(strstr(err, "period 0"));
	pc.period = 5;
	assert_true(pebs_ctx_add(&f.ctx, &pc, err, sizeof(err)));
	assert_false(pebs_ctx_add(&f.ctx, &pc, err, sizeof(err)));
	assert_non_null(strstr(err, "twice"));
	assert_int_equal(f.ctx.enabled, BIT(1));
	fix_free(&f);
}

/* Many drains with every kind of trouble mixed: the invariant holds. */
static void test_drain_invariant_mixed(void **state)
{
	struct fix f;
	fix_init(&f, 2, 0, 8192, 16);
	add(&f, counter_gp(0), 0, 100, PEBS_MEM_NONE);
	add(&f, counter_gp(3), 1, 100, PEBS_MEM_LOAD);
	u64 seed = 12345;
	for (int round = 0; round < 50; round++) {
		u64 n = round % 40;
		for (u64 i = 0; i < n && f.ds.area->pebs_index + 192 <= f.ds.abs_max; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			u64 bits = (seed >> 33) & (BIT(0) | BIT(3) | BIT(4));
			struct synth_rec r = rec_for(bits, i);
			cpu_write(&f, &r);
		}
		if (round % 7 == 3)
			f.ds.area->pebs_index += 16;	/* misaligned */
		if (round % 11 == 5)
			f.ds.area->pebs_index = f.ds.abs_max + 4096;
		f.ctx.throttled = round % 13 == 0;
		pebs_drain(&f.ctx, &f.ring, &f.loss);
		assert_true(pebs_loss_balanced(&f.loss));
		struct bp_sample s;
		while (round % 2 && ring_pop(&f.ring, &s))
			;
	}
	assert_true(f.loss.lost[PEBS_LOST_COLLISION] > 0);
	assert_true(f.loss.lost[PEBS_LOST_RING_FULL] > 0);
	assert_true(f.loss.lost[PEBS_LOST_ORPHAN] > 0);
	assert_true(f.loss.lost[PEBS_LOST_CORRUPT] > 0);
	assert_true(f.loss.lost[PEBS_LOST_THROTTLED] > 0);
	fix_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drain_each_format),
		cmocka_unit_test(test_drain_fmt3_multi_counter),
		cmocka_unit_test(test_drain_collision_pre_fmt3),
		cmocka_unit_test(test_drain_orphan),
		cmocka_unit_test(test_drain_fmt0_single_counter),
		cmocka_unit_test(test_drain_index_beyond_max),
		cmocka_unit_test(test_drain_index_below_base),
		cmocka_unit_test(test_drain_index_misaligned),
		cmocka_unit_test(test_drain_stale_after_clamp),
		cmocka_unit_test(test_drain_adaptive_bad_sizes),
		cmocka_unit_test(test_drain_full_buffer),
		cmocka_unit_test(test_drain_ring_full),
		cmocka_unit_test(test_drain_throttled),
		cmocka_unit_test(test_ctx_add_checks),
		cmocka_unit_test(test_drain_invariant_mixed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
