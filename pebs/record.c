/* PEBS record layouts and decoding; see record.h. */
#include "record.h"
#include "decode.h"
#include "datasrc.h"
#include "../arch/msr.h"
#include "../lib/fmt.h"
#include "../lib/str.h"

static const u32 fixed_format_size[4] = {
	PEBS_FMT0_SIZE, PEBS_FMT1_SIZE, PEBS_FMT2_SIZE, PEBS_FMT3_SIZE,
};

#define PEBS_DATACFG_KNOWN \
	(PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP | PEBS_DATACFG_XMMS | \
	 PEBS_DATACFG_LBRS | GENMASK(31, PEBS_DATACFG_LBR_SHIFT))

static void set_err(char *err, size_t errlen, const char *fmt, u64 v)
{
	if (err && errlen)
		bp_snprintf(err, errlen, fmt, (unsigned long long)v);
}

/* Adaptive records: the basic group, then each selected group in the
 * order of SDM 20.9.2 (memory info, GPRs, XMMs, LBRs). */
static void adaptive_layout(struct pebs_layout *l, u64 cfg)
{
	u32 off = PEBS_BASIC_SIZE;
	if (cfg & PEBS_DATACFG_MEMINFO) {
		l->meminfo_off = off;
		off += PEBS_MEMINFO_SIZE;
	}
	if (cfg & PEBS_DATACFG_GP) {
		l->gpr_off = off;
		off += PEBS_GPR_SIZE;
	}
	if (cfg & PEBS_DATACFG_XMMS) {
		l->xmm_off = off;
		off += PEBS_XMM_SIZE;
	}
	if (cfg & PEBS_DATACFG_LBRS) {
		l->lbr_off = off;
		l->lbr_entries = (u32)FIELD(cfg, 31, PEBS_DATACFG_LBR_SHIFT) + 1;
		off += l->lbr_entries * PEBS_LBR_ENTRY_SIZE;
	}
	l->record_size = off;
}

bool pebs_layout_init(struct pebs_layout *l, u8 format, u64 data_cfg,
		      char *err, size_t errlen)
{
	bp_memset(l, 0, sizeof(*l));
	l->format = format;
	if (format > PEBS_FMT_MAX) {
		set_err(err, errlen, "PEBS record format %llu is unknown to bareperf "
			"(it decodes formats 0 to 6): PEBS is refused; drop the :p modifier "
			"to sample in PMI mode", format);
		return false;
	}
	if (format < 4) {
		l->record_size = fixed_format_size[format];
		return true;
	}
	if (data_cfg & ~PEBS_DATACFG_KNOWN) {
		set_err(err, errlen, "PEBS_DATA_CFG 0x%llx has bits outside the "
			"memory-info, GPR, XMM and LBR groups", data_cfg);
		return false;
	}
	l->adaptive = true;
	l->data_cfg = data_cfg;
	adaptive_layout(l, data_cfg);
	return true;
}

u32 pebs_record_size(u8 format, u64 data_cfg)
{
	struct pebs_layout l;
	return pebs_layout_init(&l, format, data_cfg, NULL, 0) ? l.record_size : 0;
}

u32 pebs_record_fields(u8 format)
{
	u32 always = BP_SAMPLE_IP | BP_SAMPLE_TID | BP_SAMPLE_CPU | BP_SAMPLE_PERIOD |
		     PEBS_MEM_FIELDS | BP_SAMPLE_WEIGHT_STRUCT | BP_SAMPLE_REGS_INTR;
	return always | (format >= 3 ? BP_SAMPLE_TIME : 0);
}

u64 pebs_data_cfg_for(const struct pebs_want *w)
{
	u64 cfg = 0;
	if (w->fields & PEBS_MEM_FIELDS)
		cfg |= PEBS_DATACFG_MEMINFO;
	if (w->fields & BP_SAMPLE_REGS_INTR)
		cfg |= PEBS_DATACFG_GP;
	if (w->lbr_entries) {
		u64 n = MIN(w->lbr_entries, PEBS_LBR_MAX_ENTRIES);
		cfg |= PEBS_DATACFG_LBRS | ((n - 1) << PEBS_DATACFG_LBR_SHIFT);
	}
	return cfg;
}

