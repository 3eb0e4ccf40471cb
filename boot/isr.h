/* Our interrupt gates: the PMI (LVT performance counter) and the tick that
 * drives the PMU model (sim/) in the image. The NASM stubs in boot/isr_stubs.asm save
 * the interrupted state in this frame and call isr_dispatch(). */
#ifndef BP_ISR_H
#define BP_ISR_H
#include "../lib/types.h"

struct isr_frame {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 rip, cs, rflags, rsp, ss;	/* pushed by the CPU */
};

typedef void (*isr_handler)(const struct isr_frame *frame, void *ctx);

/* Vectors the firmware leaves alone: OVMF uses 0x20..0x2F for its timer
 * and legacy IRQs and 0x00..0x1F for exceptions. */
#define ISR_PMI_VECTOR  0xF0
#define ISR_TICK_VECTOR 0xF1

/* Installs the gate and the handler; the gate is restored on exit. */
void isr_install_pmi(isr_handler h, void *ctx);
void isr_install_tick(isr_handler h, void *ctx);
void isr_remove_pmi(void);
void isr_remove_tick(void);
/* The NMI gate (vector 2), for a PMI delivered as an NMI: h returns true
 * when the NMI was the PMU's, else it goes on to the firmware's handler. */
#define ISR_NMI_VECTOR 2
typedef bool (*isr_nmi_handler)(const struct isr_frame *frame, void *ctx);
void isr_install_nmi(isr_nmi_handler h, void *ctx);
void isr_remove_nmi(void);
/* The PMI gate, raised by software (INT n) for the PMU model (sim/). */
void isr_raise_pmi(void);

#endif
