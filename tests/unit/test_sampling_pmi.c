/* sampling/sampling + sampling/pmi: PMI-mode sampling on every model, a spurious
 * PMI, a PMI storm (throttling), a stuck GLOBAL_STATUS bit. Each test ends with the PMU and APIC as found. */
#include "test_sampling_support.h"

static const char *all_models[] = { "icx", "skl", "spr", "adl", "nhm", "hsw", "core2" };
#define NMODELS (sizeof(all_models) / sizeof(all_models[0]))

/* SDM 20.2: the counter preset to -period overflows after period events;
 * the handler samples the interrupted IP and presets it again. */
static void test_pmi_mode_every_model(void **state)
{
	for (size_t m = 0; m < NMODELS; m++) {
		struct sampling_opts o = opts_period(10007);
		start_sampling(all_models[m], "cycles,branches", &o, false);
		run_ip = RUN_IP;
		sim_run(600000, 300000, run_ip);		/* 59 cycles samples */
		run_ip = RUN_IP + 0x100;
		sim_run(400000, 200000, run_ip);		/* 40 more (99 in all) */
		sim_events(0xC4, 0x00, 50035, run_ip);		/* 5 branches samples */
		stop_sampling();
		struct sim_stats st = model_stats();
		u32 at[2] = { 0 }, per_event[2] = { 0 };
		for (u32 i = 0; i < ngot; i++) {
			assert_true(got[i].ip == RUN_IP || got[i].ip == RUN_IP + 0x100);
			assert_int_equal(got[i].period, 10007);
			at[got[i].ip != RUN_IP]++;
			per_event[got[i].event]++;
		}
		assert_int_equal(per_event[0], 1000000 / 10007);
		assert_int_equal(per_event[1], 50035 / 10007);
		assert_int_equal(at[0], 600000 / 10007);
		/* one PMI per sample */
		assert_int_equal(smp.pmi.st.pmis, ngot);
		assert_int_equal(st.pmis_delivered, ngot);
		assert_int_equal(smp.pmi.st.spurious + smp.pmi.st.unexpected, 0);
		/* reload keeps the 64-bit count exact */
		assert_int_equal(pmu_read(&pmu, smp.id[0]), 1000000);
		assert_int_equal(pmu_read(&pmu, smp.id[1]), 50035);
		assert_accounting(st.overflows);
		finish_sampling();
		sim_close();
	}
}

/* APIC and MSR writes the seam made per PMI over 10 PMIs of cycles. */
static u64 writes_per_pmi(bool nmi)
{
	struct sampling_opts o = opts_period(10007);
	o.pmi_nmi = nmi;
	start_sampling("icx", "cycles", &o, false);
	u32 lvt = sim_regs()->lvt_pc;
	assert_int_equal(lvt & APIC_LVT_DELIVERY_MASK,
			 nmi ? APIC_LVT_DELIVERY_NMI : APIC_LVT_DELIVERY_FIXED);
	struct hw_stats a, b;
	hw_stats_get(&a);
	sim_run(100070, 50000, RUN_IP);
	hw_stats_get(&b);
	assert_int_equal(vector_seen, nmi ? SIM_NMI_VECTOR : smp.pmi.vector);
	assert_false(sim_regs()->lvt_pc & APIC_LVT_MASKED);	/* unmasked again */
	assert_false(pmi_nmi_is_ours(&smp.pmi));	/* nothing pending now */
	u64 per = ((b.mmio_write + b.wrmsr) - (a.mmio_write + a.wrmsr)) / smp.pmi.st.pmis;
	stop_sampling();
	assert_int_equal(ngot, 10);
	finish_sampling();
	sim_close();
	return per;
}

/* --pmi=nmi: LVT PC in NMI delivery mode, the PMI arrives as the NMI, and
 * the handler does what it does for a fixed vector but the EOI: an NMI is
 * not in service at the local APIC, and an EOI would end the fixed
 * interrupt the NMI interrupted (SDM Vol. 3A 11.8.5). */
static void test_nmi_delivery(void **state)
{
	u64 fixed = writes_per_pmi(false), nmi = writes_per_pmi(true);
	assert_int_equal(nmi + 1, fixed);
}

/* The two writes that end a PMI, in the order they came: LVT PC's unmask
 * (xAPIC MMIO or x2APIC MSR) and GLOBAL_CTRL's enable. */
