/* PEBS record formats 0..5 (SDM Vol. 3B 20.6.2.4 and 20.9 "adaptive
 * PEBS"): layouts, expected sizes, the
 * PEBS_DATA_CFG a request needs, and decoding one record into a
 * struct bp_sample. Pure functions of the bytes given: no MSR access, no
 * floating point, no allocation, so the PMI handler may call them. All
 * record fields are little-endian u64. */
#ifndef BP_PEBS_RECORD_H
#define BP_PEBS_RECORD_H
#include "../lib/types.h"
#include "../lib/sample.h"
#include "datasrc.h"

/* Highest record format we decode. Format 6 (Lunar Lake and Arrow Lake;
 * a Lunar Lake's dmesg reads "PEBS fmt6+" where the kernel predates it)
 * lays records out as format 5: Linux 6.12's intel_ds_init takes case 6
 * with case 5. Architectural PEBS reports 0xF and has no DS records. */
#define PEBS_FMT_MAX 6

/* ---- formats 0..3: fixed layouts (byte offsets) ---- */
#define PEBS_FMT0_SIZE          144
#define PEBS_FMT1_SIZE          176
#define PEBS_FMT2_SIZE          192
#define PEBS_FMT3_SIZE          200
#define PEBS_REC_FLAGS          0x00	/* RFLAGS */
#define PEBS_REC_IP             0x08	/* the instruction AFTER the eventing one */
#define PEBS_REC_AX             0x10
#define PEBS_REC_BX             0x18
#define PEBS_REC_CX             0x20
#define PEBS_REC_DX             0x28
#define PEBS_REC_SI             0x30
#define PEBS_REC_DI             0x38
#define PEBS_REC_BP             0x40
#define PEBS_REC_SP             0x48
#define PEBS_REC_R8             0x50	/* r8..r15 follow, 8 bytes apart */
#define PEBS_REC_STATUS         144	/* fmt1+: applicable counters */
#define PEBS_REC_DLA            152	/* fmt1+: data linear address */
#define PEBS_REC_DSE            160	/* fmt1+: data source encoding */
#define PEBS_REC_LAT            168	/* fmt1+: load latency (core cycles) */
#define PEBS_REC_EVENTING_IP    176	/* fmt2+ */
#define PEBS_REC_TSX            184	/* fmt2+: TSX tuning */
#define PEBS_REC_TSC            192	/* fmt3+ */

/* ---- formats 4 and 5: adaptive records, groups in this order ---- */
#define PEBS_BASIC_SIZE         32
#define PEBS_BASIC_FORMAT_SIZE  0x00	/* [63:48] record size in bytes */
#define PEBS_BASIC_IP           0x08	/* eventing IP */
#define PEBS_BASIC_APPLICABLE   0x10	/* applicable counters */
#define PEBS_BASIC_TSC          0x18
#define PEBS_BASIC_SIZE_SHIFT   48
#define PEBS_MEMINFO_SIZE       32
#define PEBS_MEMINFO_ADDRESS    0x00
#define PEBS_MEMINFO_AUX        0x08	/* data source */
#define PEBS_MEMINFO_LATENCY    0x10
#define PEBS_MEMINFO_TSX        0x18
#define PEBS_GPR_SIZE           144	/* flags, ip, ax, cx, dx, bx, sp, bp, si, di, r8-r15 */
#define PEBS_XMM_SIZE           256
#define PEBS_LBR_ENTRY_SIZE     24	/* from, to, info */
#define PEBS_LBR_MAX_ENTRIES    32	/* PEBS_DATA_CFG[31:24] + 1, architectural limit */

/* Registers a record carries, in one order whatever the format. */
enum pebs_reg {
	PEBS_REG_FLAGS, PEBS_REG_IP, PEBS_REG_AX, PEBS_REG_BX, PEBS_REG_CX,
	PEBS_REG_DX, PEBS_REG_SI, PEBS_REG_DI, PEBS_REG_BP, PEBS_REG_SP,
	PEBS_REG_R8, PEBS_REG_R9, PEBS_REG_R10, PEBS_REG_R11, PEBS_REG_R12,
	PEBS_REG_R13, PEBS_REG_R14, PEBS_REG_R15,
	PEBS_REG_COUNT
};
struct pebs_regs {
	u64 r[PEBS_REG_COUNT];
};

/* What the memory fields of a record mean depends on the event that wrote
 * it: the load-latency event reports a load data source, precise store
 * events a store status. */
