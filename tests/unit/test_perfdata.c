/* perfdata/perfdata.c and perfdata/perfdata_read.c: what the writer puts in each
 * field, checked by parsing it back (the real perf is the client in
 * test_perfdata_perf.c). Layout: tools/perf/Documentation/
 * perf.data-file-format.txt. */
#include "test.h"
#include <time.h>
#include "perfdata/perfdata.h"
#include "test_perfdata.h"
#include "perfdata/perfdata_read.h"

#define FILE_CAP (8u << 20)

struct mem_file {
	struct perfdata_sink sink;
	struct perfdata_mem_sink mem;
	u8 *buf;
	unsigned appends;
};

static struct mem_file *mem_file_new(void)
{
	struct mem_file *f = calloc(1, sizeof(*f));
	f->buf = malloc(FILE_CAP);
	perfdata_mem_sink_init(&f->sink, &f->mem, f->buf, FILE_CAP);
	return f;
}

static void mem_file_free(struct mem_file *f)
{
	free(f->buf);
	free(f);
}

static const struct perfdata_config test_cfg = {
	.tsc_hz = 3000000000ULL,
	.cpudesc = "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz",
	.cpuid = "GenuineIntel,6,106,6",
	.nr_cpus_online = 4,
	.version = "bareperf test",
};

static struct bp_sample make_sample(u32 event, u64 ip, u64 tsc)
{
	struct bp_sample s = { 0 };
	s.event = event;
	s.ip = ip;
	s.tsc = tsc;
	s.period = event ? 2000 : 100003;
	s.cpu = 3;
	s.flags = BP_SAMPLE_TIME | BP_SAMPLE_EXACT_IP;
	if (event == 1) {
		s.addr = 0xdead0000 + ip;
		s.weight = 77;
		s.data_src = 0x68100142;
		s.flags |= BP_SAMPLE_ADDR | BP_SAMPLE_WEIGHT | BP_SAMPLE_DATA_SRC;
	} else {
		s.callchain_len = 2;
		s.callchain[0] = 0x1111;
		s.callchain[1] = 0x2222;
		s.flags |= BP_SAMPLE_CALLCHAIN;
	}
	return s;
}

static struct perfdata *open_two_events(struct mem_file *f)
{
	struct perfdata *pd = perfdata_open(&f->sink, &test_cfg, NULL, 0);
	assert_non_null(pd);
	assert_int_equal(perfdata_add_event(pd, &cycles_ev), 0);
	assert_int_equal(perfdata_add_event(pd, &loads_ev), 1);
	return pd;
}

static void test_header_attrs_features(void **state)
{
	struct mem_file *f = mem_file_new();
	struct perfdata *pd = open_two_events(f);
	struct perfdata_reader r;
	struct perfdata_mmap m = { "/bareperf.elf", 0x7e000000, 0x9fc0, 0x5000 };
	char s[128];
	u32 avail, online;

	assert_int_equal(perfdata_comm(pd), 0);
	assert_int_equal(perfdata_mmap2(pd, &m), 0);
	assert_int_equal(perfdata_finish(pd), 0);
	assert_int_equal(perfdata_read_open(&r, f->buf, f->mem.len), 0);
	assert_int_equal(r.nr_attrs, 2);
	/* Layout: 104-byte header, 2 x 144-byte attrs, 2 ids, then data. */
	assert_int_equal(r.data_offset, 104 + 2 * 144 + 2 * 8);
	/* Several events: IDENTIFIER added so perf can tell samples apart. */
	assert_true(r.attrs[0].sample_type & PERF_SAMPLE_IDENTIFIER);
	assert_true(r.attrs[1].sample_type & PERF_SAMPLE_IDENTIFIER);
	assert_int_equal(r.attrs[1].config, 0x1cd);
	assert_int_equal(r.attrs[1].config1, 30);
	assert_int_equal(r.attrs[0].sample_period, 100003);
	/* The attr says what was counted: firmware runs in ring 0, so no
	 * exclude bit unless :u/:k; sample_id_all on every attr. */
	assert_int_equal(r.attrs[0].flags & (PERF_ATTR_FLAG_EXCLUDE_KERNEL | PERF_ATTR_FLAG_EXCLUDE_HV |
					     PERF_ATTR_FLAG_EXCLUDE_USER), 0);
	assert_true(r.attrs[0].flags & PERF_ATTR_FLAG_SAMPLE_ID_ALL);
	assert_true(r.attrs[1].flags & PERF_ATTR_FLAG_SAMPLE_ID_ALL);
	assert_int_equal((r.attrs[0].flags >> PERF_ATTR_PRECISE_SHIFT) & 3, 2);
	assert_int_equal((r.attrs[1].flags >> PERF_ATTR_PRECISE_SHIFT) & 3, 1);
	assert_int_equal(r.attrs[0].nr_ids, 1);
	assert_int_equal(r.attrs[1].ids[0], perfdata_event_id(pd, 1));
	assert_true(r.attrs[0].ids[0] != r.attrs[1].ids[0]);
	/* Names from HEADER_EVENT_DESC, as typed. */
	assert_non_null(r.attrs[1].name);
	assert_string_equal(r.attrs[1].name, "mem-loads,ldlat=30:p");
	assert_string_equal(r.attrs[0].name, "cycles:pp");
	assert_true(perfdata_read_feature_string(&r, HEADER_CPUID, s, sizeof(s)));
	assert_string_equal(s, "GenuineIntel,6,106,6");
	assert_true(perfdata_read_feature_string(&r, HEADER_ARCH, s, sizeof(s)));
	assert_string_equal(s, "x86_64");
	assert_true(perfdata_read_feature_string(&r, HEADER_CPUDESC, s, sizeof(s)));
	assert_string_equal(s, test_cfg.cpudesc);
	assert_true(perfdata_read_feature_string(&r, HEADER_VERSION, s, sizeof(s)));
	assert_false(perfdata_read_feature_string(&r, HEADER_HOSTNAME, s, sizeof(s)));
	u64 off, size;
	assert_true(perfdata_read_feature(&r, HEADER_CPU_TOPOLOGY, &off, &size));
	assert_true(perfdata_read_feature(&r, HEADER_NRCPUS, &off, &size));
	assert_true(perfdata_read_nrcpus(&r, &avail, &online));
	assert_int_equal(avail, 4);
	assert_int_equal(online, 4);
	perfdata_close(pd);
	mem_file_free(f);
}

