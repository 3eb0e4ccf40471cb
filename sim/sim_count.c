/* Counting: events happen on the current CPU in "segments" (a stretch of
 * run time, or a burst of injected occurrences), cycle by cycle as the SDM
 * describes the filters, but advanced in bulk up to the next overflow so
 * (or the next event of a counter whose PEBS is armed) so that long runs
 * stay cheap. At each overflow the model sets GLOBAL_STATUS, arms PEBS
 * and raises the PMI, and at the next event of an armed counter it runs
 * the PEBS assist, before counting on, so a handler sees the counters as
 * they were at that point. */
#include "sim_int.h"
#include "../lib/str.h"

enum source {
	SRC_NONE,	/* counts nothing in this segment */
	SRC_CYCLES,	/* unhalted core cycles */
	SRC_REF,	/* reference cycles at the TSC rate */
	SRC_XCLK,	/* the core crystal clock (UnHalted Reference Cycles on a GP counter) */
	SRC_INST,	/* instructions retired */
	SRC_SLOTS,	/* topdown slots */
	SRC_INJECT,	/* the segment's injected event */
	SRC_INJECT_LONE,	/* ... a large-increment one on a counter without Merge */
};

#define RUN_CHUNK_CYCLES  (1ULL << 23)
#define RUN_MAX           (1ULL << 40)
#define RUN_INSN_LEN      4	/* instruction length assumed for run IPs */

struct segment {
	bool run;
	u64 len;		/* cycles */
	u64 inst;		/* run: instructions over len */
	u16 event;		/* inject */
	u8 umask;
	u64 count;
	u32 per_cycle;
	bool qualifies;		/* inject: above the load-latency threshold and,
				 * for FRONTEND_RETIRED, the condition selected */
	u64 ref_frac0, xclk_frac0;
	struct sim_point pt;
	bool stop_at_pmi;	/* run: end the segment at the first PMI raised */
	u64 done;		/* cycles the segment ran (len unless stopped) */
	bool stopped;		/* it ended at a PMI */
};

/* ---- which counters count what ------------------------------------------------ */

static bool is_fixed(unsigned idx) { return idx >= SIM_FIXED_BASE; }

static u64 fixed_field(const struct sim_cpu *c, unsigned idx)
{
	return (c->r.fixed_ctrl >> (4 * (idx - SIM_FIXED_BASE))) & FIXED_CTRL_FIELD_MASK;
}

/* Load-latency events: filtered by MSR_PEBS_LD_LAT_THRESHOLD. */
static bool is_ld_lat_event(u16 event, u8 umask)
{
	return (event == EVENT_MEM_TRANS_RETIRED && umask == UMASK_LOAD_LATENCY) ||
	       (event == EVENT_MEM_INST_RETIRED && umask == UMASK_MEM_UOPS_RETIRED_LOAD_LATENCY) ||
	       (event == EVENT_MEM_INST_RETIRED_NHM &&
		umask == UMASK_MEM_INST_RETIRED_NHM_LATENCY_ABOVE_THRESHOLD);
}

/* SDM 20.2: a counter counts when enabled locally (EN, or a nonzero
 * fixed-counter field), globally (GLOBAL_CTRL, v2+), not frozen (CTR_FRZ,
 * v4), and when its USR/OS filter matches the current privilege level. */
static bool counting(const struct sim_cpu *c, unsigned idx)
{
	if (c->dead_counters & BIT(idx))
		return false;
	if (sim_global_gates() && !(c->r.global_ctrl & BIT(idx)))
		return false;
	if (c->r.global_status & GLOBAL_STATUS_CTR_FRZ)
		return false;
	if (is_fixed(idx)) {
		u64 f = fixed_field(c, idx);
		return c->cpl == 0 ? (f & FIXED_CTRL_OS) : (f & FIXED_CTRL_USR);
	}
	u64 sel = c->r.evtsel[idx];
	if (!(sel & EVTSEL_EN))
		return false;
	return c->cpl == 0 ? (sel & EVTSEL_OS) : (sel & EVTSEL_USR);
}

/* Fixed 0-3 count instructions, cycles, reference cycles and slots;
 * the E-cores' topdown fixed 4-6 split the slots: the model retires one
 * uop per instruction (retiring), predicts every branch (no bad
 * speculation) and never starves the front end; the rest of the slots
 * are backend bound, which no fixed counter counts. */
