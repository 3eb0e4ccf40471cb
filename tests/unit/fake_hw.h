/* A table-driven hardware backend for tests that need fixed CPUID and MSR
 * values (register dumps of real CPUs) rather than the emulated PMU. */
#ifndef BP_FAKE_HW_H
#define BP_FAKE_HW_H
#include "arch/hw.h"

struct fake_cpuid {
	u32 leaf, subleaf;
	struct cpuid_regs regs;
};
struct fake_msr {
	u32 msr;
	u64 value;
};
struct fake_cpu {
	const char *name;
	const struct fake_cpuid *cpuid;	/* terminated by leaf 0xFFFFFFFF */
	const struct fake_msr *msrs;	/* terminated by msr 0 */
};

/* Selects the fake CPU behind the seam. Unlisted leaves read as zero;
 * unlisted MSRs fault, as they would on the part. */
void fake_hw_select(const struct fake_cpu *cpu);

#define FAKE_END_CPUID { 0xFFFFFFFFu, 0, { 0, 0, 0, 0 } }
#define FAKE_END_MSR   { 0, 0 }

#endif
