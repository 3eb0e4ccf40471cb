/* The PMU control protocol (as Linux perf's x86 core does it):
 *
 *   pmu_disable();                       one write: GLOBAL_CTRL = 0
 *   pmu_add() / pmu_add_group() / pmu_remove()   any number, any order
 *   pmu_enable();                        reschedule only if something was
 *                                        added; write only what changed
 *
 * An add is all-or-nothing: it is checked against the scheduler at once
 * and a failed add changes nothing. A removal frees its counter at once
 * (its count is read first). pmu_enable() keeps every event on its last
 * counter when that is still valid, and compares every MSR it would write
 * with a shadow of what it last wrote, so re-enabling with nothing changed
 * costs the global enable alone.
 *
 * The PMU as found at pmu_open() is saved and put back by pmu_close(). */
#ifndef BP_PMU_H
#define BP_PMU_H
#include "../arch/caps.h"
#include "counter.h"
#include "../events/event.h"
#include "../sched/sched.h"

#define PMU_MAX_EVENTS 32
#define PMU_MAX_COUNTERS 64	/* bits of the status layout (pmu/arch.h) */
/* In that layout: the precise engine's buffer reached its threshold
 * (legacy PEBS: IA32_PERF_GLOBAL_STATUS.OvfBuffer, bit 62). */
#define PMU_STATUS_PRECISE GLOBAL_STATUS_OVF_BUFFER

struct pmu_arch;

struct pmu_slot {
	bool used;
	struct pmu_event ev;	/* ev.group: slot id of the leader, or -1 */
	int counter;		/* COUNTER_NONE: not on a counter */
	u32 extra_msr;		/* extra MSR the scheduler gave it (0: none) */
	u64 count;		/* 64-bit count, wrap-proof */
	u64 prev_raw;		/* counter value at the last update */
	u64 period;		/* sampling period; 0 = counting */
	u64 preset_period;	/* period the counter was last preset with */
	bool pebs;		/* sampled with PEBS (precise > 0) */
	bool dirty;		/* counter value must be (re)written */
};

/* What pmu_open() found, to be put back by pmu_close(). */
struct pmu_saved {
	u64 global_ctrl, fixed_ctrl, pebs_enable, debugctl, status;
	u64 evtsel[PMU_MAX_GP];
	u64 gp[PMU_MAX_GP];
	u64 fixed[PMU_MAX_FIXED];
	u64 data_cfg, ld_lat, frontend, offcore[2];
	bool has_data_cfg, has_ld_lat, has_frontend, has_offcore[2];
};

struct pmu {
	struct pmu_caps caps;
	const struct pmu_arch *arch;	/* how this PMU's registers work */
	struct sched_ctx sched;
	struct pmu_slot slot[PMU_MAX_EVENTS];
	int disabled;		/* nesting depth of pmu_disable() */
	bool added;		/* something was added since the last enable */
	/* shadows: what the MSRs hold, as far as we wrote or read them */
	u64 sh_evtsel[PMU_MAX_GP];
	u64 sh_fixed_ctrl, sh_pebs_enable, sh_global_ctrl;
	u64 sh_extra[EXTRA_COUNT];	/* OFFCORE_RSP_0, OFFCORE_RSP_1, LD_LAT_THRESHOLD,
				 * PEBS_FRONTEND */
	u64 sh_data_cfg;	/* MSR_PEBS_DATA_CFG */
	u64 active_mask;	/* counters with an event (GLOBAL_CTRL layout) */
	u64 sampling_mask;	/* ... of them, those with a period */
	s8 event_on[PMU_MAX_COUNTERS];	/* counter -> slot, -1: none */
	struct pmu_saved saved;
	bool open;
	/* AMD IBS units the precise engine armed (PMU_IBS_*): the status
	 * reads their Val bits as PMU_STATUS_PRECISE (pmu/amd.c). */
	u8 ibs_units;
};
#define PMU_IBS_OP    BIT(0)
#define PMU_IBS_FETCH BIT(1)

/* Counters the firmware (or an OS before us) left enabled, as a
 * GLOBAL_CTRL-layout mask; 0 when the PMU is idle. */
u64 pmu_counters_in_use(const struct pmu_caps *caps);
/* Describes pmu_counters_in_use() for the user: "gp0 (IA32_PERFEVTSEL0 =
 * 0x43003c), fixed1". Returns the full length, like snprintf. */
