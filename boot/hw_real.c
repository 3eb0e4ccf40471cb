/* The real CPU behind the hardware seam: cpuid, rdmsr/wrmsr and APIC MMIO.
 * MSR accesses go through the probing stubs in boot/msr_probe.asm, which
 * turn a #GP into an error return instead of a firmware crash; the seam
 * then decides whether that fault is fatal. */
#include "efi.h"
#include "idt.h"
#include "../lib/fmt.h"
#include "../arch/hw.h"

static void real_cpuid(u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
	__asm__ volatile("cpuid"
			 : "=a"(r->eax), "=b"(r->ebx), "=c"(r->ecx), "=d"(r->edx)
			 : "a"(leaf), "c"(subleaf));
}

static int real_rdmsr(u32 msr, u64 *val, struct hw_fault *f)
{
	if (msr_probe_read(msr, val) == 0)
		return 0;
	bp_snprintf(f->rule, sizeof(f->rule), "the CPU raised #GP on RDMSR");
	return 1;
}

static int real_wrmsr(u32 msr, u64 val, struct hw_fault *f)
{
	if (msr_probe_write(msr, val) == 0)
		return 0;
	bp_snprintf(f->rule, sizeof(f->rule), "the CPU raised #GP on WRMSR");
	return 1;
}

/* RDPMC at CPL 0 is allowed whatever CR4.PCE says (SDM Vol. 2B, RDPMC);
 * it is used only for counters the PMU enumerates (pmu/counter.c), which
 * pmu_probe_reads has read through their MSRs first. */
static int real_rdpmc(u32 ecx, u64 *val, struct hw_fault *f)
{
	u32 lo, hi;
	(void)f;
	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	*val = (u64)hi << 32 | lo;
	return 0;
}

/* The firmware identity-maps physical memory, and the APIC page is mapped
 * uncached by it, so a volatile access is the MMIO access. */
static u32 real_mmio_read32(u64 addr)
{
	return *(volatile u32 *)(uintptr_t)addr;
}

static void real_mmio_write32(u64 addr, u32 val)
{
	*(volatile u32 *)(uintptr_t)addr = val;
}

static u64 real_rdtsc(void)
{
	u32 lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (u64)hi << 32 | lo;
}

static const struct hw_ops real_ops = {
	.name = "hw",
	.cpuid = real_cpuid,
	.rdmsr = real_rdmsr,
	.wrmsr = real_wrmsr,
	.rdpmc = real_rdpmc,
	.mmio_read32 = real_mmio_read32,
	.mmio_write32 = real_mmio_write32,
	.rdtsc = real_rdtsc,
};

const struct hw_ops *plat_hw_ops(void) { return &real_ops; }