u32 pebs_record_mark_offset(const struct pebs_layout *l)
{
	u32 applicable = pebs_record_applicable_offset(l);
	return applicable ? applicable : PEBS_REC_FLAGS;
}

void pebs_record_mark_consumed(const struct pebs_layout *l, void *rec)
{
	pebs_rec_mark_consumed(rec, pebs_record_mark_offset(l));
}

u32 pebs_record_applicable_offset(const struct pebs_layout *l)
{
	if (l->adaptive)
		return PEBS_BASIC_APPLICABLE;
	return l->format >= 1 ? PEBS_REC_STATUS : 0;
}

u64 pebs_record_applicable(const struct pebs_layout *l, const void *rec)
{
	u32 off = pebs_record_applicable_offset(l);
	return off ? pebs_rec_u64(rec, off) : 0;
}

/* ---- data source ------------------------------------------------------ */

/* Intel's load data-source values [3:0] (SDM "Data Source Encoding for
 * Load Latency Record", SNB and later big cores), as perf levels. The
 * memory level field carries HIT for "served from here" (perf tools read
 * it that way), with MISS added where the record only says "missed L3". */
struct dse_entry {
	u16 lvl;
	u8 lvlnum, snoop;
	bool remote;
};

static const struct dse_entry dse_load_snb[16] = {
	[0x0] = { BP_MEM_LVL_MISS | BP_MEM_LVL_L3, BP_MEM_LVLNUM_NA, BP_MEM_SNOOP_NA, false },	/* unknown L3 miss */
	[0x1] = { BP_MEM_LVL_HIT | BP_MEM_LVL_L1, BP_MEM_LVLNUM_L1, BP_MEM_SNOOP_NONE, false },
	[0x2] = { BP_MEM_LVL_HIT | BP_MEM_LVL_LFB, BP_MEM_LVLNUM_LFB, BP_MEM_SNOOP_NONE, false },	/* pending core cache hit */
	[0x3] = { BP_MEM_LVL_HIT | BP_MEM_LVL_L2, BP_MEM_LVLNUM_L2, BP_MEM_SNOOP_NONE, false },
	[0x4] = { BP_MEM_LVL_HIT | BP_MEM_LVL_L3, BP_MEM_LVLNUM_L3, BP_MEM_SNOOP_NONE, false },	/* no snoop needed */
	[0x5] = { BP_MEM_LVL_HIT | BP_MEM_LVL_L3, BP_MEM_LVLNUM_L3, BP_MEM_SNOOP_MISS, false },	/* other core: miss */
	[0x6] = { BP_MEM_LVL_HIT | BP_MEM_LVL_L3, BP_MEM_LVLNUM_L3, BP_MEM_SNOOP_HIT, false },	/* other core: clean hit */
	[0x7] = { BP_MEM_LVL_HIT | BP_MEM_LVL_L3, BP_MEM_LVLNUM_L3, BP_MEM_SNOOP_HITM, false },	/* other core: modified */
	[0x8] = { BP_MEM_LVL_HIT | BP_MEM_LVL_REM_CCE1, BP_MEM_LVLNUM_L3, BP_MEM_SNOOP_HIT, true },	/* remote cache forward */
	[0x9] = { BP_MEM_LVL_HIT | BP_MEM_LVL_REM_CCE1, BP_MEM_LVLNUM_L3, BP_MEM_SNOOP_HITM, true },	/* remote cache HITM */
	[0xA] = { BP_MEM_LVL_HIT | BP_MEM_LVL_LOC_RAM, BP_MEM_LVLNUM_RAM, BP_MEM_SNOOP_HIT, false },	/* local DRAM, shared */
	[0xB] = { BP_MEM_LVL_HIT | BP_MEM_LVL_REM_RAM1, BP_MEM_LVLNUM_RAM, BP_MEM_SNOOP_HIT, true },	/* remote DRAM, shared */
	[0xC] = { BP_MEM_LVL_HIT | BP_MEM_LVL_LOC_RAM, BP_MEM_LVLNUM_RAM, BP_MEM_SNOOP_NONE | BP_MEM_SNOOP_MISS, false },	/* local DRAM, exclusive */
	[0xD] = { BP_MEM_LVL_HIT | BP_MEM_LVL_REM_RAM1, BP_MEM_LVLNUM_RAM, BP_MEM_SNOOP_NONE | BP_MEM_SNOOP_MISS, true },	/* remote DRAM, exclusive */
	[0xE] = { BP_MEM_LVL_HIT | BP_MEM_LVL_IO, BP_MEM_LVLNUM_IO, BP_MEM_SNOOP_NONE, false },
	[0xF] = { BP_MEM_LVL_HIT | BP_MEM_LVL_UNC, BP_MEM_LVLNUM_NA, BP_MEM_SNOOP_NONE, false },	/* uncached */
};

