/* An IBS op's data source in perf's encoding (ibs_datasrc.h). The rules
 * are Linux's (arch/x86/events/amd/ibs.c: perf_ibs_get_mem_lvl,
 * perf_ibs_get_mem_snoop, perf_ibs_get_tlb_lvl, perf_ibs_get_mem_lock),
 * the register fields the APM's (Vol. 2, "IBS Op Data 2/3 Register"). */
#include "ibs_datasrc.h"
#include "../arch/msr.h"
#include "../pebs/datasrc.h"

#define HIT(lvl)   (BP_MEM(LVL, lvl) | BP_MEM(LVL, HIT))
#define LNUM(n)    BP_MEM(LVLNUM, n)
#define REMOTE     BP_MEM(REMOTE, REMOTE)
#define HOPS(n)    BP_MEM(HOPS, n)

/* DataSrc of parts before Zen 4 (3 bits). */
static const u64 coarse_src[8] = {
	[IBS_DATA_SRC_LOC_CACHE] = HIT(L3) | HIT(REM_CCE1) | LNUM(ANY_CACHE) | HOPS(0),
	[IBS_DATA_SRC_DRAM]      = HIT(LOC_RAM) | LNUM(RAM),
	[IBS_DATA_SRC_REM_CACHE] = HIT(REM_CCE2) | LNUM(ANY_CACHE) | REMOTE | HOPS(1),
	[IBS_DATA_SRC_IO]        = HIT(IO) | LNUM(IO),
};

/* DataSrc with IBS_CAPS_ZEN4 (5 bits). */
static const u64 zen4_src[32] = {
	[IBS_DATA_SRC_EXT_LOC_CACHE]      = HIT(L3) | LNUM(L3),
	[IBS_DATA_SRC_EXT_NEAR_CCX_CACHE] = HIT(REM_CCE1) | LNUM(ANY_CACHE) | REMOTE | HOPS(0),
	[IBS_DATA_SRC_EXT_DRAM]           = HIT(LOC_RAM) | LNUM(RAM),
	[IBS_DATA_SRC_EXT_FAR_CCX_CACHE]  = HIT(REM_CCE2) | LNUM(ANY_CACHE) | REMOTE | HOPS(1),
	[IBS_DATA_SRC_EXT_PMEM]           = LNUM(PMEM),
	[IBS_DATA_SRC_EXT_IO]             = HIT(IO) | LNUM(IO),
	[IBS_DATA_SRC_EXT_EXT_MEM]        = LNUM(CXL),
};

/* The sources RmtNode applies to: memory, not caches. */
static bool remote_applies(unsigned src, bool zen4)
{
	if (zen4)
		return src == IBS_DATA_SRC_EXT_DRAM || src == IBS_DATA_SRC_EXT_PMEM ||
		       src == IBS_DATA_SRC_EXT_EXT_MEM;
	return src == IBS_DATA_SRC_DRAM;
}

/* Zen 3 (family 19h models 0-Fh) erratum 1293: for software prefetches
 * and misses without a MAB, IBS_OP_DATA2 and L2Miss are not valid. */
static bool erratum_1293(const struct ibs_cpu *cpu, u64 d3)
{
	return cpu->family == 0x19 && cpu->model <= 0xF &&
	       (d3 & (IBS_OP_DATA3_SW_PF | IBS_OP_DATA3_DC_MISS_NO_MAB_ALLOC));
}

static unsigned data_src_code(u64 d2, const struct ibs_cpu *cpu)
{
	return ibs_op_data2_source(d2, cpu->ibs_caps & IBS_CAPS_ZEN4);
}

/* A load's DataSrc entry, RmtNode folded in (HOPS 1: IBS does not say
 * how far the remote node is); 0 when DataSrc says nothing. */
static u64 load_source(u64 d2, const struct ibs_cpu *cpu)
{
	bool zen4 = cpu->ibs_caps & IBS_CAPS_ZEN4;
	unsigned src = data_src_code(d2, cpu);
	u64 v = zen4 ? zen4_src[src] : coarse_src[src & 7];
	if (!v || !(d2 & IBS_OP_DATA2_RMT_NODE) || !remote_applies(src, zen4))
		return v;
	if (src == IBS_DATA_SRC_DRAM)	/* the same code in both tables */
		return HIT(REM_RAM1) | LNUM(RAM) | REMOTE | HOPS(1);
	return v | REMOTE | HOPS(1);
}

