#include "efi.h"
#include "idt.h"
#include "../lib/plat.h"
#include "../lib/str.h"

#define IDT_GATES 256

struct idt_pointer {
	u16 limit;
	u64 base;
} __attribute__((packed));

struct saved_gate {
	bool saved;
	struct idt_gate gate;
};
static struct saved_gate saved[IDT_GATES];
static struct idt_gate *bsp_idt;	/* the IDT idt_install put our gates in */
static struct idt_gate *ap_tables;	/* IDT_GATES per CPU, for AP windows */
static u32 ap_table_cpus;

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
	bsp_idt = idt_base();
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

/* ---- an AP's window (lib/plat.h) ------------------------------------------
 * Under OVMF each AP runs MP-services procedures on its own IDT, with
 * interrupts off (UefiCpuPkg MpInitLib): the BSP's gates are not there. */

int idt_ap_tables_prepare(u32 ncpus)
{
	if (ap_tables)
		return 0;
	ap_tables = plat_alloc((size_t)ncpus * IDT_GATES * sizeof(struct idt_gate));
	if (!ap_tables)
		return -1;
	ap_table_cpus = ncpus;
	return 0;
}

void idt_ap_tables_release(void)
{
	plat_free(ap_tables);
	ap_tables = NULL;
	ap_table_cpus = 0;
}

static bool interrupts_on(void)
{
	u64 rflags;
	__asm__ volatile("pushfq; popq %0" : "=r"(rflags));
	return rflags & (1u << 9);	/* RFLAGS.IF */
}

void plat_ap_window_begin(struct plat_ap_window *w)
{
	struct idt_pointer cur;
	u32 me = plat_cpu_self();
	__asm__ volatile("sidt %0" : "=m"(cur));
	w->idt_base = cur.base;
	w->idt_limit = cur.limit;
	w->interrupts_were_on = interrupts_on();
	w->open = ap_tables && bsp_idt && me < ap_table_cpus;
	if (!w->open)
		return;
	struct idt_gate *t = ap_tables + (size_t)me * IDT_GATES;
	size_t n = MIN((size_t)IDT_GATES, ((size_t)cur.limit + 1) / sizeof(struct idt_gate));
	bp_memset(t, 0, IDT_GATES * sizeof(*t));
	bp_memcpy(t, (const void *)(uintptr_t)cur.base, n * sizeof(*t));
	for (u32 v = 0; v < IDT_GATES; v++)
		if (saved[v].saved)
			t[v] = bsp_idt[v];
	struct idt_pointer mine = { IDT_GATES * sizeof(*t) - 1, (u64)(uintptr_t)t };
	__asm__ volatile("lidt %0" : : "m"(mine));
	__asm__ volatile("sti" ::: "memory");
}

void plat_ap_window_end(const struct plat_ap_window *w)
{
	if (!w->open)
		return;
	if (!w->interrupts_were_on)
		__asm__ volatile("cli" ::: "memory");
	struct idt_pointer theirs = { w->idt_limit, w->idt_base };
	__asm__ volatile("lidt %0" : : "m"(theirs));
}
