/* A file over the serial line (send.h): read in chunks, each framed as one
 * line, lines gathered into a buffer of several before they go to the
 * UART. */
#include "send.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/serial_frame.h"
#include "../lib/url.h"

#define SEND_BUFFER 4096	/* lines written to the UART at once */

struct sender {
	const char *cmd, *path;
	char buf[SEND_BUFFER];
	size_t used;
	bool failed;
};

static void flush_lines(struct sender *s)
{
	if (s->used && !s->failed && plat_serial_write(s->buf, s->used)) {
		err_printf("bareperf %s: %s was not sent: %s\n", s->cmd, s->path,
			   plat_serial_error());
		s->failed = true;
	}
	s->used = 0;
}

static void put_line(struct sender *s, const char *line, size_t len)
{
	if (s->used + len > sizeof(s->buf))
		flush_lines(s);
	for (size_t i = 0; i < len; i++)
		s->buf[s->used++] = line[i];
}

/* Every chunk of the file; returns its CRC-32 in *crc, or -1 when a read
 * failed (said) or the file changed size meanwhile. */
static int send_chunks(struct sender *s, struct plat_file *f, u64 size, u32 *crc)
{
	u8 data[SERIAL_FRAME_CHUNK];
	char line[SERIAL_FRAME_LINE_MAX];
	u64 off = 0;
	*crc = 0;
	for (u32 seq = 0; off < size && !s->failed; seq++) {
		size_t want = (size_t)MIN((u64)SERIAL_FRAME_CHUNK, size - off);
		long got = plat_file_read_at(f, off, data, want);
		if (got != (long)want) {
			err_printf("bareperf %s: %s was not sent whole: reading %zu bytes at %llu "
				   "failed (%s)\n", s->cmd, s->path, want, (unsigned long long)off,
				   got < 0 ? plat_file_error() : "the file is shorter than it was");
			return -1;
		}
		*crc = crc32_update(*crc, data, want);
		put_line(s, line, serial_frame_chunk(line, sizeof(line), seq, data, want));
		off += want;
	}
	return s->failed ? -1 : 0;
}

static void say_sent(const struct sender *s, u64 size, u64 ticks)
{
	u64 hz = plat_ticks_per_second();
	char bytes[32];
	fmt_thousands(size, bytes, sizeof(bytes));
	if (!hz || !ticks) {
		out_printf("[ bareperf %s: sent %s over the serial line: %s bytes in %u frames ]\n",
			   s->cmd, s->path, bytes, serial_frame_chunks(size));
		return;
	}
	double seconds = (double)ticks / (double)hz;
	out_printf("[ bareperf %s: sent %s over the serial line: %s bytes in %u frames, %.2f s "
		   "(%.1f KB/s); tools/serial-extract rebuilds it from the console log ]\n",
		   s->cmd, s->path, bytes, serial_frame_chunks(size), seconds,
		   (double)size / 1000.0 / seconds);
}

int send_file_serial(const char *path, const char *cmd)
{
	static struct sender s;	/* 4 KiB: off the firmware's small stack */
	char line[SERIAL_FRAME_LINE_MAX];
	long size = plat_file_size(path);
	struct plat_file *f = size < 0 ? NULL : plat_file_open_read(path);
	if (!f) {
		err_printf("bareperf %s: cannot send %s: %s\n", cmd, path, plat_file_error());
		return -1;
	}
	s = (struct sender){ .cmd = cmd, .path = path };
	u64 start = plat_ticks();
	u32 crc;
	put_line(&s, line, serial_frame_begin(line, sizeof(line), path, (u64)size));
	int rc = send_chunks(&s, f, (u64)size, &crc);
	if (rc == 0)
		put_line(&s, line, serial_frame_end(line, sizeof(line), path, (u64)size, crc));
	flush_lines(&s);
	plat_file_close(f);
	if (rc || s.failed)
		return -1;
	say_sent(&s, (u64)size, plat_ticks() - start);
	return 0;
}

/* ---- over HTTP ----------------------------------------------------------- */

/* Where a file that was not sent stays, for the message. */
static const char *kept_where(const char *path, char *buf, size_t cap)
{
	if (plat_files_in_memory())
		bp_snprintf(buf, cap, "it was kept in memory only and is lost when the run ends "
			    "(-o serial sends it over the serial line)");
	else
		bp_snprintf(buf, cap, "it stays in the output folder as %s", path);
	return buf;
}

/* The whole file in pages of its own (a recording may be large). */
static u8 *read_whole(const char *path, long size, const char *cmd)
{
	size_t pages = ((size_t)size + 4095) / 4096;
	u8 *data = plat_alloc_pages(pages ? pages : 1);
	struct plat_file *f = data ? plat_file_open_read(path) : NULL;
	long got = f ? plat_file_read_at(f, 0, data, (size_t)size) : -1;
	plat_file_close(f);
	if (got == size)
		return data;
	if (!data)
		err_printf("bareperf %s: cannot send %s: no memory for its %ld bytes\n", cmd, path,
			   size);
	else
		err_printf("bareperf %s: cannot send %s: reading it failed (%s)\n", cmd, path,
			   got < 0 ? plat_file_error() : "shorter than its size");
	if (data)
		plat_free_pages(data, pages ? pages : 1);
	return NULL;
}

int send_file_http(const char *path, const char *url, const char *cmd)
{
	struct url u;
	char why[256], kept[160];
	long size = plat_file_size(path);
	if (url_parse(url, &u, why, sizeof(why)) || size < 0) {
		err_printf("bareperf %s: cannot send %s to %s: %s\n", cmd, path, url,
			   size < 0 ? plat_file_error() : why);
		return -1;
	}
	u8 *data = read_whole(path, size, cmd);
	if (!data)
		return -1;
	u64 start = plat_ticks(), hz = plat_ticks_per_second();
	int rc = plat_http_put(&u, url, data, (size_t)size, why, sizeof(why));
	double seconds = hz ? (double)(plat_ticks() - start) / (double)hz : 0;
	plat_free_pages(data, ((size_t)size + 4095) / 4096 ? ((size_t)size + 4095) / 4096 : 1);
	if (rc) {
		err_printf("bareperf %s: %s was not sent to %s: %s; %s\n", cmd, path, url, why,
			   kept_where(path, kept, sizeof(kept)));
		return -1;
	}
	char bytes[32];
	out_printf("[ bareperf %s: sent %s to %s: %s bytes in %.2f s (%.2f MB/s, the network's "
		   "start included) ]\n", cmd, path,
		   url, fmt_thousands((u64)size, bytes, sizeof(bytes)), seconds,
		   seconds > 0 ? (double)size / 1e6 / seconds : 0.0);
	return 0;
}
