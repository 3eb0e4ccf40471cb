/* The counter scheduler (see sched.h for what it guarantees).
 *
 * Three independent conditions decide whether a set of events fits:
 *  1. taken-alone: a taken-alone event is the only event of the set;
 *  2. extra MSRs: events sharing an extra MSR agree on its value;
 *  3. counters: a matching gives every event its own allowed counter.
 * (1) and (2) are properties of the set; (3) is a bipartite matching. A
 * set that passes all three is placed by a minimum-cost assignment
 * (Hungarian method) whose costs encode the preferences: keep previous
 * counters first, then fixed counters for events that have one. */
#include "sched.h"
#include "../lib/str.h"
#include "../arch/caps.h"
#include "../arch/msr.h"

/* Costs of the assignment. A move must outweigh every fixed-counter
 * preference together (at most SCHED_MAX_EVENTS of them), and a forbidden
 * pair must outweigh any valid assignment. */
#define COST_GP_INSTEAD_OF_FIXED 1
#define COST_MOVE   (2 * SCHED_MAX_EVENTS)
#define COST_BAR    ((s64)1 << 24)
#define COST_INF    ((s64)1 << 50)

void sched_ctx_from_caps(struct sched_ctx *ctx, const struct pmu_caps *caps)
{
	ctx->gp_mask = caps->gp_mask;
	ctx->fixed_mask = caps->fixed_mask;
	ctx->offcore_swap = true;	/* only events whose table gives an alternate move */
}

const char *sched_reason_name(enum sched_reason r)
{
	switch (r) {
	case SCHED_OK:             return "ok";
	case SCHED_INVALID:        return "invalid input";
	case SCHED_NO_COUNTER:     return "no usable counter on this CPU";
	case SCHED_COUNTERS_TAKEN: return "counters taken";
	case SCHED_TAKEN_ALONE:    return "taken alone";
	case SCHED_EXTRA_MSR:      return "extra MSR conflict";
	case SCHED_GROUP:          return "group member cannot be placed";
	}
	return "?";
}

static u64 fixed_bits(u32 fixed) { return (u64)fixed << COUNTER_FIXED_BASE; }

u64 sched_wanted(const struct pmu_event *e)
{
	u32 gp = e->gp_allowed, fixed = e->fixed_allowed;
	if (e->precise) {	/* a precise event samples through PEBS only */
		gp &= e->pebs_gp;
		fixed &= e->pebs_fixed;
	}
	return gp | fixed_bits(fixed);
}

/* AMD's large-increment events (events/event.h amd_pair) take an even GP
 * counter and the odd one after it, which counts the Merge event: Linux's
 * pair_constraint (arch/x86/events/amd/core.c, amd_core_pmu_init: "they
 * may only be assigned an even numbered counter that has a consecutive
 * adjacent odd numbered counter following it"). The even counters of
 * `present` whose odd neighbour is present too: */
static u64 pair_heads(u64 present)
{
	return present & (present >> 1) & 0x55555555ull;
}

/* The counters an event holds when it sits on counter c. */
static u64 held_by(const struct pmu_event *e, int c)
{
	return e->amd_pair ? BIT(c) | BIT(c + 1) : BIT(c);
}

static u64 allowed_in(const struct pmu_event *e, u64 present)
{
	u64 allowed = sched_wanted(e) & present;
	return e->amd_pair ? allowed & pair_heads(present) : allowed;
}

u64 sched_allowed(const struct sched_ctx *ctx, const struct pmu_event *e)
{
	return allowed_in(e, ctx->gp_mask | fixed_bits(ctx->fixed_mask));
}

static int lowest_bit(u64 m) { return __builtin_ctzll(m); }
static int bit_count(u64 m)  { return __builtin_popcountll(m); }

static u64 pair_events(const struct pmu_event *ev, int n)
{
	u64 pairs = 0;
	for (int i = 0; i < n; i++)
		if (ev[i].amd_pair)
			pairs |= BIT(i);
	return pairs;
}

/* ---- groups ------------------------------------------------------------ */

int sched_unit_of(const struct pmu_event *ev, int n, int i)
{
	int g = ev[i].group;
	return g >= 0 && g < n ? g : i;
}

u64 sched_unit_members(const struct pmu_event *ev, int n, int u)
{
	u64 m = 0;
	for (int i = 0; i < n; i++)
		if (sched_unit_of(ev, n, i) == u)
			m |= BIT(i);
	return m;
}

