/* cmd/target: what `record` samples (built-in workload, UEFI application,
 * boot service loop, --connect-all), and the mappings a recording writes
 * for the other loaded images (here the host twin's shared libraries). */
#include "test.h"
#include "cli_run.h"
#include "cmd/cli.h"
#include "cmd/target.h"
#include "host/capture.h"
#include "perfdata/perfdata.h"
#include "perfdata/perfdata_read.h"
#include "lib/plat.h"
#include <sys/stat.h>
#include <unistd.h>

static char out[16384];

static int parse(struct target *t, const char *line, bool connect_all)
{
	static char buf[256];
	static char *argv[CLI_MAX_ARGS + 1];
	const char *err;
	snprintf(buf, sizeof(buf), "%s", line);
	int argc = cli_split(buf, argv, CLI_MAX_ARGS, &err);
	assert_true(argc >= 0);
	host_capture_start(out, sizeof(out));
	int rc = target_parse(t, "record", argc, argc ? argv : NULL, connect_all);
	host_capture_stop();
	return rc;
}

static void test_app_words(void **state)
{
	assert_true(target_is_app("\\EFI\\tools\\x.efi"));
	assert_true(target_is_app("hello.EFI"));
	assert_true(target_is_app("\\bareperf\\hello"));	/* a path, whatever its name */
	assert_false(target_is_app("soak"));
	assert_false(target_is_app(".efi"));
	assert_false(target_is_app("x.efix"));
	assert_false(target_is_app("bs:GetVariable"));
}

static void test_parse_kinds(void **state)
{
	struct target t;
	assert_int_equal(parse(&t, "soak -n 20000", false), EXIT_OK);
	assert_int_equal(t.kind, TARGET_WORKLOAD);
	assert_string_equal(t.comm, "soak");
	assert_int_equal(t.argc, 3);

	assert_int_equal(parse(&t, "\\bareperf\\hello.efi 30 \"a b\"", false), EXIT_OK);
	assert_int_equal(t.kind, TARGET_APP);
	assert_string_equal(t.name, "\\bareperf\\hello.efi");
	assert_string_equal(t.comm, "hello.efi");
	assert_int_equal(t.argc, 3);
	assert_string_equal(t.argv[2], "a b");

	assert_int_equal(parse(&t, "bs:LocateHandleBuffer", false), EXIT_OK);
	assert_int_equal(t.kind, TARGET_BOOT_SERVICE);
	assert_string_equal(t.name, "LocateHandleBuffer");
	assert_int_equal(t.loops, TARGET_DEFAULT_LOOPS);
	assert_string_equal(t.comm, "bs:LocateHandleBuffer");

	assert_int_equal(parse(&t, "bs:getvariable 77", false), EXIT_OK);	/* any case */
	assert_int_equal(t.loops, 77);

	assert_int_equal(parse(&t, "", true), EXIT_OK);
	assert_int_equal(t.kind, TARGET_CONNECT_ALL);
	assert_string_equal(t.comm, "connect-all");
}