static const struct hw_ops *order_inner;
static struct hw_ops order_ops;
static int order_seq, lvt_at, ctrl_at;

static int order_wrmsr(u32 msr, u64 val, struct hw_fault *f)
{
	if (msr == MSR_IA32_PERF_GLOBAL_CTRL && val)
		ctrl_at = ++order_seq;
	if (msr == x2apic_msr(APIC_LVT_PERFCNT))
		lvt_at = ++order_seq;
	return order_inner->wrmsr(msr, val, f);
}

static void order_mmio_write32(u64 addr, u32 val)
{
	if ((addr & 0xFFF) == APIC_LVT_PERFCNT)
		lvt_at = ++order_seq;
	order_inner->mmio_write32(addr, val);
}

/* PMIs on one CPU of the adl model (0: P-core, 1: E-core); true when the
 * last one unmasked LVT PC before it enabled the counters again. */
static bool unmasks_first_on(u32 cpu)
{
	struct sampling_opts o = opts_period(10007);
	struct pmu_event ev[PMU_MAX_EVENTS];
	open_model("adl");
	sim_set_cpu(cpu);
	pmu_caps_read(&caps);
	int n = parse("cycles", ev, PMU_MAX_EVENTS);
	start_events(ev, n, &o, false);
	order_inner = hw_current();
	order_ops = *order_inner;
	order_ops.wrmsr = order_wrmsr;
	order_ops.mmio_write32 = order_mmio_write32;
	hw_select(&order_ops);
	sim_run(100070, 50000, RUN_IP);
	hw_select(order_inner);
	assert_int_equal(smp.pmi.st.pmis, 10);
	bool first = lvt_at < ctrl_at;
	stop_sampling();
	finish_sampling();
	sim_close();
	return first;
}

/* Linux acknowledges an E-core's PMI mid-handler (mid_ack: LVT PC unmasked
 * right before the counters are enabled again), a P-core's last (late_ack),
 * arch/x86/events/intel/core.c intel_pmu_handle_irq. */
static void test_ecore_unmasks_before_enable(void **state)
{
	assert_false(unmasks_first_on(0));
	assert_true(unmasks_first_on(1));
}

/* A PMI with GLOBAL_STATUS clear: counted, no sample, LVT PC unmasked. */
static void test_spurious_pmi(void **state)
{
	struct sampling_opts o = opts_period(10007);
	start_sampling("icx", "cycles", &o, false);
	sim_inject_spurious_pmi();
	assert_int_equal(smp.pmi.st.pmis, 1);
	assert_int_equal(smp.pmi.st.spurious, 1);
	assert_false(sim_regs()->lvt_pc & APIC_LVT_MASKED);
	sim_run(100070, 50000, RUN_IP);			/* sampling still works */
	stop_sampling();
	assert_int_equal(ngot, 10);
	assert_accounting(model_stats().overflows);
	finish_sampling();
}

/* A PMI taken the moment GLOBAL_CTRL is written by pmu_enable (on the
 * emulated PMU in the image: a tick landing just after the WRMSR). The
 * handler stops the counters and restores GLOBAL_CTRL from the pmu's
 * shadow on exit (SDM 20.2.2 handler protocol), so the shadow must
 * already hold the new value, or sampling stays off after one PMI. */
static const struct hw_ops *unwrapped;
static struct hw_ops pmi_after_enable_ops;
static int pmis_injected;

static int wrmsr_then_pmi(u32 msr, u64 val, struct hw_fault *f)
{
	int rc = unwrapped->wrmsr(msr, val, f);
	if (rc == 0 && msr == MSR_IA32_PERF_GLOBAL_CTRL && val && !pmis_injected) {
		pmis_injected++;
		sim_inject_spurious_pmi();
	}
	return rc;
}

static void test_pmi_right_after_enable(void **state)
{
	struct sampling_opts o = opts_period(10007);
	model_caps("icx");
	struct pmu_event ev[PMU_MAX_EVENTS];
	int n = parse("cycles", ev, PMU_MAX_EVENTS);
	unwrapped = hw_current();
	pmi_after_enable_ops = *unwrapped;
	pmi_after_enable_ops.wrmsr = wrmsr_then_pmi;
	pmis_injected = 0;
	hw_select(&pmi_after_enable_ops);
	start_events(ev, n, &o, false);		/* sampling_start: pmu_enable */
	hw_select(unwrapped);
	assert_int_equal(pmis_injected, 1);
	assert_int_equal(smp.pmi.st.pmis, 1);
	assert_int_not_equal(sim_regs()->global_ctrl, 0);
	sim_run(100070, 50000, RUN_IP);
	stop_sampling();
	assert_int_equal(ngot, 10);
	assert_accounting(model_stats().overflows);
	finish_sampling();
}

