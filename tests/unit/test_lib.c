/* lib/: string helpers and the freestanding formatter. */
#include "test.h"
#include "lib/fmt.h"
#include "lib/serial_frame.h"
#include "lib/url.h"
#include "lib/str.h"
#include "lib/text.h"
#include "lib/undo.h"

static void check_fmt(const char *expect, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	va_start(ap, fmt);
	int n = bp_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	assert_string_equal(buf, expect);
	assert_int_equal(n, (int)strlen(expect));
}

static void test_fmt_integers(void **state)
{
	check_fmt("42 -7 ff 0x1f 00012", "%d %i %x %#x %05u", 42, -7, 255u, 31u, 12u);
	check_fmt("18446744073709551615", "%llu", ~0ULL);
	check_fmt("-9223372036854775808", "%lld", (long long)(-9223372036854775807LL - 1));
	check_fmt("[  ab][ab  ]", "[%4s][%-4s]", "ab", "ab");
	check_fmt("[0x00000000deadbeef]", "[0x%016llx]", 0xdeadbeefULL);
	check_fmt("12.35% 0.50 3", "%.2f%% %.2f %.0f", 12.345, 0.5, 3.4);
	check_fmt("abc", "%.3s", "abcdef");
	check_fmt("[   7]", "[%*d]", 4, 7);
}

static void test_fmt_truncates(void **state)
{
	char buf[8];
	int n = bp_snprintf(buf, sizeof(buf), "%s", "0123456789");
	assert_int_equal(n, 10);
	assert_string_equal(buf, "0123456");
}

static void test_parse_u64(void **state)
{
	u64 v;
	assert_true(bp_parse_u64("0x3c", &v));
	assert_int_equal(v, 0x3c);
	assert_true(bp_parse_u64("10003", &v));
	assert_int_equal(v, 10003);
	assert_true(bp_parse_u64("0b101", &v));
	assert_int_equal(v, 5);
	assert_true(bp_parse_u64("18446744073709551615", &v));
	assert_false(bp_parse_u64("18446744073709551616", &v));
	assert_false(bp_parse_u64("", &v));
	assert_false(bp_parse_u64("12x", &v));
	assert_false(bp_parse_u64("0x", &v));
}

static void test_edit_distance(void **state)
{
	assert_int_equal(bp_edit_distance("cycles", "cycles"), 0);
	assert_int_equal(bp_edit_distance("cycle", "cycles"), 1);
	assert_int_equal(bp_edit_distance("CYCLES", "cycles"), 0);
	assert_int_equal(bp_edit_distance("instructions", "instrutcions"), 2);
}

/* \bareperf\cmdline as the UEFI shell's `echo ... > FILE` writes it
 * (UCS-2 with a BOM) was read as bytes: "unknown command '??-'". */
static long decode(const void *in, size_t n, char *out, size_t cap, const char **enc, char *why)
{
	return text_decode(in, n, out, cap, enc, why, 96);
}

static void test_text_encodings(void **state)
{
	static const u8 le_bom[] = { 0xFF, 0xFE, '-', 0, '-', 0, 'q', 0, ' ', 0, 'i', 0, 'n', 0,
				     'f', 0, 'o', 0, '\r', 0, '\n', 0 };
	static const u8 be_bom[] = { 0xFE, 0xFF, 0, 'i', 0, 'n', 0, 'f', 0, 'o' };
	static const u8 u8_bom[] = { 0xEF, 0xBB, 0xBF, 'i', 0xC3, 0xA9, ' ', 'x' };
	static const u8 cjk[] = { 0xFF, 0xFE, 'a', 0, ' ', 0, 0x2D, 0x4E, ' ', 0, 'b', 0 };
	static const u8 lone[] = { 'a', 0, 0x00, 0xD8, 'b', 0 };
	static const u8 odd[] = { 0xFF, 0xFE, 'a', 0, 'b' };
	char out[64], why[96];
	const char *enc;

	assert_int_equal(decode(le_bom, sizeof(le_bom), out, sizeof(out), &enc, why), 10);
	assert_string_equal(out, "--q info\r\n");
	assert_string_equal(enc, "UTF-16LE");
	/* without its BOM: a second byte 0 after a first that is not */
	assert_int_equal(decode(le_bom + 2, sizeof(le_bom) - 2, out, sizeof(out), &enc, why), 10);
	assert_string_equal(enc, "UTF-16LE without BOM");
	assert_int_equal(decode(be_bom, sizeof(be_bom), out, sizeof(out), &enc, why), 4);
	assert_string_equal(out, "info");
	/* UTF-8 with a BOM: decoded, e-acute as Latin-1's 0xE9 */
	assert_int_equal(decode(u8_bom, sizeof(u8_bom), out, sizeof(out), &enc, why), 4);
	assert_string_equal(out, "i\xe9 x");
	assert_string_equal(enc, "UTF-8 with BOM");
	/* plain bytes stay as they are */
	assert_int_equal(decode("info -v", 7, out, sizeof(out), &enc, why), 7);
	assert_string_equal(enc, "bytes");
	/* a character bareperf cannot represent: named, '?' in its place */
	assert_int_equal(decode(cjk, sizeof(cjk), out, sizeof(out), &enc, why), TEXT_BAD_CHAR);
	assert_string_equal(why, "U+4E2D at character 3 is outside ASCII/Latin-1");
	assert_string_equal(out, "a ? b");
	assert_int_equal(decode(lone, sizeof(lone), out, sizeof(out), &enc, why), TEXT_BAD_CHAR);
	assert_string_equal(why, "byte 2 starts no UTF-16LE without BOM character");
	assert_int_equal(decode(odd, sizeof(odd), out, sizeof(out), &enc, why), TEXT_BAD_CHAR);
	/* too long, and U+0000 ends the text */
	assert_int_equal(decode(le_bom, sizeof(le_bom), out, 5, &enc, why), TEXT_TOO_LONG);
	assert_string_equal(out, "--q ");
	assert_int_equal(decode("ab\0cd", 5, out, sizeof(out), &enc, why), 2);
}

