/* What the PMU model (sim/) needs from its host when it is built into
 * QEMU: diagnostics on QEMU's stderr, and abort for the unrecoverable. */
#include <stdio.h>
#include <stdlib.h>
#include "../lib/out.h"
#include "../lib/plat.h"

void err_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void plat_abort(const char *why)
{
	fprintf(stderr, "bareperf PMU model: %s\n", why);
	abort();
}
