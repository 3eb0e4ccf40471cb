/* Human-readable reasons for a failed placement (sched_explain), and the
 * counter names used in them. */
#include "sched.h"
#include "../lib/fmt.h"
#include "../lib/str.h"
#include "../arch/msr.h"

/* Appends formatted text at *pos, never past len; *pos keeps counting the
 * full length so the caller can report it like snprintf. */
struct text {
	char *buf;
	size_t len;
	size_t pos;
};

static void PRINTF_LIKE(2, 3) put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = t->pos < t->len ? t->len - t->pos : 0;
	int k = bp_vsnprintf(room ? t->buf + t->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (k > 0)
		t->pos += (size_t)k;
}

int sched_format_counter(int counter, char *buf, size_t len)
{
	if (counter == COUNTER_NONE)
		return bp_snprintf(buf, len, "none");
	return bp_snprintf(buf, len, "%s%u", counter_is_fixed(counter) ? "fixed" : "gp",
			   counter_index(counter));
}

/* One run of consecutive counters of one kind: "gp0-3" or "fixed1". */
static void put_range(struct text *t, const char *kind, unsigned lo, unsigned hi)
{
	if (lo == hi)
		put(t, "%s%u", kind, lo);
	else
		put(t, "%s%u-%u", kind, lo, hi);
}

static void put_kind(struct text *t, const char *kind, u32 bits, bool *first)
{
	for (unsigned i = 0; i < 32; i++) {
		if (!(bits & (1u << i)))
			continue;
		unsigned hi = i;
		while (hi + 1 < 32 && (bits & (1u << (hi + 1))))
			hi++;
		put(t, "%s", *first ? "" : ",");
		put_range(t, kind, i, hi);
		*first = false;
		i = hi;
	}
}

static void put_counters(struct text *t, u64 mask)
{
	bool first = true;
	if (!mask)
		put(t, "none");
	put_kind(t, "gp", (u32)mask, &first);
	put_kind(t, "fixed", (u32)(mask >> COUNTER_FIXED_BASE), &first);
}

int sched_format_counters(u64 mask, char *buf, size_t len)
{
	struct text t = { buf, len, 0 };
	if (len)
		buf[0] = 0;
	put_counters(&t, mask);
	return (int)t.pos;
}

const char *sched_msr_name(u32 msr)
{
	switch (msr) {
	case MSR_OFFCORE_RSP_0:         return "MSR_OFFCORE_RSP_0";
	case MSR_OFFCORE_RSP_1:         return "MSR_OFFCORE_RSP_1";
	case MSR_PEBS_LD_LAT_THRESHOLD: return "MSR_PEBS_LD_LAT_THRESHOLD";
	case MSR_PEBS_FRONTEND:         return "MSR_PEBS_FRONTEND";
	}
	return NULL;
}

static void put_msr(struct text *t, u32 msr)
{
	const char *name = sched_msr_name(msr);
	if (name)
		put(t, "%s", name);
	else
		put(t, "MSR 0x%x", msr);
}

/* The extra MSRs an event may use here: its own and, when it may move,
 * its alternate (0: none). */
static bool may_use_msr(const struct sched_ctx *ctx, const struct pmu_event *e, u32 msr)
{
	return msr && (msr == e->extra_msr ||
		       (sched_offcore_swappable(ctx, e) && msr == e->alt_extra_msr));
}

static const char *counter_word(const struct pmu_event *e)
{
	if (e->amd_pair)
		return "an even counter and the odd one after it (a large-increment "
		       "event: the odd one counts the Merge event)";
	return e->precise ? "a PEBS counter" : "a counter";
}

static void explain_no_counter(struct text *t, const struct sched_ctx *ctx, const struct pmu_event *e)
{
	u64 wanted = sched_wanted(e);
	u64 present = ctx->gp_mask | ((u64)ctx->fixed_mask << COUNTER_FIXED_BASE);
	if (e->precise && !wanted) {
		put(t, "cannot be sampled precisely (:p): no counter can do PEBS for it");
		return;
	}
	put(t, "needs %s among ", counter_word(e));
	put_counters(t, wanted);
	put(t, ", which this CPU does not have (it has ");
	put_counters(t, present);
	put(t, ")");
}

static void put_event_on(struct text *t, const struct pmu_event *ev, int i, const int *counter)
{
	char where[16];
	put(t, "%s", ev[i].name);
	if (counter[i] != COUNTER_NONE) {
		sched_format_counter(counter[i], where, sizeof(where));
		put(t, ev[i].amd_pair ? " (%s and the next)" : " (%s)", where);
	}
}

static bool rivals_hold_pairs(const struct pmu_event *ev, int n, u64 rivals)
{
	for (int i = 0; i < n; i++)
		if ((rivals & BIT(i)) && ev[i].amd_pair)
			return true;
	return false;
}

static void explain_taken(struct text *t, const struct sched_ctx *ctx, const struct pmu_event *ev,
			  int n, int e, const int *counter, const struct sched_report *why)
{
	u64 allowed = sched_allowed(ctx, &ev[e]);
	u64 rivals = why->rivals[e] & ~(u64)BIT(e);
	put(t, "needs %s among ", counter_word(&ev[e]));
	put_counters(t, allowed);
	put(t, ", all taken by ");
	bool first = true;
	for (int i = 0; i < n; i++) {
		if (!(rivals & BIT(i)))
			continue;
		put(t, "%s", first ? "" : ", ");
		put_event_on(t, ev, i, counter);
		first = false;
	}
	if (first)
		put(t, "other events");
	if (why->rival_counters[e] != allowed) {
		/* The holders could only move to counters held by yet other
		 * events: name the whole competing set (Hall's condition). */
		put(t, "; these %d events can only use ", __builtin_popcountll(why->rivals[e]));
		put_counters(t, why->rival_counters[e]);
		put(t, " (%d counters", __builtin_popcountll(why->rival_counters[e]));
		put(t, "%s)", rivals_hold_pairs(ev, n, why->rivals[e]) ? "; a pair event holds two" : "");
	}
}

