; The branchy workload's loop: a data-dependent conditional branch on a
; xorshift64 sequence, taken when the next value is below a threshold, so
; its taken probability is threshold / 2^64 and no predictor can beat
; max(p, 1 - p). Both paths have the same number of instructions, so the
; instruction count is exact: 15 per iteration + 2 (entry, return).
; Branches per iteration: the data branch (jb), the loop branch (jnz), and
; the jmp on the not-taken path. System V ABI:
;   u64 branchy_walk(u64 iterations >= 1, u64 *state (nonzero), u64 threshold)
; returns how many times the data branch was taken; *state is advanced.

bits 64
default rel
section .text align=64

align 64
global branchy_walk:function (branchy_walk.end - branchy_walk)
branchy_walk:
	mov r9, [rsi]
	xor eax, eax
.loop:
	mov r8, r9		; xorshift64 (Marsaglia 13/7/17)
	shl r8, 13
	xor r9, r8
	mov r8, r9
	shr r8, 7
	xor r9, r8
	mov r8, r9
	shl r8, 17
	xor r9, r8
	cmp r9, rdx
	jb .taken		; the data-dependent branch
	add rax, 0		; not taken: 2 instructions
	jmp .join
.taken:
	inc rax			; taken: 2 instructions
	nop
.join:
	dec rdi
	jnz .loop
	mov [rsi], r9
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