static void test_parse_errors(void **state)
{
	struct target t;
	assert_int_equal(parse(&t, "bs:Nope", false), EXIT_USAGE);
	assert_non_null(strstr(out, "unknown boot service 'Nope'"));
	assert_non_null(strstr(out, "LocateHandleBuffer"));
	assert_int_equal(parse(&t, "bs:", false), EXIT_USAGE);
	assert_int_equal(parse(&t, "bs:GetVariable many", false), EXIT_USAGE);
	assert_non_null(strstr(out, "'many' is not a number of calls"));
	assert_int_equal(parse(&t, "bs:GetVariable 0", false), EXIT_USAGE);
	assert_int_equal(parse(&t, "bs:GetVariable 1 2", false), EXIT_USAGE);
	assert_int_equal(parse(&t, "soak", true), EXIT_USAGE);
	assert_non_null(strstr(out, "--connect-all is the workload"));
	/* The workload's own options are checked here, before anything is
	 * touched (a typo used to cost the previous recording). */
	assert_int_equal(parse(&t, "soak -n 1000", false), EXIT_USAGE);
	assert_non_null(strstr(out, "soak: -n '1000': expected a number from 10000 to 1099511627776"));
	/* a missing value and one beyond 2^64 are named as such */
	assert_int_equal(parse(&t, "soak -n", false), EXIT_USAGE);
	assert_non_null(strstr(out, "soak: -n needs a value"));
	assert_int_equal(parse(&t, "soak -n 18446744073709551616", false), EXIT_USAGE);
	assert_non_null(strstr(out, "expected a number from 10000 to"));
	assert_int_equal(parse(&t, "chase --steps", false), EXIT_USAGE);
	assert_non_null(strstr(out, "chase: --steps needs a value"));
	assert_int_equal(parse(&t, "irqoff --iterations 1", false), EXIT_USAGE);
	assert_non_null(strstr(out, "irqoff: --iterations '1': expected a number from 40 to"));
	assert_int_equal(parse(&t, "soak -n 5000000 -c 1000", false), EXIT_USAGE);
	assert_non_null(strstr(out, "soak: unknown option '-c'"));
	assert_int_equal(parse(&t, "chase --size 1", false), EXIT_USAGE);
	/* "16GiB" is 2^34, the upper bound itself: the refusal says why
	 * (no unit suffix), not just the range it is in. */
	assert_int_equal(parse(&t, "chase --size 16GiB", false), EXIT_USAGE);
	assert_non_null(strstr(out, "a plain number, without a unit"));
	assert_int_equal(parse(&t, "stream --passes x", false), EXIT_USAGE);
	assert_int_equal(parse(&t, "branchy --taken 101", false), EXIT_USAGE);
	assert_int_equal(parse(&t, "irqoff -x", false), EXIT_USAGE);
	assert_int_equal(parse(&t, "nosuch", false), EXIT_USAGE);
	assert_non_null(strstr(out, "unknown workload 'nosuch'"));
	assert_non_null(strstr(out, "APP.EFI"));
}

static int run(const char *args) { return cli_run(args, out, sizeof(out)); }

/* The host twin cannot run UEFI images: a clear error, before the PMU is
 * touched, and no file. */
static void test_host_refuses_uefi_work(void **state)
{
	char path[64];
	snprintf(path, sizeof(path), "/tmp/bp-target-%d.data", (int)getpid());
	unlink(path);
	char cmd[160];
	snprintf(cmd, sizeof(cmd), "--pmu=sim:icx record -o %s -- \\bareperf\\hello.efi 1", path);
	assert_int_equal(run(cmd), EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "\\bareperf\\hello.efi: the host twin cannot run UEFI images"));
	assert_int_equal(access(path, F_OK), -1);
}

struct maps_seen {
	int images, libc, self_at, unmapped, comm_soak, n;
};

static void scan(const char *path, struct maps_seen *m)
{
	static unsigned char buf[8 << 20];
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	struct perfdata_reader r;
	struct perfdata_record rec;
	assert_int_equal(perfdata_read_open(&r, buf, len), 0);
	memset(m, 0, sizeof(*m));
	m->self_at = -1;
	while (perfdata_read_next(&r, &rec) == 1) {
		if (rec.type == PERF_RECORD_COMM && strcmp(rec.name, "soak") == 0)
			m->comm_soak++;
		if (rec.type != PERF_RECORD_MMAP2)
			continue;
		if (strcmp(rec.name, plat_image_path()) == 0)
			m->self_at = m->n;
		else
			m->images++;
		if (strstr(rec.name, "libc"))
			m->libc++;
		if (rec.name[0] == '[' && strcmp(rec.name, "[vdso]") && strcmp(rec.name, "[vsyscall]"))
			m->unmapped++;
		m->n++;
	}
}

/* Every other loaded image is a mapping: on the host, the executable
 * segments of the shared libraries; our own image last (it wins where
 * perf sees overlaps), and no "[firmware]" mapping outside UEFI. */
