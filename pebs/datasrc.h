/* perf's union perf_mem_data_src encoding (linux/perf_event.h, a stable
 * user ABI that perf.data readers decode), restated with our own names so
 * that portable code needs no Linux header. tests/unit/test_pebs_record.c
 * checks every value against the Linux header, and those newer than it
 * (LVLNUM_L0, the region field) against the values Linux states. */
#ifndef BP_PEBS_DATASRC_H
#define BP_PEBS_DATASRC_H
#include "../lib/types.h"

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
#define BP_MEM_LVLNUM_IO      0x0a
#define BP_MEM_LVLNUM_LFB     0x0c
#define BP_MEM_LVLNUM_RAM     0x0d
#define BP_MEM_LVLNUM_NA      0x0f

#define BP_MEM_REMOTE_REMOTE  0x01

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

/* One field of the encoding: BP_MEM(LVL, HIT) and so on. */
#define BP_MEM(field, value) ((u64)BP_MEM_##field##_##value << BP_MEM_##field##_SHIFT)

/* Intel data-source encoding fields (SDM "Data Source Encoding for Load
 * Latency Record"; store status of precise stores). */
#define INTEL_DSE_SOURCE_MASK     GENMASK(3, 0)
#define INTEL_DSE_LD_STLB_MISS    BIT(4)	/* SNB+ */
#define INTEL_DSE_LD_LOCKED       BIT(5)	/* SNB+ */
#define INTEL_DSE_LD_DATA_BLK     BIT(6)	/* SNB+ */
#define INTEL_DSE_LD_ADDR_BLK     BIT(7)	/* SNB+ */
#define INTEL_DSE_ST_L1D_HIT      BIT(0)
#define INTEL_DSE_ST_STLB_MISS    BIT(4)
#define INTEL_DSE_ST_LOCKED       BIT(5)
/* Store latency (Linux union intel_x86_pebs_dse's st_lat_*): the load
 * source in 3:0, STLB miss 4, locked 5. */
#define INTEL_DSE_ST_LAT_MASK     GENMASK(5, 0)

/* Panther Cove's (Diamond Rapids') load data source, restructured for
 * its off-module response (OMR) encoding (Intel ISE, "PEBS Load Latency
 * and Store Latency Facility"; Linux union intel_x86_pebs_dse's pnc_*
 * fields): bits 7:0 the source (an L2-hit source in [3:0] while L2_MISS
 * is clear, an OMR encoding when it is set), then the STLB, lock and
 * blocking bits. */
#define PNC_DSE_SOURCE_MASK       GENMASK(7, 0)
#define PNC_DSE_L2_HIT_MASK       GENMASK(3, 0)
#define PNC_DSE_L2_MISS           BIT(8)
#define PNC_DSE_STLB_MISS         BIT(11)
#define PNC_DSE_LOCKED            BIT(12)
#define PNC_DSE_DATA_BLK          BIT(13)
#define PNC_DSE_ADDR_BLK          BIT(14)
#define PNC_DSE_FLAGS_SHIFT       11	/* STLB miss .. address blocked: 4 bits */
/* The OMR encoding (Linux union omr_encoding). */
#define OMR_SOURCE_MASK           GENMASK(3, 0)
#define OMR_REMOTE                BIT(4)
#define OMR_HITM                  BIT(5)
#define OMR_SNOOP                 BIT(6)
#define OMR_PROMOTED              BIT(7)
#define OMR_SOURCE_L_SHARE        0x2	/* local CA shared cache */
#define OMR_SOURCE_MMIO           0x7	/* 0x8-0xf: memory regions 0-7 */

#endif