static void test_records_round_trip(void **state)
{
	struct mem_file *f = mem_file_new();
	struct perfdata *pd = open_two_events(f);
	struct perfdata_mmap m = { "/bareperf.elf", 0x7e000000, 0x9fc0, 0x5000 };
	struct bp_sample c = make_sample(0, 0x7e001234, 6000000000ULL + 3);
	struct bp_sample l = make_sample(1, 0x7e004321, 4500);
	struct perfdata_reader r;
	struct perfdata_record rec;

	perfdata_comm(pd);
	perfdata_mmap2(pd, &m);
	perfdata_sample(pd, &c);
	perfdata_sample(pd, &l);
	perfdata_lost(pd, 1, 9);
	perfdata_lost_samples(pd, 12);
	assert_int_equal(perfdata_finish(pd), 0);
	assert_int_equal(perfdata_read_open(&r, f->buf, f->mem.len), 0);

	assert_int_equal(perfdata_read_next(&r, &rec), 1);
	assert_int_equal(rec.type, PERF_RECORD_COMM);
	assert_int_equal(rec.pid, PERFDATA_PID);
	assert_int_equal(rec.tid, PERFDATA_PID);
	assert_string_equal(rec.name, "bareperf");

	assert_int_equal(perfdata_read_next(&r, &rec), 1);
	assert_int_equal(rec.type, PERF_RECORD_MMAP2);
	assert_int_equal(rec.misc, PERF_RECORD_MISC_USER);
	assert_int_equal(rec.start, 0x7e000000);
	assert_int_equal(rec.len, 0x9fc0);
	assert_int_equal(rec.pgoff, 0x5000);
	assert_string_equal(rec.name, "/bareperf.elf");

	assert_int_equal(perfdata_read_next(&r, &rec), 1);
	assert_int_equal(rec.type, PERF_RECORD_SAMPLE);
	assert_int_equal(rec.misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP);
	assert_int_equal(rec.attr, 0);
	assert_int_equal(rec.ip, 0x7e001234);
	/* 6e9 + 3 ticks at 3 GHz = 2 s + 1 ns. */
	assert_int_equal(rec.time, 2000000001ULL);
	assert_int_equal(rec.cpu, 3);
	assert_int_equal(rec.period, 100003);
	/* A user callchain as the kernel writes it: marker, IP, callers. */
	assert_int_equal(rec.nr_callchain, 4);
	assert_int_equal(perfdata_callchain_at(&rec, 0), PERF_CONTEXT_USER);
	assert_int_equal(perfdata_callchain_at(&rec, 1), 0x7e001234);
	assert_int_equal(perfdata_callchain_at(&rec, 3), 0x2222);

	assert_int_equal(perfdata_read_next(&r, &rec), 1);
	assert_int_equal(rec.attr, 1);
	assert_int_equal(rec.id, perfdata_event_id(pd, 1));
	assert_int_equal(rec.time, 1500);
	assert_int_equal(rec.addr, 0xdead0000ULL + 0x7e004321);
	assert_int_equal(rec.weight, 77);
	assert_int_equal(rec.data_src, 0x68100142);

	assert_int_equal(perfdata_read_next(&r, &rec), 1);
	assert_int_equal(rec.type, PERF_RECORD_LOST);
	assert_int_equal(rec.attr, 1);
	assert_int_equal(rec.lost, 9);
	assert_int_equal(perfdata_read_next(&r, &rec), 1);
	assert_int_equal(rec.type, PERF_RECORD_LOST_SAMPLES);
	assert_int_equal(rec.lost, 12);
	assert_int_equal(perfdata_read_next(&r, &rec), 0);
	assert_int_equal(perfdata_samples(pd), 2);
	perfdata_close(pd);
	mem_file_free(f);
}

