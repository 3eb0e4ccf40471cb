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

static struct idt_gate *table_of(u32 cpu)
{
	return ap_tables && cpu < ap_table_cpus ? ap_tables + (size_t)cpu * IDT_GATES : NULL;
}

/* The IDT this AP runs on now is its copy with our gates. */
static bool gates_ours(void)
{
	struct idt_pointer cur;
	__asm__ volatile("sidt %0" : "=m"(cur));
	struct idt_gate *t = table_of(plat_cpu_self());
	return t && cur.base == (u64)(uintptr_t)t;
}

void idt_ap_enter(struct idt_ap_saved *s, u32 cpu)
{
	struct idt_pointer cur;
	__asm__ volatile("sidt %0" : "=m"(cur));
	s->base = cur.base;
	s->limit = cur.limit;
	struct idt_gate *t = table_of(cpu);
	s->ours = t && bsp_idt && cur.base != (u64)(uintptr_t)t;
	if (!s->ours)
		return;
	size_t n = MIN((size_t)IDT_GATES, ((size_t)cur.limit + 1) / sizeof(struct idt_gate));
	bp_memset(t, 0, IDT_GATES * sizeof(*t));
	bp_memcpy(t, (const void *)(uintptr_t)cur.base, n * sizeof(*t));
	for (u32 v = 0; v < IDT_GATES; v++)
		if (saved[v].saved)
			t[v] = bsp_idt[v];
	struct idt_pointer mine = { IDT_GATES * sizeof(*t) - 1, (u64)(uintptr_t)t };
	__asm__ volatile("lidt %0" : : "m"(mine));
}

void idt_ap_leave(const struct idt_ap_saved *s)
{
	if (!s->ours)
		return;
	struct idt_pointer theirs = { s->limit, s->base };
	__asm__ volatile("lidt %0" : : "m"(theirs));
}

void plat_ap_window_begin(struct plat_ap_window *w)
{
	w->interrupts_were_on = interrupts_on();
	w->open = gates_ours();
	if (w->open)
		__asm__ volatile("sti" ::: "memory");
}

void plat_ap_window_end(const struct plat_ap_window *w)
{
	if (w->open && !w->interrupts_were_on)
		__asm__ volatile("cli" ::: "memory");
}
