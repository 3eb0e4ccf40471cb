/* The event parser on arbitrary text, against every model table and the
 * architectural-only case, with and without a CPU's capabilities.
 *
 * Input: [table] [use] [caps1] [caps2] [caps3] [max] [errlen] TEXT...
 *   table  % (tables + 1): an event table; the last value means no table
 *          (architectural events only, which always gets caps)
 *   use    0: no caps (a model named with --cpu); odd: the Intel CPU
 *          below; even, not 0: an AMD CPU with the counters below and IBS
 *          caps caps2 << 3 | 7 (bit 0: no IBS at all)
 *   caps1  [2:0] GP counters - 1, [6:3] fixed counter mask, [7] PDCM+DS
 *          (with a Zen table, or use 0xFF and no table: an AMD CPU, family
 *          19h or, without a table, 15h: GP counters only, no PEBS)
 *   caps2  architectural events available (bit i = event i)
 *   caps3  [2:0] perfmon version (0-7), [3] baseline PEBS, [4] AnyThread
 *          deprecated, [7:5] PEBS format
 *   max    events the caller has room for: 1 + max % 12
 *   errlen bytes of the error buffer: 16, 64, 160 or 512
 *
 * Checked: on success every event has a non-empty name and counter masks
 * within what the table and the CPU have, PEBS masks within the counting
 * masks, precise only with PEBS counters (and a table, and PEBS on the
 * CPU), groups well formed; an IBS event on no counter, precise 1-2,
 * only where the CPU has IBS, never in a group of several; on failure a
 * non-empty, terminated message. */
#include "fuzz/input.h"
#include "events/evparse.h"

static void caps_from(struct pmu_caps *c, u8 b1, u8 b2, u8 b3)
{
	memset(c, 0, sizeof(*c));
	c->intel = true;
	c->family = 6, c->model = 0x6a, c->stepping = 6;
	c->version = b3 & 7;
	c->num_gp = 1 + (b1 & 7);
	c->gp_mask = (u32)GENMASK(c->num_gp - 1, 0);
	c->gp_width = c->fixed_width = 48;
	c->fixed_mask = (b1 >> 3) & 0xf;
	c->num_fixed = c->fixed_mask ? 32 - (u8)__builtin_clz(c->fixed_mask) : 0;
	c->arch_events_len = 8;
	c->arch_events = b2;
	c->pdcm = c->ds = c->dtes64 = b1 >> 7;
	c->pebs_baseline = (b3 >> 3) & 1;
	c->anythread_deprecated = (b3 >> 4) & 1;
	c->pebs_format = b3 >> 5;
}

/* The CPU as AMD's: no architectural perfmon, fixed counters or PEBS. */
static void make_amd(struct pmu_caps *c, u32 family)
{
	c->intel = false, c->amd = true;
	c->family = family, c->model = 0x11;
	c->version = 0, c->arch_events = 0, c->arch_events_len = 0;
	c->fixed_mask = 0, c->num_fixed = 0;
	c->pdcm = c->ds = c->dtes64 = c->pebs_baseline = c->anythread_deprecated = false;
}

/* The caps above as an AMD part's: no fixed counters, no PEBS, IBS. */
static void amd_from(struct pmu_caps *c, u8 b2)
{
	c->intel = false;
	c->amd = true;
	c->family = 0x19;
	c->fixed_mask = 0, c->num_fixed = 0;
	c->pdcm = c->ds = false;
	c->ibs = !(b2 & 1);
	c->ibs_caps = c->ibs ? (u32)b2 << 3 | IBS_CAPS_AVAIL | IBS_CAPS_FETCHSAM | IBS_CAPS_OPSAM : 0;
}

static void check_ibs_event(const struct pmu_event *evs, int i, const struct pmu_caps *caps)
{
	const struct pmu_event *ev = &evs[i];
	FUZZ_CHECK(caps && caps->amd && caps->ibs);
	FUZZ_CHECK(!event_needs_counter(ev));
	FUZZ_CHECK(!ev->gp_allowed && !ev->fixed_allowed && !ev->pebs_gp && !ev->pebs_fixed);
	FUZZ_CHECK(ev->precise >= 1 && ev->precise <= 2);
	FUZZ_CHECK(!ev->exclude_user && !ev->exclude_kernel);
	FUZZ_CHECK(!ev->ibs_cnt_ctl || (caps->ibs_caps & IBS_CAPS_OPCNT));
	/* Alone in its group, if in one. */
	FUZZ_CHECK(ev->group < 0 || ((i == 0 || evs[i - 1].group != ev->group) && ev->group == i));
}