/* PERF_SAMPLE_RAW: a u32 size, then raw_head and the raw words, a whole
 * number of u64s with the size (perf_sample_save_raw_data); a sample
 * without them carries the head alone. */
static void test_raw_round_trip(void **state)
{
	struct mem_file *f = mem_file_new();
	struct perfdata *pd = perfdata_open(&f->sink, &test_cfg, NULL, 0);
	struct perfdata_event ev = cycles_ev;
	struct bp_sample s = make_sample(0, 0x1000, 5);
	struct perfdata_reader r;
	struct perfdata_record rec;
	u64 word;

	ev.sample_type |= BP_SAMPLE_RAW;
	assert_int_equal(perfdata_add_event(pd, &ev), 0);
	s.flags |= BP_SAMPLE_RAW;
	s.raw_head = 0xBFF;
	s.raw_words = 3;
	s.raw[0] = 0x11, s.raw[1] = 0x22, s.raw[2] = 0x33;
	perfdata_sample(pd, &s);
	s.flags &= ~BP_SAMPLE_RAW;
	perfdata_sample(pd, &s);
	perfdata_finish(pd);
	assert_int_equal(perfdata_read_open(&r, f->buf, f->mem.len), 0);
	assert_int_equal(perfdata_read_next(&r, &rec), 1);
	assert_int_equal(rec.raw_size, 4 + 3 * 8);
	assert_int_equal(rec.raw[0] | rec.raw[1] << 8, 0xBFF);
	memcpy(&word, rec.raw + 4 + 16, 8);
	assert_int_equal(word, 0x33);
	assert_int_equal(rec.nr_callchain, 4);	/* RAW after the callchain */
	assert_int_equal(perfdata_read_next(&r, &rec), 1);
	assert_int_equal(rec.raw_size, 4);
	perfdata_close(pd);
	mem_file_free(f);
}

/* The weight field: PERF_SAMPLE_WEIGHT carries the load latency (var1)
 * alone, PERF_SAMPLE_WEIGHT_STRUCT at the same place all of perf's union
 * perf_sample_weight (var1, var2 ins_lat, var3 retire latency); an attr
 * with both is refused, as perf_event_open refuses it. */
static void test_weight_struct(void **state)
{
	static const u64 both = 77 | 5ull << BP_WEIGHT_INSTR_SHIFT | 9ull << BP_WEIGHT_RETIRE_SHIFT;
	for (int as_struct = 0; as_struct < 2; as_struct++) {
		struct mem_file *f = mem_file_new();
		struct perfdata *pd = perfdata_open(&f->sink, &test_cfg, NULL, 0);
		struct perfdata_event ev = loads_ev;
		struct perfdata_reader r;
		struct perfdata_record rec;
		struct bp_sample s = make_sample(1, 0x1000, 5);	/* loads_ev's: a data source */
		s.event = 0;	/* the only event of this file */
		if (as_struct)
			ev.sample_type = (ev.sample_type & ~(u64)BP_SAMPLE_WEIGHT) | BP_SAMPLE_WEIGHT_STRUCT;
		assert_int_equal(perfdata_add_event(pd, &ev), 0);
		s.weight = both;
		s.flags |= BP_SAMPLE_WEIGHT;
		perfdata_sample(pd, &s);
		s.flags &= ~BP_SAMPLE_WEIGHT;	/* no value: 0 */
		perfdata_sample(pd, &s);
		assert_int_equal(perfdata_finish(pd), 0);
		assert_int_equal(perfdata_read_open(&r, f->buf, f->mem.len), 0);
		assert_int_equal(r.attrs[0].sample_type & (BP_SAMPLE_WEIGHT | BP_SAMPLE_WEIGHT_STRUCT),
				 as_struct ? BP_SAMPLE_WEIGHT_STRUCT : BP_SAMPLE_WEIGHT);
		assert_int_equal(perfdata_read_next(&r, &rec), 1);
		assert_int_equal(rec.weight, as_struct ? both : 77);
		assert_int_equal(rec.data_src, 0x68100142);	/* the field after it, in place */
		assert_int_equal(perfdata_read_next(&r, &rec), 1);
		assert_int_equal(rec.weight, 0);
		perfdata_close(pd);
		mem_file_free(f);
	}
	struct mem_file *f = mem_file_new();
	struct perfdata *pd = perfdata_open(&f->sink, &test_cfg, NULL, 0);
	struct perfdata_event ev = loads_ev;
	ev.sample_type |= BP_SAMPLE_WEIGHT_STRUCT;
	assert_int_equal(perfdata_add_event(pd, &ev), -1);
	assert_non_null(strstr(perfdata_error(pd), "PERF_SAMPLE_WEIGHT and _WEIGHT_STRUCT"));
	perfdata_close(pd);
	mem_file_free(f);
}

