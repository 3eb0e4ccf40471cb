/* Runs a bareperf command line in-process, as the tests of commands do,
 * with what it prints captured. */
#ifndef BP_TEST_CLI_RUN_H
#define BP_TEST_CLI_RUN_H
#include <stddef.h>

/* "bareperf ARGS": returns the exit status; the output lands in out. */
int cli_run(const char *args, char *out, size_t cap);

#endif
