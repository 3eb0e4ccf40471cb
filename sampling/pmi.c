#include "pmi.h"
#include "../arch/hw.h"
#include "../lib/plat.h"
#include "../lib/str.h"

/* What LVT PC holds while we sample: NMI delivery (the vector field is
 * then ignored, SDM Vol. 3A 11.5.1), or fixed delivery of our vector. */
static u32 lvt_value(const struct pmi_ctx *c)
{
	return c->nmi ? APIC_LVT_DELIVERY_NMI : APIC_LVT_DELIVERY_FIXED | c->vector;
}

int pmi_setup(struct pmi_ctx *c, u8 vector, const char **why)
{
	if (apic_probe(&c->apic) != 0) {
		*why = c->apic.why;
		return -1;
	}
	c->vector = vector;
	c->lvt_saved = apic_read(&c->apic, APIC_LVT_PERFCNT);
	apic_write(&c->apic, APIC_LVT_PERFCNT, lvt_value(c));
	return 0;
}

void pmi_teardown(struct pmi_ctx *c)
{
	apic_write(&c->apic, APIC_LVT_PERFCNT, c->lvt_saved);
}

void pmi_arm(struct pmi_ctx *c, struct pmi_armed *found)
{
	found->spiv = apic_read(&c->apic, APIC_SPIV);
	found->lvt = apic_read(&c->apic, APIC_LVT_PERFCNT);
	/* A software-disabled APIC keeps every LVT entry masked (SDM 10.4.7.2). */
	if (!(found->spiv & APIC_SPIV_SW_ENABLE))
		apic_write(&c->apic, APIC_SPIV, found->spiv | APIC_SPIV_SW_ENABLE);
	apic_write(&c->apic, APIC_LVT_PERFCNT, lvt_value(c));
}

void pmi_disarm(struct pmi_ctx *c, const struct pmi_armed *found)
{
	apic_write(&c->apic, APIC_LVT_PERFCNT, found->lvt);
	apic_write(&c->apic, APIC_SPIV, found->spiv);
}

u32 pmi_callchain(u64 sp, u64 bp, u64 *out, u32 max)
{
	u32 n = 0;
	u64 lo = sp, hi = sp + PMI_CALLCHAIN_STACK;
	/* Each frame is {saved rbp, return address}; frames go up the stack,
	 * so every next rbp must be above the current one. */
	while (n < max && bp >= lo && bp + 16 <= hi && !(bp & 7)) {
		const u64 *frame = (const u64 *)(uintptr_t)bp;
		u64 ret = frame[1], next = frame[0];
		if (!ret)
			break;
		out[n++] = ret;
		if (next <= bp)
			break;
		bp = next;
	}
	return n;
}

static void throttle_start(struct pmi_ctx *c)
{
	if (!c->throttled) {
		c->throttled = true;
		c->st.throttle_events++;
	}
}

/* The throttle's clock. On an emulated CPU the TSC advances with the
 * emulated machine's time, which excludes the emulator's own work: what
 * the interrupted code got is measured on the clock it runs by. */
static u64 throttle_clock(const struct pmi_ctx *c)
{
	return c->tsc_clock ? hw_rdtsc() : plat_ticks();
}

/* The clock the handlers' share of the CPU is measured on: the throttle
 * clock less the time the tool held the counters for its own work. */
static u64 share_clock(const struct pmi_ctx *c, u64 now)
{
	return (c->clock_held ? c->held_at : now) - c->held_total;
}

void pmi_hold_clock(struct pmi_ctx *c, bool hold)
{
	u64 now = throttle_clock(c);
	if (hold && !c->clock_held) {
		c->held_at = now;
		c->clock_held = true;
	} else if (!hold && c->clock_held) {
		c->held_total += now - c->held_at;
		c->clock_held = false;
	}
}

/* The handlers' time not yet paid back: it drains at max_busy_percent of
 * the time that passes (on the share clock), as a CPU that may spend that
 * share in handlers. */