/* A sample field the attr asks for but the sample lacks is written as 0,
 * and the record size still matches the sample_type. */
static void test_missing_fields_are_zero(void **state)
{
	struct mem_file *f = mem_file_new();
	struct perfdata *pd = perfdata_open(&f->sink, &test_cfg, NULL, 0);
	struct bp_sample s = { .ip = 0x1000, .tsc = 99, .addr = 5, .event = 0 };
	struct perfdata_reader r;
	struct perfdata_record rec;

	assert_int_equal(perfdata_add_event(pd, &loads_ev), 0);
	perfdata_sample(pd, &s);
	perfdata_finish(pd);
	assert_int_equal(perfdata_read_open(&r, f->buf, f->mem.len), 0);
	/* One event: no IDENTIFIER needed. */
	assert_false(r.attrs[0].sample_type & PERF_SAMPLE_IDENTIFIER);
	assert_int_equal(perfdata_read_next(&r, &rec), 1);
	assert_int_equal(rec.ip, 0x1000);
	assert_int_equal(rec.time, 0);
	assert_int_equal(rec.addr, 0);
	assert_int_equal(rec.weight, 0);
	assert_int_equal(rec.misc, PERF_RECORD_MISC_USER);
	perfdata_close(pd);
	mem_file_free(f);
}

/* -F FREQ: attr.freq set and sample_freq in the period slot; each sample
 * then carries its own period. An attr with neither is refused. */
static void test_frequency_event(void **state)
{
	struct mem_file *f = mem_file_new();
	struct perfdata *pd = perfdata_open(&f->sink, &test_cfg, NULL, 0);
	struct perfdata_event ev = cycles_ev;
	struct bp_sample s = make_sample(0, 0x1000, 1);
	struct perfdata_reader r;
	struct perfdata_record rec;

	ev.freq = true;
	ev.sample_period = 4000;
	assert_int_equal(perfdata_add_event(pd, &ev), 0);
	s.period = 123457;
	perfdata_sample(pd, &s);
	assert_int_equal(perfdata_finish(pd), 0);
	assert_int_equal(perfdata_read_open(&r, f->buf, f->mem.len), 0);
	assert_true(r.attrs[0].flags & PERF_ATTR_FLAG_FREQ);
	assert_int_equal(r.attrs[0].sample_period, 4000);
	assert_int_equal(perfdata_read_next(&r, &rec), 1);
	assert_int_equal(rec.period, 123457);
	perfdata_close(pd);
	mem_file_free(f);
}

static u64 header_data_size(const u8 *buf)
{
	u64 v;
	memcpy(&v, buf + 48, 8);
	return v;
}

/* The header is valid after each flush, so a file cut anywhere after a
 * flush reads back up to the flush. A 4 KiB buffer in caller memory makes
 * the writer append to the sink on its own between flushes, as a long run
 * does, without touching the header. */
static void test_flush_makes_cut_file_readable(void **state)
{
	static u64 mem[16 * 1024];
	struct mem_file *f = mem_file_new();
	size_t mem_size = perfdata_mem_size(PERFDATA_MIN_BUFFER);
	struct perfdata *pd;
	struct perfdata_reader r;
	struct perfdata_record rec;
	u64 flushed_len, cut_len, n = 0;

	assert_true(mem_size <= sizeof(mem));
	pd = perfdata_open(&f->sink, &test_cfg, mem, mem_size);
	assert_ptr_equal(pd, (void *)mem);
	perfdata_add_event(pd, &cycles_ev);
	perfdata_add_event(pd, &loads_ev);
	/* Before the first flush nothing is promised; after it, the header
	 * covers exactly what was flushed. */
	for (int i = 0; i < 1000; i++) {
		struct bp_sample s = make_sample(i & 1, 0x1000 + i, i);
		perfdata_sample(pd, &s);
	}
	assert_int_equal(perfdata_flush(pd), 0);
	flushed_len = f->mem.len;
	assert_int_equal(header_data_size(f->buf), flushed_len - (104 + 2 * 144 + 16));
	for (int i = 0; i < 1000; i++) {
		struct bp_sample s = make_sample(0, 0x2000 + i, i);
		perfdata_sample(pd, &s);
	}
	cut_len = f->mem.len - 13;	/* mid-record, as a reset leaves it */
	assert_true(cut_len > flushed_len + 4096);
	assert_int_equal(perfdata_read_open(&r, f->buf, cut_len), 0);
	while (perfdata_read_next(&r, &rec) == 1)
		n++;
	assert_int_equal(n, 1000);
	assert_string_equal(r.err, "");
	perfdata_close(pd);
	mem_file_free(f);
}

