/* `bareperf report` (cmd/cmd_report.c) on perf.data files written here
 * with our writer through the file sink. Samples land on this test
 * binary's own functions, "loaded" at a firmware-style base through an
 * MMAP2 naming bareperf.elf, so report names them from the binary's
 * embedded symbol table; the real perf, reading a copy of this binary as
 * bareperf.elf, must give the same shares. */
#include "test.h"
#include <unistd.h>
#include "cmd/cli.h"
#include "host/capture.h"
#include "perfdata/perfdata_file.h"
#include "perfdata/perfdata_read.h"
#include "lib/plat.h"
#include "perfdata/symtab.h"
#include "report_rows.h"
#include "test_perfdata.h"

#define LOAD_BASE 0x7e4d6000ULL
#define UNKNOWN_IP 0xdeadbe00ULL	/* outside every mapping */

/* Six functions of distinct code for the samples to land in. The shift
 * is done unsigned: a signed one overflows (undefined; UBSan stops). */
#define HOT_FN(name, k)							\
	__attribute__((noinline)) long name(long x)			\
	{								\
		for (long i = 0; i < x; i++)				\
			x ^= (long)(((unsigned long)x << (k)) +		\
				    (unsigned long)i * (k));		\
		return x;						\
	}
HOT_FN(report_fn_a, 1) HOT_FN(report_fn_b, 2) HOT_FN(report_fn_c, 3)
HOT_FN(report_fn_d, 4) HOT_FN(report_fn_e, 5) HOT_FN(report_fn_f, 6)

static char dir[64], elf[128], out[1 << 16];

