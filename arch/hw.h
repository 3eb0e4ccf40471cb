/* The hardware seam: the only way logic reaches the instructions that touch
 * the PMU (cpuid, rdmsr/wrmsr, local APIC registers through MMIO). Behind it
 * is either the real CPU (boot/hw_real.c, in the image) or the emulated PMU
 * (sim/, on the host and in the image with --pmu=sim). Everything above it
 * is plain C that runs in host tests. */
#ifndef BP_HW_H
#define BP_HW_H
#include "../lib/types.h"

struct cpuid_regs {
	u32 eax, ebx, ecx, edx;
};

/* What a faulting access would have done on a real CPU (#GP), and why. */
struct hw_fault {
	u32 msr;
	u64 value;	/* value written, or 0 for a read */
	bool write;
	char rule[192];	/* the SDM rule the access broke */
	bool not_run;	/* no instruction ran: the backend has no MSR access
			 * (the host build: user space cannot have it) */
};

struct hw_ops {
	const char *name;	/* "hw", "sim:icx", ... */
	bool emulated;		/* results are not hardware figures */
	void (*cpuid)(u32 leaf, u32 subleaf, struct cpuid_regs *out);
	/* 0 on success; nonzero when the access #GPs (and *fault says why). */
	int (*rdmsr)(u32 msr, u64 *val, struct hw_fault *fault);
	int (*wrmsr)(u32 msr, u64 val, struct hw_fault *fault);
	/* RDPMC (SDM Vol. 2B): ECX is the counter index, RDPMC_FIXED for
	 * a fixed counter; nonzero when it #GPs. */
	int (*rdpmc)(u32 ecx, u64 *val, struct hw_fault *fault);
	/* 32-bit MMIO at a physical address (the xAPIC page). */
	u32 (*mmio_read32)(u64 addr);
	void (*mmio_write32)(u64 addr, u32 val);
	/* The time stamp counter (RDTSC): PEBS records carry it, so samples
	 * taken in the PMI must read the same clock. */
	u64 (*rdtsc)(void);
};

void hw_select(const struct hw_ops *ops);
const struct hw_ops *hw_current(void);

void hw_cpuid(u32 leaf, u32 subleaf, struct cpuid_regs *out);
/* A faulting access is fatal, as a #GP would be: the fault handler runs
 * (by default it prints the MSR, the value and the rule, and aborts). */
u64 hw_rdmsr(u32 msr);
void hw_wrmsr(u32 msr, u64 val);
/* Probing accesses: a fault is returned (nonzero), not fatal. */
int hw_rdmsr_safe(u32 msr, u64 *val);
int hw_wrmsr_safe(u32 msr, u64 val);
/* RDPMC: a counter read that is not an MSR access. Linux reads counters
 * so (arch/x86/events/core.c, x86_perf_event_update), as it costs a
 * fraction of an RDMSR. A fault is fatal, as for hw_rdmsr. */
u64 hw_rdpmc(u32 ecx);
u32 hw_mmio_read32(u64 addr);
u64 hw_rdtsc(void);
void hw_mmio_write32(u64 addr, u32 val);

typedef void (*hw_fault_handler)(const struct hw_fault *fault);
/* Replaces the fatal-fault handler (tests use this to catch faults);
 * NULL restores the default. Returns the previous handler. */
hw_fault_handler hw_set_fault_handler(hw_fault_handler h);

/* Fatal faults where they cannot be reported: on any CPU but the home
 * one (the BSP, which runs the command), and on the home CPU too while
 * deferral is on. The access fails (a read gives 0), the first fault per
 * CPU is kept, and hw_fault_take() hands it over (true) with the count of
 * later ones. hw_fault_describe() words a fault as "#GP: RDMSR 0x..." (without
 * "#GP: " when no instruction ran: not_run). */
#define HW_FAULT_CPUS 64
void hw_fault_home(u32 cpu);
void hw_fault_defer(bool on);
bool hw_fault_take(u32 cpu, struct hw_fault *out, u32 *more);
void hw_fault_describe(const struct hw_fault *f, char *buf, size_t len);

/* Access counters, for "MSR accesses per PMI" figures on any backend. */
struct hw_stats {
	u64 rdmsr, wrmsr, rdpmc, cpuid, mmio_read, mmio_write;
};
void hw_stats_get(struct hw_stats *out);
void hw_stats_reset(void);

#endif