/* More PMIs than SAMPLING_MAX_PMIS_PER_S allows in a window: throttling
 * stops the sampling counters, counts what it drops, and the main flow's
 * tick starts them again. */
static void test_pmi_storm_throttles(void **state)
{
	struct sampling_opts o = opts_period(100);
	start_sampling("icx", "cycles", &o, true);
	u64 limit = smp.pmi.max_pmis_per_window;
	assert_true(limit > 0);
	sim_run(100 * (limit + 500), 1000, RUN_IP);	/* in microseconds of real time */
	assert_int_equal(smp.pmi.st.throttle_events, 1);
	assert_true(smp.pmi.st.throttled >= 1);
	assert_true(smp.pmi.throttled);
	u64 pmis = smp.pmi.st.pmis;
	assert_true(pmis <= limit + 1);
	assert_false(sim_regs()->global_ctrl & BIT(pmu_counter_of(&pmu, smp.id[0])));
	sim_run(100000, 1000, RUN_IP);			/* throttled: no PMI */
	assert_int_equal(smp.pmi.st.pmis, pmis);
	poll_samples();
	sampling_tick(&smp);				/* next window */
	assert_false(smp.pmi.throttled);
	sim_run(1000, 10, RUN_IP);
	assert_int_equal(smp.pmi.st.pmis, pmis + 10);
	stop_sampling();
	assert_accounting(model_stats().overflows);
	finish_sampling();
}

/* A handler slower than the PMI rate limit can see (Linux:
 * perf_cpu_time_max_percent): the handlers' time is a debt paid back at
 * 25 % of the time that passes, and may reach 25 % of 100 ms (one long
 * drain passes). Over it, the next PMI throttles; the samples already
 * taken stay, and the main flow's tick starts sampling again only once
 * the debt is paid. TSC at 100 kHz: the debt may reach 2500 ticks. The
 * handlers' time is set by hand (on the model it is no emulated time). */
static void test_slow_handler_throttles(void **state)
{
	struct sampling_opts o = opts_period(100);
	start_sampling("icx", "cycles", &o, true);
	assert_int_equal(smp.pmi.max_busy_percent, 0);	/* not on the platform's clock */
	sampling_set_tsc_clock(&smp, 100 * 1000);
	assert_int_equal(smp.pmi.max_busy_percent, SAMPLING_MAX_CPU_PERCENT);
	assert_int_equal(smp.pmi.max_busy_debt, 2500);
	smp.pmi.max_pmis_per_window = 0;
	smp.pmi.busy_debt = 2400;	/* one long drain: under the limit */
	sim_run(100 * 100, 1000, RUN_IP);
	assert_int_equal(smp.pmi.st.pmis, 100);
	assert_int_equal(smp.pmi.st.throttle_events, 0);

	smp.pmi.busy_debt = 1000000;	/* far over: the next PMI throttles */
	sim_run(100 * 100, 1000, RUN_IP);
	assert_int_equal(smp.pmi.st.pmis, 101);
	assert_int_equal(smp.pmi.st.samples, 100);
	assert_int_equal(smp.pmi.st.throttled, 1);
	assert_int_equal(smp.pmi.st.throttle_events, 1);
	assert_int_equal(smp.pmi.st.throttle_cpu, 1);
	assert_false(sim_regs()->global_ctrl & BIT(pmu_counter_of(&pmu, smp.id[0])));
	poll_samples();
	sampling_tick(&smp);
	assert_true(smp.pmi.throttled);		/* not paid back yet */
	smp.pmi.busy_debt = 0;
	sampling_tick(&smp);
	assert_false(smp.pmi.throttled);
	sim_run(1000, 10, RUN_IP);
	assert_int_equal(smp.pmi.st.pmis, 101 + 10);
	assert_int_equal(smp.pmi.st.throttle_cpu, 1);
	stop_sampling();
	assert_accounting(model_stats().overflows);
	finish_sampling();
}

/* The main flow's own work: held, the counters stop and nothing is
 * counted or sampled; released, they run on from where they were. */