static void busy_debt_decay(struct pmi_ctx *c, u64 now)
{
	u64 allowed = (now - c->busy_checked) * c->max_busy_percent / 100;
	c->busy_debt = c->busy_debt > allowed ? c->busy_debt - allowed : 0;
	c->busy_checked = now;
}

static bool over_cpu_share(const struct pmi_ctx *c)
{
	return c->max_busy_percent && c->busy_debt > c->max_busy_debt;
}

/* At a PMI's start: one PMI more in this window; and whether the handlers
 * took more than their share of the CPU. A handler slower than the
 * machine's PMI rate (an emulated CPU; at -c 2 an overflow again in the
 * handler's own tail) never reaches the PMI limit, yet can leave the
 * interrupted code no time at all; Linux bounds this share too
 * (kernel/events/core.c: perf_cpu_time_max_percent, default 25, measured
 * in perf_sample_event_took()). The debt may reach a share of a longer
 * horizon, so that one long drain (large PEBS, thousands of records) now
 * and then passes, while a storm is cut within tens of milliseconds. */
static void throttle_check(struct pmi_ctx *c, u64 now)
{
	if (now - c->window_start >= c->window_ticks) {
		c->window_start = now;
		c->window_pmis = 0;
	}
	if (c->max_pmis_per_window && ++c->window_pmis > c->max_pmis_per_window)
		throttle_start(c);
	busy_debt_decay(c, share_clock(c, now));
	if (over_cpu_share(c) && !c->throttled) {
		throttle_start(c);
		c->st.throttle_cpu++;
	}
}

/* period: the one that just elapsed (frequency mode may already have
 * chosen another for the next reload). */
static void emit_sample(struct pmi_ctx *c, int slot, u64 period, const struct plat_irq_frame *r)
{
	if (c->throttled) {
		c->st.throttled++;
		return;
	}
	struct bp_sample *s = ring_reserve(c->ring);
	if (!s) {
		c->st.ring_full++;
		return;
	}
	bp_sample_init(s, c->event_of_slot[slot], c->cpu, period);
	s->ip = r->ip;
	s->tsc = hw_rdtsc();	/* the clock PEBS records carry */
	s->flags |= BP_SAMPLE_TIME;
	if (c->callchain) {
		s->callchain_len = pmi_callchain(r->sp, r->bp, s->callchain, BP_MAX_CALLCHAIN);
		s->flags |= BP_SAMPLE_CALLCHAIN;
	}
	ring_commit(c->ring);
	c->st.samples++;
}

bool pmi_check_ds_area(struct pmi_ctx *c)
{
	u64 found;
	if (!c->precise || c->precise->ops->still_ours(c->precise, &found))
		return true;
	/* Our area (and the records in it so far) is still ours to read,
	 * but new records go elsewhere: stop rather than sample blind. */
	c->st.ds_area_lost = true;
	c->st.ds_area_moved = found;
	c->stopped = true;
	return false;
}

/* A PEBS counter's overflow bit. The counter reloads itself from the DS
 * area and reports through the buffer; its overflow only arms PEBS, and
 * the record (which clears the bit) comes at the next event (SDM Vol. 3B,
 * PEBS: "Upon occurrence of the next PEBS event, the PEBS hardware
 * triggers an assist"). So a PMI raised meanwhile, by another counter,
 * sees the bit with the record still to come: the counter is left alone,
 * as Linux's handle_pmi_common leaves every PEBS counter to drain_pebs.
 * Only when the drain found the buffer at absolute maximum was an assist
 * perhaps skipped ("the PEBS will be skipped entirely"), leaving the
 * counter not reloaded, counting on for 2^width events: preset it again,
 * after the drain, so sampling goes on. */
static void pebs_overflow_bit(struct pmi_ctx *c, int counter, bool buffer_was_full)
{
	if (!buffer_was_full) {
		c->st.pebs_pending++;
		return;
	}
	pmu_preset(c->pmu, counter);
	c->st.pebs_preset++;
}

/* The precise engine's buffer reached its threshold: drain it. Returns
 * whether it had filled (records lost, reloads perhaps skipped). */
