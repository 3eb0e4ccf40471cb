#include "hw.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/plat.h"

static const struct hw_ops *current_ops;
static struct hw_stats stats;
static hw_fault_handler fault_handler;

void hw_select(const struct hw_ops *ops) { current_ops = ops; }
const struct hw_ops *hw_current(void) { return current_ops; }

static void default_fault(const struct hw_fault *f)
{
	char what[300];
	hw_fault_describe(f, what, sizeof(what));
	err_printf("bareperf: %s\n", what);
	plat_abort("MSR access fault");
}

hw_fault_handler hw_set_fault_handler(hw_fault_handler h)
{
	hw_fault_handler old = fault_handler;
	fault_handler = h;
	return old;
}

/* ---- faults on other CPUs --------------------------------------------------
 * Code on an AP runs under MP services, where it may not call firmware
 * services (PI spec, EFI_MP_SERVICES_PROTOCOL): it can neither print nor
 * end the program. Its fatal faults are kept, the first per CPU, and the
 * CPU that runs the command reports them (hw_fault_take). */
static u32 home_cpu;
static bool home_defers;
static struct {
	volatile bool kept;
	u32 more;		/* faults after the first */
	struct hw_fault fault;
} deferred[HW_FAULT_CPUS];

void hw_fault_home(u32 cpu) { home_cpu = cpu; }
void hw_fault_defer(bool on) { home_defers = on; }

static bool defer_fault(const struct hw_fault *f)
{
	u32 me = plat_cpu_self();
	if (me == home_cpu && !home_defers)
		return false;
	if (me >= HW_FAULT_CPUS)
		return true;	/* nowhere to keep it; the access still failed */
	if (deferred[me].kept)
		deferred[me].more++;
	else {
		deferred[me].fault = *f;
		deferred[me].kept = true;
	}
	return true;
}

bool hw_fault_take(u32 cpu, struct hw_fault *out, u32 *more)
{
	if (cpu >= HW_FAULT_CPUS || !deferred[cpu].kept)
		return false;
	*out = deferred[cpu].fault;
	if (more)
		*more = deferred[cpu].more;
	deferred[cpu].kept = false;
	deferred[cpu].more = 0;
	return true;
}

void hw_fault_describe(const struct hw_fault *f, char *buf, size_t len)
{
	const char *gp = f->not_run ? "" : "#GP: ";	/* no instruction, no #GP */
	if (f->write)
		bp_snprintf(buf, len, "%sWRMSR 0x%x <- 0x%llx: %s", gp, f->msr,
			    (unsigned long long)f->value, f->rule);
	else
		bp_snprintf(buf, len, "%sRDMSR 0x%x: %s", gp, f->msr, f->rule);
}

/* The fault record of an access, its rule left for the backend to write
 * when the access faults: clearing the whole record (the rule is 192
 * bytes) at every access cost more than the access itself on the PMI
 * path. */
static inline void fault_init(struct hw_fault *f, u32 msr, u64 value, bool write)
{
	f->msr = msr;
	f->value = value;
	f->write = write;
	f->rule[0] = 0;
	f->not_run = false;
}

static void raise_fault(const struct hw_fault *f)
{
	if (defer_fault(f))
		return;
	(fault_handler ? fault_handler : default_fault)(f);
}

void hw_cpuid(u32 leaf, u32 subleaf, struct cpuid_regs *out)
{
	stats.cpuid++;
	current_ops->cpuid(leaf, subleaf, out);
}

int hw_rdmsr_safe(u32 msr, u64 *val)
{
	struct hw_fault f;
	fault_init(&f, msr, 0, false);
	stats.rdmsr++;
	*val = 0;
	return current_ops->rdmsr(msr, val, &f);
}

int hw_wrmsr_safe(u32 msr, u64 val)
{
	struct hw_fault f;
	fault_init(&f, msr, val, true);
	stats.wrmsr++;
	return current_ops->wrmsr(msr, val, &f);
}

u64 hw_rdmsr(u32 msr)
{
	struct hw_fault f;
	fault_init(&f, msr, 0, false);
	u64 val = 0;
	stats.rdmsr++;
	if (current_ops->rdmsr(msr, &val, &f)) {
		raise_fault(&f);
		return 0;
	}
	return val;
}

u64 hw_rdpmc(u32 ecx)
{
	struct hw_fault f;
	u64 val = 0;
	fault_init(&f, 0, 0, false);
	stats.rdpmc++;
	if (!current_ops->rdpmc) {
		bp_snprintf(f.rule, sizeof(f.rule), "RDPMC is not available behind this seam");
		raise_fault(&f);
		return 0;
	}
	if (current_ops->rdpmc(ecx, &val, &f)) {
		raise_fault(&f);
		return 0;
	}
	return val;
}

void hw_wrmsr(u32 msr, u64 val)
{
	struct hw_fault f;
	fault_init(&f, msr, val, true);
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
