/* Built-in workloads: code with a known shape that `stat` and `record`
 * measure. Each documents its ground truth, so measurements can be
 * checked against it. They run in the image and in the host twin alike. */
#ifndef BP_WORKLOAD_H
#define BP_WORKLOAD_H
#include "../lib/types.h"
#include "../arch/exec.h"

#define WORKLOAD_MAX_PARTS 8

/* What a run did, by construction. */
struct workload_truth {
	u32 parts;
	const char *part_name[WORKLOAD_MAX_PARTS];	/* function names */
	u64 part_instructions[WORKLOAD_MAX_PARTS];	/* instructions retired in each */
	u64 loads;		/* chase: dependent loads; stream: loads */
	u64 working_set;	/* chase, stream: bytes touched */
	u64 stores;		/* stream: stores */
	u64 bytes;		/* stream: bytes moved (loads + stores) x 8 */
	u64 branches;		/* branchy, soak: branch instructions retired */
	u64 cond_branches;	/* branchy: conditional branches retired */
	u64 taken;		/* branchy: times the data branch was taken */
	u64 data_branches;	/* branchy: data-dependent branches executed */
	u32 mispredict_permille;	/* branchy: expected mispredicts per 1000
					 * data branches: min(p, 1 - p) */
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
	 * what was wrong: its options (which commands check first, below),
	 * or what it could not have (its memory). */
	int (*run)(int argc, char **argv, struct workload_result *r);
	/* The same options, only checked: 0, or -1 after printing what was
	 * wrong. Commands call it before they touch the PMU or any file. */
	int (*check)(int argc, char **argv);
};

/* Called by a workload right before its measured part, with how its
 * code behaves (arch/exec.h: an emulated PMU makes its events happen at
 * those rates), and with NULL right after it. */
void workload_begin(const struct code_profile *p);
/* Between its parts: the measured part has retired `done` instructions
 * so far and the part it starts now retires `next` (0: none, the end),
 * by construction (an emulated PMU charges them; the machine's counts
 * them itself). */
void workload_retired(u64 done, u64 next);

/* Instructions per second that this machine retires, measured on soak's
 * loop (an exact instruction count): the fastest of 16 slices of ~2 ms.
 * Under QEMU's -icount it is the guest's fixed rate (shift 4: 62.5 M/s). */
u64 workload_insn_rate(void);

const struct workload *workload_find(const char *name);
size_t workload_count(void);
const struct workload *workload_at(size_t i);
/* For the workloads' option parsing: "--name VALUE" as a number in
 * [min, max]. Returns 1 when argv[*i] is that option (value stored, *i
 * advanced), 0 when it is not, -1 after printing what was wrong. */
int workload_opt_u64(const char *wname, int argc, char **argv, int *i, const char *opt,
		     u64 min, u64 max, u64 *out);

/* The workload argv[0] names, with its options (argv[1..]) checked; NULL
 * after printing what was wrong. Commands call it first, so that a typo
 * never costs a file or the PMU's state. */
const struct workload *workload_checked(int argc, char **argv);

/* The built-in workloads' names, from the table: "soak, chase, ...". */
const char *workload_names(void);

/* Prints "unknown workload 'x'" and the list of workloads. */
void workload_unknown(const char *name);

/* chase's behaviour for the emulated PMU: the IPC, latency and data
 * source of a walk over `bytes` at `base` (the level it fits in). */
struct code_profile;
void chase_profile(struct code_profile *p, u64 base, u64 bytes);

#endif