static enum source fixed_source(const struct sim_cpu *c, unsigned i)
{
	static const enum source src[] = {
		SRC_INST, SRC_CYCLES, SRC_REF, SRC_SLOTS,
		[FIXED_TOPDOWN_BAD_SPECULATION] = SRC_NONE,
		[FIXED_TOPDOWN_FE_BOUND] = SRC_NONE,
		[FIXED_TOPDOWN_RETIRING] = SRC_INST,
	};
	return i < ARRAY_SIZE(src) ? src[i] : SRC_NONE;
}

/* AMD: a unit mask selects sub-events and the counter counts those whose
 * bits are set (APM Vol. 2, "PerfEvtSeln": UnitMask); an occurrence of an
 * event without sub-events (umask 0) counts whatever the mask. */
static bool amd_umask_selects(u8 counter_umask, u8 occ_umask)
{
	return occ_umask == 0 || (counter_umask & occ_umask);
}

/* An odd AMD counter whose PERF_CTL selects the Merge event, enabled (with
 * PerfMonV2 globally too), extends the even counter `idx` below it into
 * one 64-bit counter (arch/msr.h AMD_EVENT_MERGE): the even one holds the
 * low 48 bits, the odd one the upper 16. */
static bool merge_extends(const struct sim_cpu *c, unsigned idx)
{
	unsigned odd = idx + 1;
	if (!sim_amd() || is_fixed(idx) || (idx & 1) || odd >= c->core->num_gp)
		return false;
	u64 sel = c->r.evtsel[odd];
	if (!(sel & EVTSEL_EN) || AMD_EVTSEL_EVENT_12BIT(sel) != AMD_EVENT_MERGE)
		return false;
	return !sim_global_gates() || (c->r.global_ctrl & BIT(odd));
}

static u64 merged_value(const struct sim_cpu *c, unsigned idx)
{
	u64 upper = c->r.pmc[idx + 1] & width_mask(AMD_MERGE_UPPER_BITS);
	return upper << AMD_COUNTER_WIDTH | c->r.pmc[idx];
}

static void set_merged(struct sim_cpu *c, unsigned idx, u64 v)
{
	c->r.pmc[idx] = v & width_mask(AMD_COUNTER_WIDTH);
	c->r.pmc[idx + 1] = v >> AMD_COUNTER_WIDTH;
}

/* AMD's run events: core cycles not in halt (0x76) and retired
 * instructions (0xC0), Linux's cycles and instructions on Zen
 * (amd_zen2_perfmon_event_map). HostOnly/GuestOnly do not matter: no
 * guest runs here (EFER.SVME = 0). A large-increment event counts whole
 * only on a merged pair; a lone counter adds at most 15 a cycle. */
static enum source amd_source(const struct sim_cpu *c, unsigned idx, const struct segment *s)
{
	u64 sel = c->r.evtsel[idx];
	u16 ev = AMD_EVTSEL_EVENT_12BIT(sel);
	u8 um = (u8)((sel & EVTSEL_UMASK_MASK) >> EVTSEL_UMASK_SHIFT);
	if (!s->run) {
		if (ev != s->event || !amd_umask_selects(um, s->umask) || !s->qualifies)
			return SRC_NONE;
		return ev == AMD_EVENT_FP_RET_SSE_AVX_OPS && !merge_extends(c, idx) ?
		       SRC_INJECT_LONE : SRC_INJECT;
	}
	if (ev == AMD_EVENT_CYCLES_NOT_HALTED)
		return SRC_CYCLES;
	if (ev == AMD_EVENT_RETIRED_INSTRUCTIONS)
		return SRC_INST;
	return SRC_NONE;
}

