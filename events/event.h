/* One event as the user asked for it, encoded for this CPU: the meeting
 * point of the event parser (events/evparse.c), the scheduler (sched/) and
 * counter programming (pmu/counter.c).
 *
 * Counters are named by one index everywhere: GP counter i is i, fixed
 * counter i is 32 + i, the same bit positions as IA32_PERF_GLOBAL_CTRL. */
#ifndef BP_EVENT_H
#define BP_EVENT_H
#include "../lib/types.h"
#include "../arch/msr.h"

#define COUNTER_FIXED_BASE 32
#define COUNTER_NONE       (-1)
static inline int counter_gp(unsigned i)     { return (int)i; }
static inline int counter_fixed(unsigned i)  { return COUNTER_FIXED_BASE + (int)i; }
static inline bool counter_is_fixed(int c)   { return c >= COUNTER_FIXED_BASE; }
static inline unsigned counter_index(int c)  { return counter_is_fixed(c) ? (unsigned)c - COUNTER_FIXED_BASE : (unsigned)c; }

/* The extra MSRs an event may need that bareperf saves, programs and
 * restores, each with its shadow slot in struct pmu (pmu/pmu.c); the
 * parser refuses an event that needs any other (events/evparse.c). */
enum extra_msr_slot { EXTRA_OFFCORE0, EXTRA_OFFCORE1, EXTRA_LD_LAT, EXTRA_FRONTEND, EXTRA_COUNT };
static inline int extra_msr_slot(u32 msr)
{
	switch (msr) {
	case MSR_OFFCORE_RSP_0: return EXTRA_OFFCORE0;
	case MSR_OFFCORE_RSP_1: return EXTRA_OFFCORE1;
	case MSR_PEBS_LD_LAT_THRESHOLD: return EXTRA_LD_LAT;
	case MSR_PEBS_FRONTEND: return EXTRA_FRONTEND;
	default: return -1;
	}
}

/* AMD's Instruction-Based Sampling units (pmu/precise_ibs.c): an event
 * of one of them is sampled by the IBS engine alone, on no core counter. */
enum event_ibs { EVENT_IBS_NONE, EVENT_IBS_OP, EVENT_IBS_FETCH };

#define EVENT_NAME_MAX 96
#define PEBS_ALIAS_EXTENDED "extended PEBS"	/* pmu_event.pebs_alias */

struct pmu_event {
	char name[EVENT_NAME_MAX];	/* as the user typed it, modifiers included */
	/* encoding (IA32_PERFEVTSELx fields) */
	u16 event;		/* 8 bits on Intel; 12 on AMD (PERF_CTL 7:0, 35:32) */
	u8 umask, cmask;
	bool inv, edge, any;
	u8 umask_ext;		/* IA32_PERFEVTSELx[47:40] (Lion Cove UMASK2); 0 elsewhere */
	bool eq;		/* IA32_PERFEVTSELx[36] (EQ): count cycles equal to cmask */
	u32 extra_msr;		/* MSR_OFFCORE_RSP_x, MSR_PEBS_LD_LAT_THRESHOLD or
				 * MSR_PEBS_FRONTEND; 0: none */
	u64 extra_value;
	/* Offcore events can also count as alt_event/alt_umask with the value
	 * in alt_extra_msr (MSR_OFFCORE_RSP_1): the scheduler may switch to it
	 * when another event holds extra_msr with a different value. */
	bool has_alt;
	u8 alt_event, alt_umask;
	u32 alt_extra_msr;
	/* constraints */
	u32 gp_allowed;		/* GP counters that may count it */
	u32 fixed_allowed;	/* fixed counters that count exactly this event */
	u32 pebs_gp;		/* GP counters that can sample it with PEBS */
	u32 pebs_fixed;		/* fixed counters that can (baseline PEBS only) */
	bool taken_alone;	/* must be the only event on the core's counters */
	bool data_la;		/* PEBS records carry its data linear address */
	bool store;		/* they describe stores (EVF_STORE): a store's
				 * status, not a load's data source and latency */
	bool amd_pair;		/* AMD "large increment per cycle" event: needs
				 * an even counter and the odd one after it, which
				 * counts the Merge event (EVX_AMD_PAIR; Linux
				 * pair_constraint; sched/ places it, pmu/
				 * programs the Merge) */
	/* modifiers */
	u8 precise;		/* 0..3: number of 'p' modifiers */
	bool exclude_user;	/* :k given (count ring 0 only) */
	bool exclude_kernel;	/* :u given (count ring 3 only) */
	u64 sample_after;	/* default period from the event tables; 0: none */
	u64 period;		/* period=N given in cpu/.../; 0: none */
	int group;		/* index of the group's leader in its list; -1: none */
	bool count_only;	/* never samples (an auxiliary event bareperf added) */
	/* cycles:p sampled through another encoding or facility (the table
	 * event's name, or PEBS_ALIAS_EXTENDED); NULL: as typed. */
	const char *pebs_alias;
	/* ibs_op// and ibs_fetch// (and cycles:p on AMD): the IBS unit that
	 * samples it; ibs_cnt_ctl: the op counter counts dispatched ops
	 * (IbsOpCntCtl, Linux's ibs_op/cnt_ctl=1/). */
	u8 ibs;			/* enum event_ibs */
	bool ibs_cnt_ctl;
};

/* Whether the event takes a core counter (the precise engine samples
 * some events on no counter at all: IBS). */
static inline bool event_needs_counter(const struct pmu_event *e) { return e->ibs == EVENT_IBS_NONE; }

#endif
