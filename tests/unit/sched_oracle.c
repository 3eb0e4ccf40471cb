/* Test support for the scheduler (see sched_oracle.h). Host-only code. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "sched_oracle.h"
#include "arch/msr.h"

/* ---- the rules, restated from the documentation ------------------------ */

static u64 rule_allowed(const struct sched_ctx *ctx, const struct pmu_event *e)
{
	u32 gp = e->gp_allowed, fixed = e->fixed_allowed;
	if (e->precise > 0) {	/* precise: PEBS-capable counters only */
		gp &= e->pebs_gp;
		fixed &= e->pebs_fixed;
	}
	gp &= ctx->gp_mask;
	fixed &= ctx->fixed_mask;
	/* AMD large-increment events: "they may only be assigned an even
	 * numbered counter that has a consecutive adjacent odd numbered
	 * counter following it" (Linux amd_core_pmu_init, pair_constraint) */
	if (e->amd_pair) {
		u32 even = 0;
		for (int c = 0; c + 1 < 32; c += 2)
			if (ctx->gp_mask & (1u << (c + 1)))
				even |= 1u << c;
		gp &= even;
		fixed = 0;
	}
	return (u64)gp | ((u64)fixed << 32);
}

/* The counters an event holds on counter c: a pair event the next too. */
static u64 rule_holds(const struct pmu_event *e, int c)
{
	return e->amd_pair ? 3ull << c : 1ull << c;
}

/* An offcore event may move to its alternate encoding's MSR when the
 * context allows it and the alternate is the other offcore MSR (0x1A6 /
 * 0x1A7). */
static bool rule_offcore_msr(u32 msr) { return msr == 0x1A6 || msr == 0x1A7; }

static bool rule_swappable(const struct sched_ctx *ctx, const struct pmu_event *e)
{
	return ctx->offcore_swap && e->has_alt && rule_offcore_msr(e->extra_msr) &&
	       rule_offcore_msr(e->alt_extra_msr) && e->alt_extra_msr != e->extra_msr;
}

/* ---- oracle -------------------------------------------------------------- */

struct search {
	int k;				/* events to place */
	int idx[ORACLE_MAX_EVENTS];	/* their indexes in the list */
	u32 mask[ORACLE_MAX_EVENTS];	/* allowed counters, compressed */
	int cost[ORACLE_MAX_EVENTS][ORACLE_MAX_COUNTERS];
	bool pair[ORACLE_MAX_EVENTS];	/* holds the next counter too */
	u32 next[ORACLE_MAX_COUNTERS];	/* compressed bit of counter c + 1, or 0 */
	int *memo;			/* best cost of events i.. given used counters */
	int ncounters;
};

#define ORACLE_NONE 1000000
#define ORACLE_MOVE 1000	/* more than every fixed preference together */

/* Every assignment of events i..k-1 to unused counters; identical
 * sub-problems (same i, same used counters) are looked up, not redone. */
static int search_best(struct search *s, int i, u32 used)
{
	if (i == s->k)
		return 0;
	int *slot = &s->memo[(i << s->ncounters) | used];
	if (*slot >= 0)
		return *slot;
	int best = ORACLE_NONE;
	for (int c = 0; c < s->ncounters; c++) {
		u32 holds = (1u << c) | (s->pair[i] ? s->next[c] : 0);
		if (!(s->mask[i] & (1u << c)) || (used & holds))
			continue;
		int rest = search_best(s, i + 1, used | holds);
		if (rest < ORACLE_NONE && rest + s->cost[i][c] < best)
			best = rest + s->cost[i][c];
	}
	return *slot = best;
}

static bool extra_values_agree(const struct pmu_event *ev, const int *idx, int k, const u32 *msr)
{
	for (int a = 0; a < k; a++)
		for (int b = a + 1; b < k; b++)
			if (msr[a] && msr[a] == msr[b] &&
			    ev[idx[a]].extra_value != ev[idx[b]].extra_value)
				return false;
	return true;
}

/* Every choice of MSR for the swappable offcore events. */
static bool oracle_extra(const struct sched_ctx *ctx, const struct pmu_event *ev, const int *idx, int k)
{
	int swappable[ORACLE_MAX_EVENTS], ns = 0;
	u32 msr[ORACLE_MAX_EVENTS];
	for (int a = 0; a < k; a++) {
		msr[a] = ev[idx[a]].extra_msr;
		if (rule_swappable(ctx, &ev[idx[a]]))
			swappable[ns++] = a;
	}
	for (u32 choice = 0; choice < (1u << ns); choice++) {
		for (int j = 0; j < ns; j++) {
			u32 own = ev[idx[swappable[j]]].extra_msr;
			msr[swappable[j]] = (choice & (1u << j)) ? ev[idx[swappable[j]]].alt_extra_msr : own;
		}
		if (extra_values_agree(ev, idx, k, msr))
			return true;
	}
	return false;
}

