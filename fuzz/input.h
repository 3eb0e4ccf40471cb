/* Fuzz support: a cursor that takes typed values off the front of
 * libFuzzer's bytes (past the end every value reads 0, so every input
 * means something), and the check that turns a broken invariant into a
 * crash libFuzzer reports. Fuzz targets may use libc, as tests do. */
#ifndef BP_FUZZ_INPUT_H
#define BP_FUZZ_INPUT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond)                                                     \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "%s:%d: invariant broken: %s\n",     \
				__FILE__, __LINE__, #cond);                  \
			abort();                                             \
		}                                                            \
	} while (0)

struct input {
	const uint8_t *p;
	size_t left;
};

/* Little-endian value of `bytes` bytes (at most 8). */
static inline uint64_t in_uint(struct input *in, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes && in->left; i++, in->left--)
		v |= (uint64_t)*in->p++ << (8 * i);
	return v;
}

static inline uint8_t in_u8(struct input *in)   { return (uint8_t)in_uint(in, 1); }
static inline uint16_t in_u16(struct input *in) { return (uint16_t)in_uint(in, 2); }
static inline uint32_t in_u32(struct input *in) { return (uint32_t)in_uint(in, 4); }
static inline uint64_t in_u64(struct input *in) { return in_uint(in, 8); }
static inline bool in_bool(struct input *in)    { return in_u8(in) & 1; }

/* A string: one length byte, then that many bytes (cut to cap - 1 and to
 * what is left; an embedded NUL ends it early). */
static inline const char *in_str(struct input *in, char *buf, size_t cap)
{
	size_t n = in_u8(in);
	n = n < cap - 1 ? n : cap - 1;
	n = n < in->left ? n : in->left;
	memcpy(buf, in->p, n);
	buf[n] = 0;
	in->p += n;
	in->left -= n;
	return buf;
}

/* The rest of the input as a heap string of exactly its length + 1, so
 * that ASan catches a read past its NUL. The caller frees it. */
static inline char *in_rest_str(struct input *in)
{
	char *s = malloc(in->left + 1);
	memcpy(s, in->p, in->left);
	s[in->left] = 0;
	in->p += in->left;
	in->left = 0;
	return s;
}

#endif