enum pebs_mem_kind {
	PEBS_MEM_NONE,		/* not a memory event: no address/source/latency */
	PEBS_MEM_LOAD,		/* load latency (MEM_TRANS_RETIRED.LOAD_LATENCY, MEM_*_RETIRED loads) */
	PEBS_MEM_STORE,		/* precise stores */
	PEBS_MEM_STORE_LATENCY,	/* store latency (MEM_TRANS_RETIRED.STORE_SAMPLE,
				 * the E-cores' MEM_UOPS_RETIRED.STORE_LATENCY) */
};

/* Intel data-source encodings differ between part families. */
enum pebs_dse_family {
	PEBS_DSE_SNB,		/* Sandy Bridge and later big cores (default) */
	PEBS_DSE_NHM,		/* Nehalem and Westmere: 0x5..0x7 mean snoop hit/HITM */
	PEBS_DSE_GRT,		/* Gracemont E-cores: 0x5 snoop hit, 0x6 HITM, 0x8 forward */
	PEBS_DSE_PNC,		/* Panther Cove: L2-hit sources and OMR (arch/msr.h) */
};

/* One record format with its PEBS_DATA_CFG, resolved once. */
struct pebs_layout {
	u8 format;		/* IA32_PERF_CAPABILITIES[11:8] */
	bool adaptive;		/* formats 4 and 5 */
	bool latency_split;	/* meminfo latency: instruction and cache latency
				 * (caps_pebs_latency_split); set by the caller */
	u64 data_cfg;		/* MSR_PEBS_DATA_CFG (adaptive only; 0 otherwise) */
	u32 record_size;	/* expected size of every record */
	/* adaptive group offsets inside a record; 0 = group absent */
	u32 meminfo_off, gpr_off, xmm_off, lbr_off;
	u32 lbr_entries;
};

/* Fills *l for format + data_cfg. Returns false when the format is unknown
 * (PEBS must then be refused and PMI mode offered) or data_cfg has bits we
 * do not know; err names the problem. data_cfg is ignored below format 4. */
bool pebs_layout_init(struct pebs_layout *l, u8 format, u64 data_cfg,
		      char *err, size_t errlen);
/* Size of one record: 0 for an unknown format or bad data_cfg. */
u32 pebs_record_size(u8 format, u64 data_cfg);

/* The sample fields a memory event's record carries: the data linear
 * address, the data source and the latency (formats 1-3 at fixed offsets;
 * the adaptive memory-info group, SDM 20.9.2). */
#define PEBS_MEM_FIELDS (BP_SAMPLE_ADDR | BP_SAMPLE_WEIGHT | BP_SAMPLE_DATA_SRC)

/* The sample fields a PEBS sample has with nothing read at the PMI, the
 * ones a large threshold keeps (Linux's large_pebs_flags,
 * arch/x86/events/intel/ds.c): what a record holds (ip, the memory fields,
 * registers; time only from format 3, which has the TSC) and what the
 * drain knows (period, cpu, tid). */
u32 pebs_record_fields(u8 format);

/* What the user asked each PEBS sample to carry. */
struct pebs_want {
	u32 fields;		/* enum bp_sample_flags */
	unsigned lbr_entries;	/* 0: none */
};
/* The PEBS_DATA_CFG that makes adaptive records carry what is wanted:
 * memory info for the memory fields; GPRs for registers; LBR entries
 * with their count. */
u64 pebs_data_cfg_for(const struct pebs_want *w);

/* Decodes the record at rec (layout l->record_size bytes readable) into
 * *s, a sample fresh from bp_sample_init: ip (eventing IP and
 * BP_SAMPLE_EXACT_IP on fmt2+ and adaptive; the next instruction, not
 * exact, on fmt0/1), tsc on fmt3+, and for memory events the address,
 * latency as weight and data source. Leaves event, period and cpu alone;
 * sets BP_SAMPLE_PEBS. */
void pebs_record_decode(const struct pebs_layout *l, const void *rec,
			enum pebs_mem_kind mem, enum pebs_dse_family fam,
			struct bp_sample *s);
/* Applicable-counters bitmap (GP i = bit i, fixed i = bit 32+i); fmt0 has
 * none and returns 0. */
u64 pebs_record_applicable(const struct pebs_layout *l, const void *rec);
/* Offset of that field for layout l; 0 when the format has none (offset 0
 * holds RFLAGS or the adaptive format_size, never the field). */
u32 pebs_record_applicable_offset(const struct pebs_layout *l);

/* Consumed records. The drain resets the PEBS index to base, but the
 * records stay in memory: a later walk past the index the CPU really left
 * (a clamped corrupt index) would meet them again. So the drain marks each
 * record it has attributed by writing all-ones into a field the CPU never
 * fills that way: the applicable-counters field where the format has one
 * (reserved bits are zero: no CPU sets all 64), RFLAGS on format 0 (bits
 * 63:22 are reserved zero, SDM Vol. 1 3.4.3). One store per record. */