static int setup(void **state)
{
	char cmd[256];
	strcpy(dir, "/tmp/bp-report-XXXXXX");
	if (!mkdtemp(dir) || setenv("BAREPERF_OUT", dir, 1))
		return -1;
	/* perf reads the symbols of the mapped file: this binary. */
	snprintf(elf, sizeof(elf), "%s/%s", dir, SYMTAB_IMAGE_ELF);
	snprintf(cmd, sizeof(cmd), "cp /proc/%d/exe %s", (int)getpid(), elf);
	return system(cmd) == 0 && report_fn_a(3) != 12345 ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	if (getenv("BP_KEEP_TMP"))
		return 0;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Run-time IP of byte off of fn in the "loaded" image. */
static u64 ip_in(long (*fn)(long), u64 off)
{
	return LOAD_BASE + ((u64)(uintptr_t)fn - plat_image_base()) + off;
}

struct writer {
	struct plat_file *f;
	struct perfdata_sink sink;
	struct perfdata *pd;
};

static void w_open(struct writer *w, const char *name, const struct perfdata_event *const *evs, int nr)
{
	static const struct perfdata_config cfg = { .cpuid = "GenuineIntel,6,106,6" };
	struct perfdata_mmap m = { elf, LOAD_BASE + symtab_header.text_vaddr,
				   symtab_header.text_size, symtab_header.text_offset };
	w->f = plat_file_create(name);
	assert_non_null(w->f);
	perfdata_file_sink_init(&w->sink, w->f);
	w->pd = perfdata_open(&w->sink, &cfg, NULL, 0);
	assert_non_null(w->pd);
	for (int i = 0; i < nr; i++)
		assert_int_equal(perfdata_add_event(w->pd, evs[i]), i);
	assert_int_equal(perfdata_comm(w->pd), 0);
	assert_int_equal(perfdata_mmap2(w->pd, &m), 0);
}

static void w_sample(struct writer *w, u32 event, u64 ip, u64 period)
{
	struct bp_sample s = { .event = event, .ip = ip, .period = period,
			       .flags = BP_SAMPLE_EXACT_IP };
	assert_int_equal(perfdata_sample(w->pd, &s), 0);
}

static void w_close(struct writer *w)
{
	assert_int_equal(perfdata_finish(w->pd), 0);
	perfdata_close(w->pd);
	assert_int_equal(plat_file_close(w->f), 0);
}

static int run(const char *args)
{
	char line[512], *argv[CLI_MAX_ARGS + 1];
	const char *err;
	struct global_opts g = { 0 };
	int argc, rc;
	snprintf(line, sizeof(line), "bareperf report %s", args);
	argc = cli_split(line, argv, CLI_MAX_ARGS, &err);
	assert_true(argc > 0);
	host_capture_start(out, sizeof(out));
	rc = cli_main(argc, argv, &g);
	host_capture_stop();
	return rc;
}

/* The host twin's own recordings name its functions:
 * its mapping is named after its own path, not bareperf.elf, and matches
 * its embedded table. */
static void test_own_recording_named(void **state)
{
	char line[] = "bareperf --pmu=sim:icx record -q -c 100003 -o own.data soak -n 2000000";
	char *argv[CLI_MAX_ARGS + 1];
	const char *err;
	struct global_opts g = { 0 };
	int argc = cli_split(line, argv, CLI_MAX_ARGS, &err);
	host_capture_start(out, sizeof(out));
	int rc = cli_main(argc, argv, &g);
	host_capture_stop();
	assert_int_equal(rc, EXIT_OK);
	assert_int_equal(run("-i own.data"), EXIT_OK);
	if (!strstr(out, "[.] soak_"))
		fail_msg("report names no soak function:\n%s", out);
}

/* The attrs of a recording say what was measured: ring 0 is
 * counted (no exclude_kernel) unless :u, config is the encoding without
 * the enable and ring bits, config1 the load-latency threshold, so that
 * ldlat=50 and LOAD_LATENCY_GT_32 are told apart. */
/* Records EVENTS over chase into attrs.data and opens it in r. */
static void record_attrs(const char *events, struct perfdata_reader *r)
{
	static u8 buf[1 << 20];
	char line[300];
	char *argv[CLI_MAX_ARGS + 1];
	const char *err;
	struct global_opts g = { 0 };
	snprintf(line, sizeof(line),
		 "bareperf --pmu=sim:icx record -q -c 1009 -o attrs.data -e %s chase --steps 100000",
		 events);
	int argc = cli_split(line, argv, CLI_MAX_ARGS, &err);
	host_capture_start(out, sizeof(out));
	int rc = cli_main(argc, argv, &g);
	host_capture_stop();
	if (rc != EXIT_OK)
		fail_msg("record -e %s failed:\n%s", events, out);
	long n = plat_file_read("attrs.data", buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(perfdata_read_open(r, buf, (u64)n), 0);
}

static void test_recorded_attrs(void **state)
{
	struct perfdata_reader r;
	/* Load latency is taken alone on icx: one recording each. */
	record_attrs("cpu/MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32,ldlat=50/p", &r);
	assert_int_equal(r.nr_attrs, 1);
	assert_int_equal(r.attrs[0].config, 0x1cd);
	assert_int_equal(r.attrs[0].config1, 50);
	assert_int_equal(r.attrs[0].flags & (PERF_ATTR_FLAG_EXCLUDE_KERNEL | PERF_ATTR_FLAG_EXCLUDE_USER), 0);
	record_attrs("instructions:u", &r);
	assert_int_equal(r.attrs[0].config, 0xc0);
	assert_true(r.attrs[0].flags & PERF_ATTR_FLAG_EXCLUDE_KERNEL);
	assert_false(r.attrs[0].flags & PERF_ATTR_FLAG_EXCLUDE_USER);
	record_attrs("mem_trans_retired.load_latency_gt_32:p", &r);
	assert_int_equal(r.attrs[0].config, 0x1cd);
	assert_int_equal(r.attrs[0].config1, 32);
	(void)state;
}

/* cycles: a 40%, b 25%, c 15%, d 10%, e 6%, f 3%, unknown 1% by period,
 * with two periods in use so shares are not just sample counts. The
 * second event: b 80%, a 20%. */
static void write_known_shares(const char *name)
{
	static const struct { long (*fn)(long); int weight; } mix[] = {
		{ report_fn_a, 40 }, { report_fn_b, 25 }, { report_fn_c, 15 },
		{ report_fn_d, 10 }, { report_fn_e, 6 }, { report_fn_f, 3 },
	};
	const struct perfdata_event *evs[] = { &cycles_ev, &loads_ev };
	struct writer w;
	w_open(&w, name, evs, 2);
	for (size_t k = 0; k < ARRAY_SIZE(mix); k++)
		for (int i = 0; i < mix[k].weight; i++) {
			/* 2 samples of 500 = 1 of 1000: alternate the two. */
			if (i % 2) {
				w_sample(&w, 0, ip_in(mix[k].fn, 2), 500);
				w_sample(&w, 0, ip_in(mix[k].fn, 4), 500);
			} else {
				w_sample(&w, 0, ip_in(mix[k].fn, 1), 1000);
			}
		}
	w_sample(&w, 0, UNKNOWN_IP, 1000);
	for (int i = 0; i < 10; i++)
		w_sample(&w, 1, ip_in(i < 8 ? report_fn_b : report_fn_a, 3), 1000);
	w_close(&w);
}

static void test_shares_by_symbol(void **state)
{
	write_known_shares("known.data");
	assert_int_equal(run("-i known.data"), EXIT_OK);
	assert_float_equal(report_share(out, "cycles:pp", "report_fn_a"), 40.0, 0.001);
	assert_float_equal(report_share(out, "cycles:pp", "report_fn_b"), 25.0, 0.001);
	assert_float_equal(report_share(out, "cycles:pp", "report_fn_f"), 3.0, 0.001);
	assert_float_equal(report_share(out, "cycles:pp", "0x00000000deadbe00"), 1.0, 0.001);
	assert_float_equal(report_share(out, "mem-loads,ldlat=30:p", "report_fn_b"), 80.0, 0.001);
	assert_float_equal(report_share(out, "mem-loads,ldlat=30:p", "report_fn_a"), 20.0, 0.001);
	/* perf's layout, our image's dso name, the unknown mapping. */
	assert_non_null(strstr(out, "# Overhead  Command   Shared Object  Symbol"));
	assert_non_null(strstr(out, "    40.00%  bareperf  bareperf.elf   [.] report_fn_a\n"));
	assert_non_null(strstr(out, "[unknown]      [.] 0x00000000deadbe00"));
	assert_non_null(strstr(out, "# Event count (approx.): 100000\n"));
}

/* Rows in order, -n, --sort dso; the default file is perf.data. */
static void test_order_limit_and_dso(void **state)
{
	struct report_row rows[8];
	write_known_shares("perf.data");
	assert_int_equal(run("-n 3"), EXIT_OK);
	assert_int_equal(report_rows(out, "cycles:pp", rows, 8), 3);
	assert_string_equal(rows[0].sym, "report_fn_a");
	assert_string_equal(rows[1].sym, "report_fn_b");
	assert_string_equal(rows[2].sym, "report_fn_c");
	assert_int_equal(run("--sort dso"), EXIT_OK);
	assert_non_null(strstr(out, "    99.00%  bareperf.elf\n"));
	assert_non_null(strstr(out, "     1.00%  [unknown]\n"));
}

/* A mapping of another file: its name and the address in it (perf's
 * map_ip), since only our own image has a table here. */
static void test_foreign_mapping(void **state)
{
	const struct perfdata_event *evs[] = { &cycles_ev };
	struct perfdata_mmap other = { "/lib/other.so", 0x400000, 0x10000, 0x1000 };
	struct writer w;
	w_open(&w, "foreign.data", evs, 1);
	assert_int_equal(perfdata_mmap2(w.pd, &other), 0);
	w_sample(&w, 0, 0x400123, 1000);
	w_sample(&w, 0, ip_in(report_fn_c, 0), 3000);
	w_close(&w);
	assert_int_equal(run("-i foreign.data"), EXIT_OK);
	assert_float_equal(report_share(out, "cycles:pp", "0x0000000000001123"), 25.0, 0.001);
	assert_non_null(strstr(out, "other.so"));
	assert_float_equal(report_share(out, "cycles:pp", "report_fn_c"), 75.0, 0.001);
}

/* A firmware run maps a hundred images before our own (cmd_record's
 * order): every mapping is kept, so our functions and the last firmware
 * image are still named (a cap of 16 left "[firmware]"). */
static void test_many_mappings(void **state)
{
	const struct perfdata_event *evs[] = { &cycles_ev };
	struct perfdata_mmap self = { elf, LOAD_BASE + symtab_header.text_vaddr,
				      symtab_header.text_size, symtab_header.text_offset };
	struct writer w;
	char name[32];
	w_open(&w, "maps.data", evs, 1);
	for (int i = 0; i < 150; i++) {
		snprintf(name, sizeof(name), "[Fw%03d.efi]", i);
		struct perfdata_mmap fw = { name, 0x10000000ULL + 0x100000ULL * (u64)i, 0x10000, 0 };
		assert_int_equal(perfdata_mmap2(w.pd, &fw), 0);
	}
	assert_int_equal(perfdata_mmap2(w.pd, &self), 0);
	w_sample(&w, 0, ip_in(report_fn_a, 0), 3000);
	w_sample(&w, 0, 0x10000000ULL + 0x100000ULL * 149 + 0x40, 1000);
	w_close(&w);
	assert_int_equal(run("-i maps.data"), EXIT_OK);
	assert_float_equal(report_share(out, "cycles:pp", "report_fn_a"), 75.0, 0.001);
	assert_non_null(strstr(out, "[Fw149.efi]"));
	assert_int_equal(run("-i maps.data --sort dso"), EXIT_OK);
	if (!strstr(out, "25.00%  [Fw149.efi]"))
		fail_msg("the 150th firmware mapping lost its samples:\n%s", out);
}

/* Far more data than the reader's 128 KiB window: every sample counted. */
static void test_big_file_in_chunks(void **state)
{
	const struct perfdata_event *evs[] = { &cycles_ev };
	struct writer w;
	w_open(&w, "big.data", evs, 1);
	for (int i = 0; i < 200000; i++)
		w_sample(&w, 0, ip_in(i % 4 ? report_fn_d : report_fn_e, (u64)(i % 8)), 10);
	w_close(&w);
	assert_true(plat_file_size("big.data") > 40 * PERFDATA_READ_WINDOW);
	assert_int_equal(run("-i big.data"), EXIT_OK);
	assert_non_null(strstr(out, "# Samples: 200000  of event 'cycles:pp'"));
	assert_float_equal(report_share(out, "cycles:pp", "report_fn_d"), 75.0, 0.001);
	assert_float_equal(report_share(out, "cycles:pp", "report_fn_e"), 25.0, 0.001);
}

/* A recording cut short (the machine reset mid-run): the header covers
 * the data flushed so far, and no feature section exists yet. The
 * event is named from the EVENT_UPDATE record the writer puts before the
 * first sample, as perf names it (issue 39 item 11: the name was 'raw
 * 0x3c' where perf said 'cycles:pp'). */
static void test_cut_short_file_names_its_event(void **state)
{
	const struct perfdata_event *evs[] = { &cycles_ev };
	struct writer w;
	w_open(&w, "short.data", evs, 1);
	for (int i = 0; i < 300; i++)
		w_sample(&w, 0, ip_in(i % 3 ? report_fn_a : report_fn_b, (u64)(i % 8)), 10);
	assert_int_equal(perfdata_flush(w.pd), 0);
	perfdata_close(w.pd);
	assert_int_equal(plat_file_close(w.f), 0);
	assert_int_equal(run("-i short.data"), EXIT_OK);
	assert_non_null(strstr(out, "# Samples: 300  of event 'cycles:pp'"));
	assert_null(strstr(out, "raw 0x"));
	assert_float_equal(report_share(out, "cycles:pp", "report_fn_a"), 66.67, 0.01);
}

static void corrupt_copy(const char *from, const char *to, long at, u8 byte, long cut)
{
	static u8 buf[1 << 20];
	long n = plat_file_read(from, buf, sizeof(buf));
	assert_true(n > at);
	buf[at] = byte;
	assert_int_equal(plat_file_write(to, buf, (size_t)(cut ? cut : n)), 0);
}

static void test_errors(void **state)
{
	write_known_shares("good.data");
	assert_int_equal(run("-i missing.data"), EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "cannot open 'missing.data' in the output folder"));
	/* an absolute name is not looked for in the output folder (issue 39
	 * item 17), and a row count past 2^64 - 1 says the range */
	assert_int_equal(run("-i /nonexistent/x.data"), EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "cannot open '/nonexistent/x.data': "));
	assert_null(strstr(out, "output folder"));
	assert_int_equal(run("-n 99999999999999999999"), EXIT_USAGE);
	assert_non_null(strstr(out, "a whole number from 1 to 18446744073709551615"));
	/* 150 bytes: the text, zero padded (the literal alone is 149) */
	static const char text[150] = "hello, this is not perf data at all, but long "
				      "enough to hold a header ...";
	assert_int_equal(plat_file_write("text.data", text, sizeof(text)), 0);
	assert_int_equal(run("-i text.data"), EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "text.data: not a perf.data file (no PERFILE2 magic)"));
	/* The first record's size (offset data + 6) set to 3: not a
	 * multiple of 8. Data starts after header, 2 attrs and their ids,
	 * with the first event's name (EVENT_UPDATE, type 78). */
	corrupt_copy("good.data", "badrec.data", 104 + 2 * 144 + 2 * 8 + 6, 3, 0);
	assert_int_equal(run("-i badrec.data"), EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "badrec.data: corrupt perf.data: record at 408 (type 78): size 3 invalid"));
	/* Cut inside the data: the header's data section runs past the end. */
	corrupt_copy("good.data", "cut.data", 0, 'P', 1000);
	assert_int_equal(run("-i cut.data"), EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "cut.data: corrupt perf.data: data section {408,"));
	assert_non_null(strstr(out, "outside the file (1000 bytes)"));
	assert_int_equal(run("--sort comm"), EXIT_USAGE);
	assert_non_null(strstr(out, "--sort 'comm': use sym or dso"));
	assert_int_equal(run("-n 0"), EXIT_USAGE);
	assert_int_equal(run("--bogus"), EXIT_USAGE);
}

