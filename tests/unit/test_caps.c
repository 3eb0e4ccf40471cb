/* CPUID.0AH / IA32_PERF_CAPABILITIES decoding against register values of
 * real CPUs. Leaf values are those the parts report in public CPUID dumps;
 * PERF_CAPABILITIES values are composed from each part's documented
 * features (SDM Vol. 4, Table 2-2 and the model-specific tables). */
#include "test.h"
#include "fake_hw.h"
#include "arch/caps.h"
#include "arch/cache.h"

#define INTEL_VENDOR(max) { 0x0, 0, { (max), 0x756e6547, 0x6c65746e, 0x49656e69 } }

/* Skylake client, i7-6700K (06_5EH stepping 3). */
static const struct fake_cpuid skl_cpuid[] = {
	INTEL_VENDOR(0x16),
	{ 0x1, 0, { 0x000506E3, 0x00100800, 0x7FFAFBBF, 0xBFEBFBFF } },
	{ 0xA, 0, { 0x07300404, 0x00000000, 0x00000000, 0x00000603 } },
	/* CPUID.04H of a Core i7-6700: L1d, L1i, L2, L3, then the end. */
	{ 0x4, 0, { 0x1C004121, 0x01C0003F, 0x0000003F, 0 } },
	{ 0x4, 1, { 0x1C004122, 0x01C0003F, 0x0000003F, 0 } },
	{ 0x4, 2, { 0x1C004143, 0x00C0003F, 0x000003FF, 0 } },
	{ 0x4, 3, { 0x1C03C163, 0x03C0003F, 0x00001FFF, 6 } },
	FAKE_END_CPUID,
};
static const struct fake_msr skl_msrs[] = {
	{ MSR_IA32_PERF_CAPABILITIES, 0x33C5 },	/* fmt 3, SMM freeze, FW writes */
	{ MSR_IA32_MISC_ENABLE, 0x850089 },
	FAKE_END_MSR,
};

/* Ice Lake server, Xeon Platinum 8380 (06_6AH stepping 6). */
static const struct fake_cpuid icx_cpuid[] = {
	INTEL_VENDOR(0x1B),
	{ 0x1, 0, { 0x000606A6, 0x00400800, 0x7FFEFBFF, 0xBFEBFBFF } },
	{ 0xA, 0, { 0x08300805, 0x00000000, 0x00000000, 0x00008604 } },
	FAKE_END_CPUID,
};
static const struct fake_msr icx_msrs[] = {
	{ MSR_IA32_PERF_CAPABILITIES, 0xF4C5 },	/* fmt 4 + baseline, metrics */
	{ MSR_IA32_MISC_ENABLE, 0x850089 },
	FAKE_END_MSR,
};

/* Sapphire Rapids, Xeon 8480+ (06_8FH stepping 8). */
static const struct fake_cpuid spr_cpuid[] = {
	INTEL_VENDOR(0x20),
	{ 0x1, 0, { 0x000806F8, 0x00800800, 0x7FFEFBFF, 0xBFEBFBFF } },
	{ 0xA, 0, { 0x08300805, 0x00000000, 0x00000000, 0x00008604 } },
	FAKE_END_CPUID,
};
static const struct fake_msr spr_msrs[] = {
	{ MSR_IA32_PERF_CAPABILITIES, 0x1F4C5 },	/* + PEBS output to PT */
	{ MSR_IA32_MISC_ENABLE, 0x850089 },
	FAKE_END_MSR,
};

/* Alder Lake, i9-12900K (06_97H stepping 2): CPUID.0AH reports the
 * counters both core types have (6 GP, 3 fixed) on either; the P-core has
 * 2 GP and 1 fixed more (Linux, intel_pmu_init: num_counters + 2,
 * num_counters_fixed + 1 on a hybrid CPU); CPUID.1AH tells which core
 * type we run on. */
#define ADL_COMMON \
	INTEL_VENDOR(0x20), \
	{ 0x1, 0, { 0x00090672, 0x00800800, 0x7FFAFBFF, 0xBFEBFBFF } }, \
	{ 0x7, 0, { 0x00000002, 0x239CA7EB, 0x98C027AC, 0xFC1CC410 } }
