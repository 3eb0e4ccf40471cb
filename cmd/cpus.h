/* The CPUs a command measures: -a, -C LIST, or the one it runs on. */
#ifndef BP_CPUS_H
#define BP_CPUS_H
#include "cli.h"
#include "../sampling/percpu.h"	/* PERCPU_MAX */

/* The CPUs a command measures: every CPU (-a), a list (-C LIST), or else
 * the one it runs on. Prints a bad list's error; EXIT_OK or EXIT_USAGE. */
int cpus_mask_of(bool all, const char *list, const char *cmd, u64 *mask);
/* -a's mask on a machine of ncpus CPUs; beyond PERCPU_MAX CPUs, the first
 * PERCPU_MAX, and note says so (else note is ""). */
u64 cpus_all_mask(u32 ncpus, char *note, size_t notelen);
/* "0,2-3" into a CPU mask; each number below ncpus and PERCPU_MAX. Returns
 * 0 or -1 with err. */
int cpus_parse_list(const char *list, u32 ncpus, u64 *mask, char *err, size_t errlen);

#endif
