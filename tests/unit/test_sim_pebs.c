/* sim/: the Debug Store and PEBS assist (SDM Vol. 3B 18.4.9, 20.6.2.4):
 * record formats 1, 3 and 4 at the right place with the right fields,
 * reload from the DS reset values, threshold, full buffer, restrictions.
 * An overflow arms PEBS and the record comes at the next event ("Upon
 * occurrence of the next PEBS event, the PEBS hardware triggers an
 * assist"), so a counter `left` events below overflow writes its record
 * at event left + 1, and one reloaded to -period every period + 1. */
#include "test_sim_support.h"

#define EN_OS_USR (EVTSEL_EN | EVTSEL_OS | EVTSEL_USR)
#define INST 0xC0ULL
#define EV_IP 0x401000ULL
#define EV_LEN 3
#define RESET_GP(i) (DS_PEBS_COUNTER_RESET / 8 + (i))
#define RESET_FIXED(i) (DS_PEBS_COUNTER_RESET / 8 + DS_RESET_FIXED_SLOT_FMT4 + (i))

static struct ds_fixture ds;

static void set_gprs(void)
{
	struct sim_gprs g = { .rax = 0xA, .rbx = 0xB, .rcx = 0xC, .rdx = 0xD, .rsi = 0x51,
			      .rdi = 0xD1, .rbp = 0xB9, .rsp = 0x59, .r8 = 8, .r15 = 15,
			      .rflags = 0x246 };
	g.xmm[0][0] = 0x1111;
	g.xmm[15][1] = 0xFFFF;
	sim_set_gprs(&g);
}

/* N occurrences of (0xC0) at EV_IP with memory data. */
static void fire(u64 n)
{
	struct sim_occ o = { .event = 0xC0, .count = n, .ip = EV_IP, .insn_len = EV_LEN,
			     .data_addr = 0x7000, .latency = 42, .data_src = 0x5 };
	sim_event(&o);
}

/* PEBS on GP counter i, `left` events to the first record, reload period. */
static void pebs_gp(unsigned i, u64 left, u64 period, u64 extra_sel)
{
	hw_wrmsr(msr_pmc(i), (u32)minus(left, 32));	/* legacy alias: all models */
	ds.ds[RESET_GP(i)] = minus(period, 48);
	hw_wrmsr(msr_perfevtsel(i), EN_OS_USR | INST | extra_sel);
	hw_wrmsr(MSR_IA32_PEBS_ENABLE, hw_rdmsr(MSR_IA32_PEBS_ENABLE) | pebs_enable_gp_bit(i));
}

/* Format 1 (Nehalem): 176 bytes; RIP is the instruction after the
 * eventing one; the status field is GLOBAL_STATUS as it was, other
 * counters' bits included. */
static void test_fmt1_record(void **state)
{
	open_model("nhm");
	set_gprs();
	ds_setup(&ds, 4096, 4096);
	hw_wrmsr(msr_perfevtsel(1), EN_OS_USR | INST);	/* a non-PEBS counter */
	hw_wrmsr(msr_pmc(1), (u32)-5);
	pebs_gp(0, 10, 100, 0);
	fire(11);
	assert_int_equal(ds_index_used(&ds), 176);
	assert_int_equal(rec_u64(&ds, 0), 0x246);		/* RFLAGS */
	assert_int_equal(rec_u64(&ds, 8), EV_IP + EV_LEN);	/* RIP: next insn */
	assert_int_equal(rec_u64(&ds, 16), 0xA);		/* RAX */
	assert_int_equal(rec_u64(&ds, 24), 0xB);		/* RBX */
	assert_int_equal(rec_u64(&ds, 48), 0x51);		/* RSI */
	assert_int_equal(rec_u64(&ds, 72), 0x59);		/* RSP */
	assert_int_equal(rec_u64(&ds, 80), 8);			/* R8 */
	assert_int_equal(rec_u64(&ds, 136), 15);		/* R15 */
	assert_int_equal(rec_u64(&ds, 144), BIT(0) | BIT(1));	/* GLOBAL_STATUS */
	assert_int_equal(rec_u64(&ds, 152), 0x7000);
	assert_int_equal(rec_u64(&ds, 160), 0x5);
	assert_int_equal(rec_u64(&ds, 168), 42);
	/* Reloaded from the DS reset value. */
	assert_int_equal(hw_rdmsr(msr_pmc(0)), minus(100, 48));
}

