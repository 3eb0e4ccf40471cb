/* Helpers for the sampling-engine tests: the engine set up over the
 * emulated PMU, its PMIs delivered to pmi_handle() with the IP the test
 * is "running" at (what the entry stub would capture), samples taken out
 * of the ring, and the state before pmu_open() compared at the end. The
 * test is the PMI's gate: no handler is installed, LVT PC gets
 * PMI_VECTOR, and deliver_pmi() calls the engine's pmi_handle(). */
#ifndef BP_TEST_SAMPLING_SUPPORT_H
#define BP_TEST_SAMPLING_SUPPORT_H
#include "test_pmu_support.h"
#include "sampling/sampling.h"

#define RUN_IP 0x401000ULL

static struct sampling smp;
static struct sim_snapshot before_open;
static u64 run_ip = RUN_IP;
static struct bp_sample got[20000];
static u32 ngot;

static u8 vector_seen;	/* the last vector the model delivered */
static void deliver_pmi(u32 cpu, u8 vector, void *ctx)
{
	vector_seen = vector;
	struct plat_irq_frame r = { .ip = run_ip, .sp = 0, .bp = 0 };
	pmi_handle(&smp.pmi, &r);
}

static inline struct sampling_opts opts_period(u64 period)
{
	return (struct sampling_opts){ .period = period };
}

/* Sets the engine up for evs (already parsed) on the open model.
 * Throttling is on wall-clock time while the model runs thousands of
 * PMIs in microseconds, so tests other than the storm turn it off. */
static inline void start_events(const struct pmu_event *ev, int n, const struct sampling_opts *o,
				bool throttle)
{
	char err[512];
	struct sampling_opts so = *o;
	if (!so.pmi_vector)
		so.pmi_vector = PMI_VECTOR;
	sim_snapshot(&before_open);
	if (pmu_open(&pmu, &caps, false, err, sizeof(err)))
		fail_msg("pmu_open: %s", err);
	sim_set_pmi_hook(deliver_pmi, NULL);
	if (sampling_setup(&smp, &pmu, ev, n, &so, err, sizeof(err)))
		fail_msg("sampling_setup: %s", err);
	if (!throttle)
		smp.pmi.max_pmis_per_window = 0;
	ngot = 0;
	sim_stats_reset();
	sampling_start(&smp);
}

/* The model opened and events parsed on its CPU cpu (a hybrid part's
 * core type), then started there. */
static inline void start_sampling_on(const char *model, u32 cpu, const char *events,
				     const struct sampling_opts *o, bool throttle)
{
	struct pmu_event ev[PMU_MAX_EVENTS];
	open_model(model);
	sim_set_cpu(cpu);
	pmu_caps_read(&caps);
	int n = parse(events, ev, PMU_MAX_EVENTS);
	start_events(ev, n, o, throttle);
}

static inline void start_sampling(const char *model, const char *events,
				  const struct sampling_opts *o, bool throttle)
{
	start_sampling_on(model, 0, events, o, throttle);
}

static inline u32 poll_samples(void)
{
	u32 n = sampling_poll(&smp, got + ngot, (u32)(sizeof(got) / sizeof(got[0])) - ngot);
	ngot += n;
	return n;
}

static inline void stop_sampling(void)
{
	sampling_stop(&smp);
	poll_samples();
}

/* Teardown and close; the PMU and the APIC (LVT PC, ISR) must be exactly
 * as before pmu_open(). */
static inline void finish_sampling(void)
{
	sampling_teardown(&smp);
	pmu_close(&pmu);
	assert_snapshot_same(&before_open);
	assert_int_equal(fault_count, 0);
}

/* The accounting invariant: what the PMU produced ==
 * samples delivered + samples lost with a reason. */
static inline void assert_accounting(u64 produced)
{
	u64 lost = sampling_lost(&smp);
	if (produced != ngot + lost)
		fail_msg("produced %llu != delivered %u + lost %llu", (unsigned long long)produced,
			 ngot, (unsigned long long)lost);
	if (smp.any_pebs)
		assert_true(pebs_loss_balanced(&smp.precise.loss));
}

static inline struct sim_stats model_stats(void)
{
	struct sim_stats st;
	sim_stats_total(&st);
	return st;
}

#endif
