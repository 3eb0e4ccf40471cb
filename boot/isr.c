#include "efi.h"
#include "idt.h"
#include "isr.h"
#include "../arch/exec.h"
#include "../arch/msr.h"

extern void isr_pmi_entry(void);
extern void isr_tick_entry(void);
extern void isr_nmi_entry(void);
extern u32 isr_pmi_vector, isr_tick_vector;
extern u64 isr_nmi_old;

struct isr_slot {
	isr_handler handler;
	void *ctx;
};
static struct isr_slot pmi_slot, tick_slot;
static struct {
	isr_nmi_handler handler;
	void *ctx;
} nmi_slot;
/* While the tick runs, the context it interrupted: a PMI the PMU model
 * raises from inside the tick is taken on behalf of that code. */
static const struct isr_frame *tick_frame;
static bool pmi_by_software;

/* This CPU's own xAPIC, reached without the register seam: the seam's
 * APIC may be a model's (the execution seam says when the handler's EOI
 * missed this one: exec_pmi_irq_done), but the interrupt itself came
 * through this one. OVMF runs the APIC in xAPIC mode (QEMU's TCG has no
 * x2APIC). */
static volatile u32 *real_apic_reg(u32 offset)
{
	u64 base;
	if (msr_probe_read(MSR_IA32_APIC_BASE, &base) != 0)
		base = APIC_DEFAULT_BASE;
	return (volatile u32 *)(uintptr_t)((base & APIC_BASE_ADDR_MASK) + offset);
}

static bool real_x2apic(void)
{
	u64 base;
	return msr_probe_read(MSR_IA32_APIC_BASE, &base) == 0 &&
	       (base & APIC_BASE_X2APIC_ENABLE);
}

static void real_eoi(void)
{
	if (real_x2apic())
		msr_probe_write(x2apic_msr(APIC_EOI), 0);
	else
		*real_apic_reg(APIC_EOI) = 0;
}

void isr_dispatch(u32 vector, const struct isr_frame *frame)
{
	struct isr_slot *slot = vector == ISR_PMI_VECTOR ? &pmi_slot : &tick_slot;

	if (vector == ISR_TICK_VECTOR) {
		real_eoi();
		tick_frame = frame;
		if (slot->handler)
			slot->handler(frame, slot->ctx);
		tick_frame = NULL;
		return;
	}
	bool software = pmi_by_software;
	pmi_by_software = false;
	if (slot->handler)
		slot->handler(tick_frame ? tick_frame : frame, slot->ctx);
	if (!software)	/* came through this CPU's APIC: did the handler's EOI reach it? */
		exec_pmi_irq_done(real_eoi);
}

void isr_raise_pmi(void)
{
	/* INT n goes through the same IDT gate and stub as the hardware
	 * PMI, synchronously, so the handler sees the counters at the
	 * moment of the overflow, as on real hardware. */
	pmi_by_software = true;
	__asm__ volatile("int %0" : : "i"(ISR_PMI_VECTOR) : "memory");
}

void isr_install_pmi(isr_handler h, void *ctx)
{
	pmi_slot = (struct isr_slot){ h, ctx };
	isr_pmi_vector = ISR_PMI_VECTOR;
	idt_install(ISR_PMI_VECTOR, isr_pmi_entry);
}

void isr_install_tick(isr_handler h, void *ctx)
{
	tick_slot = (struct isr_slot){ h, ctx };
	isr_tick_vector = ISR_TICK_VECTOR;
	idt_install(ISR_TICK_VECTOR, isr_tick_entry);
}

void isr_remove_pmi(void)
{
	idt_restore(ISR_PMI_VECTOR);
	pmi_slot = (struct isr_slot){ 0 };
}

void isr_remove_tick(void)
{
	idt_restore(ISR_TICK_VECTOR);
	tick_slot = (struct isr_slot){ 0 };
}

int isr_nmi_dispatch(const struct isr_frame *frame);
int isr_nmi_dispatch(const struct isr_frame *frame)
{
	return nmi_slot.handler && nmi_slot.handler(frame, nmi_slot.ctx);
}

void isr_install_nmi(isr_nmi_handler h, void *ctx)
{
	nmi_slot.handler = h;
	nmi_slot.ctx = ctx;
	isr_nmi_old = idt_gate_target(ISR_NMI_VECTOR);
	idt_install(ISR_NMI_VECTOR, isr_nmi_entry);
}

void isr_remove_nmi(void)
{
	idt_restore(ISR_NMI_VECTOR);
	nmi_slot.handler = NULL;
	nmi_slot.ctx = NULL;
}