int pmu_describe_in_use(const struct pmu_caps *caps, u64 mask, char *buf, size_t len);

/* Saves the PMU state, stops every counter and takes the PMU over. The
 * PMU is left disabled (as after one pmu_disable()): add the events, then
 * the first pmu_enable() starts counting; a pmu_disable() before it nests.
 * Fails (returns -1 with a message in err) when the CPU has no usable
 * PMU, or when counters are already running and force is false. */
int pmu_open(struct pmu *p, const struct pmu_caps *caps, bool force, char *err, size_t errlen);
/* Puts back everything pmu_open() saved. */
void pmu_close(struct pmu *p);

void pmu_disable(struct pmu *p);
void pmu_enable(struct pmu *p);
/* Applies the assignment of what was added without enabling, so a caller
 * can learn the counters (pmu_counter_of) and set up what depends on them
 * (PEBS reset values) before the first pmu_enable(). */
void pmu_commit_schedule(struct pmu *p);
/* Writes MSR_PEBS_DATA_CFG (adaptive PEBS) if it differs; put back by
 * pmu_close(). */
void pmu_set_pebs_data_cfg(struct pmu *p, u64 cfg);

/* Adds one event (period 0: counting). Returns its id, or -1 with a
 * message when it cannot be scheduled with the events already there. */
int pmu_add(struct pmu *p, const struct pmu_event *ev, u64 period, char *err, size_t errlen);
/* Adds n events as one group (ev[0] the leader): all of them or none.
 * ids receives their ids. Returns 0 or -1 with a message. */
int pmu_add_group(struct pmu *p, const struct pmu_event *ev, int n, u64 period,
		  int *ids, char *err, size_t errlen);
void pmu_remove(struct pmu *p, int id);

/* Right after pmu_enable: whether IA32_PERF_GLOBAL_CTRL holds the
 * counters it wrote. Firmware, SMM, a BMC or a hypervisor holding the PMU
 * can drop the write, and then nothing counts. */
struct pmu_start_check {
	bool held;		/* the write did not take */
	u64 wrote, found;	/* what pmu_enable wrote, what reads back */
	const char *reg;	/* the register's name (the architecture's) */
};
struct pmu_start_check pmu_check_started(const struct pmu *p);

/* Brings the event's 64-bit count up to date and returns it. */
u64 pmu_read(struct pmu *p, int id);
/* The counter an event is on (COUNTER_NONE when not scheduled). */
int pmu_counter_of(const struct pmu *p, int id);
/* Sampling: the event on a counter, -1 if none. */
static inline int pmu_event_on(const struct pmu *p, int counter)
{
	return counter >= 0 && counter < PMU_MAX_COUNTERS ? p->event_on[counter] : -1;
}
/* Sampling: the period an event samples at (0: it counts), and a new one,
 * taken at its next reload. */
static inline u64 pmu_period(const struct pmu *p, int id) { return p->slot[id].period; }
void pmu_set_period(struct pmu *p, int id, u64 period);
/* Sampling: after an overflow, account one period and preset the counter
 * for the next one; *elapsed gets the period that just ended. Returns
 * false, and leaves the counter alone, when it has not wrapped since it
 * was preset (a stale or stuck status bit). */
bool pmu_reload(struct pmu *p, int id, u64 *elapsed);
/* Presets the counter of a sampling event for its next period without
 * accounting one (its reload by the precise engine may have been
 * skipped). */
void pmu_preset(struct pmu *p, int counter);
/* Counters of events with a period, and the counters the protocol last
 * enabled (status layout). */
static inline u64 pmu_sampling_counters(const struct pmu *p) { return p->sampling_mask; }
static inline u64 pmu_enabled_counters(const struct pmu *p) { return p->sh_global_ctrl; }
/* Not inside pmu_disable() / pmu_enable(). */
static inline bool pmu_is_enabled(const struct pmu *p) { return p->disabled == 0; }

/* The PMI's view of the hardware, through the PMU's architecture
 * (pmu/arch.h): overflow status (bit layout of IA32_PERF_GLOBAL_STATUS),
 * its acknowledgement, and the global enable, which leaves the protocol's
 * shadow alone (the PMI puts back what pmu_enable wrote). */
u64 pmu_status(const struct pmu *p);
void pmu_ack(const struct pmu *p, u64 bits);
void pmu_hw_enable(const struct pmu *p, u64 counters);

#endif