static bool drain_precise(struct pmi_ctx *c)
{
	pmi_check_ds_area(c);
	/* One interrupt for the rate however many records it drains, as
	 * Linux counts a large PEBS drain (only its last record goes through
	 * perf_event_overflow()); its time counts against the CPU share. */
	c->st.buffer_pmis++;
	return c->precise->ops->drain(c->precise, c->ring, c->throttled);
}

/* An overflow of a PMI-mode counter: one sample, and its next period. */
static void counter_overflow(struct pmi_ctx *c, int counter, const struct plat_irq_frame *r)
{
	struct pmu *p = c->pmu;
	int slot = pmu_event_on(p, counter);
	u64 elapsed;
	if (slot < 0 || !pmu_period(p, slot)) {
		c->st.unexpected += slot < 0;
		return;
	}
	/* A bit whose counter has not wrapped (stuck, or set again after a
	 * reload) carries no sample. */
	if (!pmu_reload(p, slot, &elapsed)) {
		c->st.not_wrapped++;
		return;
	}
	emit_sample(c, slot, elapsed, r);
}

/* Handles the bits of one status reading; returns the bits to ack. */
static u64 handle_status(struct pmi_ctx *c, u64 status, const struct plat_irq_frame *r)
{
	u64 precise_counters = c->precise ? c->precise->counters : 0;
	bool buffer_was_full = false;

	if ((status & PMU_STATUS_PRECISE) && c->precise)
		buffer_was_full = drain_precise(c);
	u64 counters = status & GLOBAL_STATUS_COUNTERS_OVF;
	for (u64 bits = counters; bits; bits &= bits - 1) {
		int counter = __builtin_ctzll(bits);
		c->st.overflows++;
		if (precise_counters & BIT(counter))
			pebs_overflow_bit(c, counter, buffer_was_full);
		else
			counter_overflow(c, counter, r);
	}
	return status;
}

/* A status bit that no ack clears, with the counters stopped: report it
 * and leave the PMU stopped rather than loop forever. */
static void stop_stuck(struct pmi_ctx *c, u64 status)
{
	c->st.stuck_status |= status;
	c->stopped = true;
}

/* Handles what the status holds, with the counters stopped, then starts
 * them again and unmasks LVT PC in the order the core wants. The first
 * round of a PMI also counts a spurious one and checks the rate. Returns
 * the bits it acknowledged.
 *
 * With late ack a round reads the status once: the look after the unmask
 * (pmi_pending_after_unmask) reads it again and finds the window's
 * overflows. Only when that look finds again the very bits the last round
 * acknowledged (the same counter overflowed again, or its bit does not
 * clear) is the next round told to verify: it reads the status again
 * after each ack with the counters stopped, where a bit that is still set
 * is stuck. With mid ack there is no look after the unmask, so every round
 * verifies (as Linux's intel_pmu_handle_irq loops). */
static u64 handle_round(struct pmi_ctx *c, const struct plat_irq_frame *r, u64 enabled, bool first,
			u64 started, bool verify)
{
	struct pmu *p = c->pmu;
	u64 acked = 0;

	pmu_hw_enable(p, 0);
	u64 status = pmu_status(p);
	if (first) {
		c->st.spurious += !status;
		throttle_check(c, started);
	}
	for (unsigned loop = 0; status; loop++) {
		if (loop == PMI_MAX_LOOPS) {
			stop_stuck(c, status);
			break;
		}
		acked = handle_status(c, status, r);
		pmu_ack(p, acked);
		if (!verify)
			break;
		status = pmu_status(p);
		c->st.loops += status != 0;
	}
	/* The CPU set the mask bit of LVT PC when it delivered this PMI. On
	 * E-cores it is cleared before the counters run again, elsewhere
	 * last (Linux: mid_ack and late_ack; late avoids spurious PMIs on
	 * Haswell and later P-cores). */
	if (c->mid_ack)
		apic_write(&c->apic, APIC_LVT_PERFCNT, lvt_value(c));
	if (!c->stopped)	/* throttled: sampling counters stay off */
		pmu_hw_enable(p, c->throttled ? enabled & ~pmu_sampling_counters(p) : enabled);
	if (!c->mid_ack)
		apic_write(&c->apic, APIC_LVT_PERFCNT, lvt_value(c));
	return acked;
}

