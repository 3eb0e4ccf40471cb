/* One MSR and event sequence, run on two PMUs: the model on the host
 * (tests/diff/pmu_diff_host.c, through sim/sim_machine.h) and the QEMU TCG
 * PMU in a guest (tests/efi/pmudiff.c, real RDMSR/WRMSR). Both print the
 * same transcript when the machine and the model agree
 * (tests/e2e/qemu_pmu_differential.sh compares them). */
#ifndef BP_PMU_DIFF_H
#define BP_PMU_DIFF_H
#include "../../lib/types.h"

/* A measured stretch: WRMSR IA32_PERF_GLOBAL_CTRL = ctrl, a loop of
 * `iterations` (each 5 instructions, one branch), two more instructions,
 * WRMSR IA32_PERF_GLOBAL_CTRL = 0. The enabling WRMSR is counted and the
 * disabling one is not, as on hardware: PMU_DIFF_INSNS(n) instructions and
 * n branches in all. */
#define PMU_DIFF_INSNS(n) (5 * (n) + 3)

struct pmu_diff_ops {
	u64 (*rdmsr)(u32 msr);
	void (*wrmsr)(u32 msr, u64 val);
	u64 (*rdpmc)(u32 ecx);
	void (*measure)(u64 ctrl, u64 iterations);
	void (*emit)(const char *name, u64 value);
	/* A 4 KiB DS save area and a 64 KiB PEBS buffer, zeroed, 8-aligned. */
	u8 *ds, *pebs;
};

/* Runs the sequence; every value read is emitted as "name value". */
void pmu_diff_run(const struct pmu_diff_ops *ops);

#endif