static bool input_valid(const struct pmu_event *ev, int n)
{
	if (n < 0 || n > SCHED_MAX_EVENTS)
		return false;
	for (int i = 0; i < n; i++)
		if (ev[i].group < -1 || ev[i].group >= n)
			return false;
	return true;
}

/* ---- condition 1: taken-alone ------------------------------------------ */

/* The first taken-alone event in `set` when the set has more than one
 * event, else -1. An auxiliary event the facility itself needs (count
 * only: mem-loads-aux beside a load-latency event, which Intel's tables
 * mark taken alone and Linux schedules with it) does not count. */
static int alone_violation(const struct pmu_event *ev, u64 set)
{
	u64 counted = 0;
	for (u64 m = set; m; m &= m - 1)
		if (!ev[lowest_bit(m)].count_only)
			counted |= BIT(lowest_bit(m));
	if (bit_count(counted) < 2)
		return -1;
	set = counted;
	for (u64 m = set; m; m &= m - 1)
		if (ev[lowest_bit(m)].taken_alone)
			return lowest_bit(m);
	return -1;
}

/* ---- condition 2: extra MSRs -------------------------------------------- */

struct extra_slot {
	u32 msr;
	u64 value;
	int holder;		/* first event that set the value; -1: free */
};

struct extra_state {
	struct extra_slot slot[SCHED_MAX_EVENTS + 2];
	int count;
};

static struct extra_slot *extra_slot(struct extra_state *st, u32 msr)
{
	for (int i = 0; i < st->count; i++)
		if (st->slot[i].msr == msr)
			return &st->slot[i];
	struct extra_slot *s = &st->slot[st->count++];
	s->msr = msr;
	s->value = 0;
	s->holder = -1;
	return s;
}

static bool is_offcore_msr(u32 msr)
{
	return msr == MSR_OFFCORE_RSP_0 || msr == MSR_OFFCORE_RSP_1;
}

/* The alternate must be the other MSR of the offcore pair: extra_solve()
 * is exact only when every movable event chooses within the same pair. */
bool sched_offcore_swappable(const struct sched_ctx *ctx, const struct pmu_event *e)
{
	return ctx->offcore_swap && e->has_alt && is_offcore_msr(e->extra_msr) &&
	       is_offcore_msr(e->alt_extra_msr) && e->alt_extra_msr != e->extra_msr;
}

bool sched_event_use_msr(struct pmu_event *e, u32 msr)
{
	if (!e->has_alt || !msr || msr == e->extra_msr || msr != e->alt_extra_msr)
		return false;
	u8 event = e->event, umask = e->umask;
	e->event = e->alt_event;
	e->umask = e->alt_umask;
	e->alt_event = event;
	e->alt_umask = umask;
	e->alt_extra_msr = e->extra_msr;
	e->extra_msr = msr;
	return true;
}

static bool slot_takes(struct extra_slot *s, u64 value, int e)
{
	if (s->holder < 0) {
		s->holder = e;
		s->value = value;
		return true;
	}
	return s->value == value;
}

/* Chooses the extra MSR of every event in `set` so that events on the same
 * MSR agree on its value. Events bound to one MSR go first; then each
 * swappable event takes an MSR that already holds its value, else a free
 * one, its own first. This is exact: every swappable event chooses within
 * the same pair (sched_offcore_swappable), and once the bound values are
 * in, any free MSR of the pair serves any remaining value equally well. Returns
 * -1 on success, else the event that found no MSR (and in *holder, when
 * not NULL, the event whose value is in its way). */
static int extra_solve(const struct sched_ctx *ctx, const struct pmu_event *ev, u64 set,
		       bool swap, u32 *msr_out, int *holder)
{
	struct extra_state st;
	st.count = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (u64 m = set; m; m &= m - 1) {
			int e = lowest_bit(m);
			const struct pmu_event *p = &ev[e];
			if (!p->extra_msr)
				continue;
			bool swappable = swap && sched_offcore_swappable(ctx, p);
			if (swappable != (pass == 1))
				continue;
			u32 use = p->extra_msr;
			struct extra_slot *own = extra_slot(&st, use);
			if (swappable) {
				struct extra_slot *other = extra_slot(&st, p->alt_extra_msr);
				bool own_same = own->holder >= 0 && own->value == p->extra_value;
				bool other_same = other->holder >= 0 && other->value == p->extra_value;
				if (!own_same && (other_same || own->holder >= 0)) {
					use = other->msr;
					own = other;
				}
			}
			if (!slot_takes(own, p->extra_value, e)) {
				if (holder)
					*holder = own->holder;
				return e;
			}
			if (msr_out)
				msr_out[e] = use;
		}
	}
	return -1;
}