/* The real perf on the same file: our top 5 rows of each event have the
 * same symbols and shares within 0.01 points. */
static void test_top5_equal_perf(void **state)
{
	static const char *const events[] = { "cycles:pp", "mem-loads,ldlat=30:p" };
	char cmd[512], path[160], *perf_out;
	struct report_row ours[5], theirs[5];
	FILE *f;
	long n;

	if (system("perf --version >/dev/null 2>&1") != 0)
		fail_msg("`perf` not found on PATH: this test needs Linux perf "
			 "(Debian/Ubuntu: apt-get install linux-perf)");
	write_known_shares("vs-perf.data");
	snprintf(cmd, sizeof(cmd), "cd %s && HOME=%s perf report --stdio --no-children "
		 "-i vs-perf.data >perf.txt 2>perf.err", dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/perf.txt", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	perf_out = calloc(1, 1 << 16);
	n = (long)fread(perf_out, 1, (1 << 16) - 1, f);
	fclose(f);
	assert_true(n > 0);
	assert_int_equal(run("-i vs-perf.data -n 5"), EXIT_OK);
	for (size_t e = 0; e < ARRAY_SIZE(events); e++) {
		int k = report_rows(out, events[e], ours, 5);
		assert_int_equal(report_rows(perf_out, events[e], theirs, 5), k);
		assert_true(k >= 2);
		for (int i = 0; i < k; i++) {
			print_message("# %s: ours %6.2f%% %s, perf %6.2f%% %s\n", events[e],
				      ours[i].share, ours[i].sym, theirs[i].share, theirs[i].sym);
			assert_string_equal(ours[i].sym, theirs[i].sym);
			assert_float_equal(ours[i].share, theirs[i].share, 0.01);
		}
	}
	free(perf_out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shares_by_symbol),
		cmocka_unit_test(test_order_limit_and_dso),
		cmocka_unit_test(test_foreign_mapping),
		cmocka_unit_test(test_many_mappings),
		cmocka_unit_test(test_recorded_attrs),
		cmocka_unit_test(test_big_file_in_chunks),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_cut_short_file_names_its_event),
		cmocka_unit_test(test_top5_equal_perf),
		cmocka_unit_test(test_own_recording_named),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