static enum source counter_source(const struct sim_cpu *c, unsigned idx,
				  const struct segment *s)
{
	if (is_fixed(idx))
		return s->run ? fixed_source(c, idx - SIM_FIXED_BASE) : SRC_NONE;
	if (sim_amd())
		return amd_source(c, idx, s);
	u8 ev = (u8)(c->r.evtsel[idx] & EVTSEL_EVENT_MASK);
	u8 um = (u8)((c->r.evtsel[idx] & EVTSEL_UMASK_MASK) >> EVTSEL_UMASK_SHIFT);
	if (!s->run)
		return ev == s->event && um == s->umask && s->qualifies ? SRC_INJECT : SRC_NONE;
	if (ev == ARCH_CODE_CORE_CYCLES && um == ARCH_UMASK_CORE_CYCLES)
		return SRC_CYCLES;
	/* The GP reference-cycles event counts the core crystal clock, not the
	 * TSC rate (sim/README.md). */
	if (ev == ARCH_CODE_REF_CYCLES && um == ARCH_UMASK_REF_CYCLES)
		return SRC_XCLK;
	/* INST_RETIRED.ANY_P, and Skylake's INST_RETIRED.PREC_DIST (umask
	 * 0x01, instructions retired too; Intel's event file), which its
	 * TOTAL_CYCLES_PS (inv, cmask 10) turns into every cycle. */
	if (ev == ARCH_CODE_INST_RETIRED &&
	    (um == ARCH_UMASK_INST_RETIRED || um == UMASK_INST_RETIRED_PREC_DIST))
		return SRC_INST;
	/* UOPS_RETIRED.ALL of Nehalem to Broadwell: the model retires one uop
	 * per instruction (Linux's cycles:p alias there, inv with cmask 16,
	 * turns it into every cycle). */
	if (ev == EVENT_UOPS_RETIRED && um == UMASK_UOPS_RETIRED_ALL)
		return SRC_INST;
	if (ev == ARCH_CODE_TOPDOWN_SLOTS && um == ARCH_UMASK_TOPDOWN_SLOTS &&
	    c->core->slots_per_cycle)
		return SRC_SLOTS;
	return SRC_NONE;
}

/* A lone counter's share of a large-increment burst: at most
 * AMD_LONE_COUNTER_MAX_INCREMENT of each cycle's occurrences (PPR, "Large
 * Increment per Cycle Events": without the Merge event the count "does
 * not provide a useful count"; the model keeps what fits in a cycle). */
static u64 lone_occurrences(const struct segment *s, u64 p)
{
	u64 per = MIN((u64)s->per_cycle, AMD_LONE_COUNTER_MAX_INCREMENT);
	u64 whole = s->count / s->per_cycle, rest = s->count % s->per_cycle;
	return MIN(p * per, whole * per + MIN(rest, per));
}

/* Occurrences of a source from the start of the segment to cycle p. */
static u64 occurrences(const struct sim_cpu *c, const struct segment *s, enum source src, u64 p)
{
	const struct sim_model *m = sim.model;
	switch (src) {
	case SRC_CYCLES: return p;
	case SRC_REF:    return (s->ref_frac0 + p * m->tsc_mhz) / m->core_mhz;
	case SRC_XCLK:   return (s->xclk_frac0 + p * m->xclk_mhz) / m->core_mhz;
	case SRC_INST:   return s->len ? s->inst * p / s->len : 0;
	case SRC_SLOTS:  return p * c->core->slots_per_cycle;
	case SRC_INJECT: return MIN(p * s->per_cycle, s->count);
	case SRC_INJECT_LONE: return lone_occurrences(s, p);
	default:         return 0;
	}
}

/* CMASK/INV/EDGE turn occurrences per cycle into at most one count per
 * cycle (SDM 20.2.1.1, Figure 20-6). */
static bool filtered(const struct sim_cpu *c, unsigned idx)
{
	return !is_fixed(idx) && (c->r.evtsel[idx] & (EVTSEL_CMASK_MASK | EVTSEL_EDGE));
}

/* SDM: with CMASK != 0, count 1 in a cycle whose occurrences are >= CMASK
 * (INV: < CMASK); INV is ignored when CMASK is 0. EDGE counts the cycles
 * where that condition becomes true. With CMASK 0, EDGE's condition is
 * "at least one occurrence". */
static u64 filtered_increments(struct sim_cpu *c, unsigned idx, const struct segment *s,
			       enum source src, u64 p0, u64 p1)
{
	u64 sel = c->r.evtsel[idx];
	u64 cmask = (sel & EVTSEL_CMASK_MASK) >> EVTSEL_CMASK_SHIFT;
	bool inv = sel & EVTSEL_INV, edge = sel & EVTSEL_EDGE;
	u64 n = 0, prev = occurrences(c, s, src, p0);
	for (u64 q = p0; q < p1; q++) {
		u64 next = occurrences(c, s, src, q + 1), occ = next - prev;
		bool cond = cmask ? (inv ? occ < cmask : occ >= cmask) : occ > 0;
		prev = next;
		if (edge) {
			n += cond && !c->edge_prev[idx];
			c->edge_prev[idx] = cond;
		} else {
			n += cond;
		}
	}
	return n;
}