/* ---- condition 3: counters, decided by augmenting paths ---------------- */

/* Kuhn's augmenting path from event e: take a free allowed counter, or one
 * whose holder can move elsewhere. Fixed counters are tried first so that
 * partial placements prefer them too. `visited` collects the counters
 * reached: on failure, exactly those reachable by alternating paths. */
static bool augment(struct sched_set *s, int e, u64 *visited)
{
	u64 cand = s->allowed[e] & ~*visited;
	u64 order[2] = { cand & ~(u64)0xffffffffu, cand & 0xffffffffu };
	for (int half = 0; half < 2; half++) {
		for (u64 m = order[half]; m; m &= m - 1) {
			int c = lowest_bit(m);
			if (*visited & BIT(c))
				continue;
			*visited |= BIT(c);
			int holder = s->event_on[c];
			if (holder < 0 || augment(s, holder, visited)) {
				s->event_on[c] = (int8_t)e;
				s->counter_of[e] = (int8_t)c;
				return true;
			}
		}
	}
	return false;
}

static u64 holders_of(const struct sched_set *s, u64 counters)
{
	u64 evs = 0;
	for (u64 m = counters; m; m &= m - 1) {
		int h = s->event_on[lowest_bit(m)];
		if (h >= 0)
			evs |= BIT(h);
	}
	return evs;
}

enum sched_reason sched_set_init(struct sched_set *s, const struct sched_ctx *ctx,
				 const struct pmu_event *ev, int n)
{
	s->ctx = ctx;
	s->ev = ev;
	s->n = n;
	s->members = 0;
	s->swap = ctx->offcore_swap;
	bp_memset(s->event_on, -1, sizeof(s->event_on));
	bp_memset(s->counter_of, -1, sizeof(s->counter_of));
	if (!input_valid(ev, n))
		return SCHED_INVALID;
	for (int i = 0; i < n; i++)
		s->allowed[i] = sched_allowed(ctx, &ev[i]);
	s->pairs = pair_events(ev, n);
	return SCHED_OK;
}

static void blame(struct sched_report *why, u64 events, enum sched_reason r, int culprit)
{
	if (!why)
		return;
	for (u64 m = events; m; m &= m - 1) {
		why->reason[lowest_bit(m)] = (u8)r;
		why->culprit[lowest_bit(m)] = (int8_t)culprit;
	}
}

/* Marks the rest of a failed group: `failed` is the member that failed. */
static void blame_group(struct sched_report *why, u64 events, int failed, enum sched_reason r)
{
	blame(why, events & ~BIT(failed), SCHED_GROUP, failed);
	if (why)
		why->reason[failed] = (u8)r;
}

/* An event of `existing` to name as the other side of a conflict (the
 * first one, or -1). */
static int first_of(u64 set) { return set ? lowest_bit(set) : -1; }

/* Could a and b want the same extra MSR (their own or alternate one)? */
static bool same_extra_family(const struct sched_ctx *ctx, const struct pmu_event *a,
			      const struct pmu_event *b)
{
	u32 a_alt = sched_offcore_swappable(ctx, a) ? a->alt_extra_msr : 0;
	u32 b_alt = sched_offcore_swappable(ctx, b) ? b->alt_extra_msr : 0;
	if (!a->extra_msr || !b->extra_msr)
		return false;
	return a->extra_msr == b->extra_msr || a->extra_msr == b_alt ||
	       (a_alt && (a_alt == b->extra_msr || a_alt == b_alt));
}