/* Format 3 (Skylake): 200 bytes; eventing IP at 176; applicable counters
 * exact at 144; TSC at 192. */
static void test_fmt3_record(void **state)
{
	open_model("skl");
	set_gprs();
	ds_setup(&ds, 4096, 4096);
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_SET, BIT(3));	/* a stale bit */
	pebs_gp(2, 10, 50, 0);
	sim_run(1000, 0, 0x1000);	/* time passes: TSC moves */
	fire(11);
	assert_int_equal(ds_index_used(&ds), 200);
	assert_int_equal(rec_u64(&ds, 8), EV_IP + EV_LEN);
	assert_int_equal(rec_u64(&ds, 144), BIT(2));	/* exact, stale bit 3 not in it */
	assert_int_equal(rec_u64(&ds, 176), EV_IP);	/* eventing IP */
	assert_int_equal(rec_u64(&ds, 192), sim_tsc());
	assert_int_not_equal(sim_tsc(), 0);
	fire(51);	/* the reload period, and the event that takes the assist */
	assert_int_equal(ds_index_used(&ds), 400);
	struct sim_stats st;
	sim_stats_get(0, &st);
	assert_int_equal(st.pebs_records, 2);
	assert_int_equal(st.pebs_bytes, 400);
}

/* Format 4 without the counter's adaptive bit: the basic group only. */
static void test_fmt4_basic_only(void **state)
{
	open_model("icx");
	ds_setup(&ds, 4096, 4096);
	hw_wrmsr(MSR_PEBS_DATA_CFG, PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP);
	pebs_gp(5, 10, 10, 0);
	fire(11);
	assert_int_equal(ds_index_used(&ds), 32);
	assert_int_equal(rec_u64(&ds, 0), 32ULL << 48);	/* size 32, no groups */
	assert_int_equal(rec_u64(&ds, 8), EV_IP);
	assert_int_equal(rec_u64(&ds, 16), BIT(5));
	assert_int_equal(rec_u64(&ds, 24), sim_tsc());
}

/* Format 4 with EVTSEL[34]: groups per PEBS_DATA_CFG, in order memory
 * info, GPRs (RAX RCX RDX RBX RSP RBP RSI RDI order), XMM, LBR entries. */
static void test_fmt4_adaptive_groups(void **state)
{
	open_model("icx");
	set_gprs();
	ds_setup(&ds, 8192, 8192);
	u64 cfg = PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP | PEBS_DATACFG_XMMS |
		  PEBS_DATACFG_LBRS | 1ULL << PEBS_DATACFG_LBR_SHIFT;	/* 2 LBR entries */
	hw_wrmsr(MSR_PEBS_DATA_CFG, cfg);
	pebs_gp(0, 10, 10, EVTSEL_ADAPTIVE_RECORD);
	fire(11);
	u64 size = 32 + 32 + 144 + 256 + 2 * 24;
	assert_int_equal(ds_index_used(&ds), size);
	assert_int_equal(rec_u64(&ds, 0), size << 48 | cfg);
	assert_int_equal(rec_u64(&ds, 32), 0x7000);	/* meminfo: address */
	assert_int_equal(rec_u64(&ds, 40), 0x5);	/* data source */
	assert_int_equal(rec_u64(&ds, 48), 42);		/* latency */
	u64 g = 64;					/* GPR group */
	assert_int_equal(rec_u64(&ds, g + 0), 0x246);
	assert_int_equal(rec_u64(&ds, g + 8), EV_IP + EV_LEN);
	assert_int_equal(rec_u64(&ds, g + 16), 0xA);	/* RAX */
	assert_int_equal(rec_u64(&ds, g + 24), 0xC);	/* RCX */
	assert_int_equal(rec_u64(&ds, g + 32), 0xD);	/* RDX */
	assert_int_equal(rec_u64(&ds, g + 40), 0xB);	/* RBX */
	assert_int_equal(rec_u64(&ds, g + 48), 0x59);	/* RSP */
	assert_int_equal(rec_u64(&ds, g + 136), 15);	/* R15 */
	u64 x = g + 144;				/* XMM group */
	assert_int_equal(rec_u64(&ds, x), 0x1111);
	assert_int_equal(rec_u64(&ds, x + 255 - 7), 0xFFFF);
}

