/* pebs/record: formats 0..5, sizes, decoding, data source. */
#include "test.h"
#include <linux/perf_event.h>
#include "pebs/record.h"
#include "pebs/datasrc.h"
#include "arch/msr.h"
#include "pebs_synth.h"

static u8 rec[1024] __attribute__((aligned(8)));

static void put(u32 off, u64 v) { memcpy(rec + off, &v, 8); }

static struct pebs_layout layout(u8 fmt, u64 cfg)
{
	struct pebs_layout l;
	char err[160];
	assert_true(pebs_layout_init(&l, fmt, cfg, err, sizeof(err)));
	return l;
}

/* SDM 20.6.2.4: fmt0 144 B, fmt1 176 B, fmt2 192 B, fmt3 200 B. */
static void test_fixed_sizes(void **state)
{
	assert_int_equal(pebs_record_size(0, 0), 144);
	assert_int_equal(pebs_record_size(1, 0), 176);
	assert_int_equal(pebs_record_size(2, 0), 192);
	assert_int_equal(pebs_record_size(3, 0), 200);
	/* PEBS_DATA_CFG means nothing before adaptive PEBS */
	assert_int_equal(pebs_record_size(3, PEBS_DATACFG_GP), 200);
}

/* SDM 20.9.2: basic 32 B, memory info 32 B, GPRs 144 B, XMM 256 B,
 * 24 B per LBR entry with PEBS_DATA_CFG[31:24] = entries - 1. */
static void test_adaptive_sizes(void **state)
{
	for (u8 fmt = 4; fmt <= 5; fmt++) {
		assert_int_equal(pebs_record_size(fmt, 0), 32);
		assert_int_equal(pebs_record_size(fmt, PEBS_DATACFG_MEMINFO), 64);
		assert_int_equal(pebs_record_size(fmt, PEBS_DATACFG_GP), 176);
		assert_int_equal(pebs_record_size(fmt, PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP), 208);
		assert_int_equal(pebs_record_size(fmt, PEBS_DATACFG_XMMS), 288);
		assert_int_equal(pebs_record_size(fmt, PEBS_DATACFG_LBRS), 32 + 24);
		assert_int_equal(pebs_record_size(fmt, PEBS_DATACFG_LBRS | (31ULL << 24)), 32 + 32 * 24);
		u64 all = PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP | PEBS_DATACFG_XMMS |
			  PEBS_DATACFG_LBRS | (7ULL << 24);
		assert_int_equal(pebs_record_size(fmt, all), 32 + 32 + 144 + 256 + 8 * 24);
		struct pebs_layout l = layout(fmt, all);
		assert_int_equal(l.meminfo_off, 32);
		assert_int_equal(l.gpr_off, 64);
		assert_int_equal(l.xmm_off, 208);
		assert_int_equal(l.lbr_off, 464);
		assert_int_equal(l.lbr_entries, 8);
	}
}

static void test_unknown_format_and_cfg(void **state)
{
	struct pebs_layout l;
	char err[200];
	assert_false(pebs_layout_init(&l, 7, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "format 7"));
	assert_non_null(strstr(err, "to sample in PMI mode"));
	assert_int_equal(pebs_record_size(7, 0), 0);
	/* Format 6 is format 5's layout (Linux 6.12 intel_ds_init). */
	assert_int_equal(pebs_record_size(6, PEBS_DATACFG_MEMINFO), pebs_record_size(5, PEBS_DATACFG_MEMINFO));
	assert_int_not_equal(pebs_record_size(6, 0), 0);
	assert_false(pebs_layout_init(&l, 4, BIT(4), err, sizeof(err)));
	assert_non_null(strstr(err, "0x10"));
	assert_int_equal(pebs_record_size(5, BIT(40)), 0);
}

static void test_data_cfg_for(void **state)
{
	struct pebs_want w = { 0 };
	assert_int_equal(pebs_data_cfg_for(&w), 0);
	w.fields = BP_SAMPLE_ADDR;
	assert_int_equal(pebs_data_cfg_for(&w), PEBS_DATACFG_MEMINFO);
	w = (struct pebs_want){ .fields = BP_SAMPLE_WEIGHT };
	assert_int_equal(pebs_data_cfg_for(&w), PEBS_DATACFG_MEMINFO);
	w = (struct pebs_want){ .fields = BP_SAMPLE_DATA_SRC | BP_SAMPLE_REGS_INTR };
	assert_int_equal(pebs_data_cfg_for(&w), PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP);
	w = (struct pebs_want){ .fields = BP_SAMPLE_REGS_INTR };
	assert_int_equal(pebs_data_cfg_for(&w), PEBS_DATACFG_GP);
	w = (struct pebs_want){ .lbr_entries = 16 };
	assert_int_equal(pebs_data_cfg_for(&w), PEBS_DATACFG_LBRS | (15ULL << 24));
	w = (struct pebs_want){ .lbr_entries = 99 };	/* clamped to 32 */
	assert_int_equal(pebs_data_cfg_for(&w), PEBS_DATACFG_LBRS | (31ULL << 24));
}

