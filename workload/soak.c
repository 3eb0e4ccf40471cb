/* soak: a CPU-bound mix of four named functions whose shares of the
 * instructions retired are known by construction (workload/soak_loops.asm:
 * 8 instructions per iteration + 3 per call). Iterations split 50/30/15/5,
 * interleaved in rounds so that any sampling drift averages out. */
#include "workload.h"
#include "../arch/msr.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"

u64 soak_hot(u64 iterations);
u64 soak_warm(u64 iterations);
u64 soak_cool(u64 iterations);
u64 soak_cold(u64 iterations);

#define SOAK_DEFAULT_ITERATIONS 200000000ULL	/* ~1.6 G instructions */
#define SOAK_ROUNDS 100
#define SOAK_MIN_ITERATIONS (100 * SOAK_ROUNDS)	/* each part at least once a round */
#define SOAK_MAX_ITERATIONS (1ULL << 40)	/* ~9 T instructions: hours */
#define SOAK_INSNS_PER_ITER 8
#define SOAK_INSNS_PER_CALL 3

static const struct soak_part {
	const char *name;
	u64 (*fn)(u64);
	u32 percent;
} parts[] = {
	{ "soak_hot", soak_hot, 50 },
	{ "soak_warm", soak_warm, 30 },
	{ "soak_cool", soak_cool, 15 },
	{ "soak_cold", soak_cold, 5 },
};

static int parse(int argc, char **argv, u64 *iterations)
{
	*iterations = SOAK_DEFAULT_ITERATIONS;
	for (int i = 1; i < argc; i++) {
		int r = workload_opt_u64("soak", argc, argv, &i, "-n", SOAK_MIN_ITERATIONS,
					 SOAK_MAX_ITERATIONS, iterations);
		if (!r)
			r = workload_opt_u64("soak", argc, argv, &i, "--iterations", SOAK_MIN_ITERATIONS,
					     SOAK_MAX_ITERATIONS, iterations);
		if (r < 0)
			return -1;
		if (!r) {
			err_printf("bareperf: soak: unknown option '%s' (usage: soak [-n ITERATIONS])\n",
				   argv[i]);
			return -1;
		}
	}
	return 0;
}

static int soak_check(int argc, char **argv)
{
	u64 iterations;
	return parse(argc, argv, &iterations);
}

static int soak_run(int argc, char **argv, struct workload_result *r)
{
	u64 total;
	if (parse(argc, argv, &total))
		return -1;
	bp_memset(r, 0, sizeof(*r));
	r->truth.parts = ARRAY_SIZE(parts);
	u64 per_round[ARRAY_SIZE(parts)];
	for (size_t k = 0; k < ARRAY_SIZE(parts); k++) {
		per_round[k] = total / 100 * parts[k].percent / SOAK_ROUNDS;
		r->truth.part_name[k] = parts[k].name;
		r->truth.part_instructions[k] = SOAK_ROUNDS *
			(per_round[k] * SOAK_INSNS_PER_ITER + SOAK_INSNS_PER_CALL);
		/* the loop's jnz each iteration and the ret of each call */
		r->truth.branches += SOAK_ROUNDS * (per_round[k] + 1);
	}
	/* By construction: one branch (the loop's jnz) per 8 instructions,
	 * mispredicted once per call. The dependent ALU chain retires about
	 * one instruction per cycle. */
	static const struct code_profile profile = {
		.ipc_permille = 1000,
		.nrates = 2,
		.rate = { { ARCH_CODE_BRANCH_RETIRED, ARCH_UMASK_BRANCH_RETIRED,
			    1000 / SOAK_INSNS_PER_ITER, 0, 0, 0, 0 },
			  { ARCH_CODE_BRANCH_MISSES, ARCH_UMASK_BRANCH_MISSES, 0, 0, 0, 0, 0 } },
	};
	workload_begin(&profile);
	u64 t0 = plat_ticks(), retired = 0;
	for (u32 round = 0; round < SOAK_ROUNDS; round++)
		for (size_t k = 0; k < ARRAY_SIZE(parts); k++) {
			u64 part = per_round[k] * SOAK_INSNS_PER_ITER + SOAK_INSNS_PER_CALL;
			workload_retired(retired, part);
			r->checksum += parts[k].fn(per_round[k]);
			retired += part;
		}
	workload_retired(retired, 0);
	r->ticks = plat_ticks() - t0;
	workload_begin(NULL);
	return 0;
}

const struct workload workload_soak = {
	.name = "soak",
	.summary = "CPU-bound mix: soak_hot/warm/cool/cold with 50/30/15/5% of the instructions",
	.usage = "[-n ITERATIONS]",
	.run = soak_run,
	.check = soak_check,
};