/* Baseline PEBS on a fixed counter: PEBS_ENABLE[32+i]; reset value from
 * slot 8+i (formats below 5); applicable bit 32+i. */
static void test_fixed_counter_pebs(void **state)
{
	open_model("spr");
	ds_setup(&ds, 4096, 4096);
	hw_wrmsr(msr_fixed_ctr(0), minus(20, 48));
	ds.ds[RESET_FIXED(0)] = minus(7, 48);
	hw_wrmsr(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(0, FIXED_CTRL_OS));
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, global_fixed_bit(0));
	hw_wrmsr(MSR_IA32_PEBS_ENABLE, pebs_enable_fixed_bit(0));
	sim_run(105, 21, 0x2000);	/* the 20th overflows, the 21st takes the assist */
	assert_int_equal(ds_index_used(&ds), 32);
	assert_int_equal(rec_u64(&ds, 8), 0x2000);
	assert_int_equal(rec_u64(&ds, 16), global_fixed_bit(0));
	assert_int_equal(hw_rdmsr(msr_fixed_ctr(0)), minus(7, 48));
	/* Without baseline, fixed counters cannot do PEBS (on SKL bits 32-35
	 * are load-latency enables, so a fixed counter's bit is never valid
	 * beyond them). */
	sim_close();
	open_model("skl");
	hw_wrmsr(MSR_IA32_PEBS_ENABLE, BIT(32));	/* LL enable for GP0 */
	expect_wrmsr_gp(MSR_IA32_PEBS_ENABLE, BIT(36), "cannot do PEBS");
}

/* PEBS on a counter that cannot do it #GPs: the E-core has no fixed 3,
 * no GP 6. */
static void test_pebs_counter_restrictions(void **state)
{
	open_model("adl");
	hw_wrmsr(MSR_IA32_PEBS_ENABLE, BIT(7) | pebs_enable_fixed_bit(3));	/* P-core */
	sim_set_cpu(1);
	expect_wrmsr_gp(MSR_IA32_PEBS_ENABLE, pebs_enable_fixed_bit(3), "cannot do PEBS");
	expect_wrmsr_gp(MSR_IA32_PEBS_ENABLE, BIT(6), "cannot do PEBS");
	hw_wrmsr(MSR_IA32_PEBS_ENABLE, BIT(5) | pebs_enable_fixed_bit(2));
}

/* SDM 18.4.9: reaching the interrupt threshold sets GLOBAL_STATUS[62]
 * and raises a PMI, INT or not. */
static void test_threshold_pmi(void **state)
{
	open_model("icx");
	hook_irqs();
	unmask_lvt_pc();
	ds_setup(&ds, 4096, 2 * 32);
	pebs_gp(0, 10, 10, 0);
	fire(11);
	assert_int_equal(irqs.count, 0);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS) & GLOBAL_STATUS_OVF_BUFFER, 0);
	fire(11);
	assert_int_equal(irqs.count, 1);
	assert_true(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS) & GLOBAL_STATUS_OVF_BUFFER);
}

/* SDM Vol. 3B, PEBS: "Upon successful bounds checks, the processor will
 * store the data record ..., clear the counter overflow status, and reload
 * the counter. If the bounds checks fail, the PEBS will be skipped
 * entirely." A written record clears the counter's overflow bit; at the
 * absolute maximum nothing is written, the counter is not reloaded (it
 * goes on from zero: no further overflow, so one lost assist) and its
 * overflow bit stays set for the handler to see. */
static void test_full_buffer_loses(void **state)
{
	open_model("skl");
	ds_setup(&ds, 200, 4096);
	pebs_gp(0, 10, 10, 0);
	fire(11);
	assert_false(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS) & BIT(0));
	assert_int_equal(hw_rdmsr(msr_pmc(0)), minus(10, 48));	/* reloaded */
	fire(10);	/* overflow: armed, the buffer full */
	assert_true(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS) & BIT(0));
	fire(1);	/* the assist, skipped */
	fire(10);	/* counting on, no new overflow */
	assert_int_equal(ds_index_used(&ds), 200);
	assert_true(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS) & BIT(0));
	struct sim_stats st;
	sim_stats_get(0, &st);
	assert_int_equal(st.pebs_records, 1);
	assert_int_equal(st.pebs_lost, 1);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 11);	/* not reloaded: counting on from 0 */
	/* Injected: a full buffer from the start. */
	ds_setup(&ds, 4000, 4096);
	sim_inject_pebs_full();
	fire(11);
	assert_int_equal(ds_index_used(&ds), 4000);
}

