/* Sampling on several CPUs (record -a / -C LIST): each CPU's PMU, DS area,
 * PMI handling and sample ring, set up, started, stopped and given back ON
 * that CPU (through MP services, lib/plat.h), so every CPU programs its
 * own MSRs and undoes its own changes. Each CPU reads its own
 * capabilities, so on a hybrid part each core type gets its own event
 * table and PEBS format. The command's event text is parsed once per core
 * type (struct percpu_types), before the PMU is taken, and the command
 * checks those lists; each CPU samples its type's list. An event a core
 * type lacks is reported with each CPU of that type, which is not
 * sampled.
 *
 * While sampling, the other CPUs run percpu_ap_spin(): they wait in
 * bareperf's loop (that is what their samples show), publish their IP, and
 * do their own periodic work (unthrottling, frequency mode) when the BSP's
 * timer asks.
 *
 * Where the APs do not run their own code (arch/exec.h,
 * exec_aps_run_own_code: the emulated PMU, one piece of state that only
 * the BSP may touch), the BSP sets up each model CPU on the AP's behalf
 * (exec_run_on), the tick advances every model CPU at the IP its AP
 * published, and the model's PMIs for every CPU are handled on the BSP:
 * the BSP's own through the PMI's gate, the others' at the end of each
 * tick (exec_set_cpus), both by the one handler, which asks the seam
 * whose PMI it is (exec_pmi_cpu). The APs still run the spin loop, so the
 * IPs are real. */
#ifndef BP_PERCPU_H
#define BP_PERCPU_H
#include "sampling.h"
#include "../events/event.h"

#define PERCPU_MAX 64	/* CPUs: a u64 mask */

struct percpu_cpu;
/* What each CPU does with its PMU once it is open: sample (percpu_sampling)
 * or count (percpu_counting, count.h). Every hook runs on that CPU (see
 * above), must not print or call firmware services, and reports errors in
 * err. */
struct percpu_ops {
	/* Each CPU's state for these ops (percpu_cpu.state): allocated,
	 * zeroed, with the CPU, and freed with it by percpu_close(). */
	size_t state_bytes;
	/* The state is percpu_sampling's struct sampling and the hooks run
	 * percpu_sampling's on it (setup may adjust the events first): PMIs,
	 * polling, holding and the TSC clock apply. */
	bool samples;
	int (*setup)(struct percpu_cpu *c, char *err, size_t errlen);
	void (*start)(struct percpu_cpu *c);
	void (*stop)(struct percpu_cpu *c);
	void (*tick)(struct percpu_cpu *c);	/* the BSP's timer, or the AP's loop */
	/* On an AP entering / leaving its loop (optional): what its local APIC
	 * needs again after the firmware's INIT. */
	void (*arm)(struct percpu_cpu *c);
	void (*disarm)(struct percpu_cpu *c);
	void (*teardown)(struct percpu_cpu *c);
};
extern const struct percpu_ops percpu_sampling;

/* Room for a scheduler's whole explanation (one line per event left out)
 * or a #GP report. */
#define PERCPU_ERR_MAX 1536

/* The events, parsed once per core type (caps identify it: hybrid,
 * core_type, the event table event_table_for_caps picks): the list a
 * command checks is the list that type's CPUs sample. Each CPU's setup
 * takes a copy of its type's list (percpu_cpu.ev), which its ops may
 * adjust, and parses nothing. */
struct percpu_events {
	struct pmu_caps caps;		/* its first CPU's */
	int n;				/* -1: err says why this type samples nothing */
	struct pmu_event ev[PMU_MAX_EVENTS];
	char err[PERCPU_ERR_MAX];	/* "<core type>: <reason>" on a hybrid part */
};

#define PERCPU_MAX_TYPES 4

struct percpu_types {
	const char *text;		/* the command's -e */
	u32 count;
	struct percpu_events type[PERCPU_MAX_TYPES];	/* [0]: the command's own CPU's */
};

/* Type 0: the core type of the CPU the command runs on (own), whose list
 * the command parsed from text itself (ev, n: session_parse_events). */
void percpu_types_init(struct percpu_types *t, const struct pmu_caps *own, const char *text,
		       const struct pmu_event *ev, int n);
/* Reads the capabilities of each CPU of mask, on it, and parses text once
 * for each core type not known yet (here, on the calling CPU). A CPU that
 * cannot run code or is not usable is left to percpu_open to report. */
void percpu_types_add_cpus(struct percpu_types *t, u64 mask);
/* The list of the core type caps belong to; NULL when none was parsed. */
const struct percpu_events *percpu_types_find(const struct percpu_types *t,
					      const struct pmu_caps *caps);

struct percpu_cpu {
	u32 cpu;			/* MP services number */
	struct pmu_caps caps;		/* as this CPU reads them */
	struct pmu_event ev[PMU_MAX_EVENTS];
	int n;
	struct pmu pmu;
	void *state;			/* the ops' (percpu_ops.state_bytes) */
	bool open, ready;
	struct pmi_armed armed;		/* an AP's LVT PC and SPIV before its loop */
	u32 apic_id;			/* initial APIC ID: finds the CPU in a PMI */
	char err[PERCPU_ERR_MAX];	/* why this CPU is not sampled, or its #GP */
	struct pmu_start_check started;	/* did GLOBAL_CTRL take our write? */
	struct percpu *owner;
};

