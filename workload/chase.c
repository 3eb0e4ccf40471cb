/* chase: pointer chasing through a working set in a random cyclic order,
 * one dependent load per step, so every load waits for the one before
 * (load latency and data addresses for PEBS). The order is a single cycle
 * (Sattolo's shuffle), so every line of the working set is visited. */
#include "workload.h"
#include "../arch/msr.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"

#define CHASE_LINE 64			/* one node per cache line */
#define CHASE_DEFAULT_SIZE (16ULL << 20)
#define CHASE_DEFAULT_STEPS 20000000ULL
#define CHASE_MAX_SIZE (1ULL << 34)		/* 16 GiB */
#define CHASE_MAX_STEPS (1ULL << 40)		/* hours of dependent loads */

struct node {
	struct node *next;
	u8 pad[CHASE_LINE - sizeof(void *)];
};

static u64 rng_next(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void link_cycle(struct node *nodes, u64 n)
{
	u32 *order = plat_alloc(n * sizeof(u32));
	u64 seed = 0x9E3779B97F4A7C15ULL;
	for (u64 i = 0; i < n; i++)
		order[i] = (u32)i;
	for (u64 i = n - 1; i > 0; i--) {	/* Sattolo: one cycle of length n */
		u64 j = rng_next(&seed) % i;
		u32 t = order[i]; order[i] = order[j]; order[j] = t;
	}
	for (u64 i = 0; i < n; i++)
		nodes[order[i]].next = &nodes[order[(i + 1) % n]];
	plat_free(order);
}

/* Kept out of line so samples land in a function named for the work. */
__attribute__((noinline)) u64 chase_walk(struct node *start, u64 steps)
{
	struct node *p = start;
	for (u64 i = 0; i < steps; i++)
		p = p->next;
	return (u64)(uintptr_t)p;
}

static int parse(int argc, char **argv, u64 *size, u64 *steps)
{
	*size = CHASE_DEFAULT_SIZE;
	*steps = CHASE_DEFAULT_STEPS;
	for (int i = 1; i < argc; i++) {
		int r = workload_opt_u64("chase", argc, argv, &i, "--size", 2 * CHASE_LINE,
					 CHASE_MAX_SIZE, size);
		if (!r)
			r = workload_opt_u64("chase", argc, argv, &i, "--steps", 1, CHASE_MAX_STEPS, steps);
		if (r < 0)
			return -1;
		if (!r) {
			err_printf("bareperf: chase: unknown option '%s' "
				   "(usage: chase [--size BYTES] [--steps N])\n", argv[i]);
			return -1;
		}
	}
	return 0;
}

static int chase_check(int argc, char **argv)
{
	u64 size, steps;
	return parse(argc, argv, &size, &steps);
}

/* Where a walk over `bytes` is served from, for the emulated PMU: each
 * step is one dependent load and about 4 instructions (load, increment,
 * compare, branch), so the IPC is 4 over the load's latency. The sizes are
 * a representative client part's (L1D 32 KiB, L2 1 MiB, L3 8 MiB), the
 * latencies typical of each level, the data sources Intel's PEBS
 * encoding (SDM Vol. 3B, "Load Latency Performance Monitoring Facility":
 * 0x1 L1 hit, 0x3 L2 hit, 0x4 L3 hit, 0xC local DRAM). */
static const struct chase_level {
	u64 max_bytes;
	u32 latency, ipc_permille, data_src;
	u8 level_umask;		/* MEM_LOAD_RETIRED's umask for the level */
} chase_levels[] = {
	{ 32ULL << 10, 5, 800, 0x1, UMASK_MEM_LOAD_RETIRED_L1_HIT },
	{ 1ULL << 20, 14, 285, 0x3, UMASK_MEM_LOAD_RETIRED_L1_MISS },
	{ 8ULL << 20, 50, 80, 0x4, UMASK_MEM_LOAD_RETIRED_L3_HIT },
	{ ~0ULL, 200, 20, 0xC, UMASK_MEM_LOAD_RETIRED_L3_MISS },
};

void chase_profile(struct code_profile *p, u64 base, u64 bytes)
{
	const struct chase_level *l = chase_levels;
	while (bytes > l->max_bytes)
		l++;
	*p = (struct code_profile){
		.ipc_permille = l->ipc_permille,
		.nrates = 3,
		.rate = {
			{ EVENT_MEM_INST_RETIRED, UMASK_MEM_INST_RETIRED_ALL_LOADS, 250,
			  base, bytes, l->latency, l->data_src },
			{ EVENT_MEM_LOAD_RETIRED, l->level_umask, 250, base, bytes, l->latency,
			  l->data_src },
			{ ARCH_CODE_BRANCH_RETIRED, ARCH_UMASK_BRANCH_RETIRED, 250, 0, 0, 0, 0 },
		},
	};
}

static int chase_run(int argc, char **argv, struct workload_result *r)
{
	u64 size, steps;
	if (parse(argc, argv, &size, &steps))
		return -1;
	u64 n = size / CHASE_LINE;
	size_t pages = (size_t)((n * CHASE_LINE + 4095) / 4096);
	struct node *nodes = plat_alloc_pages(pages);
	if (!nodes) {
		err_printf("bareperf: chase: cannot allocate %llu bytes\n", (unsigned long long)size);
		return -1;
	}
	link_cycle(nodes, n);
	bp_memset(r, 0, sizeof(*r));
	r->truth.parts = 1;
	r->truth.part_name[0] = "chase_walk";
	r->truth.loads = steps;
	r->truth.working_set = n * CHASE_LINE;
	struct code_profile profile;
	chase_profile(&profile, (u64)(uintptr_t)nodes, n * CHASE_LINE);
	workload_begin(&profile);
	u64 t0 = plat_ticks();
	r->checksum = chase_walk(&nodes[0], steps);
	r->ticks = plat_ticks() - t0;
	workload_begin(NULL);
	plat_free_pages(nodes, pages);
	return 0;
}

const struct workload workload_chase = {
	.name = "chase",
	.summary = "pointer chase over a random cycle (load latency, data addresses)",
	.usage = "[--size BYTES] [--steps N]",
	.run = chase_run,
	.check = chase_check,
};