/* Fields at the SDM's byte offsets, written here by literal offset. */
static void fill_fixed(void)
{
	memset(rec, 0, sizeof(rec));
	put(0x00, 0x246);		/* rflags */
	put(0x08, 0x401005);		/* ip after the eventing instruction */
	for (u32 i = 0; i < 16; i++)
		put(0x10 + 8 * i, 0x1000 + i);	/* ax bx cx dx si di bp sp r8..r15 */
	put(144, 0x5);			/* applicable counters */
	put(152, 0x7fff0040);		/* data linear address */
	put(160, 0x3);			/* data source: L2 hit */
	put(168, 42);			/* load latency */
	put(176, 0x401000);		/* eventing ip */
	put(184, 0);			/* tsx */
	put(192, 123456789);		/* tsc */
}

static void test_decode_fmt0(void **state)
{
	struct pebs_layout l = layout(0, 0);
	struct bp_sample s = { .event = 7, .period = 1000 };
	fill_fixed();
	pebs_record_decode(&l, rec, PEBS_MEM_LOAD, PEBS_DSE_SNB, &s);
	assert_int_equal(s.ip, 0x401005);
	assert_false(s.flags & BP_SAMPLE_EXACT_IP);	/* fmt<2: IP after */
	assert_true(s.flags & BP_SAMPLE_PEBS);
	assert_false(s.flags & (BP_SAMPLE_TIME | BP_SAMPLE_ADDR | BP_SAMPLE_WEIGHT));
	assert_int_equal(s.event, 7);		/* untouched */
	assert_int_equal(s.period, 1000);
	assert_int_equal(pebs_record_applicable(&l, rec), 0);	/* no status field */
}

static void test_decode_fmt1(void **state)
{
	struct pebs_layout l = layout(1, 0);
	struct bp_sample s = { 0 };
	fill_fixed();
	pebs_record_decode(&l, rec, PEBS_MEM_LOAD, PEBS_DSE_SNB, &s);
	assert_int_equal(s.ip, 0x401005);
	assert_false(s.flags & BP_SAMPLE_EXACT_IP);
	assert_false(s.flags & BP_SAMPLE_TIME);
	assert_int_equal(s.addr, 0x7fff0040);
	assert_int_equal(s.weight, 42);
	assert_true(s.flags & BP_SAMPLE_ADDR);
	assert_true(s.flags & BP_SAMPLE_WEIGHT);
	assert_true(s.flags & BP_SAMPLE_DATA_SRC);
	assert_int_equal(s.data_src, pebs_data_src_load(3, PEBS_DSE_SNB));
	assert_int_equal(pebs_record_applicable(&l, rec), 0x5);
	/* not a memory event: no memory fields */
	bp_sample_init(&s, 0, 0, 0);
	pebs_record_decode(&l, rec, PEBS_MEM_NONE, PEBS_DSE_SNB, &s);
	assert_false(s.flags & (BP_SAMPLE_ADDR | BP_SAMPLE_WEIGHT | BP_SAMPLE_DATA_SRC));
	assert_int_equal(s.addr, 0);
}

static void test_decode_fmt2_fmt3(void **state)
{
	struct bp_sample s = { 0 };
	fill_fixed();
	struct pebs_layout l2 = layout(2, 0);
	pebs_record_decode(&l2, rec, PEBS_MEM_LOAD, PEBS_DSE_SNB, &s);
	assert_int_equal(s.ip, 0x401000);		/* eventing IP */
	assert_true(s.flags & BP_SAMPLE_EXACT_IP);
	assert_false(s.flags & BP_SAMPLE_TIME);	/* no TSC before fmt3 */
	struct pebs_layout l3 = layout(3, 0);
	bp_sample_init(&s, 0, 0, 0);
	pebs_record_decode(&l3, rec, PEBS_MEM_STORE, PEBS_DSE_SNB, &s);
	assert_int_equal(s.ip, 0x401000);
	assert_int_equal(s.tsc, 123456789);
	assert_true(s.flags & BP_SAMPLE_TIME);
	assert_false(s.flags & BP_SAMPLE_WEIGHT);	/* stores have no load latency */
	assert_int_equal(s.data_src, pebs_data_src_store(3));
}

static void test_regs_order(void **state)
{
	struct pebs_regs r;
	fill_fixed();
	struct pebs_layout l = layout(3, 0);
	assert_true(pebs_record_regs(&l, rec, &r));
	assert_int_equal(r.r[PEBS_REG_FLAGS], 0x246);
	assert_int_equal(r.r[PEBS_REG_AX], 0x1000);
	assert_int_equal(r.r[PEBS_REG_BX], 0x1001);
	assert_int_equal(r.r[PEBS_REG_SP], 0x1007);
	assert_int_equal(r.r[PEBS_REG_R15], 0x100f);

	/* Adaptive GPR group (SDM 20.9.2.2): flags ip ax cx dx bx sp bp si di */
	struct pebs_layout la = layout(4, PEBS_DATACFG_GP);
	memset(rec, 0, sizeof(rec));
	put(0, (176ULL << 48) | PEBS_DATACFG_GP);
	for (u32 i = 0; i < 18; i++)
		put(32 + 8 * i, 0x2000 + i);
	assert_true(pebs_record_regs(&la, rec, &r));
	assert_int_equal(r.r[PEBS_REG_IP], 0x2001);
	assert_int_equal(r.r[PEBS_REG_AX], 0x2002);
	assert_int_equal(r.r[PEBS_REG_CX], 0x2003);
	assert_int_equal(r.r[PEBS_REG_DX], 0x2004);
	assert_int_equal(r.r[PEBS_REG_BX], 0x2005);
	assert_int_equal(r.r[PEBS_REG_SP], 0x2006);
	assert_int_equal(r.r[PEBS_REG_BP], 0x2007);
	assert_int_equal(r.r[PEBS_REG_SI], 0x2008);
	assert_int_equal(r.r[PEBS_REG_DI], 0x2009);
	assert_int_equal(r.r[PEBS_REG_R8], 0x200a);
	/* no GPR group: no registers */
	struct pebs_layout lm = layout(4, PEBS_DATACFG_MEMINFO);
	assert_false(pebs_record_regs(&lm, rec, &r));
}

