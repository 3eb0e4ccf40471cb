/* The PEBS assist: what the processor does when a PEBS-enabled counter
 * overflows (SDM Vol. 3B 20.6.2.4 and 18.4.9, Debug Store). It reads the
 * 64-bit DS save area at IA32_DS_AREA (a linear address: a pointer in this
 * address space, or the guest's when a machine is attached), writes one
 * record in the part's format at the PEBS index, advances the index,
 * reloads the counters from their DS reset values and reports whether the
 * interrupt threshold was reached. */
#include "sim_int.h"
#include "../lib/str.h"

#define FMT0_SIZE 144
#define FMT1_SIZE 176
#define FMT2_SIZE 192
#define FMT3_SIZE 200
#define ADAPTIVE_BASIC_SIZE   32
#define ADAPTIVE_MEMINFO_SIZE 32
#define ADAPTIVE_GPR_SIZE     144
#define ADAPTIVE_XMM_SIZE     256
#define ADAPTIVE_LBR_ENTRY    24
#define FORMAT_SIZE_SHIFT     48	/* basic group: record size in [63:48] */

static u64 ds_get(u64 ds, u32 off)
{
	u64 v = 0;
	sim_mem_read(ds + off, &v, sizeof(v));
	return v;
}

static void ds_set(u64 ds, u32 off, u64 v)
{
	sim_mem_write(ds + off, &v, sizeof(v));
}

static unsigned lbr_entries(u64 data_cfg) { return (unsigned)FIELD(data_cfg, 31, 24) + 1; }

u32 sim_pebs_record_size(u8 format, u64 data_cfg, bool adaptive)
{
	switch (format) {
	case 0: return FMT0_SIZE;
	case 1: return FMT1_SIZE;
	case 2: return FMT2_SIZE;
	case 3: return FMT3_SIZE;
	default: break;
	}
	u32 size = ADAPTIVE_BASIC_SIZE;
	if (!adaptive)
		return size;
	if (data_cfg & PEBS_DATACFG_MEMINFO)
		size += ADAPTIVE_MEMINFO_SIZE;
	if (data_cfg & PEBS_DATACFG_GP)
		size += ADAPTIVE_GPR_SIZE;
	if (data_cfg & PEBS_DATACFG_XMMS)
		size += ADAPTIVE_XMM_SIZE;
	if (data_cfg & PEBS_DATACFG_LBRS)
		size += ADAPTIVE_LBR_ENTRY * lbr_entries(data_cfg);
	return size;
}

/* Formats 0-3: RFLAGS, RIP, then RAX RBX RCX RDX RSI RDI RBP RSP R8-R15. */
static void put_legacy_gprs(struct sim_rec *r, const struct sim_gprs *g, u64 rip)
{
	const u64 regs[] = { g->rflags, rip, g->rax, g->rbx, g->rcx, g->rdx, g->rsi, g->rdi,
			     g->rbp, g->rsp, g->r8, g->r9, g->r10, g->r11, g->r12, g->r13,
			     g->r14, g->r15 };
	for (unsigned i = 0; i < ARRAY_SIZE(regs); i++)
		sim_rec_put(r, regs[i]);
}

/* Adaptive GPR group: RFLAGS, RIP, RAX RCX RDX RBX RSP RBP RSI RDI R8-R15
 * (the hardware's register order, not formats 0-3's). */
void sim_pebs_put_adaptive_gprs(struct sim_rec *r, const struct sim_gprs *g, u64 rip)
{
	const u64 regs[] = { g->rflags, rip, g->rax, g->rcx, g->rdx, g->rbx, g->rsp, g->rbp,
			     g->rsi, g->rdi, g->r8, g->r9, g->r10, g->r11, g->r12, g->r13,
			     g->r14, g->r15 };
	for (unsigned i = 0; i < ARRAY_SIZE(regs); i++)
		sim_rec_put(r, regs[i]);
}

