/* perfdata/pecoff: naming a loaded PE image by its CodeView debug entry, as
 * the Microsoft PE/COFF specification lays it out ("Optional Header Data
 * Directories" index 6; "Debug Directory" entries of 28 bytes; CodeView
 * RSDS and NB10 records), on images built here byte by byte. */
#include "test.h"
#include "perfdata/pecoff.h"

#define IMG_SIZE   0x2000
#define PE_AT      0x80
#define DEBUG_AT   0x400	/* RVA of the debug directory */
#define CV_AT      0x600	/* RVA of the CodeView record */

static unsigned char img[IMG_SIZE];

static void put16(unsigned at, unsigned v) { img[at] = v & 0xFF; img[at + 1] = (v >> 8) & 0xFF; }
static void put32(unsigned at, unsigned v) { put16(at, v & 0xFFFF); put16(at + 2, v >> 16); }

/* The part of the optional header before NumberOfRvaAndSizes. */
static unsigned count_offset(unsigned magic) { return magic == PE_OPT_MAGIC_PE32PLUS ? 108 : 92; }

/* A PE image with ndirs directories; the debug directory (when ndirs > 6)
 * has `entries` entries, the last one CodeView at CV_AT (cv_len bytes). */
static void build(unsigned magic, unsigned ndirs, unsigned entries, unsigned cv_len)
{
	memset(img, 0, sizeof(img));
	put16(0, PE_DOS_MAGIC);
	put32(PE_DOS_LFANEW, PE_AT);
	put32(PE_AT, PE_SIGNATURE);
	unsigned opt = PE_AT + 4 + PE_COFF_HEADER_SIZE, at = count_offset(magic);
	put16(PE_AT + 4 + 16, at + 4 + 8 * ndirs);	/* SizeOfOptionalHeader */
	put16(opt, magic);
	put32(opt + at, ndirs);
	if (ndirs > PE_DIR_DEBUG) {
		put32(opt + at + 4 + 8 * PE_DIR_DEBUG, DEBUG_AT);
		put32(opt + at + 4 + 8 * PE_DIR_DEBUG + 4, PE_DEBUG_ENTRY_SIZE * entries);
	}
	for (unsigned e = 0; e < entries; e++) {
		unsigned d = DEBUG_AT + e * PE_DEBUG_ENTRY_SIZE;
		bool last = e + 1 == entries;
		put32(d + 12, last ? PE_DEBUG_TYPE_CODEVIEW : 16 /* REPRO */);
		put32(d + 16, last ? cv_len : 0);
		put32(d + 20, last ? CV_AT : 0);
	}
}

static void rsds(const char *path)
{
	put32(CV_AT, PE_CV_RSDS);
	memcpy(img + CV_AT + PE_CV_RSDS_PATH, path, strlen(path) + 1);
}

static void test_rsds_pe32plus(void **state)
{
	char name[256];
	build(PE_OPT_MAGIC_PE32PLUS, 16, 1, PE_CV_RSDS_PATH + 40);
	rsds("/build/edk2/Build/X64/DxeCore.debug");
	assert_true(pecoff_debug_name(img, IMG_SIZE, name, sizeof(name)));
	assert_string_equal(name, "/build/edk2/Build/X64/DxeCore.debug");
}

/* A Windows build's PDB path: backslashes become '/', and a drive
 * letter gets a leading '/', so perf's --symfs prefix makes a path. */
static void test_nb10_pe32_windows_path(void **state)
{
	char name[256];
	const char *path = "c:\\fw\\Build\\PciBusDxe.pdb";
	build(PE_OPT_MAGIC_PE32, 16, 2, PE_CV_NB10_PATH + 30);
	put32(CV_AT, PE_CV_NB10);
	memcpy(img + CV_AT + PE_CV_NB10_PATH, path, strlen(path) + 1);
	assert_true(pecoff_debug_name(img, IMG_SIZE, name, sizeof(name)));
	assert_string_equal(name, "/c:/fw/Build/PciBusDxe.pdb");
}