struct oracle_best oracle_solve(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
				u64 active, const int *prev)
{
	struct oracle_best best = { false, 0, 0 };
	struct search s = { 0 };
	int counter_of_bit[ORACLE_MAX_COUNTERS];
	u64 present = ctx->gp_mask | ((u64)ctx->fixed_mask << 32);

	for (int c = 0; c < 64; c++)
		if (present & (1ull << c)) {
			if (s.ncounters == ORACLE_MAX_COUNTERS)
				abort();
			counter_of_bit[s.ncounters++] = c;
		}
	for (int i = 0; i < n; i++)
		if (active & (1ull << i)) {
			if (s.k == ORACLE_MAX_EVENTS)
				abort();
			s.idx[s.k++] = i;
		}
	for (int a = 0; a < s.k; a++)
		if (ev[s.idx[a]].taken_alone && s.k > 1)
			return best;
	if (!oracle_extra(ctx, ev, s.idx, s.k))
		return best;

	for (int b = 0; b < s.ncounters; b++)
		s.next[b] = b + 1 < s.ncounters && counter_of_bit[b + 1] == counter_of_bit[b] + 1 ?
			    1u << (b + 1) : 0;
	for (int a = 0; a < s.k; a++) {
		const struct pmu_event *e = &ev[s.idx[a]];
		u64 allowed = rule_allowed(ctx, e);
		s.pair[a] = e->amd_pair;
		bool has_fixed = (allowed >> 32) != 0;
		s.mask[a] = 0;
		for (int b = 0; b < s.ncounters; b++) {
			int c = counter_of_bit[b];
			if (allowed & (1ull << c))
				s.mask[a] |= 1u << b;
			bool moved = prev && prev[s.idx[a]] != COUNTER_NONE && prev[s.idx[a]] != c;
			s.cost[a][b] = (moved ? ORACLE_MOVE : 0) + (has_fixed && c < 32 ? 1 : 0);
		}
	}
	size_t entries = (size_t)(s.k + 1) << s.ncounters;
	s.memo = malloc(entries * sizeof(int));
	memset(s.memo, 0xff, entries * sizeof(int));	/* -1: not computed */
	int cost = search_best(&s, 0, 0);
	free(s.memo);
	if (cost >= ORACLE_NONE)
		return best;
	best.feasible = true;
	best.moves = cost / ORACLE_MOVE;
	best.gp_not_fixed = cost % ORACLE_MOVE;
	return best;
}

/* ---- checker --------------------------------------------------------------- */

static int leader_of(const struct pmu_event *ev, int n, int i)
{
	return ev[i].group >= 0 && ev[i].group < n ? ev[i].group : i;
}

const char *oracle_check(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
			 u64 placed, const int *counter, const u32 *extra_msr)
{
	static char msg[512];
	u64 used = 0;
	for (int i = 0; i < n; i++) {
		bool on = placed & (1ull << i);
		if (!on) {
			if (counter[i] != COUNTER_NONE)
				return snprintf(msg, sizeof(msg), "%s: has counter %d but is not placed",
						ev[i].name, counter[i]), msg;
			continue;
		}
		int c = counter[i];
		if (c < 0 || c >= 64 || !(rule_allowed(ctx, &ev[i]) & (1ull << c)))
			return snprintf(msg, sizeof(msg), "%s: counter %d not allowed", ev[i].name, c), msg;
		if (used & rule_holds(&ev[i], c))
			return snprintf(msg, sizeof(msg), "%s: counter %d used twice", ev[i].name, c), msg;
		used |= rule_holds(&ev[i], c);
		if (ev[i].taken_alone && __builtin_popcountll(placed) > 1)
			return snprintf(msg, sizeof(msg), "%s: taken alone but not alone", ev[i].name), msg;
		if (!(placed & (1ull << leader_of(ev, n, i))))
			return snprintf(msg, sizeof(msg), "%s: placed without its group leader", ev[i].name), msg;
		for (int j = 0; j < n; j++)
			if (leader_of(ev, n, j) == leader_of(ev, n, i) && !(placed & (1ull << j)))
				return snprintf(msg, sizeof(msg), "%s: group placed in part", ev[i].name), msg;
		u32 mi = extra_msr ? extra_msr[i] : ev[i].extra_msr;
		if (mi != ev[i].extra_msr && !(rule_swappable(ctx, &ev[i]) && mi == ev[i].alt_extra_msr))
			return snprintf(msg, sizeof(msg), "%s: uses MSR 0x%x it cannot", ev[i].name, mi), msg;
		for (int j = 0; j < i; j++) {
			u32 mj = extra_msr ? extra_msr[j] : ev[j].extra_msr;
			if ((placed & (1ull << j)) && mi && mi == mj && ev[i].extra_value != ev[j].extra_value)
				return snprintf(msg, sizeof(msg), "%s and %s: MSR 0x%x with two values",
						ev[j].name, ev[i].name, mi), msg;
		}
	}
	return NULL;
}

