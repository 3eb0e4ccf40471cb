/* DS-based PEBS as a precise engine (pmu/precise.h): the Debug Store area
 * and its buffer (pebs/ds), the record layout PEBS_DATA_CFG asks for
 * (pebs/record), the interrupt threshold (pebs/threshold) and the drain
 * (pebs/drain). SDM Vol. 3B, "Processor Event Based Sampling" and "Debug
 * Store (DS) Mechanism". */
#include "pmu_int.h"
#include "precise.h"
#include "../arch/hw.h"
#include "../lib/fmt.h"

/* Which encoding the part's PEBS load data sources use (caps knows the
 * parts); Sandy Bridge's unless caps says otherwise. */
enum pebs_dse_family precise_pebs_dse_family(const struct pmu_caps *c)
{
	if (caps_nehalem_data_source(c))
		return PEBS_DSE_NHM;
	if (caps_panther_cove(c))
		return PEBS_DSE_PNC;
	return caps_gracemont(c) ? PEBS_DSE_GRT : PEBS_DSE_SNB;
}

/* Store-latency events: their records carry a store's latency and a data
 * source in the loads' layout (Linux's STLAT constraints). */
static bool is_store_latency(const struct pmu_event *e)
{
	return (e->event == EVENT_MEM_TRANS_RETIRED && e->umask == UMASK_STORE_SAMPLE) ||
	       (e->event == EVENT_MEM_INST_RETIRED && e->umask == UMASK_MEM_UOPS_RETIRED_STORE_LATENCY);
}

/* What the memory fields of e's records mean: the event table says
 * whether it counts stores (pmu_event.store). */
enum pebs_mem_kind precise_pebs_mem_kind(const struct pmu_event *e)
{
	if (!e->data_la)
		return PEBS_MEM_NONE;
	if (!e->store)
		return PEBS_MEM_LOAD;
	return is_store_latency(e) ? PEBS_MEM_STORE_LATENCY : PEBS_MEM_STORE;
}

/* PEBS_DATA_CFG for these events: the record groups their fields need
 * (adaptive PEBS, baseline only). */
static u64 data_cfg_of(const struct pmu_caps *c, const struct precise_event *ev, unsigned n)
{
	struct pebs_want want = { 0 };
	for (unsigned i = 0; i < n; i++)
		want.fields |= ev[i].fields;
	return c->pebs_baseline ? pebs_data_cfg_for(&want) : 0;
}

/* Counters that can write records: every GP counter, and with baseline
 * PEBS every fixed one. */
static unsigned pebs_capable_of(const struct pmu_caps *c)
{
	return __builtin_popcount(c->gp_mask) + (c->pebs_baseline ? __builtin_popcount(c->fixed_mask) : 0);
}

static size_t buffer_bytes_of(const struct pmu_caps *c, const struct precise_opts *o)
{
	return o->buffer_bytes ? o->buffer_bytes : pebs_ds_default_bytes(c->pebs_format);
}

unsigned precise_pebs_reqs_of(const struct precise_event *ev, unsigned n,
			      struct pebs_event_req *reqs)
{
	for (unsigned i = 0; i < n; i++)
		reqs[i] = (struct pebs_event_req){ .freq_mode = ev[i].freq_mode, .fields = ev[i].fields };
	return n;
}

static bool ds_check(const struct pmu_caps *c, const struct precise_event *ev, unsigned n,
		     const struct precise_opts *o, char *err, size_t errlen)
{
	struct pebs_event_req reqs[PEBS_MAX_COUNTERS * 2];
	u32 size = caps_has_ds_pebs(c) ? pebs_record_size(c->pebs_format, data_cfg_of(c, ev, n)) : 0;
	if (!n || !size || n > ARRAY_SIZE(reqs))
		return true;	/* nothing to check, or setup says why */
	struct pebs_threshold_choice choice;
	return pebs_threshold_choose(reqs, precise_pebs_reqs_of(ev, n, reqs), c->pebs_format,
				     buffer_bytes_of(c, o) / size, pebs_capable_of(c),
				     &o->threshold, &choice, err, errlen);
}

static int add_counters(struct precise *pr, const struct pmu_caps *c, const struct precise_event *ev,
			unsigned n, char *err, size_t errlen)
{
	for (unsigned i = 0; i < n; i++) {
		u8 width = counter_is_fixed(ev[i].counter) ? c->fixed_width : c->gp_width;
		struct pebs_counter pc = { .counter = ev[i].counter, .event = ev[i].sample_event,
					   .period = ev[i].period, .mem = precise_pebs_mem_kind(ev[i].ev) };
		if (!pebs_ds_set_period(&pr->ds, ev[i].counter, ev[i].period, width) ||
		    !pebs_ctx_add(&pr->pebs, &pc, err, errlen))
			return -1;
	}
	pr->counters = pr->pebs.enabled;
	return 0;
}