static void test_decode_adaptive(void **state)
{
	for (u8 fmt = 4; fmt <= 5; fmt++) {
		struct pebs_layout l = layout(fmt, PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP);
		struct bp_sample s = { 0 };
		memset(rec, 0, sizeof(rec));
		put(0x00, (208ULL << 48) | 3);
		put(0x08, 0xffff800000001234);	/* eventing IP */
		put(0x10, BIT(0) | BIT(32));
		put(0x18, 987654321);
		put(32 + 0, 0xdead0000);		/* address */
		put(32 + 8, 0x14);			/* aux: L3 hit, STLB miss */
		put(32 + 16, 300);			/* latency */
		pebs_record_decode(&l, rec, PEBS_MEM_LOAD, PEBS_DSE_SNB, &s);
		assert_int_equal(pebs_record_stated_size(rec), 208);
		assert_int_equal(s.ip, 0xffff800000001234);
		assert_true(s.flags & BP_SAMPLE_EXACT_IP);
		assert_int_equal(s.tsc, 987654321);
		assert_int_equal(s.addr, 0xdead0000);
		assert_int_equal(s.data_src, pebs_data_src_load(0x14, PEBS_DSE_SNB));
		assert_int_equal(s.weight, 300);
		assert_int_equal(pebs_record_applicable(&l, rec), BIT(0) | BIT(32));
		/* without the memory-info group there is no address */
		struct pebs_layout lb = layout(fmt, 0);
		bp_sample_init(&s, 0, 0, 0);
		pebs_record_decode(&lb, rec, PEBS_MEM_LOAD, PEBS_DSE_SNB, &s);
		assert_false(s.flags & BP_SAMPLE_ADDR);
		assert_true(s.flags & BP_SAMPLE_TIME);
	}
}

/* The meminfo latency field per part (Linux's struct pebs_meminfo,
 * arch/x86/include/asm/perf_event.h: "pre Alder Lake" one mem_latency;
 * "Alder Lake and later" instr_latency [15:0] and cache_latency [47:32],
 * and ds.c takes cache_latency as the sample's weight). */
static void test_decode_split_latency(void **state)
{
	struct pebs_layout l = layout(4, PEBS_DATACFG_MEMINFO);
	struct bp_sample s = { 0 };
	memset(rec, 0, sizeof(rec));
	put(0x00, (80ULL << 48) | 1);
	put(32 + 16, (77ULL << 32) | 300);	/* cache 77, instruction 300 */
	pebs_record_decode(&l, rec, PEBS_MEM_LOAD, PEBS_DSE_SNB, &s);
	/* Ice Lake: the field is one latency, perf's var1 (32 bits: what
	 * lies above, no real latency reaches, must not leak into var2) */
	assert_int_equal(s.weight, 300);
	put(32 + 16, 70000);
	pebs_record_decode(&l, rec, PEBS_MEM_LOAD, PEBS_DSE_SNB, &s);
	assert_int_equal(s.weight, 70000);
	put(32 + 16, (77ULL << 32) | 300);
	l.latency_split = true;
	pebs_record_decode(&l, rec, PEBS_MEM_LOAD, PEBS_DSE_SNB, &s);
	/* the cache latency is the load's (var1), the instruction's is var2 */
	assert_int_equal(s.weight, 77 | 300ull << BP_WEIGHT_INSTR_SHIFT);
}

/* The synthetic writer used by the drain tests agrees with the decoder. */
static void test_synth_roundtrip(void **state)
{
	for (u8 fmt = 0; fmt <= 5; fmt++) {
		struct pebs_layout l = layout(fmt, fmt >= 4 ? PEBS_DATACFG_MEMINFO : 0);
		struct synth_rec r = { .ip = 0x11, .eventing_ip = 0x10, .applicable = 2,
				       .tsc = 99, .addr = 0x5000, .dse = 1, .latency = 9 };
		assert_int_equal(synth_write(&l, rec, &r), l.record_size);
		struct bp_sample s = { 0 };
		pebs_record_decode(&l, rec, PEBS_MEM_LOAD, PEBS_DSE_SNB, &s);
		assert_int_equal(s.ip, fmt >= 2 ? 0x10 : 0x11);
		assert_int_equal(s.tsc, fmt >= 3 ? 99 : 0);
		assert_int_equal(s.addr, fmt >= 1 ? 0x5000 : 0);
		assert_int_equal(pebs_record_applicable(&l, rec), fmt >= 1 ? 2 : 0);
	}
}

