#include "cli_run.h"
#include "test.h"
#include "host/capture.h"

int cli_run_line(const char *line, struct global_opts *g, char *out, size_t cap)
{
	static char buf[16384];
	char *argv[CLI_MAX_ARGS + 1];
	const char *err;
	struct global_opts local = { 0 };

	assert_true((size_t)snprintf(buf, sizeof(buf), "bareperf %s", line) < sizeof(buf));
	int argc = cli_split(buf, argv, CLI_MAX_ARGS, &err);
	assert_true(argc > 0);
	host_capture_start(out, cap);
	int rc = cli_main(argc, argv, g ? g : &local);
	host_capture_stop();
	host_run_exit_hooks();
	return rc;
}

int cli_run(const char *args, char *out, size_t cap)
{
	return cli_run_line(args, NULL, out, cap);
}