static void explain_extra(struct text *t, const struct sched_ctx *ctx, const struct pmu_event *ev,
			  int n, int e, const int *counter, int culprit)
{
	const struct pmu_event *p = &ev[e];
	bool swappable = sched_offcore_swappable(ctx, p);
	put(t, "needs ");
	put_msr(t, p->extra_msr);
	if (swappable) {
		put(t, " or ");
		put_msr(t, p->alt_extra_msr);
	}
	put(t, " = 0x%llx, but %s ", (unsigned long long)p->extra_value,
	    swappable ? "they hold" : "it holds");
	bool first = true;
	for (int i = 0; i < n; i++) {
		const struct pmu_event *q = &ev[i];
		bool shares = may_use_msr(ctx, p, q->extra_msr) ||
			      (sched_offcore_swappable(ctx, q) && may_use_msr(ctx, p, q->alt_extra_msr));
		bool placed_or_culprit = counter[i] != COUNTER_NONE || i == culprit;
		if (i == e || !placed_or_culprit || !shares || q->extra_value == p->extra_value)
			continue;
		put(t, "%s0x%llx for %s", first ? "" : ", ", (unsigned long long)q->extra_value, q->name);
		first = false;
	}
	if (first)
		put(t, "another value");
}

/* Whether another event of the list has ev[e]'s name ("cycles" twice). */
static bool name_repeats(const struct pmu_event *ev, int n, int e)
{
	for (int i = 0; i < n; i++)
		if (i != e && bp_strcmp(ev[i].name, ev[e].name) == 0)
			return true;
	return false;
}

static void explain_one(struct text *t, const struct sched_ctx *ctx, const struct pmu_event *ev,
			int n, int e, const int *counter, const struct sched_report *why)
{
	int culprit = why->culprit[e];
	const char *other = culprit >= 0 && culprit < n ? ev[culprit].name : "another event";
	put(t, "%s", ev[e].name);
	if (name_repeats(ev, n, e))	/* which of the list's "branches" */
		put(t, " (event %d of the list)", e + 1);
	put(t, ": ");
	switch ((enum sched_reason)why->reason[e]) {
	case SCHED_NO_COUNTER:
		explain_no_counter(t, ctx, &ev[e]);
		break;
	case SCHED_COUNTERS_TAKEN:
		explain_taken(t, ctx, ev, n, e, counter, why);
		break;
	case SCHED_TAKEN_ALONE:
		if (ev[e].taken_alone)
			put(t, "must be the only event scheduled (taken alone), but %s is too", other);
		else
			put(t, "cannot run with %s, which must be the only event scheduled (taken alone)", other);
		break;
	case SCHED_EXTRA_MSR:
		explain_extra(t, ctx, ev, n, e, counter, culprit);
		break;
	case SCHED_GROUP:	/* said by put_kept_out, after its culprit */
		break;
	case SCHED_INVALID:
		put(t, "invalid event list (bad group index or too many events)");
		break;
	case SCHED_OK:
		break;
	}
	put(t, "\n");
}

/* Whether ev[c] has a reason of its own, the line a member it kept out
 * follows. */
static bool says_why(const struct sched_report *why, int n, int c)
{
	return c >= 0 && c < n && why->reason[c] != SCHED_OK && why->reason[c] != SCHED_GROUP;
}

/* Whether ev[m] is a member kept out by ev[culprit]'s failure (culprit -1:
 * by an event with no line of its own). */
static bool kept_out_by(const struct sched_report *why, int n, int m, int culprit)
{
	if (why->reason[m] != SCHED_GROUP)
		return false;
	return culprit >= 0 ? why->culprit[m] == culprit : !says_why(why, n, why->culprit[m]);
}

#define KEPT_OUT_NAMED 6	/* a kept-out line names this many, then counts the rest */

/* The group members one failure keeps out, on one line after its reason:
 * a 40-event group is one line, not 40 that repeat the culprit's name and
 * run past the caller's buffer. */
static void put_kept_out(struct text *t, const struct pmu_event *ev, int n,
			 const struct sched_report *why, int culprit)
{
	int members = 0;
	for (int m = 0; m < n; m++) {
		if (!kept_out_by(why, n, m, culprit))
			continue;
		if (members == 0)
			put(t, culprit >= 0 ? "  so its group is not placed either: "
					    : "not placed with their group: ");
		if (members < KEPT_OUT_NAMED)
			put(t, "%s%s", members ? ", " : "", ev[m].name);
		members++;
	}
	if (members > KEPT_OUT_NAMED)
		put(t, " and %d more", members - KEPT_OUT_NAMED);
	if (members)
		put(t, "\n");
}

int sched_explain(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
		  const int *counter, const struct sched_report *why,
		  char *buf, size_t len)
{
	struct text t = { buf, len, 0 };
	if (len)
		buf[0] = 0;
	if (n < 0 || n > SCHED_MAX_EVENTS) {
		put(&t, "invalid event list: %d events (at most %d)\n", n, SCHED_MAX_EVENTS);
		return (int)t.pos;
	}
	/* Each reason, then on one line the group members it keeps out: a
	 * caller with a short buffer keeps the lines that say why. */
	for (int e = 0; e < n; e++)
		if (why->reason[e] != SCHED_OK && why->reason[e] != SCHED_GROUP) {
			explain_one(&t, ctx, ev, n, e, counter, why);
			put_kept_out(&t, ev, n, why, e);
		}
	put_kept_out(&t, ev, n, why, -1);
	return (int)t.pos;
}
