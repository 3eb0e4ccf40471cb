/* AMD's Instruction-Based Sampling in the model (AMD64 APM Vol. 2,
 * "Instruction-Based Sampling"; field layouts as Linux's union ibs_op_ctl,
 * ibs_fetch_ctl, ibs_op_data, ibs_op_data3 in arch/x86/include/asm/
 * amd-ibs.h). The registers exist only when the model's CPUID says IBS
 * (80000001H:ECX[10], the units and extensions in 8000001BH:EAX); any
 * access otherwise #GPs.
 *
 * Op sampling: while IbsOpEn is set the periodic op counter (CurCnt)
 * counts core cycles, or dispatched ops with IbsOpCntCtl (one op per
 * instruction here). When it reaches {MaxCnt, 0000b} the next op is
 * tagged: IbsOpVal is set, OpRip, OpData and (for a load or store whose
 * address the model knows) DcLinAd are latched, and the interrupt goes
 * out through the extended LVT entry IBS_CTL names. No further sample is
 * taken until software clears IbsOpVal (Linux re-arms by writing the
 * control register, perf_ibs_handle_irq). Fetch sampling is the same with
 * IbsFetchCnt counting fetches (one per instruction here) and
 * FetchLinAd/FetchPhysAd latched.
 *
 * Tagging happens at a run's boundary point: the op is the one at the
 * run's RIP (sim_count.c stops its runs where a counter reaches its
 * maximum). IBS_CTL is read-only: "the firmware" assigned offset 1. */
#include "sim_int.h"

#define IBS_CTL_FIRMWARE   (IBS_CTL_LVT_OFFSET_VALID | 1)
/* Linux's IBS_CAPS_DEFAULT (get_ibs_caps): CPUID 8000001BH absent or not
 * valid means the family 10h units. */
#define IBS_CAPS_DEFAULT   (IBS_CAPS_AVAIL | IBS_CAPS_FETCHSAM | IBS_CAPS_OPSAM)
#define OP_CUR_MAX         (IBS_OP_CUR_CNT_MASK >> IBS_OP_CUR_CNT_SHIFT)
#define FETCH_COUNT_MAX    ((IBS_FETCH_CNT_MASK >> IBS_FETCH_CNT_SHIFT) << IBS_PERIOD_SHIFT | 0xF)

static u32 ibs_caps(const struct sim_cpu *c)
{
	struct cpuid_regs r;
	sim_model_cpuid(sim.model, c->index, CPUID_LEAF_EXT_MAX + 1, 0, &r);
	if (!(r.ecx & CPUID_8000_0001_ECX_IBS))
		return 0;
	if (sim.model->max_ext_leaf < CPUID_LEAF_AMD_IBS)
		return IBS_CAPS_DEFAULT;
	sim_model_cpuid(sim.model, c->index, CPUID_LEAF_AMD_IBS, 0, &r);
	return (r.eax & IBS_CAPS_AVAIL) ? r.eax : IBS_CAPS_DEFAULT;
}

bool sim_ibs_msr(u32 msr)
{
	return msr >= MSR_AMD_IBS_FETCH_CTL && msr <= MSR_AMD_IBS_OP_DATA4;
}

/* The CPUID bit each register needs (0: IBS itself). */
static u32 needed_cap(u32 msr)
{
	switch (msr) {
	case MSR_AMD_IBS_FETCH_CTL: case MSR_AMD_IBS_FETCH_LINADDR:
	case MSR_AMD_IBS_FETCH_PHYSADDR:
		return IBS_CAPS_FETCHSAM;
	case MSR_AMD_IBS_BR_TARGET:   return IBS_CAPS_BRNTRGT;
	case MSR_AMD_IC_IBS_EXTD_CTL: return IBS_CAPS_FETCHCTLEXTD;
	case MSR_AMD_IBS_OP_DATA4:    return IBS_CAPS_OPDATA4;
	case MSR_AMD_IBS_CTL:         return 0;
	default:                      return IBS_CAPS_OPSAM;
	}
}

