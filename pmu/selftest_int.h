/* The self-test's inside: one check's state, the probing MSR accessors
 * that journal what they write (pmu/selftest.c puts it all back), bounded
 * waiting, the test PMI handler and the per-architecture pieces
 * (selftest_arch.c), shared by the checks in selftest_counters.c,
 * selftest_pmi.c, selftest_pebs.c and selftest_ibs.c. */
#ifndef BP_SELFTEST_INT_H
#define BP_SELFTEST_INT_H
#include "selftest.h"
#include "counter.h"
#include "../arch/hw.h"
#include "../arch/apic.h"
#include "../lib/fmt.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../pebs/ds.h"
#include "../pebs/arch.h"
#include "../pebs/record.h"

#define JOURNAL_MAX   80
#define PMI_PERIOD    10000	/* core cycles to the overflow of the PMI checks */
#define PEBS_PERIOD   100000	/* instructions between PEBS records */
#define PEBS_RELOAD   50000	/* DS reset period: differs from the preset */
#define PEBS_THRESHOLD_RECORDS 8
#define PEBS_WALK_MAX 64	/* records looked at, at most */

struct st;

/* What differs between the PMU architectures, for the checks (SDM Vol. 3B
 * ch. 20; AMD64 APM Vol. 2, "Performance Monitoring Counters"). How the
 * counters are enabled (a global control, or each event select's En) and
 * how an overflow is seen (a status register, or the counter's top bit)
 * follow caps_has_global_ctrl(): Intel v2 on, AMD with PerfMonV2. */
struct st_arch {
	u8 cycles_event;		/* core cycles, event select bits 7:0 */
	const char *ctr_name, *sel_name;	/* "IA32_PMC%u", "PERF_CTR%u", ... */
	const char *status_name;	/* the global status register, for reasons */
	u64 status_extra;		/* status bits to acknowledge besides counters' */
	bool delivery_masks_lvt_pc;	/* does PMI delivery set LVT PC's mask? */
	const char *lvt_rule;		/* the authority for it, for reasons */
	bool (*usable)(struct st *x);	/* else a SKIP verdict saying why */
	bool (*gp_width)(struct st *x, unsigned i);	/* one GP counter's writes */
	void (*widths_pass)(struct st *x);	/* the widths check's PASS */
	const char *no_pebs, *no_ibs;	/* why those checks SKIP; NULL: they run */
};
extern const struct st_arch st_arch_intel, st_arch_amd;

struct st {
	const struct pmu_caps *caps;
	const struct st_arch *arch;
	struct selftest_result *res;
	struct { u32 msr; u64 val; } saved[JOURNAL_MAX];
	unsigned nsaved;
	u64 status0;		/* GLOBAL_STATUS when the check began */
	struct apic_state apic;
	bool lvt_saved, pmi_installed;
	u32 lvt0;
	u8 vector;
	struct pebs_ds ds;
	bool ds_allocated;
	struct arch_pebs_buf apebs;	/* Architectural PEBS (selftest_apebs.c) */
	bool apebs_allocated;
	bool frozen_on_pmi;	/* DEBUGCTL.FREEZE_PERFMON_ON_PMI took */
	bool eilvt_saved;	/* IBS's extended LVT entry, put back at the end */
	unsigned eilvt_n;
	u32 eilvt0;
	char foreign[96];	/* another agent's counters seen on (st_check_owned) */
};

/* What the test PMI handler saw at the first PMI. */
struct st_pmi {
	volatile u32 calls;
	u32 lvt;		/* LVT PC as the first PMI found it */
	u64 counters;		/* the counters armed (global_gp_bit layout) */
	u64 status;		/* overflows at the first PMI (st_overflows) */
	u64 status_after;	/* after acknowledging it */
	u64 pebs_index;		/* DS PEBS index at the first PMI */
	bool arch_index;	/* ... or IA32_PEBS_INDEX (Architectural PEBS) */
	bool ack_faulted;
	u64 ctrl_at_pmi;	/* IA32_PERF_GLOBAL_CTRL as the first PMI found it */
	const struct apic_state *apic;
	volatile const struct ds_area *area;
};
extern struct st_pmi selftest_pmi;