static void test_bad_input_is_refused(void **state)
{
	struct mem_file *f = mem_file_new();
	struct perfdata_event ev = cycles_ev;
	struct perfdata *pd = perfdata_open(&f->sink, &test_cfg, NULL, 0);
	struct bp_sample s = make_sample(5, 0, 0);
	u8 small[64] __attribute__((aligned(8)));

	assert_null(perfdata_open(&f->sink, &test_cfg, small, sizeof(small)));
	ev.sample_type |= 1ULL << 11;	/* PERF_SAMPLE_BRANCH_STACK: not supported */
	assert_int_equal(perfdata_add_event(pd, &ev), -1);
	assert_non_null(strstr(perfdata_error(pd), "cycles:pp"));
	assert_non_null(strstr(perfdata_error(pd), "sample_type"));
	perfdata_close(pd);

	pd = perfdata_open(&f->sink, &test_cfg, NULL, 0);
	ev = cycles_ev;
	ev.sample_period = 0;
	ev.sample_type &= ~(u64)BP_SAMPLE_PERIOD;
	assert_int_equal(perfdata_add_event(pd, &ev), -1);
	assert_non_null(strstr(perfdata_error(pd), "period"));
	perfdata_close(pd);

	pd = perfdata_open(&f->sink, &test_cfg, NULL, 0);
	assert_int_equal(perfdata_add_event(pd, &cycles_ev), 0);
	assert_true(perfdata_sample(pd, &s) < 0);
	assert_non_null(strstr(perfdata_error(pd), "event 5"));
	/* The first error sticks. */
	assert_true(perfdata_finish(pd) < 0);
	assert_non_null(strstr(perfdata_error(pd), "event 5"));
	perfdata_close(pd);
	mem_file_free(f);
}

static int failing_append(void *ctx, const void *data, size_t len) { return -5; }

static void test_sink_failure_is_reported(void **state)
{
	struct mem_file *f = mem_file_new();
	struct perfdata_sink sink = f->sink;
	struct perfdata *pd;
	struct bp_sample s = make_sample(0, 1, 1);

	sink.append = failing_append;
	pd = perfdata_open(&sink, &test_cfg, NULL, 0);
	perfdata_add_event(pd, &cycles_ev);
	assert_int_equal(perfdata_sample(pd, &s), 0);	/* buffered */
	assert_int_equal(perfdata_flush(pd), -5);
	assert_non_null(strstr(perfdata_error(pd), "writing"));
	assert_int_equal(perfdata_sample(pd, &s), -5);
	perfdata_close(pd);
	mem_file_free(f);
}

static u64 count_samples(const u8 *buf, u64 len)
{
	struct perfdata_reader r;
	struct perfdata_record rec;
	u64 n = 0;
	assert_int_equal(perfdata_read_open(&r, buf, len), 0);
	while (perfdata_read_next(&r, &rec) == 1)
		n += rec.type == PERF_RECORD_SAMPLE;
	assert_string_equal(r.err, "");
	return n;
}

/* A full disk. The sink takes 100 KiB and stores part
 * of the append that does not fit, as a full disk does: salvaging cuts the
 * file back to the last whole append, drops the samples still buffered,
 * and rewrites the header over exactly the samples kept; the writer goes
 * on, a LOST_SAMPLES record still fits, the feature sections do not, and
 * salvaging again leaves the records as they were. */
static void test_salvage_after_full_disk(void **state)
{
	struct mem_file *f = mem_file_new();
	f->mem.cap = 100 * 1024;
	struct perfdata *pd = perfdata_open(&f->sink, &test_cfg, NULL, 0);
	perfdata_add_event(pd, &cycles_ev);
	perfdata_add_event(pd, &loads_ev);
	int i = 0, rc = 0;
	while (rc == 0) {
		struct bp_sample s = make_sample(i & 1, 0x1000 + i, i);
		rc = perfdata_sample(pd, &s);
		i++;
	}
	assert_int_equal(f->mem.len, 100 * 1024);	/* the failed append stored a part */
	assert_non_null(strstr(perfdata_error(pd), "writing"));
	u64 encoded = perfdata_samples(pd);
	assert_int_equal(perfdata_salvage(pd), 0);
	u64 kept = perfdata_samples(pd);
	assert_true(kept > 0 && kept < encoded);
	assert_true(f->mem.len < 100 * 1024);
	assert_int_equal(count_samples(f->buf, f->mem.len), kept);
	assert_int_equal(header_data_size(f->buf), f->mem.len - (104 + 2 * 144 + 16));

	u64 before_end = f->mem.len;
	f->mem.cap = f->mem.len + 64;	/* room for LOST_SAMPLES, not for features */
	assert_int_equal(perfdata_lost_samples(pd, encoded - kept), 0);
	assert_true(perfdata_finish(pd) < 0);
	assert_non_null(strstr(perfdata_error(pd), "writing"));	/* the first cause */
	assert_int_equal(perfdata_salvage(pd), 0);
	/* LOST_SAMPLES: 16 bytes and sample_id_all's trailer (TID, TIME,
	 * CPU, IDENTIFIER: 32). */
	assert_int_equal(f->mem.len, before_end + 16 + 32);
	assert_int_equal(count_samples(f->buf, f->mem.len), kept);
	assert_int_equal(header_data_size(f->buf), f->mem.len - (104 + 2 * 144 + 16));
	perfdata_close(pd);
	mem_file_free(f);
}