/* Our names restate perf's ABI: check them against the Linux header. */
static void test_datasrc_constants_match_linux(void **state)
{
	assert_int_equal(BP_MEM(OP, LOAD), PERF_MEM_S(OP, LOAD));
	assert_int_equal(BP_MEM(SNOOPX, FWD), PERF_MEM_S(SNOOPX, FWD));
	assert_int_equal(BP_MEM(OP, STORE), PERF_MEM_S(OP, STORE));
	assert_int_equal(BP_MEM(LVL, HIT), PERF_MEM_S(LVL, HIT));
	assert_int_equal(BP_MEM(LVL, MISS), PERF_MEM_S(LVL, MISS));
	assert_int_equal(BP_MEM(LVL, L1), PERF_MEM_S(LVL, L1));
	assert_int_equal(BP_MEM(LVL, LFB), PERF_MEM_S(LVL, LFB));
	assert_int_equal(BP_MEM(LVL, L2), PERF_MEM_S(LVL, L2));
	assert_int_equal(BP_MEM(LVL, L3), PERF_MEM_S(LVL, L3));
	assert_int_equal(BP_MEM(LVL, LOC_RAM), PERF_MEM_S(LVL, LOC_RAM));
	assert_int_equal(BP_MEM(LVL, REM_RAM1), PERF_MEM_S(LVL, REM_RAM1));
	assert_int_equal(BP_MEM(LVL, REM_CCE1), PERF_MEM_S(LVL, REM_CCE1));
	assert_int_equal(BP_MEM(LVL, REM_CCE2), PERF_MEM_S(LVL, REM_CCE2));
	assert_int_equal(BP_MEM(LVLNUM, CXL), PERF_MEM_S(LVLNUM, CXL));
	assert_int_equal(BP_MEM(LVLNUM, ANY_CACHE), PERF_MEM_S(LVLNUM, ANY_CACHE));
	assert_int_equal(BP_MEM(LVLNUM, PMEM), PERF_MEM_S(LVLNUM, PMEM));
	assert_int_equal(BP_MEM(HOPS, 0), PERF_MEM_S(HOPS, 0));
	assert_int_equal(BP_MEM(HOPS, 1), PERF_MEM_S(HOPS, 1));
	/* PERF_MEM_NA is the kernel's (include/linux/perf_event.h), not the
	 * user header's: its definition (Linux 6.6 on) restated */
	assert_int_equal(BP_MEM_NA, PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) | PERF_MEM_S(SNOOP, NA) |
				    PERF_MEM_S(LOCK, NA) | PERF_MEM_S(TLB, NA) |
				    PERF_MEM_S(LVLNUM, NA));
	assert_int_equal(BP_MEM(LVL, IO), PERF_MEM_S(LVL, IO));
	assert_int_equal(BP_MEM(LVL, UNC), PERF_MEM_S(LVL, UNC));
	assert_int_equal(BP_MEM(SNOOP, NA), PERF_MEM_S(SNOOP, NA));
	assert_int_equal(BP_MEM(SNOOP, NONE), PERF_MEM_S(SNOOP, NONE));
	assert_int_equal(BP_MEM(SNOOP, HIT), PERF_MEM_S(SNOOP, HIT));
	assert_int_equal(BP_MEM(SNOOP, MISS), PERF_MEM_S(SNOOP, MISS));
	assert_int_equal(BP_MEM(SNOOP, HITM), PERF_MEM_S(SNOOP, HITM));
	assert_int_equal(BP_MEM(LOCK, NA), PERF_MEM_S(LOCK, NA));
	assert_int_equal(BP_MEM(LOCK, LOCKED), PERF_MEM_S(LOCK, LOCKED));
	assert_int_equal(BP_MEM(TLB, NA), PERF_MEM_S(TLB, NA));
	assert_int_equal(BP_MEM(TLB, HIT), PERF_MEM_S(TLB, HIT));
	assert_int_equal(BP_MEM(TLB, MISS), PERF_MEM_S(TLB, MISS));
	assert_int_equal(BP_MEM(TLB, L1), PERF_MEM_S(TLB, L1));
	assert_int_equal(BP_MEM(TLB, L2), PERF_MEM_S(TLB, L2));
	assert_int_equal(BP_MEM(LVLNUM, L1), PERF_MEM_S(LVLNUM, L1));
	assert_int_equal(BP_MEM(LVLNUM, L2), PERF_MEM_S(LVLNUM, L2));
	assert_int_equal(BP_MEM(LVLNUM, L3), PERF_MEM_S(LVLNUM, L3));
	assert_int_equal(BP_MEM(LVLNUM, IO), PERF_MEM_S(LVLNUM, IO));
	assert_int_equal(BP_MEM(LVLNUM, LFB), PERF_MEM_S(LVLNUM, LFB));
	assert_int_equal(BP_MEM(LVLNUM, RAM), PERF_MEM_S(LVLNUM, RAM));
	assert_int_equal(BP_MEM(LVLNUM, NA), PERF_MEM_S(LVLNUM, NA));
	assert_int_equal(BP_MEM(REMOTE, REMOTE), PERF_MEM_S(REMOTE, REMOTE));
	assert_int_equal(BP_MEM(BLK, NA), PERF_MEM_S(BLK, NA));
	assert_int_equal(BP_MEM(BLK, DATA), PERF_MEM_S(BLK, DATA));
	assert_int_equal(BP_MEM(BLK, ADDR), PERF_MEM_S(BLK, ADDR));
}

