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

/* Test seam (host tests only set it): `opened` runs right after
 * backend_select() opened the emulated PMU, before the command runs, and
 * `closing` right before backend_release() closes it. A test injects the
 * fault a command must meet in `opened` and compares the model's
 * snapshots taken in the two. NULL (the default) watches nothing. */
struct backend_sim_watch {
	void (*opened)(void *ctx);
	void (*closing)(void *ctx);
	void *ctx;
};
void backend_watch_sim(const struct backend_sim_watch *w);

#endif
