/* The event parser (syntax and the meaning of :u/:k in events/evparse.h). */
#include "evparse.h"
#include "../lib/fmt.h"
#include "../lib/str.h"

#define TOKEN_MAX 256

/* perf's generic hardware events, mapped to the architectural events of
 * CPUID.0AH, so that they work on any Intel CPU with a PMU; on AMD,
 * amd_generic_events below maps them. arch ARCH_EVENT_COUNT: no Intel
 * mapping (perf's stalled-cycles names, which Linux maps on AMD only among
 * the cores bareperf knows). */
struct generic_event {
	const char *name, *alias;
	enum arch_event arch;
	u8 event, umask;
	int8_t fixed;	/* fixed counter that counts it; -1: none */
	bool gp;	/* GP counters can count it as event/umask */
};

/* ref-cycles is fixed counter 2 only: the GP encoding of UnHalted
 * Reference Cycles (0x3C/01) counts the reference clock at a different
 * rate on many parts (the bus clock, not the TSC rate), so it is a
 * different event (bus-cycles, as in Linux). Fixed-only events carry
 * Intel's pseudo-encoding 0x00/(N+1), which is never written to an event
 * select. */
#define ARCH_ENCODING(name) ARCH_CODE_##name, ARCH_UMASK_##name	/* event, umask */
enum generic_id {
	GEN_CYCLES, GEN_INSTRUCTIONS, GEN_REF_CYCLES, GEN_BUS_CYCLES, GEN_CACHE_REFERENCES,
	GEN_CACHE_MISSES, GEN_BRANCHES, GEN_BRANCH_MISSES, GEN_SLOTS, GEN_STALLED_FRONTEND,
	GEN_STALLED_BACKEND,
};
static const struct generic_event generic_events[] = {
	[GEN_CYCLES] = { "cycles", "cpu-cycles", ARCH_EVENT_CORE_CYCLES,
			 ARCH_ENCODING(CORE_CYCLES), 1, true },
	[GEN_INSTRUCTIONS] = { "instructions", NULL, ARCH_EVENT_INST_RETIRED,
			       ARCH_ENCODING(INST_RETIRED), 0, true },
	[GEN_REF_CYCLES] = { "ref-cycles", NULL, ARCH_EVENT_REF_CYCLES,
			     EVENT_FIXED_ONLY, UMASK_CPU_CLK_UNHALTED_REF_TSC, 2, false },
	[GEN_BUS_CYCLES] = { "bus-cycles", NULL, ARCH_EVENT_REF_CYCLES,
			     ARCH_ENCODING(REF_CYCLES), -1, true },
	[GEN_CACHE_REFERENCES] = { "cache-references", NULL, ARCH_EVENT_LLC_REFERENCES,
				   ARCH_ENCODING(LLC_REFERENCES), -1, true },
	[GEN_CACHE_MISSES] = { "cache-misses", NULL, ARCH_EVENT_LLC_MISSES,
			       ARCH_ENCODING(LLC_MISSES), -1, true },
	[GEN_BRANCHES] = { "branches", "branch-instructions", ARCH_EVENT_BRANCH_RETIRED,
			   ARCH_ENCODING(BRANCH_RETIRED), -1, true },
	[GEN_BRANCH_MISSES] = { "branch-misses", NULL, ARCH_EVENT_BRANCH_MISSES,
				ARCH_ENCODING(BRANCH_MISSES), -1, true },
	[GEN_SLOTS] = { "slots", "topdown-slots", ARCH_EVENT_TOPDOWN_SLOTS,
			ARCH_ENCODING(TOPDOWN_SLOTS), 3, true },
	[GEN_STALLED_FRONTEND] = { "stalled-cycles-frontend", "idle-cycles-frontend",
				   ARCH_EVENT_COUNT, 0, 0, -1, false },
	[GEN_STALLED_BACKEND] = { "stalled-cycles-backend", "idle-cycles-backend",
				  ARCH_EVENT_COUNT, 0, 0, -1, false },
};

/* The generic names on AMD, per Zen generation (zen_lo..zen_hi; 0 is an
 * AMD CPU before Zen), as Linux's amd_pmu_event_map picks them
 * (arch/x86/events/amd/core.c): amd_perfmon_event_map for K7 to family
 * 16h, amd_zen1_perfmon_event_map for Zen 1, amd_zen2_perfmon_event_map
 * for Zen 2 and 3 (ZEN2 or family 19h), amd_zen4_perfmon_event_map for
 * Zen 4 and 5 (ZEN4 or family 1Ah and later). A name a generation's map
 * leaves out (stalled-cycles-backend after Zen 1, ref-cycles before Zen 4,
 * bus-cycles and slots everywhere) is not available there. */
struct amd_generic {
	u8 id;			/* enum generic_id */
	u8 zen_lo, zen_hi;
	u8 umask;
	u16 event;
};

#define AMD_PRE_ZEN 0
#define AMD_ZEN_LAST 5
#define AMD_GENERIC(id, zen_lo, zen_hi, event, umask) { GEN_##id, zen_lo, zen_hi, umask, event }
static const struct amd_generic amd_generic_events[] = {
	AMD_GENERIC(CYCLES, AMD_PRE_ZEN, AMD_ZEN_LAST, AMD_EVENT_CYCLES_NOT_HALTED, 0),
	AMD_GENERIC(INSTRUCTIONS, AMD_PRE_ZEN, AMD_ZEN_LAST, AMD_EVENT_RETIRED_INSTRUCTIONS, 0),
	AMD_GENERIC(BRANCHES, AMD_PRE_ZEN, AMD_ZEN_LAST, AMD_EVENT_RETIRED_BRANCHES, 0),
	AMD_GENERIC(BRANCH_MISSES, AMD_PRE_ZEN, AMD_ZEN_LAST, AMD_EVENT_RETIRED_BRANCH_MISPRED, 0),
	AMD_GENERIC(CACHE_REFERENCES, AMD_PRE_ZEN, AMD_PRE_ZEN, AMD_EVENT_K8_L2_REQUESTS,
		    AMD_UMASK_K8_L2_IC_DC_TLB),
	AMD_GENERIC(CACHE_MISSES, AMD_PRE_ZEN, AMD_PRE_ZEN, AMD_EVENT_K8_L2_MISSES,
		    AMD_UMASK_K8_L2_IC_DC_TLB),
	AMD_GENERIC(STALLED_FRONTEND, AMD_PRE_ZEN, AMD_PRE_ZEN, AMD_EVENT_K8_DECODER_EMPTY, 0),
	AMD_GENERIC(STALLED_BACKEND, AMD_PRE_ZEN, AMD_PRE_ZEN, AMD_EVENT_K8_DISPATCH_STALLS, 0),
	AMD_GENERIC(CACHE_REFERENCES, 1, AMD_ZEN_LAST, AMD_EVENT_L2_REQUEST_G1,
		    AMD_UMASK_L2_REQUEST_ALL),
	AMD_GENERIC(CACHE_MISSES, 1, AMD_ZEN_LAST, AMD_EVENT_L2_CACHE_REQ_STAT,
		    AMD_UMASK_IC_DC_MISS_IN_L2),
	AMD_GENERIC(STALLED_FRONTEND, 1, 1, AMD_EVENT_IC_FETCH_STALL, AMD_UMASK_IC_STALL_DQ_EMPTY),
	AMD_GENERIC(STALLED_BACKEND, 1, 1, AMD_EVENT_IC_FETCH_STALL,
		    AMD_UMASK_IC_STALL_BACK_PRESSURE),
	AMD_GENERIC(STALLED_FRONTEND, 2, AMD_ZEN_LAST, AMD_EVENT_OP_QUEUE_EMPTY, 0),
	AMD_GENERIC(REF_CYCLES, 4, AMD_ZEN_LAST, AMD_EVENT_NOT_HALTED_P0_CYC, AMD_UMASK_P0_FREQ_CYC),
};
#undef AMD_GENERIC
/* Linux: family 1Ah and later take the Zen 4 map (amd_pmu_event_map). */
#define AMD_FAMILY_ZEN5 0x1A

