/* Built-in workloads: code with a known shape that `stat` and `record`
 * measure. Each documents its ground truth, so measurements can be
 * checked against it. They run in the image and in the host twin alike. */
#ifndef BP_WORKLOAD_H
#define BP_WORKLOAD_H
#include "../lib/types.h"

#define WORKLOAD_MAX_PARTS 8

/* What a run did, by construction. */
struct workload_truth {
	u32 parts;
	const char *part_name[WORKLOAD_MAX_PARTS];	/* function names */
	u64 part_instructions[WORKLOAD_MAX_PARTS];	/* instructions retired in each */
	u64 loads;		/* chase: dependent loads executed */
	u64 working_set;	/* chase: bytes touched */
};

struct workload_result {
	u64 ticks;		/* plat_ticks() elapsed */
	u64 checksum;		/* keeps the work observable */
	struct workload_truth truth;
};

struct workload {
	const char *name;
	const char *summary;
	const char *usage;	/* options after the name */
	/* argv[0] is the workload's name. Returns 0, or -1 after printing
	 * what was wrong with its options. */
	int (*run)(int argc, char **argv, struct workload_result *r);
};

const struct workload *workload_find(const char *name);
size_t workload_count(void);
const struct workload *workload_at(size_t i);
/* Prints "unknown workload 'x'" and the list of workloads. */
void workload_unknown(const char *name);

#endif
