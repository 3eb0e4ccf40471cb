/* Platform services for the host twin: stdout/stderr, files under the
 * output folder (BAREPERF_OUT, default ./out), malloc, clock_gettime. */
#define _GNU_SOURCE
#include "../lib/plat.h"
#include "../lib/fmt.h"
#include "../lib/path.h"
#include "../lib/undo.h"
#include "capture.h"
#include <errno.h>
#include <fcntl.h>
#include <link.h>
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

static char serial_error[160];

int plat_serial_write(const char *s, size_t len)
{
	const char *path = getenv("BAREPERF_SERIAL");
	FILE *f = path && *path ? fopen(path, "ab") : stdout;
	if (!f) {
		snprintf(serial_error, sizeof(serial_error), "$BAREPERF_SERIAL %s: %s", path,
			 strerror(errno));
		return -1;
	}
	bool ok = fwrite(s, 1, len, f) == len && fflush(f) == 0;
	if (!ok)
		snprintf(serial_error, sizeof(serial_error), "%s", strerror(errno));
	if (f != stdout && fclose(f) != 0)
		ok = false;
	return ok ? 0 : -1;
}

const char *plat_serial_error(void)
{
	return serial_error;
}

bool plat_files_in_memory(void)
{
	return false;
}

static const char *out_dir(void)
{
	const char *d = getenv("BAREPERF_OUT");
	return d && *d ? d : "out";
}

static char file_error[192];	/* plat_file_error() */

int plat_file_check(const char *name, bool write, char *why, size_t cap)
{
	char folder[256];
	bp_snprintf(folder, sizeof(folder), "%s/", out_dir());
	return path_check(name, write, true, folder, why, cap);
}

const char *plat_file_error(void)
{
	return file_error;
}

/* OUT/path, the name checked as the image checks it (lib/path.h); an
 * absolute path (host only) is taken as it is. */
static int full_path(const char *path, bool write, char *buf, size_t cap)
{
	char why[160];
	if (plat_file_check(path, write, why, sizeof(why))) {
		bp_snprintf(file_error, sizeof(file_error), "%s", why);
		return -1;
	}
	bool absolute = path_is_sep(path[0]);
	int n = absolute ? 0 : bp_snprintf(buf, cap, "%s/", out_dir());
	if ((size_t)n + strlen(path) >= cap) {
		bp_snprintf(file_error, sizeof(file_error), "the name is too long");
		return -1;
	}
	/* '\' separates as in the image (a Linux name may hold one) */
	for (const char *p = path; *p; p++)
		buf[n++] = path_is_sep(*p) ? '/' : *p;
	buf[n] = 0;
	return 0;
}

/* errno as plat_file_error() tells it: -1. */
static int errno_error(const char *what)
{
	bp_snprintf(file_error, sizeof(file_error), "%s%s", what, strerror(errno));
	return -1;
}

/* Builds OUT/path to write and creates the folders on the way. */
static int host_path(const char *path, char *buf, size_t cap)
{
	if (full_path(path, true, buf, cap))
		return -1;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		int rc = mkdir(buf, 0777);
		if (rc && errno != EEXIST) {
			char what[300];
			bp_snprintf(what, sizeof(what), "cannot create the folder %s: ", buf);
			*p = '/';
			return errno_error(what);
		}
		*p = '/';
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
		return errno_error("");
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
	if (full_path(path, false, full, sizeof(full)))
		return -1;
	FILE *f = fopen(full, "rb");
	if (!f)
		return errno_error("");
	size_t n = fread(buf, 1, cap, f);
	fclose(f);
	return (long)n;
}

long plat_file_size(const char *path)
{
	char full[4096];
	struct stat st;
	if (full_path(path, false, full, sizeof(full)))
		return -1;
	if (stat(full, &st))
		return errno_error("");
	if (!S_ISREG(st.st_mode)) {
		bp_snprintf(file_error, sizeof(file_error), "not a regular file");
		return -1;
	}
	return (long)st.st_size;
}

/* ---- streaming files: a file descriptor; pwrite/pread leave the file
 * offset alone, so appends always continue at the end. */
struct plat_file {
	int fd;
};

static struct plat_file *open_fd(const char *path, int flags)
{
	char full[4096];
	struct plat_file *f;
	int fd;
	if ((flags & O_ACCMODE) == O_RDONLY ? full_path(path, false, full, sizeof(full))
					    : host_path(path, full, sizeof(full)))
		return NULL;
	fd = open(full, flags | O_CLOEXEC, 0666);
	if (fd < 0) {
		errno_error("");
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		close(fd);
		return NULL;
	}
	f->fd = fd;
	return f;
}

int plat_file_rename(const char *from, const char *to)
{
	char full_from[4096], full_to[4096];
	if (host_path(from, full_from, sizeof(full_from)) || host_path(to, full_to, sizeof(full_to)))
		return -1;
	return rename(full_from, full_to) ? errno_error("") : 0;
}

int plat_file_delete(const char *path)
{
	char full[4096];
	if (full_path(path, true, full, sizeof(full)))
		return -1;
	return unlink(full) ? errno_error("") : 0;
}