/* The path ends at the record's end when the NUL is missing. */
static void test_path_bounded_by_record(void **state)
{
	char name[256];
	build(PE_OPT_MAGIC_PE32PLUS, 16, 1, PE_CV_RSDS_PATH + 5);
	rsds("/a/b.debugXXXXXXXX");
	assert_true(pecoff_debug_name(img, IMG_SIZE, name, sizeof(name)));
	assert_string_equal(name, "/a/b.");
}

static void test_no_name(void **state)
{
	char name[16] = "untouched";
	/* Only 6 directories: no debug directory. */
	build(PE_OPT_MAGIC_PE32PLUS, 6, 0, 0);
	assert_false(pecoff_debug_name(img, IMG_SIZE, name, sizeof(name)));
	/* A debug directory without a CodeView entry (one REPRO entry). */
	build(PE_OPT_MAGIC_PE32PLUS, 16, 2, 0);
	put32(DEBUG_AT + PE_DEBUG_ENTRY_SIZE + 12, 16);
	assert_false(pecoff_debug_name(img, IMG_SIZE, name, sizeof(name)));
	/* A CodeView entry with an unknown signature. */
	build(PE_OPT_MAGIC_PE32PLUS, 16, 1, 64);
	put32(CV_AT, 0x12345678);
	assert_false(pecoff_debug_name(img, IMG_SIZE, name, sizeof(name)));
	/* Not a PE: no MZ, or no PE signature. */
	build(PE_OPT_MAGIC_PE32PLUS, 16, 1, 64);
	rsds("/x.debug");
	img[0] = 0;
	assert_false(pecoff_debug_name(img, IMG_SIZE, name, sizeof(name)));
	build(PE_OPT_MAGIC_PE32PLUS, 16, 1, 64);
	rsds("/x.debug");
	put32(PE_AT, 0);
	assert_false(pecoff_debug_name(img, IMG_SIZE, name, sizeof(name)));
	assert_string_equal(name, "untouched");
}

/* Every offset is checked against the image size: headers, directory and
 * record that lie outside are refused, never read. */
static void test_outside_the_image(void **state)
{
	char name[64];
	build(PE_OPT_MAGIC_PE32PLUS, 16, 1, 64);
	rsds("/x.debug");
	assert_true(pecoff_debug_name(img, IMG_SIZE, name, sizeof(name)));
	assert_false(pecoff_debug_name(img, CV_AT + 10, name, sizeof(name)));	/* record cut */
	assert_false(pecoff_debug_name(img, DEBUG_AT + 8, name, sizeof(name)));	/* directory cut */
	assert_false(pecoff_debug_name(img, PE_AT + 8, name, sizeof(name)));	/* header cut */
	put32(PE_DOS_LFANEW, 0xFFFFFFF0);
	assert_false(pecoff_debug_name(img, IMG_SIZE, name, sizeof(name)));
	build(PE_OPT_MAGIC_PE32PLUS, 16, 1, 0xFFFFFFF0);	/* huge record length */
	rsds("/x.debug");
	assert_false(pecoff_debug_name(img, IMG_SIZE, name, sizeof(name)));
	assert_false(pecoff_debug_name(NULL, IMG_SIZE, name, sizeof(name)));
}

static void test_name_cut_to_buffer(void **state)
{
	char name[8];
	build(PE_OPT_MAGIC_PE32PLUS, 16, 1, 64);
	rsds("/abcdefghijkl.debug");
	assert_true(pecoff_debug_name(img, IMG_SIZE, name, sizeof(name)));
	assert_string_equal(name, "/abcdef");
}

static void test_path_for_perf(void **state)
{
	char out[64];
	pecoff_path_for_perf("\\bareperf\\hello.efi", out, sizeof(out));
	assert_string_equal(out, "/bareperf/hello.efi");
	pecoff_path_for_perf("hello.efi", out, sizeof(out));
	assert_string_equal(out, "/hello.efi");
	pecoff_path_for_perf("/already/fine", out, sizeof(out));
	assert_string_equal(out, "/already/fine");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rsds_pe32plus),
		cmocka_unit_test(test_nb10_pe32_windows_path),
		cmocka_unit_test(test_path_bounded_by_record),
		cmocka_unit_test(test_no_name),
		cmocka_unit_test(test_outside_the_image),
		cmocka_unit_test(test_name_cut_to_buffer),
		cmocka_unit_test(test_path_for_perf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
