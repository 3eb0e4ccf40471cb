/* lib/memfs: the output folder in memory of a network boot (issue 37). */
#include "test.h"
#include "lib/memfs.h"

static void test_memfs_files(void **state)
{
	static u8 big[3 * 4096 + 100];
	u8 back[sizeof(big)];
	memfs_reset();
	assert_null(memfs_find("perf.data"));
	struct memfs_file *f = memfs_create("perf.data");
	assert_non_null(f);
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (u8)(i * 7 + 3);
	/* appends across page and doubling boundaries */
	for (size_t off = 0; off < sizeof(big); off += 1000)
		assert_int_equal(memfs_write_at(f, off, big + off, MIN(1000, sizeof(big) - off)), 0);
	assert_int_equal(memfs_size(f), sizeof(big));
	assert_int_equal(memfs_read_at(f, 0, back, sizeof(back)), sizeof(big));
	assert_memory_equal(back, big, sizeof(big));
	/* the header rewritten in place, no hole allowed past the end */
	assert_int_equal(memfs_write_at(f, 8, "HEADER", 6), 0);
	assert_int_equal(memfs_read_at(f, 6, back, 10), 10);
	assert_memory_equal(back + 2, "HEADER", 6);
	assert_int_equal(memfs_write_at(f, sizeof(big) + 1, "x", 1), -1);
	assert_non_null(strstr(memfs_error(), "past the end of perf.data"));
	assert_int_equal(memfs_read_at(f, sizeof(big), back, 4), 0);
	assert_int_equal(memfs_truncate(f, 100), 0);
	assert_int_equal(memfs_truncate(f, 101), -1);
	assert_int_equal(memfs_size(f), 100);
	/* FAT's names: case and separators do not matter */
	assert_ptr_equal(memfs_find("PERF.DATA"), f);
	struct memfs_file *g = memfs_create("runs/a.data");
	assert_ptr_equal(memfs_find("runs\\A.data"), g);
	/* rename replaces, as the ESP's does; delete frees */
	assert_int_equal(memfs_write_at(g, 0, "new", 3), 0);
	assert_int_equal(memfs_rename("runs/a.data", "perf.data"), 0);
	assert_ptr_equal(memfs_find("perf.data"), g);
	assert_int_equal(memfs_size(memfs_find("perf.data")), 3);
	assert_null(memfs_find("runs/a.data"));
	assert_int_equal(memfs_rename("nosuch", "x"), -1);
	assert_int_equal(memfs_delete("perf.data"), 0);
	assert_int_equal(memfs_delete("perf.data"), -1);
	assert_int_equal(memfs_bytes(), 0);
	/* create empties a file of that name */
	f = memfs_create("c");
	assert_int_equal(memfs_write_at(f, 0, "abc", 3), 0);
	assert_ptr_equal(memfs_create("C"), f);
	assert_int_equal(memfs_size(f), 0);
	memfs_reset();
}

static void test_memfs_limits(void **state)
{
	char name[MEMFS_NAME_MAX + 8];
	memfs_reset();
	for (int i = 0; i < MEMFS_MAX_FILES; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		assert_non_null(memfs_create(name));
	}
	assert_null(memfs_create("one.more"));
	assert_non_null(strstr(memfs_error(), "holds 32 files already"));
	memfs_reset();
	memset(name, 'a', sizeof(name) - 1);
	name[MEMFS_NAME_MAX] = 0;
	assert_null(memfs_create(name));
	assert_non_null(strstr(memfs_error(), "longer than 255 characters"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memfs_files),
		cmocka_unit_test(test_memfs_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
