/* Text files in the encodings of the tools that write them: see text.h. */
#include "text.h"
#include "fmt.h"

enum enc { BYTES, UTF16LE, UTF16BE, UTF8 };

/* The next code point of in[*i..n) in encoding e, *i advanced; -1: a
 * sequence that is not one (a lone surrogate, bad UTF-8, an odd last
 * byte). */
static long next_char(enum enc e, const u8 *in, size_t n, size_t *i)
{
	u32 c, lo;
	switch (e) {
	case UTF16LE:
	case UTF16BE:
		if (*i + 2 > n) {
			*i = n;
			return -1;
		}
		c = e == UTF16LE ? (u32)in[*i] | (u32)in[*i + 1] << 8 : (u32)in[*i] << 8 | in[*i + 1];
		*i += 2;
		if (c < 0xD800 || c > 0xDFFF)
			return c;
		if (c > 0xDBFF || *i + 2 > n)
			return -1;
		lo = e == UTF16LE ? (u32)in[*i] | (u32)in[*i + 1] << 8 : (u32)in[*i] << 8 | in[*i + 1];
		if (lo < 0xDC00 || lo > 0xDFFF)
			return -1;
		*i += 2;
		return 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
	case UTF8: {
		u8 b = in[(*i)++];
		int more = b < 0x80 ? 0 : (b & 0xE0) == 0xC0 ? 1 : (b & 0xF0) == 0xE0 ? 2
			 : (b & 0xF8) == 0xF0 ? 3 : -1;
		if (more < 0)
			return -1;
		c = more ? b & (0x3F >> more) : b;
		for (; more; more--) {
			if (*i >= n || (in[*i] & 0xC0) != 0x80)
				return -1;
			c = c << 6 | (in[(*i)++] & 0x3F);
		}
		return c;
	}
	case BYTES:
		break;
	}
	return in[(*i)++];
}

long text_decode(const u8 *in, size_t n, char *out, size_t cap, const char **encoding,
		 char *why, size_t whycap)
{
	enum enc e = BYTES;
	size_t i = 0, len = 0;
	long rc = 0, chars = 0;

	*encoding = "bytes";
	if (n >= 2 && in[0] == 0xFF && in[1] == 0xFE) {
		e = UTF16LE, i = 2, *encoding = "UTF-16LE";
	} else if (n >= 2 && in[0] == 0xFE && in[1] == 0xFF) {
		e = UTF16BE, i = 2, *encoding = "UTF-16BE";
	} else if (n >= 3 && in[0] == 0xEF && in[1] == 0xBB && in[2] == 0xBF) {
		e = UTF8, i = 3, *encoding = "UTF-8 with BOM";
	} else if (n >= 2 && in[0] && !in[1]) {
		e = UTF16LE, *encoding = "UTF-16LE without BOM";
	}
	while (i < n) {
		size_t at = i;
		long c = next_char(e, in, n, &i);
		chars++;
		if (c == 0)
			break;
		if ((c < 0 || c > 0xFF) && rc == 0) {
			rc = TEXT_BAD_CHAR;
			if (c < 0)
				bp_snprintf(why, whycap, "byte %llu starts no %s character",
					    (unsigned long long)at, *encoding);
			else
				bp_snprintf(why, whycap, "U+%04lX at character %ld is outside "
					    "ASCII/Latin-1", c, chars);
		}
		if (len + 1 >= cap) {
			out[len] = 0;
			return TEXT_TOO_LONG;
		}
		out[len++] = c < 0 || c > 0xFF ? '?' : (char)c;
	}
	out[len] = 0;
	return rc ? rc : (long)len;
}