u64 oracle_placed(const int *counter, int n)
{
	u64 m = 0;
	for (int i = 0; i < n; i++)
		if (counter[i] != COUNTER_NONE)
			m |= 1ull << i;
	return m;
}

int oracle_gp_not_fixed(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
			const int *counter)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if ((rule_allowed(ctx, &ev[i]) >> 32) && !counter_is_fixed(counter[i]))
			k++;
	return k;
}

/* ---- greedy baseline ------------------------------------------------------- */

bool greedy_by_weight(const struct sched_ctx *ctx, const struct pmu_event *ev, int n, int *counter)
{
	int order[SCHED_MAX_EVENTS];
	u64 allowed[SCHED_MAX_EVENTS], used = 0;
	for (int i = 0; i < n; i++) {
		counter[i] = COUNTER_NONE;
		allowed[i] = rule_allowed(ctx, &ev[i]);
		/* insertion sort by weight, stable */
		int j = i;
		while (j > 0 && __builtin_popcountll(allowed[order[j - 1]]) > __builtin_popcountll(allowed[i])) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (int i = 0; i < n; i++) {
		if (ev[i].taken_alone && n > 1)
			return false;
		for (int j = 0; j < i; j++)
			if (ev[i].extra_msr && ev[i].extra_msr == ev[j].extra_msr &&
			    ev[i].extra_value != ev[j].extra_value)
				return false;
	}
	bool all = true;
	for (int k = 0; k < n; k++) {
		int e = order[k];
		u64 free_fixed = allowed[e] & ~used & ~0xffffffffull;
		u64 free_gp = allowed[e] & ~used & 0xffffffffull;
		u64 pick = free_fixed ? free_fixed : free_gp;
		if (!pick) {
			all = false;
			continue;
		}
		counter[e] = __builtin_ctzll(pick);
		used |= 1ull << counter[e];
	}
	return all;
}

/* ---- random sets ---------------------------------------------------------- */

u64 rng_next(u64 *state)
{
	u64 x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

void make_event(struct pmu_event *e, const char *name, u8 event, u8 umask, u32 gp_allowed, u32 fixed)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->event = event;
	e->umask = umask;
	e->gp_allowed = gp_allowed;
	e->fixed_allowed = fixed;
	e->group = -1;
}

/* Makes e an offcore event on MSR_OFFCORE_RSP_0 with an alternate
 * encoding for MSR_OFFCORE_RSP_1; its counters stay. */
static void set_offcore(struct pmu_event *e, u8 event, u8 umask, u8 alt_event, u8 alt_umask,
			u64 value)
{
	e->event = event;
	e->umask = umask;
	e->extra_msr = MSR_OFFCORE_RSP_0;
	e->extra_value = value;
	e->has_alt = true;
	e->alt_event = alt_event;
	e->alt_umask = alt_umask;
	e->alt_extra_msr = MSR_OFFCORE_RSP_1;
}

void make_offcore_event(struct pmu_event *e, const char *name, u8 event, u8 umask,
			u8 alt_event, u8 alt_umask, u64 value)
{
	make_event(e, name, event, umask, 0xf, 0);
	set_offcore(e, event, umask, alt_event, alt_umask, value);
}

void random_ctx(u64 *rng, struct sched_ctx *ctx, unsigned max_gp)
{
	unsigned gp = 2 + rng_below(rng, max_gp - 1);
	ctx->gp_mask = (1u << gp) - 1;
	if (rng_below(rng, 10) == 0)	/* a hole, as a hypervisor may leave */
		ctx->gp_mask &= ~(1u << rng_below(rng, gp - 1));
	ctx->fixed_mask = (1u << rng_below(rng, 5)) - 1;
	ctx->offcore_swap = rng_below(rng, 4) != 0;
}

static u32 random_gp_mask(u64 *rng)
{
	switch (rng_below(rng, 4)) {
	case 0:  return 0xff;
	case 1:  return 0x0f;
	case 2:  return 1u << rng_below(rng, 8);
	default: return (u32)(rng_next(rng) & 0xff) | 1u << rng_below(rng, 8);
	}
}

/* The second offcore encodings of the perfmon files: big cores up to Ice
 * Lake, Golden Cove and later, Atom cores (same code, umask 0x02). */
static const u8 offcore_pairs[3][4] = {
	{ 0xB7, 0x01, 0xBB, 0x01 }, { 0x2A, 0x01, 0x2B, 0x01 }, { 0xB7, 0x01, 0xB7, 0x02 },
};

static void random_extra(u64 *rng, struct pmu_event *e)
{
	unsigned r = rng_below(rng, 100);
	if (r < 12) {
		const u8 *pair = offcore_pairs[rng_below(rng, 3)];
		u64 value = 1 + rng_below(rng, 3);
		if (rng_below(rng, 5) == 0) {	/* bound to one MSR: no alternate */
			bool second = rng_below(rng, 2);
			e->event = pair[second ? 2 : 0];
			e->umask = pair[second ? 3 : 1];
			e->extra_msr = second ? MSR_OFFCORE_RSP_1 : MSR_OFFCORE_RSP_0;
			e->extra_value = value;
		} else {
			set_offcore(e, pair[0], pair[1], pair[2], pair[3], value);
		}
	} else if (r < 18) {
		e->event = 0xCD;
		e->umask = 1;
		e->extra_msr = MSR_PEBS_LD_LAT_THRESHOLD;
		e->extra_value = rng_below(rng, 2) ? 3 : 100;
	}
}

void random_events(u64 *rng, const struct sched_ctx *ctx, struct pmu_event *ev, int n, bool with_groups)
{
	for (int i = 0; i < n; i++) {
		struct pmu_event *e = &ev[i];
		char name[16];
		snprintf(name, sizeof(name), "e%d", i);
		unsigned kind = rng_below(rng, 100);
		if (kind < 8)		/* like ref-cycles: one fixed counter only */
			make_event(e, name, 0x00, 0x03, 0, 1u << rng_below(rng, 4));
		else if (kind < 28)	/* like instructions: fixed or any GP */
			make_event(e, name, 0x3C, 0x00, 0xff, 1u << rng_below(rng, 3));
		else
			make_event(e, name, (u8)(0x10 + rng_below(rng, 0xC0)), 1, random_gp_mask(rng), 0);
		if (rng_below(rng, 5) == 0) {
			e->precise = (u8)(1 + rng_below(rng, 3));
			e->pebs_gp = e->gp_allowed & (rng_below(rng, 2) ? 0xff : random_gp_mask(rng));
			e->pebs_fixed = rng_below(rng, 2) ? e->fixed_allowed : 0;
		}
		e->taken_alone = rng_below(rng, 33) == 0;
		random_extra(rng, e);
		if (with_groups && i > 0 && rng_below(rng, 5) == 0) {
			int leader = ev[i - 1].group >= 0 ? ev[i - 1].group : i - 1;
			ev[leader].group = leader;
			e->group = leader;
		}
	}
	(void)ctx;
}

void random_amd_ctx(u64 *rng, struct sched_ctx *ctx)
{
	ctx->gp_mask = rng_below(rng, 3) ? 0x3f : 0x0f;	/* PerfCtrExtCore, or legacy */
	if (rng_below(rng, 8) == 0)	/* a counter the firmware holds */
		ctx->gp_mask &= ~(1u << rng_below(rng, 6));
	ctx->fixed_mask = 0;
	ctx->offcore_swap = true;
}

void random_amd_events(u64 *rng, struct pmu_event *ev, int n, bool with_groups)
{
	for (int i = 0; i < n; i++) {
		struct pmu_event *e = &ev[i];
		char name[16];
		snprintf(name, sizeof(name), "e%d", i);
		make_event(e, name, (u8)(0x10 + rng_below(rng, 0xC0)), 1,
			   rng_below(rng, 4) ? 0x3f : 1u << rng_below(rng, 6), 0);
		if (rng_below(rng, 3) == 0) {	/* fp_ret_sse_avx_ops */
			e->event = 0x003;
			e->amd_pair = true;
			e->gp_allowed = 0x3f;
		}
		if (with_groups && i > 0 && rng_below(rng, 5) == 0) {
			int leader = ev[i - 1].group >= 0 ? ev[i - 1].group : i - 1;
			ev[leader].group = leader;
			e->group = leader;
		}
	}
}

void random_prev(u64 *rng, int n, int *prev)
{
	for (int i = 0; i < n; i++) {
		unsigned r = rng_below(rng, 10);
		if (r < 4)
			prev[i] = COUNTER_NONE;
		else if (r < 8)
			prev[i] = rng_below(rng, 2) ? (int)rng_below(rng, 8) : 32 + (int)rng_below(rng, 4);
		else if (r < 9 && i > 0)
			prev[i] = prev[rng_below(rng, (unsigned)i)];	/* a duplicate */
		else
			prev[i] = 40;	/* a counter that no CPU here has */
	}
}
