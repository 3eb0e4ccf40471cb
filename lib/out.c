#include "out.h"
#include "fmt.h"
#include "plat.h"
#include "str.h"

#define OUT_LINE_MAX 1024

void out_vprintf(const char *fmt, va_list ap)
{
	char buf[OUT_LINE_MAX];
	int n = bp_vsnprintf(buf, sizeof(buf), fmt, ap);
	plat_console_write(buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

void out_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	out_vprintf(fmt, ap);
	va_end(ap);
}

void out_puts(const char *s)
{
	plat_console_write(s, bp_strlen(s));
}

void err_printf(const char *fmt, ...)
{
	char buf[OUT_LINE_MAX];
	va_list ap;
	va_start(ap, fmt);
	int n = bp_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	plat_error_write(buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}