static int ds_setup(struct precise *pr, struct pmu *p, const struct precise_event *ev, unsigned n,
		    const struct precise_opts *o, char *err, size_t errlen)
{
	const struct pmu_caps *c = &p->caps;
	struct pebs_event_req reqs[PEBS_MAX_COUNTERS * 2];
	struct pebs_layout layout;

	if (n > ARRAY_SIZE(reqs)) {
		bp_snprintf(err, errlen, "too many PEBS events: at most %u", (unsigned)ARRAY_SIZE(reqs));
		return -1;
	}
	u64 cfg = data_cfg_of(c, ev, n);
	if (!pebs_layout_init(&layout, c->pebs_format, cfg, err, errlen))
		return -1;
	layout.latency_split = caps_pebs_latency_split(c);
	if (!pebs_ds_init(&pr->ds, &layout, buffer_bytes_of(c, o), err, errlen))
		return -1;
	pr->ready = true;
	pebs_ctx_init(&pr->pebs, &pr->ds, precise_pebs_dse_family(c), o->cpu);
	if (add_counters(pr, c, ev, n, err, errlen) ||
	    !pebs_threshold_choose(reqs, precise_pebs_reqs_of(ev, n, reqs), c->pebs_format,
				   pr->ds.max_records, pebs_capable_of(c), &o->threshold,
				   &pr->threshold, err, errlen))
		return -1;
	pebs_ds_set_threshold(&pr->ds, pr->threshold.records);
	if (!pebs_ds_program(&pr->ds, err, errlen))
		return -1;
	pmu_set_pebs_data_cfg(p, cfg);
	return 0;
}

static bool ds_drain(struct precise *pr, struct sample_ring *ring, bool throttled)
{
	u64 full_before = pr->loss.buffer_was_full;
	pr->pebs.throttled = throttled;
	pr->pebs.drain_tsc = hw_rdtsc();
	pebs_drain(&pr->pebs, ring, &pr->loss);
	return pr->loss.buffer_was_full != full_before;
}

static bool ds_still_ours(const struct precise *pr, u64 *found)
{
	return pebs_ds_still_ours(&pr->ds, found);
}

static u64 ds_ours(const struct precise *pr) { return (u64)(uintptr_t)pr->ds.area; }

static u64 ds_lost(const struct precise *pr)
{
	return pebs_loss_lost_total(&pr->loss);
}

/* The records between the buffer's base and the index the CPU writes
 * (SDM Vol. 3B, "Debug Store (DS) Mechanism": PEBS Index). Read from
 * memory, so another CPU may ask; an index outside our bounds (a bug or
 * hostile firmware) counts as none, the drain says what it found. */
static u64 ds_pending(const struct precise *pr)
{
	const struct pebs_ds *ds = &pr->ds;
	if (!ds->programmed || !ds->area || !ds->layout.record_size)
		return 0;
	u64 index = ((volatile const struct ds_area *)ds->area)->pebs_index;
	if (index < ds->base || index > ds->abs_max)
		return 0;
	return (index - ds->base) / ds->layout.record_size;
}

static int ds_describe(const struct precise *pr, char *buf, size_t len)
{
	return pebs_threshold_explain(&pr->threshold, buf, len);
}

static int ds_describe_loss(const struct precise *pr, char *buf, size_t len)
{
	return pebs_loss_describe(&pr->loss, buf, len);
}

static void ds_teardown(struct precise *pr)
{
	if (!pr->ready)
		return;
	pebs_ds_restore(&pr->ds);
	pebs_ds_free(&pr->ds);
	pr->ready = false;
}

const struct precise_ops precise_ds_pebs = {
	.name = "PEBS",
	.column = "PEBS",
	.multi_record = true,
	.missing = caps_ds_pebs_missing,
	.check = ds_check,
	.setup = ds_setup,
	.drain = ds_drain,
	.still_ours = ds_still_ours,
	.base_reg = "IA32_DS_AREA",
	.ours = ds_ours,
	.lost = ds_lost,
	.pending = ds_pending,
	.describe = ds_describe,
	.describe_loss = ds_describe_loss,
	.teardown = ds_teardown,
};