static void test_record_maps_other_images(void **state)
{
	char path[64], cmd[160];
	struct maps_seen m;
	snprintf(path, sizeof(path), "/tmp/bp-target-%d.data", (int)getpid());
	snprintf(cmd, sizeof(cmd), "--pmu=sim:icx record -q -c 200003 -o %s soak -n 10000", path);
	assert_int_equal(run(cmd), EXIT_OK);
	assert_non_null(strstr(out, "other images mapped"));
	scan(path, &m);
	unlink(path);
	assert_int_equal(m.comm_soak, 1);
	assert_true(m.libc >= 1);
	assert_true(m.images >= 2);	/* libc and the dynamic loader at least */
	assert_int_equal(m.self_at, m.n - 1);
	assert_int_equal(m.unmapped, 0);
	assert_null(plat_unmapped_name());
}

static long file_bytes(const char *path, unsigned char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	long n = (long)fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static void assert_same_file(const char *path, const unsigned char *want, long len)
{
	static unsigned char now[4 << 20];
	assert_int_equal(file_bytes(path, now, sizeof(now)), len);
	assert_memory_equal(now, want, (size_t)len);
}

/* A command line that is wrong after the output option
 * (a workload option out of range, record's option after the workload)
 * fails before the output is touched; a good one moves the previous
 * recording to FILE.old first, as perf record keeps perf.data.old; one
 * whose previous file cannot be moved aside records nothing. */
static void test_typo_keeps_recording(void **state)
{
	static unsigned char first[4 << 20];
	char path[64], old[80], cmd[200];
	snprintf(path, sizeof(path), "/tmp/bp-keep-%d.data", (int)getpid());
	snprintf(old, sizeof(old), "%s.old", path);
	unlink(path);
	unlink(old);
	snprintf(cmd, sizeof(cmd), "--pmu=sim:icx record -q -c 20011 -o %s soak -n 20000", path);
	assert_int_equal(run(cmd), EXIT_OK);
	long len = file_bytes(path, first, sizeof(first));
	assert_true(len > 1000);

	snprintf(cmd, sizeof(cmd), "--pmu=sim:icx record -q -o %s soak -n 1000", path);
	assert_int_equal(run(cmd), EXIT_USAGE);
	assert_non_null(strstr(out, "from 10000 to"));
	snprintf(cmd, sizeof(cmd), "--pmu=sim:icx record -o %s soak -n 5000000 -c 1000", path);
	assert_int_equal(run(cmd), EXIT_USAGE);
	assert_non_null(strstr(out, "unknown option '-c'"));
	assert_same_file(path, first, len);
	assert_int_equal(access(old, F_OK), -1);	/* nothing moved either */

	snprintf(cmd, sizeof(cmd), "--pmu=sim:icx record -q -c 30011 -o %s soak -n 20000", path);
	assert_int_equal(run(cmd), EXIT_OK);
	assert_same_file(old, first, len);		/* the previous one, whole */
	struct maps_seen m;
	scan(path, &m);				/* the new one, a valid perf.data */
	assert_int_equal(m.comm_soak, 1);

	/* FILE.old cannot be replaced (a folder): refused, both files kept. */
	assert_int_equal(rename(old, path), 0);	/* the first recording back */
	assert_int_equal(mkdir(old, 0700), 0);
	assert_int_equal(run(cmd), EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "cannot move the previous"));
	assert_non_null(strstr(out, "nothing is recorded"));
	assert_same_file(path, first, len);
	rmdir(old);
	unlink(path);

	assert_int_equal(run("--pmu=sim:icx record -o \"\" soak"), EXIT_USAGE);
	assert_non_null(strstr(out, "-o '': expected a file name"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_app_words),
		cmocka_unit_test(test_parse_kinds),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_host_refuses_uefi_work),
		cmocka_unit_test(test_record_maps_other_images),
		cmocka_unit_test(test_typo_keeps_recording),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
