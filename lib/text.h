/* Text files the user writes on the target machine (\bareperf\cmdline) in
 * whatever encoding their tool chose: the UEFI shell's `echo ... > FILE`
 * writes UCS-2 (UTF-16LE) with a byte-order mark; Windows editors write
 * UTF-8 with one. The image's strings are bytes, one per character (a
 * path reaches the firmware as (CHAR16)(u8)c: Latin-1), so text comes out
 * as ASCII/Latin-1. */
#ifndef BP_TEXT_H
#define BP_TEXT_H
#include "types.h"

#define TEXT_TOO_LONG   (-1)	/* out holds what fit */
#define TEXT_BAD_CHAR   (-2)	/* a character out of reach; why says which */

/* Decodes in[0..n) into out, NUL-terminated, at most cap - 1 characters:
 * UTF-16LE (UCS-2) with its mark FF FE or without one (a file whose
 * second byte is 0 and first is not), UTF-16BE with its mark FE FF,
 * UTF-8 with its mark EF BB BF (then decoded), else the bytes as they are.
 * A U+0000 ends the text. *encoding names what was read ("UTF-16LE",
 * "UTF-16LE without BOM", "UTF-16BE", "UTF-8 with BOM" or "bytes").
 * Returns the characters written, TEXT_TOO_LONG, or TEXT_BAD_CHAR with
 * why (e.g. "U+4E2D at character 12 is outside ASCII/Latin-1") and out
 * holding the rest of the text, '?' for that character. */
long text_decode(const u8 *in, size_t n, char *out, size_t cap, const char **encoding,
		 char *why, size_t whycap);

#endif