static const struct fake_cpuid adl_p_cpuid[] = {
	ADL_COMMON,
	{ 0xA, 0, { 0x07300605, 0x00000000, 0x00000007, 0x00008603 } },
	{ 0x1A, 0, { 0x40000001, 0, 0, 0 } },
	FAKE_END_CPUID,
};
static const struct fake_cpuid adl_e_cpuid[] = {
	ADL_COMMON,
	{ 0xA, 0, { 0x07300605, 0x00000000, 0x00000007, 0x00008603 } },
	{ 0x1A, 0, { 0x20000001, 0, 0, 0 } },
	FAKE_END_CPUID,
};
static const struct fake_msr adl_msrs[] = {
	{ MSR_IA32_PERF_CAPABILITIES, 0x134C5 },
	{ MSR_IA32_MISC_ENABLE, 0x850089 },
	FAKE_END_MSR,
};

/* QEMU TCG's CPU: no architectural perfmon, no PDCM. */
static const struct fake_cpuid nopmu_cpuid[] = {
	{ 0x0, 0, { 0xD, 0x68747541, 0x444D4163, 0x69746E65 } },	/* AuthenticAMD */
	{ 0x1, 0, { 0x00060FB1, 0x00000800, 0x80202001, 0x078BFBFD } },
	FAKE_END_CPUID,
};

static const struct fake_cpu skl = { .name = "skl", .cpuid = skl_cpuid, .msrs = skl_msrs };
static const struct fake_cpu icx = { .name = "icx", .cpuid = icx_cpuid, .msrs = icx_msrs };
static const struct fake_cpu spr = { .name = "spr", .cpuid = spr_cpuid, .msrs = spr_msrs };
static const struct fake_cpu adl_p = { .name = "adl-p", .cpuid = adl_p_cpuid, .msrs = adl_msrs };
static const struct fake_cpu adl_e = { .name = "adl-e", .cpuid = adl_e_cpuid, .msrs = adl_msrs };
static const struct fake_cpu nopmu = { .name = "nopmu", .cpuid = nopmu_cpuid, .msrs = NULL };

static struct pmu_caps read_caps(const struct fake_cpu *cpu)
{
	struct pmu_caps c;
	fake_hw_select(cpu);
	pmu_caps_read(&c);
	return c;
}

static void test_skylake(void **state)
{
	struct pmu_caps c = read_caps(&skl);
	assert_true(c.intel);
	assert_int_equal(c.family, 6);
	assert_int_equal(c.model, 0x5E);	/* extended model prepended */
	assert_int_equal(c.stepping, 3);
	assert_int_equal(c.version, 4);
	assert_int_equal(c.num_gp, 4);
	assert_int_equal(c.gp_width, 48);
	assert_int_equal(c.gp_mask, 0xF);
	assert_int_equal(c.num_fixed, 3);
	assert_int_equal(c.fixed_width, 48);
	assert_int_equal(c.arch_events_len, 7);
	assert_int_equal(c.arch_events, 0x7F);	/* EBX = 0: all 7 present */
	assert_false(caps_arch_event(&c, ARCH_EVENT_TOPDOWN_SLOTS));
	assert_int_equal(c.pebs_format, 3);
	assert_true(c.full_width_write);
	assert_true(c.smm_freeze);
	assert_false(c.pebs_baseline);
	assert_int_equal(c.lbr_format, 5);
	assert_true(c.ds && c.dtes64 && c.pdcm);
	assert_true(caps_has_pebs(&c));
	assert_false(c.hybrid);
	assert_true(caps_has_global_ctrl(&c) && caps_has_status_set(&c));
}

/* CPUID.04H's sub-leaves until type 0 (SDM Vol. 2A, CPUID): a Core
 * i7-6700's 32K 8-way L1s, 256K 4-way L2 and 8M 16-way L3, for perf.data's
 * HEADER_CACHE. */
static void test_skylake_caches(void **state)
{
	struct pmu_caps c = read_caps(&skl);
	struct cpu_cache k[CACHE_MAX_LEVELS];
	assert_int_equal(caches_read(&c, k, CACHE_MAX_LEVELS), 4);
	static const struct { u32 level; enum cache_type type; u32 ways, sets; u64 size; } want[] = {
		{ 1, CACHE_DATA, 8, 64, 32 << 10 }, { 1, CACHE_INSTRUCTION, 8, 64, 32 << 10 },
		{ 2, CACHE_UNIFIED, 4, 1024, 256 << 10 }, { 3, CACHE_UNIFIED, 16, 8192, 8 << 20 },
	};
	for (int i = 0; i < 4; i++) {
		assert_int_equal(k[i].level, want[i].level);
		assert_int_equal(k[i].type, want[i].type);
		assert_int_equal(k[i].line_size, 64);
		assert_int_equal(k[i].ways, want[i].ways);
		assert_int_equal(k[i].sets, want[i].sets);
		assert_int_equal(k[i].size, want[i].size);
	}
	assert_string_equal(cache_type_name(k[1].type), "Instruction");
	assert_int_equal(caches_read(&c, k, 2), 2);	/* no more than asked */
	struct cpuid_regs none = { 0 };
	assert_false(cache_decode(&none, k));
}