static enum sched_reason set_conditions(struct sched_set *s, u64 events, struct sched_report *why)
{
	u64 all = s->members | events;
	for (u64 m = events; m; m &= m - 1) {
		int e = lowest_bit(m);
		if (!s->allowed[e]) {
			blame_group(why, events, e, SCHED_NO_COUNTER);
			return SCHED_NO_COUNTER;
		}
	}
	int alone = alone_violation(s->ev, all);
	if (alone >= 0) {
		/* Blame the new events; name the other side of the conflict. */
		int other = (events & BIT(alone)) ? first_of(all & ~BIT(alone)) : alone;
		blame(why, events, SCHED_TAKEN_ALONE, other);
		return SCHED_TAKEN_ALONE;
	}
	int holder = -1;
	int bad = extra_solve(s->ctx, s->ev, all, s->swap, NULL, &holder);
	if (bad >= 0) {
		/* The conflict may surface at an event already in the set: blame
		 * the new event that shares its MSR and name the old one. */
		int failed = bad, culprit = holder;
		if (!(events & BIT(bad))) {
			failed = first_of(events);
			for (u64 m = events; m; m &= m - 1)
				if (same_extra_family(s->ctx, &s->ev[lowest_bit(m)], &s->ev[bad])) {
					failed = lowest_bit(m);
					break;
				}
			culprit = bad;
		}
		blame_group(why, events, failed, SCHED_EXTRA_MSR);
		if (why)
			why->culprit[failed] = (int8_t)culprit;
		return SCHED_EXTRA_MSR;
	}
	return SCHED_OK;
}

static bool place_min_cost(const u64 *allowed, const int *prev, u64 events, u64 pairs,
			   u64 taken, int *out);

/* The counters `events` could hold, a pair event's odd neighbours too. */
static u64 reach_of(const struct sched_set *s, u64 events)
{
	u64 reach = 0;
	for (u64 m = events; m; m &= m - 1) {
		u64 a = s->allowed[lowest_bit(m)];
		reach |= (s->pairs & BIT(lowest_bit(m))) ? a | a << 1 : a;
	}
	return reach;
}

/* sched_set_add() once a pair event is in the set: augmenting paths move
 * one event per counter, so the whole set is placed again at minimum cost,
 * each member's counter as its previous one (it stays unless it must
 * move). On failure every member of the set and the add are the rivals. */
static enum sched_reason add_with_pairs(struct sched_set *s, u64 events, struct sched_report *why)
{
	u64 all = s->members | events;
	int prev[SCHED_MAX_EVENTS], out[SCHED_MAX_EVENTS];
	for (int i = 0; i < s->n; i++)
		prev[i] = s->counter_of[i] >= 0 ? s->counter_of[i] : COUNTER_NONE;
	if (!place_min_cost(s->allowed, prev, all, s->pairs, 0, out)) {
		u64 pair_added = events & s->pairs;
		int e = lowest_bit(pair_added ? pair_added : events);
		if (why) {
			why->rivals[e] = all;
			why->rival_counters[e] = reach_of(s, all);
		}
		blame_group(why, events, e, SCHED_COUNTERS_TAKEN);
		return SCHED_COUNTERS_TAKEN;
	}
	bp_memset(s->event_on, -1, sizeof(s->event_on));
	for (u64 m = all; m; m &= m - 1) {
		int e = lowest_bit(m);
		s->counter_of[e] = (int8_t)out[e];
		s->event_on[out[e]] = (int8_t)e;
		if (s->pairs & BIT(e))
			s->event_on[out[e] + 1] = (int8_t)e;
	}
	s->members = all;
	return SCHED_OK;
}

enum sched_reason sched_set_add(struct sched_set *s, u64 events, struct sched_report *why)
{
	events &= ~s->members;
	if (!events)
		return SCHED_OK;
	enum sched_reason r = set_conditions(s, events, why);
	if (r != SCHED_OK)
		return r;

	if ((s->members | events) & s->pairs)
		return add_with_pairs(s, events, why);

	int8_t save_counter[SCHED_MAX_EVENTS], save_event[SCHED_MAX_COUNTERS];
	bp_memcpy(save_counter, s->counter_of, sizeof(save_counter));
	bp_memcpy(save_event, s->event_on, sizeof(save_event));
	for (u64 m = events; m; m &= m - 1) {
		int e = lowest_bit(m);
		u64 visited = 0;
		if (augment(s, e, &visited))
			continue;
		if (why) {
			why->rivals[e] = BIT(e) | holders_of(s, visited);
			why->rival_counters[e] = visited;
		}
		blame_group(why, events, e, SCHED_COUNTERS_TAKEN);
		bp_memcpy(s->counter_of, save_counter, sizeof(save_counter));
		bp_memcpy(s->event_on, save_event, sizeof(save_event));
		return SCHED_COUNTERS_TAKEN;
	}
	s->members |= events;
	return SCHED_OK;
}

/* ---- choosing among valid assignments: minimum cost -------------------- */

