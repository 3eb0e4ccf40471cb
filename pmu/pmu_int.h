/* Inside pmu/: what the protocol (pmu.c) shares with the architectures
 * that implement pmu/arch.h. Nothing outside pmu/ includes this. */
#ifndef BP_PMU_INT_H
#define BP_PMU_INT_H
#include "pmu.h"
#include "arch.h"

/* Writes msr only when value differs from what *shadow says it holds. */
void pmu_write_if_changed(u32 msr, u64 *shadow, u64 value);
/* Writes a dirty slot's start value (its preset, or 0 when counting). */
void pmu_program_counter_value(struct pmu *p, struct pmu_slot *sl);
/* The counters and event selects at caps' bases, and the global control
 * and status, saved at open and put back at close; an architecture's
 * save/restore calls these for the part every architecture has. */
void pmu_save_counters(struct pmu *p);
void pmu_restore_counters(struct pmu *p);
/* Overflow bits bareperf caused are cleared; bits that were set stay set
 * (put back through the status-set MSR where there is one). */
void pmu_restore_status(struct pmu *p);

extern const struct pmu_arch pmu_arch_intel;
extern const struct pmu_arch pmu_arch_intel_arch_pebs;
extern const struct pmu_arch pmu_arch_amd;

#endif