static u64 dse_entry_value(const struct dse_entry *e)
{
	u64 v = BP_MEM(OP, LOAD);
	v |= (u64)e->lvl << BP_MEM_LVL_SHIFT;
	v |= (u64)e->lvlnum << BP_MEM_LVLNUM_SHIFT;
	v |= (u64)e->snoop << BP_MEM_SNOOP_SHIFT;
	if (e->remote)
		v |= BP_MEM(REMOTE, REMOTE);
	return v;
}

/* Gracemont's load data sources (Linux: __intel_pmu_pebs_data_source_grt
 * in arch/x86/events/intel/ds.c): 0x5 an L3 hit with a clean snoop hit,
 * 0x6 with a modified line, 0x8 an L3 hit forwarded from another core;
 * the rest as on big cores. Returns the snoopx bits the entry cannot hold. */
static u64 grt_patch(struct dse_entry *e, u64 src)
{
	if (src != 0x5 && src != 0x6 && src != 0x8)
		return 0;
	*e = dse_load_snb[0x4];	/* an L3 hit */
	e->snoop = src == 0x5 ? BP_MEM_SNOOP_HIT : src == 0x6 ? BP_MEM_SNOOP_HITM : BP_MEM_SNOOP_NA;
	return src == 0x8 ? BP_MEM(SNOOPX, FWD) : 0;
}

u64 pebs_data_src_load(u64 dse, enum pebs_dse_family fam)
{
	if (fam == PEBS_DSE_PNC)
		return pebs_data_src_load_pnc(dse);
	struct dse_entry e = dse_load_snb[dse & INTEL_DSE_SOURCE_MASK];
	if (fam == PEBS_DSE_NHM) {
		/* Nehalem/Westmere: an L3 hit with 0x5 is a clean snoop hit,
		 * 0x6 and 0x7 a modified line in another core. These parts
		 * have no STLB, lock or blocking bits in the record. */
		u64 src = dse & INTEL_DSE_SOURCE_MASK;
		if (src == 0x5)
			e.snoop = BP_MEM_SNOOP_HIT;
		else if (src == 0x6 || src == 0x7)
			e.snoop = BP_MEM_SNOOP_HITM;
		return dse_entry_value(&e) | BP_MEM(TLB, NA) | BP_MEM(LOCK, NA) | BP_MEM(BLK, NA);
	}
	u64 snoopx = fam == PEBS_DSE_GRT ? grt_patch(&e, dse & INTEL_DSE_SOURCE_MASK) : 0;
	u64 v = dse_entry_value(&e) | snoopx;
	if (dse & INTEL_DSE_LD_STLB_MISS)
		v |= BP_MEM(TLB, MISS) | BP_MEM(TLB, L2);
	else
		v |= BP_MEM(TLB, HIT) | BP_MEM(TLB, L1) | BP_MEM(TLB, L2);
	v |= (dse & INTEL_DSE_LD_LOCKED) ? BP_MEM(LOCK, LOCKED) : BP_MEM(LOCK, NA);
	if (dse & (INTEL_DSE_LD_DATA_BLK | INTEL_DSE_LD_ADDR_BLK)) {
		if (dse & INTEL_DSE_LD_DATA_BLK)
			v |= BP_MEM(BLK, DATA);
		if (dse & INTEL_DSE_LD_ADDR_BLK)
			v |= BP_MEM(BLK, ADDR);
	} else {
		v |= BP_MEM(BLK, NA);
	}
	return v;
}