/* GP encodings that a fixed counter counts exactly (SDM: fixed counters
 * 0, 1 and 3 count the architectural events instructions retired, core
 * cycles and topdown slots), so raw and cpu// events may use them too. */
static const struct { u8 event, umask, fixed; } fixed_equivalents[] = {
	{ ARCH_ENCODING(INST_RETIRED), 0 },
	{ ARCH_ENCODING(CORE_CYCLES), 1 },
	{ ARCH_ENCODING(TOPDOWN_SLOTS), 3 },
};
#undef ARCH_ENCODING

bool evparse_generic(size_t i, const char **name, const char **alias)
{
	if (i >= ARRAY_SIZE(generic_events))
		return false;
	*name = generic_events[i].name;
	*alias = generic_events[i].alias;
	return true;
}

/* Parser state for one call. */
struct ctx {
	const struct event_table *t;
	const struct pmu_caps *caps;
	char *err;
	size_t errlen;
	const char *token;	/* the event text being parsed, for messages */
	u32 pdist_gp, pdist_fixed;	/* :ppp counters of the event */
};

PRINTF_LIKE(2, 3) static int fail(struct ctx *c, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	bp_vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (c->token)
		bp_snprintf(c->err, c->errlen, "event '%s': %s", c->token, what);
	else
		bp_snprintf(c->err, c->errlen, "%s", what);
	return -1;
}

static const char *model_name(const struct ctx *c)
{
	return c->t ? c->t->name : "this CPU (architectural events only)";
}

/* The events are AMD's: a Zen table, or an AMD CPU the tables lack. */
static bool is_amd(const struct ctx *c)
{
	return c->t ? c->t->amd_zen != 0 : c->caps && c->caps->amd;
}

/* The Zen generation whose generic map applies (AMD_PRE_ZEN before Zen):
 * the table's, else that of the CPU's model, else by family as Linux's
 * amd_pmu_event_map falls back. */
static u8 amd_zen(const struct ctx *c)
{
	const struct pmu_caps *p = c->caps;
	const struct event_table *t = c->t;

	if (!t)
		t = event_table_for_vendor(p, event_table_for_cpu(p->family, p->model,
								  p->stepping, 0, 0));
	if (t)
		return t->amd_zen;
	return p->family >= AMD_FAMILY_ZEN5 ? AMD_ZEN_LAST : AMD_PRE_ZEN;
}

/* ---- suggestions ------------------------------------------------------ */

struct suggest {
	const char *name[3];
	unsigned dist[3];
};

static void suggest_consider(struct suggest *s, const char *typed, const char *cand)
{
	unsigned d = bp_edit_distance(typed, cand);
	size_t len = bp_strlen(typed);
	unsigned limit = MAX(2u, (unsigned)(len / 3));

	if (d > limit)
		return;
	for (int i = 0; i < 3; i++) {
		if (!s->name[i] || d < s->dist[i]) {
			for (int j = 2; j > i; j--) {
				s->name[j] = s->name[j - 1];
				s->dist[j] = s->dist[j - 1];
			}
			s->name[i] = cand;
			s->dist[i] = d;
			return;
		}
	}
}

static int fail_unknown(struct ctx *c, const char *name)
{
	struct suggest s = { { 0 }, { 0 } };
	char list[200] = "";
	size_t used = 0;

	if (c->token && bp_strcmp(c->token, name) == 0)
		c->token = NULL;	/* the message names it already */

	for (size_t i = 0; i < ARRAY_SIZE(generic_events); i++) {
		suggest_consider(&s, name, generic_events[i].name);
		if (generic_events[i].alias)
			suggest_consider(&s, name, generic_events[i].alias);
	}
	for (u16 i = 0; c->t && i < c->t->count; i++)
		suggest_consider(&s, name, ev_name(event_at(c->t, i)));
	for (int i = 0; i < 3 && s.name[i] && used < sizeof(list); i++)
		used += (size_t)bp_snprintf(list + used, sizeof(list) - used, "%s%s",
					    i ? ", " : "", s.name[i]);
	if (s.name[0])
		return fail(c, "unknown event '%s' on %s; did you mean: %s?", name,
			    model_name(c), list);
	return fail(c, "unknown event '%s' on %s (`bareperf list` shows the known ones)",
		    name, model_name(c));
}

/* ---- constraints ------------------------------------------------------ */

static u32 bit_if(bool cond, unsigned i) { return cond ? 1u << i : 0; }

/* Fixed counter i exists: per the model's table, else per CPUID. */
static bool fixed_present(const struct ctx *c, unsigned i)
{
	if (c->t)
		return (c->t->fixed_mask >> i) & 1;
	return c->caps && caps_has_fixed(c->caps, i);
}

static void fill_from_entry(struct ctx *c, const struct ev_entry *e, struct pmu_event *ev)
{
	event_entry_fill(c->t, e, ev);
	c->pdist_gp = ev_pdist_gp(e);
	c->pdist_fixed = ev_pdist_fixed(e);
}

/* The fixed-only entry of the table for fixed counter i (INST_RETIRED.ANY
 * for 0, ...), for its PEBS and PDIST abilities. */
static const struct ev_entry *fixed_entry(const struct event_table *t, unsigned i)
{
	for (u16 j = 0; t && j < t->count; j++) {
		const struct ev_entry *e = event_at(t, j);
		if (e->gp == 0 && ev_fixed(e) == (1u << i))
			return e;
	}
	return NULL;
}

static void resolve_encoding(struct ctx *c, struct pmu_event *ev);

static const struct amd_generic *find_amd_generic(size_t id, u8 zen)
{
	for (size_t i = 0; i < ARRAY_SIZE(amd_generic_events); i++) {
		const struct amd_generic *a = &amd_generic_events[i];
		if (a->id == id && zen >= a->zen_lo && zen <= a->zen_hi)
			return a;
	}
	return NULL;
}

/* A generic name on AMD: Linux's encoding for the generation, with the
 * constraints of the table event that has it (resolve_encoding). */
static int resolve_generic_amd(struct ctx *c, const struct generic_event *g, struct pmu_event *ev)
{
	const struct amd_generic *a = find_amd_generic((size_t)(g - generic_events), amd_zen(c));

	if (!a)
		return fail(c, "not available on %s: Linux's generic-event map for this "
			    "AMD generation has no event for it", c->t ? c->t->name : "this CPU");
	ev->event = a->event;
	ev->umask = a->umask;
	resolve_encoding(c, ev);
	return 0;
}