#define PEBS_RECORD_CONSUMED (~0ULL)
/* Offset of the field that carries the mark, for layout l: computed once
 * per drain, then the per-record test and store are inline. */
u32 pebs_record_mark_offset(const struct pebs_layout *l);
void pebs_record_mark_consumed(const struct pebs_layout *l, void *rec);
/* Registers: all formats 0..3; adaptive only with the GPR group. Returns
 * false when the record carries none. */
bool pebs_record_regs(const struct pebs_layout *l, const void *rec, struct pebs_regs *out);

/* Intel data-source field (low bits of DSE / meminfo aux) to perf's
 * union perf_mem_data_src value. */
u64 pebs_data_src_load(u64 dse, enum pebs_dse_family fam);
u64 pebs_data_src_store(u64 dse);

/* Panther Cove's load data source (pebs/datasrc_pnc.c: Linux
 * pnc_latency_data). */
u64 pebs_data_src_load_pnc(u64 dse);
struct pebs_load_sources;
void pebs_pnc_load_sources_init(struct pebs_load_sources *t);

/* pebs_data_src_load of one part family as a table, so a drain looks each
 * load up instead of decoding it per sample. Up to Lion Cove the field's
 * low byte says all (the source in [3:0], the STLB-miss, lock and blocked
 * bits above it): one entry per byte. Panther Cove's source is 9 bits (an
 * L2-hit source or an OMR byte) and its flags sit above: the OMR byte in
 * by_low_byte, the 16 L2-hit sources and the 16 flag sets beside it. */
#define PEBS_LOAD_SRC_BYTES 256
#define PNC_LOAD_SRC_L2_HITS 16
#define PNC_LOAD_SRC_FLAGS   16
struct pebs_load_sources {
	u64 by_low_byte[PEBS_LOAD_SRC_BYTES];
	u64 pnc_l2_hit[PNC_LOAD_SRC_L2_HITS];
	u64 pnc_flags[PNC_LOAD_SRC_FLAGS];
	bool pnc;
};
void pebs_load_sources_init(struct pebs_load_sources *t, enum pebs_dse_family fam);
static inline u64 pebs_load_source(const struct pebs_load_sources *t, u64 dse)
{
	if (!t->pnc)
		return t->by_low_byte[dse & (PEBS_LOAD_SRC_BYTES - 1)];
	u64 src = (dse & PNC_DSE_L2_MISS) ? t->by_low_byte[dse & PNC_DSE_SOURCE_MASK]
					  : t->pnc_l2_hit[dse & PNC_DSE_L2_HIT_MASK];
	return src | t->pnc_flags[(dse >> PNC_DSE_FLAGS_SHIFT) & (PNC_LOAD_SRC_FLAGS - 1)];
}

/* A store-latency record's data source: the load table's, as a store
 * (Linux store_latency_data: bits 3:0 the source, 4 STLB miss, 5 locked,
 * nothing blocked; on Panther Cove pnc_latency_data, with its own
 * layout). */
static inline u64 pebs_store_latency_source(const struct pebs_load_sources *t, u64 dse)
{
	u64 v = pebs_load_source(t, t->pnc ? dse : dse & INTEL_DSE_ST_LAT_MASK);
	return (v & ~BP_MEM_OP_MASK) | BP_MEM(OP, STORE);
}

/* Records live in a byte buffer the CPU writes; read their u64 fields
 * through a may_alias type so the compiler makes no aliasing assumption. */
typedef u64 __attribute__((may_alias)) pebs_u64_alias;
static inline u64 pebs_rec_u64(const void *rec, u32 off)
{
	return *(const pebs_u64_alias *)((const u8 *)rec + off);
}

/* Adaptive only: record size stated in the basic group's format_size. */
static inline u32 pebs_record_stated_size(const void *rec)
{
	return (u32)(pebs_rec_u64(rec, PEBS_BASIC_FORMAT_SIZE) >> PEBS_BASIC_SIZE_SHIFT);
}

static inline bool pebs_rec_is_consumed(const void *rec, u32 mark_off)
{
	return pebs_rec_u64(rec, mark_off) == PEBS_RECORD_CONSUMED;
}

static inline void pebs_rec_mark_consumed(void *rec, u32 mark_off)
{
	*(pebs_u64_alias *)((u8 *)rec + mark_off) = PEBS_RECORD_CONSUMED;
}

#endif