static u64 counter_value(const struct sim_cpu *c, unsigned idx)
{
	return is_fixed(idx) ? c->r.fixed[idx - SIM_FIXED_BASE] : c->r.pmc[idx];
}

static u64 counter_mask(const struct sim_cpu *c, unsigned idx)
{
	return width_mask(is_fixed(idx) ? c->core->fixed_width : c->core->gp_width);
}

static void set_counter(struct sim_cpu *c, unsigned idx, u64 v)
{
	if (is_fixed(idx))
		c->r.fixed[idx - SIM_FIXED_BASE] = v;
	else
		c->r.pmc[idx] = v;
}

/* Every counter index this CPU has: GP i = i, fixed i = 32 + i. */
static unsigned next_counter(const struct sim_cpu *c, unsigned idx)
{
	idx++;
	if (idx < SIM_FIXED_BASE && idx >= c->core->num_gp)
		idx = SIM_FIXED_BASE;
	return idx;
}
#define for_each_counter(c, idx) \
	for (unsigned idx = (c)->core->num_gp ? 0 : SIM_FIXED_BASE; \
	     idx < SIM_FIXED_BASE + (c)->core->num_fixed; idx = next_counter(c, idx))

/* ---- stepping to the next overflow ----------------------------------------------- */

/* Cycles from p0 until this counter has counted `want` more, at most
 * `limit`. */