static int resolve_generic(struct ctx *c, const struct generic_event *g, struct pmu_event *ev)
{
	const struct ev_entry *e = NULL;

	if (is_amd(c))
		return resolve_generic_amd(c, g, ev);
	if (g->arch == ARCH_EVENT_COUNT)
		return fail(c, "not available on %s: bareperf maps it on AMD CPUs only",
			    model_name(c));
	ev->event = g->event;
	ev->umask = g->umask;
	/* Architectural events 0-6 exist on every core with architectural
	 * perfmon (some tables leave LONGEST_LAT_CACHE.REFERENCE out); topdown
	 * slots (7) is newer, so without CPUID.0AH to ask, the table decides
	 * (Atom cores lack it). */
	if (g->gp && c->t && (e = event_find_encoding(c->t, g->event, g->umask)))
		fill_from_entry(c, e, ev);
	else if (g->gp && (c->caps || g->arch < ARCH_EVENT_TOPDOWN_SLOTS))
		ev->gp_allowed = c->t ? c->t->gp_mask : c->caps->gp_mask;
	if (c->caps && !caps_arch_event(c->caps, g->arch))
		ev->gp_allowed = ev->pebs_gp = c->pdist_gp = 0;
	if (g->fixed >= 0) {
		unsigned f = (unsigned)g->fixed;
		bool present = fixed_present(c, f);
		const struct ev_entry *fe = fixed_entry(c->t, f);
		ev->fixed_allowed = bit_if(present, f);
		if (present && fe) {
			ev->pebs_fixed = ev_pebs_fixed(fe);
			c->pdist_fixed = ev_pdist_fixed(fe);
			if (!ev->sample_after)
				ev->sample_after = ev_sample_after(fe);
		}
	}
	if (!ev->gp_allowed && !ev->fixed_allowed) {
		if (g->fixed >= 0 && !g->gp)
			return fail(c, "not available on %s: it needs fixed counter %d, "
				    "which this CPU does not have", model_name(c), g->fixed);
		if (!c->caps)
			return fail(c, "not available on %s: its event table has no "
				    "such event", model_name(c));
		return fail(c, "not available on %s: CPUID.0AH reports architectural "
			    "event %d (%s) as unavailable", model_name(c), (int)g->arch,
			    caps_arch_event_name(g->arch));
	}
	return 0;
}

/* The event select fields that qualify an event's count (SDM 20.2.1.1). */
static bool is_qualified(const struct pmu_event *ev)
{
	return ev->cmask || ev->inv || ev->edge || ev->any;
}

/* Constraints of an event given by its encoding (raw or cpu//): those of
 * the table event with exactly that encoding (cmask, inv, edge and any
 * included), else of the one with its event and umask, else of any event
 * with that event code (SPR: codes below 0x90 only on GP0-3), else every
 * GP counter. */
static void resolve_encoding(struct ctx *c, struct pmu_event *ev)
{
	const struct ev_entry *e = is_qualified(ev) ? event_find_exact(c->t, ev) : NULL;

	if (!e)
		e = event_find_encoding(c->t, ev->event, ev->umask);

	if (e) {
		struct pmu_event typed = *ev;
		fill_from_entry(c, e, ev);
		/* Keep what the user gave. The table's extra MSR value and
		 * umask extension belong to the named event only. */
		ev->cmask = typed.cmask;
		ev->inv = typed.inv;
		ev->edge = typed.edge;
		ev->any = typed.any;
		ev->umask_ext = 0;
		ev->extra_value = 0;
	} else if (c->t) {
		u32 code_mask = event_code_gp_mask(c->t, ev->event);
		ev->gp_allowed = code_mask ? code_mask : c->t->gp_mask;
		ev->amd_pair = event_code_amd_pair(c->t, ev->event);
	} else if (c->caps) {
		ev->gp_allowed = c->caps->gp_mask;
	}
	bool plain = !ev->cmask && !ev->inv && !ev->edge && !ev->extra_msr;
	for (size_t i = 0; plain && i < ARRAY_SIZE(fixed_equivalents); i++) {
		unsigned f = fixed_equivalents[i].fixed;
		if (fixed_equivalents[i].event == ev->event &&
		    fixed_equivalents[i].umask == ev->umask && fixed_present(c, f))
			ev->fixed_allowed |= 1u << f;
	}
}

/* Which of its counters the CPU lets PEBS and PDist use: with
 * Architectural PEBS, those CPUID.23H.5 names (EAX/ECX PEBS, EBX/EDX
 * PDist, GP and fixed; ISE "Architectural PEBS"); with DS-based PEBS
 * fixed counters only with baseline PEBS (SDM Vol. 3B, "PEBS_BASELINE"). */
static void apply_pebs_caps(struct ctx *c, struct pmu_event *ev)
{
	const struct pmu_caps *k = c->caps;
	if (caps_has_arch_pebs(k)) {
		ev->pebs_gp &= (u32)k->arch_pebs_counters;
		ev->pebs_fixed &= (u32)(k->arch_pebs_counters >> 32);
		c->pdist_gp &= (u32)k->arch_pebs_pdists;
		c->pdist_fixed &= (u32)(k->arch_pebs_pdists >> 32);
	} else if (!k->pebs_baseline) {
		ev->pebs_fixed = c->pdist_fixed = 0;
	}
}

/* The CPU in use may have fewer counters than the model's table names
 * (a hypervisor, SMT on), and fewer that PEBS may use. */
static int apply_caps(struct ctx *c, struct pmu_event *ev)
{
	if (c->caps && ev->any && c->caps->anythread_deprecated)
		return fail(c, "AnyThread ('any') is deprecated on this CPU "
			    "(CPUID.0AH:EDX[15]); the bit is reserved there");
	if (c->caps) {
		ev->gp_allowed &= c->caps->gp_mask;
		ev->fixed_allowed &= c->caps->fixed_mask;
		apply_pebs_caps(c, ev);
	}
	ev->pebs_gp &= ev->gp_allowed;
	ev->pebs_fixed &= ev->fixed_allowed;
	c->pdist_gp &= ev->pebs_gp;
	c->pdist_fixed &= ev->pebs_fixed;
	if (!ev->gp_allowed && !ev->fixed_allowed)
		return fail(c, "no counter of %s can count it", model_name(c));
	return 0;
}

/* ---- modifiers -------------------------------------------------------- */

struct mods {
	bool u, k;
	u8 p;
};

static int parse_mods(struct ctx *c, const char *s, struct mods *m)
{
	for (; *s; s++) {
		if (*s == 'u')
			m->u = true;
		else if (*s == 'k')
			m->k = true;
		else if (*s == 'p')
			m->p++;
		else
			return fail(c, "unknown modifier '%c' (known: u, k, p, pp, ppp)", *s);
	}
	if (m->p > 3)
		return fail(c, "too many 'p' modifiers (at most :ppp)");
	return 0;
}

/* SDM Vol. 3B chapter 20, in the PEBS facility section of each generation
 * from Nehalem to Skylake (a NOTE each time): "PEBS events are
 * only valid when the following fields of IA32_PERFEVTSELx are all zero:
 * AnyThread, Edge, Invert, CMask." Intel's event files name the few
 * exceptions it validated (Skylake's INST_RETIRED.TOTAL_CYCLES_PS:
 * cmask=10, inv), so an encoding with any of those fields may take PEBS
 * only when a table event has exactly that encoding and lists PEBS
 * (resolve_encoding took that event's constraints). */
static int check_qualified_pebs(struct ctx *c, const struct pmu_event *ev, u8 p)
{
	const struct ev_entry *e = event_find_exact(c->t, ev);
	if (!e || !e->pebs_gp)
		return fail(c, "cannot be sampled precisely (:%.*s) on %s: PEBS is valid "
			    "only when cmask, inv, edge and any are all zero (SDM Vol. 3B, "
			    "PEBS facility), and no event of the table has this encoding "
			    "with PEBS; drop the :%.*s modifier to sample in PMI mode",
			    p, "ppp", model_name(c), p, "ppp");
	return 0;
}

