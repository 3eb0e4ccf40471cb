; The soak workload's hot loops: four functions with the same
; 8-instruction body (workload/loop8.inc), so each one's share of the
; instructions retired is known by construction: 8 * iterations, plus a
; constant 3 for entry and return. Written in assembly so that no compiler
; can change the instruction counts.

bits 64
default rel
section .text align=64

%include "loop8.inc"

LOOP8_FN soak_hot
LOOP8_FN soak_warm
LOOP8_FN soak_cool
LOOP8_FN soak_cold

section .note.GNU-stack noalloc noexec nowrite progbits
