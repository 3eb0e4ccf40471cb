/* `bareperf send FILE...`: files of the output folder over the serial
 * line (send.h), e.g. a recording made earlier, or one a read-only run
 * could not bring back any other way. */
#include "cli.h"
#include "send.h"
#include "../lib/out.h"
#include "../lib/plat.h"

extern const struct command cmd_send;

struct send_opts {
	bool help;
};

static const struct cli_option send_options[] = {
	{ .name = "--help", .short_name = "-h", .kind = CLI_FLAG, CLI_AT(struct send_opts, help),
	  .ends = true },
};

static const struct cli_spec send_spec = {
	.cmd = "send", .options = send_options, .count = ARRAY_SIZE(send_options),
};

/* Every name is checked before the first byte goes out. */
static int check_names(int first, int argc, char **argv)
{
	char why[160];
	if (first >= argc) {
		err_printf("bareperf send: no file named (bareperf send FILE...)\n");
		return EXIT_USAGE;
	}
	for (int i = first; i < argc; i++) {
		if (plat_file_check(argv[i], false, why, sizeof(why))) {
			err_printf("bareperf send: %s: %s\n", argv[i], why);
			return EXIT_USAGE;
		}
		if (plat_file_size(argv[i]) < 0) {
			err_printf("bareperf send: %s: %s\n", argv[i], plat_file_error());
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

static int send_run(int argc, char **argv, const struct global_opts *g)
{
	struct send_opts o = { 0 };
	int next = 1;
	(void)g;
	int rc = cli_parse_options(&send_spec, argc, argv, &next, &o);
	if (rc != EXIT_OK)
		return rc;
	if (o.help) {
		cli_usage(&cmd_send);
		return EXIT_OK;
	}
	if ((rc = check_names(next, argc, argv)) != EXIT_OK)
		return rc;
	for (int i = next; i < argc; i++)
		if (send_file_serial(argv[i], "send"))
			return EXIT_FAILURE_STATUS;
	return EXIT_OK;
}

const struct command cmd_send = {
	.name = "send",
	.summary = "send files of the output folder over the serial line (tools/serial-extract)",
	.usage = " FILE...\n\n"
		 "  FILE   a file of the output folder (\\bareperf\\ on the ESP), sent as\n"
		 "         checksummed text frames straight to COM1; tools/serial-extract\n"
		 "         rebuilds it from a saved console log",
	.run = send_run,
};
