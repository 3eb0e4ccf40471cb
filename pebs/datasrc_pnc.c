/* Panther Cove's (Diamond Rapids') PEBS load data source as perf's
 * union perf_mem_data_src, as Linux 7.0 decodes it (pnc_latency_data,
 * pnc_pebs_l2_hit_data_source, parse_omr_data_source in
 * arch/x86/events/intel/ds.c; Intel ISE, "PEBS Load Latency and Store
 * Latency Facility"). The field says where an L2 hit came from, or, on an
 * L2 miss, which region answered (the OMR encoding: a cache of this or
 * another coherent agent, an IO agent, MMIO or one of eight memory
 * regions). The record's encoding in arch/msr.h (PNC_DSE_*, OMR_*), perf's
 * in datasrc.h. */
#include "record.h"

#define OP_LOAD_HIT (BP_MEM(OP, LOAD) | BP_MEM(LVL, HIT))
#define LEVEL(n)    ((u64)BP_MEM_LVLNUM_##n << BP_MEM_LVLNUM_SHIFT)
#define REGION(r)   ((u64)(r) << BP_MEM_REGION_SHIFT)
#define NO_SOURCE   (BP_MEM(OP, LOAD) | BP_MEM(LVL, NA) | LEVEL(NA) | BP_MEM(SNOOP, NA))
#define RESERVED    (BP_MEM(OP, LOAD) | LEVEL(NA) | BP_MEM(SNOOP, NA))	/* Linux's fallback */

/* Sources of an L2 hit (L2_MISS clear), by bits 3:0; 0: reserved. */
static const u64 l2_hit[PNC_LOAD_SRC_L2_HITS] = {
	[0x0] = NO_SOURCE,						/* not a cacheable access */
	[0x1] = OP_LOAD_HIT | LEVEL(L0) | BP_MEM(SNOOP, NONE),
	[0x2] = OP_LOAD_HIT | BP_MEM(LVL, L1) | LEVEL(L1) | BP_MEM(SNOOP, NONE),
	[0x3] = OP_LOAD_HIT | BP_MEM(LVL, LFB) | LEVEL(LFB) | BP_MEM(SNOOP, NONE),	/* fill buffer */
	[0x4] = OP_LOAD_HIT | BP_MEM(LVL, L2) | LEVEL(L2) | BP_MEM(SNOOP, NONE),	/* clean */
	[0x7] = OP_LOAD_HIT | BP_MEM(LVL, L2) | LEVEL(L2) | BP_MEM(SNOOP, HIT),
	[0x8] = OP_LOAD_HIT | BP_MEM(LVL, L2) | LEVEL(L2) | BP_MEM(SNOOP, HITM),
	[0x9] = OP_LOAD_HIT | BP_MEM(LVL, L2) | LEVEL(L2) | BP_MEM(SNOOP, MISS),	/* prefetch promotion */
	[0xA] = OP_LOAD_HIT | BP_MEM(LVL, L2) | LEVEL(L2) | BP_MEM(SNOOP, MISS),	/* cross-core promotion */
	[0xF] = OP_LOAD_HIT | BP_MEM(LVL, UNC) | LEVEL(NA) | BP_MEM(SNOOP, NONE),	/* uncached */
};

/* The region an OMR source names, by its source bits; 0: reserved. */
static const u64 omr_region[16] = {
	[0x0] = NO_SOURCE,						/* invalid */
	[0x2] = OP_LOAD_HIT | BP_MEM(LVL, L3) | LEVEL(L3) | REGION(BP_MEM_REGION_L_SHARE),
	[0x3] = OP_LOAD_HIT | BP_MEM(LVL, L3) | LEVEL(L3) | REGION(BP_MEM_REGION_L_NON_SHARE),
	[0x4] = OP_LOAD_HIT | BP_MEM(LVL, L3) | LEVEL(L3) | REGION(BP_MEM_REGION_O_IO),
	[0x5] = OP_LOAD_HIT | BP_MEM(LVL, L3) | LEVEL(L3) | REGION(BP_MEM_REGION_O_SHARE),
	[0x6] = OP_LOAD_HIT | BP_MEM(LVL, L3) | LEVEL(L3) | REGION(BP_MEM_REGION_O_NON_SHARE),
	[0x7] = OP_LOAD_HIT | LEVEL(RAM) | REGION(BP_MEM_REGION_MMIO),
	[0x8] = OP_LOAD_HIT | LEVEL(RAM) | REGION(BP_MEM_REGION_MEM0),
	[0x9] = OP_LOAD_HIT | LEVEL(RAM) | REGION(BP_MEM_REGION_MEM0 + 1),
	[0xA] = OP_LOAD_HIT | LEVEL(RAM) | REGION(BP_MEM_REGION_MEM0 + 2),
	[0xB] = OP_LOAD_HIT | LEVEL(RAM) | REGION(BP_MEM_REGION_MEM0 + 3),
	[0xC] = OP_LOAD_HIT | LEVEL(RAM) | REGION(BP_MEM_REGION_MEM0 + 4),
	[0xD] = OP_LOAD_HIT | LEVEL(RAM) | REGION(BP_MEM_REGION_MEM0 + 5),
	[0xE] = OP_LOAD_HIT | LEVEL(RAM) | REGION(BP_MEM_REGION_MEM0 + 6),
	[0xF] = OP_LOAD_HIT | LEVEL(RAM) | REGION(BP_MEM_REGION_MEM0 + 7),
};

