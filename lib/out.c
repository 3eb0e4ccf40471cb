#include "out.h"
#include "fmt.h"
#include "plat.h"
#include "str.h"

#define OUT_LINE_MAX 1024

/* A line longer than the buffer is cut where it must be, and says so. */
static void write_cut(void (*write)(const char *, size_t), const char *buf, int n)
{
	if (n < OUT_LINE_MAX) {
		write(buf, (size_t)n);
		return;
	}
	char note[64];
	int m = bp_snprintf(note, sizeof(note), " [... %d characters cut]\n", n - (OUT_LINE_MAX - 1));
	write(buf, OUT_LINE_MAX - 1);
	write(note, (size_t)m);
}

void out_vprintf(const char *fmt, va_list ap)
{
	char buf[OUT_LINE_MAX];
	write_cut(plat_console_write, buf, bp_vsnprintf(buf, sizeof(buf), fmt, ap));
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
	write_cut(plat_error_write, buf, n);
}
