/* pmu/ibs_datasrc.c: an IBS op's IBS_OP_DATA2/3 in perf's data-source
 * encoding, case by case as Linux decodes them (arch/x86/events/amd/ibs.c,
 * perf_ibs_get_mem_lvl and its neighbours; the values are those of Linux
 * 6.12's g_data_src and g_zen4_data_src), checked against the user
 * header's PERF_MEM_* values. */
#include "test.h"
#include <linux/perf_event.h>
#include "pmu/ibs_datasrc.h"
#include "pebs/datasrc.h"
#include "arch/msr.h"

#define LD      (IBS_OP_DATA3_LD_OP | IBS_OP_DATA3_LIN_ADDR_VALID)
#define MISS    IBS_OP_DATA3_DC_MISS
#define L2MISS  IBS_OP_DATA3_L2_MISS
#define HIT(l)  (PERF_MEM_S(LVL, l) | PERF_MEM_S(LVL, HIT))
#define LOAD_L1TLB (PERF_MEM_S(OP, LOAD) | PERF_MEM_S(TLB, L1) | PERF_MEM_S(TLB, HIT) | \
		    PERF_MEM_S(LOCK, NA))

static const struct ibs_cpu genoa = { .ibs_caps = 0xBFF, .family = 0x19, .model = 0x11 };
static const struct ibs_cpu rome = { .ibs_caps = 0x3FF, .family = 0x17, .model = 0x31 };
static const struct ibs_cpu milan = { .ibs_caps = 0x3FF, .family = 0x19, .model = 0x01 };

/* DataSrc in OpData2: 3 bits, bits 7:6 above them with IBS_CAPS_ZEN4. */
static u64 src(unsigned code) { return (code & 7) | (u64)(code >> 3) << 6; }

static void test_levels(void **state)
{
	(void)state;
	/* L1: no DcMiss; L2: DcMiss without L2Miss */
	assert_int_equal(ibs_op_data_src(0, LD, &genoa),
			 LOAD_L1TLB | HIT(L1) | PERF_MEM_S(LVLNUM, L1) | PERF_MEM_S(SNOOP, NA));
	assert_int_equal(ibs_op_data_src(0, LD | MISS, &genoa),
			 LOAD_L1TLB | HIT(L2) | PERF_MEM_S(LVLNUM, L2) | PERF_MEM_S(SNOOP, NA));
	/* Zen 4's local L3, with CacheHitSt (shared): no HITM */
	assert_int_equal(ibs_op_data_src(src(IBS_DATA_SRC_EXT_LOC_CACHE) | IBS_OP_DATA2_CACHE_HIT_ST,
					 LD | MISS | L2MISS, &genoa),
			 LOAD_L1TLB | HIT(L3) | PERF_MEM_S(LVLNUM, L3) | PERF_MEM_S(SNOOP, NA));
	/* ... modified in another core's cache: HITM */
	assert_int_equal(ibs_op_data_src(src(IBS_DATA_SRC_EXT_LOC_CACHE), LD | MISS | L2MISS, &genoa),
			 LOAD_L1TLB | HIT(L3) | PERF_MEM_S(LVLNUM, L3) | PERF_MEM_S(SNOOP, HITM));
	/* Zen 2's coarse local cache: L3 or a near CCX, 0 hops */
	assert_int_equal(ibs_op_data_src(IBS_DATA_SRC_LOC_CACHE | IBS_OP_DATA2_CACHE_HIT_ST,
					 LD | MISS | L2MISS, &rome),
			 LOAD_L1TLB | HIT(L3) | HIT(REM_CCE1) | PERF_MEM_S(LVLNUM, ANY_CACHE) |
			 PERF_MEM_S(HOPS, 0) | PERF_MEM_S(SNOOP, NA));
	/* DRAM, local and on another node (REM_RAM1, one hop) */
	u64 dram = LOAD_L1TLB | PERF_MEM_S(LVLNUM, RAM) | PERF_MEM_S(SNOOP, NA);
	assert_int_equal(ibs_op_data_src(src(IBS_DATA_SRC_EXT_DRAM), LD | MISS | L2MISS, &genoa),
			 dram | HIT(LOC_RAM));
	assert_int_equal(ibs_op_data_src(IBS_DATA_SRC_DRAM | IBS_OP_DATA2_RMT_NODE,
					 LD | MISS | L2MISS, &rome),
			 dram | HIT(REM_RAM1) | PERF_MEM_S(REMOTE, REMOTE) | PERF_MEM_S(HOPS, 1));
	/* a far CCX (5 needs the Zen 4 width), CXL */
	assert_int_equal(ibs_op_data_src(src(IBS_DATA_SRC_EXT_FAR_CCX_CACHE) |
					 IBS_OP_DATA2_CACHE_HIT_ST, LD | MISS | L2MISS, &genoa),
			 LOAD_L1TLB | HIT(REM_CCE2) | PERF_MEM_S(LVLNUM, ANY_CACHE) |
			 PERF_MEM_S(REMOTE, REMOTE) | PERF_MEM_S(HOPS, 1) | PERF_MEM_S(SNOOP, NA));
	assert_int_equal(ibs_op_data_src(src(IBS_DATA_SRC_EXT_EXT_MEM), LD | MISS | L2MISS, &genoa),
			 LOAD_L1TLB | PERF_MEM_S(LVLNUM, CXL) | PERF_MEM_S(SNOOP, NA));
}