/* The snoop of a local shared-cache hit, from the snoop and promoted
 * bits (Linux parse_omr_data_source, source 0x2: its table has four
 * entries, but it ORs the two one-bit fields, so only NA and MISS occur;
 * we decode as Linux does, so perf shows what it shows on Linux). */
static const u8 l_share_snoop[2] = { BP_MEM_SNOOP_NA, BP_MEM_SNOOP_MISS };

static u64 omr_source(u8 omr)
{
	u8 source = omr & OMR_SOURCE_MASK;
	u64 v = omr_region[source];
	bool remote = omr & OMR_REMOTE;
	bool cache = source >= OMR_SOURCE_L_SHARE && source < OMR_SOURCE_MMIO;
	if (cache && remote)
		v |= BP_MEM(LVL, REM_CCE1);
	else if (source > OMR_SOURCE_MMIO)
		v |= remote ? BP_MEM(LVL, REM_RAM1) : BP_MEM(LVL, LOC_RAM);
	if (remote)
		v |= BP_MEM(REMOTE, REMOTE);
	v |= (omr & OMR_HITM) ? BP_MEM(SNOOP, HITM) : BP_MEM(SNOOP, HIT);
	if (source == OMR_SOURCE_L_SHARE) {
		unsigned snoop = !!(omr & OMR_SNOOP) | !!(omr & OMR_PROMOTED);
		v |= (u64)l_share_snoop[snoop] << BP_MEM_SNOOP_SHIFT;
	} else if (cache && (omr & OMR_SNOOP)) {
		v |= BP_MEM(SNOOPX, FWD);
	}
	return v;
}

/* The source part of the field (bits 8:0); Linux's fallback for a
 * reserved one (an OMR source always has a snoop bit, so only reserved
 * L2-hit sources fall back). */
static u64 source_of(u64 dse)
{
	u64 v = (dse & PNC_DSE_L2_MISS) ? omr_source((u8)(dse & PNC_DSE_SOURCE_MASK))
					: l2_hit[dse & PNC_DSE_L2_HIT_MASK];
	return v ? v : RESERVED;
}

/* The STLB, lock and blocking part (bits 14:11). Unlike the earlier
 * cores' decode, Linux says nothing of the lock when the load was not
 * locked. */
static u64 flags_of(u64 dse)
{
	u64 v = (dse & PNC_DSE_STLB_MISS) ? BP_MEM(TLB, MISS) | BP_MEM(TLB, L2)
					  : BP_MEM(TLB, HIT) | BP_MEM(TLB, L1) | BP_MEM(TLB, L2);
	if (dse & PNC_DSE_LOCKED)
		v |= BP_MEM(LOCK, LOCKED);
	if (dse & PNC_DSE_DATA_BLK)
		v |= BP_MEM(BLK, DATA);
	if (dse & PNC_DSE_ADDR_BLK)
		v |= BP_MEM(BLK, ADDR);
	if (!(dse & (PNC_DSE_DATA_BLK | PNC_DSE_ADDR_BLK)))
		v |= BP_MEM(BLK, NA);
	return v;
}

u64 pebs_data_src_load_pnc(u64 dse)
{
	return source_of(dse) | flags_of(dse);
}

void pebs_pnc_load_sources_init(struct pebs_load_sources *t)
{
	for (unsigned b = 0; b < PEBS_LOAD_SRC_BYTES; b++)
		t->by_low_byte[b] = source_of(PNC_DSE_L2_MISS | b);
	for (unsigned s = 0; s < PNC_LOAD_SRC_L2_HITS; s++)
		t->pnc_l2_hit[s] = source_of(s);
	for (unsigned f = 0; f < PNC_LOAD_SRC_FLAGS; f++)
		t->pnc_flags[f] = flags_of((u64)f << PNC_DSE_FLAGS_SHIFT);
}