struct percpu {
	u32 count;				/* CPUs being sampled */
	struct percpu_cpu *cpu[PERCPU_MAX];	/* in CPU order */
	struct percpu_cpu *by_number[PERCPU_MAX];
	u32 bsp;			/* the CPU the command runs on */
	bool vector_only_bsp;		/* it alone samples, on a fixed vector: every
					 * PMI on the vector is its */
	const struct percpu_types *types;	/* the parsed events, per core type */
	const char *cmd;		/* names the command in messages */
	bool name_cpus;			/* messages say "CPU N"; not for percpu_open_self */
	bool force;
	struct sampling_opts so;
	const struct percpu_ops *ops;
	u8 vector;
	bool pmi_installed, aps_running, drive_cpus, closed;
	u64 mask;
	volatile u64 ap_ip[PERCPU_MAX];	/* where each AP spins (model input) */
	volatile u32 stop;		/* the APs leave percpu_ap_spin */
	volatile u32 tick_seq;		/* bumped by the BSP's timer */
};

/* Opens the PMU of every CPU of mask (the BSP among them or not), gives
 * each the events of its core type (types, which must outlive p: its
 * CPUs' types known by percpu_types_add_cpus) and runs ops->setup there
 * (sampling with so for percpu_sampling). Prints each CPU that cannot
 * take part and why; returns 0 when at least one can, else -1.
 * percpu_close() undoes it on every exit path. */
int percpu_open(struct percpu *p, u64 mask, const struct percpu_types *types, bool force,
		const struct sampling_opts *so, const struct percpu_ops *ops, const char *cmd);
/* percpu_open for the CPU the command runs on alone, when the user named
 * no CPU (types[0] is its type): its messages read as a one-CPU
 * command's, without "CPU N". */
int percpu_open_self(struct percpu *p, const struct percpu_types *types, bool force,
		     const struct sampling_opts *so, const struct percpu_ops *ops, const char *cmd);
/* Starts counting on every CPU and sends the APs to percpu_ap_spin. */
void percpu_start(struct percpu *p);
/* After percpu_stop: names each CPU whose IA32_PERF_GLOBAL_CTRL did not
 * take bareperf's write at the start (nothing counted there); returns how
 * many. */
u32 percpu_report_held(const struct percpu *p);
/* Names one CPU (cpu -1: the command's own, unnamed) whose
 * IA32_PERF_GLOBAL_CTRL did not take bareperf's write; false if it did. */
bool percpu_report_held_on(const char *cmd, int cpu, const struct pmu_start_check *c);
/* Brings the APs back and stops counting everywhere. */
void percpu_stop(struct percpu *p);
/* Gives every CPU's PMU back, on that CPU; safe to call twice. */
void percpu_close(struct percpu *p);
/* The BSP's timer: each CPU's periodic sampling work. */
void percpu_tick(struct percpu *p);
/* The same where only the calling CPU samples (percpu_open_self): its own
 * periodic work, without asking the firmware which CPU runs the timer (an
 * MP-services call that would run inside the measured time). */
void percpu_tick_self(struct percpu *p);
/* Around the main flow's own work (writing samples): the counters of the
 * CPU it runs on stop, so that work is not measured (sampling_hold), and
 * no emulated time passes on any CPU meanwhile (exec_freeze). */
void percpu_hold_self(struct percpu *p);
/* Before percpu_start: every sampler throttles by the seam's TSC. */
void percpu_set_tsc_clock(struct percpu *p, u64 tsc_per_second);
void percpu_release_self(struct percpu *p);
/* Samples of the i-th CPU (position in p->cpu) into out. */
u32 percpu_poll(struct percpu *p, u32 i, struct bp_sample *out, u32 max);
/* The i-th CPU's oldest waiting sample, left in its ring (NULL: none),
 * and the TSC of the newest it delivered (~0: a CPU that does not sample). */
const struct bp_sample *percpu_peek(const struct percpu *p, u32 i);
u64 percpu_newest_tsc(const struct percpu *p, u32 i);
/* Records waiting in the i-th CPU's precise-engine buffer. */
u64 percpu_cpu_pending(const struct percpu *p, u32 i);
/* CPUs set up and sampling: how many, and their numbers, ascending. */
u32 percpu_ready(const struct percpu *p);
u32 percpu_ready_cpus(const struct percpu *p, u32 cpus[PERCPU_MAX]);
/* Totals over the CPUs. */
u64 percpu_lost(const struct percpu *p);
/* Records waiting in the CPUs' precise-engine buffers (large PEBS). */
u64 percpu_pending(const struct percpu *p);
void percpu_pmi_stats(const struct percpu *p, struct pmi_stats *sum);
/* What the first sampling CPU chose (its periods and PEBS choice stand for
 * all): sampling_describe's line; 0 when no CPU samples. */
int percpu_describe(const struct percpu *p, char *buf, size_t len);
/* The period the first sampling CPU gave event i (0: none samples). */
u64 percpu_period(const struct percpu *p, int i);
/* The i-th CPU's PEBS losses, described (pebs_loss_describe); false when
 * it does not sample with PEBS. */
bool percpu_loss_describe(const struct percpu *p, u32 i, char *buf, size_t len);
/* Whether a sampling CPU's PEBS buffer register (*reg: IA32_DS_AREA,
 * IA32_PEBS_BASE) was taken by something else; *ours is the first such
 * CPU's own value. */
bool percpu_ds_area_lost(const struct percpu *p, u64 *ours, const char **reg);
/* Whether the i-th CPU's sample ring is half full or more. */
bool percpu_ring_half_full(const struct percpu *p, u32 i);

#endif
