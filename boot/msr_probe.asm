; RDMSR/WRMSR that survive a #GP. While a probe runs, our own #GP gate is
; installed (interrupts off); if the fault hits one of the two probe
; instructions, the handler resumes at the matching failure label, else it
; passes the fault on to the firmware's handler with the frame untouched.
; System V ABI: edi = msr, rsi = value or pointer.

bits 64
default rel
section .text

global msr_probe_read
global msr_probe_write
global msr_probe_gp_entry
global msr_probe_old_gp

; int msr_probe_read(u32 msr, u64 *val)
msr_probe_read:
	mov ecx, edi
probe_rd:
	rdmsr
	shl rdx, 32
	or rax, rdx
	mov [rsi], rax
	xor eax, eax
	ret
probe_rd_fault:
	mov eax, 1
	ret

; int msr_probe_write(u32 msr, u64 val)
msr_probe_write:
	mov ecx, edi
	mov rax, rsi
	mov rdx, rsi
	shr rdx, 32
probe_wr:
	wrmsr
	xor eax, eax
	ret
probe_wr_fault:
	mov eax, 1
	ret

; #GP entry: [rsp] = error code, [rsp+8] = RIP
msr_probe_gp_entry:
	push rax
	lea rax, [probe_rd]
	cmp [rsp + 16], rax
	je .rd
	lea rax, [probe_wr]
	cmp [rsp + 16], rax
	je .wr
	pop rax
	jmp [msr_probe_old_gp]
.rd:
	lea rax, [probe_rd_fault]
	jmp .resume
.wr:
	lea rax, [probe_wr_fault]
.resume:
	mov [rsp + 16], rax
	pop rax
	add rsp, 8		; drop the error code
	iretq

section .data
msr_probe_old_gp: dq 0

section .note.GNU-stack noalloc noexec nowrite progbits
