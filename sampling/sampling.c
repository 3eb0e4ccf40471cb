#include "sampling.h"
#include "../pmu/arch.h"
#include "../pmu/counter.h"
#include "../arch/hw.h"
#include "../lib/fmt.h"
#include "../lib/plat.h"
#include "../lib/str.h"

static u64 event_period(const struct pmu_event *e, const struct sampling_opts *o)
{
	if (e->count_only)
		return 0;
	if (o->freq)
		return SAMPLING_DEFAULT_PERIOD;	/* a first guess, adapted on the timer */
	if (o->period && e->precise && o->period < SAMPLING_MIN_PEBS_PERIOD)
		return SAMPLING_MIN_PEBS_PERIOD;
	if (o->period)
		return o->period;
	if (e->period)
		return e->period;
	return e->sample_after ? e->sample_after : SAMPLING_DEFAULT_PERIOD;
}

static int add_events(struct sampling *s, const struct sampling_opts *o, char *err, size_t errlen)
{
	for (int i = 0; i < s->n; i++) {
		if (!event_needs_counter(&s->ev[i])) {
			s->period[i] = event_period(&s->ev[i], o);	/* the engine's alone */
			continue;
		}
		if (s->ev[i].group >= 0 && s->ev[i].group != i)
			continue;	/* added with its leader */
		int members[PMU_MAX_EVENTS], k = 0;
		struct pmu_event group[PMU_MAX_EVENTS];
		for (int j = i; j < s->n; j++)
			if (j == i || (s->ev[j].group == i && event_needs_counter(&s->ev[j]))) {
				members[k] = j;
				group[k++] = s->ev[j];
			}
		int ids[PMU_MAX_EVENTS];
		if (pmu_add_group(s->pmu, group, k, event_period(&s->ev[i], o), ids, err, errlen))
			return -1;
		for (int m = 0; m < k; m++) {	/* each member samples at its own period */
			int e = members[m];
			s->id[e] = ids[m];
			s->period[e] = event_period(&s->ev[e], o);
			pmu_set_period(s->pmu, ids[m], s->period[e]);
			if (o->period && s->ev[e].precise && s->period[e] != o->period)
				s->pebs_period_asked = o->period;
		}
	}
	return 0;
}

u32 sampling_fields(const struct pmu_event *e, const struct sampling_opts *o)
{
	u32 fields = BP_SAMPLE_IP | BP_SAMPLE_TID | BP_SAMPLE_TIME | BP_SAMPLE_CPU |
		     BP_SAMPLE_PERIOD;
	if (e->precise && e->data_la)
		fields |= PEBS_MEM_FIELDS;
	/* -W: perf record -W's weight on x86, the three latencies of
	 * PERF_SAMPLE_WEIGHT_STRUCT in place of the load latency alone */
	if (o->weight)
		fields = (fields & ~BP_SAMPLE_WEIGHT) | BP_SAMPLE_WEIGHT_STRUCT;
	if (!event_needs_counter(e))	/* IBS: its MSRs, as perf record -R has them */
		fields |= BP_SAMPLE_RAW;
	if (o->callchain)
		fields |= BP_SAMPLE_CALLCHAIN;
	return fields;
}

static struct precise_opts precise_opts_of(const struct sampling_opts *o)
{
	return (struct precise_opts){ .threshold = o->threshold,
				      .buffer_bytes = o->pebs_buffer_bytes, .cpu = o->cpu,
				      .vector = o->pmi_vector, .nmi = o->pmi_nmi };
}

/* The precise events of ev[0..n) as the engine sees them; counters are
 * filled in when the PMU is given (after scheduling). */
static unsigned precise_events_of(const struct pmu_event *ev, int n, const struct sampling_opts *o,
				  struct pmu *pmu, const int *id, const u64 *period,
				  struct precise_event *out)
{
	unsigned k = 0;
	for (int i = 0; i < n; i++) {
		if (!ev[i].precise)
			continue;
		out[k++] = (struct precise_event){
			.ev = &ev[i], .sample_event = (u32)i, .fields = sampling_fields(&ev[i], o),
			.freq_mode = o->freq != 0,
			.counter = pmu && id[i] >= 0 ? pmu_counter_of(pmu, id[i]) : COUNTER_NONE,
			.period = period ? period[i] : 0,
		};
	}
	return k;
}