/* The architectural cycles event (UnHalted Core Cycles) as the user typed it. */
static bool is_plain_cycles(const struct pmu_event *ev)
{
	return ev->event == ARCH_CODE_CORE_CYCLES && ev->umask == ARCH_UMASK_CORE_CYCLES &&
	       !is_qualified(ev) && !ev->extra_msr;
}

/* Cycles has no PEBS of its own before extended PEBS, so `cycles:p`
 * (perf's own default, `perf record -e cycles:p`) is sampled as another
 * event that counts every cycle, as Linux does (intel_pebs_aliases_* in
 * arch/x86/events/intel/core.c):
 * - Skylake: INST_RETIRED.TOTAL_CYCLES_PS (0xC0/0x01, inv, cmask 10: the
 *   cycles in which fewer than 10 instructions retire, i.e. all; Intel's
 *   event file lists it with PEBS; Linux's alias uses cmask 16);
 * - parts with extended PEBS (Goldmont Plus, Ice Lake and later; SDM Vol.
 *   3B, "PEBS extended to all counters", Linux's PMU_FL_PEBS_ALL): every
 *   event may use PEBS on every counter that counts it, cycles included,
 *   and the fixed counter with baseline PEBS;
 * - Sandy Bridge to Broadwell: UOPS_RETIRED.ALL with inv and cmask 16
 *   (intel_pebs_aliases_snb and _ivb: the cycles retiring fewer than 16
 *   uops, i.e. all), on the counters the table gives UOPS_RETIRED.ALL's
 *   PEBS. (Nehalem and Westmere take the first way: their files list
 *   INST_RETIRED.TOTAL_CYCLES_PS, Linux's core2 alias, with PEBS.)
 * Returns 0 when cycles now has a PEBS counter. */
#define ALIAS_CMASK_ALL_CYCLES 16	/* more uops than retire in a cycle */

/* Extended PEBS: baseline PEBS, or Architectural PEBS, which records from
 * every counter CPUID.23H.5 names (ISE "Architectural PEBS"; Linux keeps
 * PMU_FL_PEBS_ALL there). Without caps (--cpu MODEL): the file gives
 * INST_RETIRED.ANY PEBS on fixed counter 0, which only extended PEBS has. */
static bool extended_pebs(const struct ctx *c)
{
	if (c->caps)
		return c->caps->pebs_baseline || caps_has_arch_pebs(c->caps);
	const struct ev_entry *e = fixed_entry(c->t, 0);
	return e && ev_pebs_fixed(e);
}

static int alias_as_entry(struct ctx *c, const struct ev_entry *e, struct pmu_event *ev)
{
	u64 sample_after = ev->sample_after;
	fill_from_entry(c, e, ev);
	ev->fixed_allowed = 0;
	ev->sample_after = sample_after;
	ev->pebs_alias = ev_name(e);
	return apply_caps(c, ev);
}

static int alias_precise_cycles(struct ctx *c, struct pmu_event *ev)
{
	const struct ev_entry *e = event_find(c->t, "INST_RETIRED.TOTAL_CYCLES_PS");
	if (e)	/* Skylake without the alias's PEBS stays refused */
		return e->pebs_gp ? alias_as_entry(c, e, ev) : -1;
	if (extended_pebs(c)) {
		ev->pebs_gp = ev->gp_allowed;
		ev->pebs_fixed = ev->fixed_allowed;
		ev->pebs_alias = PEBS_ALIAS_EXTENDED;
		if (c->caps)
			apply_pebs_caps(c, ev);
		return ev->pebs_gp || ev->pebs_fixed ? 0 : -1;
	}
	e = event_find(c->t, "UOPS_RETIRED.ALL");
	if (!e || !e->pebs_gp || e->cmask || (e->flags & EVF_INV))
		return -1;
	if (alias_as_entry(c, e, ev))
		return -1;
	ev->inv = true;
	ev->cmask = ALIAS_CMASK_ALL_CYCLES;
	return 0;
}

/* ---- AMD: precise means IBS ------------------------------------------- */

static const char *const ibs_unit_name[] = { [EVENT_IBS_OP] = "ibs_op", [EVENT_IBS_FETCH] = "ibs_fetch" };

/* Whether the CPU in use can sample with this IBS unit: IBS at all
 * (CPUID.80000001H:ECX[10]) and the unit (8000001BH:EAX). */
static int check_ibs_unit(struct ctx *c, u8 unit)
{
	u32 need = unit == EVENT_IBS_OP ? IBS_CAPS_OPSAM : IBS_CAPS_FETCHSAM;
	if (!c->caps)
		return fail(c, "%s samples the CPU in use; it cannot be checked against a "
			    "model named with --cpu", ibs_unit_name[unit]);
	if (!c->caps->amd || !c->caps->ibs)
		return fail(c, "%s needs AMD's Instruction-Based Sampling, which this CPU does "
			    "not have (CPUID.80000001H:ECX[10] = 0)", ibs_unit_name[unit]);
	if (!(c->caps->ibs_caps & need))
		return fail(c, "this CPU's IBS has no %s unit (CPUID.8000001BH:EAX = 0x%x)",
			    ibs_unit_name[unit], c->caps->ibs_caps);
	return 0;
}

/* An event the IBS unit samples on no core counter; op samples carry the
 * data address when the op accessed memory (IbsDcLinAd). */
static void make_ibs(struct pmu_event *ev, u8 unit, bool cnt_ctl)
{
	ev->ibs = unit;
	ev->ibs_cnt_ctl = cnt_ctl;
	ev->precise = ev->precise ? ev->precise : 1;
	ev->data_la = unit == EVENT_IBS_OP;
	ev->gp_allowed = ev->fixed_allowed = ev->pebs_gp = ev->pebs_fixed = 0;
}

static int check_cnt_ctl(struct ctx *c)
{
	if (!(c->caps->ibs_caps & IBS_CAPS_OPCNT))
		return fail(c, "cnt_ctl=1 (count dispatched ops) needs IBS OpCnt (CPUID."
			    "8000001BH:EAX[4]), which this CPU lacks");
	return 0;
}

/* cycles:p and cycles:pp on AMD: IBS op sampling, as Linux forwards them
 * (forward_event_to_ibs, core_pmu_ibs_config): cycles and raw 0x76 count
 * cycles, raw 0xC1 dispatched ops; precise levels 1 and 2 only; any other
 * event has no precise sampling. */
static int apply_precise_amd(struct ctx *c, struct pmu_event *ev, u8 p)
{
	bool cycles = !is_qualified(ev) && !ev->umask &&
		      (ev->event == AMD_EVENT_CYCLES_NOT_HALTED || is_plain_cycles(ev));
	bool ops = !is_qualified(ev) && !ev->umask && ev->event == AMD_EVENT_RETIRED_OPS;
	if (p > 2)
		return fail(c, ":ppp: on AMD precise sampling is IBS, which gives levels 1 and 2 "
			    "(Linux forward_event_to_ibs); use :p or :pp");
	if (!cycles && !ops)
		return fail(c, "cannot be sampled precisely on AMD: only cycles (r76) and r0C1 "
			    "map to IBS op sampling (Linux core_pmu_ibs_config); use ibs_op// "
			    "or ibs_fetch//, or drop the :%.*s modifier", p, "pp");
	if (check_ibs_unit(c, EVENT_IBS_OP) || (ops && check_cnt_ctl(c)))
		return -1;
	make_ibs(ev, EVENT_IBS_OP, ops);
	ev->pebs_alias = ibs_unit_name[EVENT_IBS_OP];
	return 0;
}