/* lib/sample.h's field bits are perf's sample_type bits, and the two
 * bits that say where a sample came from are above all of them. */
static void test_sample_fields_match_linux(void **state)
{
	assert_int_equal(BP_SAMPLE_IP, PERF_SAMPLE_IP);
	assert_int_equal(BP_SAMPLE_TID, PERF_SAMPLE_TID);
	assert_int_equal(BP_SAMPLE_TIME, PERF_SAMPLE_TIME);
	assert_int_equal(BP_SAMPLE_ADDR, PERF_SAMPLE_ADDR);
	assert_int_equal(BP_SAMPLE_READ, PERF_SAMPLE_READ);
	assert_int_equal(BP_SAMPLE_CALLCHAIN, PERF_SAMPLE_CALLCHAIN);
	assert_int_equal(BP_SAMPLE_CPU, PERF_SAMPLE_CPU);
	assert_int_equal(BP_SAMPLE_PERIOD, PERF_SAMPLE_PERIOD);
	assert_int_equal(BP_SAMPLE_RAW, PERF_SAMPLE_RAW);
	assert_int_equal(BP_SAMPLE_BRANCH_STACK, PERF_SAMPLE_BRANCH_STACK);
	assert_int_equal(BP_SAMPLE_WEIGHT, PERF_SAMPLE_WEIGHT);
	assert_int_equal(BP_SAMPLE_DATA_SRC, PERF_SAMPLE_DATA_SRC);
	assert_int_equal(BP_SAMPLE_REGS_INTR, PERF_SAMPLE_REGS_INTR);
	assert_int_equal(BP_SAMPLE_WEIGHT_STRUCT, PERF_SAMPLE_WEIGHT_STRUCT);
	/* bp_sample.weight's layout is the union's */
	union perf_sample_weight w = { .full = 7 | 8ull << BP_WEIGHT_INSTR_SHIFT |
					       9ull << BP_WEIGHT_RETIRE_SHIFT };
	assert_int_equal(w.var1_dw, 7);
	assert_int_equal(w.var2_w, 8);
	assert_int_equal(w.var3_w, 9);
	assert_true((u64)BP_SAMPLE_PEBS >= PERF_SAMPLE_MAX);
	assert_true((u64)BP_SAMPLE_EXACT_IP >= PERF_SAMPLE_MAX);
}

/* Decodes through the Linux union so that the field placement is checked
 * too, not just our own shifts. */
static union perf_mem_data_src ld(u64 dse, enum pebs_dse_family fam)
{
	union perf_mem_data_src d;
	d.val = pebs_data_src_load(dse, fam);
	return d;
}

/* SDM "Data Source Encoding for Load Latency Record" (SNB and later). */
static void test_datasrc_load_table(void **state)
{
	static const struct { u8 dse; u32 lvl; u8 lvlnum; u8 snoop; bool remote; } t[] = {
		{ 0x0, PERF_MEM_LVL_MISS | PERF_MEM_LVL_L3, PERF_MEM_LVLNUM_NA, PERF_MEM_SNOOP_NA, false },
		{ 0x1, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1, PERF_MEM_LVLNUM_L1, PERF_MEM_SNOOP_NONE, false },
		{ 0x2, PERF_MEM_LVL_HIT | PERF_MEM_LVL_LFB, PERF_MEM_LVLNUM_LFB, PERF_MEM_SNOOP_NONE, false },
		{ 0x3, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L2, PERF_MEM_LVLNUM_L2, PERF_MEM_SNOOP_NONE, false },
		{ 0x4, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3, PERF_MEM_LVLNUM_L3, PERF_MEM_SNOOP_NONE, false },
		{ 0x5, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3, PERF_MEM_LVLNUM_L3, PERF_MEM_SNOOP_MISS, false },
		{ 0x6, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3, PERF_MEM_LVLNUM_L3, PERF_MEM_SNOOP_HIT, false },
		{ 0x7, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3, PERF_MEM_LVLNUM_L3, PERF_MEM_SNOOP_HITM, false },
		{ 0x8, PERF_MEM_LVL_HIT | PERF_MEM_LVL_REM_CCE1, PERF_MEM_LVLNUM_L3, PERF_MEM_SNOOP_HIT, true },
		{ 0x9, PERF_MEM_LVL_HIT | PERF_MEM_LVL_REM_CCE1, PERF_MEM_LVLNUM_L3, PERF_MEM_SNOOP_HITM, true },
		{ 0xA, PERF_MEM_LVL_HIT | PERF_MEM_LVL_LOC_RAM, PERF_MEM_LVLNUM_RAM, PERF_MEM_SNOOP_HIT, false },
		{ 0xB, PERF_MEM_LVL_HIT | PERF_MEM_LVL_REM_RAM1, PERF_MEM_LVLNUM_RAM, PERF_MEM_SNOOP_HIT, true },
		{ 0xC, PERF_MEM_LVL_HIT | PERF_MEM_LVL_LOC_RAM, PERF_MEM_LVLNUM_RAM, PERF_MEM_SNOOP_NONE | PERF_MEM_SNOOP_MISS, false },
		{ 0xD, PERF_MEM_LVL_HIT | PERF_MEM_LVL_REM_RAM1, PERF_MEM_LVLNUM_RAM, PERF_MEM_SNOOP_NONE | PERF_MEM_SNOOP_MISS, true },
		{ 0xE, PERF_MEM_LVL_HIT | PERF_MEM_LVL_IO, PERF_MEM_LVLNUM_IO, PERF_MEM_SNOOP_NONE, false },
		{ 0xF, PERF_MEM_LVL_HIT | PERF_MEM_LVL_UNC, PERF_MEM_LVLNUM_NA, PERF_MEM_SNOOP_NONE, false },
	};
	for (unsigned i = 0; i < ARRAY_SIZE(t); i++) {
		union perf_mem_data_src d = ld(t[i].dse, PEBS_DSE_SNB);
		assert_int_equal(d.mem_op, PERF_MEM_OP_LOAD);
		assert_int_equal(d.mem_lvl, t[i].lvl);
		assert_int_equal(d.mem_lvl_num, t[i].lvlnum);
		assert_int_equal(d.mem_snoop, t[i].snoop);
		assert_int_equal(d.mem_remote, t[i].remote);
		/* bits [7:4] clear: STLB hit, not locked, not blocked */
		assert_int_equal(d.mem_dtlb, PERF_MEM_TLB_HIT | PERF_MEM_TLB_L1 | PERF_MEM_TLB_L2);
		assert_int_equal(d.mem_lock, PERF_MEM_LOCK_NA);
		assert_int_equal(d.mem_blk, PERF_MEM_BLK_NA);
	}
}