/* A file cut anywhere in its feature table or sections (report once
 * refused a file cut by one byte there, which perf reads whole): every cut reads all the samples; the sections it cut are
 * ignored, so the events keep their names only while EVENT_DESC is whole. */
static void test_cut_in_features_reads_whole(void **state)
{
	struct mem_file *f = mem_file_new();
	struct perfdata *pd = open_two_events(f);
	for (int i = 0; i < 100; i++) {
		struct bp_sample s = make_sample(i & 1, 0x1000 + i, i);
		perfdata_sample(pd, &s);
	}
	assert_int_equal(perfdata_finish(pd), 0);
	struct perfdata_reader r;
	assert_int_equal(perfdata_read_open(&r, f->buf, f->mem.len), 0);
	u64 data_end = r.data_offset + r.data_size, desc_off, desc_size;
	assert_true(perfdata_read_feature(&r, HEADER_EVENT_DESC, &desc_off, &desc_size));
	for (u64 len = data_end; len < f->mem.len; len++) {
		assert_int_equal(count_samples(f->buf, len), 100);
		assert_int_equal(perfdata_read_open(&r, f->buf, len), 0);
		bool named = r.attrs[0].name != NULL;
		if (named != (len >= desc_off + desc_size))
			fail_msg("cut at %llu: event names %s, EVENT_DESC ends at %llu",
				 (unsigned long long)len, named ? "kept" : "lost",
				 (unsigned long long)(desc_off + desc_size));
	}
	perfdata_close(pd);
	mem_file_free(f);
}

/* Where the first SAMPLE record starts: after the writer's preamble. */
static u64 first_sample_offset(const u8 *buf, u64 data_off)
{
	u64 at = data_off;
	u32 type;
	u16 size;
	for (;;) {
		memcpy(&type, buf + at, 4);
		memcpy(&size, buf + at + 6, 2);
		if (type == PERF_RECORD_SAMPLE)
			return at;
		at += size;
	}
}

