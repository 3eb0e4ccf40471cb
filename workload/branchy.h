/* branchy's options, ground truth and profile (workload/branchy.c). */
#ifndef BP_WORKLOAD_BRANCHY_H
#define BP_WORKLOAD_BRANCHY_H
#include "workload.h"

#define BRANCHY_DEFAULT_ITERATIONS 20000000ULL	/* 300 M instructions */
#define BRANCHY_DEFAULT_TAKEN      50
#define BRANCHY_INSNS_PER_ITER     15	/* branchy_loop.asm */
#define BRANCHY_INSNS_PER_CALL     2

struct branchy_opts {
	u64 iterations, taken_percent;
};

/* argv[0] is the workload name. Returns 0, or -1 after saying what was wrong. */
int branchy_parse(int argc, char **argv, struct branchy_opts *o);
/* The truth of a run that took the data branch `taken` times. */
void branchy_truth(const struct branchy_opts *o, u64 taken, struct workload_truth *t);
void branchy_profile(const struct branchy_opts *o, struct code_profile *p);

#endif