/* Precise sampling needs PEBS on a counter that can take the event; a
 * request that cannot be met is an error, never a silent downgrade. */
static int apply_precise(struct ctx *c, struct pmu_event *ev, u8 p)
{
	ev->precise = p;
	if (!p)
		return 0;
	if (c->caps && c->caps->amd)
		return apply_precise_amd(c, ev, p);
	if (!c->t)
		return fail(c, "precise sampling (:%.*s) needs the event table of this "
			    "CPU model, and the model is not in the tables (PEBS "
			    "constraints are not architectural)", p, "ppp");
	if (c->caps && !caps_has_pebs(c->caps))
		return fail(c, "precise sampling (:%.*s) needs PEBS, which this CPU "
			    "does not offer (%s); drop the :%.*s modifier to sample in PMI mode",
			    p, "ppp", caps_pebs_missing(c->caps), p, "ppp");
	if (is_qualified(ev) && check_qualified_pebs(c, ev, p))
		return -1;
	if (!ev->pebs_gp && !ev->pebs_fixed && is_plain_cycles(ev))
		alias_precise_cycles(c, ev);
	if (!ev->pebs_gp && !ev->pebs_fixed)
		return fail(c, "cannot be sampled precisely (:%.*s) on %s: the event "
			    "has no PEBS support", p, "ppp", model_name(c));
	if (p == 3) {
		if (!c->pdist_gp && !c->pdist_fixed)
			return fail(c, "precise distribution (:ppp) is not available for "
				    "this event on %s; use :pp", model_name(c));
		ev->pebs_gp = c->pdist_gp;
		ev->pebs_fixed = c->pdist_fixed;
	}
	return 0;
}

static void apply_rings(struct pmu_event *ev, const struct mods *m)
{
	/* Only one of u/k excludes the other ring; both or none count both. */
	ev->exclude_kernel = m->u && !m->k;
	ev->exclude_user = m->k && !m->u;
}

/* ---- names, raw, cpu// ------------------------------------------------ */

static const struct generic_event *find_generic(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(generic_events); i++) {
		const struct generic_event *g = &generic_events[i];
		if (bp_strcasecmp(name, g->name) == 0 ||
		    (g->alias && bp_strcasecmp(name, g->alias) == 0))
			return g;
	}
	return NULL;
}

static int resolve_name(struct ctx *c, const char *name, struct pmu_event *ev)
{
	const struct generic_event *g = find_generic(name);
	const struct ev_entry *e;

	if (g)
		return resolve_generic(c, g, ev);
	if ((e = event_find(c->t, name))) {
		fill_from_entry(c, e, ev);
		/* Nova Lake's off-module events name MSR_OMR_0..3, which
		 * bareperf does not program (extra_msr_slot). */
		if (ev->extra_msr && extra_msr_slot(ev->extra_msr) < 0)
			return fail(c, "needs MSR 0x%x programmed with 0x%llx, which bareperf does "
				    "not program (it knows MSR_OFFCORE_RSP_0/1, "
				    "MSR_PEBS_LD_LAT_THRESHOLD and MSR_PEBS_FRONTEND)",
				    ev->extra_msr, (unsigned long long)ev->extra_value);
		return 0;
	}
	return fail_unknown(c, name);
}

static bool is_raw(const char *s)
{
	if (s[0] != 'r' || !s[1])
		return false;
	for (s++; *s; s++)
		if (!bp_isxdigit(*s))
			return false;
	return true;
}

/* perf's raw syntax rNNNN is the event select value without the enable
 * bits: [7:0] event, [15:8] umask, 18 edge, 23 inv, [31:24] cmask, and on
 * AMD [35:32] the event's bits 11:8 (PERF_CTL EventSelect[11:8]). */
static int resolve_raw(struct ctx *c, const char *s, struct pmu_event *ev)
{
	u64 v = 0;
	const u64 known = EVTSEL_EVENT_MASK | EVTSEL_UMASK_MASK | EVTSEL_EDGE | EVTSEL_INV |
			  EVTSEL_CMASK_MASK | (is_amd(c) ? AMD_EVTSEL_EVENT_HI_MASK : 0);

	for (s++; *s; s++) {
		if (v >> 60)
			return fail(c, "raw value too large");
		v = v << 4 | (u64)(bp_isdigit(*s) ? *s - '0' : bp_tolower(*s) - 'a' + 10);
	}
	if (v & ~known)
		return fail(c, "raw value 0x%llx sets bits other than event [7:0], "
			    "umask [15:8], edge 18, inv 23 and cmask [31:24]%s",
			    (unsigned long long)v, is_amd(c) ? " and event [35:32]" : "");
	ev->event = (u16)((v & EVTSEL_EVENT_MASK) |
			  (v & AMD_EVTSEL_EVENT_HI_MASK) >> AMD_EVTSEL_EVENT_HI_SHIFT << 8);
	ev->umask = (u8)((v & EVTSEL_UMASK_MASK) >> EVTSEL_UMASK_SHIFT);
	ev->edge = v & EVTSEL_EDGE;
	ev->inv = v & EVTSEL_INV;
	ev->cmask = (u8)((v & EVTSEL_CMASK_MASK) >> EVTSEL_CMASK_SHIFT);
	resolve_encoding(c, ev);
	return 0;
}

struct terms {
	const char *base;	/* an event name given as a term */
	bool have_event, have_umask;
	u64 event, umask, umask2, cmask, ldlat, offcore, frontend, period;
	bool set_cmask, inv, edge, any, eq, set_umask2, set_ldlat, set_offcore, set_frontend;
	char name[EVENT_NAME_MAX];
};

static int term_number(struct ctx *c, const char *key, const char *val, u64 max, u64 *out)
{
	if (!val || !*val)
		return fail(c, "term '%s' needs a value (%s=N)", key, key);
	if (!bp_parse_u64(val, out))
		return fail(c, "bad number '%s' for %s= (decimal, 0x hex or 0b binary)", val, key);
	if (*out > max)
		return fail(c, "%s=%s is out of range (at most 0x%llx)", key, val,
			    (unsigned long long)max);
	return 0;
}

static int parse_flag_term(struct ctx *c, const char *key, const char *val, bool *flag)
{
	u64 v = 1;
	if (val && term_number(c, key, val, 1, &v))
		return -1;
	*flag = v;
	return 0;
}