static void test_reader_rejects_corruption(void **state)
{
	struct mem_file *f = mem_file_new();
	struct perfdata *pd = open_two_events(f);
	struct perfdata_reader r;
	struct perfdata_record rec;
	struct bp_sample s = make_sample(1, 0x1234, 5);
	u64 data_off = 104 + 2 * 144 + 16, big = 1ULL << 40;
	u8 *copy = malloc(FILE_CAP);

	perfdata_sample(pd, &s);
	perfdata_finish(pd);
	data_off = first_sample_offset(f->buf, data_off);
	memcpy(copy, f->buf, f->mem.len);
	copy[0] = 'X';
	assert_int_equal(perfdata_read_open(&r, copy, f->mem.len), -1);
	assert_non_null(strstr(r.err, "magic"));

	memcpy(copy, f->buf, f->mem.len);
	memcpy(copy + 48, &big, 8);
	assert_int_equal(perfdata_read_open(&r, copy, f->mem.len), -1);
	assert_non_null(strstr(r.err, "data section"));

	memcpy(copy, f->buf, f->mem.len);
	copy[data_off + 6] -= 8;	/* sample size one word short */
	assert_int_equal(perfdata_read_open(&r, copy, f->mem.len), 0);
	assert_int_equal(perfdata_read_next(&r, &rec), -1);
	assert_non_null(strstr(r.err, "does not match"));

	memcpy(copy, f->buf, f->mem.len);
	copy[data_off + 6] += 3;	/* not a multiple of 8 */
	assert_int_equal(perfdata_read_open(&r, copy, f->mem.len), 0);
	assert_int_equal(perfdata_read_next(&r, &rec), -1);
	assert_non_null(strstr(r.err, "size"));

	memcpy(copy, f->buf, f->mem.len);
	copy[data_off + 8] ^= 0x40;	/* IDENTIFIER of no attr */
	assert_int_equal(perfdata_read_open(&r, copy, f->mem.len), 0);
	assert_int_equal(perfdata_read_next(&r, &rec), -1);
	assert_non_null(strstr(r.err, "IDENTIFIER"));
	free(copy);
	perfdata_close(pd);
	mem_file_free(f);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int counting_append(void *ctx, const void *data, size_t len)
{
	struct mem_file *f = ctx;
	f->appends++;
	f->mem.len += len;	/* discard: measure the writer, not memcpy */
	return 0;
}

static int ignore_write_at(void *ctx, u64 offset, const void *data, size_t len) { return 0; }

/* Throughput of perfdata_sample() with a sink that discards: each sample
 * costs O(1) and the sink sees whole 64 KiB buffers. */
static void test_sample_throughput(void **state)
{
	struct mem_file *f = mem_file_new();
	struct perfdata_sink sink = { .append = counting_append, .write_at = ignore_write_at, .ctx = f };
	struct perfdata *pd = perfdata_open(&sink, &test_cfg, NULL, 0);
	const int n = 2000000;
	double t0, dt;

	perfdata_add_event(pd, &cycles_ev);
	perfdata_add_event(pd, &loads_ev);
	perfdata_start(pd);
	t0 = now_s();
	for (int i = 0; i < n; i++) {
		struct bp_sample s = make_sample(i & 1, 0x1000 + i, (u64)i * 1000);
		perfdata_sample(pd, &s);
	}
	dt = now_s() - t0;
	assert_int_equal(perfdata_samples(pd), n);
	/* Every sink call but the last moved a nearly full buffer (less at
	 * most one largest sample). */
	assert_true(f->appends <= perfdata_bytes(pd) / (PERFDATA_DEFAULT_BUFFER - 512) + 1);
	printf("# perfdata_sample: %.1f M samples/s, %.0f MB/s (%d samples, %u sink calls)\n",
	       n / dt / 1e6, perfdata_bytes(pd) / dt / 1e6, n, f->appends);
	assert_true(n / dt > 1e6);	/* a PMI-rate stream is far below this */
	perfdata_close(pd);
	mem_file_free(f);
}

/* One id per event and CPU, as perf record opens an event on each CPU
 * of its map (issue 39 item 22: an -a file had a single id per event):
 * each sample carries its CPU's id, the attrs and EVENT_DESC list every
 * id, ID_INDEX says each id's CPU (perf_event__process_id_index refuses
 * an id no attr has), THREAD_MAP is perf's system-wide dummy (pid -1)
 * and CPU_MAP lists the CPUs (tools/lib/perf/include/perf/event.h). */
static void test_per_cpu_ids(void **state)
{
	static const u32 cpus[] = { 0, 2, 5 };
	struct perfdata_config cfg = test_cfg;
	cfg.nr_cpus = 3;
	cfg.cpus = cpus;
	cfg.system_wide = true;
	struct mem_file *f = mem_file_new();
	struct perfdata *pd = perfdata_open(&f->sink, &cfg, NULL, 0);
	assert_non_null(pd);
	assert_int_equal(perfdata_add_event(pd, &cycles_ev), 0);
	assert_int_equal(perfdata_add_event(pd, &loads_ev), 1);
	struct bp_sample a = make_sample(0, 0x1000, 100), b = make_sample(1, 0x2000, 200);
	a.cpu = 2;
	b.cpu = 5;
	perfdata_comm(pd);
	perfdata_sample(pd, &a);
	perfdata_sample(pd, &b);
	assert_int_equal(perfdata_finish(pd), 0);
	struct perfdata_reader r;
	struct perfdata_record rec;
	assert_int_equal(perfdata_read_open(&r, f->buf, f->mem.len), 0);
	for (u32 i = 0; i < 2; i++) {
		assert_int_equal(r.attrs[i].nr_ids, 3);
		for (u32 k = 0; k < 3; k++)
			assert_int_equal(r.attrs[i].ids[k], perfdata_event_cpu_id(pd, i, cpus[k]));
	}
	assert_string_equal(r.attrs[1].name, loads_ev.name);	/* EVENT_DESC found it by its ids */
	bool index = false, threads = false, cpu_map = false;
	while (perfdata_read_any(&r, &rec) == 1) {
		if (rec.type == PERF_RECORD_ID_INDEX) {
			index = true;
			assert_int_equal(rec.nr_entries, 6);
			for (u32 j = 0; j < 6; j++) {
				const u8 *e = rec.entries + 32 * j;
				u64 id, idx, cpu, tid;
				memcpy(&id, e, 8), memcpy(&idx, e + 8, 8), memcpy(&cpu, e + 16, 8);
				memcpy(&tid, e + 24, 8);
				assert_int_equal(id, perfdata_event_cpu_id(pd, j / 3, cpus[j % 3]));
				assert_int_equal(idx, j % 3);
				assert_int_equal(cpu, cpus[j % 3]);
				assert_int_equal((s64)tid, -1);
			}
		} else if (rec.type == PERF_RECORD_THREAD_MAP) {
			threads = true;
			assert_int_equal(rec.nr_entries, 1);
			u64 pid;
			memcpy(&pid, rec.entries, 8);
			assert_int_equal((s64)pid, -1);
		} else if (rec.type == PERF_RECORD_CPU_MAP) {
			cpu_map = true;
			assert_int_equal(rec.nr_entries, 3);
			for (u32 k = 0; k < 3; k++)
				assert_int_equal(rec.entries[2 * k], cpus[k]);
		} else if (rec.type == PERF_RECORD_SAMPLE) {
			assert_int_equal(rec.id, perfdata_event_cpu_id(pd, rec.attr, rec.cpu));
			assert_int_equal(rec.attr, rec.cpu == 2 ? 0 : 1);
		}
	}
	assert_true(index && threads && cpu_map);
	assert_int_not_equal(perfdata_event_cpu_id(pd, 0, 2), perfdata_event_cpu_id(pd, 0, 5));
	/* A CPU the file does not name gets the first CPU's id. */
	assert_int_equal(perfdata_event_cpu_id(pd, 1, 4), perfdata_event_id(pd, 1));
	perfdata_close(pd);
	mem_file_free(f);

	/* A workload's file: its process, and one id per event on any CPU. */
	f = mem_file_new();
	pd = open_two_events(f);
	perfdata_comm(pd);
	assert_int_equal(perfdata_finish(pd), 0);
	assert_int_equal(perfdata_read_open(&r, f->buf, f->mem.len), 0);
	assert_int_equal(r.attrs[0].nr_ids, 1);
	while (perfdata_read_any(&r, &rec) == 1)
		if (rec.type == PERF_RECORD_THREAD_MAP) {
			assert_int_equal(rec.entries[0], PERFDATA_PID);
			assert_string_equal((const char *)rec.entries + 8, "bareperf");
		} else if (rec.type == PERF_RECORD_CPU_MAP) {
			assert_int_equal(rec.nr_entries, 1);
			assert_int_equal(rec.entries[0] | rec.entries[1] << 8, 0xffff);	/* -1 */
		}
	perfdata_close(pd);
	mem_file_free(f);

	/* CPU lists perf could not read are refused. */
	static const u32 unordered[] = { 3, 1 }, too_high[] = { PERFDATA_MAX_CPUS };
	cfg.cpus = unordered;
	cfg.nr_cpus = 2;
	f = mem_file_new();
	assert_null(perfdata_open(&f->sink, &cfg, NULL, 0));
	cfg.cpus = too_high;
	cfg.nr_cpus = 1;
	assert_null(perfdata_open(&f->sink, &cfg, NULL, 0));
	mem_file_free(f);
}

/* An ID_INDEX id that no attr has makes the file unreadable for perf
 * (-ENOENT); the reader says so. */
static void test_reader_rejects_unknown_index_id(void **state)
{
	struct mem_file *f = mem_file_new();
	struct perfdata *pd = open_two_events(f);
	perfdata_comm(pd);
	assert_int_equal(perfdata_finish(pd), 0);
	struct perfdata_reader r;
	struct perfdata_record rec;
	assert_int_equal(perfdata_read_open(&r, f->buf, f->mem.len), 0);
	u64 at = 0;
	while (perfdata_read_any(&r, &rec) == 1)
		if (rec.type == PERF_RECORD_ID_INDEX)
			at = rec.offset;
	assert_int_not_equal(at, 0);
	u64 bogus = 4242;
	memcpy(f->buf + at + 16, &bogus, 8);	/* the first entry's id */
	assert_int_equal(perfdata_read_open(&r, f->buf, f->mem.len), 0);
	int rc;
	while ((rc = perfdata_read_any(&r, &rec)) == 1)
		;
	assert_int_equal(rc, -1);
	assert_non_null(strstr(r.err, "id 4242 is no attr's"));
	perfdata_close(pd);
	mem_file_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_attrs_features),
		cmocka_unit_test(test_records_round_trip),
		cmocka_unit_test(test_weight_struct),
		cmocka_unit_test(test_missing_fields_are_zero),
		cmocka_unit_test(test_frequency_event),
		cmocka_unit_test(test_flush_makes_cut_file_readable),
		cmocka_unit_test(test_bad_input_is_refused),
		cmocka_unit_test(test_raw_round_trip),
		cmocka_unit_test(test_sink_failure_is_reported),
		cmocka_unit_test(test_salvage_after_full_disk),
		cmocka_unit_test(test_cut_in_features_reads_whole),
		cmocka_unit_test(test_reader_rejects_corruption),
		cmocka_unit_test(test_sample_throughput),
		cmocka_unit_test(test_per_cpu_ids),
		cmocka_unit_test(test_reader_rejects_unknown_index_id),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