static void test_icelake_server(void **state)
{
	struct pmu_caps c = read_caps(&icx);
	assert_int_equal(c.model, 0x6A);
	assert_int_equal(c.version, 5);
	assert_int_equal(c.num_gp, 8);
	assert_int_equal(c.gp_mask, 0xFF);
	assert_int_equal(c.num_fixed, 4);
	assert_int_equal(c.fixed_mask, 0xF);
	assert_true(c.anythread_deprecated);	/* EDX[15] */
	assert_int_equal(c.pebs_format, 4);
	assert_true(c.pebs_baseline);
	assert_true(c.perf_metrics);
	assert_true(caps_arch_event(&c, ARCH_EVENT_TOPDOWN_SLOTS));
}

static void test_sapphire_rapids(void **state)
{
	struct pmu_caps c = read_caps(&spr);
	assert_int_equal(c.model, 0x8F);
	assert_int_equal(c.stepping, 8);
	assert_int_equal(c.num_gp, 8);
	assert_int_equal(c.num_fixed, 4);
	assert_int_equal(c.pebs_format, 4);
	assert_true(c.pebs_baseline);
	assert_true(c.pebs_output_pt);
}

static void test_alder_lake_core_types(void **state)
{
	struct pmu_caps p = read_caps(&adl_p);
	struct pmu_caps e = read_caps(&adl_e);
	assert_true(p.hybrid && e.hybrid);
	assert_int_equal(p.model, 0x97);
	assert_int_equal(p.core_type, CPUID_1A_CORE_TYPE_CORE);
	assert_int_equal(e.core_type, CPUID_1A_CORE_TYPE_ATOM);
	assert_int_equal(p.num_gp, 8);
	assert_int_equal(p.gp_mask, 0xFF);
	assert_int_equal(e.num_gp, 6);
	assert_int_equal(e.gp_mask, 0x3F);
	assert_int_equal(p.num_fixed, 4);
	assert_int_equal(p.fixed_mask, 0xF);
	assert_int_equal(e.num_fixed, 3);
	assert_int_equal(e.fixed_mask, 0x7);
	assert_string_equal(caps_core_type_name(e.core_type), "efficiency core (Atom)");
}

/* Record semantics per part, from Linux's model lists
 * (arch/x86/events/intel/core.c): PMU_FL_INSTR_LATENCY (split meminfo
 * latency) on Alder Lake, Sapphire Rapids and later but not Ice Lake;
 * intel_pmu_pebs_data_source_grt on the Alder Lake E-core only. */
static void test_record_semantics_per_part(void **state)
{
	struct pmu_caps s = read_caps(&skl), i = read_caps(&icx), r = read_caps(&spr);
	struct pmu_caps p = read_caps(&adl_p), e = read_caps(&adl_e);
	assert_false(caps_pebs_latency_split(&s));	/* format 3: no meminfo group */
	assert_false(caps_pebs_latency_split(&i));
	assert_true(caps_pebs_latency_split(&r));
	assert_true(caps_pebs_latency_split(&p) && caps_pebs_latency_split(&e));
	assert_true(caps_gracemont(&e));
	assert_false(caps_gracemont(&p) || caps_gracemont(&r) || caps_gracemont(&i));
	struct pmu_caps n = i;
	n.model = MODEL_ALDERLAKE_N;
	assert_true(caps_gracemont(&n));
	/* intel_pmu_pebs_data_source_nhm: every Nehalem and Westmere part,
	 * the EX servers and the Westmere client included, and no later one. */
	struct pmu_caps h = s;	/* an Intel family 6 part; only the model changes */
	for (u32 m = 0; m < 0x100; m++) {
		h.model = m;
		bool nhm_wsm = m == 0x1E || m == 0x1F || m == 0x1A || m == 0x2E ||
			       m == 0x25 || m == 0x2C || m == 0x2F;
		assert_int_equal(caps_nehalem_data_source(&h), nhm_wsm);
	}
	assert_false(caps_nehalem_data_source(&s) || caps_nehalem_data_source(&i));
	/* The OMR data source (Linux pnc_latency_data): Diamond Rapids
	 * (family 19, model 01H) and Nova Lake's P-core (family 18, models
	 * 01H and 03H, core type Core: nvl_latency_data), not its E-core
	 * (arw_latency_data), not a family 6 part with the same model. */
	struct pmu_caps d = r;
	d.family = 19, d.model = 0x01;
	assert_true(caps_panther_cove(&d));
	d.model = 0x02;
	assert_false(caps_panther_cove(&d));
	struct pmu_caps v = p;
	v.family = 18;
	for (u32 m = 0; m < 5; m++) {
		v.model = m;
		v.core_type = CPUID_1A_CORE_TYPE_CORE;
		assert_int_equal(caps_panther_cove(&v), m == 0x01 || m == 0x03);
		v.core_type = CPUID_1A_CORE_TYPE_ATOM;
		assert_false(caps_panther_cove(&v));
	}
	v.family = 6, v.model = 0x01, v.core_type = CPUID_1A_CORE_TYPE_CORE;
	assert_false(caps_panther_cove(&v) || caps_panther_cove(&r));
}