/* Verdicts: the first failure is the reason; st_fail returns false so a
 * check can `return st_fail(...)`. */
void st_verdict(struct st *x, enum selftest_verdict v, const char *fmt, ...) PRINTF_LIKE(3, 4);
bool st_fail(struct st *x, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* After a trial: IA32_PERF_GLOBAL_CTRL (now and at the first PMI) and
 * IA32_PEBS_ENABLE hold no bits beyond the check's own. Under --force
 * the PMU may belong to an agent that still runs (a session's timer
 * callback, SMM) and turns its counters back on: a check that then fails
 * is not judged, and SKIPs naming what it found (selftest_run_one). */
void st_check_owned(struct st *x, u64 ctrl_ours, u64 pebs_ours);
/* MSR names for reasons, SDM spelling. */
const char *st_msr_name(const struct st *x, u32 msr, char *buf, size_t len);
/* Probing accessors: a fault is a FAIL naming the MSR; every write is
 * journalled first. st_wr_probe returns the fault instead. */
bool st_rd(struct st *x, u32 msr, u64 *val);
bool st_wr(struct st *x, u32 msr, u64 val);
int st_wr_probe(struct st *x, u32 msr, u64 val);
bool st_wr_counter(struct st *x, int counter, u64 val);
bool st_rd_counter(struct st *x, int counter, u64 *val);
/* What the legacy IA32_PMCx alias keeps of a written value: bits 31:0,
 * sign-extended to the counter's width (mask). */
u64 st_legacy_value(u64 written, u64 mask);
/* IA32_PERFEVTSELx for architectural event code, enabled, both rings. */
u64 st_evtsel_for(u8 code);
/* The event select counting core cycles on this architecture, both rings;
 * En where a global control gates the counters (st_enable does the rest). */
u64 st_cycles_evtsel(const struct st *x);
/* Enables exactly `counters` (global_gp_bit layout): the global control,
 * or each event select's En without one (APM Vol. 2, "PerfEvtSeln"). */
bool st_enable(struct st *x, u64 counters);
/* Which of `counters` have overflowed: the global status, or without one
 * the counter's top bit clear after a negative preset (Linux
 * x86_pmu_handle_irq). Not journalled: the PMI handler uses it too. */
u64 st_overflows(const struct pmu_caps *c, u64 counters);
/* Waiting, bounded by plat_ticks(). */
u64 st_ticks_to_us(u64 t);
bool st_spin_until(bool (*done)(void *ctx), void *ctx, u32 ms);
/* The test PMI: installed and LVT PC programmed (saved first); came. */
bool st_pmi_arm(struct st *x, const struct ds_area *area);
bool st_pmi_came(void *ctx);

/* The checks (selftest_counters.c, selftest_pmi.c, selftest_pebs.c). */
void st_check_counters(struct st *x);
/* The PEBS checks where PEBS is Architectural PEBS (selftest_apebs.c). */
void st_apebs_record(struct st *x);
void st_apebs_threshold(struct st *x);
void st_apebs_auto_reload(struct st *x);
void st_check_widths(struct st *x);
void st_check_overflow_pmi(struct st *x);
void st_check_lvt_mask(struct st *x);
void st_check_pebs_record(struct st *x);
void st_check_pebs_threshold(struct st *x);
void st_check_auto_reload(struct st *x);
void st_check_ibs_op(struct st *x);
void st_check_ibs_fetch(struct st *x);
/* The widths check's per-architecture parts (selftest_counters.c). */
bool st_intel_gp_width(struct st *x, unsigned i);
bool st_amd_gp_width(struct st *x, unsigned i);
void st_intel_widths_pass(struct st *x);
void st_amd_widths_pass(struct st *x);
/* The first GP counter there is (selftest_pmi.c). */
int st_first_gp(const struct pmu_caps *c);
/* Shared by the PMI and PEBS checks (selftest_pmi.c). */
bool st_status_bit_clears(struct st *x, u64 bit, const char *what);
#endif