static int parse_term(struct ctx *c, char *term, struct terms *tm)
{
	char *eq = bp_strchr(term, '=');
	const char *val = NULL;

	if (eq) {
		*eq = 0;
		val = eq + 1;
	}
	if (!*term)
		return fail(c, "empty term in cpu/.../");
	if (!bp_strcmp(term, "event"))
		return (tm->have_event = true),
		       term_number(c, term, val, is_amd(c) ? AMD_EVENT_CODE_MAX : 0xff, &tm->event);
	if (!bp_strcmp(term, "umask"))
		return (tm->have_umask = true), term_number(c, term, val, 0xff, &tm->umask);
	if (!bp_strcmp(term, "umask2"))
		return (tm->set_umask2 = true), term_number(c, term, val, 0xff, &tm->umask2);
	if (!bp_strcmp(term, "eq"))
		return parse_flag_term(c, term, val, &tm->eq);
	if (!bp_strcmp(term, "cmask"))
		return (tm->set_cmask = true), term_number(c, term, val, 0xff, &tm->cmask);
	if (!bp_strcmp(term, "ldlat"))
		return (tm->set_ldlat = true),
		       term_number(c, term, val, PEBS_LD_LAT_THRESHOLD_MASK, &tm->ldlat);
	if (!bp_strcmp(term, "offcore_rsp"))
		return (tm->set_offcore = true), term_number(c, term, val, ~0ULL, &tm->offcore);
	if (!bp_strcmp(term, "frontend"))
		return (tm->set_frontend = true), term_number(c, term, val, 0xffffffffULL, &tm->frontend);
	if (!bp_strcmp(term, "period"))
		return term_number(c, term, val, ~0ULL >> 1, &tm->period);
	if (!bp_strcmp(term, "inv"))
		return parse_flag_term(c, term, val, &tm->inv);
	if (!bp_strcmp(term, "edge"))
		return parse_flag_term(c, term, val, &tm->edge);
	if (!bp_strcmp(term, "any"))
		return parse_flag_term(c, term, val, &tm->any);
	if (!bp_strcmp(term, "name")) {
		if (!val || !*val)
			return fail(c, "term 'name' needs a value (name=WORD)");
		bp_strlcpy(tm->name, val, sizeof(tm->name));
		return 0;
	}
	if (val)
		return fail(c, "unknown term '%s' (known: event, umask, umask2, cmask, inv, "
			    "edge, eq, any, ldlat, offcore_rsp, frontend, period, name)", term);
	if (tm->base)
		return fail(c, "two event names in cpu/.../ ('%s' and '%s')", tm->base, term);
	tm->base = term;
	return 0;
}

/* Extra-MSR terms only fit events that use that MSR. */
static int apply_extra_term(struct ctx *c, struct pmu_event *ev, bool set, u64 value,
			    u32 msr, const char *term, const char *example)
{
	if (!set)
		return 0;
	if (ev->extra_msr != msr && !(msr == MSR_OFFCORE_RSP_0 && ev->has_alt))
		return fail(c, "%s= applies only to events that use MSR 0x%x (e.g. %s)",
			    term, msr, example);
	ev->extra_msr = msr;
	ev->extra_value = value;
	if (ev->has_alt && msr == MSR_OFFCORE_RSP_0)
		ev->alt_extra_msr = MSR_OFFCORE_RSP_1;
	return 0;
}

