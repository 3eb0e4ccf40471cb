/* pebs/arch: Architectural PEBS's buffer, CFG_C and INDEX values, and the
 * drain over records written here as the CPU lays them out (Linux 6.19
 * struct arch_pebs_header and groups, arch/x86/include/asm/perf_event.h;
 * intel_pmu_drain_arch_pebs, arch/x86/events/intel/ds.c). Every drain test
 * ends by checking the accounting invariant found == delivered + lost. */
#include "test.h"
#include "pebs/arch.h"
#include "arch/msr.h"
#include "events/event.h"

struct fix {
	struct arch_pebs_buf buf;
	struct pebs_ctx ctx;
	struct sample_ring ring;
	struct pebs_loss loss;
	u64 wr;			/* bytes the "CPU" wrote */
};

static void fix_init(struct fix *f, u32 fields, size_t bytes, u32 ring_cap)
{
	struct arch_pebs_layout l;
	char err[200];
	memset(f, 0, sizeof(*f));
	assert_true(arch_pebs_layout_for(&l, fields, ARCH_PEBS_AUX | ARCH_PEBS_GPR, err, sizeof(err)));
	assert_true(arch_pebs_buf_init(&f->buf, bytes, &l, err, sizeof(err)));
	assert_true(ring_alloc(&f->ring, ring_cap));
	pebs_ctx_init(&f->ctx, NULL, PEBS_DSE_SNB, 5);
}

static void fix_free(struct fix *f)
{
	assert_true(pebs_loss_balanced(&f->loss));
	arch_pebs_buf_free(&f->buf);
	ring_free(&f->ring);
}

static void add(struct fix *f, int counter, u32 event, u64 period, enum pebs_mem_kind mem)
{
	struct pebs_counter pc = { .counter = counter, .event = event, .period = period, .mem = mem };
	char err[120];
	assert_true(pebs_ctx_add(&f->ctx, &pc, err, sizeof(err)));
}

static void put(u8 *at, u32 off, u64 v) { memcpy(at + off, &v, sizeof(v)); }

/* One fragment at f->wr: a header with these groups, the basic group
 * when asked, the aux group when asked, then pad bytes (groups the
 * drain does not read). Returns its size. */
struct frag {
	bool basic, aux, cont;
	u64 extra_hdr_bits;	/* other group bits the header states */
	u32 pad;		/* bytes after the groups written */
	u64 ip, applicable, tsc, addr, src;
	u16 instr_lat, cache_lat;
	u64 retire;		/* the basic group's retire latency word; 0: 7, valid */
};

static u32 cpu_write_frag(struct fix *f, const struct frag *fr)
{
	u8 *at = f->buf.buffer + f->wr;
	u32 size = ARCH_PEBS_HEADER_BYTES + (fr->basic ? ARCH_PEBS_BASIC_BYTES : 0) +
		   (fr->aux ? ARCH_PEBS_AUX_BYTES : 0) + fr->pad;
	u64 hdr = size | (fr->basic ? ARCH_PEBS_HDR_BASIC : 0) | (fr->aux ? ARCH_PEBS_AUX : 0) |
		  (fr->cont ? ARCH_PEBS_HDR_CONT : 0) | fr->extra_hdr_bits;
	assert_true(f->wr + size <= f->buf.bytes);
	memset(at, 0, size);
	put(at, 0, hdr);
	u32 off = ARCH_PEBS_HEADER_BYTES;
	if (fr->basic) {
		put(at, off + ARCH_PEBS_BASIC_IP, fr->ip);
		put(at, off + ARCH_PEBS_BASIC_APPLICABLE, fr->applicable);
		put(at, off + ARCH_PEBS_BASIC_TSC, fr->tsc);
		put(at, off + ARCH_PEBS_BASIC_RETIRE,
		    fr->retire ? fr->retire : 7 | ARCH_PEBS_RETIRE_LAT_VALID);
		off += ARCH_PEBS_BASIC_BYTES;
	}
	if (fr->aux) {
		put(at, off + ARCH_PEBS_AUX_ADDRESS, fr->addr);
		put(at, off + ARCH_PEBS_AUX_SOURCE, fr->src);
		put(at, off + ARCH_PEBS_AUX_LATENCY,
		    (u64)fr->cache_lat << PEBS_MEMINFO_CACHE_LAT_SHIFT | fr->instr_lat);
	}
	f->wr += size;
	return size;
}

/* A whole one-fragment record with the layout's groups. */
static void cpu_write_rec(struct fix *f, u64 applicable, u64 n)
{
	struct frag fr = { .basic = true, .aux = f->buf.layout.groups & ARCH_PEBS_AUX,
			   .ip = 0x4000 + n, .applicable = applicable, .tsc = 9000 + n,
			   .addr = 0x8000 + n, .src = 0x1, .instr_lat = 3, .cache_lat = (u16)(20 + n) };
	cpu_write_frag(f, &fr);
}