/* The trap-like PEBS assist runs after the instruction retires: RIP is
 * the next instruction. Format 2 added the eventing IP; adaptive records
 * carry it in the basic group. */
static void write_legacy(struct sim_cpu *c, u8 *at, u8 fmt, u64 applicable,
			 const struct sim_point *pt)
{
	struct sim_rec r = { at };
	put_legacy_gprs(&r, &c->gprs, sim_point_next_ip(pt));
	if (fmt < 1)
		return;
	/* Formats 1-2 store IA32_PERF_GLOBAL_STATUS as it is (bits of other
	 * counters included); format 3 stores exactly the counters this
	 * record is for. */
	sim_rec_put(&r, fmt >= 3 ? applicable : c->pebs_status_zero ? 0 : c->r.global_status);
	sim_rec_put(&r, pt->data_addr);
	sim_rec_put(&r, pt->data_src);
	sim_rec_put(&r, pt->latency);
	if (fmt < 2)
		return;
	sim_rec_put(&r, pt->ip);	/* eventing IP */
	sim_rec_put(&r, 0);		/* TSX tuning: no transactions modelled */
	if (fmt < 3)
		return;
	sim_rec_put(&r, c->tsc);
}

/* The meminfo latency field: the load latency, or on Alder Lake and
 * later the instruction latency in [15:0] and the cache latency (16 bits,
 * saturated) in [47:32] (arch/msr.h). */
static u64 meminfo_latency(const struct sim_cpu *c, const struct sim_point *pt)
{
	if (!c->core->latency_split)
		return pt->latency;
	u64 cache = MIN(pt->latency, (u64)0xFFFF);
	return cache << PEBS_MEMINFO_CACHE_LAT_SHIFT | pt->instr_latency;
}

/* The SDM's load sources (Sandy Bridge and later) in Panther Cove's
 * encoding (arch/msr.h: L2-hit sources, and on an L2 miss the OMR
 * byte), each the nearest the encoding has: L3 hits as the local
 * non-shared cache (a snoop HITM where the SDM's says modified), another
 * socket's cache as another agent's, DRAM as memory region 0. */
static const u16 omr_of_snb[16] = {
	[0x0] = PNC_DSE_L2_MISS,				/* L3 miss, source unknown */
	[0x1] = 0x02,						/* L1 */
	[0x2] = 0x03,						/* fill buffer */
	[0x3] = 0x04,						/* L2 */
	[0x4] = PNC_DSE_L2_MISS | 0x03,				/* L3, no snoop */
	[0x5] = PNC_DSE_L2_MISS | 0x03,				/* L3, snoop miss */
	[0x6] = PNC_DSE_L2_MISS | 0x03,				/* L3, snoop hit */
	[0x7] = PNC_DSE_L2_MISS | OMR_HITM | 0x03,		/* L3, modified */
	[0x8] = PNC_DSE_L2_MISS | OMR_REMOTE | OMR_SNOOP | 0x05,	/* remote cache, forward */
	[0x9] = PNC_DSE_L2_MISS | OMR_REMOTE | OMR_HITM | 0x05,	/* remote cache, modified */
	[0xA] = PNC_DSE_L2_MISS | 0x08,				/* local DRAM */
	[0xB] = PNC_DSE_L2_MISS | OMR_REMOTE | 0x08,		/* remote DRAM */
	[0xC] = PNC_DSE_L2_MISS | 0x08,
	[0xD] = PNC_DSE_L2_MISS | OMR_REMOTE | 0x08,
	[0xE] = PNC_DSE_L2_MISS | 0x04,				/* IO */
	[0xF] = 0x0F,						/* uncached */
};

u64 sim_pebs_data_src(const struct sim_core_desc *core, u64 data_src)
{
	if (!core->omr_data_source)
		return data_src;
	/* the STLB-miss, lock and blocked bits 7:4 move to 14:11 */
	return omr_of_snb[data_src & INTEL_DSE_SOURCE_MASK] |
	       (data_src & GENMASK(7, 4)) << (PNC_DSE_FLAGS_SHIFT - 4);
}

