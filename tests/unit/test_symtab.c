/* The embedded symbol table (perfdata/symtab.h, tools/gen-symtab,
 * tools/symtab-link): this test binary carries its own table, which must
 * name its own functions as nm does, and the two-pass link must refuse a
 * layout where the table moves code. */
#include "test.h"
#include "lib/plat.h"
#include "perfdata/symtab.h"
#include <unistd.h>

__attribute__((noinline)) int symtab_test_target(int x)
{
	return x * 3 + 1;
}

static int data_word = 42;

static u64 rel(const void *p)
{
	return (u64)(uintptr_t)p - plat_image_base();
}

static void test_own_functions_by_address(void **state)
{
	u64 off = 99;
	assert_true(symtab_count() > 50);
	assert_string_equal(symtab_lookup(rel((void *)symtab_test_target), &off), "symtab_test_target");
	assert_int_equal(off, 0);
	assert_string_equal(symtab_lookup(rel((void *)symtab_test_target) + 2, &off), "symtab_test_target");
	assert_int_equal(off, 2);
	assert_string_equal(symtab_lookup(rel((void *)symtab_lookup), NULL), "symtab_lookup");
	/* Data and address 0 are no function. */
	assert_null(symtab_lookup(rel(&data_word), NULL));
	assert_null(symtab_lookup(0, NULL));
	assert_int_equal(symtab_test_target(data_word), 127);
}

static void test_table_sorted_and_self_consistent(void **state)
{
	for (u32 i = 0; i < symtab_count(); i++) {
		const struct symtab_entry *e = &symtab_entries[i];
		if (i)
			assert_true(e->addr > symtab_entries[i - 1].addr);
		if (e->size)
			assert_ptr_equal(symtab_lookup(e->addr + e->size - 1, NULL), symtab_names + e->name);
	}
}

/* Cross-check against binutils: every sized function nm lists resolves
 * to itself or to an alias at the same address. */
static void test_matches_nm(void **state)
{
	char line[512], cmd[128];
	unsigned checked = 0;
	FILE *p;
	snprintf(cmd, sizeof(cmd), "nm -S --defined-only /proc/%d/exe", (int)getpid());
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		unsigned long long addr, size;
		char type, name[256];
		u64 off;
		const char *got;
		if (sscanf(line, "%llx %llx %c %255s", &addr, &size, &type, name) != 4 ||
		    (type != 't' && type != 'T') || !size)
			continue;
		got = symtab_lookup(addr + size / 2, &off);
		assert_non_null(got);
		assert_int_equal(addr + size / 2 - off, addr);
		checked++;
	}
	pclose(p);
	assert_true(checked > 50);
	assert_true(checked <= symtab_count());
}

static void test_file_offsets_map_to_link_addresses(void **state)
{
	u64 link;
	assert_true(symtab_file_to_link(symtab_header.text_offset + 16, &link));
	assert_true(link == symtab_header.text_vaddr + 16);
	assert_false(symtab_file_to_link(symtab_header.text_offset + symtab_header.text_size, &link));
	/* Every function lies inside the executable segment. */
	assert_true(symtab_entries[0].addr >= symtab_header.text_vaddr);
}

/* symtab-link on a tiny shared object: with the table after the code it
 * links; with the table placed before the code, the code moves between
 * the passes and the build must fail, saying so. */
static int link_tiny(const char *dir, const char *layout)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd),
		 "cd %s && printf '%%s\\n' 'int f1(int x) { return x + 1; }' "
		 "'int f2(int x) { return x * 2; }' >t.c && "
		 "printf 'SECTIONS { . = 0; %s }\\n' >t.lds && "
		 "%s/tools/symtab-link t.so 'gcc -I%s -c -fpic' "
		 "gcc -shared -nostdlib -fpic -Wl,-T,t.lds -o @OUT@ t.c @SYMTAB@ >log.txt 2>&1",
		 dir, layout, getenv("PWD"), getenv("PWD"));
	return system(cmd);
}

static void test_link_refuses_moved_code(void **state)
{
	char dir[] = "/tmp/bp-symtab-XXXXXX", path[128], log[2048] = { 0 };
	FILE *f;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(link_tiny(dir, ".text : { *(.text) } . = ALIGN(4096); "
				    ".data : { *(.data) *(.bp_symtab) }"), 0);
	assert_int_not_equal(link_tiny(dir, ".data : { *(.bp_symtab) } .text : { *(.text) }"), 0);
	snprintf(path, sizeof(path), "%s/log.txt", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	fread(log, 1, sizeof(log) - 1, f);
	fclose(f);
	assert_non_null(strstr(log, "functions moved between pass 1 and pass 2"));
	snprintf(path, sizeof(path), "%s/t.so", dir);
	assert_int_not_equal(access(path, F_OK), 0);	/* no half-good output left */
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_functions_by_address),
		cmocka_unit_test(test_table_sorted_and_self_consistent),
		cmocka_unit_test(test_matches_nm),
		cmocka_unit_test(test_file_offsets_map_to_link_addresses),
		cmocka_unit_test(test_link_refuses_moved_code),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
