#include "pmu_int.h"
#include "../arch/hw.h"
#include "../lib/fmt.h"
#include "../lib/str.h"

/* ---- what the firmware left us ----------------------------------------- */

u64 pmu_counters_in_use(const struct pmu_caps *c)
{
	const struct pmu_arch *arch = pmu_arch_for(c);
	return arch ? arch->counters_in_use(c) : 0;
}

int pmu_describe_in_use(const struct pmu_caps *c, u64 mask, char *buf, size_t len)
{
	int n = 0;
	for (unsigned i = 0; i < 64; i++) {
		if (!(mask & BIT(i)))
			continue;
		const char *sep = n ? ", " : "";
		char *at = buf + MIN((size_t)n, len ? len - 1 : 0);
		size_t room = len > (size_t)n ? len - (size_t)n : 0;
		if (i < GLOBAL_FIXED_SHIFT)
			n += bp_snprintf(at, room, "%sgp%u (IA32_PERFEVTSEL%u = 0x%llx)", sep, i, i,
					 (unsigned long long)hw_rdmsr(caps_gp_eventsel_msr(c, i)));
		else
			n += bp_snprintf(at, room, "%sfixed%u", sep, i - GLOBAL_FIXED_SHIFT);
	}
	return n;
}

/* ---- open and close ------------------------------------------------------ */

void pmu_save_counters(struct pmu *p)
{
	const struct pmu_caps *c = &p->caps;
	struct pmu_saved *s = &p->saved;

	if (caps_has_global_ctrl(c)) {
		s->global_ctrl = hw_rdmsr(c->msr_global_ctrl);
		s->status = hw_rdmsr(c->msr_global_status);
	}
	for (unsigned i = 0; i < c->num_gp && i < PMU_MAX_GP; i++) {
		if (!caps_has_gp(c, i))
			continue;
		s->evtsel[i] = hw_rdmsr(caps_gp_eventsel_msr(c, i));
		s->gp[i] = hw_rdmsr(caps_gp_counter_msr(c, i));
		p->sh_evtsel[i] = s->evtsel[i];
	}
	for (unsigned i = 0; i < c->num_fixed && i < PMU_MAX_FIXED; i++)
		if (caps_has_fixed(c, i))
			s->fixed[i] = hw_rdmsr(caps_fixed_counter_msr(c, i));
	p->sh_global_ctrl = 0;
}

void pmu_restore_counters(struct pmu *p)
{
	const struct pmu_caps *c = &p->caps;
	for (unsigned i = 0; i < c->num_gp && i < PMU_MAX_GP; i++) {
		if (!caps_has_gp(c, i))
			continue;
		if (p->sh_evtsel[i] != p->saved.evtsel[i])
			hw_wrmsr(caps_gp_eventsel_msr(c, i), p->saved.evtsel[i]);
		/* Without full-width writes only values that survive the
		 * legacy alias's sign extension can be put back exactly. */
		counter_write(c, counter_gp(i), p->saved.gp[i]);
	}
	for (unsigned i = 0; i < c->num_fixed && i < PMU_MAX_FIXED; i++)
		if (caps_has_fixed(c, i))
			counter_write(c, counter_fixed(i), p->saved.fixed[i]);
}

void pmu_restore_status(struct pmu *p)
{
	const struct pmu_caps *c = &p->caps;
	const struct pmu_saved *s = &p->saved;
	/* Overflow bits we caused go; bits that were set stay set (v4 can
	 * set them back through GLOBAL_STATUS_SET). */
	u64 status = p->arch->read_status(p);
	u64 ours = status & ~s->status;
	if (ours)
		p->arch->ack_status(p, ours);
	u64 lost = s->status & ~status;
	if (lost && caps_has_status_set(c))
		hw_wrmsr(c->msr_global_status_set, lost);
}