/* No DataSrc: the MAB (a miss already in flight) is the fill buffer, else
 * nothing known; uncached accesses are that before anything else. */
static void test_without_source(void **state)
{
	(void)state;
	assert_int_equal(ibs_op_data_src(0, LD | MISS | L2MISS | IBS_OP_DATA3_DC_MISS_NO_MAB_ALLOC,
					 &genoa),
			 LOAD_L1TLB | HIT(LFB) | PERF_MEM_S(LVLNUM, LFB) | PERF_MEM_S(SNOOP, NA));
	assert_int_equal(ibs_op_data_src(0, LD | MISS | L2MISS, &genoa),
			 LOAD_L1TLB | PERF_MEM_S(LVL, NA) | PERF_MEM_S(LVLNUM, NA) |
			 PERF_MEM_S(SNOOP, NA));
	assert_int_equal(ibs_op_data_src(src(IBS_DATA_SRC_EXT_DRAM), LD | IBS_OP_DATA3_DC_UC_MEM_ACC,
					 &genoa),
			 LOAD_L1TLB | HIT(UNC) | PERF_MEM_S(SNOOP, NA) |
			 (u64)BP_MEM_LVLNUM_UNC << PERF_MEM_LVLNUM_SHIFT);
	/* a store's DataSrc is not valid: past L2 nothing is known */
	u64 st = IBS_OP_DATA3_ST_OP | IBS_OP_DATA3_LIN_ADDR_VALID;
	assert_int_equal(ibs_op_data_src(src(IBS_DATA_SRC_EXT_DRAM), st | MISS | L2MISS, &genoa),
			 PERF_MEM_S(OP, STORE) | PERF_MEM_S(TLB, L1) | PERF_MEM_S(TLB, HIT) |
			 PERF_MEM_S(LOCK, NA) | PERF_MEM_S(LVL, NA) | PERF_MEM_S(LVLNUM, NA) |
			 PERF_MEM_S(SNOOP, NA));
	assert_true(ibs_op_is_mem(st));
	assert_false(ibs_op_is_mem(IBS_OP_DATA3_LIN_ADDR_VALID));
}

/* Zen 3 (family 19h model 1) erratum 1293: a software prefetch's L2Miss
 * and OpData2 are not valid, so no L2 hit and no source; CacheHitSt is
 * not valid there either (no HITM). */
static void test_zen3_errata(void **state)
{
	(void)state;
	u64 pf = LD | MISS | IBS_OP_DATA3_SW_PF;
	assert_int_equal(ibs_op_data_src(IBS_DATA_SRC_DRAM, pf, &milan),
			 LOAD_L1TLB | PERF_MEM_S(LVL, NA) | PERF_MEM_S(LVLNUM, NA) |
			 PERF_MEM_S(SNOOP, NA));
	assert_int_equal(ibs_op_data_src(IBS_DATA_SRC_DRAM, pf, &rome),
			 LOAD_L1TLB | HIT(L2) | PERF_MEM_S(LVLNUM, L2) | PERF_MEM_S(SNOOP, NA));
	assert_int_equal(ibs_op_data_src(IBS_DATA_SRC_LOC_CACHE, LD | MISS | L2MISS, &milan) &
			 PERF_MEM_S(SNOOP, HITM), 0);
	assert_int_equal(ibs_op_data_src(IBS_DATA_SRC_LOC_CACHE, LD | MISS | L2MISS, &rome) &
			 PERF_MEM_S(SNOOP, HITM), PERF_MEM_S(SNOOP, HITM));
}

/* The TLB levels and the lock bit. */
static void test_tlb_and_lock(void **state)
{
	(void)state;
	u64 tlb_mask = (u64)0x7F << PERF_MEM_TLB_SHIFT;
	assert_int_equal(ibs_op_data_src(0, LD | IBS_OP_DATA3_DC_L1TLB_MISS, &genoa) & tlb_mask,
			 PERF_MEM_S(TLB, L2) | PERF_MEM_S(TLB, HIT));
	assert_int_equal(ibs_op_data_src(0, LD | IBS_OP_DATA3_DC_L1TLB_MISS |
					 IBS_OP_DATA3_DC_L2TLB_MISS, &genoa) & tlb_mask,
			 PERF_MEM_S(TLB, L2) | PERF_MEM_S(TLB, MISS));
	assert_int_equal(ibs_op_data_src(0, IBS_OP_DATA3_LD_OP, &genoa) & tlb_mask,
			 PERF_MEM_S(TLB, NA));
	u64 lock_mask = (u64)0x3 << PERF_MEM_LOCK_SHIFT;
	assert_int_equal(ibs_op_data_src(0, LD | IBS_OP_DATA3_DC_LOCKED_OP, &genoa) & lock_mask,
			 PERF_MEM_S(LOCK, LOCKED));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_without_source),
		cmocka_unit_test(test_zen3_errata),
		cmocka_unit_test(test_tlb_and_lock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