/* SDM Vol. 3B ch. 20 (PEBS facility, Nehalem to Skylake): PEBS is valid
 * only with CMASK, INV, EDGE and AnyThread zero, and no behaviour is given
 * otherwise. Real parts write the record (Linux's cycles:pp alias,
 * UOPS_RETIRED.ALL inv cmask=16, intel_pebs_aliases_snb in
 * arch/x86/events/intel/core.c), so the model does, and counts it. */
static void test_qualified_pebs_counted(void **state)
{
	struct sim_stats st;
	open_model("skl");
	ds_setup(&ds, 4096, 4096);
	pebs_gp(0, 10, 10, 0);
	fire(11);
	sim_stats_get(0, &st);
	assert_int_equal(st.pebs_records, 1);
	assert_int_equal(st.pebs_qualified, 0);
	hw_wrmsr(msr_perfevtsel(0), EN_OS_USR | INST | (1ULL << EVTSEL_CMASK_SHIFT));
	fire(11);
	sim_stats_get(0, &st);
	assert_int_equal(st.pebs_records, 2);
	assert_int_equal(st.pebs_qualified, 1);
	assert_int_equal(ds_index_used(&ds), 2 * 200);
	sim_stats_total(&st);	/* sums every field, this one too */
	assert_int_equal(st.pebs_qualified, 1);
}

/* kvm-unit-tests x86/pmu_pebs.c: a PEBS counter started one event below
 * overflow overflows at the next event and writes its record at the one
 * after; one that never overflows
 * writes none and never sets GLOBAL_STATUS bit 62 (the threshold bit). */
static void test_pebs_one_below_and_never(void **state)
{
	open_model("icx");
	ds_setup(&ds, 4096, 4096);
	pebs_gp(0, 1, 1000, 0);		/* one event to go */
	fire(1);
	assert_int_equal(ds_index_used(&ds), 0);	/* armed */
	fire(1);
	assert_int_equal(ds_index_used(&ds), 32);	/* basic group only */
	hw_wrmsr(MSR_IA32_PEBS_ENABLE, 0);
	hw_wrmsr(msr_perfevtsel(0), 0);
	ds_setup(&ds, 4096, 4096);
	pebs_gp(1, 1ULL << 40, 1000, 0);	/* far from overflow */
	fire(100000);
	assert_int_equal(ds_index_used(&ds), 0);
	assert_false(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS) & (GLOBAL_STATUS_OVF_BUFFER | BIT(1)));
}

/* kvm-unit-tests x86/pmu_pebs.c pebs_disable: with IA32_PEBS_ENABLE
 * cleared first and GLOBAL_CTRL still on, the counter keeps counting; an
 * overflow then writes no record and is a plain overflow: its status bit
 * and, with INT set, a PMI (no buffer bit 62). */
static void test_overflow_after_pebs_enable_cleared(void **state)
{
	open_model("icx");
	hook_irqs();
	unmask_lvt_pc();
	ds_setup(&ds, 4096, 4096);
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, BIT(0));
	pebs_gp(0, 1, 1000, EVTSEL_INT);
	hw_wrmsr(MSR_IA32_PEBS_ENABLE, 0);
	fire(1);
	assert_int_equal(ds_index_used(&ds), 0);
	u64 status = hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	assert_true(status & BIT(0));
	assert_false(status & GLOBAL_STATUS_OVF_BUFFER);
	assert_int_equal(irqs.count, 1);
}

/* kvm-unit-tests x86/pmu_pebs.c check_one_counter: each GP and each fixed
 * counter alone (icx: PEBS on GP 0-7 and, with baseline, fixed 0-3),
 * started one event below overflow, writes one record whose applicable
 * counters name it alone. */
