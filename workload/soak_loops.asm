; The soak workload's hot loops. Each function runs the same 8-instruction
; loop body (6 ALU operations, the counter decrement and the branch) for
; rcx/edi iterations, so its share of instructions retired is known by
; construction: 8 * iterations, plus a constant 3 for entry and return.
; Written in assembly so that no compiler can change the instruction
; counts. System V ABI: rdi = iterations (>= 1), returns the mix in rax.

bits 64
default rel
section .text

%macro SOAK_FN 1
global %1
%1:
	mov rcx, rdi
	mov rax, rdi
.loop:
	add rax, rcx
	xor rax, 0x5a5a
	imul rax, rax, 3
	rol rax, 7
	sub rax, rcx
	xor rdx, rax
	dec rcx
	jnz .loop
	ret
%endmacro

SOAK_FN soak_hot
SOAK_FN soak_warm
SOAK_FN soak_cool
SOAK_FN soak_cold

section .note.GNU-stack noalloc noexec nowrite progbits
