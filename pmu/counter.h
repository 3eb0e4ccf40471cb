/* One counter's MSRs: how an event is encoded into IA32_PERFEVTSELx or a
 * field of IA32_FIXED_CTR_CTRL, how a value is written (full-width alias or
 * the legacy sign-extending one) and how 64-bit counts survive wrap. */
#ifndef BP_COUNTER_H
#define BP_COUNTER_H
#include "../arch/caps.h"
#include "../events/event.h"

struct counter_mode {
	bool interrupt;		/* PMI on overflow (INT / fixed PMI bit) */
	bool adaptive;		/* adaptive PEBS record (baseline PEBS only) */
};

/* The fields Intel's IA32_PERFEVTSELx and AMD's PERF_CTLn share: event
 * bits 7:0, unit mask, CntMask, OS, USR, Edge, Inv (SDM Vol. 3B 20.2.1.1;
 * APM Vol. 2, "PerfEvtSeln"). */
u64 counter_evtsel_fields(const struct pmu_event *e);
/* IA32_PERFEVTSELx for an event, EN set, with the perfmon v6 extension
 * (UMASK2 in 47:40, EQ in 36) where the event has it. Firmware runs in ring 0, so OS
 * counts it; USR counts ring 3 (none in firmware). :u clears OS, :k USR. */
u64 counter_evtsel(const struct pmu_event *e, struct counter_mode m);
/* The 4-bit IA32_FIXED_CTR_CTRL field for fixed counter i (shifted into
 * place), plus the adaptive bit 32+4i when asked. */
u64 counter_fixed_bits(unsigned i, const struct pmu_event *e, struct counter_mode m);
u64 counter_fixed_field_mask(unsigned i);

/* Width mask of a counter (GP or fixed); inline, as the PMI asks it for
 * every reload. */
static inline u64 counter_mask(const struct pmu_caps *c, int counter)
{
	return counter_is_fixed(counter) ? caps_fixed_mask_value(c) : caps_gp_mask_value(c);
}
/* The value that makes the counter overflow after `period` events:
 * -period within the counter's width. */
u64 counter_preset(const struct pmu_caps *c, int counter, u64 period);
/* Largest period a counter can be preset to: with full-width writes the
 * counter's range; through the legacy alias (32 bits, sign-extended by
 * the CPU) 2^31. */
u64 counter_max_period(const struct pmu_caps *c, int counter);

/* MSR of the counter's value for writing and for reading, from the
 * bases in caps: on Intel IA32_A_PMCx with full-width writes, else
 * IA32_PMCx; IA32_FIXED_CTRx for fixed counters. */
u32 counter_write_msr(const struct pmu_caps *c, int counter);
u32 counter_read_msr(const struct pmu_caps *c, int counter);
void counter_write(const struct pmu_caps *c, int counter, u64 value);
u64 counter_read(const struct pmu_caps *c, int counter);
/* The counter's value by RDPMC rather than RDMSR, for counts and reloads
 * (the PMI's path), as Linux reads them. */
u64 counter_read_fast(int counter);

/* Events counted between two raw readings, across at most one wrap. */
static inline u64 counter_delta(u64 prev, u64 now, u64 mask)
{
	return (now - prev) & mask;
}

#endif
