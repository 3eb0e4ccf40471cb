/* Chooses what sits behind the hardware seam for a command: the real PMU
 * or the emulated one (--pmu=hw|sim[:MODEL]). */
#ifndef BP_BACKEND_H
#define BP_BACKEND_H
#include "cli.h"

/* Returns EXIT_OK, or EXIT_USAGE after naming what was wrong. */
int backend_select(const struct global_opts *g);
void backend_release(void);
/* True when the PMU behind the seam is emulated: every figure printed
 * from it must say so. */
bool backend_is_emulated(void);
/* Prints the banner that marks emulated results; nothing on hardware. */
void backend_banner(void);
/* Logical CPUs: the model's when emulated, else the firmware's. */
u32 backend_cpu_count(void);

#endif
