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
	/* Listed MSRs keep what is written to them (until the next
	 * fake_hw_select); otherwise every write faults. */
	bool writable;
	/* Writes are taken and dropped: reads keep the table's value, as a
	 * hypervisor without a PMU does to AMD's counters. */
	bool drops_writes;
	/* RDPMC's GP counter i is MSR rdpmc_gp_base + i * rdpmc_gp_stride
	 * (AMD's); 0: Intel's IA32_PMCx and IA32_FIXED_CTRx. */
	u32 rdpmc_gp_base, rdpmc_gp_stride;
};

/* Selects the fake CPU behind the seam. Unlisted leaves read as zero;
 * unlisted MSRs fault, as they would on the part. */
void fake_hw_select(const struct fake_cpu *cpu);

#define FAKE_END_CPUID { 0xFFFFFFFFu, 0, { 0, 0, 0, 0 } }
#define FAKE_END_MSR   { 0, 0 }

#endif