struct assign_problem {
	int rows;			/* events to place */
	int cols;			/* counters they may take */
	int8_t row_event[SCHED_MAX_EVENTS];
	int8_t col_counter[SCHED_MAX_COUNTERS];
	const u64 *allowed;
	const int *prev;		/* may be NULL */
	int8_t row_col[SCHED_MAX_EVENTS];	/* result */
};

static bool had_counter(const int *prev, int e)
{
	return prev && prev[e] != COUNTER_NONE;
}

static s64 pair_cost(const struct assign_problem *p, int e, int c)
{
	if (!(p->allowed[e] & BIT(c)))
		return COST_BAR;
	s64 cost = 0;
	if (had_counter(p->prev, e) && p->prev[e] != c)
		cost += COST_MOVE;
	if ((p->allowed[e] >> COUNTER_FIXED_BASE) && !counter_is_fixed(c))
		cost += COST_GP_INSTEAD_OF_FIXED;
	return cost;
}

/* The Hungarian method with potentials for a rows x cols cost matrix,
 * rows <= cols, O(rows^2 * cols); arrays are 1-based as in the textbook
 * formulation (index 0 is the virtual start column). Returns the total
 * cost; COST_BAR or more means no valid assignment exists. */
static s64 assign_min_cost(struct assign_problem *p)
{
	s64 u[SCHED_MAX_EVENTS + 1], v[SCHED_MAX_COUNTERS + 1], minv[SCHED_MAX_COUNTERS + 1];
	int match[SCHED_MAX_COUNTERS + 1], way[SCHED_MAX_COUNTERS + 1];
	bool used[SCHED_MAX_COUNTERS + 1];
	int rows = p->rows, cols = p->cols;

	if (rows > cols)
		return COST_BAR;
	for (int j = 0; j <= cols; j++) {
		v[j] = 0;
		match[j] = 0;
	}
	for (int i = 0; i <= rows; i++)
		u[i] = 0;
	for (int i = 1; i <= rows; i++) {
		int j0 = 0;
		match[0] = i;
		for (int j = 0; j <= cols; j++) {
			minv[j] = COST_INF;
			used[j] = false;
		}
		do {
			used[j0] = true;
			int i0 = match[j0], j1 = 0;
			s64 delta = COST_INF;
			for (int j = 1; j <= cols; j++) {
				if (used[j])
					continue;
				s64 cur = pair_cost(p, p->row_event[i0 - 1], p->col_counter[j - 1]) - u[i0] - v[j];
				if (cur < minv[j]) {
					minv[j] = cur;
					way[j] = j0;
				}
				if (minv[j] < delta) {
					delta = minv[j];
					j1 = j;
				}
			}
			for (int j = 0; j <= cols; j++) {
				if (used[j]) {
					u[match[j]] += delta;
					v[j] -= delta;
				} else {
					minv[j] -= delta;
				}
			}
			j0 = j1;
		} while (match[j0] != 0);
		do {
			int j1 = way[j0];
			match[j0] = match[j1];
			j0 = j1;
		} while (j0);
	}
	s64 total = 0;
	for (int j = 1; j <= cols; j++) {
		if (!match[j])
			continue;
		int row = match[j] - 1;
		p->row_col[row] = (int8_t)(j - 1);
		total += pair_cost(p, p->row_event[row], p->col_counter[j - 1]);
	}
	return total;
}

/* Places the events of `events` on counters outside `taken` at minimum
 * cost; writes out[] and returns the cost, or COST_BAR when they do not
 * fit (out[] untouched). */
static s64 place_plain(const u64 *allowed, const int *prev, u64 events, u64 taken, int *out)
{
	struct assign_problem p;
	u64 counters = 0;
	p.rows = 0;
	p.cols = 0;
	p.allowed = allowed;
	p.prev = prev;
	for (u64 m = events; m; m &= m - 1) {
		int e = lowest_bit(m);
		p.row_event[p.rows++] = (int8_t)e;
		counters |= allowed[e];
	}
	counters &= ~taken;
	for (u64 m = counters; m; m &= m - 1)
		p.col_counter[p.cols++] = (int8_t)lowest_bit(m);
	if (!p.rows)
		return 0;
	s64 cost = assign_min_cost(&p);
	if (cost >= COST_BAR)
		return COST_BAR;
	for (int r = 0; r < p.rows; r++)
		out[p.row_event[r]] = p.col_counter[p.row_col[r]];
	return cost;
}

