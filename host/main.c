/* The host twin: the same command-line core as the image, as a Linux
 * program. Files go under $BAREPERF_OUT (default ./out). */
#include "../cmd/cli.h"
#include "capture.h"

int main(int argc, char **argv)
{
	struct global_opts g = { 0 };
	int rc = cli_main(argc, argv, &g);
	host_run_exit_hooks();
	return rc;
}