static void check_event(const struct pmu_event *evs, int i, const struct event_table *t,
			const struct pmu_caps *caps)
{
	if (evs[i].ibs) {
		check_ibs_event(evs, i, caps);
		return;
	}
	const struct pmu_event *ev = &evs[i];
	u32 gp_limit = t ? t->gp_mask : caps->gp_mask;
	u32 fixed_limit = t ? t->fixed_mask : caps->fixed_mask;

	if (caps) {
		gp_limit &= caps->gp_mask;
		fixed_limit &= caps->fixed_mask;
	}
	FUZZ_CHECK(memchr(ev->name, 0, sizeof(ev->name)) && ev->name[0]);
	FUZZ_CHECK((ev->gp_allowed & ~gp_limit) == 0);
	FUZZ_CHECK((ev->fixed_allowed & ~fixed_limit) == 0);
	FUZZ_CHECK(ev->gp_allowed || ev->fixed_allowed);
	FUZZ_CHECK((ev->pebs_gp & ~ev->gp_allowed) == 0);
	FUZZ_CHECK((ev->pebs_fixed & ~ev->fixed_allowed) == 0);
	FUZZ_CHECK(ev->precise <= 3);
	if (ev->precise) {
		FUZZ_CHECK(t != NULL);
		FUZZ_CHECK(ev->pebs_gp || ev->pebs_fixed);
		FUZZ_CHECK(!caps || caps_has_pebs(caps));
	}
	if (caps && !caps->pebs_baseline)
		FUZZ_CHECK(ev->pebs_fixed == 0);
	if (caps && caps->anythread_deprecated)
		FUZZ_CHECK(!ev->any);
	FUZZ_CHECK(!(ev->exclude_user && ev->exclude_kernel));
	/* A group is a run of events that name its first one. */
	if (ev->group >= 0) {
		FUZZ_CHECK(ev->group <= i && evs[ev->group].group == ev->group);
		FUZZ_CHECK(ev->group == i || evs[i - 1].group == ev->group);
	} else {
		FUZZ_CHECK(ev->group == -1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t errlens[] = { 16, 64, 160, 512 };
	struct input in = { data, size };
	size_t ti = in_u8(&in) % (event_table_count + 1);
	const struct event_table *t = ti < event_table_count ? &event_tables[ti] : NULL;
	u8 b0 = in_u8(&in), b1 = in_u8(&in), b2 = in_u8(&in), b3 = in_u8(&in);
	int max = 1 + in_u8(&in) % 12;
	size_t errlen = errlens[in_u8(&in) % 4];
	struct pmu_caps caps_buf;
	const struct pmu_caps *caps = NULL;

	if (b0 || !t) {
		caps_from(&caps_buf, b1, b2, b3);
		if (b0 && !(b0 & 1))
			amd_from(&caps_buf, b2);
		caps = &caps_buf;
		if ((t && t->amd_zen) || (!t && b0 == 0xff))
			make_amd(&caps_buf, t ? 0x19 : 0x15);
	}
	/* Exact-size heap buffers: ASan sees any write past them. */
	char *text = in_rest_str(&in);
	char *err = malloc(errlen);
	struct pmu_event *out = malloc(sizeof(*out) * (size_t)max);
	memset(err, 0x5a, errlen);

	int n = evparse_list(text, t, caps, out, max, err, errlen);
	if (n < 0) {
		FUZZ_CHECK(n == -1);
		FUZZ_CHECK(memchr(err, 0, errlen) && err[0]);
	} else {
		FUZZ_CHECK(n >= 1 && n <= max);
		for (int i = 0; i < n; i++)
			check_event(out, i, t, caps);
	}
	free(out);
	free(err);
	free(text);
	return 0;
}