/* Gracemont E-cores (Linux: __intel_pmu_pebs_data_source_grt in
 * arch/x86/events/intel/ds.c): 0x5 an L3 hit with a snoop hit, 0x6 with
 * HITM, 0x8 an L3 hit forwarded (snoopx FWD); the others as on big cores. */
static void test_datasrc_grt(void **state)
{
	union perf_mem_data_src d = ld(0x5, PEBS_DSE_GRT);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3);
	assert_int_equal(d.mem_lvl_num, PERF_MEM_LVLNUM_L3);
	assert_int_equal(d.mem_snoop, PERF_MEM_SNOOP_HIT);
	assert_int_equal(ld(0x6, PEBS_DSE_GRT).mem_snoop, PERF_MEM_SNOOP_HITM);
	d = ld(0x8, PEBS_DSE_GRT);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3);
	assert_int_equal(d.mem_snoopx, PERF_MEM_SNOOPX_FWD);
	assert_int_equal(d.mem_remote, 0);
	assert_int_equal(ld(0x8, PEBS_DSE_SNB).mem_snoopx, 0);
	for (u8 dse = 0; dse < 16; dse++)
		if (dse != 0x5 && dse != 0x6 && dse != 0x8)
			assert_int_equal(ld(dse, PEBS_DSE_GRT).val, ld(dse, PEBS_DSE_SNB).val);
	d = ld(0x5 | BIT(4) | BIT(6), PEBS_DSE_GRT);	/* STLB miss, data blocked */
	assert_int_equal(d.mem_dtlb, PERF_MEM_TLB_MISS | PERF_MEM_TLB_L2);
	assert_int_equal(d.mem_blk, PERF_MEM_BLK_DATA);
}

static void test_datasrc_load_flags(void **state)
{
	union perf_mem_data_src d = ld(0x1 | BIT(4) | BIT(5), PEBS_DSE_SNB);
	assert_int_equal(d.mem_dtlb, PERF_MEM_TLB_MISS | PERF_MEM_TLB_L2);
	assert_int_equal(d.mem_lock, PERF_MEM_LOCK_LOCKED);
	d = ld(0x3 | BIT(6), PEBS_DSE_SNB);
	assert_int_equal(d.mem_blk, PERF_MEM_BLK_DATA);
	d = ld(0x3 | BIT(7), PEBS_DSE_SNB);
	assert_int_equal(d.mem_blk, PERF_MEM_BLK_ADDR);
	/* high junk bits do not change the source */
	assert_int_equal(ld(0x4 | 0xFF00, PEBS_DSE_SNB).mem_lvl_num, PERF_MEM_LVLNUM_L3);
}

/* Nehalem/Westmere encode 0x5 as a clean snoop hit and 0x6/0x7 as HITM,
 * and carry no TLB/lock information. */
static void test_datasrc_nhm(void **state)
{
	assert_int_equal(ld(0x5, PEBS_DSE_NHM).mem_snoop, PERF_MEM_SNOOP_HIT);
	assert_int_equal(ld(0x6, PEBS_DSE_NHM).mem_snoop, PERF_MEM_SNOOP_HITM);
	assert_int_equal(ld(0x7, PEBS_DSE_NHM).mem_snoop, PERF_MEM_SNOOP_HITM);
	assert_int_equal(ld(0x3, PEBS_DSE_NHM).mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L2);
	assert_int_equal(ld(0x1 | BIT(4), PEBS_DSE_NHM).mem_dtlb, PERF_MEM_TLB_NA);
	assert_int_equal(ld(0x1, PEBS_DSE_NHM).mem_lock, PERF_MEM_LOCK_NA);
}

/* The drain's table gives what pebs_data_src_load gives, for every low
 * byte under any higher bits, in each part family; on Panther Cove for
 * every source (bits 8:0) under every flag set (bits 14:11) and any bits
 * above. */