int pmu_open(struct pmu *p, const struct pmu_caps *caps, bool force, char *err, size_t errlen)
{
	bp_memset(p, 0, sizeof(*p));
	p->caps = *caps;
	for (int i = 0; i < PMU_MAX_EVENTS; i++)
		p->slot[i].counter = COUNTER_NONE;
	bp_memset(p->event_on, -1, sizeof(p->event_on));
	p->arch = pmu_arch_for(caps);
	if (!p->arch) {
		bp_snprintf(err, errlen, "bareperf drives no PMU of this CPU (vendor %s)",
			    caps->vendor[0] ? caps->vendor : "unknown");
		return -1;
	}
	if (p->arch->check_usable(caps, err, errlen))
		return -1;
	u64 busy = p->arch->counters_in_use(caps);
	if (busy && !force) {
		char what[256];
		pmu_describe_in_use(caps, busy, what, sizeof(what));
		bp_snprintf(err, errlen, "counters are already running: %s; something "
			    "(firmware?) is using the PMU. Use --force to take it over; "
			    "their state is restored on exit", what);
		return -1;
	}
	sched_ctx_from_caps(&p->sched, caps);
	p->arch->save(p);
	p->arch->enable_all(p, 0);
	p->disabled = 1;	/* the first pmu_enable() starts counting */
	p->open = true;
	return 0;
}

void pmu_close(struct pmu *p)
{
	if (!p->open)
		return;
	p->arch->enable_all(p, 0);
	p->arch->restore(p);
	p->arch->enable_all(p, p->saved.global_ctrl);
	p->open = false;
}

/* ---- scheduling ---------------------------------------------------------- */

/* The used slots as a list for the scheduler; group indexes are remapped
 * from slot ids to list positions. */
static int build_list(const struct pmu *p, struct pmu_event *list, int *slot_of, int *prev)
{
	int list_of[PMU_MAX_EVENTS];
	int n = 0;
	for (int s = 0; s < PMU_MAX_EVENTS; s++) {
		list_of[s] = -1;
		if (!p->slot[s].used)
			continue;
		list_of[s] = n;
		list[n] = p->slot[s].ev;
		slot_of[n] = s;
		prev[n] = p->slot[s].counter;
		n++;
	}
	for (int i = 0; i < n; i++)
		if (list[i].group >= 0)
			list[i].group = list_of[list[i].group];
	return n;
}

static int schedule(const struct pmu *p, int *slot_of, int *counter, u32 *extra,
		    char *err, size_t errlen)
{
	struct pmu_event list[PMU_MAX_EVENTS];
	int prev[PMU_MAX_EVENTS];
	struct sched_report why;
	int n = build_list(p, list, slot_of, prev);
	int rc = sched_assign(&p->sched, list, n, prev, counter, extra, &why);
	if (rc == n)
		return n;
	if (err)
		sched_explain(&p->sched, list, n, counter, &why, err, errlen);
	return -1;
}

static int alloc_slots(struct pmu *p, int want, int *ids)
{
	int got = 0;
	for (int s = 0; s < PMU_MAX_EVENTS && got < want; s++)
		if (!p->slot[s].used)
			ids[got++] = s;
	return got == want ? 0 : -1;
}

/* Whether the slot's counter holds its own count: a dirty slot has a
 * counter but has not been programmed yet, so the counter still holds its
 * previous owner's value. */
static bool counting_on_counter(const struct pmu_slot *sl)
{
	return sl->counter != COUNTER_NONE && !sl->dirty;
}

/* Reads the slot's counter and adds what it counted since the last
 * reading, across at most one wrap of mask; returns the raw value. */
static u64 account_count(struct pmu_slot *sl, u64 mask)
{
	u64 raw = counter_read_fast(sl->counter);
	sl->count += counter_delta(sl->prev_raw, raw, mask);
	sl->prev_raw = raw;
	return raw;
}

static void update_count(struct pmu *p, struct pmu_slot *sl)
{
	if (counting_on_counter(sl))
		account_count(sl, counter_mask(&p->caps, sl->counter));
}

