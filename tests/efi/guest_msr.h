/* RDMSR, WRMSR and RDPMC for the test UEFI programs, which run on the
 * machine's own PMU (not through bareperf's seam). */
#ifndef BP_TESTS_GUEST_MSR_H
#define BP_TESTS_GUEST_MSR_H
#include "../../lib/types.h"

static inline u64 guest_rdmsr(u32 msr)
{
	u32 lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (u64)hi << 32 | lo;
}

static inline void guest_wrmsr(u32 msr, u64 val)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((u32)val), "d"((u32)(val >> 32)) : "memory");
}

static inline u64 guest_rdpmc(u32 ecx)
{
	u32 lo, hi;
	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	return (u64)hi << 32 | lo;
}

#endif
