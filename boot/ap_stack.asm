; Runs fn(ctx) on another stack and comes back to the caller's: MP
; services' AP stacks are small (UefiCpuPkg's PcdCpuApStackSize, 32 KiB by
; default), smaller than bareperf's event scheduling needs (boot/mp.c).
; System V ABI: rdi = fn, rsi = ctx, rdx = top of the stack to use.

bits 64
default rel
section .text

global ap_call_on_stack

; void ap_call_on_stack(void (*fn)(void *ctx), void *ctx, void *stack_top)
ap_call_on_stack:
	push rbp
	mov rbp, rsp		; the caller's stack, found again through rbp
	mov rsp, rdx
	and rsp, -16		; the ABI's alignment at a call
	mov rax, rdi
	mov rdi, rsi
	call rax
	mov rsp, rbp
	pop rbp
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
