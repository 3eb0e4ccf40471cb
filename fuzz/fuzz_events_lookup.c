/* The event-table lookups on arbitrary names, signatures and core types,
 * each checked against a plain linear scan of the same table.
 *
 * Input: [table u8 % tables] [entry u16] [case flips u64] [event, umask
 * u8] [family u8, model u8, stepping u8, core type u8, native model u32]
 * [caps: intel/hybrid/version bits u8] [names buffer length u8] then a
 * name (the rest of the input).
 *
 * Checked: event_find finds a name exactly when a scan does (and any
 * spelling of an entry's name finds an entry of that name);
 * event_table_by_name likewise; event_find_encoding returns a GP entry of
 * that encoding when one exists, a plain one when there is a plain one;
 * event_code_gp_mask is the union a scan gives; event_entry_fill copies
 * the entry; the model lookups return a table a matching row names;
 * event_table_names stays inside its buffer and terminates it. */
#include "fuzz/input.h"
#include "events/events.h"
#include "lib/str.h"
#include "lib/plat.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* event_table_for_caps asks CPUID.1AH of hybrid parts through the
	 * seam: the host backend answers with this machine's CPUID. */
	hw_select(plat_hw_ops());
	return 0;
}

static const struct ev_entry *scan_name(const struct event_table *t, const char *name)
{
	for (u16 i = 0; i < t->count; i++)
		if (bp_strcasecmp(name, ev_name(event_at(t, i))) == 0)
			return event_at(t, i);
	return NULL;
}

static bool plain(const struct ev_entry *e)
{
	const struct ev_extra *x = ev_extra(e);
	return e->cmask == 0 && !(e->flags & (EVF_INV | EVF_EDGE | EVF_ANY)) && x->msr == 0 &&
	       x->umask_ext == 0 && x->value == 0;
}

static void check_find(const struct event_table *t, const char *name)
{
	const struct ev_entry *e = event_find(t, name);
	FUZZ_CHECK(!e == !scan_name(t, name));
	if (e)
		FUZZ_CHECK(bp_strcasecmp(ev_name(e), name) == 0);
	FUZZ_CHECK(event_find(NULL, name) == NULL);

	const struct event_table *by_name = event_table_by_name(name);
	bool known = false;
	for (size_t i = 0; i < event_table_count; i++)
		known |= bp_strcasecmp(event_tables[i].name, name) == 0;
	FUZZ_CHECK(!by_name == !known);
}

/* An entry's name with some letters' case flipped must find it. */
static void check_find_entry(const struct event_table *t, u16 index, u64 flips)
{
	char name[256];
	const struct ev_entry *want = event_at(t, index % t->count);
	snprintf(name, sizeof(name), "%s", ev_name(want));
	for (size_t i = 0; name[i] && i < 64; i++)
		if ((flips >> i) & 1)
			name[i] = (char)(bp_isalpha(name[i]) ? name[i] ^ 0x20 : name[i]);
	const struct ev_entry *e = event_find(t, name);
	FUZZ_CHECK(e && bp_strcasecmp(ev_name(e), ev_name(want)) == 0);
}

static void check_encoding(const struct event_table *t, u16 event, u8 umask)
{
	const struct ev_entry *any = NULL, *plain_one = NULL;
	u32 code_mask = 0;
	for (u16 i = 0; i < t->count; i++) {
		const struct ev_entry *e = event_at(t, i);
		if (ev_event(e) == event)
			code_mask |= e->gp;
		if (!e->gp || ev_event(e) != event || e->umask != umask)
			continue;
		any = any ? any : e;
		plain_one = plain_one ? plain_one : (plain(e) ? e : NULL);
	}
	const struct ev_entry *e = event_find_encoding(t, event, umask);
	FUZZ_CHECK(!e == !any);
	if (e)
		FUZZ_CHECK(e->gp && ev_event(e) == event && e->umask == umask);
	if (plain_one)
		FUZZ_CHECK(plain(e));
	FUZZ_CHECK(event_code_gp_mask(t, event) == code_mask);
	FUZZ_CHECK(event_find_encoding(NULL, event, umask) == NULL);

	if (e) {
		struct pmu_event ev;
		memset(&ev, 0, sizeof(ev));
		event_entry_fill(t, e, &ev);
		FUZZ_CHECK(ev.event == ev_event(e) && ev.umask == e->umask && ev.cmask == e->cmask);
		FUZZ_CHECK(ev.gp_allowed == e->gp && ev.fixed_allowed == ev_fixed(e));
		FUZZ_CHECK(ev.pebs_gp == e->pebs_gp && ev.pebs_fixed == ev_pebs_fixed(e));
		FUZZ_CHECK(ev.sample_after == ev_sample_after(e));
	}
}

/* The table a model lookup returns belongs to a row of that CPU. */
static void check_model(u32 family, u32 model, u32 stepping, u8 core_type, u32 native)
{
	const struct event_table *t = event_table_for_cpu(family, model, stepping, core_type, native);
	bool row = false;
	for (size_t i = 0; t && i < event_model_count; i++) {
		const struct event_model *m = &event_models[i];
		row |= &event_tables[m->table] == t && m->family == family && model >= m->model &&
		       model <= m->model_hi &&
		       stepping >= m->step_lo && stepping <= m->step_hi &&
		       (m->core_type == 0 || m->core_type == core_type);
	}
	FUZZ_CHECK(!t || row);
}

static void check_caps(u32 family, u32 model, u32 stepping, u8 core_type, u8 bits)
{
	struct pmu_caps c;
	memset(&c, 0, sizeof(c));
	c.intel = bits & 1;
	c.amd = !c.intel && (bits & 2);	/* AMD parts are never hybrid */
	c.hybrid = c.intel && (bits & 2);
	c.version = (bits >> 2) & 7;
	c.num_gp = (bits >> 5) & 7;
	c.family = family, c.model = model, c.stepping = stepping;
	c.core_type = core_type;
	const struct event_table *t = event_table_for_caps(&c);
	if (!(c.intel || c.amd) || !caps_has_pmu(&c))
		FUZZ_CHECK(t == NULL);
	if (t)
		FUZZ_CHECK(t >= event_tables && t < event_tables + event_table_count &&
			   !t->amd_zen == c.intel);
}

static void check_names(size_t len)
{
	char *buf = malloc(len ? len : 1);
	event_table_names(buf, len);
	if (len)
		FUZZ_CHECK(memchr(buf, 0, len));
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	const struct event_table *t = &event_tables[in_u8(&in) % event_table_count];
	u16 index = in_u16(&in);
	u64 flips = in_u64(&in);
	u16 event = in_u16(&in) & AMD_EVENT_CODE_MAX;	/* 12 bits: AMD's codes */
	u8 umask = in_u8(&in);
	u32 family = in_u8(&in), model = in_u8(&in), stepping = in_u8(&in);
	u8 core_type = in_u8(&in);
	u32 native = in_u32(&in);
	u8 caps_bits = in_u8(&in);
	size_t names_len = in_u8(&in);
	char *name = in_rest_str(&in);

	check_find(t, name);
	check_find_entry(t, index, flips);
	check_encoding(t, event, umask);
	check_model(family, model, stepping, core_type, native);
	check_caps(family, model, stepping, core_type, caps_bits);
	check_names(names_len);
	free(name);
	return 0;
}
