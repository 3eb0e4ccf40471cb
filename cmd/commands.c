/* The command table. A command lives in cmd/cmd_NAME.c and is listed here. */
#include "cli.h"

extern const struct command cmd_info;
extern const struct command cmd_stat;
extern const struct command cmd_record;
extern const struct command cmd_report;
extern const struct command cmd_list;
extern const struct command cmd_sched;
extern const struct command cmd_selftest;
extern const struct command cmd_bench;
extern const struct command cmd_msr;
extern const struct command cmd_send;

const struct command *const commands[] = {
	&cmd_info,
	&cmd_stat,
	&cmd_record,
	&cmd_report,
	&cmd_list,
	&cmd_sched,
	&cmd_selftest,
	&cmd_bench,
	&cmd_msr,
	&cmd_send,
};
const size_t command_count = ARRAY_SIZE(commands);