static void test_no_pmu(void **state)
{
	struct pmu_caps c = read_caps(&nopmu);
	assert_false(c.intel);
	assert_int_equal(c.version, 0);
	assert_false(caps_has_pmu(&c));
	assert_false(caps_has_pebs(&c));
	assert_true(c.hypervisor);
	/* No PDCM: IA32_PERF_CAPABILITIES must not even be read (it would
	 * fault here, and the fake backend has no MSRs at all). */
	assert_int_equal(c.perf_capabilities, 0);
}

/* SDM: from version 5, fixed counter i exists if ECX[i] or EDX[4:0] > i,
 * so a bitmap with a hole is honoured. */
static void test_v5_fixed_bitmap(void **state)
{
	struct pmu_caps c = { 0 };
	struct cpuid_regs r = { 0x08300805, 0, 0x9, 0x00008601 };
	caps_decode_leaf0a(&c, &r);
	assert_int_equal(c.fixed_mask, 0x9);
	assert_int_equal(c.num_fixed, 4);
	assert_true(caps_has_fixed(&c, 3));
	assert_false(caps_has_fixed(&c, 1));
}

/* CPUID.23H sub-leaf 1 lists the counters exactly and wins over 0AH. */
static void test_leaf23_counters(void **state)
{
	struct pmu_caps c = { 0 };
	struct cpuid_regs a = { 0x08300805, 0, 0, 0x00008604 };
	struct cpuid_regs b = { 0x000000F3, 0x00000007, 0, 0 };
	caps_decode_leaf0a(&c, &a);
	caps_decode_leaf23_counters(&c, &b);
	assert_int_equal(c.gp_mask, 0xF3);
	assert_int_equal(c.num_gp, 8);
	assert_false(caps_has_gp(&c, 2));
	assert_int_equal(c.fixed_mask, 0x7);
	assert_int_equal(c.num_fixed, 3);
}

/* CPUID.23H sub-leaves 4 and 5 (Linux update_pmu_cap): sub-leaf 4's EBX
 * bit n is CFG_C bit 32 + n; sub-leaf 5 gives PEBS (EAX GP, ECX fixed)
 * and PDist (EBX, EDX) counters in the status layout, counters outside
 * sub-leaf 1's left out. Architectural PEBS needs format 0xF too; DS
 * PEBS is then absent whatever CPUID.01H says. */
static void test_leaf23_arch_pebs(void **state)
{
	struct pmu_caps c = { .intel = true, .ds = true, .pdcm = true, .misc_enable_readable = true,
			      .misc_enable = 0x850089 };
	struct cpuid_regs a = { 0x08300806, 0, 0x77, 0x00008603 };
	struct cpuid_regs counters = { 0xFF, 0x77, 0, 0 };
	struct cpuid_regs groups = { 0, 0x60020000, 0, 0 };	/* AUX, GPR, XMM */
	struct cpuid_regs pebs = { 0x1FF, 0x3, 0xF7, 0x1 };	/* GP 8 is not there */
	caps_decode_leaf0a(&c, &a);
	caps_decode_leaf23_counters(&c, &counters);
	caps_decode_leaf23_pebs(&c, &groups, &pebs);
	assert_int_equal(c.arch_pebs_groups, ARCH_PEBS_AUX | ARCH_PEBS_GPR | ARCH_PEBS_VECR_XMM);
	assert_int_equal(c.arch_pebs_counters, 0xFF | 0x77ull << 32);
	assert_int_equal(c.arch_pebs_pdists, 0x3 | 0x1ull << 32);
	assert_true(caps_has_ds_pebs(&c));	/* format 0: DS-based */
	assert_false(caps_has_arch_pebs(&c));
	assert_non_null(strstr(caps_arch_pebs_missing(&c), "not 0xF"));
	caps_decode_perf_capabilities(&c, 0x3FFF);
	assert_int_equal(c.pebs_format, PERF_CAP_PEBS_FORMAT_ARCH);
	assert_true(caps_has_arch_pebs(&c));
	assert_false(caps_has_ds_pebs(&c));
	assert_true(caps_has_pebs(&c));
	assert_non_null(strstr(caps_ds_pebs_missing(&c), "Architectural PEBS"));
	c.arch_pebs_counters = 0;
	assert_false(caps_has_pebs(&c));
	assert_non_null(strstr(caps_pebs_missing(&c), "CPUID.23H.5"));
}