void sim_pebs_put_xmm(struct sim_rec *r, const struct sim_gprs *g)
{
	for (unsigned i = 0; i < 16; i++) {
		sim_rec_put(r, g->xmm[i][0]);
		sim_rec_put(r, g->xmm[i][1]);
	}
}

static bool evtsel_is(u64 evtsel, u8 event, u8 umask)
{
	return (evtsel & EVTSEL_EVENT_MASK) == event &&
	       ((evtsel & EVTSEL_UMASK_MASK) >> EVTSEL_UMASK_SHIFT) == umask;
}

/* Golden Cove (Sapphire Rapids, the Alder Lake P-core): a load-latency
 * record has its data source and latency only while the auxiliary event
 * counts on another counter; Linux requires mem-loads-aux in the group
 * because without it "the mem-loads event cannot report the accurate data
 * source and latency" (PMU_FL_MEM_LOADS_AUX): modelled as not reported. */
static bool ldlat_unreported(const struct sim_cpu *c, u64 applicable)
{
	bool ldlat = false, aux = false;
	if (!c->core->ldlat_needs_aux)
		return false;
	for (unsigned i = 0; i < c->core->num_gp; i++) {
		u64 sel = c->r.evtsel[i];
		if ((applicable & BIT(i)) &&
		    evtsel_is(sel, EVENT_MEM_TRANS_RETIRED, UMASK_LOAD_LATENCY))
			ldlat = true;
		if ((sel & EVTSEL_EN) && (c->r.global_ctrl & BIT(i)) &&
		    evtsel_is(sel, EVENT_MEM_LOADS_AUX, UMASK_MEM_LOADS_AUX))
			aux = true;
	}
	return ldlat && !aux;
}

static void write_adaptive(struct sim_cpu *c, u8 *at, u32 size, u64 cfg, u64 applicable,
			   const struct sim_point *pt)
{
	struct sim_rec r = { at };
	sim_rec_put(&r, (u64)size << FORMAT_SIZE_SHIFT | (cfg & GENMASK(47, 0)));
	sim_rec_put(&r, pt->ip);
	sim_rec_put(&r, applicable);
	sim_rec_put(&r, c->tsc);
	if (cfg & PEBS_DATACFG_MEMINFO) {
		bool unreported = ldlat_unreported(c, applicable);
		sim_rec_put(&r, pt->data_addr);
		sim_rec_put(&r, unreported ? 0 : sim_pebs_data_src(c->core, pt->data_src));
		sim_rec_put(&r, unreported ? 0 : meminfo_latency(c, pt));
		sim_rec_put(&r, 0);	/* TSX tuning */
	}
	if (cfg & PEBS_DATACFG_GP)
		sim_pebs_put_adaptive_gprs(&r, &c->gprs, sim_point_next_ip(pt));
	if (cfg & PEBS_DATACFG_XMMS)
		sim_pebs_put_xmm(&r, &c->gprs);
	if (cfg & PEBS_DATACFG_LBRS)
		for (unsigned i = 0; i < lbr_entries(cfg) * 3; i++)
			sim_rec_put(&r, 0);	/* LBRs are not modelled: empty entries */
}

/* SDM 20.6.2.4.2: an adaptive record carries the PEBS_DATA_CFG groups
 * only for counters with their adaptive bit set (EVTSEL[34], resp.
 * FIXED_CTR_CTRL[32+4i]); otherwise the basic group alone. */
static bool wants_groups(const struct sim_cpu *c, u64 applicable)
{
	for (unsigned i = 0; i < SIM_MAX_GP; i++)
		if ((applicable & BIT(i)) && (c->r.evtsel[i] & EVTSEL_ADAPTIVE_RECORD))
			return true;
	for (unsigned i = 0; i < SIM_MAX_FIXED; i++)
		if ((applicable & BIT(GLOBAL_FIXED_SHIFT + i)) &&
		    (c->r.fixed_ctrl & fixed_ctrl_adaptive(i)))
			return true;
	return false;
}

