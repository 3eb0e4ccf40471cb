/* Host tests: capture console and error output of commands in a buffer
 * instead of printing it. */
#ifndef BP_HOST_CAPTURE_H
#define BP_HOST_CAPTURE_H
#include <stddef.h>

void host_capture_start(char *buf, size_t cap);
/* Returns the number of bytes captured (the buffer stays NUL-terminated). */
size_t host_capture_stop(void);

/* Runs what plat_on_exit() registered (last first). */
void host_run_exit_hooks(void);

#endif
