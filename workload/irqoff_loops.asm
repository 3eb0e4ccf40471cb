; The irqoff workload's loops: soak's 8-instruction body
; (workload/loop8.inc) under two names, so that a profile tells the part
; that runs with interrupts off from the part that runs with them on.

bits 64
default rel
section .text align=64

%include "loop8.inc"

LOOP8_FN irqoff_masked
LOOP8_FN irqoff_open

section .note.GNU-stack noalloc noexec nowrite progbits
