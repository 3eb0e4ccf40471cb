/* A PMU architecture: what differs between the PMUs bareperf drives, the
 * way Linux's struct x86_pmu carries the vendor differences. The protocol
 * of pmu.h, the scheduler, the PMI loop, the precise engine's drain and
 * perf.data ask these operations and never test a vendor.
 *
 * The logic above speaks one layout, IA32_PERF_GLOBAL_STATUS's (SDM Vol.
 * 3B, "Global Counter Control Facilities"): bit i is GP counter i, bit
 * 32+i fixed counter i (arch/msr.h global_gp_bit, global_fixed_bit), and
 * PMU_STATUS_PRECISE says the precise engine's buffer wants draining. An
 * architecture with other registers translates to and from it.
 *
 * What an implementation provides, where it lives, where it is named:
 *   - this struct, in pmu/<name>.c (the legacy Intel PMU: pmu/intel.c);
 *   - its precise-sampling engine (pmu/precise.h), or NULL;
 *   - one line in pmu_arch_table[] (pmu/arch.c), the one registry.
 * Counter inventory (counts, widths, bitmaps) and MSR bases are data in
 * struct pmu_caps, decoded by arch/caps.c. */
#ifndef BP_PMU_ARCH_H
#define BP_PMU_ARCH_H
#include "pmu.h"

struct precise_ops;

struct pmu_arch {
	const char *name;
	/* Whether this architecture drives the PMU that caps describe. */
	bool (*matches)(const struct pmu_caps *c);
	/* 0, or -1 with err saying why this PMU cannot be used (no counters,
	 * no global control, disabled by the firmware). */
	int (*check_usable)(const struct pmu_caps *c, char *err, size_t errlen);
	/* Counters someone else left counting (status layout). */
	u64 (*counters_in_use)(const struct pmu_caps *c);

	/* Every register the architecture uses, saved at pmu_open (with the
	 * counters not yet stopped) and put back at pmu_close. */
	void (*save)(struct pmu *p);
	void (*restore)(struct pmu *p);
	/* Writes the controls of every event on a counter (and the counter
	 * values marked dirty), only what differs from the shadows. */
	void (*program)(struct pmu *p);

	/* The PMI's and the protocol's global operations. */
	void (*enable_all)(const struct pmu *p, u64 counters);
	u64 (*read_status)(const struct pmu *p);
	/* The counters the hardware has enabled now (status layout), to
	 * see whether enable_all's write took, and what holds that state. */
	u64 (*read_enabled)(const struct pmu *p);
	const char *(*enable_reg_name)(const struct pmu_caps *c);
	void (*ack_status)(const struct pmu *p, u64 bits);

	/* The PMI: whether LVT PC is unmasked before the counters run again
	 * (mid ack) rather than last (late ack). */
	bool (*pmi_mid_ack)(const struct pmu_caps *c);
	/* The longest sampling period a counter can be preset to; *why says
	 * what limits it when the limit is the part's, not the width's. */
	u64 (*max_period)(const struct pmu_caps *c, int counter, const char **why);
	/* The perf_event_attr config (and config1, the extra register's
	 * value) that perf's own driver for this PMU uses for the event, for
	 * perf.data. */
	u64 (*perf_config)(const struct pmu_event *e, u64 *config1);

	/* Precise sampling (PEBS, IBS, ...); NULL: none. */
	const struct precise_ops *precise;
};

/* The architecture that drives the PMU caps describe; NULL when none
 * does (no PMU, an unknown vendor). */
const struct pmu_arch *pmu_arch_for(const struct pmu_caps *c);
/* Why caps describe no PMU bareperf can drive: no architecture for the
 * vendor, or no counters (the architecture's check_usable reason, with a
 * word on a hypervisor that hides its PMU). False when there is one; its
 * finer checks come at pmu_open. */
bool pmu_absent_reason(const struct pmu_caps *c, char *buf, size_t len);
/* The architecture of an open PMU. */
static inline const struct pmu_arch *pmu_arch_of(const struct pmu *p) { return p->arch; }

#endif
