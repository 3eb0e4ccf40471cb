/* printf-style formatting without libc, for the image and the host alike.
 * Supports %d %i %u %x %X %o %c %s %p %f %% with the flags '-', '0', '+',
 * ' ', width and precision (also '*'), and the length modifiers hh h l ll z. */
#ifndef BP_FMT_H
#define BP_FMT_H
#include "types.h"

/* Returns the length the full output would have (like C99 vsnprintf);
 * the buffer always ends with NUL when size > 0. */
int bp_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int bp_snprintf(char *buf, size_t size, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* "1,234,567" into buf; returns buf. */
char *fmt_thousands(u64 v, char *buf, size_t size);

#endif