u64 sampling_max_period(const struct pmu_caps *c, unsigned *bits)
{
	const struct pmu_arch *arch = pmu_arch_for(c);
	int counters[2], n = 0;
	u64 best = 0;
	*bits = 0;
	if (!arch)
		return 0;
	if (c->num_gp)
		counters[n++] = 0;
	if (c->num_fixed)
		counters[n++] = COUNTER_FIXED_BASE;
	for (int i = 0; i < n; i++) {
		const char *why;
		u64 max = arch->max_period(c, counters[i], &why);
		if (max > best) {
			best = max;
			*bits = (unsigned)__builtin_popcountll(counter_mask(c, counters[i]));
		}
	}
	return best;
}

bool sampling_check_period(const struct pmu_caps *c, u64 period, const char *opt, char *err,
			   size_t errlen)
{
	unsigned bits;
	u64 max = sampling_max_period(c, &bits);
	if (!max || period <= max)
		return true;
	bp_snprintf(err, errlen, "%s %llu: this CPU's counters take periods up to %llu "
		    "(%u-bit counters, preset to -period: half their range)", opt,
		    (unsigned long long)period, (unsigned long long)max, bits);
	return false;
}

bool sampling_check_threshold(const struct pmu_caps *c, const struct pmu_event *ev, int n,
			      const struct sampling_opts *o, char *err, size_t errlen)
{
	struct precise_event pe[PMU_MAX_EVENTS];
	const char *why;
	const struct precise_ops *engine = precise_engine_for(c, &why);
	unsigned k = precise_events_of(ev, n, o, NULL, NULL, NULL, pe);
	struct precise_opts po = precise_opts_of(o);
	return !k || !engine || engine->check(c, pe, k, &po, err, errlen);
}

static int setup_precise(struct sampling *s, const struct sampling_opts *o, char *err, size_t errlen)
{
	struct precise_event pe[PMU_MAX_EVENTS];
	unsigned k = precise_events_of(s->ev, s->n, o, s->pmu, s->id, s->period, pe);
	struct precise_opts po = precise_opts_of(o);
	if (s->precise.ops->setup(&s->precise, s->pmu, pe, k, &po, err, errlen))
		return -1;
	s->pmi.precise = &s->precise;
	return 0;
}

static int check_precise_possible(struct sampling *s, char *err, size_t errlen)
{
	const char *why;
	for (int i = 0; i < s->n; i++) {
		if (!s->ev[i].precise)
			continue;
		/* The first precise event decides: the engine is the PMU's. */
		s->any_pebs = true;
		s->precise.ops = precise_engine_for(&s->pmu->caps, &why);
		if (s->precise.ops)
			return 0;
		bp_snprintf(err, errlen, "%s: precise sampling is not available on this CPU (%s); "
			    "drop the :p modifier to sample in PMI mode", s->ev[i].name, why);
		return -1;
	}
	return 0;
}

/* A fixed period the counter it got cannot hold, by its width or by what
 * the part lets a write set (pmu/arch.h max_period): a preset beyond it
 * never overflows where it should. */
static int check_periods(const struct sampling *s, char *err, size_t errlen)
{
	if (s->freq)
		return 0;	/* -F: periods are clamped as they adapt */
	for (int i = 0; i < s->n; i++) {
		if (s->id[i] < 0)
			continue;	/* on no counter: the precise engine checks it */
		int counter = pmu_counter_of(s->pmu, s->id[i]);
		const char *why;
		u64 max = pmu_arch_of(s->pmu)->max_period(&s->pmu->caps, counter, &why);
		if (s->period[i] <= max)
			continue;
		bp_snprintf(err, errlen, "-c %llu: %s: a %s counter takes periods up to %llu%s%s%s",
			    (unsigned long long)s->period[i], s->ev[i].name,
			    counter_is_fixed(counter) ? "fixed" : "general-purpose",
			    (unsigned long long)max, why ? " on this CPU (" : "", why ? why : "",
			    why ? ")" : "");
		return -1;
	}
	return 0;
}

