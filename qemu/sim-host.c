// SPDX-License-Identifier: GPL-2.0-or-later (built into QEMU: LICENSE)
/* What the PMU model (sim/) needs from its host when it is built into
 * QEMU: diagnostics on QEMU's stderr, abort for the unrecoverable, and the
 * CPU the seam's code runs on. */
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

/* The seam keeps faults per CPU (arch/hw.h); inside QEMU the model's code
 * runs on QEMU's vCPU thread, never on a CPU of its own: one home CPU. */
u32 plat_cpu_self(void)
{
	return 0;
}
