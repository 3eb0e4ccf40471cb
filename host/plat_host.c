/* Platform services for the host twin: stdout/stderr, files under the
 * output folder (BAREPERF_OUT, default ./out), malloc, clock_gettime. */
#define _GNU_SOURCE
#include "../lib/plat.h"
#include "../lib/fmt.h"
#include "capture.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Tests capture what commands print (host/capture.h). */
static char *capture_buf;
static size_t capture_cap, capture_len;

void host_capture_start(char *buf, size_t cap)
{
	capture_buf = buf;
	capture_cap = cap;
	capture_len = 0;
	if (cap)
		buf[0] = 0;
}

size_t host_capture_stop(void)
{
	size_t n = capture_len;
	capture_buf = NULL;
	return n;
}

static bool capture(const char *s, size_t len)
{
	if (!capture_buf)
		return false;
	for (size_t i = 0; i < len && capture_len + 1 < capture_cap; i++)
		capture_buf[capture_len++] = s[i];
	capture_buf[capture_len] = 0;
	return true;
}

void plat_console_write(const char *s, size_t len)
{
	if (capture(s, len))
		return;
	fwrite(s, 1, len, stdout);
	fflush(stdout);
}

void plat_error_write(const char *s, size_t len)
{
	if (capture(s, len))
		return;
	fflush(stdout);
	fwrite(s, 1, len, stderr);
}

static const char *out_dir(void)
{
	const char *d = getenv("BAREPERF_OUT");
	return d && *d ? d : "out";
}

/* Builds OUT/path and creates the folders on the way. */
static int host_path(const char *path, char *buf, size_t cap)
{
	if (bp_snprintf(buf, cap, "%s/%s", out_dir(), path) >= (int)cap)
		return -1;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		int rc = mkdir(buf, 0777);
		*p = '/';
		if (rc && errno != EEXIST)
			return -1;
	}
	return 0;
}

static int write_mode(const char *path, const void *data, size_t len, const char *mode)
{
	char full[4096];
	if (host_path(path, full, sizeof(full)))
		return -1;
	FILE *f = fopen(full, mode);
	if (!f)
		return -1;
	size_t n = fwrite(data, 1, len, f);
	int rc = fclose(f);
	return n == len && rc == 0 ? 0 : -1;
}

int plat_file_write(const char *path, const void *data, size_t len)
{
	return write_mode(path, data, len, "wb");
}

int plat_file_append(const char *path, const void *data, size_t len)
{
	return write_mode(path, data, len, "ab");
}

long plat_file_read(const char *path, void *buf, size_t cap)
{
	char full[4096];
	if (bp_snprintf(full, sizeof(full), "%s/%s", out_dir(), path) >= (int)sizeof(full))
		return -1;
	FILE *f = fopen(full, "rb");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, cap, f);
	fclose(f);
	return (long)n;
}

void *plat_alloc(size_t size) { return calloc(1, size); }
void plat_free(void *p) { free(p); }

void *plat_alloc_pages(size_t pages)
{
	void *p = NULL;
	if (posix_memalign(&p, 4096, pages * 4096))
		return NULL;
	memset(p, 0, pages * 4096);
	return p;
}

void plat_free_pages(void *p, size_t pages) { free(p); }

u64 plat_ticks(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

u64 plat_ticks_per_second(void) { return 1000000000ull; }
const char *plat_firmware_vendor(void) { return "none (host build)"; }
u32 plat_firmware_revision(void) { return 0; }
const char *plat_name(void) { return "host"; }

u32 plat_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (u32)n : 1;
}

#define EXIT_HOOKS 32
static struct { void (*fn)(void *); void *ctx; } exit_hooks[EXIT_HOOKS];
static int exit_hook_count;

int plat_on_exit(void (*fn)(void *ctx), void *ctx)
{
	if (exit_hook_count == EXIT_HOOKS)
		return -1;
	exit_hooks[exit_hook_count].fn = fn;
	exit_hooks[exit_hook_count].ctx = ctx;
	exit_hook_count++;
	return 0;
}

/* Runs the exit hooks; host/main.c calls it after the command returns. */
void host_run_exit_hooks(void)
{
	while (exit_hook_count > 0) {
		exit_hook_count--;
		exit_hooks[exit_hook_count].fn(exit_hooks[exit_hook_count].ctx);
	}
}

void plat_abort(const char *why)
{
	host_run_exit_hooks();
	fflush(stdout);
	fprintf(stderr, "bareperf: aborted: %s\n", why);
	exit(1);
}
