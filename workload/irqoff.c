/* irqoff: half of its instructions with interrupts off, half with them on,
 * like firmware code at TPL_HIGH_LEVEL or in its timer handler next to
 * ordinary code. irqoff_masked and irqoff_open (workload/irqoff_loops.asm)
 * each retire 8 instructions per iteration + 3 per call, interleaved in
 * rounds. A PMI delivered as a fixed vector waits while interrupts are off
 * and lands just after they come back on; delivered as an NMI (record
 * --pmi=nmi) it samples irqoff_masked too. In the host twin the process
 * cannot turn interrupts off: both parts run alike there. */
#include "workload.h"
#include "../arch/msr.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"

u64 irqoff_masked(u64 iterations);
u64 irqoff_open(u64 iterations);

#define IRQOFF_DEFAULT_ITERATIONS 20000000ULL	/* ~160 M instructions */
#define IRQOFF_ROUNDS 20
#define IRQOFF_MAX_ITERATIONS (1ULL << 40)	/* ~9 T instructions: hours */
#define IRQOFF_INSNS_PER_ITER 8
#define IRQOFF_INSNS_PER_CALL 3

static int parse(int argc, char **argv, u64 *iterations)
{
	*iterations = IRQOFF_DEFAULT_ITERATIONS;
	for (int i = 1; i < argc; i++) {
		int r = workload_opt_u64("irqoff", argc, argv, &i, "-n", 2 * IRQOFF_ROUNDS,
					 IRQOFF_MAX_ITERATIONS, iterations);
		if (!r)
			r = workload_opt_u64("irqoff", argc, argv, &i, "--iterations", 2 * IRQOFF_ROUNDS,
					     IRQOFF_MAX_ITERATIONS, iterations);
		if (r < 0)
			return -1;
		if (!r) {
			err_printf("bareperf: irqoff: unknown option '%s' (usage: irqoff [-n ITERATIONS])\n",
				   argv[i]);
			return -1;
		}
	}
	return 0;
}

static int irqoff_check(int argc, char **argv)
{
	u64 iterations;
	return parse(argc, argv, &iterations);
}

static int irqoff_run(int argc, char **argv, struct workload_result *r)
{
	u64 total;
	if (parse(argc, argv, &total))
		return -1;
	bp_memset(r, 0, sizeof(*r));
	u64 per_round = total / 2 / IRQOFF_ROUNDS;
	u64 part = IRQOFF_ROUNDS * (per_round * IRQOFF_INSNS_PER_ITER + IRQOFF_INSNS_PER_CALL);
	r->truth.parts = 2;
	r->truth.part_name[0] = "irqoff_masked";
	r->truth.part_name[1] = "irqoff_open";
	r->truth.part_instructions[0] = r->truth.part_instructions[1] = part;
	static const struct code_profile profile = {	/* soak's loop body */
		.ipc_permille = 1000,
		.nrates = 1,
		.rate = { { ARCH_CODE_BRANCH_RETIRED, ARCH_UMASK_BRANCH_RETIRED,
			    1000 / IRQOFF_INSNS_PER_ITER, 0, 0, 0, 0 } },
	};
	workload_begin(&profile);
	u64 t0 = plat_ticks();
	u64 call = per_round * IRQOFF_INSNS_PER_ITER + IRQOFF_INSNS_PER_CALL, retired = 0;
	for (u32 round = 0; round < IRQOFF_ROUNDS; round++) {
		workload_retired(retired, 2 * call);
		u64 flags = plat_irqs_off();
		r->checksum += irqoff_masked(per_round);
		plat_irqs_restore(flags);
		r->checksum += irqoff_open(per_round);
		retired += 2 * call;
	}
	workload_retired(retired, 0);
	r->ticks = plat_ticks() - t0;
	workload_begin(NULL);
	return 0;
}

const struct workload workload_irqoff = {
	.name = "irqoff",
	.summary = "irqoff_masked (interrupts off) and irqoff_open (on), 50/50% of the instructions",
	.usage = "[-n ITERATIONS]",
	.run = irqoff_run,
	.check = irqoff_check,
};
