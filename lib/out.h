/* Formatted output for commands: out_*() to the console, err_*() for
 * diagnostics. Each call formats into a bounded buffer; a longer line is
 * cut with a note saying how much was cut, never overrun (out_puts writes
 * any length). */
#ifndef BP_OUT_H
#define BP_OUT_H
#include "types.h"

void out_printf(const char *fmt, ...) PRINTF_LIKE(1, 2);
void out_vprintf(const char *fmt, va_list ap);
void out_puts(const char *s);
void err_printf(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* A copy of what out_*() print (not err_printf's diagnostics) into buf,
 * for a command's -o FILE: until out_tee_stop, which returns the bytes
 * kept and whether more did not fit. */
void out_tee_start(char *buf, size_t cap);
size_t out_tee_stop(bool *cut);

#endif
