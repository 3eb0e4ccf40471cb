/* Streaming files of the host twin (host/plat_host.c, lib/plat.h) and the
 * perf.data sink over them (perfdata/perfdata_file.c): what is appended and
 * rewritten is what a reader finds, in a scratch BAREPERF_OUT. */
#include "test.h"
#include "lib/plat.h"
#include "perfdata/perfdata_file.h"
#include "perfdata/perfdata_read.h"
#include "test_perfdata.h"

static char dir[64];

static int setup(void **state)
{
	strcpy(dir, "/tmp/bp-platfile-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	return setenv("BAREPERF_OUT", dir, 1);
}

static int teardown(void **state)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_append_write_at_read_back(void **state)
{
	struct plat_file *f = plat_file_create("sub/a.bin");
	char buf[32] = { 0 };
	assert_non_null(f);
	assert_int_equal(plat_file_append_to(f, "hello ", 6), 0);
	assert_int_equal(plat_file_append_to(f, "world", 5), 0);
	/* Rewrite inside, then the next append must land at the end. */
	assert_int_equal(plat_file_write_at(f, 0, "HE", 2), 0);
	assert_int_equal(plat_file_append_to(f, "!", 1), 0);
	/* Past the end is refused: the sink contract writes only inside. */
	assert_true(plat_file_write_at(f, 100, "x", 1) < 0);
	assert_int_equal(plat_file_sync(f), 0);
	assert_int_equal(plat_file_close(f), 0);
	assert_int_equal(plat_file_size("sub/a.bin"), 12);
	assert_int_equal(plat_file_read("sub/a.bin", buf, sizeof(buf)), 12);
	assert_string_equal(buf, "HEllo world!");
}

static void test_create_truncates(void **state)
{
	struct plat_file *f;
	assert_int_equal(plat_file_write("t.bin", "0123456789", 10), 0);
	f = plat_file_create("t.bin");
	assert_non_null(f);
	assert_int_equal(plat_file_append_to(f, "ab", 2), 0);
	assert_int_equal(plat_file_close(f), 0);
	assert_int_equal(plat_file_size("t.bin"), 2);
}

static void test_read_at_chunks(void **state)
{
	u8 data[10000], back[10000], chunk[333];
	struct plat_file *f;
	long n;
	u64 off = 0;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (u8)(i * 7 + 3);
	assert_int_equal(plat_file_write("r.bin", data, sizeof(data)), 0);
	f = plat_file_open_read("r.bin");
	assert_non_null(f);
	while ((n = plat_file_read_at(f, off, chunk, sizeof(chunk))) > 0) {
		memcpy(back + off, chunk, (size_t)n);
		off += (u64)n;
	}
	assert_int_equal(n, 0);
	assert_int_equal(off, sizeof(data));
	assert_memory_equal(back, data, sizeof(data));
	assert_int_equal(plat_file_read_at(f, 9990, chunk, sizeof(chunk)), 10);
	assert_int_equal(plat_file_close(f), 0);
}

static void test_missing_file(void **state)
{
	assert_null(plat_file_open_read("no/such.file"));
	assert_true(plat_file_size("no/such.file") < 0);
	assert_true(plat_file_size("sub") < 0);	/* a folder is no file */
	assert_int_equal(plat_file_close(NULL), 0);
}

/* The writer through the file sink, with a flush and a sync in the middle
 * as the recorder does; the reader finds every sample and the features. */
static void test_perfdata_through_file_sink(void **state)
{
	static const struct perfdata_config cfg = { .cpuid = "GenuineIntel,6,106,6",
						    .nr_cpus_online = 2 };
	struct perfdata_mmap m = { "/bareperf.elf", 0x7e000000, 0x10000, 0x1000 };
	struct plat_file *f = plat_file_create("perf.data");
	struct perfdata_sink sink;
	struct perfdata *pd;
	struct perfdata_reader r;
	struct perfdata_record rec;
	long size;
	u8 *buf;
	int got, samples = 0;
	u64 ip_sum = 0, want_sum = 0;

	assert_non_null(f);
	perfdata_file_sink_init(&sink, f);
	pd = perfdata_open(&sink, &cfg, NULL, 0);
	assert_non_null(pd);
	assert_int_equal(perfdata_add_event(pd, &cycles_ev), 0);
	assert_int_equal(perfdata_comm(pd), 0);
	assert_int_equal(perfdata_mmap2(pd, &m), 0);
	/* Enough samples to spill the 64 KiB buffer several times. */
	for (int i = 0; i < 5000; i++) {
		struct bp_sample s = { .ip = 0x7e001000 + i, .period = 100003,
				       .flags = BP_SAMPLE_EXACT_IP };
		want_sum += s.ip;
		assert_int_equal(perfdata_sample(pd, &s), 0);
		if (i == 2500) {
			assert_int_equal(perfdata_flush(pd), 0);
			assert_int_equal(plat_file_sync(f), 0);
		}
	}
	assert_int_equal(perfdata_finish(pd), 0);
	size = (long)perfdata_bytes(pd);
	perfdata_close(pd);
	assert_int_equal(plat_file_close(f), 0);

	assert_int_equal(plat_file_size("perf.data"), size);
	buf = malloc((size_t)size);
	assert_int_equal(plat_file_read("perf.data", buf, (size_t)size), size);
	assert_int_equal(perfdata_read_open(&r, buf, (u64)size), 0);
	while ((got = perfdata_read_next(&r, &rec)) == 1) {
		if (rec.type == PERF_RECORD_SAMPLE) {
			samples++;
			ip_sum += rec.ip;
			assert_int_equal(rec.period, 100003);
		}
	}
	assert_int_equal(got, 0);
	assert_int_equal(samples, 5000);
	assert_true(ip_sum == want_sum);
	assert_true(perfdata_read_feature(&r, HEADER_CPUID, &(u64){ 0 }, &(u64){ 0 }));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append_write_at_read_back),
		cmocka_unit_test(test_create_truncates),
		cmocka_unit_test(test_read_at_chunks),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_perfdata_through_file_sink),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