static void test_hold_stops_counting(void **state)
{
	struct sampling_opts o = opts_period(100);
	start_sampling("icx", "cycles", &o, true);
	sampling_hold(&smp);
	sampling_hold(&smp);		/* once is enough: the second is a no-op */
	assert_int_equal(sim_regs()->global_ctrl, 0);
	sim_run(100 * 50, 1000, RUN_IP);
	assert_int_equal(smp.pmi.st.pmis, 0);
	sampling_release(&smp);
	assert_int_equal(pmu.disabled, 0);
	sim_run(1000, 10, RUN_IP);
	assert_int_equal(smp.pmi.st.pmis, 10);
	stop_sampling();
	assert_accounting(model_stats().overflows);
	finish_sampling();
}

/* The time the tool holds the counters for its own work (sampling_hold:
 * record writing samples) is neither the handlers' nor the sampled
 * code's, so it pays back none of the handlers' share of the CPU. When it
 * did, a storm's own samples took so long to write that throttling ended
 * at every tick and the workload got almost no time (record -c 2 on the
 * QEMU PMU ran for minutes: e2e/record_pmi_storm). */
static void test_held_time_pays_back_nothing(void **state)
{
	struct sampling_opts o = opts_period(100);
	start_sampling("icx", "cycles", &o, true);
	sampling_set_tsc_clock(&smp, 100 * 1000);
	smp.pmi.max_pmis_per_window = 0;
	smp.pmi.busy_debt = 1000000;			/* far over: the next PMI throttles */
	sim_run(100, 10, RUN_IP);
	assert_true(smp.pmi.throttled);
	sampling_hold(&smp);
	sim_run(10000000, 1000000, RUN_IP);		/* the tool's own work */
	sampling_tick(&smp);
	sampling_release(&smp);
	sampling_tick(&smp);
	assert_true(smp.pmi.throttled);			/* not paid back by it */
	sim_run(10000000, 1000000, RUN_IP);		/* the sampled code's time */
	sampling_tick(&smp);
	assert_false(smp.pmi.throttled);
	stop_sampling();
	finish_sampling();
}

/* A counter that overflows again in every window between re-enabling the
 * counters and unmasking LVT PC (record -c 2 on the QEMU PMU: the
 * handler's own tail retires more than the period) sets again the very
 * bit the last round acknowledged. That is a storm, not a stuck bit: the
 * status read with the counters stopped is clear, so the PMU goes on
 * sampling. (Reading the status only after the unmask, a version of the
 * handler took it for stuck after PMI_MAX_LOOPS rounds and stopped
 * sampling: e2e/record_pmi_storm.) */
static void test_overflow_in_every_window_is_not_stuck(void **state)
{
	struct sampling_opts o = opts_period(200);
	start_sampling("icx", "instructions", &o, false);
	/* Each access runs more than a period first; the storm goes on until
	 * the handlers' share of the CPU, on the model's TSC, throttles it
	 * (as record's does on the QEMU PMU). */
	sampling_set_tsc_clock(&smp, 100 * 1000);
	smp.pmi.max_pmis_per_window = 0;
	sim_inject_access_cycles(300);
	sim_run(1000, 1000, RUN_IP);
	sim_inject_access_cycles(0);
	assert_int_equal(smp.pmi.st.stuck_status, 0);
	assert_false(smp.pmi.stopped);
	assert_true(smp.pmi.st.window_rescued >= PMI_MAX_LOOPS - 1);
	assert_true(smp.pmi.st.throttle_cpu > 0);
	smp.pmi.busy_debt = 0;				/* paid back */
	sampling_tick(&smp);				/* unthrottled */
	assert_false(smp.pmi.throttled);
	u64 before = smp.pmi.st.samples;
	sim_run(100000, 100000, RUN_IP);		/* sampling goes on */
	assert_true(smp.pmi.st.samples > before);
	stop_sampling();
	assert_accounting(model_stats().overflows);
	finish_sampling();
}

/* A status bit no acknowledgement clears: the handler gives up after
 * PMI_MAX_LOOPS rounds, reports the bit, leaves the PMU stopped, and does
 * not invent samples for the overflow it already handled. */
