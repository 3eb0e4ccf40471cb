#include "target.h"
#include "cli.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/str.h"

#define BOOT_SERVICE_PREFIX "bs:"

bool target_is_app(const char *word)
{
	size_t n = bp_strlen(word);
	return word[0] == '\\' || (n > 4 && bp_strcasecmp(word + n - 4, ".efi") == 0);
}

/* The last path component, for the COMM record. */
static void comm_of(const char *path, char *out, size_t cap)
{
	const char *base = path;
	for (const char *p = path; *p; p++)
		if (*p == '\\' || *p == '/')
			base = p + 1;
	bp_strlcpy(out, base, cap);
}

static int parse_boot_service(struct target *t, const char *cmd)
{
	t->kind = TARGET_BOOT_SERVICE;
	t->name = t->argv[0] + bp_strlen(BOOT_SERVICE_PREFIX);
	t->loops = TARGET_DEFAULT_LOOPS;
	if (!plat_boot_service_known(t->name)) {
		err_printf("bareperf %s: %s: unknown boot service '%s' (known: %s)\n", cmd,
			   t->argv[0], t->name, PLAT_BOOT_SERVICES);
		return EXIT_USAGE;
	}
	if (t->argc > 2) {
		err_printf("bareperf %s: %s takes one argument, the number of calls\n", cmd, t->argv[0]);
		return EXIT_USAGE;
	}
	if (t->argc == 2 && (!bp_parse_u64(t->argv[1], &t->loops) || !t->loops)) {
		err_printf("bareperf %s: %s: '%s' is not a number of calls\n", cmd, t->argv[0], t->argv[1]);
		return EXIT_USAGE;
	}
	bp_snprintf(t->comm, sizeof(t->comm), "bs:%s", t->name);
	return EXIT_OK;
}

int target_parse(struct target *t, const char *cmd, int argc, char **argv, bool connect_all)
{
	bp_memset(t, 0, sizeof(*t));
	t->argc = argc;
	t->argv = argv;
	if (connect_all) {
		if (argc > 0) {
			err_printf("bareperf %s: --connect-all is the workload; '%s' is one too many\n",
				   cmd, argv[0]);
			return EXIT_USAGE;
		}
		t->kind = TARGET_CONNECT_ALL;
		bp_strlcpy(t->comm, "connect-all", sizeof(t->comm));
		return EXIT_OK;
	}
	if (bp_strncmp(argv[0], BOOT_SERVICE_PREFIX, bp_strlen(BOOT_SERVICE_PREFIX)) == 0)
		return parse_boot_service(t, cmd);
	if (target_is_app(argv[0])) {
		t->kind = TARGET_APP;
		t->name = argv[0];
		comm_of(argv[0], t->comm, sizeof(t->comm));
		return EXIT_OK;
	}
	t->kind = TARGET_WORKLOAD;
	t->w = workload_find(argv[0]);
	if (!t->w) {
		workload_unknown(argv[0]);
		err_printf("  or a UEFI application (\\PATH\\APP.EFI [ARGS]), bs:NAME [LOOPS], "
			   "--connect-all\n");
		return EXIT_USAGE;
	}
	/* Its options too, before the PMU or the output file is touched. */
	if (t->w->check(argc, argv))
		return EXIT_USAGE;
	bp_strlcpy(t->comm, t->w->name, sizeof(t->comm));
	return EXIT_OK;
}

int target_load(struct target *t, const char *cmd)
{
	char err[256];
	if (t->kind != TARGET_APP)
		return EXIT_OK;
	t->app = plat_app_load(t->name, t->argc - 1, t->argv + 1, &t->image, err, sizeof(err));
	if (!t->app) {
		err_printf("bareperf %s: %s\n", cmd, err);
		return EXIT_FAILURE_STATUS;
	}
	return EXIT_OK;
}

static int run_app(struct target *t, const char *cmd)
{
	char what[192];
	u64 status = 0;
	struct plat_app *app = t->app;
	t->app = NULL;	/* plat_app_run frees it */
	if (plat_app_run(app, &status, what, sizeof(what))) {
		err_printf("bareperf %s: %s: %s\n", cmd, t->name, what);
		return EXIT_FAILURE_STATUS;
	}
	out_printf("[ bareperf %s: %s exited with status 0x%llx: %s ]\n", cmd, t->name,
		   (unsigned long long)status, what);
	return EXIT_OK;
}

int target_run(struct target *t, const char *cmd)
{
	char err[256];
	struct workload_result wr;
	long n;

	int rc;

	t->not_started = false;
	if (t->kind != TARGET_WORKLOAD)
		workload_begin(NULL);	/* no profile: the model runs at IPC 1 */
	switch (t->kind) {
	case TARGET_WORKLOAD:
		if (t->w->run(t->argc, t->argv, &wr) == 0)
			return EXIT_OK;
		t->not_started = true;	/* its memory: options were checked before */
		return EXIT_FAILURE_STATUS;
	case TARGET_APP:
		rc = run_app(t, cmd);
		t->not_started = rc != EXIT_OK;
		return rc;
	case TARGET_CONNECT_ALL:
		if ((n = plat_connect_all(err, sizeof(err))) < 0) {
			t->not_started = true;
			break;
		}
		out_printf("[ bareperf %s: ConnectController on %ld handles ]\n", cmd, n);
		return EXIT_OK;
	case TARGET_BOOT_SERVICE:
		if ((rc = plat_boot_service_loop(t->name, t->loops, err, sizeof(err))) != 0) {
			t->not_started = rc == -1;
			break;
		}
		out_printf("[ bareperf %s: %s called %llu times ]\n", cmd, t->name,
			   (unsigned long long)t->loops);
		return EXIT_OK;
	}
	err_printf("bareperf %s: %s\n", cmd, err);
	return EXIT_FAILURE_STATUS;
}

void target_release(struct target *t)
{
	if (t->app)
		plat_app_unload(t->app);
	t->app = NULL;
}