static int check_exists(const struct sim_cpu *c, u32 msr, struct hw_fault *f)
{
	u32 caps = ibs_caps(c), need = needed_cap(msr);
	if (!caps)
		return sim_gp(f, "MSR 0x%x: no IBS on this model (CPUID.80000001H:ECX[10] = 0)", msr);
	if (need && !(caps & need))
		return sim_gp(f, "MSR 0x%x: CPUID.8000001BH:EAX (0x%x) lacks the bit 0x%x it needs",
			      msr, caps, need);
	return 0;
}

/* The model's pointer to one register of struct sim_cpu_regs (those
 * without modelled contents read as 0 and take any write). */
static u64 *reg_of(struct sim_cpu *c, u32 msr)
{
	struct sim_cpu_regs *r = &c->r;
	switch (msr) {
	case MSR_AMD_IBS_FETCH_CTL:      return &r->ibs_fetch_ctl;
	case MSR_AMD_IBS_FETCH_LINADDR:  return &r->ibs_fetch_linad;
	case MSR_AMD_IBS_FETCH_PHYSADDR: return &r->ibs_fetch_physad;
	case MSR_AMD_IBS_OP_CTL:         return &r->ibs_op_ctl;
	case MSR_AMD_IBS_OP_RIP:         return &r->ibs_op_rip;
	case MSR_AMD_IBS_OP_DATA:        return &r->ibs_op_data[0];
	case MSR_AMD_IBS_OP_DATA2:       return &r->ibs_op_data[1];
	case MSR_AMD_IBS_OP_DATA3:       return &r->ibs_op_data[2];
	case MSR_AMD_IBS_DC_LINADDR:     return &r->ibs_dc_linad;
	case MSR_AMD_IBS_DC_PHYSADDR:    return &r->ibs_dc_physad;
	case MSR_AMD_IBS_BR_TARGET:      return &r->ibs_br_target;
	default:                         return NULL;
	}
}

int sim_ibs_rdmsr(struct sim_cpu *c, u32 msr, u64 *val, struct hw_fault *f)
{
	*val = 0;
	if (check_exists(c, msr, f))
		return 1;
	if (msr == MSR_AMD_IBS_CTL) {
		*val = c->ibs_ctl;
		return 0;
	}
	u64 *reg = reg_of(c, msr);
	*val = reg ? *reg : 0;
	return 0;
}

/* IBS_OP_CTL's writable bits for these capabilities: CntCtl with OpCnt,
 * MaxCnt[26:20] with OpCntExt, L3MissOnly with the Zen 4 extensions,
 * CurCnt always (without RdWrOpCnt a write restarts it at 0). */
static u64 op_ctl_valid(u32 caps)
{
	u64 v = IBS_OP_MAX_CNT_MASK | IBS_OP_ENABLE | IBS_OP_VAL | IBS_OP_CUR_CNT_MASK;
	if (caps & IBS_CAPS_OPCNT)
		v |= IBS_OP_CNT_CTL;
	if (caps & IBS_CAPS_OPCNTEXT)
		v |= IBS_OP_MAX_CNT_EXT_MASK;
	if (caps & IBS_CAPS_ZEN4)
		v |= IBS_OP_L3_MISS_ONLY;
	return v;
}

static u64 fetch_ctl_valid(u32 caps)
{
	u64 v = ~(IBS_FETCH_CTL_RESERVED | IBS_FETCH_L3_MISS_ONLY);
	if (caps & IBS_CAPS_ZEN4)
		v |= IBS_FETCH_L3_MISS_ONLY;
	return v;
}

/* A pseudo-random 4-bit start for the fetch counter when IbsRandEn asks
 * for it (APM: IbsRandEn randomizes the fetch counter's low 4 bits). */
static u64 next_rand4(struct sim_cpu *c)
{
	c->ibs_rand = c->ibs_rand * 6364136223846793005ULL + 1442695040888963407ULL;
	return (c->ibs_rand >> 60) & 0xF;
}

static int write_op_ctl(struct sim_cpu *c, u64 val, struct hw_fault *f)
{
	u32 caps = ibs_caps(c);
	u64 bad = val & ~op_ctl_valid(caps);
	if (bad)
		return sim_gp(f, "IBS_OP_CTL: reserved bits 0x%llx set (IBS caps 0x%x: CntCtl needs "
			      "OpCnt, MaxCnt[26:20] OpCntExt, bit 16 the Zen 4 extensions)",
			      (unsigned long long)bad, caps);
	if (!(caps & IBS_CAPS_RDWROPCNT))
		val &= ~IBS_OP_CUR_CNT_MASK;
	c->r.ibs_op_ctl = val;
	return 0;
}