/* The next set of the same number of bits (Gosper's hack). */
static u64 next_combination(u64 pick)
{
	u64 low = pick & (0 - pick), ripple = pick + low;
	return (((ripple ^ pick) >> 2) / low) | ripple;
}

/* The bits of `heads` that `pick` selects by position. */
static u64 select_bits(u64 heads, u64 pick)
{
	u64 out = 0;
	for (int k = 0; heads; heads &= heads - 1, k++)
		if (pick & BIT(k))
			out |= BIT(lowest_bit(heads));
	return out;
}

/* With pair events the placement is no longer a bipartite matching (a
 * pair event takes two counters). Which even counters the pair events
 * take is tried exhaustively, the pair events matched onto them and the
 * others onto what the pairs leave; the cheapest wins, ties to the first
 * tried. Zen has three pairs: at most three tries. */
static s64 place_with_pairs(const u64 *allowed, const int *prev, u64 events, u64 pairs,
			    u64 taken, int *out)
{
	u64 heads = 0;
	for (u64 m = pairs; m; m &= m - 1)
		heads |= allowed[lowest_bit(m)];
	heads &= ~taken & ~(taken >> 1);
	int need = bit_count(pairs), have = bit_count(heads);
	if (need > have)
		return COST_BAR;
	s64 best = COST_BAR;
	int trial[SCHED_MAX_EVENTS], chosen_out[SCHED_MAX_EVENTS];
	for (u64 pick = BIT(need) - 1; pick < BIT(have); pick = next_combination(pick)) {
		u64 chosen = select_bits(heads, pick);
		s64 cost = place_plain(allowed, prev, pairs, ~chosen, trial);
		if (cost < COST_BAR)
			cost += place_plain(allowed, prev, events & ~pairs,
					    taken | chosen | chosen << 1, trial);
		if (cost < best) {
			best = cost;
			bp_memcpy(chosen_out, trial, sizeof(trial));
		}
	}
	if (best < COST_BAR)
		for (u64 m = events; m; m &= m - 1)
			out[lowest_bit(m)] = chosen_out[lowest_bit(m)];
	return best;
}

/* Places `events` on counters outside `taken` at minimum cost, the pair
 * events among them (`pairs`) on two counters each; writes out[]. Returns
 * false if they do not fit. */
static bool place_min_cost(const u64 *allowed, const int *prev, u64 events, u64 pairs,
			   u64 taken, int *out)
{
	if (events & pairs)
		return place_with_pairs(allowed, prev, events, events & pairs, taken, out) < COST_BAR;
	return place_plain(allowed, prev, events, taken, out) < COST_BAR;
}

/* ---- the fast path: every previous counter kept ------------------------ */

/* Linux's x86_schedule_events first tries to give every event the counter
 * it had (its fast path); so does this, and places new events beside the
 * kept ones. On a steady multiplexing tick nothing changes, so one pass
 * over the list decides, without the full path's set-up. What it finds: */
struct kept_scan {
	u64 fresh;		/* active events without a previous counter */
	u64 taken;		/* counters the other active events keep */
	u64 extra;		/* active events with an extra MSR */
	u64 pairs;		/* active pair events (they hold two counters) */
	u64 allowed[SCHED_MAX_EVENTS];	/* set for the fresh events only */
};

/* The pass itself. False when the fast path cannot apply: bad input, a
 * partly active group, an event with no counter here, a previous counter
 * now forbidden, out of range or kept twice, nothing to keep, or a
 * taken-alone conflict. The full path then decides, and says why. */
static bool scan_kept(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
		      u64 active, const int *prev, struct kept_scan *k)
{
	u64 present = ctx->gp_mask | fixed_bits(ctx->fixed_mask);
	u64 fresh = 0, taken = 0, extra = 0, pairs = 0;
	bool any_alone = false;
	for (int i = 0; i < n; i++) {
		const struct pmu_event *e = &ev[i];
		int g = e->group;	/* -1, or its leader: active together */
		if (g != -1 && (g < 0 || g >= n || (((active >> i) ^ (active >> g)) & 1)))
			return false;
		if (!(active & BIT(i)))
			continue;
		u64 allowed = allowed_in(e, present);
		int c = prev[i];
		if (c == COUNTER_NONE) {
			if (!allowed)
				return false;
			fresh |= BIT(i);
			k->allowed[i] = allowed;
		} else if (c < 0 || c >= SCHED_MAX_COUNTERS || !(allowed & BIT(c)) ||
			   (taken & held_by(e, c))) {
			return false;
		}
		taken |= c == COUNTER_NONE ? 0 : held_by(e, c);
		pairs |= e->amd_pair ? BIT(i) : 0;
		any_alone |= e->taken_alone;
		extra |= e->extra_msr ? BIT(i) : 0;
	}
	k->fresh = fresh;
	k->taken = taken;
	k->extra = extra;
	k->pairs = pairs;
	if (any_alone && alone_violation(ev, active) >= 0)
		return false;
	return fresh != active;	/* nothing kept: the full path's work */
}