/* Counter reset values: GP i at slot i; fixed i at slot 8+i before
 * format 5, 32+i from format 5. */
static u32 reset_offset(unsigned idx, u8 fmt)
{
	if (idx < GLOBAL_FIXED_SHIFT)
		return DS_PEBS_COUNTER_RESET + 8 * idx;
	unsigned fixed_slot = fmt >= 5 ? DS_RESET_FIXED_SLOT_FMT5 : DS_RESET_FIXED_SLOT_FMT4;
	return DS_PEBS_COUNTER_RESET + 8 * (fixed_slot + idx - GLOBAL_FIXED_SHIFT);
}

static void reload(struct sim_cpu *c, u64 ds, u64 applicable, u8 fmt)
{
	for (unsigned idx = 0; idx < 64; idx++) {
		if (!(applicable & BIT(idx)))
			continue;
		u64 v = ds_get(ds, reset_offset(idx, fmt));
		if (idx >= GLOBAL_FIXED_SHIFT)
			c->r.fixed[idx - GLOBAL_FIXED_SHIFT] = v & width_mask(c->core->fixed_width);
		else
			c->r.pmc[idx] = v & width_mask(c->core->gp_width);
	}
}

/* Writes one record of `size` bytes at `at`: built in a scratch buffer,
 * then stored in one piece (through the machine's memory when one is
 * attached). An injected size cuts the format's record or pads it with
 * zeros. */
#define SCRATCH_BYTES 2048
static void write_record(struct sim_cpu *c, u64 at, u32 size, u8 fmt, u64 cfg,
			 u64 applicable, const struct sim_point *pt)
{
	static u8 scratch[SCRATCH_BYTES] __attribute__((aligned(8)));
	u32 len = MIN(size, (u32)SCRATCH_BYTES);
	/* Only the record's own bytes: this runs once per PEBS overflow. */
	bp_memset(scratch, 0, len);
	if (fmt >= 4)
		write_adaptive(c, scratch, size, cfg, applicable, pt);
	else
		write_legacy(c, scratch, fmt, applicable, pt);
	sim_mem_write(at, scratch, len);
}

/* SDM Vol. 3B ch. 20, the PEBS facility from Nehalem to Skylake: "PEBS
 * events are only valid when the following fields of IA32_PERFEVTSELx are
 * all zero: AnyThread, Edge, Invert, CMask." The SDM gives no behaviour
 * for other settings; real parts take the assist as usual (Linux's
 * cycles:pp on Sandy Bridge to Skylake is UOPS_RETIRED.ALL with inv and
 * cmask=16 on a PEBS counter, intel_pebs_aliases_snb in
 * arch/x86/events/intel/core.c; Intel's Skylake table lists
 * INST_RETIRED.TOTAL_CYCLES_PS with cmask and inv as a PEBS event). So the
 * model writes the record and counts it, for tests to see that software
 * never relies on one outside Intel's tables. */
static bool qualified_pebs(const struct sim_cpu *c, u64 applicable)
{
	u64 fields = EVTSEL_CMASK_MASK | EVTSEL_INV | EVTSEL_EDGE | EVTSEL_ANY;
	for (unsigned i = 0; i < SIM_MAX_GP; i++)
		if ((applicable & BIT(i)) && (c->r.evtsel[i] & fields))
			return true;
	return false;
}

/* The other agent's DS save area (the caller's, already set up). */
static u64 other_area;

void sim_inject_ds_area_taken(u64 records, u64 area)
{
	sim_cur()->ds_taken_after = records;
	other_area = area;
}

static void take_ds_area(struct sim_cpu *c)
{
	c->r.ds_area = other_area;
	c->ds_taken_after = 0;
}

