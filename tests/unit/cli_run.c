#include "cli_run.h"
#include "test.h"
#include "cmd/cli.h"
#include "host/capture.h"

int cli_run(const char *args, char *out, size_t cap)
{
	char line[512], *argv[CLI_MAX_ARGS + 1];
	const char *err;
	struct global_opts g = { 0 };
	snprintf(line, sizeof(line), "bareperf %s", args);
	int argc = cli_split(line, argv, CLI_MAX_ARGS, &err);
	assert_true(argc > 0);
	host_capture_start(out, cap);
	int rc = cli_main(argc, argv, &g);
	host_capture_stop();
	return rc;
}
