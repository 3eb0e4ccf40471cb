#include "efi.h"
#include "idt.h"

struct idt_pointer {
	u16 limit;
	u64 base;
} __attribute__((packed));

struct saved_gate {
	bool saved;
	struct idt_gate gate;
};
static struct saved_gate saved[256];

static struct idt_gate *idt_base(void)
{
	struct idt_pointer p;
	__asm__ volatile("sidt %0" : "=m"(p));
	return (struct idt_gate *)(uintptr_t)p.base;
}

static u16 current_cs(void)
{
	u16 cs;
	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	return cs;
}

u64 idt_gate_target(u8 vector)
{
	const struct idt_gate *g = &idt_base()[vector];
	return (u64)g->offset_low | (u64)g->offset_mid << 16 | (u64)g->offset_high << 32;
}

static void undo_gate(void *ctx)
{
	idt_restore((u8)(uintptr_t)ctx);
}

void idt_install(u8 vector, void (*entry)(void))
{
	struct idt_gate *g = &idt_base()[vector];
	u64 target = (u64)(uintptr_t)entry;
	struct idt_gate ng = {
		.offset_low = (u16)target,
		.selector = current_cs(),
		.ist = 0,
		.type_attr = IDT_GATE_INTERRUPT,
		.offset_mid = (u16)(target >> 16),
		.offset_high = (u32)(target >> 32),
	};
	if (!saved[vector].saved) {
		saved[vector].gate = *g;
		saved[vector].saved = true;
		boot_on_exit(undo_gate, (void *)(uintptr_t)vector);
	}
	*g = ng;
}

void idt_restore(u8 vector)
{
	if (!saved[vector].saved)
		return;
	idt_base()[vector] = saved[vector].gate;
	saved[vector].saved = false;
}

extern void msr_probe_gp_entry(void);
extern u64 msr_probe_old_gp;

void msr_probe_init(void)
{
	if (saved[IDT_VECTOR_GP].saved)
		return;
	msr_probe_old_gp = idt_gate_target(IDT_VECTOR_GP);
	idt_install(IDT_VECTOR_GP, msr_probe_gp_entry);
}
