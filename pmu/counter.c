#include "counter.h"
#include "../arch/hw.h"

u64 counter_evtsel_fields(const struct pmu_event *e)
{
	u64 v = (e->event & EVTSEL_EVENT_MASK) | (u64)e->umask << EVTSEL_UMASK_SHIFT |
		(u64)e->cmask << EVTSEL_CMASK_SHIFT;
	if (!e->exclude_kernel)
		v |= EVTSEL_OS;
	if (!e->exclude_user)
		v |= EVTSEL_USR;
	if (e->edge)
		v |= EVTSEL_EDGE;
	if (e->inv)
		v |= EVTSEL_INV;
	return v;
}

u64 counter_evtsel(const struct pmu_event *e, struct counter_mode m)
{
	u64 v = counter_evtsel_fields(e) | EVTSEL_EN |
		(u64)e->umask_ext << EVTSEL_UMASK2_SHIFT;
	if (e->eq)
		v |= EVTSEL_EQ;
	if (e->any)
		v |= EVTSEL_ANY;
	if (m.interrupt)
		v |= EVTSEL_INT;
	if (m.adaptive)
		v |= EVTSEL_ADAPTIVE_RECORD;
	return v;
}

u64 counter_fixed_field_mask(unsigned i)
{
	return fixed_ctrl_field(i, FIXED_CTRL_FIELD_MASK) | fixed_ctrl_adaptive(i);
}

u64 counter_fixed_bits(unsigned i, const struct pmu_event *e, struct counter_mode m)
{
	u64 bits = 0;
	if (!e->exclude_kernel)
		bits |= FIXED_CTRL_OS;
	if (!e->exclude_user)
		bits |= FIXED_CTRL_USR;
	if (e->any)
		bits |= FIXED_CTRL_ANY;
	if (m.interrupt)
		bits |= FIXED_CTRL_PMI;
	u64 v = fixed_ctrl_field(i, bits);
	if (m.adaptive)
		v |= fixed_ctrl_adaptive(i);
	return v;
}

u64 counter_preset(const struct pmu_caps *c, int counter, u64 period)
{
	return (0 - period) & counter_mask(c, counter);
}

u64 counter_max_period(const struct pmu_caps *c, int counter)
{
	if (counter_is_fixed(counter) || c->full_width_write)
		return counter_mask(c, counter) >> 1;
	return 1ULL << 31;	/* SDM: legacy writes sign-extend bit 31 */
}

u32 counter_write_msr(const struct pmu_caps *c, int counter)
{
	unsigned i = counter_index(counter);
	if (counter_is_fixed(counter))
		return caps_fixed_counter_msr(c, i);
	return caps_gp_counter_write_msr(c, i);
}

u32 counter_read_msr(const struct pmu_caps *c, int counter)
{
	unsigned i = counter_index(counter);
	return counter_is_fixed(counter) ? caps_fixed_counter_msr(c, i) : caps_gp_counter_msr(c, i);
}

void counter_write(const struct pmu_caps *c, int counter, u64 value)
{
	u64 v = value & counter_mask(c, counter);
	if (!counter_is_fixed(counter) && !c->full_width_write)
		v = (u32)v;	/* the CPU sign-extends bit 31 into the upper bits */
	hw_wrmsr(counter_write_msr(c, counter), v);
}

u64 counter_read_fast(int counter)
{
	u32 ecx = counter_index(counter) | (counter_is_fixed(counter) ? RDPMC_FIXED : 0);
	return hw_rdpmc(ecx);
}

u64 counter_read(const struct pmu_caps *c, int counter)
{
	return hw_rdmsr(counter_read_msr(c, counter));
}
