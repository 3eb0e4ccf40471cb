/* Files of the output folder sent over the serial line as frames
 * (lib/serial_frame.h), for a machine whose disk nobody reads: a lab's
 * console log carries them, and tools/serial-extract gives them back. */
#ifndef BP_SEND_H
#define BP_SEND_H
#include "../lib/types.h"

/* Sends the file at path (relative to the output folder) and prints one
 * line with its size, time and rate. cmd names the command in errors.
 * Returns 0, or -1 after saying what failed (the file cannot be read, or
 * no UART takes the bytes). */
int send_file_serial(const char *path, const char *cmd);
/* Sends the file at path with an HTTP PUT to url (http://HOST[:PORT]/PATH,
 * checked with url_parse) and prints one line with its size, time and
 * rate. Returns 0, or -1 after naming the step that failed and where the
 * file stays. */
int send_file_http(const char *path, const char *url, const char *cmd);

#endif