int pmu_add_group(struct pmu *p, const struct pmu_event *ev, int n, u64 period,
		  int *ids, char *err, size_t errlen)
{
	int slot_of[PMU_MAX_EVENTS], counter[PMU_MAX_EVENTS];
	u32 extra[PMU_MAX_EVENTS];

	if (n <= 0 || alloc_slots(p, n, ids)) {
		bp_snprintf(err, errlen, "too many events: bareperf handles at most %d at once",
			    PMU_MAX_EVENTS);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct pmu_slot *sl = &p->slot[ids[i]];
		*sl = (struct pmu_slot){ .used = true, .ev = ev[i], .counter = COUNTER_NONE,
					 .period = period, .pebs = ev[i].precise > 0 };
		sl->ev.group = n > 1 ? ids[0] : -1;
	}
	if (schedule(p, slot_of, counter, extra, err, errlen) < 0) {
		for (int i = 0; i < n; i++)
			p->slot[ids[i]].used = false;	/* a failed add changes nothing */
		return -1;
	}
	p->added = true;
	return 0;
}

int pmu_add(struct pmu *p, const struct pmu_event *ev, u64 period, char *err, size_t errlen)
{
	int id;
	return pmu_add_group(p, ev, 1, period, &id, err, errlen) ? -1 : id;
}

/* The counter -> event map and the masks the PMI reads, from the slots. */
static void update_maps(struct pmu *p)
{
	p->active_mask = p->sampling_mask = 0;
	bp_memset(p->event_on, -1, sizeof(p->event_on));
	for (int s = 0; s < PMU_MAX_EVENTS; s++) {
		const struct pmu_slot *sl = &p->slot[s];
		if (!sl->used || sl->counter == COUNTER_NONE)
			continue;
		p->event_on[sl->counter] = (s8)s;
		p->active_mask |= BIT(sl->counter);
		/* A pair event's odd counter counts the Merge event: enabled
		 * with it, no event of its own (sched/ keeps it free). */
		if (sl->ev.amd_pair)
			p->active_mask |= BIT(sl->counter + 1);
		if (sl->period)
			p->sampling_mask |= BIT(sl->counter);
	}
}

void pmu_remove(struct pmu *p, int id)
{
	struct pmu_slot *sl = &p->slot[id];
	if (!sl->used)
		return;
	update_count(p, sl);
	sl->used = false;
	sl->counter = COUNTER_NONE;
	update_maps(p);
}

/* Applies a new assignment: events that move have their count brought up
 * to date on the old counter first. */
static void reschedule(struct pmu *p)
{
	int slot_of[PMU_MAX_EVENTS], counter[PMU_MAX_EVENTS];
	u32 extra[PMU_MAX_EVENTS];
	int n = schedule(p, slot_of, counter, extra, NULL, 0);
	if (n < 0)
		return;		/* cannot happen: every add was checked */
	for (int i = 0; i < n; i++) {
		struct pmu_slot *sl = &p->slot[slot_of[i]];
		if (sl->counter != counter[i]) {
			update_count(p, sl);
			sl->counter = counter[i];
			sl->dirty = true;
		}
		/* sl->ev keeps the event as added; program() derives the
		 * encoding for the MSR chosen here. */
		sl->extra_msr = extra[i];
	}
	update_maps(p);
}

/* ---- programming --------------------------------------------------------- */

void pmu_write_if_changed(u32 msr, u64 *shadow, u64 value)
{
	if (*shadow == value)
		return;
	hw_wrmsr(msr, value);
	*shadow = value;
}

/* A pair event's odd counter holds the upper 16 bits of the merged 64-bit
 * count: all ones beside the even counter's negative 48-bit preset, so the
 * pair overflows when the even counter wraps, as a lone counter would
 * (Linux writes 0xffff there in x86_perf_event_set_period, on every
 * preset). */
static void write_merge_upper(const struct pmu *p, const struct pmu_slot *sl)
{
	if (sl->ev.amd_pair)
		counter_write(&p->caps, sl->counter + 1, AMD_MERGE_UPPER_ONES);
}

