/* The command line on arbitrary bytes: cli_split into words, then cli_main
 * with everything it prints captured, as the image runs a LoadOptions or
 * ESP command line. Commands run on the backend the line picks, as in
 * `build/host/bareperf`: the host one by default (real CPUID, every MSR
 * access faults), the emulated PMU with --pmu=sim:MODEL.
 *
 * Input: the whole line (an embedded NUL ends it). Checked: the splitter
 * either names an error or returns at most max words, each inside the
 * line; cli_main returns one of the documented exit statuses, and never
 * crashes, exits or aborts (libFuzzer reports those). */
#include "fuzz/input.h"
#include "cmd/cli.h"
#include "host/capture.h"

static char output[1 << 16];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* Commands that write files write them here, not in the tree. */
	static char dir[] = "/tmp/bareperf-fuzz-XXXXXX";
	if (mkdtemp(dir))
		setenv("BAREPERF_OUT", dir, 1);
	return 0;
}

static void check_words(char *line, size_t len, char **words, int n, int max)
{
	FUZZ_CHECK(n <= max);
	for (int i = 0; i < n; i++) {
		FUZZ_CHECK(words[i] >= line && words[i] <= line + len);
		FUZZ_CHECK(words[i] + strlen(words[i]) <= line + len);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	char *line = in_rest_str(&in);
	size_t len = strlen(line);
	char *argv[CLI_MAX_ARGS + 1];
	const char *err = NULL;
	struct global_opts g = { 0 };

	argv[0] = "bareperf";
	int n = cli_split(line, argv + 1, CLI_MAX_ARGS - 1, &err);
	if (n < 0) {
		FUZZ_CHECK(n == -1 && err && err[0]);
		free(line);
		return 0;
	}
	FUZZ_CHECK(err == NULL);
	check_words(line, len, argv + 1, n, CLI_MAX_ARGS - 1);
	argv[n + 1] = NULL;

	host_capture_start(output, sizeof(output));
	int rc = cli_main(n + 1, argv, &g);
	size_t printed = host_capture_stop();
	FUZZ_CHECK(rc == EXIT_OK || rc == EXIT_FAILURE_STATUS || rc == EXIT_USAGE ||
		   rc == EXIT_NO_PMU);
	FUZZ_CHECK(printed < sizeof(output) && output[printed] == 0);
	FUZZ_CHECK(g.pmu != NULL);
	free(line);
	return 0;
}
