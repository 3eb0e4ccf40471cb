/* The PMI: what runs when a counter overflows or the PEBS buffer reaches
 * its threshold. The shape follows the hardware's rules (SDM Vol. 3B,
 * "Global Counter Control Facilities"; Vol. 3A, "Local Vector Table": the
 * LVT PC mask is set when the PMI is delivered) and Linux's
 * intel_pmu_handle_irq: stop counting, read GLOBAL_STATUS, drain PEBS on bit
 * 62, handle each overflowed counter, acknowledge exactly the bits seen,
 * re-check with a bounded loop, re-enable, unmask LVT PC last, EOI.
 *
 * It runs in interrupt context: no UEFI service, no allocation, no lock
 * the main flow can hold, no floating point. Its only output is the sample
 * ring and its own counters. */
#ifndef BP_PMI_H
#define BP_PMI_H
#include "../pmu/pmu.h"
#include "../arch/apic.h"
#include "../lib/plat.h"	/* struct plat_irq_frame: the interrupted context */
#include "../lib/ring.h"
#include "../pmu/precise.h"

#define PMI_MAX_LOOPS       100	/* a status bit that survives this many acks is stuck */
#define PMI_CALLCHAIN_STACK (256 * 1024)	/* frames are sought this far above RSP */


struct pmi_stats {
	u64 pmis;		/* PMIs taken */
	u64 spurious;		/* PMIs with GLOBAL_STATUS clear */
	u64 loops;		/* status re-reads that found more work */
	u64 window_rescued;	/* overflows between re-enabling the counters
				 * and unmasking LVT PC, whose PMI was lost */
	u64 overflows;		/* counter overflow bits handled */
	u64 buffer_pmis;	/* PMIs for the PEBS threshold (bit 62) */
	u64 unexpected;		/* overflow bits of counters we do not use */
	u64 not_wrapped;	/* overflow bits of a counter that had not wrapped */
	u64 pebs_pending;	/* PEBS counter bits seen with the record still
				 * to come (armed, left alone) */
	u64 pebs_preset;	/* PEBS counters preset again after a full
				 * buffer (their assist may have been skipped) */
	u64 samples;		/* PMI-mode samples delivered */
	u64 ring_full;		/* PMI-mode samples dropped: ring full */
	u64 throttled;		/* PMI-mode samples dropped: throttled */
	u64 throttle_events;	/* times throttling started */
	u64 throttle_cpu;	/* of those, because the handler took more than
				 * SAMPLING_MAX_CPU_PERCENT of a window */
	u64 stuck_status;	/* status bits that would not clear (0: none) */
	u64 ds_area_moved;	/* IA32_DS_AREA found not pointing at our area
				 * (its value; sampling stopped); 0: never */
	bool ds_area_lost;	/* that happened */
};

/* Adds one CPU's statistics to sum: counts add, stuck_status bits
 * accumulate, the first IA32_DS_AREA found moved is kept. Adding to a
 * zeroed sum gives a copy (tests/unit/test_sampling_pmi.c checks it, so a
 * field this forgets shows up). */
void pmi_stats_add(struct pmi_stats *sum, const struct pmi_stats *one);

struct pmi_ctx {
	struct pmu *pmu;
	struct sample_ring *ring;
	struct precise *precise;	/* NULL without precise sampling */
	struct apic_state apic;
	u8 vector;
	bool nmi;		/* LVT PC delivers the PMI as an NMI, not as vector */
	bool mid_ack;		/* unmask LVT PC before enabling the counters
				 * again (E-cores: caps_pmi_mid_ack), not last */
	u32 lvt_saved;
	u32 cpu;
	bool callchain;
	u32 event_of_slot[PMU_MAX_EVENTS];	/* pmu slot -> bp_sample.event */
	/* throttling: at most max_pmis_per_window PMIs per window ticks (a
	 * PEBS drain is one, as Linux counts it); and
	 * at most max_busy_percent of the time in the handler (0: no limit):
	 * busy_debt, the handlers' ticks not yet paid back at that share
	 * (as of busy_checked), may reach max_busy_debt */
	u64 window_ticks, window_start, window_pmis, max_pmis_per_window;
	u64 busy_debt, busy_checked, max_busy_debt;
	/* The tool's own work (pmi_hold_clock): the time it held the
	 * counters is neither the handlers' nor the sampled code's, and the
	 * handlers' share is measured without it (the share clock). */
	u64 held_at, held_total;
	bool clock_held;
	u32 max_busy_percent;
	bool tsc_clock;		/* windows in TSC ticks, not platform ticks */
	bool throttled;
	bool stopped;		/* a stuck status bit stopped the PMU */
	struct pmi_stats st;
};

/* Programs LVT PC (unmasked) for fixed delivery of `vector`, or for NMI
 * delivery when c->nmi is set; the old value is kept for pmi_teardown().
 * Returns -1 with *why if no APIC is reachable. */
int pmi_setup(struct pmi_ctx *c, u8 vector, const char **why);
void pmi_teardown(struct pmi_ctx *c);

/* LVT PC as it was before pmi_arm, and the spurious-vector register. */
struct pmi_armed {
	u32 lvt, spiv;
};
/* On a CPU whose local APIC was reset since pmi_setup (an AP that the
 * firmware wakes with INIT, SDM Vol. 3A 10.4.7.3: LVT PC masked, the APIC
 * software-disabled): programs LVT PC for the PMI again, enabling the
 * APIC in software if it must, and says what it found. */
void pmi_arm(struct pmi_ctx *c, struct pmi_armed *found);
void pmi_disarm(struct pmi_ctx *c, const struct pmi_armed *found);
/* The handler proper. */
void pmi_handle(struct pmi_ctx *c, const struct plat_irq_frame *r);
/* In NMI mode, before pmi_handle: is this NMI the PMU's? Delivering a PMI
 * sets the mask bit of LVT PC (SDM Vol. 3A 11.5.1), and an overflow shows
 * in IA32_PERF_GLOBAL_STATUS; an NMI with neither came from elsewhere (a
 * watchdog, a chipset error) and belongs to the firmware's handler. */
bool pmi_nmi_is_ours(struct pmi_ctx *c);
/* Before each PEBS drain: IA32_DS_AREA still points at our area. If not,
 * notes it in the statistics and stops sampling (the PMU stays disabled);
 * returns false. */
bool pmi_check_ds_area(struct pmi_ctx *c);
/* Main flow, around its own work with the counters held (sampling_hold):
 * that time does not pay back the handlers' share of the CPU. Without
 * this, at a period so short that the handler's own tail overflows the
 * counter (record -c 2), the time spent writing the storm's samples paid
 * back the handlers' time, throttling ended at once, and the workload got
 * almost no time between the two. */
void pmi_hold_clock(struct pmi_ctx *c, bool hold);
/* Main flow, on its timer: ends a throttled window. */
void pmi_unthrottle(struct pmi_ctx *c);
/* Walks frame pointers from bp (innermost first) into out[], never
 * leaving [sp, sp + PMI_CALLCHAIN_STACK) and never going down the stack.
 * Returns the number of return addresses stored. */
u32 pmi_callchain(u64 sp, u64 bp, u64 *out, u32 max);

#endif