static u64 cycles_to_count(const struct sim_cpu *c, unsigned idx, const struct segment *s,
			   enum source src, u64 p0, u64 want, u64 limit)
{
	if (filtered(c, idx))
		return MIN(want, limit);	/* at most one count per cycle */
	u64 base = occurrences(c, s, src, p0);
	if (occurrences(c, s, src, p0 + limit) - base < want)
		return limit;
	u64 lo = 0, hi = limit;	/* smallest d with occurrences(p0+d) - base >= want */
	while (lo + 1 < hi) {
		u64 mid = lo + (hi - lo) / 2;
		if (occurrences(c, s, src, p0 + mid) - base >= want)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* Events until this counter next needs the model: its overflow, or, with
 * its PEBS armed, its next event (the assist comes then). */
static u64 events_to_step(const struct sim_cpu *c, unsigned idx)
{
	if (c->pebs_armed & BIT(idx))
		return 1;
	if (merge_extends(c, idx)) {
		u64 v = merged_value(c, idx);
		return v ? 0 - v : ~0ull;	/* 2^64 - v */
	}
	return counter_mask(c, idx) - counter_value(c, idx) + 1;
}

static u64 next_step(const struct sim_cpu *c, const struct segment *s, u64 p0)
{
	u64 step = s->len - p0;
	for_each_counter(c, idx) {
		enum source src = counter_source(c, idx, s);
		if (src != SRC_NONE && counting(c, idx))
			step = cycles_to_count(c, idx, s, src, p0, events_to_step(c, idx), step);
	}
	return step ? step : 1;
}

/* Advances every counting counter over [p0, p1); returns the overflows,
 * and in *counted the counters that counted at least once. */
static u64 apply_step(struct sim_cpu *c, const struct segment *s, u64 p0, u64 p1, u64 *counted)
{
	u64 ovf = 0;
	*counted = 0;
	for_each_counter(c, idx) {
		enum source src = counter_source(c, idx, s);
		if (src == SRC_NONE || !counting(c, idx))
			continue;
		u64 inc = filtered(c, idx) ? filtered_increments(c, idx, s, src, p0, p1)
			  : occurrences(c, s, src, p1) - occurrences(c, s, src, p0);
		if (inc)
			*counted |= BIT(idx);
		if (merge_extends(c, idx)) {
			u64 v0 = merged_value(c, idx), v = v0 + inc;
			ovf |= v < v0 ? BIT(idx) : 0;	/* the pair's overflow is the even counter's */
			set_merged(c, idx, v);
			continue;
		}
		u64 v = counter_value(c, idx) + inc, mask = counter_mask(c, idx);
		if (v > mask)
			ovf |= BIT(idx);
		set_counter(c, idx, v & mask);
	}
	if (s->run)
		c->tsc += occurrences(c, s, SRC_REF, p1) - occurrences(c, s, SRC_REF, p0);
	return ovf;
}

static bool pmi_enabled(const struct sim_cpu *c, unsigned idx)
{
	if (is_fixed(idx))
		return fixed_field(c, idx) & FIXED_CTRL_PMI;
	return c->r.evtsel[idx] & EVTSEL_INT;
}

static u64 pebs_counters(const struct sim_cpu *c)
{
	if (c->r.misc_enable & MISC_ENABLE_PEBS_UNAVAILABLE)
		return 0;
	if (sim_arch_pebs())
		return sim_arch_pebs_counters(c);
	u64 en = c->r.pebs_enable & GENMASK(SIM_MAX_GP - 1, 0);
	if (sim_has(PERF_CAP_PEBS_BASELINE))
		en |= c->r.pebs_enable & (GENMASK(SIM_MAX_FIXED - 1, 0) << SIM_FIXED_BASE);
	return en;
}

/* SDM Vol. 3B, PEBS (Nehalem through Skylake, and Ice Lake's "an
 * overflow ... results in generation of a PEBS record"): "When the
 * counter IA32_PMCx overflows from maximum count to zero, the PEBS
 * hardware is armed. Upon occurrence of the next PEBS event, the PEBS
 * hardware triggers an assist". Linux's handle_pmi_common relies on it: a
 * PMI can find a PEBS counter's overflow bit set while PEBS is armed.
 * Only PDist (GP counters in pdist_gp, Golden Cove and Gracemont; the
 * fixed ones in pdist_fixed, which CPUID.23H.5:EDX states) writes the
 * record at the overflowing event itself: "there is no wait for next
 * occurrence" (SDM, PDist; KVM's commit for SPR PDist). In GLOBAL_STATUS
 * bit order. */
static u64 pebs_at_overflow(const struct sim_cpu *c)
{
	return c->core->pdist_gp | (u64)c->core->pdist_fixed << GLOBAL_FIXED_SHIFT;
}

/* SDM 20.2: an overflow sets its GLOBAL_STATUS bit; with INT (GP) or PMI
 * (fixed) set it requests a PMI. A PEBS-enabled counter's overflow arms
 * PEBS (or, with PDist, runs the assist at once): one record, reload from
 * the DS reset value, and a PMI when the index reaches the interrupt
 * threshold (SDM 20.6.2.4, 18.4.9). */
static bool overflowed(struct sim_cpu *c, u64 ovf, const struct sim_point *pt)
{
	bool pmi = false;
	for_each_counter(c, idx)
		if (ovf & BIT(idx)) {
			c->stats.overflows++;
			pmi |= pmi_enabled(c, idx);
		}
	/* AMD: PerfCntrGlobalStatus with PerfMonV2; without it software
	 * sees the overflow in the counter's value alone. */
	if (sim_global_gates())
		c->r.global_status |= ovf;
	u64 pebs = ovf & pebs_counters(c), now = pebs & pebs_at_overflow(c);
	c->pebs_armed |= pebs & ~now;
	if (now && sim_pebs_assist(c, now, pt))
		pmi = true;
	return pmi;
}

/* The armed counters that counted their next event in the step just
 * run take their assist, all in one record (SDM: "the PEBS hardware
 * triggers an assist and causes a PEBS record to be written"). */
static bool armed_counted(struct sim_cpu *c, u64 counted, const struct sim_point *pt)
{
	u64 fire = counted & c->pebs_armed & pebs_counters(c);
	if (!fire)
		return false;
	c->pebs_armed &= ~fire;
	return sim_pebs_assist(c, fire, pt);
}

static void run_segment(struct sim_cpu *c, struct segment *s)
{
	const struct sim_model *m = sim.model;
	s->ref_frac0 = c->ref_frac;
	s->xclk_frac0 = c->xclk_frac;
	u64 p = 0;
	while (p < s->len) {
		u64 step = next_step(c, s, p), counted;
		u64 armed = c->pebs_armed;
		u64 ovf = apply_step(c, s, p, p + step, &counted);
		u64 raised = c->stats.pmis_raised;
		p += step;
		/* Assists for what was armed before the step, then new arming. */
		bool pmi = armed_counted(c, counted & armed, &s->pt);
		if (ovf)
			pmi |= overflowed(c, ovf, &s->pt);
		if (pmi)
			sim_pmu_raise_pmi(c);
		if (s->stop_at_pmi && c->stats.pmis_raised != raised) {
			s->stopped = true;
			break;
		}
	}
	s->done = p;
	if (s->run && m->core_mhz) {
		c->ref_frac = (s->ref_frac0 + p * m->tsc_mhz) % m->core_mhz;
		c->xclk_frac = (s->xclk_frac0 + p * m->xclk_mhz) % m->core_mhz;
	}
}

/* Events until the first counter of the current CPU overflows (or an
 * armed PEBS counter counts its next event and takes its assist), at most
 * `limit`: run-driven counters over a run of `limit` cycles retiring one
 * instruction a cycle, every other counting counter by what it lacks
 * (such events come at most once an instruction: branches, loads). A
 * machine that executes at most that many instructions cannot pass an
 * overflow unseen. */
u64 sim_events_until_overflow(u64 limit)
{
	struct sim_cpu *c = sim_cur();
	struct segment s = { .run = true, .len = limit, .inst = limit,
			     .ref_frac0 = c->ref_frac, .xclk_frac0 = c->xclk_frac };
	u64 step = limit;
	for_each_counter(c, idx) {
		if (!counting(c, idx))
			continue;
		enum source src = counter_source(c, idx, &s);
		u64 left = events_to_step(c, idx);
		step = src != SRC_NONE ? cycles_to_count(c, idx, &s, src, 0, left, step)
				       : MIN(step, left);
	}
	return step;
}

bool sim_any_counting(void)
{
	struct sim_cpu *c = sim_cur();
	for_each_counter(c, idx)
		if (counting(c, idx))
			return true;
	return false;
}

/* ---- the API ------------------------------------------------------------------------ */

static bool run_args_ok(u64 cycles, u64 instructions)
{
	if (cycles < RUN_MAX && instructions < RUN_MAX && (!instructions || cycles))
		return true;
	sim_model_error("sim_run(%llu cycles, %llu instructions): need cycles >= 1 "
			"when instructions retire, both below 2^40",
			(unsigned long long)cycles, (unsigned long long)instructions);
	return false;
}

/* Runs in chunks; with stop_at_pmi, ends right after the overflow that
 * raised a PMI. Returns the cycles run; *inst_done the instructions. */
static u64 run_chunks(u64 cycles, u64 instructions, const struct sim_point *pt,
		      bool stop_at_pmi, u64 *inst_done)
{
	struct sim_cpu *c = sim_cur();
	u64 done = 0;
	*inst_done = 0;
	sim_rival_visit(c);
	while (cycles) {
		/* A chunk ends where an IBS counter reaches its maximum, so
		 * the op it tags is at this point (sim_ibs.c). */
		u64 len = sim_ibs_cycles_until_tag(c, MIN(cycles, RUN_CHUNK_CYCLES),
						   instructions * MIN(cycles, RUN_CHUNK_CYCLES) / cycles);
		u64 inst = instructions * len / cycles;
		struct segment s = { .run = true, .len = len, .inst = inst, .stop_at_pmi = stop_at_pmi,
				     .pt = *pt };
		run_segment(c, &s);
		u64 inst_run = occurrences(c, &s, SRC_INST, s.done);
		sim_ibs_advance(c, s.done, inst_run, pt);
		done += s.done;
		*inst_done += inst_run;
		cycles -= s.done;
		instructions -= inst_run;
		c = sim_cur();	/* a hook may have switched and restored CPUs */
		if (s.stopped)
			break;
	}
	return done;
}

void sim_run_at(u64 cycles, u64 instructions, const struct sim_point *pt)
{
	u64 inst_done;
	if (run_args_ok(cycles, instructions))
		run_chunks(cycles, instructions, pt, false, &inst_done);
}

void sim_run(u64 cycles, u64 instructions, u64 ip)
{
	struct sim_point pt = { .ip = ip, .insn_len = RUN_INSN_LEN };
	sim_run_at(cycles, instructions, &pt);
}

void sim_run_load(u64 cycles, u64 instructions, u64 ip, u64 data_addr, u64 latency)
{
	struct sim_point pt = { .ip = ip, .insn_len = RUN_INSN_LEN, .data_addr = data_addr,
				.latency = latency };
	sim_run_at(cycles, instructions, &pt);
}

u64 sim_run_until_pmi(u64 cycles, u64 instructions, u64 ip, u64 *inst_done)
{
	struct sim_point pt = { .ip = ip, .insn_len = RUN_INSN_LEN };
	*inst_done = 0;
	if (!run_args_ok(cycles, instructions))
		return cycles;
	return run_chunks(cycles, instructions, &pt, true, inst_done);
}

/* SDM Vol. 3B ch. 20, the front-end retired facility: FRONTEND_RETIRED
 * counts retired instructions that met the condition MSR_PEBS_FRONTEND
 * selects: the same EVTSEL, and for an IDQ bubble (EVTSEL 0x06) a bubble
 * at least IDQ_Bubble_Length cycles long and IDQ_Bubble_Width wide. On a
 * core without the MSR the event counts unqualified. */
static bool frontend_selected(const struct sim_cpu *c, const struct sim_occ *o)
{
	if (o->event != EVENT_FRONTEND_RETIRED || o->umask != UMASK_FRONTEND_RETIRED ||
	    !c->core->frontend_valid)
		return true;
	u64 want = c->r.pebs_frontend, have = o->frontend;
	u64 sel = want & PEBS_FRONTEND_EVTSEL_MASK;
	if ((have & PEBS_FRONTEND_EVTSEL_MASK) != sel)
		return false;
	if (sel != PEBS_FRONTEND_EVTSEL_BUBBLE)
		return true;
	return (have & PEBS_FRONTEND_LENGTH_MASK) >= (want & PEBS_FRONTEND_LENGTH_MASK) &&
	       (have & PEBS_FRONTEND_WIDTH_MASK) >= (want & PEBS_FRONTEND_WIDTH_MASK);
}

void sim_event(const struct sim_occ *o)
{
	struct sim_cpu *c = sim_cur();
	u32 k = o->per_cycle ? o->per_cycle : 1;
	struct segment s = {
		.run = false, .event = o->event, .umask = o->umask, .count = o->count,
		.per_cycle = k, .len = (o->count + k - 1) / k,
		.pt = { .ip = o->ip, .insn_len = o->insn_len, .next_ip = o->next_ip,
			.data_addr = o->data_addr,
			.latency = o->latency, .data_src = o->data_src,
			.instr_latency = o->instr_latency },
	};
	/* SDM 20.3.4.4.2: load-latency events count only loads whose latency
	 * exceeds MSR_PEBS_LD_LAT_THRESHOLD. */
	s.qualifies = (sim_amd() || !is_ld_lat_event(o->event, o->umask) ||
			o->latency > c->r.ld_lat_threshold) &&
		       frontend_selected(c, o);
	run_segment(c, &s);
	/* The burst ends: the condition deasserts for EDGE. */
	for (unsigned i = 0; i < SIM_MAX_GP; i++)
		if ((u8)(c->r.evtsel[i] & EVTSEL_EVENT_MASK) == o->event)
			c->edge_prev[i] = false;
}

void sim_events(u16 event, u8 umask, u64 count, u64 ip)
{
	struct sim_occ o = { .event = event, .umask = umask, .count = count, .ip = ip,
			     .insn_len = RUN_INSN_LEN };
	sim_event(&o);
}

void sim_replay(const struct sim_step *steps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct sim_step *st = &steps[i];
		for (u32 r = 0; r < (st->repeat ? st->repeat : 1); r++) {
			switch (st->kind) {
			case SIM_STEP_RUN:   sim_run(st->cycles, st->instructions, st->ip); break;
			case SIM_STEP_EVENT: sim_event(&st->occ); break;
			case SIM_STEP_CPL:   sim_set_cpl((u8)st->arg); break;
			case SIM_STEP_CPU:   sim_set_cpu(st->arg); break;
			default:
				sim_model_error("sim_replay: step %zu has unknown kind %d", i, st->kind);
				return;
			}
		}
	}
}
