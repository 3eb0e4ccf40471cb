/* IDT gates: install our own handler on a vector and put the firmware's
 * gate back on exit. */
#ifndef BP_IDT_H
#define BP_IDT_H
#include "../lib/types.h"

struct idt_gate {
	u16 offset_low;
	u16 selector;
	u8 ist;
	u8 type_attr;		/* 0x8E: present, DPL 0, 64-bit interrupt gate */
	u16 offset_mid;
	u32 offset_high;
	u32 reserved;
} __attribute__((packed));

#define IDT_GATE_INTERRUPT 0x8E
#define IDT_VECTOR_GP      13

/* Replaces the gate of vector with one to entry (firmware's code segment);
 * the old gate is saved and restored by idt_restore() or on exit. */
void idt_install(u8 vector, void (*entry)(void));
void idt_restore(u8 vector);
/* Room for each AP's own IDT (BSP only). */
int idt_ap_tables_prepare(u32 ncpus);
void idt_ap_tables_release(void);
/* On an AP, around a whole MP-services procedure: the gates bareperf
 * installed on the BSP (PMI, #GP probe), in an IDT of this AP's own (a
 * copy of the one it has). MpInitLib gives each AP its own IDT, so
 * without this an MSR probe's #GP there would reach the firmware's
 * exception handler, which dumps the CPU state and halts the AP. _leave
 * puts the firmware's IDT back. */
struct idt_ap_saved {
	u64 base;
	u16 limit;
	bool ours;	/* enter loaded our copy */
};
void idt_ap_enter(struct idt_ap_saved *s, u32 cpu);	/* cpu: plat_cpu_self() */
void idt_ap_leave(const struct idt_ap_saved *s);
u64 idt_gate_target(u8 vector);

/* boot/msr_probe.asm: RDMSR/WRMSR that return 1 instead of faulting,
 * once msr_probe_init() has put our #GP gate in front of the firmware's
 * (other faults still reach the firmware's handler). */
void msr_probe_init(void);
int msr_probe_read(u32 msr, u64 *val);
int msr_probe_write(u32 msr, u64 val);

#endif
