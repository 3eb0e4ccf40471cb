#include "apic.h"
#include "hw.h"

int apic_probe(struct apic_state *a)
{
	u64 base;

	a->x2apic = false;
	a->base = 0;
	a->id = 0;
	a->why = NULL;
	if (hw_rdmsr_safe(MSR_IA32_APIC_BASE, &base) != 0) {
		a->why = "IA32_APIC_BASE cannot be read here";
		return -1;
	}
	if (!(base & APIC_BASE_GLOBAL_ENABLE)) {
		a->why = "the local APIC is globally disabled (IA32_APIC_BASE[11] = 0)";
		return -1;
	}
	a->x2apic = base & APIC_BASE_X2APIC_ENABLE;
	a->base = base & APIC_BASE_ADDR_MASK;
	u32 id = apic_read(a, APIC_ID);
	/* xAPIC keeps the 8-bit ID in [31:24]; x2APIC returns all 32 bits. */
	a->id = a->x2apic ? id : id >> APIC_ID_SHIFT;
	return 0;
}

u32 apic_read(const struct apic_state *a, u32 reg)
{
	if (a->x2apic)
		return (u32)hw_rdmsr(x2apic_msr(reg));
	return hw_mmio_read32(a->base + reg);
}

void apic_write(const struct apic_state *a, u32 reg, u32 val)
{
	if (a->x2apic)
		hw_wrmsr(x2apic_msr(reg), val);
	else
		hw_mmio_write32(a->base + reg, val);
}

void apic_eoi(const struct apic_state *a)
{
	apic_write(a, APIC_EOI, 0);
}