/* One new event beside kept ones: the counter place_min_cost() gives a
 * single row, without building the cost matrix. A new event has no move
 * cost, so its free counters cost the same except GP ones when it has a
 * fixed one (pair_cost); the Hungarian pass then takes the lowest index
 * among the cheapest. A pair event needs its odd neighbour free too. */
static int place_one_fresh(u64 allowed, u64 taken, bool pair)
{
	u64 open = allowed & ~taken & (pair ? ~(taken >> 1) : ~0ull);
	u64 open_fixed = open & fixed_bits(~0u);
	if (!open)
		return COUNTER_NONE;
	return lowest_bit(open_fixed ? open_fixed : open);
}

/* The new events of the fast path on the counters the kept ones leave;
 * writes only their out_counter entries, and only when they all fit. */
static bool place_fresh(const struct kept_scan *k, const int *prev, int *out_counter)
{
	if (!k->fresh)
		return true;
	if (k->fresh & (k->fresh - 1))
		return place_min_cost(k->allowed, prev, k->fresh, k->pairs, k->taken, out_counter);
	int e = lowest_bit(k->fresh);
	int c = place_one_fresh(k->allowed[e], k->taken, k->pairs & BIT(e));
	if (c == COUNTER_NONE)
		return false;
	out_counter[e] = c;
	return true;
}

/* The fast path: previous counters kept, new events matched on the free
 * counters at minimum cost. Returns the number of active events placed,
 * or -1 when the full path must decide; out_counter is then untouched (it
 * may be the prev array), out_extra_msr may not be. */
static int assign_kept(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
		       u64 active, const int *prev, int *out_counter, u32 *out_extra_msr)
{
	struct kept_scan k;
	if (!prev || n < 1 || n > SCHED_MAX_EVENTS)
		return -1;
	if (n < SCHED_MAX_EVENTS)
		active &= BIT(n) - 1;
	if (!scan_kept(ctx, ev, n, active, prev, &k))
		return -1;
	/* no output for the MSRs: no event may switch to its alternate one */
	bool swap = ctx->offcore_swap && out_extra_msr;
	for (int i = 0; out_extra_msr && i < n; i++)
		out_extra_msr[i] = 0;
	/* extra_solve() passes over events without an extra MSR: k.extra is
	 * the same set to it as `active`, and shorter */
	if (k.extra && extra_solve(ctx, ev, k.extra, swap, out_extra_msr, NULL) >= 0)
		return -1;
	if (!place_fresh(&k, prev, out_counter))
		return -1;
	for (int i = 0; i < n; i++)
		if (!(k.fresh & BIT(i)))
			out_counter[i] = (active & BIT(i)) ? prev[i] : COUNTER_NONE;
	return bit_count(active);
}

/* ---- the public entry points ------------------------------------------- */

/* Only the first n entries: the only ones anybody reads. */
static void report_init(struct sched_report *why, int n)
{
	if (!why)
		return;
	why->placed = 0;
	why->moved = 0;
	why->fast_path = false;
	for (int i = 0; i < n && i < SCHED_MAX_EVENTS; i++) {
		why->reason[i] = SCHED_OK;
		why->culprit[i] = -1;
		why->rivals[i] = 0;
		why->rival_counters[i] = 0;
	}
}

static void report_result(struct sched_report *why, const int *prev, const int *out, u64 active)
{
	if (!why)
		return;
	for (u64 m = active; m; m &= m - 1) {
		int e = lowest_bit(m);
		if (out[e] == COUNTER_NONE)
			continue;
		why->placed++;
		if (had_counter(prev, e) && prev[e] != out[e])
			why->moved++;
	}
}

/* The fast path's report: everything placed where it was, or new. */
static void report_kept(struct sched_report *why, int n, int placed)
{
	if (!why)
		return;
	report_init(why, n);
	why->placed = placed;
	why->fast_path = true;
}