static u64 index_now(const struct fix *f, bool full)
{
	return (f->wr >> ARCH_PEBS_UNIT_SHIFT << ARCH_PEBS_INDEX_WR_SHIFT) |
	       (full ? ARCH_PEBS_INDEX_FULL : 0) | arch_pebs_index_armed(&f->buf);
}

static u64 drain(struct fix *f, bool full)
{
	u64 n = arch_pebs_drain(&f->ctx, &f->buf, index_now(f, full), &f->ring, &f->loss);
	f->wr = 0;	/* the caller re-armed INDEX: the CPU starts at the base */
	return n;
}

static struct bp_sample pop(struct fix *f)
{
	struct bp_sample s;
	assert_true(ring_pop(&f->ring, &s));
	return s;
}

/* The register values: IA32_PEBS_BASE is the buffer's address with SIZE
 * = log2(bytes / 4 KiB); the default buffer is 1 MiB (16x Linux's 64 KiB);
 * INDEX armed is EN with THRESH in 16-byte units; CFG_C is EN, the
 * groups and -period in [31:0] (Linux intel_pmu_enable_event_ext). */
static void test_register_values(void **state)
{
	struct fix f;
	fix_init(&f, PEBS_MEM_FIELDS, 0, 8);
	assert_int_equal(f.buf.bytes, 1u << 20);
	assert_int_equal(f.buf.base_msr & ARCH_PEBS_BASE_SIZE_MASK, 8);
	assert_int_equal(f.buf.base_msr & ARCH_PEBS_BASE_ADDR_MASK, (u64)(uintptr_t)f.buf.buffer);
	assert_int_equal(f.buf.layout.record_bytes, 16 + 48 + 64);
	assert_int_equal(f.buf.max_records, (1u << 20) / 128);
	assert_int_equal(arch_pebs_index_armed(&f.buf),
			 ARCH_PEBS_INDEX_EN | (128ull >> 4) << ARCH_PEBS_INDEX_THRESH_SHIFT);
	arch_pebs_buf_set_threshold(&f.buf, 100);
	assert_int_equal(f.buf.thresh_units, 100 * 128 / 16);
	arch_pebs_buf_set_threshold(&f.buf, 1ull << 40);	/* clamped to the buffer */
	assert_int_equal(f.buf.thresh_units, f.buf.max_records * 128 / 16);
	assert_int_equal(arch_pebs_cfg_c(&f.buf.layout, 100003),
			 ARCH_PEBS_EN | ARCH_PEBS_AUX | (0x100000000ull - 100003));
	fix_free(&f);
}

/* Buffer sizes are 4 KiB << SIZE: others are refused with the reason. */
static void test_buffer_sizes(void **state)
{
	struct arch_pebs_layout l;
	struct arch_pebs_buf b;
	char err[200];
	assert_true(arch_pebs_layout_for(&l, 0, 0, err, sizeof(err)));
	assert_false(arch_pebs_buf_init(&b, 100000, &l, err, sizeof(err)));
	assert_non_null(strstr(err, "power of two"));
	assert_false(arch_pebs_buf_init(&b, 2048, &l, err, sizeof(err)));
	assert_false(arch_pebs_buf_init(&b, (size_t)128 << 20, &l, err, sizeof(err)));
	assert_true(arch_pebs_buf_init(&b, 4096, &l, err, sizeof(err)));
	assert_int_equal(b.base_msr & ARCH_PEBS_BASE_SIZE_MASK, 0);
	arch_pebs_buf_free(&b);
}

/* A group the CPU does not offer (CPUID.23H.4) is refused, named. */
static void test_groups_not_offered(void **state)
{
	struct arch_pebs_layout l;
	char err[200];
	assert_false(arch_pebs_layout_for(&l, BP_SAMPLE_ADDR, ARCH_PEBS_GPR, err, sizeof(err)));
	assert_non_null(strstr(err, "aux"));
	assert_non_null(strstr(err, "bit 30"));
	assert_true(arch_pebs_layout_for(&l, BP_SAMPLE_IP, 0, err, sizeof(err)));
	assert_int_equal(l.groups, 0);
}

/* Each record: the eventing IP, TSC, and for a load the address, data
 * source and cache latency ([47:32]); the period and event of its
 * counter; pending() counts what is unread, none after the drain. */
