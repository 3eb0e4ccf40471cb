; The stream workload's four kernels (McCalpin's STREAM, on 64-bit
; integers so that no FPU/SSE state is involved): scalar loops with exact
; instruction, load and store counts per element. System V ABI, n >= 1
; elements; k is the scalar.
;   stream_copy(dst, src, n)          c = a        5 insns, 1 load, 1 store
;   stream_scale(dst, src, n, k)      b = k*c      6 insns, 1 load, 1 store
;   stream_add(dst, x, y, n)          c = a+b      6 insns, 2 loads, 1 store
;   stream_triad(dst, x, y, n, k)     a = b+k*c    7 insns, 2 loads, 1 store
; plus 2 instructions per call (the index reset, the return).

bits 64
default rel
section .text align=64

align 64
global stream_copy:function (stream_copy.end - stream_copy)
stream_copy:
	xor ecx, ecx
.l:	mov rax, [rsi + rcx * 8]
	mov [rdi + rcx * 8], rax
	inc rcx
	cmp rcx, rdx
	jb .l
	ret
.end:

align 64
global stream_scale:function (stream_scale.end - stream_scale)
stream_scale:
	xor r8d, r8d
.l:	mov rax, [rsi + r8 * 8]
	imul rax, rcx
	mov [rdi + r8 * 8], rax
	inc r8
	cmp r8, rdx
	jb .l
	ret
.end:

align 64
global stream_add:function (stream_add.end - stream_add)
stream_add:
	xor r8d, r8d
.l:	mov rax, [rsi + r8 * 8]
	add rax, [rdx + r8 * 8]
	mov [rdi + r8 * 8], rax
	inc r8
	cmp r8, rcx
	jb .l
	ret
.end:

align 64
global stream_triad:function (stream_triad.end - stream_triad)
stream_triad:
	xor r9d, r9d
.l:	mov rax, [rdx + r9 * 8]
	imul rax, r8
	add rax, [rsi + r9 * 8]
	mov [rdi + r9 * 8], rax
	inc r9
	cmp r9, rcx
	jb .l
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
