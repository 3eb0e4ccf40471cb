/* stream's options, ground truth and profile (workload/stream.c). */
#ifndef BP_WORKLOAD_STREAM_H
#define BP_WORKLOAD_STREAM_H
#include "workload.h"

#define STREAM_DEFAULT_SIZE   (4ULL << 20)	/* bytes per array */
#define STREAM_DEFAULT_PASSES 10
#define STREAM_KERNELS        4
/* Per element (stream_loops.asm): copy 5, scale 6, add 6, triad 7. */
#define STREAM_INSNS_PER_ELEM 24
#define STREAM_INSNS_PER_CALL 2
#define STREAM_LOADS_PER_ELEM 6
#define STREAM_STORES_PER_ELEM 4

struct stream_opts {
	u64 size;	/* bytes per array (3 arrays) */
	u64 passes;	/* each pass runs the four kernels once */
};

int stream_parse(int argc, char **argv, struct stream_opts *o);
/* Elements per array for the options. */
u64 stream_elements(const struct stream_opts *o);
void stream_truth(const struct stream_opts *o, struct workload_truth *t);
/* base: the first array; the loads and stores fall in 3 * size bytes. */
void stream_profile(const struct stream_opts *o, u64 base, struct code_profile *p);

#endif
