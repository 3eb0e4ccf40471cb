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

/* out_tee_start's copy of what goes to the console. */
static char *tee_buf;
static size_t tee_cap, tee_len;
static bool tee_cut;

void out_tee_start(char *buf, size_t cap)
{
	tee_buf = buf;
	tee_cap = cap;
	tee_len = 0;
	tee_cut = false;
}

size_t out_tee_stop(bool *cut)
{
	*cut = tee_cut;
	tee_buf = NULL;
	return tee_len;
}

static void console_write(const char *s, size_t len)
{
	plat_console_write(s, len);
	if (!tee_buf)
		return;
	size_t room = tee_cap - tee_len;
	if (len > room) {
		len = room;
		tee_cut = true;
	}
	bp_memcpy(tee_buf + tee_len, s, len);
	tee_len += len;
}

void out_vprintf(const char *fmt, va_list ap)
{
	char buf[OUT_LINE_MAX];
	write_cut(console_write, buf, bp_vsnprintf(buf, sizeof(buf), fmt, ap));
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
	console_write(s, bp_strlen(s));
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
