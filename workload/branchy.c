/* branchy: a controlled branch-mispredict rate. One conditional branch
 * per iteration follows a xorshift64 sequence and is taken with
 * probability p (--taken PERCENT), so the best any predictor can do is
 * mispredict it min(p, 1 - p) of the time: 50 % gives the worst case, 0
 * and 100 give a perfectly predictable branch. The loop is NASM
 * (workload/branchy_loop.asm), so the counts are exact by construction. */
#include "branchy.h"
#include "../arch/msr.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"

u64 branchy_walk(u64 iterations, u64 *state, u64 threshold);

#define BRANCHY_SEED               0x2545F4914F6CDD1DULL
/* The core's cost model for the profile: the serial xorshift chain takes
 * about 6 cycles an iteration, and a mispredict about 17 more (Skylake to
 * Ice Lake measure 15-20). */
#define BRANCHY_CYCLES_PER_ITER    6
#define BRANCHY_MISPREDICT_CYCLES  17


int branchy_parse(int argc, char **argv, struct branchy_opts *o)
{
	o->iterations = BRANCHY_DEFAULT_ITERATIONS;
	o->taken_percent = BRANCHY_DEFAULT_TAKEN;
	for (int i = 1; i < argc; i++) {
		int r = workload_opt_u64("branchy", argc, argv, &i, "-n", 1, 1ULL << 36, &o->iterations);
		if (!r)
			r = workload_opt_u64("branchy", argc, argv, &i, "--iterations", 1, 1ULL << 36,
					     &o->iterations);
		if (!r)
			r = workload_opt_u64("branchy", argc, argv, &i, "--taken", 0, 100,
					     &o->taken_percent);
		if (r < 0)
			return -1;
		if (!r) {
			err_printf("bareperf: branchy: unknown option '%s' "
				   "(usage: branchy [-n ITERATIONS] [--taken PERCENT])\n", argv[i]);
			return -1;
		}
	}
	return 0;
}

/* Taken when the next xorshift value is below the threshold. */
static u64 threshold_for(u64 percent)
{
	if (percent >= 100)
		return ~0ULL;	/* every nonzero value is below: always taken */
	return (u64)((unsigned __int128)percent << 64) / 100;
}

static u64 min_permille(u64 percent)
{
	u64 m = percent < 50 ? percent : 100 - percent;
	return m * 10;
}

/* What the run did, from the options and the taken count it returned. */
void branchy_truth(const struct branchy_opts *o, u64 taken, struct workload_truth *t)
{
	u64 n = o->iterations;
	t->parts = 1;
	t->part_name[0] = "branchy_walk";
	t->part_instructions[0] = n * BRANCHY_INSNS_PER_ITER + BRANCHY_INSNS_PER_CALL;
	t->data_branches = n;
	t->taken = taken;
	t->cond_branches = 2 * n;
	t->branches = 2 * n + (n - taken);	/* the jmp on each not-taken path */
	t->mispredict_permille = (u32)min_permille(o->taken_percent);
}

void branchy_profile(const struct branchy_opts *o, struct code_profile *p)
{
	u64 m = min_permille(o->taken_percent);	/* mispredicts per 1000 iterations */
	u64 branches_per_k_iter = 2000 + (1000 - o->taken_percent * 10);
	u64 cycles_per_k_iter = BRANCHY_CYCLES_PER_ITER * 1000 + m * BRANCHY_MISPREDICT_CYCLES;
	bp_memset(p, 0, sizeof(*p));
	p->ipc_permille = (u32)(BRANCHY_INSNS_PER_ITER * 1000 * 1000 / cycles_per_k_iter);
	p->nrates = 2;
	p->rate[0] = (struct code_rate){ .event = ARCH_CODE_BRANCH_RETIRED,
		.umask = ARCH_UMASK_BRANCH_RETIRED,
		.per_kilo_insn = (u32)(branches_per_k_iter / BRANCHY_INSNS_PER_ITER) };
	p->rate[1] = (struct code_rate){ .event = ARCH_CODE_BRANCH_MISSES,
		.umask = ARCH_UMASK_BRANCH_MISSES,
		.per_kilo_insn = (u32)(m / BRANCHY_INSNS_PER_ITER) };
}

static int branchy_check(int argc, char **argv)
{
	struct branchy_opts o;
	return branchy_parse(argc, argv, &o);
}

static int branchy_run(int argc, char **argv, struct workload_result *r)
{
	struct branchy_opts o;
	static struct code_profile profile;
	if (branchy_parse(argc, argv, &o))
		return -1;
	bp_memset(r, 0, sizeof(*r));
	branchy_profile(&o, &profile);
	u64 state = BRANCHY_SEED, threshold = threshold_for(o.taken_percent);
	workload_begin(&profile);
	u64 t0 = plat_ticks();
	u64 taken = branchy_walk(o.iterations, &state, threshold);
	r->ticks = plat_ticks() - t0;
	workload_begin(NULL);
	r->checksum = state ^ taken;
	branchy_truth(&o, taken, &r->truth);
	return 0;
}

const struct workload workload_branchy = {
	.name = "branchy",
	.summary = "a branch taken with probability p on a random sequence (mispredicts: min(p,1-p))",
	.usage = "[-n ITERATIONS] [--taken PERCENT]",
	.run = branchy_run,
	.check = branchy_check,
};