/* Late ack: the counters ran again before LVT PC was unmasked (on real
 * cores the handler's own instructions count there too). An overflow in
 * between raised its PMI into a masked LVT PC, which drops it (SDM Vol. 3A
 * 11.5.1: the mask bit inhibits reception), and its counter wrapped with
 * no one to preset it: sampling would stop. Such an overflow left its
 * status bit set and LVT PC unmasked; a PMI raised after the unmask
 * masked LVT PC again and is on its way, so it is left alone. Returns the
 * status bits still to handle, 0 when none. With mid ack LVT PC is
 * unmasked before the counters run: no window, and no extra RDMSR. */
static u64 pmi_pending_after_unmask(struct pmi_ctx *c, u64 enabled)
{
	if (c->mid_ack || c->stopped)
		return 0;
	u64 pending = pmu_status(c->pmu) & (enabled | PMU_STATUS_PRECISE);
	if (!pending || (apic_read(&c->apic, APIC_LVT_PERFCNT) & APIC_LVT_MASKED))
		return 0;
	return pending;
}

void pmi_handle(struct pmi_ctx *c, const struct plat_irq_frame *r)
{
	u64 enabled = pmu_enabled_counters(c->pmu);
	u64 started = throttle_clock(c);

	c->st.pmis++;
	u64 acked = handle_round(c, r, enabled, true, started, c->mid_ack);
	for (unsigned round = 1; round < PMI_MAX_LOOPS; round++) {
		u64 pending = pmi_pending_after_unmask(c, enabled);
		if (!pending)
			break;
		c->st.window_rescued++;
		acked = handle_round(c, r, enabled, false, started, !(pending & ~acked));
	}
	c->busy_debt += throttle_clock(c) - started;	/* checked at the next PMI */
	/* No EOI after an NMI: it is not in service at the local APIC, and an
	 * EOI would end the fixed interrupt the NMI may have interrupted
	 * (SDM Vol. 3A 11.8.5: no EOI for NMI, SMI, INIT, ExtINT or SIPI). */
	if (!c->nmi)
		apic_eoi(&c->apic);
}

void pmi_stats_add(struct pmi_stats *sum, const struct pmi_stats *one)
{
	sum->pmis += one->pmis;
	sum->spurious += one->spurious;
	sum->loops += one->loops;
	sum->window_rescued += one->window_rescued;
	sum->overflows += one->overflows;
	sum->buffer_pmis += one->buffer_pmis;
	sum->unexpected += one->unexpected;
	sum->not_wrapped += one->not_wrapped;
	sum->pebs_pending += one->pebs_pending;
	sum->pebs_preset += one->pebs_preset;
	sum->samples += one->samples;
	sum->ring_full += one->ring_full;
	sum->throttled += one->throttled;
	sum->throttle_events += one->throttle_events;
	sum->throttle_cpu += one->throttle_cpu;
	sum->stuck_status |= one->stuck_status;
	if (!sum->ds_area_lost && one->ds_area_lost)
		sum->ds_area_moved = one->ds_area_moved;
	sum->ds_area_lost |= one->ds_area_lost;
}

bool pmi_nmi_is_ours(struct pmi_ctx *c)
{
	if (apic_read(&c->apic, APIC_LVT_PERFCNT) & APIC_LVT_MASKED)
		return true;
	u64 status;
	return hw_rdmsr_safe(c->pmu->caps.msr_global_status, &status) == 0 && status;
}

void pmi_unthrottle(struct pmi_ctx *c)
{
	u64 now = throttle_clock(c);
	busy_debt_decay(c, share_clock(c, now));
	if (over_cpu_share(c))
		return;		/* the handlers' time is not paid back yet */
	if (c->throttled && !c->stopped && pmu_is_enabled(c->pmu))
		pmu_hw_enable(c->pmu, pmu_enabled_counters(c->pmu));
	c->throttled = false;
	c->window_pmis = 0;
	c->window_start = now;
}
