#include "fake_hw.h"
#include "arch/msr.h"
#include <stdio.h>

static const struct fake_cpu *cpu;
/* What writes to a writable fake CPU's MSRs left there. */
#define FAKE_WRITTEN_MAX 64
static struct fake_msr written[FAKE_WRITTEN_MAX];
static unsigned n_written;

static void fake_cpuid(u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
	*r = (struct cpuid_regs){ 0, 0, 0, 0 };
	for (const struct fake_cpuid *c = cpu->cpuid; c->leaf != 0xFFFFFFFFu; c++)
		if (c->leaf == leaf && c->subleaf == subleaf)
			*r = c->regs;
}

static int fake_rdmsr(u32 msr, u64 *val, struct hw_fault *f)
{
	for (unsigned i = 0; i < n_written; i++)
		if (written[i].msr == msr) {
			*val = written[i].value;
			return 0;
		}
	for (const struct fake_msr *m = cpu->msrs; m && m->msr; m++)
		if (m->msr == msr) {
			*val = m->value;
			return 0;
		}
	snprintf(f->rule, sizeof(f->rule), "MSR 0x%x not implemented on %s", msr, cpu->name);
	return 1;
}

static bool listed(u32 msr)
{
	for (const struct fake_msr *m = cpu->msrs; m && m->msr; m++)
		if (m->msr == msr)
			return true;
	return false;
}

static int fake_wrmsr(u32 msr, u64 val, struct hw_fault *f)
{
	if (cpu->drops_writes && listed(msr))
		return 0;
	if (cpu->writable && listed(msr)) {
		unsigned i = 0;
		while (i < n_written && written[i].msr != msr)
			i++;
		if (i < FAKE_WRITTEN_MAX) {
			written[i] = (struct fake_msr){ msr, val };
			n_written += i == n_written;
			return 0;
		}
	}
	snprintf(f->rule, sizeof(f->rule), "fake CPU %s is read-only", cpu->name);
	return 1;
}

/* RDPMC reads the counter's MSR of the table (IA32_PMCx, IA32_FIXED_CTRx). */
static int fake_rdpmc(u32 ecx, u64 *val, struct hw_fault *f)
{
	u32 i = ecx & ~(u32)RDPMC_FIXED;
	if (cpu->rdpmc_gp_base)
		return fake_rdmsr(cpu->rdpmc_gp_base + i * cpu->rdpmc_gp_stride, val, f);
	return fake_rdmsr((ecx & RDPMC_FIXED ? MSR_IA32_FIXED_CTR0 : MSR_IA32_PMC0) + i, val, f);
}

static u32 fake_mmio_read32(u64 addr) { return 0; }
static void fake_mmio_write32(u64 addr, u32 val) {}

static struct hw_ops fake_ops = {
	.name = "fake",
	.cpuid = fake_cpuid,
	.rdmsr = fake_rdmsr,
	.wrmsr = fake_wrmsr,
	.rdpmc = fake_rdpmc,
	.mmio_read32 = fake_mmio_read32,
	.mmio_write32 = fake_mmio_write32,
};

void fake_hw_select(const struct fake_cpu *c)
{
	cpu = c;
	n_written = 0;
	hw_select(&fake_ops);
}
