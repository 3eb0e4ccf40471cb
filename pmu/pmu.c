#include "pmu.h"
#include "../arch/hw.h"
#include "../lib/fmt.h"
#include "../lib/str.h"

/* ---- what the firmware left us ----------------------------------------- */

u64 pmu_counters_in_use(const struct pmu_caps *c)
{
	u64 global = hw_rdmsr(c->msr_global_ctrl), in_use = 0;
	for (unsigned i = 0; i < c->num_gp; i++)
		if (caps_has_gp(c, i) && (global & global_gp_bit(i)) &&
		    (hw_rdmsr(caps_gp_eventsel_msr(c, i)) & EVTSEL_EN))
			in_use |= global_gp_bit(i);
	u64 fixed_ctrl = c->num_fixed ? hw_rdmsr(c->msr_fixed_ctr_ctrl) : 0;
	for (unsigned i = 0; i < c->num_fixed; i++)
		if (caps_has_fixed(c, i) && (global & global_fixed_bit(i)) &&
		    (fixed_ctrl & fixed_ctrl_field(i, FIXED_CTRL_OS | FIXED_CTRL_USR)))
			in_use |= global_fixed_bit(i);
	return in_use;
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

static bool has_offcore(const struct pmu_caps *c)
{
	return c->intel && c->version >= 2;
}

static void save_state(struct pmu *p)
{
	const struct pmu_caps *c = &p->caps;
	struct pmu_saved *s = &p->saved;

	s->global_ctrl = hw_rdmsr(c->msr_global_ctrl);
	s->status = hw_rdmsr(c->msr_global_status);
	s->debugctl = hw_rdmsr(MSR_IA32_DEBUGCTL);
	for (unsigned i = 0; i < c->num_gp && i < PMU_MAX_GP; i++) {
		if (!caps_has_gp(c, i))
			continue;
		s->evtsel[i] = hw_rdmsr(caps_gp_eventsel_msr(c, i));
		s->gp[i] = hw_rdmsr(caps_gp_counter_msr(c, i));
	}
	if (c->num_fixed)
		s->fixed_ctrl = hw_rdmsr(c->msr_fixed_ctr_ctrl);
	for (unsigned i = 0; i < c->num_fixed && i < PMU_MAX_FIXED; i++)
		if (caps_has_fixed(c, i))
			s->fixed[i] = hw_rdmsr(caps_fixed_counter_msr(c, i));
	if (caps_has_pebs(c)) {
		s->pebs_enable = hw_rdmsr(MSR_IA32_PEBS_ENABLE);
		s->has_ld_lat = hw_rdmsr_safe(MSR_PEBS_LD_LAT_THRESHOLD, &s->ld_lat) == 0;
		/* Skylake and later P-cores only: probed, as elsewhere it #GPs. */
		s->has_frontend = hw_rdmsr_safe(MSR_PEBS_FRONTEND, &s->frontend) == 0;
	}
	if (c->pebs_baseline)
		s->has_data_cfg = hw_rdmsr_safe(MSR_PEBS_DATA_CFG, &s->data_cfg) == 0;
	if (has_offcore(c)) {
		s->has_offcore[0] = hw_rdmsr_safe(MSR_OFFCORE_RSP_0, &s->offcore[0]) == 0;
		s->has_offcore[1] = hw_rdmsr_safe(MSR_OFFCORE_RSP_1, &s->offcore[1]) == 0;
	}
}

static void init_shadows(struct pmu *p)
{
	const struct pmu_saved *s = &p->saved;
	for (unsigned i = 0; i < PMU_MAX_GP; i++)
		p->sh_evtsel[i] = s->evtsel[i];
	p->sh_fixed_ctrl = s->fixed_ctrl;
	p->sh_pebs_enable = s->pebs_enable;
	p->sh_extra[EXTRA_OFFCORE0] = s->offcore[0];
	p->sh_extra[EXTRA_OFFCORE1] = s->offcore[1];
	p->sh_extra[EXTRA_LD_LAT] = s->ld_lat;
	p->sh_extra[EXTRA_FRONTEND] = s->frontend;
	p->sh_data_cfg = s->data_cfg;
	p->sh_global_ctrl = 0;
}

int pmu_open(struct pmu *p, const struct pmu_caps *caps, bool force, char *err, size_t errlen)
{
	bp_memset(p, 0, sizeof(*p));
	p->caps = *caps;
	for (int i = 0; i < PMU_MAX_EVENTS; i++)
		p->slot[i].counter = COUNTER_NONE;
	if (!caps_has_pmu(caps)) {
		bp_snprintf(err, errlen, "this CPU reports no architectural performance "
			    "monitoring (CPUID.0AH version 0)");
		return -1;
	}
	if (!caps_has_global_ctrl(caps)) {
		bp_snprintf(err, errlen, "perfmon version %u has no IA32_PERF_GLOBAL_CTRL; "
			    "bareperf needs version 2 or later", caps->version);
		return -1;
	}
	if (!caps_perfmon_enabled(caps)) {
		bp_snprintf(err, errlen, "performance monitoring is disabled in "
			    "IA32_MISC_ENABLE (bit 7 clear)");
		return -1;
	}
	u64 busy = pmu_counters_in_use(caps);
	if (busy && !force) {
		char what[256];
		pmu_describe_in_use(caps, busy, what, sizeof(what));
		bp_snprintf(err, errlen, "counters are already running: %s; something "
			    "(firmware?) is using the PMU. Use --force to take it over; "
			    "their state is restored on exit", what);
		return -1;
	}
	sched_ctx_from_caps(&p->sched, caps);
	save_state(p);
	init_shadows(p);
	hw_wrmsr(caps->msr_global_ctrl, 0);
	p->disabled = 1;	/* the first pmu_enable() starts counting */
	p->open = true;
	return 0;
}

static void restore_counter_values(struct pmu *p)
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

void pmu_close(struct pmu *p)
{
	const struct pmu_caps *c = &p->caps;
	const struct pmu_saved *s = &p->saved;

	if (!p->open)
		return;
	hw_wrmsr(c->msr_global_ctrl, 0);
	restore_counter_values(p);
	if (c->num_fixed && p->sh_fixed_ctrl != s->fixed_ctrl)
		hw_wrmsr(c->msr_fixed_ctr_ctrl, s->fixed_ctrl);
	if (caps_has_pebs(c) && p->sh_pebs_enable != s->pebs_enable)
		hw_wrmsr(MSR_IA32_PEBS_ENABLE, s->pebs_enable);
	if (s->has_data_cfg && p->sh_data_cfg != s->data_cfg)
		hw_wrmsr(MSR_PEBS_DATA_CFG, s->data_cfg);
	if (s->has_ld_lat && p->sh_extra[EXTRA_LD_LAT] != s->ld_lat)
		hw_wrmsr(MSR_PEBS_LD_LAT_THRESHOLD, s->ld_lat);
	if (s->has_frontend && p->sh_extra[EXTRA_FRONTEND] != s->frontend)
		hw_wrmsr(MSR_PEBS_FRONTEND, s->frontend);
	for (int k = 0; k < 2; k++)
		if (s->has_offcore[k] && p->sh_extra[EXTRA_OFFCORE0 + k] != s->offcore[k])
			hw_wrmsr(k ? MSR_OFFCORE_RSP_1 : MSR_OFFCORE_RSP_0, s->offcore[k]);
	/* Overflow bits we caused go; bits that were set stay set (v4 can
	 * set them back through GLOBAL_STATUS_SET). */
	u64 status = hw_rdmsr(c->msr_global_status);
	u64 ours = status & ~s->status;
	if (ours)
		hw_wrmsr(c->msr_global_status_reset, ours);
	u64 lost = s->status & ~status;
	if (lost && caps_has_status_set(c))
		hw_wrmsr(c->msr_global_status_set, lost);
	hw_wrmsr(c->msr_global_ctrl, s->global_ctrl);
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

static void update_count(struct pmu *p, struct pmu_slot *sl)
{
	/* A dirty slot has a counter but has not been programmed yet: the
	 * counter still holds its previous owner's value. */
	if (sl->counter == COUNTER_NONE || sl->dirty)
		return;
	u64 raw = counter_read(&p->caps, sl->counter);
	sl->count += counter_delta(sl->prev_raw, raw, counter_mask(&p->caps, sl->counter));
	sl->prev_raw = raw;
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

void pmu_remove(struct pmu *p, int id)
{
	struct pmu_slot *sl = &p->slot[id];
	if (!sl->used)
		return;
	update_count(p, sl);
	if (sl->counter != COUNTER_NONE)
		p->active_mask &= ~BIT(sl->counter);
	sl->used = false;
	sl->counter = COUNTER_NONE;
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
	p->active_mask = 0;
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
		p->active_mask |= BIT(sl->counter);
	}
}

/* ---- programming --------------------------------------------------------- */

static struct counter_mode mode_of(const struct pmu *p, const struct pmu_slot *sl)
{
	return (struct counter_mode){
		.interrupt = sl->period && !sl->pebs,
		.adaptive = sl->pebs && p->caps.pebs_baseline,
	};
}

static void write_if_changed(u32 msr, u64 *shadow, u64 value)
{
	if (*shadow == value)
		return;
	hw_wrmsr(msr, value);
	*shadow = value;
}

static void program_counter_value(struct pmu *p, struct pmu_slot *sl)
{
	u64 start = sl->period ? counter_preset(&p->caps, sl->counter, sl->period) : 0;
	counter_write(&p->caps, sl->counter, start);
	sl->prev_raw = start;
	sl->preset_period = sl->period;
	sl->dirty = false;
}

/* IA32_PERFEVTSELx for a slot: an offcore event the scheduler moved to
 * its alternate MSR counts with its alternate event code and umask. */
static u64 slot_evtsel(const struct pmu_slot *sl, struct counter_mode m)
{
	if (sl->extra_msr == sl->ev.extra_msr)
		return counter_evtsel(&sl->ev, m);
	struct pmu_event alt = sl->ev;
	sched_event_use_msr(&alt, sl->extra_msr);
	return counter_evtsel(&alt, m);
}

static void program(struct pmu *p)
{
	u64 fixed_ctrl = p->sh_fixed_ctrl, pebs_bits = 0, pebs_owned = 0;

	for (int s = 0; s < PMU_MAX_EVENTS; s++) {
		struct pmu_slot *sl = &p->slot[s];
		if (!sl->used || sl->counter == COUNTER_NONE)
			continue;
		unsigned i = counter_index(sl->counter);
		struct counter_mode m = mode_of(p, sl);
		if (sl->dirty)
			program_counter_value(p, sl);
		if (counter_is_fixed(sl->counter)) {
			fixed_ctrl &= ~counter_fixed_field_mask(i);
			fixed_ctrl |= counter_fixed_bits(i, &sl->ev, m);
		} else {
			write_if_changed(caps_gp_eventsel_msr(&p->caps, i), &p->sh_evtsel[i],
					 slot_evtsel(sl, m));
		}
		int x = extra_msr_slot(sl->extra_msr);
		if (x >= 0)
			write_if_changed(sl->extra_msr, &p->sh_extra[x], sl->ev.extra_value);
		/* PEBS_ENABLE: bit i for GP i and, with baseline, bit 32+i for
		 * fixed i; before baseline bit 32+i enabled load latency on GP i. */
		u64 own = BIT(sl->counter);
		if (!p->caps.pebs_baseline && !counter_is_fixed(sl->counter))
			own |= BIT(PEBS_ENABLE_LL_SHIFT + i);
		pebs_owned |= own;
		if (sl->pebs) {
			pebs_bits |= BIT(sl->counter);
			if (!p->caps.pebs_baseline && sl->extra_msr == MSR_PEBS_LD_LAT_THRESHOLD)
				pebs_bits |= BIT(PEBS_ENABLE_LL_SHIFT + i);
		}
	}
	if (p->caps.num_fixed)
		write_if_changed(p->caps.msr_fixed_ctr_ctrl, &p->sh_fixed_ctrl, fixed_ctrl);
	if (caps_has_pebs(&p->caps))
		write_if_changed(MSR_IA32_PEBS_ENABLE, &p->sh_pebs_enable,
				 (p->sh_pebs_enable & ~pebs_owned) | pebs_bits);
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
		write_if_changed(MSR_PEBS_DATA_CFG, &p->sh_data_cfg, cfg);
}

void pmu_disable(struct pmu *p)
{
	if (p->disabled++ == 0) {
		/* Shadow first: a PMI restores GLOBAL_CTRL from it on exit
		 * (pmi_handle), so it must never hold a stale value while the
		 * MSR has the new one. */
		p->sh_global_ctrl = 0;
		compiler_barrier();
		hw_wrmsr(p->caps.msr_global_ctrl, 0);
	}
}

void pmu_enable(struct pmu *p)
{
	if (p->disabled == 0 || --p->disabled > 0)
		return;
	pmu_commit_schedule(p);
	program(p);
	/* Shadow before the MSR: a PMI taken right after the write would
	 * otherwise restore the old 0 on exit and leave sampling off for
	 * good (one sample, then none). Before the write the counters are
	 * off and cannot overflow. */
	p->sh_global_ctrl = p->active_mask;
	compiler_barrier();
	hw_wrmsr(p->caps.msr_global_ctrl, p->active_mask);
}

struct pmu_start_check pmu_check_started(const struct pmu *p)
{
	struct pmu_start_check c = { .wrote = p->sh_global_ctrl,
				     .found = hw_rdmsr(p->caps.msr_global_ctrl) };
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

int pmu_event_on(const struct pmu *p, int counter)
{
	for (int s = 0; s < PMU_MAX_EVENTS; s++)
		if (p->slot[s].used && p->slot[s].counter == counter)
			return s;
	return -1;
}

bool pmu_reload(struct pmu *p, int id)
{
	struct pmu_slot *sl = &p->slot[id];
	update_count(p, sl);
	/* Preset to -period, the counter's top bit stays set until it wraps
	 * (periods are at most half the range): set means no overflow yet. */
	u64 mask = counter_mask(&p->caps, sl->counter);
	if (sl->prev_raw & (mask & ~(mask >> 1)))
		return false;
	program_counter_value(p, sl);
	return true;
}
