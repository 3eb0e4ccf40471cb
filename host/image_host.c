/* The host twin's side of lib/plat.h's image calls: the process's own
 * executable mappings stand for "loaded images"; UEFI applications and
 * firmware work need the firmware, so they fail with a clear error. */
#define _GNU_SOURCE
#include "../lib/plat.h"
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Executable mappings of /proc/self/maps other than our own program:
 * the shared libraries (libc, ld.so) and the vdso. */
int plat_foreach_image(plat_image_fn fn, void *ctx)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096 + 128];
	int seen = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		char perms[8];
		int name_at = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi, perms, &off, &name_at) < 4 ||
		    perms[2] != 'x' || !name_at)
			continue;
		char *name = line + name_at;
		name[strcspn(name, "\n")] = 0;
		if (!name[0] || strcmp(name, plat_image_path()) == 0)
			continue;
		struct plat_image_info info = { .base = lo, .size = hi - lo, .pgoff = off };
		snprintf(info.name, sizeof(info.name), "%s", name);
		fn(&info, ctx);
		seen++;
	}
	fclose(f);
	return seen;
}

static const char host_cannot[] =
	"the host twin cannot run UEFI images or firmware services: "
	"run this command in the UEFI image (tools/qemu-run, or a real machine)";

struct plat_app *plat_app_load(const char *path, int argc, char **argv,
			       struct plat_image_info *info, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", path, host_cannot);
	return NULL;
}

int plat_app_run(struct plat_app *app, u64 *status, char *what, size_t whatlen)
{
	snprintf(what, whatlen, "%s", host_cannot);
	return -1;
}

void plat_app_unload(struct plat_app *app) { (void)app; }

long plat_connect_all(char *err, size_t errlen)
{
	snprintf(err, errlen, "--connect-all: %s", host_cannot);
	return -1;
}

/* The same names as the image, so a command line is checked alike. */
bool plat_boot_service_known(const char *name)
{
	static const char *const names[] = { "AllocatePages", "FreePages", "LocateHandleBuffer",
					     "ConnectController", "GetVariable" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(name, names[i]) == 0)
			return true;
	return false;
}

const char *plat_unmapped_name(void) { return NULL; }

int plat_boot_service_loop(const char *name, u64 loops, char *err, size_t errlen)
{
	snprintf(err, errlen, "bs:%s: %s", name, host_cannot);
	return -1;
}

/* ---- every CPU: the host twin measures its own CPU only ----------------- */

static const char host_one_cpu[] = "the host twin runs on one CPU (every CPU needs the UEFI image)";

u32 plat_cpu_self(void) { return 0; }

int plat_run_on(u32 cpu, void (*fn)(void *ctx), void *ctx, const char **why)
{
	if (cpu != 0) {
		*why = host_one_cpu;
		return -1;
	}
	fn(ctx);
	return 0;
}

int plat_cpu_reserve(u32 cpu, size_t bytes) { return 0; }
void plat_cpu_release(u32 cpu) { (void)cpu; }

int plat_aps_start(void (*fn)(void *ctx), void *ctx, const char **why)
{
	*why = host_one_cpu;
	return -1;
}

void plat_aps_wait(void) {}
void plat_ap_window_begin(struct plat_ap_window *w) { w->open = false; }
void plat_ap_window_end(const struct plat_ap_window *w) { (void)w; }

/* The host twin runs no OS loaders: nothing calls ExitBootServices. */
void plat_before_os(void (*fn)(void *ctx), void *ctx)
{
	(void)fn;
	(void)ctx;
}