/* The level: uncached, L1, L2, then DataSrc (loads only), then the miss
 * buffer; DcMiss, L2Miss and DataSrc mean nothing for uncached accesses. */
static u64 mem_level(u64 d2, u64 d3, const struct ibs_cpu *cpu)
{
	if ((d3 & IBS_OP_DATA3_DC_UC_MEM_ACC) && data_src_code(d2, cpu) != IBS_DATA_SRC_EXT_IO)
		return HIT(UNC) | LNUM(UNC);
	if (!(d3 & IBS_OP_DATA3_DC_MISS))
		return HIT(L1) | LNUM(L1);
	if (!(d3 & IBS_OP_DATA3_L2_MISS) && !erratum_1293(cpu, d3))
		return HIT(L2) | LNUM(L2);
	u64 v = (d3 & IBS_OP_DATA3_LD_OP) ? load_source(d2, cpu) : 0;
	if (v)
		return v;
	if (d3 & IBS_OP_DATA3_DC_MISS_NO_MAB_ALLOC)
		return HIT(LFB) | LNUM(LFB);
	return BP_MEM(LVL, NA) | LNUM(NA);
}

/* CacheHitSt is not valid on family 19h models 0-Fh and 20h-5Fh. */
static bool cache_hit_st_valid(const struct ibs_cpu *cpu)
{
	return !(cpu->family == 0x19 &&
		 (cpu->model <= 0xF || (cpu->model >= 0x20 && cpu->model <= 0x5F)));
}

/* A load served by a cache beyond L2 in the modified state: HITM. */
static u64 snoop(u64 d2, u64 d3, u64 level, const struct ibs_cpu *cpu)
{
	if (!cache_hit_st_valid(cpu) || !(d3 & IBS_OP_DATA3_LD_OP) ||
	    (level & (BP_MEM(LVL, L1) | BP_MEM(LVL, L2))) || (d2 & IBS_OP_DATA2_CACHE_HIT_ST))
		return BP_MEM(SNOOP, NA);
	unsigned src = data_src_code(d2, cpu);
	bool hitm = (cpu->ibs_caps & IBS_CAPS_ZEN4) ?
		    src == IBS_DATA_SRC_EXT_LOC_CACHE || src == IBS_DATA_SRC_EXT_NEAR_CCX_CACHE ||
		    src == IBS_DATA_SRC_EXT_FAR_CCX_CACHE : src == IBS_DATA_SRC_LOC_CACHE;
	return hitm ? BP_MEM(SNOOP, HITM) : BP_MEM(SNOOP, NA);
}

static u64 tlb(u64 d3)
{
	if (!(d3 & IBS_OP_DATA3_LIN_ADDR_VALID))
		return BP_MEM(TLB, NA);
	if (!(d3 & IBS_OP_DATA3_DC_L1TLB_MISS))
		return BP_MEM(TLB, L1) | BP_MEM(TLB, HIT);
	if (!(d3 & IBS_OP_DATA3_DC_L2TLB_MISS))
		return BP_MEM(TLB, L2) | BP_MEM(TLB, HIT);
	return BP_MEM(TLB, L2) | BP_MEM(TLB, MISS);
}

bool ibs_op_is_mem(u64 op_data3)
{
	return op_data3 & (IBS_OP_DATA3_LD_OP | IBS_OP_DATA3_ST_OP);
}

u64 ibs_op_data_src(u64 op_data2, u64 op_data3, const struct ibs_cpu *cpu)
{
	u64 d2 = erratum_1293(cpu, op_data3) ? 0 : op_data2;	/* Linux perf_ibs_get_op_data2 */
	u64 op = (op_data3 & IBS_OP_DATA3_LD_OP) ? BP_MEM(OP, LOAD) : BP_MEM(OP, STORE);
	u64 level = mem_level(d2, op_data3, cpu);
	u64 lock = (op_data3 & IBS_OP_DATA3_DC_LOCKED_OP) ? BP_MEM(LOCK, LOCKED) : BP_MEM(LOCK, NA);
	return op | level | snoop(d2, op_data3, level, cpu) | tlb(op_data3) | lock;
}