static void test_pebs_each_counter_alone(void **state)
{
	open_model("icx");
	for (unsigned k = 0; k < 8 + 4; k++) {
		bool fixed = k >= 8;
		unsigned i = fixed ? k - 8 : k;
		u64 bit = fixed ? global_fixed_bit(i) : BIT(i);
		ds_setup(&ds, 4096, 4096);
		hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, bit);
		if (fixed) {
			hw_wrmsr(msr_fixed_ctr(i), GENMASK(47, 0));
			hw_wrmsr(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(i, FIXED_CTRL_OS | FIXED_CTRL_USR));
			hw_wrmsr(MSR_IA32_PEBS_ENABLE, pebs_enable_fixed_bit(i));
			sim_run(2, 2, EV_IP);	/* each cycle one instruction, >= 1 slot */
		} else {
			pebs_gp(i, 1, 1000, 0);
			hw_wrmsr(MSR_IA32_PEBS_ENABLE, pebs_enable_gp_bit(i));
			fire(2);
		}
		if (fixed && i == 2)	/* reference cycles: one core cycle may hold no TSC tick */
			sim_run(10, 10, EV_IP);
		assert_int_equal(ds_index_used(&ds), 32);
		assert_int_equal(rec_u64(&ds, 16), bit);	/* applicable counters */
		hw_wrmsr(MSR_IA32_PEBS_ENABLE, 0);
		hw_wrmsr(MSR_IA32_FIXED_CTR_CTRL, 0);
		if (!fixed)
			hw_wrmsr(msr_perfevtsel(i), 0);
		hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_RESET, hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS));
	}
	assert_int_equal(fault_count, 0);
}

/* kvm-unit-tests x86/pmu_pebs.c check_pebs_counters: all 16 combinations
 * of the PEBS_DATA_CFG groups (memory info, GPRs, XMMs, LBRs) with the
 * LBR group at its 32 entries. Each record is as long as its groups
 * (basic 32, meminfo 32, GPRs 144, XMMs 256, 24 per LBR entry; SDM
 * 20.6.2.4.2), and its basic group states that size and the groups. */
static void test_data_cfg_every_combination(void **state)
{
	static const u64 group[4] = { PEBS_DATACFG_MEMINFO, PEBS_DATACFG_GP,
				      PEBS_DATACFG_XMMS, PEBS_DATACFG_LBRS };
	static const u64 bytes[4] = { 32, 144, 256, 32 * 24 };
	open_model("icx");
	for (unsigned mask = 0; mask < 16; mask++) {
		u64 cfg = 31ULL << PEBS_DATACFG_LBR_SHIFT;	/* 32 LBR entries */
		u64 size = 32;
		for (unsigned g = 0; g < 4; g++)
			if (mask & (1u << g)) {
				cfg |= group[g];
				size += bytes[g];
			}
		ds_setup(&ds, 4096, 4096);
		hw_wrmsr(MSR_PEBS_DATA_CFG, cfg);
		pebs_gp(0, 1, 1000, EVTSEL_ADAPTIVE_RECORD);
		fire(2);
		assert_int_equal(ds_index_used(&ds), size);
		assert_int_equal(rec_u64(&ds, 0), size << 48 | cfg);
	}
	assert_int_equal(fault_count, 0);
}

/* A PEBS index outside the buffer is a loud model error, not a write. */
static void test_index_outside_buffer(void **state)
{
	open_model("icx");
	ds_setup(&ds, 4096, 4096);
	pebs_gp(0, 10, 10, 0);
	sim_inject_pebs_index((u64)(uintptr_t)ds.buf - 64);
	fire(11);
	assert_int_equal(fault_count, 1);
	assert_non_null(strstr(last_fault.rule, "outside the buffer"));
	/* A null DS area too. */
	hw_wrmsr(MSR_IA32_DS_AREA, 0);
	fire(11);
	assert_int_equal(fault_count, 2);
	assert_non_null(strstr(last_fault.rule, "IA32_DS_AREA = 0"));
}

/* SDM 20.3.4.4.2: load-latency events count only loads slower than
 * MSR_PEBS_LD_LAT_THRESHOLD. */
static void test_load_latency_threshold(void **state)
{
	open_model("skl");
	hw_wrmsr(MSR_PEBS_LD_LAT_THRESHOLD, 100);
	hw_wrmsr(msr_perfevtsel(3), EN_OS_USR | 0xCD | 0x01 << EVTSEL_UMASK_SHIFT);
	struct sim_occ fast = { .event = 0xCD, .umask = 0x01, .count = 5, .latency = 50 };
	struct sim_occ slow = { .event = 0xCD, .umask = 0x01, .count = 7, .latency = 150 };
	sim_event(&fast);
	sim_event(&slow);
	assert_int_equal(hw_rdmsr(msr_pmc(3)), 7);
}

