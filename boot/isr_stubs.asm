; Interrupt entry stubs for the PMI and the emulation tick. Each saves every
; general register and the FPU/SSE state (the C code may use SSE, and so
; may the firmware code it interrupts), builds a struct isr_frame and calls
; isr_dispatch(vector, frame) with the System V ABI, then returns with
; iretq. No error code is pushed for these vectors.

bits 64
default rel
section .text

extern isr_dispatch
global isr_pmi_entry
global isr_tick_entry

; struct isr_frame layout (boot/isr.h): r15..rax at 0..112, then the CPU's
; frame: rip 120, cs 128, rflags 136, rsp 144, ss 152.
%macro PUSH_GPRS 0
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
%endmacro
%macro POP_GPRS 0
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
%endmacro

%macro ISR_ENTRY 2		; name, vector slot
%1:
	cld
	PUSH_GPRS
	mov rbx, rsp		; rbx: the frame (callee-saved)
	sub rsp, 512 + 16
	and rsp, -16		; fxsave needs 16-byte alignment
	fxsave64 [rsp]
	mov edi, [%2]
	mov rsi, rbx
	call isr_dispatch
	fxrstor64 [rsp]
	mov rsp, rbx
	POP_GPRS
	iretq
%endmacro

ISR_ENTRY isr_pmi_entry, isr_pmi_vector
ISR_ENTRY isr_tick_entry, isr_tick_vector

; The NMI gate (vector 2), for a PMI delivered as an NMI. Same frame;
; isr_nmi_dispatch(frame) returns nonzero when the NMI was the PMU's. One
; that was not goes on to the firmware's NMI handler with every register
; and the CPU's frame as they came.
global isr_nmi_entry
extern isr_nmi_dispatch
isr_nmi_entry:
	cld
	PUSH_GPRS
	mov rbx, rsp
	sub rsp, 512 + 16
	and rsp, -16
	fxsave64 [rsp]
	mov rdi, rbx
	call isr_nmi_dispatch
	fxrstor64 [rsp]
	mov rsp, rbx
	test eax, eax
	jz .theirs
	POP_GPRS
	iretq
.theirs:
	POP_GPRS		; leaves the flags of the test alone
	jmp [isr_nmi_old]

section .data
global isr_pmi_vector
global isr_tick_vector
global isr_nmi_old
isr_pmi_vector:  dd 0
isr_tick_vector: dd 0
isr_nmi_old:     dq 0		; the firmware's NMI handler

section .note.GNU-stack noalloc noexec nowrite progbits
