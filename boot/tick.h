/* A periodic interrupt from the HPET, routed through the IOAPIC to our
 * tick gate. It drives the PMU model (sim/) in the image: each tick tells the
 * model how much time passed and where the CPU was (the interrupted RIP),
 * so the model's samples carry the IPs of the code really running. OVMF keeps
 * the local APIC timer for itself, and leaves the HPET disabled. */
#ifndef BP_TICK_H
#define BP_TICK_H
#include "isr.h"

/* Returns 0, or -1 with *why set (no HPET, no routable IOAPIC input).
 * Everything is put back by tick_stop() and on exit. */
int tick_start(u32 period_us, isr_handler h, void *ctx, const char **why);
void tick_stop(void);

#endif
