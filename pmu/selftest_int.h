/* The self-test's inside: one check's state, the probing MSR accessors
 * that journal what they write (pmu/selftest.c puts it all back), bounded
 * waiting and the test PMI handler, shared by the checks in
 * selftest_counters.c, selftest_pmi.c and selftest_pebs.c. */
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
#include "../pebs/record.h"

#define JOURNAL_MAX   80
#define PMI_PERIOD    10000	/* core cycles to the overflow of the PMI checks */
#define PEBS_PERIOD   100000	/* instructions between PEBS records */
#define PEBS_RELOAD   50000	/* DS reset period: differs from the preset */
#define PEBS_THRESHOLD_RECORDS 8
#define PEBS_WALK_MAX 64	/* records looked at, at most */

struct st {
	const struct pmu_caps *caps;
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
	bool frozen_on_pmi;	/* DEBUGCTL.FREEZE_PERFMON_ON_PMI took */
};

/* What the test PMI handler saw at the first PMI. */
struct st_pmi {
	volatile u32 calls;
	u32 lvt;		/* LVT PC as the first PMI found it */
	u64 status;		/* GLOBAL_STATUS at the first PMI */
	u64 status_after;	/* after acknowledging it */
	u64 pebs_index;		/* DS PEBS index at the first PMI */
	bool ack_faulted;
	const struct apic_state *apic;
	volatile const struct ds_area *area;
};
extern struct st_pmi selftest_pmi;

/* Verdicts: the first failure is the reason; st_fail returns false so a
 * check can `return st_fail(...)`. */
void st_verdict(struct st *x, enum selftest_verdict v, const char *fmt, ...) PRINTF_LIKE(3, 4);
bool st_fail(struct st *x, const char *fmt, ...) PRINTF_LIKE(2, 3);
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
/* Waiting, bounded by plat_ticks(). */
u64 st_ticks_to_us(u64 t);
bool st_spin_until(bool (*done)(void *ctx), void *ctx, u32 ms);
/* The test PMI: installed and LVT PC programmed (saved first); came. */
bool st_pmi_arm(struct st *x, const struct ds_area *area);
bool st_pmi_came(void *ctx);

/* The checks (selftest_counters.c, selftest_pmi.c, selftest_pebs.c). */
void st_check_counters(struct st *x);
void st_check_widths(struct st *x);
void st_check_overflow_pmi(struct st *x);
void st_check_lvt_mask(struct st *x);
void st_check_pebs_record(struct st *x);
void st_check_pebs_threshold(struct st *x);
void st_check_auto_reload(struct st *x);
/* Shared by the PMI and PEBS checks (selftest_pmi.c). */
bool st_status_bit_clears(struct st *x, u64 bit, const char *what);
#endif