int sampling_setup(struct sampling *s, struct pmu *pmu, const struct pmu_event *ev, int n,
		   const struct sampling_opts *o, char *err, size_t errlen)
{
	const char *why;
	bp_memset(s, 0, sizeof(*s));
	s->pmu = pmu;
	s->n = n;
	s->freq = o->freq;
	for (int i = 0; i < n; i++) {
		s->ev[i] = ev[i];
		s->id[i] = -1;
	}
	if (check_precise_possible(s, err, errlen))
		return -1;
	if (!ring_alloc(&s->ring, o->ring_samples ? o->ring_samples : SAMPLING_DEFAULT_RING)) {
		bp_snprintf(err, errlen, "cannot allocate the sample ring");
		return -1;
	}
	if (add_events(s, o, err, errlen) || check_periods(s, err, errlen))
		goto fail;
	pmu_commit_schedule(pmu);
	s->pmi = (struct pmi_ctx){ .pmu = pmu, .ring = &s->ring, .cpu = o->cpu,
				   .callchain = o->callchain, .nmi = o->pmi_nmi,
				   .mid_ack = pmu_arch_of(pmu)->pmi_mid_ack(&pmu->caps) };
	for (int i = 0; i < n; i++)
		if (s->id[i] >= 0)
			s->pmi.event_of_slot[s->id[i]] = (u32)i;
	s->pmi.window_ticks = plat_ticks_per_second() / 100;	/* 10 ms windows */
	s->pmi.max_pmis_per_window = SAMPLING_MAX_PMIS_PER_S / 100;
	s->pmi.window_start = plat_ticks();
	if (s->any_pebs && setup_precise(s, o, err, errlen))
		goto fail;
	if (pmi_setup(&s->pmi, o->pmi_vector, &why)) {
		bp_snprintf(err, errlen, "cannot program LVT PC: %s", why);
		goto fail;
	}
	return 0;
fail:
	sampling_teardown(s);
	return -1;
}

/* An engine that samples apart from the counters starts and stops with
 * them (pmu/precise.h enable). */
static void precise_enable(struct sampling *s, bool on)
{
	if (s->pmi.precise && s->precise.ops->enable)
		s->precise.ops->enable(&s->precise, on);
}

void sampling_start(struct sampling *s)
{
	s->last_adjust = plat_ticks();
	pmu_enable(s->pmu);
	precise_enable(s, true);
}

void sampling_stop(struct sampling *s)
{
	precise_enable(s, false);
	pmu_disable(s->pmu);
	/* Counting has stopped, so no PMI can come: drain what is left.
	 * Our buffer is read by our own bounds, even if the CPU was
	 * pointed elsewhere meanwhile (which the check reports). */
	if (s->pmi.precise) {
		pmi_check_ds_area(&s->pmi);
		s->precise.ops->drain(&s->precise, &s->ring, false);
	}
}

void sampling_teardown(struct sampling *s)
{
	if (s->pmi.vector && (s->pmi.apic.base || s->pmi.apic.x2apic))
		pmi_teardown(&s->pmi);	/* LVT PC as found */
	s->pmi.vector = 0;
	if (s->precise.ops)
		s->precise.ops->teardown(&s->precise);
	s->pmi.precise = NULL;
	for (int i = 0; i < s->n; i++)
		if (s->id[i] >= 0)
			pmu_remove(s->pmu, s->id[i]);
	ring_free(&s->ring);
}

/* perf's low-pass filter on a new period (kernel/events/core.c,
 * perf_adjust_period: delta = (delta + 7) / 8): one step an eighth of the
 * way, so that one odd interval does not swing the rate of samples. */
static u64 filtered_period(u64 old, u64 target)
{
	s64 delta = (s64)(target - old);
	delta = (delta + 7) / 8;
	u64 period = old + (u64)delta;
	return period ? period : 1;
}

/* Frequency mode, as perf's: the period that gives `freq` samples a second
 * at the rate the event counted since the last adjustment, over the time
 * it counted: time the tool held the counters for its own work (writing
 * the file) is left out, or a flush that takes the interval would read as
 * a low rate, and the shorter period that follows as more samples to
 * write: the runaway the QEMU PMU showed (issue 39 item 18). */
static void adjust_periods(struct sampling *s, u64 now)
{
	u64 elapsed = now - s->last_adjust, tps = plat_ticks_per_second();
	u64 held = s->held_ticks - s->held_at_adjust;
	u64 counted = elapsed > held ? elapsed - held : 0;
	s->held_at_adjust = s->held_ticks;
	s->last_adjust = now;
	if (!tps)
		return;
	for (int i = 0; i < s->n; i++) {
		if (s->ev[i].precise)
			continue;	/* PEBS periods live in the DS area: fixed */
		u64 count = pmu_read(s->pmu, s->id[i]);
		u64 delta = count - s->last_count[i];
		s->last_count[i] = count;
		u64 counted_us = counted / (tps >= 1000000 ? tps / 1000000 : 1);
		if (!counted_us)
			continue;	/* held all along: nothing to learn */
		u64 rate = delta * 1000000 / counted_us;	/* events/s */
		u64 period = filtered_period(s->period[i], rate / s->freq);
		const char *why;
		int counter = pmu_counter_of(s->pmu, s->id[i]);
		u64 max = pmu_arch_of(s->pmu)->max_period(&s->pmu->caps, counter, &why);
		period = period > max ? max : period;
		s->period[i] = period;
		pmu_set_period(s->pmu, s->id[i], period);	/* taken at the next reload */
	}
}