static void test_drain_records(void **state)
{
	struct fix f;
	fix_init(&f, PEBS_MEM_FIELDS, 0, 64);
	add(&f, counter_gp(1), 7, 20011, PEBS_MEM_LOAD);
	for (u64 n = 0; n < 10; n++)
		cpu_write_rec(&f, BIT(1), n);
	assert_int_equal(arch_pebs_pending(&f.buf), 10);
	assert_int_equal(drain(&f, false), 10);
	for (u64 n = 0; n < 10; n++) {
		struct bp_sample s = pop(&f);
		assert_int_equal(s.ip, 0x4000 + n);
		assert_int_equal(s.tsc, 9000 + n);
		assert_int_equal(s.addr, 0x8000 + n);
		/* perf's weight struct: the cache latency (var1), the
		 * instruction's (var2), the retire latency (var3) */
		assert_int_equal(s.weight, (20 + n) | 3ull << BP_WEIGHT_INSTR_SHIFT |
					   7ull << BP_WEIGHT_RETIRE_SHIFT);
		assert_true(s.flags & BP_SAMPLE_WEIGHT);
		assert_int_equal(s.period, 20011);
		assert_int_equal(s.event, 7);
		assert_int_equal(s.cpu, 5);
		assert_true(s.flags & BP_SAMPLE_EXACT_IP);
		assert_true(s.flags & BP_SAMPLE_DATA_SRC);
	}
	assert_int_equal(arch_pebs_pending(&f.buf), 0);
	assert_int_equal(f.loss.records, 10);
	fix_free(&f);
}

/* The basic group's retire latency (bits 15:0, valid bit 16; Linux
 * struct arch_pebs_basic, setup_arch_pebs_sample_data) is every sample's
 * var3, memory event or not; without the valid bit the sample has none. */
static void test_retire_latency(void **state)
{
	struct fix f;
	fix_init(&f, 0, 0, 64);
	add(&f, counter_gp(0), 1, 1000, PEBS_MEM_NONE);
	struct frag valid = { .basic = true, .ip = 0x5000, .applicable = BIT(0),
			      .retire = 0xBEEF | ARCH_PEBS_RETIRE_LAT_VALID };
	struct frag invalid = { .basic = true, .ip = 0x5001, .applicable = BIT(0),
				.retire = 0xBEEF };
	cpu_write_frag(&f, &valid);
	cpu_write_frag(&f, &invalid);
	assert_int_equal(drain(&f, false), 2);
	struct bp_sample s = pop(&f);
	assert_int_equal(s.weight, 0xBEEFull << BP_WEIGHT_RETIRE_SHIFT);
	assert_true(s.flags & BP_SAMPLE_WEIGHT);
	assert_false(s.flags & (BP_SAMPLE_ADDR | BP_SAMPLE_DATA_SRC));
	s = pop(&f);
	assert_int_equal(s.weight, 0);
	assert_false(s.flags & BP_SAMPLE_WEIGHT);
	fix_free(&f);
}

/* A record for two PEBS counters gives each a sample; one for no enabled
 * counter is an orphan, lost. */
static void test_applicable_counters(void **state)
{
	struct fix f;
	fix_init(&f, 0, 0, 64);
	add(&f, counter_gp(0), 1, 1000, PEBS_MEM_NONE);
	add(&f, counter_fixed(1), 2, 2000, PEBS_MEM_NONE);
	cpu_write_rec(&f, BIT(0) | BIT(GLOBAL_FIXED_SHIFT + 1), 0);
	cpu_write_rec(&f, BIT(5), 1);
	assert_int_equal(drain(&f, false), 2);
	assert_int_equal(pop(&f).event, 1);
	assert_int_equal(pop(&f).event, 2);
	assert_int_equal(f.loss.lost[PEBS_LOST_ORPHAN], 1);
	assert_int_equal(f.ctx.counters[0].records, 1);
	assert_int_equal(f.ctx.counters[1].records, 1);
	fix_free(&f);
}

/* A record in fragments (CONT): the aux group in the second one is still
 * the record's; one sample, and the walk goes on after the last fragment.
 * Groups the drain does not know (here the counters group's bits and
 * their bytes) are skipped by the fragment's size. */
static void test_fragments_and_unknown_groups(void **state)
{
	struct fix f;
	fix_init(&f, PEBS_MEM_FIELDS, 0, 64);
	add(&f, counter_gp(0), 1, 1000, PEBS_MEM_LOAD);
	struct frag first = { .basic = true, .cont = true, .ip = 0x7000, .applicable = BIT(0),
			      .tsc = 5 };
	struct frag second = { .aux = true, .addr = 0xABC0, .src = 0x1, .cache_lat = 77,
			       .extra_hdr_bits = ARCH_PEBS_HDR_CNTR, .pad = 48 };
	cpu_write_frag(&f, &first);
	cpu_write_frag(&f, &second);
	cpu_write_rec(&f, BIT(0), 1);
	assert_int_equal(drain(&f, false), 2);
	struct bp_sample s = pop(&f);
	assert_int_equal(s.ip, 0x7000);
	assert_int_equal(s.addr, 0xABC0);
	assert_int_equal(s.weight & BP_WEIGHT_LOAD_MASK, 77);
	assert_int_equal(pop(&f).ip, 0x4001);
	fix_free(&f);
}