void pmu_program_counter_value(struct pmu *p, struct pmu_slot *sl)
{
	u64 start = sl->period ? counter_preset(&p->caps, sl->counter, sl->period) : 0;
	counter_write(&p->caps, sl->counter, start);
	write_merge_upper(p, sl);
	sl->prev_raw = start;
	sl->preset_period = sl->period;
	sl->dirty = false;
}

void pmu_commit_schedule(struct pmu *p)
{
	if (p->added) {
		reschedule(p);
		p->added = false;
	}
}

void pmu_set_pebs_data_cfg(struct pmu *p, u64 cfg)
{
	if (p->saved.has_data_cfg)
		pmu_write_if_changed(MSR_PEBS_DATA_CFG, &p->sh_data_cfg, cfg);
}

void pmu_disable(struct pmu *p)
{
	if (p->disabled++ == 0) {
		/* Shadow first: a PMI restores GLOBAL_CTRL from it on exit
		 * (pmi_handle), so it must never hold a stale value while the
		 * MSR has the new one. */
		p->sh_global_ctrl = 0;
		compiler_barrier();
		p->arch->enable_all(p, 0);
	}
}

void pmu_enable(struct pmu *p)
{
	if (p->disabled == 0 || --p->disabled > 0)
		return;
	pmu_commit_schedule(p);
	p->arch->program(p);
	/* Shadow before the MSR: a PMI taken right after the write would
	 * otherwise restore the old 0 on exit and leave sampling off for
	 * good (one sample, then none). Before the write the counters are
	 * off and cannot overflow. */
	p->sh_global_ctrl = p->active_mask;
	compiler_barrier();
	p->arch->enable_all(p, p->active_mask);
}

struct pmu_start_check pmu_check_started(const struct pmu *p)
{
	struct pmu_start_check c = { .wrote = p->sh_global_ctrl,
				     .found = p->arch->read_enabled(p),
				     .reg = p->arch->enable_reg_name(&p->caps) };
	c.held = (c.found & c.wrote) != c.wrote;
	return c;
}

/* ---- counts and sampling ------------------------------------------------- */

u64 pmu_read(struct pmu *p, int id)
{
	struct pmu_slot *sl = &p->slot[id];
	if (sl->used)
		update_count(p, sl);
	return sl->count;
}

int pmu_counter_of(const struct pmu *p, int id)
{
	return p->slot[id].used ? p->slot[id].counter : COUNTER_NONE;
}

void pmu_set_period(struct pmu *p, int id, u64 period)
{
	struct pmu_slot *sl = &p->slot[id];
	bool was_sampling = sl->period != 0;
	sl->period = period;
	if (was_sampling != (period != 0))
		update_maps(p);
}

/* The PMI's path: the counter's width is taken once, for the count and
 * the wrap check. */
bool pmu_reload(struct pmu *p, int id, u64 *elapsed)
{
	struct pmu_slot *sl = &p->slot[id];
	if (!counting_on_counter(sl))
		return false;
	u64 mask = counter_mask(&p->caps, sl->counter);
	u64 raw = account_count(sl, mask);
	/* Preset to -period, the counter's top bit stays set until it wraps
	 * (periods are at most half the range): set means no overflow yet. */
	if (raw & (mask & ~(mask >> 1)))
		return false;
	*elapsed = sl->preset_period;
	pmu_program_counter_value(p, sl);
	return true;
}

void pmu_preset(struct pmu *p, int counter)
{
	int id = pmu_event_on(p, counter);
	if (id >= 0 && p->slot[id].period) {
		counter_write(&p->caps, counter, counter_preset(&p->caps, counter, p->slot[id].period));
		write_merge_upper(p, &p->slot[id]);
	}
}

u64 pmu_status(const struct pmu *p)
{
	return p->arch->read_status(p);
}

void pmu_ack(const struct pmu *p, u64 bits)
{
	p->arch->ack_status(p, bits);
}

void pmu_hw_enable(const struct pmu *p, u64 counters)
{
	p->arch->enable_all(p, counters);
}
