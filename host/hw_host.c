/* `--pmu=hw` on the host: the host CPU's own CPUID (an unprivileged
 * instruction), but no MSR or APIC access, which user space cannot have.
 * Every MSR access reports a fault, so commands that need the PMU say so. */
#include "../lib/plat.h"
#include "../lib/fmt.h"
#include "../arch/hw.h"
#include <cpuid.h>

static void host_cpuid(u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
	__cpuid_count(leaf, subleaf, r->eax, r->ebx, r->ecx, r->edx);
}

static int host_rdmsr(u32 msr, u64 *val, struct hw_fault *f)
{
	bp_snprintf(f->rule, sizeof(f->rule),
		    "no RDMSR ran: user space cannot read MSRs (use --pmu=sim:MODEL or the UEFI image)");
	f->not_run = true;
	return 1;
}

static int host_wrmsr(u32 msr, u64 val, struct hw_fault *f)
{
	bp_snprintf(f->rule, sizeof(f->rule),
		    "no WRMSR ran: user space cannot write MSRs (use --pmu=sim:MODEL or the UEFI image)");
	f->not_run = true;
	return 1;
}

static int host_rdpmc(u32 ecx, u64 *val, struct hw_fault *f)
{
	bp_snprintf(f->rule, sizeof(f->rule),
		    "the host build cannot read counters (use --pmu=sim:MODEL or the UEFI image)");
	return 1;
}

static u32 host_mmio_read32(u64 addr) { return 0; }
static void host_mmio_write32(u64 addr, u32 val) {}

static u64 host_rdtsc(void) { return __builtin_ia32_rdtsc(); }

static const struct hw_ops host_ops = {
	.name = "host",
	.emulated = false,
	.cpuid = host_cpuid,
	.rdmsr = host_rdmsr,
	.wrmsr = host_wrmsr,
	.rdpmc = host_rdpmc,
	.mmio_read32 = host_mmio_read32,
	.mmio_write32 = host_mmio_write32,
	.rdtsc = host_rdtsc,
};

const struct hw_ops *plat_hw_ops(void) { return &host_ops; }