/* Each event is active exactly when its unit's leader is. */
static bool whole_groups(const struct pmu_event *ev, int n, u64 active)
{
	for (int i = 0; i < n; i++) {
		int leader = sched_unit_of(ev, n, i);
		if (!(active & BIT(i)) != !(active & BIT(leader)))
			return false;
	}
	return true;
}

/* The set does not fit: keep units in list order while they fit. Returns
 * minus the reason of the first unplaced event that failed itself. */
static int place_partial(struct sched_set *s, u64 active, int *out, struct sched_report *why)
{
	for (int i = 0; i < s->n; i++) {
		if ((active & BIT(i)) && sched_unit_of(s->ev, s->n, i) == i)
			sched_set_add(s, sched_unit_members(s->ev, s->n, i), why);
	}
	for (u64 m = s->members; m; m &= m - 1)
		out[lowest_bit(m)] = s->counter_of[lowest_bit(m)];
	for (u64 m = active & ~s->members; m; m &= m - 1)
		if (why->reason[lowest_bit(m)] != SCHED_GROUP)
			return -(int)why->reason[lowest_bit(m)];
	return -SCHED_GROUP;	/* not reached: a failed group has a failed member */
}

int sched_assign_subset(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
			u64 active, const int *prev, int *out_counter,
			u32 *out_extra_msr, struct sched_report *why)
{
	int kept = assign_kept(ctx, ev, n, active, prev, out_counter, out_extra_msr);
	if (kept >= 0) {
		report_kept(why, n, kept);
		return kept;
	}
	struct sched_set s;
	struct sched_report local;
	int prev_copy[SCHED_MAX_EVENTS];
	if (!why)
		why = &local;	/* the partial placement needs the reasons */
	if (prev && n >= 0 && n <= SCHED_MAX_EVENTS) {
		/* out_counter may be the prev array itself */
		bp_memcpy(prev_copy, prev, (size_t)n * sizeof(int));
		prev = prev_copy;
	}
	report_init(why, n);
	if (sched_set_init(&s, ctx, ev, n) != SCHED_OK) {
		if (n >= 0 && n <= SCHED_MAX_EVENTS)
			blame(why, active, SCHED_INVALID, -1);
		return -SCHED_INVALID;
	}
	s.swap = s.swap && out_extra_msr;
	if (n < SCHED_MAX_EVENTS)
		active &= BIT(n) - 1;
	if (!whole_groups(ev, n, active)) {
		blame(why, active, SCHED_INVALID, -1);
		return -SCHED_INVALID;
	}
	for (int i = 0; i < n; i++) {
		out_counter[i] = COUNTER_NONE;
		if (out_extra_msr)
			out_extra_msr[i] = (active & BIT(i)) ? ev[i].extra_msr : 0;
	}

	bool fits = alone_violation(ev, active) < 0 &&
		    extra_solve(ctx, ev, active, s.swap, out_extra_msr, NULL) < 0;
	for (u64 m = active; m; m &= m - 1)
		fits = fits && s.allowed[lowest_bit(m)] != 0;
	if (!fits || !place_min_cost(s.allowed, prev, active, s.pairs, 0, out_counter)) {
		for (int i = 0; i < n; i++) {
			out_counter[i] = COUNTER_NONE;
			if (out_extra_msr)
				out_extra_msr[i] = 0;
		}
		int r = place_partial(&s, active, out_counter, why);
		if (out_extra_msr) {
			for (u64 m = s.members; m; m &= m - 1)
				out_extra_msr[lowest_bit(m)] = ev[lowest_bit(m)].extra_msr;
			extra_solve(ctx, ev, s.members, s.swap, out_extra_msr, NULL);
		}
		report_result(why, prev, out_counter, active);
		return r;
	}
	report_result(why, prev, out_counter, active);
	return bit_count(active);
}

int sched_assign(const struct sched_ctx *ctx, const struct pmu_event *ev, int n,
		 const int *prev, int *out_counter, u32 *out_extra_msr,
		 struct sched_report *why)
{
	if (n < 0 || n > SCHED_MAX_EVENTS) {
		report_init(why, 0);
		return -SCHED_INVALID;
	}
	u64 all = n == SCHED_MAX_EVENTS ? ~0ull : BIT(n) - 1;
	return sched_assign_subset(ctx, ev, n, all, prev, out_counter, out_extra_msr, why);
}