/* Injected faults for the selftest's broken models: records shorter than
 * the format (index and adaptive size field say so), a PMI per record
 * whatever the threshold, no reload from the DS reset value. */
static void test_inject_record_size(void **state)
{
	open_model("skl");
	ds_setup(&ds, 4096, 4096);
	sim_inject_pebs_record_size(192);
	pebs_gp(0, 3, 3, 0);
	fire(4);
	assert_int_equal(ds_index_used(&ds), 192);
	assert_int_equal(rec_u64(&ds, 8), EV_IP + EV_LEN);	/* RIP at 8: fields up to the cut */
	sim_inject_pebs_record_size(0);
	fire(4);
	assert_int_equal(ds_index_used(&ds), 192 + 200);
}

static void test_inject_adaptive_record_size(void **state)
{
	open_model("icx");
	ds_setup(&ds, 4096, 4096);
	sim_inject_pebs_record_size(48);
	pebs_gp(0, 3, 3, 0);
	fire(4);
	assert_int_equal(ds_index_used(&ds), 48);
	assert_int_equal(rec_u64(&ds, 0) >> 48, 48);
}

static void test_inject_threshold_ignored(void **state)
{
	open_model("icx");
	hook_irqs();
	unmask_lvt_pc();
	ds_setup(&ds, 4096, 4 * 32);
	sim_inject_pebs_threshold_ignored(true);
	pebs_gp(0, 10, 10, 0);
	fire(11);
	assert_int_equal(irqs.count, 1);
	assert_true(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS) & GLOBAL_STATUS_OVF_BUFFER);
}

static void test_inject_no_reload(void **state)
{
	open_model("skl");
	ds_setup(&ds, 4096, 4096);
	sim_inject_pebs_no_reload(true);
	pebs_gp(0, 10, 100, 0);
	fire(13);
	assert_int_equal(ds_index_used(&ds), 200);
	assert_int_equal(hw_rdmsr(msr_pmc(0)), 3);	/* wrapped through 0, not reloaded */
}

/* Every model with PEBS: a record lands at the buffer base with the
 * format's size, the eventing IP where the format keeps it, and the index
 * advances by exactly that size. */
static void check_model_record(const char *model, u32 cpu, unsigned gp, u64 size,
			       u64 ip_at, u64 ip)
{
	open_model(model);
	sim_set_cpu(cpu);
	set_gprs();
	ds_setup(&ds, 4096, 4096);
	pebs_gp(gp, 3, 3, 0);
	fire(4);
	if (ds_index_used(&ds) != size)
		fail_msg("%s cpu %u: record of %llu bytes, expected %llu", model, cpu,
			 (unsigned long long)ds_index_used(&ds), (unsigned long long)size);
	assert_int_equal(rec_u64(&ds, ip_at), ip);
	if (size >= 144)	/* formats 0-3 keep RAX at 16, adaptive basic the counters */
		assert_int_equal(rec_u64(&ds, 16), 0xA);
	else
		assert_int_equal(rec_u64(&ds, 16), BIT(gp));
	assert_int_equal(fault_count, 0);
	sim_close();
}

static void test_record_per_model_format(void **state)
{
	check_model_record("core2", 0, 0, 144, 8, EV_IP + EV_LEN);	/* fmt0: RIP only */
	check_model_record("nhm", 0, 1, 176, 8, EV_IP + EV_LEN);	/* fmt1: RIP only */
	check_model_record("hsw", 1, 3, 192, 176, EV_IP);		/* fmt2 eventing IP */
	check_model_record("skl", 1, 1, 200, 176, EV_IP);		/* fmt3 */
	check_model_record("icx", 0, 7, 32, 8, EV_IP);			/* fmt4 basic */
	check_model_record("spr", 1, 1, 32, 8, EV_IP);
	check_model_record("adl", 0, 7, 32, 8, EV_IP);			/* P-core */
	check_model_record("adl", 1, 5, 32, 8, EV_IP);			/* E-core */
	/* nopmu has no PEBS MSRs at all. */
	open_model("nopmu");
	expect_wrmsr_gp(MSR_IA32_PEBS_ENABLE, 1, "no architectural perfmon");
	expect_wrmsr_gp(MSR_IA32_DS_AREA, 0, "DS[21]");
}