static int build_from_terms(struct ctx *c, struct terms *tm, struct pmu_event *ev)
{
	if (tm->base && (tm->have_event || tm->have_umask))
		return fail(c, "give either an event name or event=/umask=, not both");
	if (!tm->base && !tm->have_event)
		return fail(c, "cpu/.../ needs event=N or an event name");
	if (tm->base) {
		if (resolve_name(c, tm->base, ev))
			return -1;
	}
	if (tm->set_cmask)
		ev->cmask = (u8)tm->cmask;
	ev->inv |= tm->inv;
	ev->edge |= tm->edge;
	ev->any |= tm->any;
	if (!tm->base) {
		ev->event = (u16)tm->event;
		ev->umask = (u8)tm->umask;
		resolve_encoding(c, ev);
	}
	if (tm->set_umask2)
		ev->umask_ext = (u8)tm->umask2;
	ev->eq |= tm->eq;
	if (apply_extra_term(c, ev, tm->set_ldlat, tm->ldlat, MSR_PEBS_LD_LAT_THRESHOLD,
			     "ldlat", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4") ||
	    apply_extra_term(c, ev, tm->set_offcore, tm->offcore, MSR_OFFCORE_RSP_0,
			     "offcore_rsp", "OCR.* events, event=0xb7") ||
	    apply_extra_term(c, ev, tm->set_frontend, tm->frontend, MSR_PEBS_FRONTEND,
			     "frontend", "FRONTEND_RETIRED.*"))
		return -1;
	ev->period = tm->period;
	if (tm->name[0])
		bp_strlcpy(ev->name, tm->name, sizeof(ev->name));
	return 0;
}

/* "cpu/TERMS/MODS": returns the modifier text through *mods. */
static int resolve_cpu_terms(struct ctx *c, char *body, struct pmu_event *ev,
			     const char **mods)
{
	struct terms tm;
	char *end = bp_strchr(body, '/');

	bp_memset(&tm, 0, sizeof(tm));
	if (!end)
		return fail(c, "missing closing '/' of cpu/.../");
	*end = 0;
	*mods = end[1] == ':' ? end + 2 : end + 1;
	for (char *term = body; term;) {
		char *comma = bp_strchr(term, ',');
		if (comma)
			*comma = 0;
		if (parse_term(c, term, &tm))
			return -1;
		term = comma ? comma + 1 : NULL;
	}
	return build_from_terms(c, &tm, ev);
}

/* The PERFEVTSEL extension (UMASK2, EQ) exists where CPUID.23H.0:EBX
 * says so; elsewhere those bits are reserved and the write #GPs (Linux
 * refuses them through x86_pmu.config_mask, intel_pmu_init). Checked
 * against the CPU, not a --cpu table (which has no CPUID). */
static int check_evtsel_extension(struct ctx *c, const struct pmu_event *ev)
{
	if (!c->caps || !c->caps->intel)
		return 0;
	if (ev->umask_ext && !c->caps->umask2)
		return fail(c, "needs UMASK2=0x%x (IA32_PERFEVTSELx[47:40]), which this CPU "
			    "does not have (CPUID.23H.0:EBX[0] = 0)", ev->umask_ext);
	if (ev->eq && !c->caps->evtsel_eq)
		return fail(c, "needs EQ (IA32_PERFEVTSELx[36]), which this CPU does not "
			    "have (CPUID.23H.0:EBX[1] = 0)");
	return 0;
}

static int refuse_ring_filter(struct ctx *c, const struct mods *m)
{
	if (!m->u && !m->k)
		return 0;
	return fail(c, "sampled by IBS, which cannot count one ring only (Linux's perf_ibs_init "
		    "refuses exclude_user/exclude_kernel); drop :%s", m->u ? "u" : "k");
}

/* perf's cycles:p on AMD (PERF_COUNT_HW_CPU_CYCLES with precise_ip, which
 * Linux forwards to ibs_op before any core counter is looked at): 0 when
 * forwarded, -1 on error, 1 when the event is not that. */
static int forward_cycles_to_ibs(struct ctx *c, const char *name, const char *mods,
				 struct pmu_event *ev)
{
	const struct generic_event *g = find_generic(name);
	struct mods m = { false, false, 0 };
	if (!c->caps || !c->caps->amd || !g || g->arch != ARCH_EVENT_CORE_CYCLES || !g->gp)
		return 1;
	if (parse_mods(c, mods, &m))
		return -1;
	if (!m.p)
		return 1;
	ev->event = AMD_EVENT_CYCLES_NOT_HALTED;
	if (apply_precise(c, ev, m.p) || refuse_ring_filter(c, &m))
		return -1;
	return 0;
}

/* "ibs_op/TERMS/MODS", "ibs_fetch/TERMS/MODS": Linux's IBS PMUs and
 * their format terms (arch/x86/events/amd/ibs.c: cnt_ctl config:19 for
 * ibs_op), plus bareperf's period= and name=. */
static u8 ibs_prefix(const char *s, size_t *len)
{
	if (bp_strncasecmp(s, "ibs_op/", 7) == 0)
		return (*len = 7), EVENT_IBS_OP;
	if (bp_strncasecmp(s, "ibs_fetch/", 10) == 0)
		return (*len = 10), EVENT_IBS_FETCH;
	return EVENT_IBS_NONE;
}

static int ibs_term(struct ctx *c, u8 unit, char *term, struct pmu_event *ev)
{
	char *eq = bp_strchr(term, '=');
	const char *val = eq ? eq + 1 : NULL;
	u64 v = 1;
	if (eq)
		*eq = 0;
	if (unit == EVENT_IBS_OP && !bp_strcmp(term, "cnt_ctl")) {
		if ((val && term_number(c, term, val, 1, &v)) || (v && check_cnt_ctl(c)))
			return -1;
		ev->ibs_cnt_ctl = v;
		return 0;
	}
	if (!bp_strcmp(term, "period"))
		return term_number(c, term, val, ~0ULL >> 1, &ev->period);
	if (!bp_strcmp(term, "name") && val && *val) {
		bp_strlcpy(ev->name, val, sizeof(ev->name));
		return 0;
	}
	return fail(c, "unknown term '%s' for %s// (known: %speriod, name)", term,
		    ibs_unit_name[unit], unit == EVENT_IBS_OP ? "cnt_ctl, " : "");
}

static int resolve_ibs(struct ctx *c, char *buf, u8 unit, size_t prefix, struct pmu_event *ev)
{
	char *body = buf + prefix, *end = bp_strchr(body, '/');
	struct mods m = { false, false, 0 };
	if (!end)
		return fail(c, "missing closing '/' of %s/.../", ibs_unit_name[unit]);
	*end = 0;
	if (check_ibs_unit(c, unit) ||
	    parse_mods(c, end[1] == ':' ? end + 2 : end + 1, &m))
		return -1;
	if (refuse_ring_filter(c, &m))
		return -1;
	if (m.p > 2)
		return fail(c, "IBS samples with precise levels 1 and 2; drop one 'p'");
	for (char *term = body; term && *term;) {
		char *comma = bp_strchr(term, ',');
		if (comma)
			*comma = 0;
		if (ibs_term(c, unit, term, ev))
			return -1;
		term = comma ? comma + 1 : NULL;
	}
	ev->precise = m.p;
	make_ibs(ev, unit, ev->ibs_cnt_ctl);
	return 0;
}

/* The last step every event takes: extra MSR values the user must give. */
static int check_extra_value(struct ctx *c, const struct pmu_event *ev)
{
	if (ev->extra_msr && ev->extra_value)
		return 0;
	if (ev->extra_msr == MSR_PEBS_LD_LAT_THRESHOLD)
		return fail(c, "a load-latency event needs a threshold: cpu/...,ldlat=N/");
	if (ev->extra_msr == MSR_OFFCORE_RSP_0 || (ev->has_alt && !ev->extra_msr))
		return fail(c, "an offcore-response event needs its request/response "
			    "mask: cpu/...,offcore_rsp=0x.../, or a named OCR.* event");
	if (ev->extra_msr == MSR_PEBS_FRONTEND)
		return fail(c, "a front-end event needs cpu/...,frontend=0x.../, or a "
			    "named FRONTEND_RETIRED.* event");
	return 0;
}

/* MSR_OFFCORE_RSP_x bits the part lacks #GP on write; Linux refuses them
 * (x86_pmu_extra_regs in arch/x86/events/intel/core.c checks config1
 * against each extra_reg's valid_mask). The table holds the part's mask
 * (events/events.h). A value that fits MSR_OFFCORE_RSP_0 but not _1 (the
 * Crestmont mask lacks bit 63 there) keeps to its own encoding. */
static int check_offcore_value(struct ctx *c, struct pmu_event *ev)
{
	bool rsp1 = ev->extra_msr == MSR_OFFCORE_RSP_1;
	if (!c->t || (ev->extra_msr != MSR_OFFCORE_RSP_0 && !rsp1))
		return 0;
	u64 valid = c->t->offcore_valid[rsp1];
	if (ev->extra_value & ~valid)
		return fail(c, "offcore_rsp=0x%llx sets bits 0x%llx that MSR_OFFCORE_RSP_%d "
			    "of %s does not have (valid: 0x%llx)",
			    (unsigned long long)ev->extra_value,
			    (unsigned long long)(ev->extra_value & ~valid), rsp1, model_name(c),
			    (unsigned long long)valid);
	if (ev->has_alt && (ev->extra_value & ~c->t->offcore_valid[1]))
		ev->has_alt = false;
	return 0;
}

int evparse_event(const char *text, const struct event_table *t,
		  const struct pmu_caps *caps, struct pmu_event *out,
		  char *err, size_t errlen)
{
	struct ctx c = { .t = t, .caps = caps, .err = err, .errlen = errlen, .token = text };
	char buf[TOKEN_MAX];
	const char *mods = "";
	struct mods m = { false, false, 0 };
	int rc;

	bp_memset(out, 0, sizeof(*out));
	out->group = -1;
	if (!*text)
		return fail(&c, "empty event");
	if (!t && (!caps || !caps_has_pmu(caps)))
		return fail(&c, "this CPU reports no PMU (CPUID.0AH) and no model was "
			    "named: give one with --cpu MODEL");
	if (bp_strlcpy(buf, text, sizeof(buf)) >= sizeof(buf))
		return fail(&c, "longer than %d characters", TOKEN_MAX - 1);
	bp_strlcpy(out->name, text, sizeof(out->name));
	size_t prefix;
	u8 unit = ibs_prefix(buf, &prefix);
	if (unit != EVENT_IBS_NONE)
		return resolve_ibs(&c, buf, unit, prefix, out);
	if (bp_strncasecmp(buf, "cpu/", 4) == 0) {
		rc = resolve_cpu_terms(&c, buf + 4, out, &mods);
	} else {
		char *colon = bp_strchr(buf, ':');
		if (colon) {
			*colon = 0;
			mods = colon + 1;
		}
		if (!buf[0])
			return fail(&c, "no event name before ':'");
		if ((rc = forward_cycles_to_ibs(&c, buf, mods, out)) <= 0)
			return rc;
		rc = is_raw(buf) ? resolve_raw(&c, buf, out) : resolve_name(&c, buf, out);
	}
	if (rc || parse_mods(&c, mods, &m) || apply_caps(&c, out) ||
	    check_extra_value(&c, out) || check_offcore_value(&c, out) ||
	    check_evtsel_extension(&c, out) ||
	    apply_precise(&c, out, m.p))
		return -1;
	if (out->ibs && refuse_ring_filter(&c, &m))
		return -1;
	apply_rings(out, &m);
	return 0;
}

/* ---- lists and groups ------------------------------------------------- */

/* Length of the event starting at s: up to a ',' or '}' outside cpu/.../,
 * or up to a '{' (which is then an error the caller reports). */
static size_t event_length(const char *s)
{
	size_t n = 0;
	bool in_terms = false;

	if (bp_strncasecmp(s, "cpu/", 4) == 0) {
		n = 4;
		in_terms = true;
	} else if (ibs_prefix(s, &n) != EVENT_IBS_NONE) {
		in_terms = true;
	}
	for (; s[n]; n++) {
		if (in_terms) {
			in_terms = s[n] != '/';
			continue;
		}
		if (s[n] == ',' || s[n] == '}' || s[n] == '{')
			break;
	}
	return n;
}

struct list_state {
	struct ctx c;
	struct pmu_event *out;
	int max, count;
	int leader;		/* index of the open group's leader; -1: none */
	const char *group_mods;	/* modifiers after the group's '}:' */
	size_t group_mods_len;
};

/* Modifiers after '}' apply to every member of the group (perf's rule):
 * looks ahead from the first member to the closing brace. */
static void find_group_mods(struct list_state *st, const char *p)
{
	st->group_mods = "";
	st->group_mods_len = 0;
	for (;;) {
		p += event_length(p);
		if (*p != ',')
			break;
		p++;
	}
	if (p[0] != '}' || p[1] != ':')
		return;
	st->group_mods = p + 2;
	while (p[2 + st->group_mods_len] && p[2 + st->group_mods_len] != ',')
		st->group_mods_len++;
}

/* The member's text with the group's modifiers appended, as perf reads
 * "{a,b:u}:k": a:k and b:uk. */
static bool with_group_mods(const struct list_state *st, char *tok, size_t cap)
{
	size_t len = bp_strlen(tok);
	bool cpu = bp_strncasecmp(tok, "cpu/", 4) == 0;
	bool has_colon = !cpu && bp_strchr(tok, ':');

	if (!st->group_mods_len)
		return true;
	if (len + 1 + st->group_mods_len >= cap)
		return false;
	if (!cpu && !has_colon)
		tok[len++] = ':';
	bp_memcpy(tok + len, st->group_mods, st->group_mods_len);
	tok[len + st->group_mods_len] = 0;
	return true;
}

static int add_event(struct list_state *st, const char *s, size_t len)
{
	char tok[TOKEN_MAX];

	if (len == 0)
		return fail(&st->c, "empty event in the list (two commas, a comma at "
			    "an end, or empty braces) at '%.20s'", s);
	if (len >= sizeof(tok))
		return fail(&st->c, "event '%.40s...': longer than %d characters", s, TOKEN_MAX - 1);
	bp_memcpy(tok, s, len);
	tok[len] = 0;
	if (st->count == st->max)
		return fail(&st->c, "too many events: '%s' would be number %d, the "
			    "limit is %d", tok, st->count + 1, st->max);
	struct pmu_event *ev = &st->out[st->count];
	if (st->leader >= 0 && !with_group_mods(st, tok, sizeof(tok)))
		return fail(&st->c, "event '%s': too long with the group's modifiers", tok);
	if (evparse_event(tok, st->c.t, st->c.caps, ev, st->c.err, st->c.errlen))
		return -1;
	if (bp_strcmp(ev->name, tok) == 0 && len < sizeof(ev->name)) {
		bp_memcpy(ev->name, s, len);	/* the name as typed */
		ev->name[len] = 0;
	}
	ev->group = st->leader;
	st->count++;
	return 0;
}

static bool is_load_latency(const struct pmu_event *e)
{
	return e->event == EVENT_MEM_TRANS_RETIRED && e->umask == UMASK_LOAD_LATENCY;
}

static bool unit_has_aux(const struct pmu_event *ev, int n, int unit)
{
	for (int i = 0; i < n; i++)
		if ((ev[i].group == unit || i == unit) && ev[i].event == EVENT_MEM_LOADS_AUX &&
		    ev[i].umask == UMASK_MEM_LOADS_AUX)
			return true;
	return false;
}

/* The auxiliary event for load-latency event e: counting only, in the
 * same privilege levels. */
static int fill_aux(struct list_state *st, const struct pmu_event *e, struct pmu_event *aux)
{
	char raw[16];
	bp_snprintf(raw, sizeof(raw), "r%02x%02x", UMASK_MEM_LOADS_AUX, EVENT_MEM_LOADS_AUX);
	if (evparse_event(raw, st->c.t, st->c.caps, aux, st->c.err, st->c.errlen))
		return -1;
	bp_strlcpy(aux->name, "mem-loads-aux", sizeof(aux->name));
	aux->exclude_user = e->exclude_user;
	aux->exclude_kernel = e->exclude_kernel;
	aux->count_only = true;
	return 0;
}

/* Where a sampled load-latency event needs its auxiliary event counting
 * beside it (caps_mem_loads_aux), one is added to its group, as perf mem
 * records {mem-loads-aux,mem-loads}, unless the group has one. It goes at
 * the end of the list, so every event typed keeps its index (a hybrid
 * part's other core type adds none). */
static int add_mem_loads_aux(struct list_state *st)
{
	if (!st->c.caps || !caps_mem_loads_aux(st->c.caps))
		return st->count;
	for (int i = 0, typed = st->count; i < typed; i++) {
		struct pmu_event *e = &st->out[i];
		int unit = e->group >= 0 ? e->group : i;
		if (!is_load_latency(e) || !e->precise || unit_has_aux(st->out, st->count, unit))
			continue;
		if (st->count == st->max)
			return fail(&st->c, "'%s' needs mem-loads-aux counting in its group on this "
				    "core, and the list has no room for it (at most %d events)",
				    e->name, st->max);
		if (fill_aux(st, e, &st->out[st->count]))
			return -1;
		e->group = unit;
		st->out[st->count++].group = unit;
	}
	return st->count;
}

/* An IBS event samples alone on its own PMU: Linux's validate_group
 * refuses a group holding one with another event. */
static int check_ibs_group(struct list_state *st)
{
	int members = st->count - st->leader;
	for (int i = st->leader; i < st->count && members > 1; i++)
		if (st->out[i].ibs)
			return fail(&st->c, "%s cannot be in a group with other events: IBS samples "
				    "on its own, on no counter (Linux's validate_group)",
				    st->out[i].name);
	return 0;
}

static int close_group(struct list_state *st, const char **p)
{
	if (st->leader < 0)
		return fail(&st->c, "'}' without a matching '{' at '%.20s'", *p);
	if (check_ibs_group(st))
		return -1;
	*p += 1;
	if (**p == ':')
		*p += 1 + st->group_mods_len;
	st->leader = -1;
	st->group_mods_len = 0;
	return 0;
}

static int open_group(struct list_state *st, const char **p)
{
	if (st->leader >= 0)
		return fail(&st->c, "nested group: '{' inside a group at '%.20s'", *p);
	*p += 1;
	st->leader = st->count;
	find_group_mods(st, *p);
	return 0;
}

int evparse_list(const char *text, const struct event_table *t,
		 const struct pmu_caps *caps, struct pmu_event *out, int max,
		 char *err, size_t errlen)
{
	struct list_state st = { { .t = t, .caps = caps, .err = err, .errlen = errlen },
				 out, max, 0, -1, "", 0 };
	const char *p = text;

	if (!text || !*text)
		return fail(&st.c, "empty event list");
	for (;;) {
		if (*p == '{' && open_group(&st, &p))
			return -1;
		size_t len = event_length(p);
		if (p[len] == '{')
			return fail(&st.c, st.leader >= 0 ? "nested group: '{' inside a group at '%.20s'"
				    : "'{' in the middle of an event at '%.20s'", p + len);
		if (add_event(&st, p, len))
			return -1;
		p += len;
		if (*p == '}' && close_group(&st, &p))
			return -1;
		if (!*p)
			break;
		if (*p != ',')
			return fail(&st.c, "expected ',' after an event or group at '%.20s'", p);
		p++;
		if (!*p)
			return fail(&st.c, "empty event at the end of the list (trailing ',')");
	}
	if (st.leader >= 0)
		return fail(&st.c, "group opened with '{' is never closed");
	return add_mem_loads_aux(&st);
}