void pebs_load_sources_init(struct pebs_load_sources *t, enum pebs_dse_family fam)
{
	t->pnc = fam == PEBS_DSE_PNC;
	if (t->pnc) {
		pebs_pnc_load_sources_init(t);
		return;
	}
	for (unsigned b = 0; b < PEBS_LOAD_SRC_BYTES; b++)
		t->by_low_byte[b] = pebs_data_src_load(b, fam);
}

/* Precise stores report only whether the store hit L1D, an STLB miss and
 * a lock: no snoop information. */
u64 pebs_data_src_store(u64 dse)
{
	u64 v = BP_MEM(OP, STORE) | BP_MEM(SNOOP, NA) | BP_MEM(LVL, L1) |
		((u64)BP_MEM_LVLNUM_L1 << BP_MEM_LVLNUM_SHIFT);
	v |= (dse & INTEL_DSE_ST_L1D_HIT) ? BP_MEM(LVL, HIT) : BP_MEM(LVL, MISS);
	v |= (dse & INTEL_DSE_ST_STLB_MISS) ? BP_MEM(TLB, MISS) | BP_MEM(TLB, L2)
					    : BP_MEM(TLB, HIT) | BP_MEM(TLB, L1) | BP_MEM(TLB, L2);
	v |= (dse & INTEL_DSE_ST_LOCKED) ? BP_MEM(LOCK, LOCKED) : BP_MEM(LOCK, NA);
	return v;
}

/* ---- decode ----------------------------------------------------------- */

void pebs_record_decode(const struct pebs_layout *l, const void *rec,
			enum pebs_mem_kind mem, enum pebs_dse_family fam,
			struct bp_sample *s)
{
	struct pebs_load_sources loads;	/* 2.3 KiB: the main flow's callers only */
	static pebs_decode_fn *const by_kind[PEBS_DECODERS] = {
		[PEBS_DECODE_FMT0] = pebs_decode_fmt0,
		[PEBS_DECODE_FMT1] = pebs_decode_fmt1,
		[PEBS_DECODE_FMT2] = pebs_decode_fmt2,
		[PEBS_DECODE_FMT3] = pebs_decode_fmt3,
		[PEBS_DECODE_BASIC] = pebs_decode_basic,
		[PEBS_DECODE_MEMINFO] = pebs_decode_meminfo,
	};
	if (mem == PEBS_MEM_LOAD || mem == PEBS_MEM_STORE_LATENCY)
		pebs_load_sources_init(&loads, fam);
	by_kind[pebs_decoder_kind(l)](l, rec, mem, &loads, s);
}

/* Register order in the record, per layout family. */
static const u8 fixed_reg_order[PEBS_REG_COUNT] = {
	PEBS_REG_FLAGS, PEBS_REG_IP, PEBS_REG_AX, PEBS_REG_BX, PEBS_REG_CX,
	PEBS_REG_DX, PEBS_REG_SI, PEBS_REG_DI, PEBS_REG_BP, PEBS_REG_SP,
	PEBS_REG_R8, PEBS_REG_R9, PEBS_REG_R10, PEBS_REG_R11, PEBS_REG_R12,
	PEBS_REG_R13, PEBS_REG_R14, PEBS_REG_R15,
};
static const u8 adaptive_reg_order[PEBS_REG_COUNT] = {
	PEBS_REG_FLAGS, PEBS_REG_IP, PEBS_REG_AX, PEBS_REG_CX, PEBS_REG_DX,
	PEBS_REG_BX, PEBS_REG_SP, PEBS_REG_BP, PEBS_REG_SI, PEBS_REG_DI,
	PEBS_REG_R8, PEBS_REG_R9, PEBS_REG_R10, PEBS_REG_R11, PEBS_REG_R12,
	PEBS_REG_R13, PEBS_REG_R14, PEBS_REG_R15,
};

bool pebs_record_regs(const struct pebs_layout *l, const void *rec, struct pebs_regs *out)
{
	const u8 *order = fixed_reg_order;
	const u8 *base = rec;
	if (l->adaptive) {
		if (!l->gpr_off)
			return false;
		order = adaptive_reg_order;
		base += l->gpr_off;
	}
	for (unsigned i = 0; i < PEBS_REG_COUNT; i++)
		out->r[order[i]] = pebs_rec_u64(base, i * 8);
	return true;
}