static int write_fetch_ctl(struct sim_cpu *c, u64 val, struct hw_fault *f)
{
	u32 caps = ibs_caps(c);
	u64 bad = val & ~fetch_ctl_valid(caps);
	if (bad)
		return sim_gp(f, "IBS_FETCH_CTL: reserved bits 0x%llx set",
			      (unsigned long long)bad);
	/* IbsFetchCnt holds bits 19:4 of the count (Linux get_ibs_fetch_count:
	 * fetch_cnt << 4); a write sets them and, with RandEn, the hardware
	 * picks the low 4 bits itself. */
	c->ibs_fetch_count = FIELD(val, 31, 16) << IBS_PERIOD_SHIFT;
	if ((val & IBS_FETCH_ENABLE) && (val & IBS_FETCH_RAND_EN))
		c->ibs_fetch_count |= next_rand4(c);
	c->r.ibs_fetch_ctl = val;
	return 0;
}

int sim_ibs_wrmsr(struct sim_cpu *c, u32 msr, u64 val, struct hw_fault *f)
{
	if (check_exists(c, msr, f))
		return 1;
	switch (msr) {
	case MSR_AMD_IBS_CTL:
		return sim_gp(f, "IBS_CTL is read-only (the firmware sets its LVT offset)");
	case MSR_AMD_IBS_OP_CTL:
		return write_op_ctl(c, val, f);
	case MSR_AMD_IBS_FETCH_CTL:
		return write_fetch_ctl(c, val, f);
	default: {
		u64 *reg = reg_of(c, msr);
		if (reg)
			*reg = val;
		return 0;
	}
	}
}

void sim_ibs_reset(struct sim_cpu *c)
{
	c->ibs_ctl = IBS_CTL_FIRMWARE;
	c->ibs_rand = 0x9E3779B97F4A7C15ULL ^ c->index;
	c->ibs_load_rand = 0x2545F4914F6CDD1DULL ^ c->index;
	c->ibs_load_acc = 0;
}

void sim_inject_ibs_rip_invalid(bool on) { sim_cur()->ibs_rip_invalid = on; }

void sim_inject_ibs_ctl(u64 value)
{
	for (u32 i = 0; i < sim.ncpus; i++)
		sim.cpu[i].ibs_ctl = value;
}

/* ---- counting and tagging -------------------------------------------------- */

/* The op counter's maximum: {MaxCnt[26:20] with OpCntExt, MaxCnt[15:0],
 * 0000b} (APM, IbsOpMaxCnt; Linux perf_ibs_start). */
static u64 op_max(const struct sim_cpu *c)
{
	u64 ctl = c->r.ibs_op_ctl;
	return (ctl & IBS_OP_MAX_CNT_MASK) << IBS_PERIOD_SHIFT |
	       (ctl & IBS_OP_MAX_CNT_EXT_MASK);
}

static u64 op_cur(const struct sim_cpu *c)
{
	return FIELD(c->r.ibs_op_ctl, 58, 32);
}

static u64 fetch_max(const struct sim_cpu *c)
{
	return (c->r.ibs_fetch_ctl & IBS_FETCH_MAX_CNT_MASK) << IBS_PERIOD_SHIFT;
}

static u64 fetch_cur(const struct sim_cpu *c) { return c->ibs_fetch_count; }

/* Counting: enabled, not holding a sample, a nonzero maximum. */
static bool op_counting(const struct sim_cpu *c)
{
	u64 ctl = c->r.ibs_op_ctl;
	return (ctl & IBS_OP_ENABLE) && !(ctl & IBS_OP_VAL) && op_max(c);
}

static bool fetch_counting(const struct sim_cpu *c)
{
	u64 ctl = c->r.ibs_fetch_ctl;
	return (ctl & IBS_FETCH_ENABLE) && !(ctl & IBS_FETCH_VAL) && fetch_max(c);
}

/* Cycles of a run until `left` units, at `per` units over `cycles`
 * cycles, have passed (rounded up; the run's length when never). */
