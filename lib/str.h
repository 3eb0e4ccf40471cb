/* String and memory helpers. The image has no libc, so everything shared
 * between image and host uses these instead of <string.h>. */
#ifndef BP_STR_H
#define BP_STR_H
#include "types.h"

size_t bp_strlen(const char *s);
int bp_strcmp(const char *a, const char *b);
int bp_strncmp(const char *a, const char *b, size_t n);
int bp_strcasecmp(const char *a, const char *b);
int bp_strncasecmp(const char *a, const char *b, size_t n);
char *bp_strchr(const char *s, int c);
bool bp_starts_with(const char *s, const char *prefix);
/* Copies at most size-1 bytes and always terminates; returns strlen(src). */
size_t bp_strlcpy(char *dst, const char *src, size_t size);
void *bp_memset(void *d, int c, size_t n);
void *bp_memcpy(void *d, const void *s, size_t n);
void *bp_memmove(void *d, const void *s, size_t n);
int bp_memcmp(const void *a, const void *b, size_t n);
int bp_tolower(int c);
bool bp_isdigit(int c);
bool bp_isxdigit(int c);
bool bp_isalpha(int c);
bool bp_isalnum(int c);
bool bp_isspace(int c);

/* Parses an unsigned integer: decimal, 0x hex, or 0b binary. The whole
 * string must be consumed. Returns false on junk, empty input or overflow. */
bool bp_parse_u64(const char *s, u64 *out);
/* Same, but stops at the first character that cannot continue the number;
 * *end points there. Returns false if no digit was read or on overflow. */
bool bp_parse_u64_prefix(const char *s, u64 *out, const char **end);

/* Edit distance, for "did you mean" suggestions (case-insensitive). */
unsigned bp_edit_distance(const char *a, const char *b);

#endif
