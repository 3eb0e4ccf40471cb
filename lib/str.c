#include "str.h"

size_t bp_strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

int bp_strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int bp_strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	}
	return 0;
}

int bp_tolower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

int bp_strcasecmp(const char *a, const char *b)
{
	while (*a && bp_tolower(*a) == bp_tolower(*b))
		a++, b++;
	return bp_tolower((unsigned char)*a) - bp_tolower((unsigned char)*b);
}

int bp_strncasecmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		int ca = bp_tolower((unsigned char)*a), cb = bp_tolower((unsigned char)*b);
		if (ca != cb || !ca)
			return ca - cb;
	}
	return 0;
}

char *bp_strchr(const char *s, int c)
{
	for (; *s; s++)
		if (*s == (char)c)
			return (char *)s;
	return c ? NULL : (char *)s;
}

bool bp_starts_with(const char *s, const char *prefix)
{
	return bp_strncmp(s, prefix, bp_strlen(prefix)) == 0;
}

size_t bp_strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = bp_strlen(src);
	if (size) {
		size_t n = len < size - 1 ? len : size - 1;
		bp_memcpy(dst, src, n);
		dst[n] = 0;
	}
	return len;
}

void *bp_memset(void *d, int c, size_t n)
{
	u8 *p = d;
	while (n--)
		*p++ = (u8)c;
	return d;
}

/* Words where both sides are 8-byte aligned (samples, records), bytes
 * for the rest: a byte loop cost the IBS interrupt 2,000 instructions per
 * sample (bench_pmi). may_alias: the words may be of any type. */
typedef u64 __attribute__((may_alias)) any_u64;

void *bp_memcpy(void *d, const void *s, size_t n)
{
	u8 *dp = d;
	const u8 *sp = s;
	if ((((uintptr_t)dp | (uintptr_t)sp) & 7) == 0) {
		for (; n >= 8; n -= 8, dp += 8, sp += 8)
			*(any_u64 *)dp = *(const any_u64 *)sp;
	}
	while (n--)
		*dp++ = *sp++;
	return d;
}

void *bp_memmove(void *d, const void *s, size_t n)
{
	u8 *dp = d;
	const u8 *sp = s;
	if (dp < sp) {
		while (n--)
			*dp++ = *sp++;
	} else {
		while (n--)
			dp[n] = sp[n];
	}
	return d;
}

int bp_memcmp(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;
	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

bool bp_isdigit(int c) { return c >= '0' && c <= '9'; }
bool bp_isalpha(int c) { c = bp_tolower(c); return c >= 'a' && c <= 'z'; }
bool bp_isalnum(int c) { return bp_isdigit(c) || bp_isalpha(c); }
bool bp_isspace(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool bp_isxdigit(int c)
{
	c = bp_tolower(c);
	return bp_isdigit(c) || (c >= 'a' && c <= 'f');
}

static int digit_value(int c)
{
	c = bp_tolower(c);
	if (bp_isdigit(c))
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	return 99;
}

bool bp_parse_u64_prefix(const char *s, u64 *out, const char **end)
{
	unsigned base = 10;
	u64 v = 0;
	const char *p = s;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && bp_isxdigit(p[2]))
		base = 16, p += 2;
	else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B') &&
		 (p[2] == '0' || p[2] == '1'))
		base = 2, p += 2;
	const char *digits = p;
	for (int d; (d = digit_value(*p)) < (int)base; p++) {
		if (v > (~0ULL - (u64)d) / base)
			return false;
		v = v * base + (u64)d;
	}
	if (p == digits)
		return false;
	*out = v;
	if (end)
		*end = p;
	return true;
}

bool bp_parse_u64(const char *s, u64 *out)
{
	const char *end;
	return bp_parse_u64_prefix(s, out, &end) && *end == 0;
}

unsigned bp_edit_distance(const char *a, const char *b)
{
	/* Two-row Levenshtein; names longer than 63 chars are compared on
	 * their first 63, which is plenty for suggestions. */
	unsigned row0[64], row1[64];
	size_t la = MIN(bp_strlen(a), 63), lb = MIN(bp_strlen(b), 63);
	unsigned *prev = row0, *cur = row1;

	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned cost = bp_tolower(a[i - 1]) != bp_tolower(b[j - 1]);
			unsigned best = prev[j - 1] + cost;
			best = MIN(best, prev[j] + 1);
			best = MIN(best, cur[j - 1] + 1);
			cur[j] = best;
		}
		unsigned *t = prev; prev = cur; cur = t;
	}
	return prev[lb];
}