void sampling_tick(struct sampling *s)
{
	u64 now = plat_ticks();
	if (s->pmi.stopped)
		return;		/* a stuck bit or a lost DS area: stay stopped */
	if (s->freq) {
		/* Counters stopped while we read them: a PMI cannot update a
		 * slot between our read and our write. */
		pmu_disable(s->pmu);
		adjust_periods(s, now);
		pmu_enable(s->pmu);
	}
	bool was_throttled = s->pmi.throttled;
	pmi_unthrottle(&s->pmi);
	/* A throttled engine of its own stopped itself (precise.h enable):
	 * it starts again with the sampling counters. */
	if (was_throttled && !s->pmi.throttled && !s->held && pmu_is_enabled(s->pmu))
		precise_enable(s, true);
}

void sampling_set_tsc_clock(struct sampling *s, u64 tsc_per_second)
{
	if (tsc_per_second < 100)
		return;
	s->pmi.tsc_clock = true;
	s->pmi.window_ticks = tsc_per_second / 100;
	s->pmi.max_busy_percent = SAMPLING_MAX_CPU_PERCENT;
	s->pmi.max_busy_debt = tsc_per_second / 1000 * SAMPLING_CPU_HORIZON_MS *
			       SAMPLING_MAX_CPU_PERCENT / 100;
	s->pmi.window_start = s->pmi.busy_checked = hw_rdtsc();
}

void sampling_hold(struct sampling *s)
{
	if (s->held || s->pmi.stopped)
		return;
	precise_enable(s, false);
	pmu_disable(s->pmu);
	pmi_hold_clock(&s->pmi, true);
	s->held_since = plat_ticks();
	s->held = true;
}

void sampling_release(struct sampling *s)
{
	if (!s->held)
		return;
	s->held = false;
	s->held_ticks += plat_ticks() - s->held_since;
	pmi_hold_clock(&s->pmi, false);
	if (s->pmi.stopped)	/* a PMI raised before the hold stopped it: stay so */
		return;
	pmu_enable(s->pmu);
	precise_enable(s, true);
}

u32 sampling_poll(struct sampling *s, struct bp_sample *out, u32 max)
{
	u32 n = 0;
	while (n < max && ring_pop(&s->ring, &out[n]))
		n++;
	return n;
}

const struct bp_sample *sampling_peek(const struct sampling *s) { return ring_peek(&s->ring); }
u64 sampling_newest_tsc(const struct sampling *s) { return s->ring.newest_tsc; }

u64 sampling_lost(const struct sampling *s)
{
	u64 lost = s->pmi.st.ring_full + s->pmi.st.throttled;
	if (s->precise.ops)
		lost += s->precise.ops->lost(&s->precise);
	return lost;
}

u64 sampling_pending(const struct sampling *s)
{
	const struct precise_ops *ops = s->precise.ops;
	return ops && ops->pending && s->precise.ready ? ops->pending(&s->precise) : 0;
}

static int describe_mode(const struct sampling *s, char *buf, size_t len)
{
	if (!s->any_pebs)
		return bp_snprintf(buf, len, "PMI mode: one PMI per sample%s",
				   s->freq ? " (frequency mode)" : "");
	return s->precise.ops->describe(&s->precise, buf, len);
}

int sampling_describe(const struct sampling *s, char *buf, size_t len)
{
	int n = describe_mode(s, buf, len);
	if (!s->pebs_period_asked || n < 0)
		return n;
	size_t at = MIN((size_t)n, len);
	return n + bp_snprintf(buf + at, len - at,
			       "; PEBS events sample every %u events, not %llu (the shortest PEBS period)",
			       SAMPLING_MIN_PEBS_PERIOD, (unsigned long long)s->pebs_period_asked);
}

int sampling_describe_loss(const struct sampling *s, char *buf, size_t len)
{
	if (!s->any_pebs || !s->precise.ops) {
		if (len)
			buf[0] = 0;
		return 0;
	}
	return s->precise.ops->describe_loss(&s->precise, buf, len);
}
