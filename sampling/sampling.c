#include "sampling.h"
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

/* Which encoding the part's PEBS load data sources use (caps knows the
 * parts); Sandy Bridge's unless caps says otherwise. */
static enum pebs_dse_family dse_family(const struct pmu_caps *c)
{
	if (caps_nehalem_data_source(c))
		return PEBS_DSE_NHM;
	return caps_gracemont(c) ? PEBS_DSE_GRT : PEBS_DSE_SNB;
}

/* What the memory fields of e's records mean: the event table says
 * whether it counts stores (pmu_event.store). */
static enum pebs_mem_kind mem_kind(const struct pmu_event *e)
{
	if (!e->data_la)
		return PEBS_MEM_NONE;
	return e->store ? PEBS_MEM_STORE : PEBS_MEM_LOAD;
}

static int add_events(struct sampling *s, const struct sampling_opts *o, char *err, size_t errlen)
{
	for (int i = 0; i < s->n; i++) {
		if (s->ev[i].group >= 0 && s->ev[i].group != i)
			continue;	/* added with its leader */
		int members[PMU_MAX_EVENTS], k = 0;
		struct pmu_event group[PMU_MAX_EVENTS];
		for (int j = i; j < s->n; j++)
			if (j == i || s->ev[j].group == i) {
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
			s->pmu->slot[ids[m]].period = s->period[e];
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
	if (o->callchain)
		fields |= BP_SAMPLE_CALLCHAIN;
	return fields;
}

/* PEBS_DATA_CFG for these events: the record groups their fields need. */
static u64 pebs_cfg_of(const struct pmu_caps *c, const struct pmu_event *ev, int n,
		       const struct sampling_opts *o)
{
	struct pebs_want want = { 0 };
	for (int i = 0; i < n; i++)
		if (ev[i].precise)
			want.fields |= sampling_fields(&ev[i], o);
	return c->pebs_baseline ? pebs_data_cfg_for(&want) : 0;
}

/* What the threshold policy must know of one PEBS event. */
static struct pebs_event_req pebs_req_of(const struct pmu_event *e, const struct sampling_opts *o)
{
	return (struct pebs_event_req){ .freq_mode = o->freq != 0, .fields = sampling_fields(e, o) };
}

static unsigned pebs_capable_of(const struct pmu_caps *c)
{
	return __builtin_popcount(c->gp_mask) + (c->pebs_baseline ? __builtin_popcount(c->fixed_mask) : 0);
}

static size_t pebs_bytes_of(const struct pmu_caps *c, const struct sampling_opts *o)
{
	return o->pebs_buffer_bytes ? o->pebs_buffer_bytes : pebs_ds_default_bytes(c->pebs_format);
}

bool sampling_check_threshold(const struct pmu_caps *c, const struct pmu_event *ev, int n,
			      const struct sampling_opts *o, char *err, size_t errlen)
{
	struct pebs_event_req reqs[PMU_MAX_EVENTS];
	unsigned nreq = 0;
	for (int i = 0; i < n && nreq < PMU_MAX_EVENTS; i++)
		if (ev[i].precise)
			reqs[nreq++] = pebs_req_of(&ev[i], o);
	u32 size = caps_has_pebs(c) ? pebs_record_size(c->pebs_format, pebs_cfg_of(c, ev, n, o)) : 0;
	if (!nreq || !size)
		return true;	/* nothing to check, or sampling_setup says why */
	struct pebs_threshold_choice choice;
	return pebs_threshold_choose(reqs, nreq, c->pebs_format, pebs_bytes_of(c, o) / size,
				     pebs_capable_of(c), &o->threshold, &choice, err, errlen);
}

static int setup_pebs(struct sampling *s, const struct sampling_opts *o, char *err, size_t errlen)
{
	const struct pmu_caps *c = &s->pmu->caps;
	struct pebs_event_req reqs[PMU_MAX_EVENTS];
	unsigned nreq = 0;
	struct pebs_layout layout;

	u64 cfg = pebs_cfg_of(c, s->ev, s->n, o);
	if (!pebs_layout_init(&layout, c->pebs_format, cfg, err, errlen))
		return -1;
	layout.latency_split = caps_pebs_latency_split(c);
	if (!pebs_ds_init(&s->ds, &layout, pebs_bytes_of(c, o), err, errlen))
		return -1;
	s->pebs_ready = true;
	pebs_ctx_init(&s->pebs, &s->ds, dse_family(c), o->cpu);
	for (int i = 0; i < s->n; i++) {
		if (!s->ev[i].precise)
			continue;
		int counter = pmu_counter_of(s->pmu, s->id[i]);
		u8 width = counter_is_fixed(counter) ? c->fixed_width : c->gp_width;
		struct pebs_counter pc = { .counter = counter, .event = (u32)i,
					   .period = s->period[i], .mem = mem_kind(&s->ev[i]) };
		if (!pebs_ds_set_period(&s->ds, counter, s->period[i], width) ||
		    !pebs_ctx_add(&s->pebs, &pc, err, errlen))
			return -1;
		reqs[nreq++] = pebs_req_of(&s->ev[i], o);
	}
	if (!pebs_threshold_choose(reqs, nreq, c->pebs_format, s->ds.max_records, pebs_capable_of(c),
				   &o->threshold, &s->threshold, err, errlen))
		return -1;
	pebs_ds_set_threshold(&s->ds, s->threshold.records);
	if (!pebs_ds_program(&s->ds, err, errlen))
		return -1;
	pmu_set_pebs_data_cfg(s->pmu, cfg);
	s->pmi.pebs = &s->pebs;
	s->pmi.pebs_loss = &s->loss;
	return 0;
}

static int check_pebs_possible(struct sampling *s, char *err, size_t errlen)
{
	const struct pmu_caps *c = &s->pmu->caps;
	for (int i = 0; i < s->n; i++) {
		if (!s->ev[i].precise)
			continue;
		s->any_pebs = true;
		if (!caps_has_pebs(c)) {
			bp_snprintf(err, errlen, "%s: PEBS is not available on this CPU (%s); "
				    "drop the :p modifier to sample in PMI mode", s->ev[i].name,
				    caps_pebs_missing(c));
			return -1;
		}
	}
	return 0;
}

/* A fixed period the counter it got cannot hold: without full-width
 * writes (IA32_PERF_CAPABILITIES.FW_WRITE[13]) a GP counter is written
 * through IA32_PMCx, whose bit 31 the CPU sign-extends (SDM 20.2.5,
 * "Full-Width Writes to Performance Counter Registers"), so a preset of
 * more than 2^31 events never overflows where it should. */
static int check_periods(const struct sampling *s, char *err, size_t errlen)
{
	if (s->freq)
		return 0;	/* -F: periods are clamped as they adapt */
	for (int i = 0; i < s->n; i++) {
		int counter = pmu_counter_of(s->pmu, s->id[i]);
		u64 max = counter_max_period(&s->pmu->caps, counter);
		if (s->period[i] <= max)
			continue;
		bool legacy = !counter_is_fixed(counter) && !s->pmu->caps.full_width_write;
		bp_snprintf(err, errlen, "-c %llu: %s: a %s counter takes periods up to %llu%s",
			    (unsigned long long)s->period[i], s->ev[i].name,
			    counter_is_fixed(counter) ? "fixed" : "general-purpose",
			    (unsigned long long)max,
			    legacy ? " on this CPU (no full-width counter writes: "
				     "IA32_PERF_CAPABILITIES bit 13 is clear)" : "");
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
	if (check_pebs_possible(s, err, errlen))
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
				   .mid_ack = caps_pmi_mid_ack(&pmu->caps) };
	for (int i = 0; i < n; i++)
		s->pmi.event_of_slot[s->id[i]] = (u32)i;
	s->pmi.window_ticks = plat_ticks_per_second() / 100;	/* 10 ms windows */
	s->pmi.max_pmis_per_window = SAMPLING_MAX_PMIS_PER_S / 100;
	s->pmi.window_start = plat_ticks();
	if (s->any_pebs && setup_pebs(s, o, err, errlen))
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

void sampling_start(struct sampling *s)
{
	s->last_adjust = plat_ticks();
	pmu_enable(s->pmu);
}

void sampling_stop(struct sampling *s)
{
	pmu_disable(s->pmu);
	/* Counting has stopped, so no PMI can come: drain what is left.
	 * Our buffer is read by our own bounds, even if the CPU was
	 * pointed elsewhere meanwhile (which the check reports). */
	if (s->pebs_ready && s->pmi.pebs) {
		pmi_check_ds_area(&s->pmi);
		s->pebs.drain_tsc = hw_rdtsc();
		pebs_drain(&s->pebs, &s->ring, &s->loss);
	}
}

void sampling_teardown(struct sampling *s)
{
	if (s->pmi.vector && (s->pmi.apic.base || s->pmi.apic.x2apic))
		pmi_teardown(&s->pmi);	/* LVT PC as found */
	s->pmi.vector = 0;
	if (s->pebs_ready) {
		pebs_ds_restore(&s->ds);
		pebs_ds_free(&s->ds);
		s->pebs_ready = false;
	}
	for (int i = 0; i < s->n; i++)
		if (s->id[i] >= 0 && s->pmu->slot[s->id[i]].used)
			pmu_remove(s->pmu, s->id[i]);
	ring_free(&s->ring);
}

/* Frequency mode, as perf's: the period that gives `freq` samples a second
 * at the rate the event was counting since the last adjustment. */
static void adjust_periods(struct sampling *s, u64 now)
{
	u64 elapsed = now - s->last_adjust, tps = plat_ticks_per_second();
	if (!elapsed || !tps)
		return;
	for (int i = 0; i < s->n; i++) {
		if (s->ev[i].precise)
			continue;	/* PEBS periods live in the DS area: fixed */
		u64 count = pmu_read(s->pmu, s->id[i]);
		u64 delta = count - s->last_count[i];
		s->last_count[i] = count;
		u64 elapsed_us = elapsed / (tps >= 1000000 ? tps / 1000000 : 1);
		u64 rate = elapsed_us ? delta * 1000000 / elapsed_us : 0;	/* events/s */
		u64 period = rate / s->freq;
		int counter = pmu_counter_of(s->pmu, s->id[i]);
		u64 max = counter_max_period(&s->pmu->caps, counter);
		period = period < 1 ? 1 : period > max ? max : period;
		s->period[i] = period;
		s->pmu->slot[s->id[i]].period = period;	/* taken at the next reload */
	}
	s->last_adjust = now;
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
	pmi_unthrottle(&s->pmi);
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
	pmu_disable(s->pmu);
	s->held = true;
}

void sampling_release(struct sampling *s)
{
	if (!s->held)
		return;
	s->held = false;
	if (s->pmi.stopped)	/* a PMI raised before the hold stopped it: stay so */
		return;
	pmu_enable(s->pmu);
}

u32 sampling_poll(struct sampling *s, struct bp_sample *out, u32 max)
{
	u32 n = 0;
	while (n < max && ring_pop(&s->ring, &out[n]))
		n++;
	return n;
}

u64 sampling_lost(const struct sampling *s)
{
	u64 lost = s->pmi.st.ring_full + s->pmi.st.throttled;
	if (s->pebs_ready || s->pmi.pebs)
		lost += pebs_loss_lost_total(&s->loss);
	return lost;
}

static int describe_mode(const struct sampling *s, char *buf, size_t len)
{
	if (!s->any_pebs)
		return bp_snprintf(buf, len, "PMI mode: one PMI per sample%s",
				   s->freq ? " (frequency mode)" : "");
	return pebs_threshold_explain(&s->threshold, buf, len);
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
