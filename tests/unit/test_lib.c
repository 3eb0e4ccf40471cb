/* lib/: string helpers and the freestanding formatter. */
#include "test.h"
#include "lib/fmt.h"
#include "lib/str.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_integers),
		cmocka_unit_test(test_fmt_truncates),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_edit_distance),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
