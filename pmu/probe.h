/* Checking before trusting: a hypervisor may advertise counters in
 * CPUID.0AH that it does not implement, so that reading them faults or
 * writes to them do not stick. A measuring command checks every counter
 * it could be given before it relies on any. */
#ifndef BP_PMU_PROBE_H
#define BP_PMU_PROBE_H
#include "pmu.h"

/* Before pmu_open() (which reads them all): each advertised counter and
 * event select, and FIXED_CTR_CTRL, reads without a fault. Changes
 * nothing. Returns 0, or -1 with err naming the counter and its MSR. */
int pmu_probe_reads(const struct pmu_caps *c, char *err, size_t errlen);
/* After pmu_open(), with the PMU stopped: a value written to each counter
 * and event select reads back; each is then put back as pmu_open() found
 * it. Returns 0, or -1 with err naming the counter, what was written and
 * what came back. */
int pmu_probe_writes(struct pmu *p, char *err, size_t errlen);

#endif