/* Version 1 has no fixed counters: EDX is reserved and must be ignored. */
static void test_v1_ignores_edx(void **state)
{
	struct pmu_caps c = { 0 };
	struct cpuid_regs r = { 0x04280201, 0, 0, 0x603 };
	caps_decode_leaf0a(&c, &r);
	assert_int_equal(c.version, 1);
	assert_int_equal(c.num_gp, 2);
	assert_int_equal(c.gp_width, 40);
	assert_int_equal(c.num_fixed, 0);
	assert_false(caps_has_global_ctrl(&c));
}

/* MISC_ENABLE bit 12 set: PEBS unavailable even though DS is present. */
static void test_pebs_unavailable(void **state)
{
	static const struct fake_msr msrs[] = {
		{ MSR_IA32_PERF_CAPABILITIES, 0x33C5 },
		{ MSR_IA32_MISC_ENABLE, 0x850089 | MISC_ENABLE_PEBS_UNAVAILABLE },
		FAKE_END_MSR,
	};
	const struct fake_cpu cpu = { .name = "skl-nopebs", .cpuid = skl_cpuid, .msrs = msrs };
	struct pmu_caps c = read_caps(&cpu);
	assert_true(c.ds);
	assert_false(caps_has_pebs(&c));
}

/* caps_apic_id: the 32-bit x2APIC ID of CPUID.0BH:EDX where the leaf is
 * valid (max leaf >= 0BH and EBX[15:0] != 0: SDM Vol. 2A, CPUID leaf 0BH),
 * else CPUID.01H:EBX[31:24], which holds only 8 bits: CPU 300 would read
 * as 44 there and take another CPU's PMIs. */
static const struct fake_cpuid x2apic_300_cpuid[] = {
	INTEL_VENDOR(0x1F),
	{ 0x1, 0, { 0x000806F8, 0x2C100800, 0x7FFEFBFF, 0xBFEBFBFF } },	/* EBX[31:24] = 44 */
	{ 0xB, 0, { 0x1, 0x1, 0x100, 300 } },
	FAKE_END_CPUID,
};
static const struct fake_cpuid leaf0b_invalid_cpuid[] = {
	INTEL_VENDOR(0x1F),
	{ 0x1, 0, { 0x000806F8, 0x2C100800, 0x7FFEFBFF, 0xBFEBFBFF } },
	{ 0xB, 0, { 0, 0, 0, 300 } },	/* EBX[15:0] = 0: not valid */
	FAKE_END_CPUID,
};
static const struct fake_msr no_msrs[] = { FAKE_END_MSR };

static void test_apic_id_beyond_255(void **state)
{
	(void)state;
	static const struct fake_cpu x2 = { .name = "x2apic-300", .cpuid = x2apic_300_cpuid, .msrs = no_msrs };
	static const struct fake_cpu inv = { .name = "leaf0b-invalid", .cpuid = leaf0b_invalid_cpuid, .msrs = no_msrs };
	static const struct fake_cpu old = { .name = "skl", .cpuid = skl_cpuid, .msrs = no_msrs };
	fake_hw_select(&x2);
	assert_int_equal(caps_apic_id(), 300);
	fake_hw_select(&inv);
	assert_int_equal(caps_apic_id(), 44);
	fake_hw_select(&old);		/* max leaf 0x16 but no leaf 0BH listed: reads 0 */
	assert_int_equal(caps_apic_id(), 0x00100800u >> 24);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skylake),
		cmocka_unit_test(test_skylake_caches),
		cmocka_unit_test(test_icelake_server),
		cmocka_unit_test(test_sapphire_rapids),
		cmocka_unit_test(test_alder_lake_core_types),
		cmocka_unit_test(test_record_semantics_per_part),
		cmocka_unit_test(test_no_pmu),
		cmocka_unit_test(test_v5_fixed_bitmap),
		cmocka_unit_test(test_leaf23_counters),
		cmocka_unit_test(test_leaf23_arch_pebs),
		cmocka_unit_test(test_v1_ignores_edx),
		cmocka_unit_test(test_pebs_unavailable),
		cmocka_unit_test(test_apic_id_beyond_255),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