static void test_datasrc_load_sources(void **state)
{
	static struct pebs_load_sources t;
	static const u64 high[] = { 0, 0xFF00, 0x5A5A5A5A5A5A5A00ULL, ~0xFFULL };
	for (int fam = PEBS_DSE_SNB; fam <= PEBS_DSE_GRT; fam++) {
		pebs_load_sources_init(&t, (enum pebs_dse_family)fam);
		for (u64 b = 0; b < PEBS_LOAD_SRC_BYTES; b++)
			for (unsigned h = 0; h < ARRAY_SIZE(high); h++)
				assert_int_equal(pebs_load_source(&t, b | high[h]),
						 pebs_data_src_load(b | high[h], (enum pebs_dse_family)fam));
	}
	pebs_load_sources_init(&t, PEBS_DSE_PNC);
	for (u64 src = 0; src < 512; src++)
		for (u64 f = 0; f < 16; f++)
			for (u64 above = 0; above < 2; above++) {
				u64 dse = src | f << PNC_DSE_FLAGS_SHIFT | (above ? ~0ULL << 15 : 0);
				assert_int_equal(pebs_load_source(&t, dse),
						 pebs_data_src_load(dse, PEBS_DSE_PNC));
			}
}

/* Panther Cove's data source, as Linux's pnc_latency_data decodes it
 * (arch/x86/events/intel/ds.c, tip perf/core 2026-01-15: "Add support
 * for PEBS memory auxiliary info field in DMR"). The Linux header here
 * (6.1) predates LVLNUM_L0 (7) and mem_region (bits 50:46), so those are
 * checked by value. */
static void test_datasrc_panther_cove(void **state)
{
	/* L2 hits (bit 8 clear): L1 hit, no snoop, STLB hit, nothing
	 * blocked, lock not stated */
	union perf_mem_data_src d = ld(0x02, PEBS_DSE_PNC);
	assert_int_equal(d.mem_op, PERF_MEM_OP_LOAD);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1);
	assert_int_equal(d.mem_lvl_num, PERF_MEM_LVLNUM_L1);
	assert_int_equal(d.mem_snoop, PERF_MEM_SNOOP_NONE);
	assert_int_equal(d.mem_dtlb, PERF_MEM_TLB_HIT | PERF_MEM_TLB_L1 | PERF_MEM_TLB_L2);
	assert_int_equal(d.mem_lock, 0);
	assert_int_equal(d.mem_blk, PERF_MEM_BLK_NA);
	assert_int_equal(ld(0x01, PEBS_DSE_PNC).mem_lvl_num, 7);	/* L0 */
	assert_int_equal(BP_MEM_REGION_SHIFT, 46);	/* PERF_MEM_REGION_SHIFT */
	assert_int_equal(ld(0x03, PEBS_DSE_PNC).mem_lvl_num, PERF_MEM_LVLNUM_LFB);
	assert_int_equal(ld(0x08, PEBS_DSE_PNC).mem_snoop, PERF_MEM_SNOOP_HITM);
	assert_int_equal(ld(0x08, PEBS_DSE_PNC).mem_lvl_num, PERF_MEM_LVLNUM_L2);
	assert_int_equal(ld(0x0F, PEBS_DSE_PNC).mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_UNC);
	/* a reserved L2-hit source: Linux's fallback, no level bits */
	d = ld(0x05, PEBS_DSE_PNC);
	assert_int_equal(d.mem_lvl, 0);
	assert_int_equal(d.mem_lvl_num, PERF_MEM_LVLNUM_NA);
	assert_int_equal(d.mem_snoop, PERF_MEM_SNOOP_NA);
	/* the flags: STLB miss, locked, data and address blocked */
	d = ld(0x02 | PNC_DSE_STLB_MISS | PNC_DSE_LOCKED | PNC_DSE_DATA_BLK | PNC_DSE_ADDR_BLK,
	       PEBS_DSE_PNC);
	assert_int_equal(d.mem_dtlb, PERF_MEM_TLB_MISS | PERF_MEM_TLB_L2);
	assert_int_equal(d.mem_lock, PERF_MEM_LOCK_LOCKED);
	assert_int_equal(d.mem_blk, PERF_MEM_BLK_DATA | PERF_MEM_BLK_ADDR);
	/* L2 misses (bit 8 set): the OMR encoding. Local non-shared L3,
	 * a snoop hit; the same from another agent's cache, remote, HITM and
	 * forwarded */
	d = ld(PNC_DSE_L2_MISS | 0x03, PEBS_DSE_PNC);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3);
	assert_int_equal(d.mem_lvl_num, PERF_MEM_LVLNUM_L3);
	assert_int_equal(d.mem_snoop, PERF_MEM_SNOOP_HIT);
	assert_int_equal(d.val >> BP_MEM_REGION_SHIFT & 0x1F, 0x03);
	d = ld(PNC_DSE_L2_MISS | OMR_REMOTE | OMR_HITM | OMR_SNOOP | 0x05, PEBS_DSE_PNC);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3 | PERF_MEM_LVL_REM_CCE1);
	assert_int_equal(d.mem_remote, 1);
	assert_int_equal(d.mem_snoop, PERF_MEM_SNOOP_HITM);
	assert_int_equal(d.mem_snoopx, PERF_MEM_SNOOPX_FWD);
	/* local shared L3: the snoop and promoted bits ORed, as Linux does */
	assert_int_equal(ld(PNC_DSE_L2_MISS | 0x02, PEBS_DSE_PNC).mem_snoop,
			 PERF_MEM_SNOOP_HIT | PERF_MEM_SNOOP_NA);
	assert_int_equal(ld(PNC_DSE_L2_MISS | OMR_PROMOTED | 0x02, PEBS_DSE_PNC).mem_snoop,
			 PERF_MEM_SNOOP_HIT | PERF_MEM_SNOOP_MISS);
	/* memory: region 0 local DRAM; region 5 remote; MMIO */
	d = ld(PNC_DSE_L2_MISS | 0x08, PEBS_DSE_PNC);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_LOC_RAM);
	assert_int_equal(d.mem_lvl_num, PERF_MEM_LVLNUM_RAM);
	assert_int_equal(d.val >> BP_MEM_REGION_SHIFT & 0x1F, 0x08);
	d = ld(PNC_DSE_L2_MISS | OMR_REMOTE | 0x0D, PEBS_DSE_PNC);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_REM_RAM1);
	assert_int_equal(d.val >> BP_MEM_REGION_SHIFT & 0x1F, 0x0D);
	d = ld(PNC_DSE_L2_MISS | 0x07, PEBS_DSE_PNC);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT);
	assert_int_equal(d.val >> BP_MEM_REGION_SHIFT & 0x1F, 0x07);
}

