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

/* How the workload's instructions behave, by construction: the emulated
 * PMU, which only sees time passing at an IP, uses this to make the other
 * events of the running code happen at their true rates. */
struct workload_rate {
	u8 event, umask;	/* encoding of the event that happens */
	u32 per_kilo_insn;	/* occurrences per 1000 instructions */
	u64 addr_base, addr_size;	/* data addresses fall in here (0: none) */
	u32 latency;		/* load latency in core cycles (0: none) */
	u32 data_src;		/* Intel load data-source encoding (PEBS) */
};

#define WORKLOAD_MAX_RATES 4

struct workload_profile {
	u32 ipc_permille;	/* instructions per cycle x 1000 */
	u32 nrates;
	struct workload_rate rate[WORKLOAD_MAX_RATES];
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

/* The profile of the workload that is about to run (set by the workload
 * after its setup, read by whoever drives an emulated PMU). */
extern const struct workload_profile *workload_active_profile;
/* Called by a workload right before its measured part. */
void workload_begin(const struct workload_profile *p);

const struct workload *workload_find(const char *name);
size_t workload_count(void);
const struct workload *workload_at(size_t i);
/* Prints "unknown workload 'x'" and the list of workloads. */
void workload_unknown(const char *name);

#endif
