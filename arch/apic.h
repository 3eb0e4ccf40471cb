/* Local APIC access in xAPIC (MMIO) and x2APIC (MSR) mode, through the
 * hardware seam. The mode is read from IA32_APIC_BASE, never assumed. */
#ifndef BP_APIC_H
#define BP_APIC_H
#include "../lib/types.h"
#include "msr.h"

struct apic_state {
	bool x2apic;
	u64 base;		/* xAPIC MMIO base (physical) */
	u32 id;
	const char *why;	/* set when apic_probe fails */
};

/* 0 on success; -1 with a->why set if the APIC is off or unreachable. */
int apic_probe(struct apic_state *a);
u32 apic_read(const struct apic_state *a, u32 reg);
void apic_write(const struct apic_state *a, u32 reg, u32 val);
void apic_eoi(const struct apic_state *a);

#endif