/* Returns true when the record took the index to the interrupt threshold
 * (GLOBAL_STATUS bit 62 is then set and a PMI is due). SDM Vol. 3B, PEBS:
 * "Upon successful bounds checks, the processor will store the data record
 * in the defined buffer area, clear the counter overflow status, and
 * reload the counter. If the bounds checks fail, the PEBS will be skipped
 * entirely": at a full buffer no record, no reload (the counter goes on
 * from zero), and its overflow bit stays set. */
bool sim_pebs_assist(struct sim_cpu *c, u64 applicable, const struct sim_point *pt)
{
	if (sim_arch_pebs())
		return sim_arch_pebs_assist(c, applicable, pt);
	u64 ds = c->r.ds_area;
	u8 fmt = sim_pebs_format();
	if (!ds) {
		sim_model_error("PEBS assist with IA32_DS_AREA = 0: the processor would "
				"write through a null DS save area");
		return false;
	}
	u64 base = ds_get(ds, DS_PEBS_BUFFER_BASE), index = ds_get(ds, DS_PEBS_INDEX);
	u64 absmax = ds_get(ds, DS_PEBS_ABSOLUTE_MAXIMUM);
	u64 threshold = ds_get(ds, DS_PEBS_INTERRUPT_THRESHOLD);
	bool groups = fmt >= 4 && wants_groups(c, applicable);
	u64 cfg = groups ? c->r.pebs_data_cfg : 0;
	u32 real = sim_pebs_record_size(fmt, cfg, groups);
	u32 size = c->pebs_record_size ? c->pebs_record_size : real;
	bool reached = false;

	if (index >= absmax) {
		c->stats.pebs_lost++;	/* full: skipped entirely */
		return false;
	} else if (index < base || index + size > absmax) {
		sim_model_error("PEBS index 0x%llx outside the buffer [0x%llx, 0x%llx) for a "
				"%u-byte record: the processor would write outside it",
				(unsigned long long)index, (unsigned long long)base,
				(unsigned long long)absmax, size);
	} else {
		write_record(c, index, size, fmt, cfg, applicable, pt);
		ds_set(ds, DS_PEBS_INDEX, index + size);
		c->r.global_status &= ~applicable;	/* the record holds the overflow */
		c->stats.pebs_records++;
		c->stats.pebs_qualified += qualified_pebs(c, applicable);
		c->stats.pebs_bytes += size;
		if (index + size >= threshold || c->pebs_threshold_ignored) {
			c->r.global_status |= GLOBAL_STATUS_OVF_BUFFER;
			reached = true;
		}
		if (c->ds_taken_after && c->stats.pebs_records == c->ds_taken_after)
			take_ds_area(c);
	}
	if (!c->pebs_no_reload)
		reload(c, ds, applicable, fmt);
	return reached;
}

static bool ds_ready(const struct sim_cpu *c, const char *what)
{
	if (c->r.ds_area)
		return true;
	sim_model_error("%s: IA32_DS_AREA is 0 on CPU %u", what, c->index);
	return false;
}

void sim_inject_pebs_index(u64 index)
{
	struct sim_cpu *c = sim_cur();
	if (ds_ready(c, "sim_inject_pebs_index"))
		ds_set(c->r.ds_area, DS_PEBS_INDEX, index);
}

void sim_inject_pebs_full(void)
{
	struct sim_cpu *c = sim_cur();
	if (ds_ready(c, "sim_inject_pebs_full"))
		ds_set(c->r.ds_area, DS_PEBS_INDEX, ds_get(c->r.ds_area, DS_PEBS_ABSOLUTE_MAXIMUM));
}

void sim_inject_pebs_record_size(u32 bytes) { sim_cur()->pebs_record_size = bytes; }
void sim_inject_pebs_threshold_ignored(bool on) { sim_cur()->pebs_threshold_ignored = on; }
void sim_inject_pebs_no_reload(bool on) { sim_cur()->pebs_no_reload = on; }
void sim_inject_pebs_status_zero(bool on) { sim_cur()->pebs_status_zero = on; }