static char undo_order[8];
static int undo_n;
static void note_undo(void *ctx) { undo_order[undo_n++] = *(char *)ctx; }

/* Exit hooks: added once, run last first, and forgotten with the memory
 * they point into (a command's freed state). */
static void test_undo_list(void **state)
{
	struct undo_entry e[4];
	struct undo_list l = { e, 0, 4 };
	static char state_block[3] = { 'a', 'b', 'c' };
	static char other = 'x';
	assert_int_equal(undo_add(&l, note_undo, &other), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(undo_add(&l, note_undo, &state_block[i]), 0);
	assert_int_equal(undo_add(&l, note_undo, &other), 0);	/* there already */
	assert_int_equal(l.count, 4);
	assert_int_equal(undo_add(&l, note_undo, NULL), -1);	/* full */
	undo_forget(&l, &state_block[1], 2);			/* b and c */
	undo_run(&l);
	assert_int_equal(undo_n, 2);
	assert_memory_equal(undo_order, "ax", 2);
	assert_int_equal(l.count, 0);
}

/* lib/serial_frame: the CRC-32 is zlib's (its check value for
 * "123456789" is CBF43926H), the base64 RFC 4648's, and a chunk's CRC
 * covers its number, so the same bytes under another number differ. */
static void test_serial_frames(void **state)
{
	char line[SERIAL_FRAME_LINE_MAX];
	assert_int_equal(crc32_update(0, "123456789", 9), 0xCBF43926u);
	assert_int_equal(crc32_update(crc32_update(0, "1234", 4), "56789", 5), 0xCBF43926u);
	size_t n = serial_frame_chunk(line, sizeof(line), 0, "foob", 4);
	assert_int_equal(n, strlen(line));
	u32 crc = crc32_update(crc32_update(0, "\0\0\0\0", 4), "foob", 4);
	char want[64];
	snprintf(want, sizeof(want), "BPS1 0 %08x Zm9vYg==|\n", crc);
	assert_string_equal(line, want);
	serial_frame_chunk(line, sizeof(line), 7, "foobar", 6);
	crc = crc32_update(crc32_update(0, "\7\0\0\0", 4), "foobar", 6);
	snprintf(want, sizeof(want), "BPS1 7 %08x Zm9vYmFy|\n", crc);
	assert_string_equal(line, want);
	static u8 full[SERIAL_FRAME_CHUNK + 1];
	n = serial_frame_chunk(line, sizeof(line), 4000000000u, full, SERIAL_FRAME_CHUNK);
	assert_true(n > 0 && n < SERIAL_FRAME_LINE_MAX);
	assert_int_equal(serial_frame_chunk(line, sizeof(line), 0, full, SERIAL_FRAME_CHUNK + 1), 0);
	assert_int_equal(serial_frame_chunk(line, 40, 0, full, SERIAL_FRAME_CHUNK), 0);
	assert_int_equal(serial_frame_chunks(0), 0);
	assert_int_equal(serial_frame_chunks(SERIAL_FRAME_CHUNK), 1);
	assert_int_equal(serial_frame_chunks(SERIAL_FRAME_CHUNK + 1), 2);
	serial_frame_begin(line, sizeof(line), "a b.data", 361);
	assert_string_equal(line, "BPSEND1 begin size=361 chunks=3 chunk=180 name=a b.data|\n");
	serial_frame_end(line, sizeof(line), "a b.data", 361, 0xabcdef01u);
	assert_string_equal(line, "BPSEND1 end size=361 chunks=3 crc32=abcdef01 name=a b.data|\n");
}

/* lib/url: http://HOST[:PORT]/PATH, and the file name a recording gets. */
static void test_urls(void **state)
{
	struct url u;
	char why[160];
	assert_true(url_is_url("http://a/b"));
	assert_true(url_is_url("HTTPS://a"));
	assert_false(url_is_url("perf.data"));
	assert_false(url_is_url("runs/a:b"));
	assert_int_equal(url_parse("http://10.0.2.2:8080/runs/a.data", &u, why, sizeof(why)), 0);
	assert_string_equal(u.host, "10.0.2.2");
	assert_int_equal(u.port, 8080);
	assert_string_equal(u.path, "/runs/a.data");
	assert_string_equal(url_file_name(&u, "perf.data"), "a.data");
	assert_int_equal(url_parse("http://lab/up/", &u, why, sizeof(why)), 0);
	assert_int_equal(u.port, 80);
	assert_string_equal(url_file_name(&u, "perf.data"), "perf.data");
	assert_int_equal(url_parse("https://lab/x", &u, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "only http:// URLs are taken (https needs"));
	assert_int_equal(url_parse("http://lab:65536/x", &u, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "the port is not a number from 1 to 65535"));
	assert_int_equal(url_parse("http://lab:/x", &u, why, sizeof(why)), -1);
	assert_int_equal(url_parse("http:///x", &u, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no host"));
	assert_int_equal(url_parse("http://lab", &u, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no path"));
	assert_int_equal(url_parse("http://lab/a b", &u, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no blanks"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_integers),
		cmocka_unit_test(test_fmt_truncates),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_undo_list),
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test(test_text_encodings),
		cmocka_unit_test(test_serial_frames),
		cmocka_unit_test(test_urls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