/* A fragment run without the basic group starts no record: skipped, as
 * Linux skips it, nothing owed. */
static void test_fragment_without_basic(void **state)
{
	struct fix f;
	fix_init(&f, 0, 0, 64);
	add(&f, counter_gp(0), 1, 1000, PEBS_MEM_NONE);
	struct frag stray = { .aux = true };
	cpu_write_frag(&f, &stray);
	cpu_write_rec(&f, BIT(0), 0);
	assert_int_equal(drain(&f, false), 1);
	assert_int_equal(f.loss.found, 1);
	fix_free(&f);
}

/* A header of size 0, or one running past WR, cannot be followed: the
 * rest is estimated in records of the layout's size and lost as corrupt. */
static void test_corrupt_headers(void **state)
{
	struct fix f;
	fix_init(&f, 0, 0, 64);
	add(&f, counter_gp(0), 1, 1000, PEBS_MEM_NONE);
	cpu_write_rec(&f, BIT(0), 0);
	u64 bad = f.wr;
	cpu_write_rec(&f, BIT(0), 1);
	cpu_write_rec(&f, BIT(0), 2);
	put(f.buf.buffer + bad, 0, ARCH_PEBS_HDR_BASIC);	/* size 0 */
	assert_int_equal(drain(&f, false), 1);
	assert_int_equal(f.loss.zero_size, 1);
	assert_int_equal(f.loss.lost[PEBS_LOST_CORRUPT], 2);

	cpu_write_rec(&f, BIT(0), 0);
	put(f.buf.buffer, 0, ARCH_PEBS_HDR_BASIC | 4096);	/* past WR */
	assert_int_equal(drain(&f, false), 0);
	assert_int_equal(f.loss.size_mismatch, 1);
	assert_int_equal(f.loss.lost[PEBS_LOST_CORRUPT], 3);
	fix_free(&f);
}

/* FULL is counted; a WR beyond the buffer is clamped to it, and what was
 * consumed before reads stale there, never delivered twice. */
static void test_full_and_index_beyond_buffer(void **state)
{
	struct fix f;
	fix_init(&f, 0, 4096, 256);
	add(&f, counter_gp(0), 1, 1000, PEBS_MEM_NONE);
	while (f.wr + f.buf.layout.record_bytes <= f.buf.bytes)
		cpu_write_rec(&f, BIT(0), f.wr);
	u64 records = f.buf.max_records;
	assert_int_equal(drain(&f, true), records);
	assert_int_equal(f.loss.buffer_was_full, 1);
	f.wr = 1u << 20;	/* a WR far beyond the 4 KiB buffer */
	assert_int_equal(drain(&f, false), 0);
	assert_int_equal(f.loss.index_beyond_max, 1);
	assert_int_equal(f.loss.stale_records, records);
	fix_free(&f);
}

/* Throttled: the records are owed and lost as throttled; a full ring
 * loses the rest as ring full. */
static void test_throttled_and_ring_full(void **state)
{
	struct fix f;
	fix_init(&f, 0, 0, 4);
	add(&f, counter_gp(0), 1, 1000, PEBS_MEM_NONE);
	f.ctx.throttled = true;
	cpu_write_rec(&f, BIT(0), 0);
	assert_int_equal(drain(&f, false), 0);
	assert_int_equal(f.loss.lost[PEBS_LOST_THROTTLED], 1);
	f.ctx.throttled = false;
	for (u64 n = 0; n < 10; n++)
		cpu_write_rec(&f, BIT(0), n);
	u64 got = drain(&f, false);
	assert_true(got >= 3 && got <= 4);
	assert_int_equal(f.loss.lost[PEBS_LOST_RING_FULL], 10 - got);
	fix_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_register_values),
		cmocka_unit_test(test_buffer_sizes),
		cmocka_unit_test(test_groups_not_offered),
		cmocka_unit_test(test_drain_records),
		cmocka_unit_test(test_retire_latency),
		cmocka_unit_test(test_applicable_counters),
		cmocka_unit_test(test_fragments_and_unknown_groups),
		cmocka_unit_test(test_fragment_without_basic),
		cmocka_unit_test(test_corrupt_headers),
		cmocka_unit_test(test_full_and_index_beyond_buffer),
		cmocka_unit_test(test_throttled_and_ring_full),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
