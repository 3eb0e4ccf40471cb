/* The host twin's commands and the files they name (issue 39): names stay
 * inside the output folder, the one separator is as good as the other,
 * and a record whose target could not start leaves the previous
 * recording where it was. The output folder is a scratch
 * $BAREPERF_OUT/bareperf, so a name that escapes it lands next to it,
 * where the tests look. */
#include "test.h"
#include "cli_run.h"
#include "lib/plat.h"
#include <sys/stat.h>
#include <unistd.h>

static char top[64], dir[96], out[16384];

static int setup(void **state)
{
	char loader[160];
	strcpy(top, "/tmp/bp-files-XXXXXX");
	if (!mkdtemp(top))
		return -1;
	snprintf(dir, sizeof(dir), "%s/bareperf", top);
	snprintf(loader, sizeof(loader), "mkdir -p %s %s/EFI/BOOT && echo loader >%s/EFI/BOOT/BOOTX64.EFI",
		 dir, top, top);
	if (system(loader) || setenv("BAREPERF_OUT", dir, 1))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	return system(cmd) == 0 ? 0 : -1;
}

static int run(const char *line)
{
	return cli_run(line, out, sizeof(out));
}

/* A file at top/rel: its bytes into buf (NUL-terminated); -1: none. */
static long top_file(const char *rel, char *buf, size_t cap)
{
	char path[192];
	snprintf(path, sizeof(path), "%s/%s", top, rel);
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, cap - 1, f);
	fclose(f);
	buf[n] = 0;
	return (long)n;
}

static void expect_loader_intact(void)
{
	char buf[64];
	assert_int_equal(top_file("EFI/BOOT/BOOTX64.EFI", buf, sizeof(buf)), 7);
	assert_string_equal(buf, "loader\n");
	assert_int_equal(top_file("EFI/BOOT/BOOTX64.EFI.old", buf, sizeof(buf)), -1);
}

/* record -o ../EFI/BOOT/BOOTX64.EFI wrote perf.data as the boot loader
 * and moved the loader to BOOTX64.EFI.old. Now every name that leaves
 * the folder, with either separator, is refused before anything is
 * touched, and says why; report -i too. */
static void test_names_stay_inside(void **state)
{
	static const char *const escapes[] = {
		"../EFI/BOOT/BOOTX64.EFI", "..\\EFI\\BOOT\\BOOTX64.EFI", "sub/../../x.data",
		"..", "a\\..\\..\\x.data",
	};
	char line[256], want[256];
	for (size_t i = 0; i < sizeof(escapes) / sizeof(escapes[0]); i++) {
		snprintf(line, sizeof(line), "--pmu=sim:icx record -q -o %s soak -n 20000", escapes[i]);
		assert_int_equal(run(line), EXIT_USAGE);
		snprintf(want, sizeof(want), "bareperf record: -o %s: names outside %s/ are refused (..)",
			 escapes[i], dir);
		if (!strstr(out, want))
			fail_msg("record -o %s said:\n%s", escapes[i], out);
		snprintf(line, sizeof(line), "report -i %s", escapes[i]);
		assert_int_equal(run(line), EXIT_USAGE);
		if (!strstr(out, "names outside"))
			fail_msg("report -i %s said:\n%s", escapes[i], out);
	}
	expect_loader_intact();
	/* a .EFI name is no recording, whatever the case */
	assert_int_equal(run("--pmu=sim:icx record -q -o boot.Efi soak -n 20000"), EXIT_USAGE);
	assert_non_null(strstr(out, "-o boot.Efi: a .EFI name is refused for output"));
	/* the platform's own calls refuse them too, and say why */
	assert_null(plat_file_create("../escaped.data"));
	assert_non_null(strstr(plat_file_error(), "names outside"));
	assert_true(plat_file_write("..\\escaped.data", "x", 1) < 0);
	assert_true(plat_file_rename("perf.data", "../EFI/BOOT/BOOTX64.EFI") < 0);
	assert_true(plat_file_size("../EFI/BOOT/BOOTX64.EFI") < 0);
	assert_int_equal(top_file("escaped.data", (char[8]){ 0 }, 8), -1);
	expect_loader_intact();
	/* inside, ".." that stays inside is no escape, and "." is fine */
	assert_int_equal(run("--pmu=sim:icx record -q -o ./in.data soak -n 20000"), EXIT_OK);
	assert_true(plat_file_size("in.data") > 0);
}

/* -o nodir\x.data failed with "cannot create" and no reason while
 * -o sub/x.data made the folder: now either separator makes the folder,
 * and a name that cannot be created says why. */
static void test_both_separators(void **state)
{
	char buf[8];
	assert_int_equal(run("--pmu=sim:icx record -q -o nodir\\x.data soak -n 20000"), EXIT_OK);
	assert_true(plat_file_size("nodir/x.data") > 0);
	assert_int_equal(run("--pmu=sim:icx record -q -o sub/x.data soak -n 20000"), EXIT_OK);
	assert_true(plat_file_size("sub\\x.data") > 0);
	assert_int_equal(run("report -i nodir\\x.data"), EXIT_OK);
	assert_int_equal(top_file("bareperf/nodir\\x.data", buf, sizeof(buf)), -1);
	/* a file where a folder must be */
	assert_int_equal(run("--pmu=sim:icx record -q -o sub/x.data/y.data soak -n 20000"),
			 EXIT_FAILURE_STATUS);
	if (!strstr(out, "bareperf record: cannot create sub/x.data/y.data: Not a directory"))
		fail_msg("said:\n%s", out);
	assert_int_equal(run("report -i nodir/none.data"), EXIT_FAILURE_STATUS);
	if (!strstr(out, "No such file or directory"))
		fail_msg("said:\n%s", out);
}

/* The contents of the output folder's file name, or "" when there is none. */
static const char *contents(const char *name)
{
	static char buf[64];
	long n = plat_file_read(name, buf, sizeof(buf) - 1);
	buf[n < 0 ? 0 : n] = 0;
	return buf;
}

/* A record whose target could not start replaced keep.data with a
 * recording of nothing (the previous moved to keep.data.old), so two such
 * commands in a row lost it. Now the previous recording stays where it
 * was, and a run with no previous file leaves none. */
static void test_failed_start_keeps_previous(void **state)
{
	static const char *const fails[] = {
		"--pmu=sim:icx record -q -o keep.data --connect-all",
		"--pmu=sim:icx record -q -o keep.data -- bs:GetVariable 10",
	};
	assert_int_equal(plat_file_write("keep.data", "original", 8), 0);
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < sizeof(fails) / sizeof(fails[0]); i++) {
			assert_int_equal(run(fails[i]), EXIT_FAILURE_STATUS);
			if (!strstr(out, "nothing recorded (the target did not start): the previous "
					 "recording is back where it was"))
				fail_msg("%s said:\n%s", fails[i], out);
			assert_string_equal(contents("keep.data"), "original");
			assert_true(plat_file_size("keep.data.old") < 0);
		}
	assert_int_equal(run("--pmu=sim:icx record -q -o none.data --connect-all"),
			 EXIT_FAILURE_STATUS);
	assert_non_null(strstr(out, "nothing recorded (the target did not start): no file written"));
	assert_true(plat_file_size("none.data") < 0);
	/* a target that runs still moves the previous one aside */
	assert_int_equal(run("--pmu=sim:icx record -q -o keep.data soak -n 20000"), EXIT_OK);
	assert_string_equal(contents("keep.data.old"), "original");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_stay_inside),
		cmocka_unit_test(test_both_separators),
		cmocka_unit_test(test_failed_start_keeps_previous),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