struct plat_file *plat_file_create(const char *path)
{
	return open_fd(path, O_RDWR | O_CREAT | O_TRUNC);
}

struct plat_file *plat_file_open_read(const char *path)
{
	return open_fd(path, O_RDONLY);
}

/* Writes all of len or fails (write may write less than asked). */
static int write_fully(int fd, const u8 *p, size_t len, off_t off, bool at)
{
	while (len) {
		ssize_t n = at ? pwrite(fd, p, len, off) : write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

int plat_file_append_to(struct plat_file *f, const void *data, size_t len)
{
	return write_fully(f->fd, data, len, 0, false);
}

int plat_file_write_at(struct plat_file *f, u64 off, const void *data, size_t len)
{
	off_t end = lseek(f->fd, 0, SEEK_END);
	if (end < 0 || off > (u64)end)
		return -1;
	return write_fully(f->fd, data, len, (off_t)off, true);
}

int plat_file_truncate(struct plat_file *f, u64 size)
{
	off_t end = lseek(f->fd, 0, SEEK_END);
	if (end < 0 || size > (u64)end || ftruncate(f->fd, (off_t)size) ||
	    lseek(f->fd, (off_t)size, SEEK_SET) < 0)
		return -1;
	return 0;
}

long plat_file_read_at(struct plat_file *f, u64 off, void *buf, size_t len)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = pread(f->fd, (u8 *)buf + got, len - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (long)got;
}

int plat_file_sync(struct plat_file *f)
{
	return fsync(f->fd) ? -1 : 0;
}

int plat_file_close(struct plat_file *f)
{
	int rc;
	if (!f)
		return 0;
	rc = close(f->fd) ? -1 : 0;
	free(f);
	return rc;
}

/* The executable's load bias: what its link addresses are relative to at
 * run time (0 for a fixed-address executable, the base for a PIE). The
 * first object dl_iterate_phdr reports is the main program. */
static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	*(u64 *)data = (u64)info->dlpi_addr;
	return 1;
}

u64 plat_image_base(void)
{
	static u64 base;
	static bool known;
	if (!known) {
		dl_iterate_phdr(first_object, &base);
		known = true;
	}
	return base;
}

const char *plat_image_path(void)
{
	static char path[4096];
	if (!path[0]) {
		ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
		path[n > 0 ? n : 0] = 0;
	}
	return path;
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

u64 plat_run_ticks(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/* A process cannot turn interrupts off: the irqoff workload runs both
 * halves alike in the host twin. */
u64 plat_irqs_off(void) { return 0; }
void plat_irqs_restore(u64 flags) { (void)flags; }
const char *plat_firmware_vendor(void) { return "none (host build)"; }
u32 plat_firmware_revision(void) { return 0; }
const char *plat_name(void) { return "host"; }

u32 plat_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (u32)n : 1;
}

#define EXIT_HOOKS 32
static struct undo_entry exit_hook_entries[EXIT_HOOKS];
static struct undo_list exit_hooks = { exit_hook_entries, 0, EXIT_HOOKS };

int plat_on_exit(void (*fn)(void *ctx), void *ctx)
{
	return undo_add(&exit_hooks, fn, ctx);
}

void plat_on_exit_forget(const void *ctx, size_t len)
{
	undo_forget(&exit_hooks, ctx, len);
}

/* Runs the exit hooks; host/main.c calls it after the command returns. */
void host_run_exit_hooks(void)
{
	undo_run(&exit_hooks);
}

void plat_abort(const char *why)
{
	host_run_exit_hooks();
	fflush(stdout);
	fprintf(stderr, "bareperf: aborted: %s\n", why);
	exit(1);
}

void plat_hostname(char *out, size_t cap)
{
	if (gethostname(out, cap) != 0 && cap)
		out[0] = 0;
	if (cap)
		out[cap - 1] = 0;
}

u64 plat_memory_kb(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (u64)pages * (u64)size / 1024 : 0;
}

u64 plat_free_memory_kb(void)
{
	long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (u64)pages * (u64)size / 1024 : 0;
}

u64 plat_wallclock_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return 0;
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* The executable's NT_GNU_BUILD_ID note, found through its PT_NOTE
 * segments (the first object dl_iterate_phdr reports is the program). */
struct build_id_find {
	u8 *out;
	u32 cap, len;
};

static int find_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
	struct build_id_find *f = data;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const u8 *p = (const u8 *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
		while (p + 12 <= end) {
			const u32 *n = (const u32 *)p;
			u32 namesz = (n[0] + 3) & ~3u, descsz = (n[1] + 3) & ~3u;
			if (n[2] == NT_GNU_BUILD_ID && n[1] <= f->cap && p + 12 + namesz + n[1] <= end) {
				memcpy(f->out, p + 12 + namesz, n[1]);
				f->len = n[1];
				return 1;
			}
			p += 12 + namesz + descsz;
		}
	}
	return 1;	/* only the program itself */
}

u32 plat_image_build_id(u8 *out, u32 cap)
{
	struct build_id_find f = { out, cap, 0 };
	dl_iterate_phdr(find_build_id, &f);
	return f.len;
}