/* When the record is written. SDM Vol. 3B, PEBS (Core 2 through Ice
 * Lake): "When the counter IA32_PMCx overflows from maximum count to zero,
 * the PEBS hardware is armed. Upon occurrence of the next PEBS event, the
 * PEBS hardware triggers an assist": the record is the next event's (its
 * IP), and until then the overflow bit is set with no record (Linux's
 * handle_pmi_common: a PMI can find a PEBS counter's bit set "while PEBS
 * has armed"). PDist (GP0 of Golden Cove and Gracemont; Intel's files:
 * "PDISTCounter": "0") writes it at the overflowing event itself. */
struct timing_case {
	const char *model;
	u32 cpu;
	unsigned gp;
	bool pdist;
	u64 ip_at;	/* offset of the IP field */
	bool next_ip;	/* formats 0 and 1: the instruction after */
};

static const struct timing_case timing_cases[] = {
	{ "core2", 0, 0, false, 8, true },
	{ "nhm", 0, 0, false, 8, true },
	{ "hsw", 0, 1, false, 176, false },
	{ "skl", 0, 2, false, 176, false },
	{ "icx", 0, 0, false, 8, false },
	{ "spr", 0, 0, true, 8, false },
	{ "spr", 0, 1, false, 8, false },
	{ "adl", 0, 0, true, 8, false },	/* P-core */
	{ "adl", 0, 3, false, 8, false },
	{ "adl", 1, 0, true, 8, false },	/* E-core */
	{ "adl", 1, 2, false, 8, false },
};

#define IP_OVF  0x402000ULL	/* the overflowing event */
#define IP_NEXT 0x403000ULL	/* the event after it */

static void fire_at(u64 n, u64 ip)
{
	struct sim_occ o = { .event = 0xC0, .count = n, .ip = ip, .insn_len = EV_LEN };
	sim_event(&o);
}

/* CPUID.0AH:EAX[23:16], the GP counter width. */
static unsigned gp_width(void)
{
	struct cpuid_regs r;
	hw_cpuid(CPUID_LEAF_ARCH_PERFMON, 0, &r);
	return (r.eax >> 16) & 0xFF;
}

static void check_record_timing(const struct timing_case *t)
{
	open_model(t->model);
	sim_set_cpu(t->cpu);
	assert_int_equal(sim_pebs_at_overflow(t->gp), t->pdist);
	ds_setup(&ds, 4096, 4096);
	pebs_gp(t->gp, 3, 5, 0);
	fire_at(2, EV_IP);
	assert_int_equal(ds_index_used(&ds), 0);
	fire_at(1, IP_OVF);
	u64 size = ds_index_used(&ds);
	bool bit = hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS) & BIT(t->gp);
	if (t->pdist) {		/* written, bit cleared, reloaded */
		assert_int_not_equal(size, 0);
		assert_false(bit);
		assert_int_equal(rec_u64(&ds, t->ip_at), IP_OVF);
		assert_int_equal(hw_rdmsr(msr_pmc(t->gp)), minus(5, gp_width()));
		fire_at(1, IP_NEXT);
		assert_int_equal(ds_index_used(&ds), size);	/* nothing more */
	} else {		/* armed: the bit set, no record, counter at 0 */
		if (size) fail_msg("%s cpu %u gp %u: record at the overflow", t->model, t->cpu, t->gp);
		assert_true(bit);
		assert_int_equal(hw_rdmsr(msr_pmc(t->gp)), 0);
		fire_at(1, IP_NEXT);
		assert_int_not_equal(ds_index_used(&ds), 0);
		assert_int_equal(rec_u64(&ds, t->ip_at), t->next_ip ? IP_NEXT + EV_LEN : IP_NEXT);
		assert_false(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS) & BIT(t->gp));
		assert_int_equal(hw_rdmsr(msr_pmc(t->gp)), minus(5, gp_width()));
	}
	assert_int_equal(fault_count, 0);
	sim_close();
}

static void test_record_timing_per_counter(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(timing_cases); i++)
		check_record_timing(&timing_cases[i]);
}

