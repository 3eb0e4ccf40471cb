/* What `record` samples: a built-in workload, a UEFI application loaded
 * from the boot volume (a WORKLOAD word that starts with '\' or ends with
 * .efi, in any case), the firmware connecting every controller
 * (--connect-all), or one boot service in a loop ("bs:NAME [LOOPS]"). */
#ifndef BP_TARGET_H
#define BP_TARGET_H
#include "../lib/plat.h"
#include "../workload/workload.h"

#define TARGET_DEFAULT_LOOPS 10000

enum target_kind { TARGET_WORKLOAD, TARGET_APP, TARGET_CONNECT_ALL, TARGET_BOOT_SERVICE };

struct target {
	enum target_kind kind;
	const struct workload *w;
	const char *name;		/* application path or boot service name */
	int argc;			/* the words from the WORKLOAD word on */
	char **argv;
	u64 loops;			/* boot service calls */
	struct plat_app *app;		/* loaded, not yet run */
	struct plat_image_info image;	/* the application's mapping */
	char comm[32];			/* what perf calls the "process" */
	bool not_started;		/* target_run failed before any of its work */
};

/* True for a word that names a UEFI application. */
bool target_is_app(const char *word);
/* Reads the target from argv[0..argc) (argc 0 with connect_all). Prints
 * what is wrong and returns EXIT_USAGE, else EXIT_OK. */
int target_parse(struct target *t, const char *cmd, int argc, char **argv, bool connect_all);
/* Loads an application (nothing for the other kinds); prints why not. */
int target_load(struct target *t, const char *cmd);
/* Runs the target to its end. For an application prints its exit status
 * and returns EXIT_OK whether it succeeded or not; EXIT_FAILURE_STATUS
 * when the target could not run, EXIT_USAGE for bad workload options or
 * a workload that cannot have its memory. t->not_started says the
 * failure came before any of the target's work: a workload fails only
 * before its measured part, an application that could not be started,
 * --connect-all without the handle list, a boot service whose first call
 * failed (or the host twin, which can run neither). */
int target_run(struct target *t, const char *cmd);
/* Frees a loaded application that was never run. */
void target_release(struct target *t);

#endif