/* Store latency (MEM_TRANS_RETIRED.STORE_SAMPLE): the loads' table with
 * the op a store, as Linux's store_latency_data: source 3:0, STLB miss
 * bit 4, locked bit 5, nothing blocked whatever bits 6-7 say; on Panther
 * Cove pnc_latency_data with the op a store (PERF_X86_EVENT_PEBS_ST_HSW
 * of INTEL_HYBRID_STLAT_CONSTRAINT). */
static void test_datasrc_store_latency(void **state)
{
	static struct pebs_load_sources t;
	union perf_mem_data_src d;
	pebs_load_sources_init(&t, PEBS_DSE_SNB);
	d.val = pebs_store_latency_source(&t, 0x4 | INTEL_DSE_ST_STLB_MISS | BIT(6) | BIT(7));
	assert_int_equal(d.mem_op, PERF_MEM_OP_STORE);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3);
	assert_int_equal(d.mem_dtlb, PERF_MEM_TLB_MISS | PERF_MEM_TLB_L2);
	assert_int_equal(d.mem_blk, PERF_MEM_BLK_NA);
	d.val = pebs_store_latency_source(&t, 0x1 | INTEL_DSE_ST_LOCKED);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1);
	assert_int_equal(d.mem_lock, PERF_MEM_LOCK_LOCKED);
	pebs_load_sources_init(&t, PEBS_DSE_PNC);
	d.val = pebs_store_latency_source(&t, 0x02 | PNC_DSE_STLB_MISS);
	assert_int_equal(d.mem_op, PERF_MEM_OP_STORE);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1);
	assert_int_equal(d.mem_dtlb, PERF_MEM_TLB_MISS | PERF_MEM_TLB_L2);
	d.val = pebs_store_latency_source(&t, PNC_DSE_L2_MISS | 0x08);
	assert_int_equal(d.mem_op, PERF_MEM_OP_STORE);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_LOC_RAM);
}

static void test_datasrc_store(void **state)
{
	union perf_mem_data_src d;
	d.val = pebs_data_src_store(INTEL_DSE_ST_L1D_HIT);
	assert_int_equal(d.mem_op, PERF_MEM_OP_STORE);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1);
	assert_int_equal(d.mem_snoop, PERF_MEM_SNOOP_NA);
	assert_int_equal(d.mem_lock, PERF_MEM_LOCK_NA);
	d.val = pebs_data_src_store(INTEL_DSE_ST_STLB_MISS | INTEL_DSE_ST_LOCKED);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_MISS | PERF_MEM_LVL_L1);
	assert_int_equal(d.mem_dtlb, PERF_MEM_TLB_MISS | PERF_MEM_TLB_L2);
	assert_int_equal(d.mem_lock, PERF_MEM_LOCK_LOCKED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_sizes),
		cmocka_unit_test(test_adaptive_sizes),
		cmocka_unit_test(test_unknown_format_and_cfg),
		cmocka_unit_test(test_data_cfg_for),
		cmocka_unit_test(test_decode_fmt0),
		cmocka_unit_test(test_decode_fmt1),
		cmocka_unit_test(test_decode_fmt2_fmt3),
		cmocka_unit_test(test_regs_order),
		cmocka_unit_test(test_decode_adaptive),
		cmocka_unit_test(test_decode_split_latency),
		cmocka_unit_test(test_synth_roundtrip),
		cmocka_unit_test(test_datasrc_constants_match_linux),
		cmocka_unit_test(test_sample_fields_match_linux),
		cmocka_unit_test(test_datasrc_load_table),
		cmocka_unit_test(test_datasrc_load_flags),
		cmocka_unit_test(test_datasrc_nhm),
		cmocka_unit_test(test_datasrc_grt),
		cmocka_unit_test(test_datasrc_load_sources),
		cmocka_unit_test(test_datasrc_panther_cove),
		cmocka_unit_test(test_datasrc_store_latency),
		cmocka_unit_test(test_datasrc_store),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
