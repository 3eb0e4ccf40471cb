#include "hw.h"
#include "../lib/out.h"
#include "../lib/plat.h"

static const struct hw_ops *current_ops;
static struct hw_stats stats;
static hw_fault_handler fault_handler;

void hw_select(const struct hw_ops *ops) { current_ops = ops; }
const struct hw_ops *hw_current(void) { return current_ops; }

static void default_fault(const struct hw_fault *f)
{
	if (f->write)
		err_printf("bareperf: #GP: WRMSR 0x%x <- 0x%llx: %s\n", f->msr,
			   (unsigned long long)f->value, f->rule);
	else
		err_printf("bareperf: #GP: RDMSR 0x%x: %s\n", f->msr, f->rule);
	plat_abort("MSR access fault");
}

hw_fault_handler hw_set_fault_handler(hw_fault_handler h)
{
	hw_fault_handler old = fault_handler;
	fault_handler = h;
	return old;
}

static void raise_fault(const struct hw_fault *f)
{
	(fault_handler ? fault_handler : default_fault)(f);
}

void hw_cpuid(u32 leaf, u32 subleaf, struct cpuid_regs *out)
{
	stats.cpuid++;
	current_ops->cpuid(leaf, subleaf, out);
}

int hw_rdmsr_safe(u32 msr, u64 *val)
{
	struct hw_fault f = { .msr = msr };
	stats.rdmsr++;
	*val = 0;
	return current_ops->rdmsr(msr, val, &f);
}

int hw_wrmsr_safe(u32 msr, u64 val)
{
	struct hw_fault f = { .msr = msr, .value = val, .write = true };
	stats.wrmsr++;
	return current_ops->wrmsr(msr, val, &f);
}

u64 hw_rdmsr(u32 msr)
{
	struct hw_fault f = { .msr = msr };
	u64 val = 0;
	stats.rdmsr++;
	if (current_ops->rdmsr(msr, &val, &f)) {
		raise_fault(&f);
		return 0;
	}
	return val;
}

void hw_wrmsr(u32 msr, u64 val)
{
	struct hw_fault f = { .msr = msr, .value = val, .write = true };
	stats.wrmsr++;
	if (current_ops->wrmsr(msr, val, &f))
		raise_fault(&f);
}

u32 hw_mmio_read32(u64 addr)
{
	stats.mmio_read++;
	return current_ops->mmio_read32(addr);
}

void hw_mmio_write32(u64 addr, u32 val)
{
	stats.mmio_write++;
	current_ops->mmio_write32(addr, val);
}

void hw_stats_get(struct hw_stats *out) { *out = stats; }
void hw_stats_reset(void) { stats = (struct hw_stats){ 0 }; }

u64 hw_rdtsc(void)
{
	return current_ops->rdtsc ? current_ops->rdtsc() : 0;
}
