/* perf's union perf_mem_data_src encoding (linux/perf_event.h, a stable
 * user ABI that perf.data readers decode), restated with our own names so
 * that portable code needs no Linux header. tests/unit/test_pebs_record.c
 * checks every value against the Linux header, and those newer than it
 * (LVLNUM_L0, the region field) against the values Linux states. */
#ifndef BP_PEBS_DATASRC_H
#define BP_PEBS_DATASRC_H
#include "../lib/types.h"
#include "../arch/msr.h"	/* the Intel encodings records carry (INTEL_DSE_*, PNC_DSE_*) */

#define BP_MEM_OP_SHIFT       0
#define BP_MEM_LVL_SHIFT      5
#define BP_MEM_SNOOP_SHIFT    19
#define BP_MEM_LOCK_SHIFT     24
#define BP_MEM_TLB_SHIFT      26
#define BP_MEM_LVLNUM_SHIFT   33
#define BP_MEM_REMOTE_SHIFT   37
#define BP_MEM_SNOOPX_SHIFT   38
#define BP_MEM_BLK_SHIFT      40
#define BP_MEM_REGION_SHIFT   46	/* newer than Linux 6.1's header (below) */

#define BP_MEM_OP_NA          0x01
#define BP_MEM_OP_LOAD        0x02
#define BP_MEM_OP_STORE       0x04
#define BP_MEM_OP_MASK        ((u64)0x1F << BP_MEM_OP_SHIFT)

#define BP_MEM_LVL_NA         0x01
#define BP_MEM_LVL_HIT        0x02
#define BP_MEM_LVL_MISS       0x04
#define BP_MEM_LVL_L1         0x08
#define BP_MEM_LVL_LFB        0x10
#define BP_MEM_LVL_L2         0x20
#define BP_MEM_LVL_L3         0x40
#define BP_MEM_LVL_LOC_RAM    0x80
#define BP_MEM_LVL_REM_RAM1   0x100
#define BP_MEM_LVL_REM_CCE1   0x400
#define BP_MEM_LVL_REM_CCE2   0x800
#define BP_MEM_LVL_IO         0x1000
#define BP_MEM_LVL_UNC        0x2000

#define BP_MEM_SNOOP_NA       0x01
#define BP_MEM_SNOOP_NONE     0x02
#define BP_MEM_SNOOP_HIT      0x04
#define BP_MEM_SNOOP_MISS     0x08
#define BP_MEM_SNOOP_HITM     0x10

#define BP_MEM_SNOOPX_FWD     0x01

#define BP_MEM_LOCK_NA        0x01
#define BP_MEM_LOCK_LOCKED    0x02

#define BP_MEM_TLB_NA         0x01
#define BP_MEM_TLB_HIT        0x02
#define BP_MEM_TLB_MISS       0x04
#define BP_MEM_TLB_L1         0x08
#define BP_MEM_TLB_L2         0x10

/* PERF_MEM_LVLNUM_L0 and the mem_region field came with Diamond Rapids
 * ("perf/x86/intel: Add support for PEBS memory auxiliary info field in
 * DMR", tip perf/core 2026-01-15): readers older than that (perf 6.1)
 * show the level as unknown and ignore the region. */
#define BP_MEM_LVLNUM_L0      0x07
#define BP_MEM_LVLNUM_L1      0x01
#define BP_MEM_LVLNUM_L2      0x02
#define BP_MEM_LVLNUM_L3      0x03
#define BP_MEM_LVLNUM_CXL     0x09
#define BP_MEM_LVLNUM_IO      0x0a
#define BP_MEM_LVLNUM_ANY_CACHE 0x0b
#define BP_MEM_LVLNUM_LFB     0x0c
#define BP_MEM_LVLNUM_RAM     0x0d
#define BP_MEM_LVLNUM_PMEM    0x0e
#define BP_MEM_LVLNUM_NA      0x0f
/* Uncached: newer than Linux 6.1's header (Linux 6.12 has it, 0x08);
 * perf 6.1 shows the level number as unknown and the level as Uncached. */
#define BP_MEM_LVLNUM_UNC     0x08

#define BP_MEM_REMOTE_REMOTE  0x01

#define BP_MEM_HOPS_SHIFT     43
#define BP_MEM_HOPS_0         0x01	/* remote core, same node */
#define BP_MEM_HOPS_1         0x02	/* remote node, same socket */

#define BP_MEM_BLK_NA         0x01
#define BP_MEM_BLK_DATA       0x02
#define BP_MEM_BLK_ADDR       0x04

#define BP_MEM_REGION_L_SHARE      0x02	/* local CA shared cache */
#define BP_MEM_REGION_L_NON_SHARE  0x03	/* local CA non-shared cache */
#define BP_MEM_REGION_O_IO         0x04	/* other CA IO agent */
#define BP_MEM_REGION_O_SHARE      0x05	/* other CA shared cache */
#define BP_MEM_REGION_O_NON_SHARE  0x06	/* other CA non-shared cache */
#define BP_MEM_REGION_MMIO         0x07
#define BP_MEM_REGION_MEM0         0x08	/* memory regions 0-7: 0x08-0x0f */

/* PERF_MEM_NA: nothing known, each field saying so (with the level
 * number, as Linux 6.6 and later: commit "perf/mem: Add
 * PERF_MEM_LVLNUM_NA to PERF_MEM_NA"). */
#define BP_MEM_NA (BP_MEM(OP, NA) | BP_MEM(LVL, NA) | BP_MEM(SNOOP, NA) | \
		   BP_MEM(LOCK, NA) | BP_MEM(TLB, NA) | BP_MEM(LVLNUM, NA))

/* One field of the encoding: BP_MEM(LVL, HIT) and so on. */
#define BP_MEM(field, value) ((u64)BP_MEM_##field##_##value << BP_MEM_##field##_SHIFT)

#endif
