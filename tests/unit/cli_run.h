/* Host tests: run one bareperf command line through cli_main and capture
 * what it prints. */
#ifndef BP_TEST_CLI_RUN_H
#define BP_TEST_CLI_RUN_H
#include <stddef.h>
#include "cmd/cli.h"

/* Runs "bareperf LINE" (words separated by blanks; quotes as cli_split)
 * with global options g (NULL: defaults), output into out[cap]. Runs the
 * exit hooks the command registered. Returns the exit status. */
int cli_run_line(const char *line, struct global_opts *g, char *out, size_t cap);

/* The same with default global options. */
int cli_run(const char *args, char *out, size_t cap);

#endif
