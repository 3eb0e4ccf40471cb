/* Helpers shared by the emulated-PMU tests: open a model behind the seam,
 * catch faults, record interrupts, lay out a DS save area. */
#ifndef BP_TEST_SIM_SUPPORT_H
#define BP_TEST_SIM_SUPPORT_H
#include "test.h"
#include "arch/hw.h"
#include "arch/msr.h"
#include "sim/sim_api.h"

static struct hw_fault last_fault;
static int fault_count;

static inline void catch_fault(const struct hw_fault *f)
{
	last_fault = *f;
	fault_count++;
}

static inline void open_model(const char *model)
{
	char err[160];
	const struct hw_ops *ops = sim_open(model, err, sizeof(err));
	if (!ops)
		fail_msg("sim_open(%s): %s", model, err);
	hw_select(ops);
	hw_set_fault_handler(catch_fault);
	fault_count = 0;
	memset(&last_fault, 0, sizeof(last_fault));
}

static inline int close_model(void **state)
{
	sim_close();
	hw_set_fault_handler(NULL);
	return 0;
}

/* Asserts that the write faults and that the rule mentions `words`. */
static inline void expect_wrmsr_gp(u32 msr, u64 val, const char *words)
{
	int before = fault_count;
	assert_int_not_equal(hw_wrmsr_safe(msr, val), 0);
	hw_wrmsr(msr, val);	/* the fatal path reaches the fault handler */
	assert_int_equal(fault_count, before + 1);
	assert_int_equal(last_fault.msr, msr);
	assert_true(last_fault.write);
	if (words && !strstr(last_fault.rule, words))
		fail_msg("rule '%s' does not mention '%s'", last_fault.rule, words);
}

static inline void expect_rdmsr_gp(u32 msr, const char *words)
{
	u64 v;
	int before = fault_count;
	assert_int_not_equal(hw_rdmsr_safe(msr, &v), 0);
	hw_rdmsr(msr);
	assert_int_equal(fault_count, before + 1);
	assert_false(last_fault.write);
	if (words && !strstr(last_fault.rule, words))
		fail_msg("rule '%s' does not mention '%s'", last_fault.rule, words);
}

/* Interrupts the model delivered to the hook. */
static struct irq_log {
	int count;
	u32 cpu[64];
	u8 vector[64];
	u32 lvt_seen[64];	/* LVT PC as the handler found it */
	void (*then)(void);	/* optional handler body */
} irqs;

static inline void record_irq(u32 cpu, u8 vector, void *ctx)
{
	int i = irqs.count++;
	if (i < 64) {
		irqs.cpu[i] = cpu;
		irqs.vector[i] = vector;
		irqs.lvt_seen[i] = sim_regs()->lvt_pc;
	}
	if (irqs.then)
		irqs.then();
}

static inline void hook_irqs(void)
{
	memset(&irqs, 0, sizeof(irqs));
	sim_set_pmi_hook(record_irq, NULL);
}

#define PMI_VECTOR 0xFE
#define XAPIC_BASE 0xFEE00000ULL

static inline void unmask_lvt_pc(void)
{
	hw_mmio_write32(XAPIC_BASE + APIC_LVT_PERFCNT, APIC_LVT_DELIVERY_FIXED | PMI_VECTOR);
}

/* A DS save area and a PEBS buffer in this process's memory. */
struct ds_fixture {
	u64 ds[64];
	u8 buf[16384] __attribute__((aligned(64)));
};

static inline void ds_setup(struct ds_fixture *d, u64 size, u64 threshold)
{
	memset(d, 0, sizeof(*d));
	u64 base = (u64)(uintptr_t)d->buf;
	d->ds[DS_PEBS_BUFFER_BASE / 8] = base;
	d->ds[DS_PEBS_INDEX / 8] = base;
	d->ds[DS_PEBS_ABSOLUTE_MAXIMUM / 8] = base + size;
	d->ds[DS_PEBS_INTERRUPT_THRESHOLD / 8] = base + threshold;
	hw_wrmsr(MSR_IA32_DS_AREA, (u64)(uintptr_t)d->ds);
}

static inline u64 ds_index_used(const struct ds_fixture *d)
{
	return d->ds[DS_PEBS_INDEX / 8] - d->ds[DS_PEBS_BUFFER_BASE / 8];
}

static inline u64 rec_u64(const struct ds_fixture *d, u64 offset)
{
	u64 v;
	memcpy(&v, d->buf + offset, sizeof(v));
	return v;
}

/* Counter idx = GP i or 32 + fixed i; a value `left` counts before it overflows. */
static inline u64 minus(u64 left, unsigned width) { return (0 - left) & GENMASK(width - 1, 0); }

#endif