static u64 cycles_for(u64 left, u64 per, u64 cycles)
{
	if (!per)
		return cycles;
	u64 need = (left * cycles + per - 1) / per;
	return need ? MIN(need, cycles) : 1;
}

static u64 left_of(u64 cur, u64 max) { return cur >= max ? 1 : max - cur; }

u64 sim_ibs_cycles_until_tag(const struct sim_cpu *c, u64 cycles, u64 instructions)
{
	u64 n = cycles;
	if (op_counting(c)) {
		bool ops = c->r.ibs_op_ctl & IBS_OP_CNT_CTL;
		n = MIN(n, cycles_for(left_of(op_cur(c), op_max(c)), ops ? instructions : cycles, cycles));
	}
	if (fetch_counting(c))
		n = MIN(n, cycles_for(left_of(fetch_cur(c), fetch_max(c)), instructions, cycles));
	return n;
}

/* The interrupt through the entry IBS_CTL names; nothing without a valid
 * offset or with the entry masked. */
static void raise_ibs_irq(struct sim_cpu *c)
{
	if (!(c->ibs_ctl & IBS_CTL_LVT_OFFSET_VALID) ||
	    !sim_apic_eilvt(c, (unsigned)(c->ibs_ctl & IBS_CTL_LVT_OFFSET_MASK))) {
		c->stats.ibs_irqs_masked++;
		return;
	}
	c->stats.ibs_irqs++;
}

void sim_set_run_loads(const struct sim_run_loads *l)
{
	sim.run_loads = l ? *l : (struct sim_run_loads){ 0 };
}

/* DataSrc in IBS_OP_DATA2's layout: 3 bits, or 5 with IBS_CAPS_ZEN4. */
static u64 data2_source(const struct sim_cpu *c, unsigned coarse, unsigned ext)
{
	bool zen4 = ibs_caps(c) & IBS_CAPS_ZEN4;
	return ibs_op_data2_of_source(zen4 ? ext : coarse, zen4);
}

/* IBS_OP_DATA2/3 for a load served where Intel's source code says (the
 * drive's profiles and the QEMU machine state loads so): an L1 hit has no
 * DcMiss; a fill-buffer hit found the miss already in flight (DcMiss,
 * L2Miss, DcMissNoMabAlloc, no DataSrc: Linux's LFB); an L2 hit DcMiss;
 * an L3 hit also L2Miss and DataSrc local cache, CacheHitSt set (shared)
 * unless another core had it modified (HITM); beyond it, DRAM. DcMissLat
 * is the latency of a miss. Code 0 (unknown): a miss when it has a
 * latency. APM Vol. 2, "IBS Op Data 2/3 Register". */
static void load_fields(const struct sim_cpu *c, u64 latency, u64 dse, u64 *d2, u64 *d3)
{
	unsigned code = (unsigned)(dse & INTEL_DSE_SOURCE_MASK);
	*d2 = 0;
	*d3 = IBS_OP_DATA3_LD_OP | IBS_OP_DATA3_LIN_ADDR_VALID;
	if (code == INTEL_DSE_L1_HIT || (!code && !latency))
		return;
	*d3 |= IBS_OP_DATA3_DC_MISS | (MIN(latency, 0xFFFFULL) << IBS_OP_DATA3_MISS_LAT_SHIFT);
	if (!code || code == INTEL_DSE_L2_HIT)
		return;
	*d3 |= IBS_OP_DATA3_L2_MISS;
	if (code == INTEL_DSE_LFB_HIT)
		*d3 |= IBS_OP_DATA3_DC_MISS_NO_MAB_ALLOC;
	else if (code < INTEL_DSE_L3_MISS)
		*d2 = data2_source(c, IBS_DATA_SRC_LOC_CACHE, IBS_DATA_SRC_EXT_LOC_CACHE) |
		      (code == INTEL_DSE_L3_HITM ? 0 : IBS_OP_DATA2_CACHE_HIT_ST);
	else
		*d2 = data2_source(c, IBS_DATA_SRC_DRAM, IBS_DATA_SRC_EXT_DRAM);
}

static u64 next_load_rand(struct sim_cpu *c)
{
	c->ibs_load_rand ^= c->ibs_load_rand << 13;
	c->ibs_load_rand ^= c->ibs_load_rand >> 7;
	c->ibs_load_rand ^= c->ibs_load_rand << 17;
	return c->ibs_load_rand;
}