static void test_stuck_status_bit(void **state)
{
	struct sampling_opts o = opts_period(10007);
	start_sampling("icx", "branches", &o, false);
	int c = pmu_counter_of(&pmu, smp.id[0]);
	sim_events(0xC4, 0x00, 10006, RUN_IP);
	sim_inject_stuck_status(BIT(c));
	sim_events(0xC4, 0x00, 1, RUN_IP);		/* the overflow: one PMI */
	assert_int_equal(smp.pmi.st.pmis, 1);
	assert_int_equal(smp.pmi.st.stuck_status, BIT(c));
	assert_true(smp.pmi.stopped);
	assert_int_equal(sim_regs()->global_ctrl, 0);
	sim_events(0xC4, 0x00, 100000, RUN_IP);		/* stopped: nothing more */
	assert_int_equal(smp.pmi.st.pmis, 1);
	stop_sampling();
	assert_int_equal(ngot, 1);
	assert_accounting(model_stats().overflows);
	sim_inject_stuck_status(0);
	finish_sampling();
}

/* The handler takes time, and real counters count in it (the model:
 * sim_inject_access_cycles, 300 cycles and instructions before each
 * access). On a P-core the counters run again before LVT PC is unmasked
 * (late ack, as Linux's intel_pmu_handle_irq), so a counter close to
 * overflow at a PMI that was not its own (here a spurious one) overflows
 * in that window: its PMI meets a masked LVT PC and is dropped (SDM Vol.
 * 3A 11.5.1), and the counter wraps. Without the second look pmi_handle
 * takes after the unmask, the only sampling counter never samples again. */
static void test_overflow_before_unmask(void **state)
{
	struct sampling_opts o = opts_period(10007);
	start_sampling("icx", "instructions", &o, false);
	sim_run(5 * 10007 - 450, 5 * 10007 - 450, RUN_IP);	/* 4 samples, 450 left */
	assert_int_equal(smp.pmi.st.pmis, 4);
	/* The PMI's first access (stopping the counters) runs 300 with them
	 * on; the unmask runs 300 more after they start again: overflow. */
	sim_inject_access_cycles(300);
	sim_inject_spurious_pmi();
	sim_inject_access_cycles(0);
	assert_int_equal(model_stats().pmis_masked, 1);
	assert_int_equal(smp.pmi.st.window_rescued, 1);
	sim_run(100070, 100070, RUN_IP);			/* 10 more */
	stop_sampling();
	assert_int_equal(ngot, 4 + 1 + 10);
	assert_accounting(model_stats().overflows);
	finish_sampling();
}

/* pmi_stats_add: adding one CPU's statistics to a zeroed sum copies
 * them, every field (one with every byte 0x01, every field nonzero). */
static void test_pmi_stats_add_every_field(void **state)
{
	struct pmi_stats one, sum;
	memset(&one, 0x01, sizeof(one));
	one.ds_area_lost = true;
	memset(&sum, 0, sizeof(sum));
	pmi_stats_add(&sum, &one);
	size_t used = offsetof(struct pmi_stats, ds_area_lost) + sizeof(one.ds_area_lost);
	assert_memory_equal(&sum, &one, used);
	pmi_stats_add(&sum, &one);
	assert_int_equal(sum.pmis, 2 * one.pmis);
	assert_int_equal(sum.window_rescued, 2 * one.window_rescued);
	assert_int_equal(sum.stuck_status, one.stuck_status);
	assert_int_equal(sum.ds_area_moved, one.ds_area_moved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_pmi_mode_every_model, close_model),
		cmocka_unit_test_teardown(test_spurious_pmi, close_model),
		cmocka_unit_test_teardown(test_nmi_delivery, close_model),
		cmocka_unit_test_teardown(test_ecore_unmasks_before_enable, close_model),
		cmocka_unit_test_teardown(test_pmi_right_after_enable, close_model),
		cmocka_unit_test_teardown(test_pmi_storm_throttles, close_model),
		cmocka_unit_test_teardown(test_slow_handler_throttles, close_model),
		cmocka_unit_test_teardown(test_hold_stops_counting, close_model),
		cmocka_unit_test_teardown(test_stuck_status_bit, close_model),
		cmocka_unit_test_teardown(test_overflow_in_every_window_is_not_stuck, close_model),
		cmocka_unit_test_teardown(test_held_time_pays_back_nothing, close_model),
		cmocka_unit_test_teardown(test_overflow_before_unmask, close_model),
		cmocka_unit_test(test_pmi_stats_add_every_field),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
