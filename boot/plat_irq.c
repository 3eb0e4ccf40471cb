/* lib/plat.h's interrupt services on top of the IDT gates and the HPET. */
#include "efi.h"
#include "isr.h"
#include "tick.h"
#include "../lib/plat.h"
#include "../sim/drive.h"	/* plat_raise_pmi, which the drive asks of the platform */

struct irq_slot {
	plat_irq_fn fn;
	void *ctx;
};
static struct irq_slot tick_slot;

static void call_slot(const struct isr_frame *f, void *ctx)
{
	const struct irq_slot *slot = ctx;
	struct plat_irq_frame frame = { f->rip, f->rsp, f->rbp };
	if (slot->fn)
		slot->fn(&frame, slot->ctx);
}

int plat_tick_start(u32 period_us, plat_irq_fn fn, void *ctx, const char **why)
{
	tick_slot = (struct irq_slot){ fn, ctx };
	return tick_start(period_us, call_slot, &tick_slot, why);
}

void plat_tick_stop(void)
{
	tick_stop();
}

struct pmi_slot {
	plat_pmi_fn fn;
	void *ctx;
};
static struct pmi_slot pmi_slot, nmi_slot;
static bool nmi_installed;

static void call_pmi_slot(const struct isr_frame *f, void *ctx)
{
	const struct pmi_slot *slot = ctx;
	struct plat_irq_frame frame = { f->rip, f->rsp, f->rbp };
	if (slot->fn)
		(void)slot->fn(&frame, slot->ctx);
}

u8 plat_pmi_install(plat_pmi_fn fn, void *ctx)
{
	pmi_slot = (struct pmi_slot){ fn, ctx };
	isr_install_pmi(call_pmi_slot, &pmi_slot);
	return ISR_PMI_VECTOR;
}

static bool call_nmi_slot(const struct isr_frame *f, void *ctx)
{
	const struct pmi_slot *slot = ctx;
	struct plat_irq_frame frame = { f->rip, f->rsp, f->rbp };
	return slot->fn && slot->fn(&frame, slot->ctx);
}

u8 plat_pmi_install_nmi(plat_pmi_fn fn, void *ctx)
{
	nmi_slot = (struct pmi_slot){ fn, ctx };
	isr_install_nmi(call_nmi_slot, &nmi_slot);
	nmi_installed = true;
	return ISR_NMI_VECTOR;
}

void plat_pmi_remove(void)
{
	if (nmi_installed)
		isr_remove_nmi();
	else
		isr_remove_pmi();
	nmi_installed = false;
}

void plat_raise_pmi(void)
{
	isr_raise_pmi();
}