/* A tagged op of a plain run loads at the rate sim_set_run_loads gave
 * (one in 1000 / per_kilo ops, evenly), at an address of its range. */
static bool run_load(struct sim_cpu *c, struct sim_point *pt)
{
	const struct sim_run_loads *l = &sim.run_loads;
	if (!l->per_kilo || !l->size)
		return false;
	c->ibs_load_acc += l->per_kilo;
	if (c->ibs_load_acc < 1000)
		return false;
	c->ibs_load_acc -= 1000;
	pt->data_addr = l->base + (next_load_rand(c) % l->size & ~7ULL);
	pt->latency = l->latency;
	pt->data_src = l->data_src;
	return true;
}

/* The tagged op's data: a load at the point's data address when the
 * model knows one, else maybe one of the run's loads. Branch flags and
 * physical addresses are not known to the model: left 0. */
static void latch_op(struct sim_cpu *c, const struct sim_point *at)
{
	struct sim_point pt = *at;
	u64 d2 = 0, d3 = 0;
	c->r.ibs_op_rip = c->ibs_rip_invalid ? 0 : pt.ip;
	c->r.ibs_op_data[0] = c->ibs_rip_invalid ? IBS_OP_DATA_RIP_INVALID : 0;
	c->r.ibs_dc_linad = 0;
	if (pt.data_addr || run_load(c, &pt)) {
		load_fields(c, pt.latency, pt.data_src, &d2, &d3);
		c->r.ibs_dc_linad = pt.data_addr;
	}
	c->r.ibs_op_data[1] = d2;
	c->r.ibs_op_data[2] = d3;
	c->r.ibs_op_ctl = (c->r.ibs_op_ctl & ~IBS_OP_CUR_CNT_MASK) | IBS_OP_VAL;
}

/* The tag leaves IbsFetchCnt at the count that reached MaxCnt: Linux's
 * perf_ibs_handle_irq adds it (get_ibs_fetch_count) to the event and
 * takes the sample only when that completes the period, so a count
 * cleared at the tag made Linux drop every fetch sample. The count
 * starts again when software re-enables the unit. */
static void latch_fetch(struct sim_cpu *c, const struct sim_point *pt)
{
	c->r.ibs_fetch_linad = pt->ip;
	c->r.ibs_fetch_physad = pt->ip;	/* the firmware's identity map */
	c->r.ibs_fetch_ctl |= IBS_FETCH_VAL | IBS_FETCH_COMP | IBS_FETCH_PHY_ADDR_VALID;
}

static bool advance_op(struct sim_cpu *c, u64 cycles, u64 ops, const struct sim_point *pt)
{
	if (!op_counting(c))
		return false;
	u64 n = (c->r.ibs_op_ctl & IBS_OP_CNT_CTL) ? ops : cycles;
	u64 cur = MIN(op_cur(c) + n, OP_CUR_MAX);
	if (cur < op_max(c)) {
		c->r.ibs_op_ctl = (c->r.ibs_op_ctl & ~IBS_OP_CUR_CNT_MASK) | cur << IBS_OP_CUR_CNT_SHIFT;
		return false;
	}
	latch_op(c, pt);
	return true;
}

static bool advance_fetch(struct sim_cpu *c, u64 fetches, const struct sim_point *pt)
{
	if (!fetch_counting(c))
		return false;
	u64 cur = MIN(fetch_cur(c) + fetches, FETCH_COUNT_MAX);
	c->ibs_fetch_count = cur;
	c->r.ibs_fetch_ctl = (c->r.ibs_fetch_ctl & ~IBS_FETCH_CNT_MASK) |
			     (cur >> IBS_PERIOD_SHIFT) << IBS_FETCH_CNT_SHIFT;
	if (cur < fetch_max(c))
		return false;
	latch_fetch(c, pt);
	return true;
}

void sim_ibs_advance(struct sim_cpu *c, u64 cycles, u64 ops, const struct sim_point *pt)
{
	bool op = advance_op(c, cycles, ops, pt);
	bool fetch = advance_fetch(c, ops, pt);
	c->stats.ibs_tags += (u64)op + fetch;
	if (op || fetch)	/* one interrupt for what tagged together */
		raise_ibs_irq(c);
}