/* An armed counter written before its next event: the write replaces the
 * overflow (the model's choice where the SDM says nothing; Linux writes a
 * PEBS counter only with the event stopped), no record comes for it. With
 * IA32_PEBS_ENABLE cleared while armed, no assist runs while it is off
 * (the SDM ties the assist to a PEBS-enabled counter), and the record
 * comes at the first event after it is set again: Linux clears
 * PEBS_ENABLE at every PMU disable and must not lose records by it. */
static void test_armed_then_written_or_paused(void **state)
{
	open_model("icx");
	ds_setup(&ds, 4096, 4096);
	pebs_gp(0, 1, 5, 0);
	fire(1);					/* overflow: armed */
	hw_wrmsr(msr_pmc(0), (u32)minus(5, 32));	/* rewritten */
	fire(1);
	assert_int_equal(ds_index_used(&ds), 0);
	struct sim_stats st;
	sim_stats_get(0, &st);
	assert_int_equal(st.pebs_disarmed, 1);
	fire(4);					/* the new overflow */
	assert_int_equal(ds_index_used(&ds), 0);
	hw_wrmsr(MSR_IA32_PEBS_ENABLE, 0);		/* paused while armed */
	fire(3);
	assert_int_equal(ds_index_used(&ds), 0);
	hw_wrmsr(MSR_IA32_PEBS_ENABLE, pebs_enable_gp_bit(0));
	fire(1);
	assert_int_equal(ds_index_used(&ds), 32);
	sim_stats_get(0, &st);
	assert_int_equal(st.pebs_disarmed, 1);
	assert_int_equal(st.pebs_records, 1);
}

/* Core 2: PEBS only on IA32_PMC0; v2 has no AnyThread and no STATUS_SET;
 * counters are 40 bits wide. */
static void test_core2_restrictions(void **state)
{
	open_model("core2");
	expect_wrmsr_gp(MSR_IA32_PEBS_ENABLE, BIT(1), "cannot do PEBS");
	expect_wrmsr_gp(msr_perfevtsel(0), EVTSEL_ANY, "reserved");
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_STATUS_SET, 1, "not implemented");
	hw_wrmsr(msr_pmc(1), 0x80000000ULL);
	assert_int_equal(hw_rdmsr(msr_pmc(1)), 0xFF80000000ULL);	/* 40-bit sign extension */
	expect_wrmsr_gp(MSR_IA32_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_CTR_FRZ, "reserved");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_fmt1_record, close_model),
		cmocka_unit_test_teardown(test_fmt3_record, close_model),
		cmocka_unit_test_teardown(test_fmt4_basic_only, close_model),
		cmocka_unit_test_teardown(test_fmt4_adaptive_groups, close_model),
		cmocka_unit_test_teardown(test_fixed_counter_pebs, close_model),
		cmocka_unit_test_teardown(test_pebs_counter_restrictions, close_model),
		cmocka_unit_test_teardown(test_threshold_pmi, close_model),
		cmocka_unit_test_teardown(test_full_buffer_loses, close_model),
		cmocka_unit_test_teardown(test_index_outside_buffer, close_model),
		cmocka_unit_test_teardown(test_qualified_pebs_counted, close_model),
		cmocka_unit_test_teardown(test_pebs_one_below_and_never, close_model),
		cmocka_unit_test_teardown(test_overflow_after_pebs_enable_cleared, close_model),
		cmocka_unit_test_teardown(test_pebs_each_counter_alone, close_model),
		cmocka_unit_test_teardown(test_data_cfg_every_combination, close_model),
		cmocka_unit_test_teardown(test_load_latency_threshold, close_model),
		cmocka_unit_test_teardown(test_record_per_model_format, close_model),
		cmocka_unit_test_teardown(test_record_timing_per_counter, close_model),
		cmocka_unit_test_teardown(test_armed_then_written_or_paused, close_model),
		cmocka_unit_test_teardown(test_core2_restrictions, close_model),
		cmocka_unit_test_teardown(test_inject_record_size, close_model),
		cmocka_unit_test_teardown(test_inject_adaptive_record_size, close_model),
		cmocka_unit_test_teardown(test_inject_threshold_ignored, close_model),
		cmocka_unit_test_teardown(test_inject_no_reload, close_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
