/* Lookups over the generated event tables (events/events_data.c). */
#include "events.h"
#include "../lib/fmt.h"
#include "../lib/str.h"

const struct event_table *event_table_by_name(const char *name)
{
	for (size_t i = 0; i < event_table_count; i++)
		if (bp_strcasecmp(event_tables[i].name, name) == 0)
			return &event_tables[i];
	return NULL;
}

static bool model_row_matches(const struct event_model *m, u32 family, u32 model,
			      u32 stepping, u8 core_type)
{
	if (m->family != family || model < m->model || model > m->model_hi)
		return false;
	if (stepping < m->step_lo || stepping > m->step_hi)
		return false;
	/* A hybrid row needs the core type; a plain row fits any core. */
	return m->core_type == 0 || m->core_type == core_type;
}

const struct event_table *event_table_for_cpu(u32 family, u32 model, u32 stepping,
					      u8 core_type, u32 native_model)
{
	const struct event_model *first = NULL;

	for (size_t i = 0; i < event_model_count; i++) {
		const struct event_model *m = &event_models[i];
		if (!model_row_matches(m, family, model, stepping, core_type))
			continue;
		/* Arrow Lake has two E-core kinds with core type 0x20; the
		 * native model ID of CPUID.1AH tells them apart. */
		if (native_model && m->native_model == native_model)
			return &event_tables[m->table];
		if (!first)
			first = m;
	}
	return first ? &event_tables[first->table] : NULL;
}

/* t if it is of c's vendor: the mapfiles' families are numbers of each
 * vendor's own (Intel's Nova Lake is family 18, AMD's Llano family 12h,
 * the same number). */
const struct event_table *event_table_for_vendor(const struct pmu_caps *c,
						 const struct event_table *t)
{
	return t && (t->amd_zen != 0) == c->amd ? t : NULL;
}

const struct event_table *event_table_for_caps(const struct pmu_caps *c)
{
	u32 native_model = 0;

	/* AMD rows carry no core type: c->core_type is 0 there. */
	if (!(c->intel || c->amd) || !caps_has_pmu(c))
		return NULL;
	if (c->hybrid) {
		struct cpuid_regs r;
		hw_cpuid(CPUID_LEAF_HYBRID, 0, &r);
		native_model = (u32)FIELD(r.eax, 23, 0);
	}
	return event_table_for_vendor(c, event_table_for_cpu(c->family, c->model, c->stepping,
							     c->core_type, native_model));
}

void event_table_names(char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < event_table_count && used < len; i++)
		used += (size_t)bp_snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					    event_tables[i].name);
}

const struct ev_entry *event_find(const struct event_table *t, const char *name)
{
	size_t lo = 0, hi = t ? t->count : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = bp_strcasecmp(name, ev_name(event_at(t, mid)));
		if (cmp == 0)
			return event_at(t, mid);
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static bool is_plain_encoding(const struct ev_entry *e)
{
	return e->cmask == 0 && !(e->flags & (EVF_INV | EVF_EDGE | EVF_ANY)) &&
	       (e->extra == 0 || ev_extra(e)->msr == 0);
}

/* Nothing beyond event and umask: no extra MSR value, no umask extension
 * (an AMD extra entry holding only EventSelect[11:8] or the pair flag is
 * part of the plain encoding). */
static bool is_bare_encoding(const struct ev_entry *e)
{
	const struct ev_extra *x = ev_extra(e);
	return is_plain_encoding(e) && x->umask_ext == 0 && x->value == 0;
}

const struct ev_entry *event_find_encoding(const struct event_table *t, u16 event, u8 umask)
{
	const struct ev_entry *any = NULL;

	for (u16 i = 0; t && i < t->count; i++) {
		const struct ev_entry *e = event_at(t, i);
		if (!e->gp || ev_event(e) != event || e->umask != umask)
			continue;
		if (is_bare_encoding(e))
			return e;
		if (!any)
			any = e;
	}
	return any;
}

static u8 qualifier_flags(const struct pmu_event *ev)
{
	return (u8)((ev->inv ? EVF_INV : 0) | (ev->edge ? EVF_EDGE : 0) | (ev->any ? EVF_ANY : 0));
}

const struct ev_entry *event_find_exact(const struct event_table *t, const struct pmu_event *ev)
{
	u8 flags = qualifier_flags(ev);
	for (u16 i = 0; t && i < t->count; i++) {
		const struct ev_entry *e = event_at(t, i);
		if (e->gp && ev_event(e) == ev->event && e->umask == ev->umask &&
		    e->cmask == ev->cmask && (e->flags & (EVF_INV | EVF_EDGE | EVF_ANY)) == flags)
			return e;
	}
	return NULL;
}

u32 event_code_gp_mask(const struct event_table *t, u16 event)
{
	u32 mask = 0;
	for (u16 i = 0; t && i < t->count; i++)
		if (ev_event(event_at(t, i)) == event)
			mask |= event_at(t, i)->gp;
	return mask;
}

bool event_code_amd_pair(const struct event_table *t, u16 event)
{
	for (u16 i = 0; t && i < t->count; i++)
		if (ev_event(event_at(t, i)) == event && ev_amd_pair(event_at(t, i)))
			return true;
	return false;
}

void event_entry_fill(const struct event_table *t, const struct ev_entry *e,
		      struct pmu_event *out)
{
	const struct ev_extra *x = ev_extra(e);

	out->event = ev_event(e);
	out->umask = e->umask;
	out->umask_ext = x->umask_ext;
	out->cmask = e->cmask;
	out->inv = e->flags & EVF_INV;
	out->edge = e->flags & EVF_EDGE;
	out->any = e->flags & EVF_ANY;
	out->extra_msr = x->msr;
	out->extra_value = x->value;
	out->gp_allowed = e->gp;
	out->fixed_allowed = ev_fixed(e);
	out->pebs_gp = e->pebs_gp;
	out->pebs_fixed = ev_pebs_fixed(e);
	out->taken_alone = e->flags & EVF_TAKEN_ALONE;
	out->data_la = e->flags & EVF_DATA_LA;
	out->store = e->flags & EVF_STORE;
	out->sample_after = ev_sample_after(e);
	out->amd_pair = ev_amd_pair(e);
	out->has_alt = false;
	if (e->flags & EVF_OCR_ALT) {
		/* The entry holds encoding [0]; [1] pairs with RSP_1. */
		out->has_alt = true;
		out->alt_event = t->ocr_event[1];
		out->alt_umask = t->ocr_umask[1];
		out->alt_extra_msr = x->msr ? MSR_OFFCORE_RSP_1 : 0;
	}
}
