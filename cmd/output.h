/* -o of record, stat and selftest: a file of the output folder, "serial"
 * (the default file, then sent over the serial line) or
 * "http://HOST[:PORT]/PATH" (PATH's last part, then sent by HTTP PUT). */
#ifndef BP_CMD_OUTPUT_H
#define BP_CMD_OUTPUT_H
#include "../lib/types.h"

struct cmd_output {
	const char *file;	/* in the output folder */
	const char *url;	/* send there, or NULL */
	bool serial;		/* send over the serial line */
	char *text;		/* stat, selftest: what they printed (out_tee) */
	size_t cap;
};

/* Takes -o's value (NULL: default_name, nothing sent). Returns EXIT_OK,
 * or EXIT_USAGE after naming what is wrong with it. */
int cmd_output_parse(struct cmd_output *o, const char *value, const char *default_name,
		     const char *cmd);
/* Sends o->file when o asks for it; 0, or -1 after saying why. */
int cmd_output_send(const struct cmd_output *o, const char *cmd);

/* stat, selftest: a copy of what the command prints from here on... */
int cmd_output_begin(struct cmd_output *o, const char *cmd);
/* ...written to o->file and sent as o asks. Returns 0, or -1 when the
 * file could not be written (said) or not sent. */
int cmd_output_end(struct cmd_output *o, const char *cmd);

#endif
