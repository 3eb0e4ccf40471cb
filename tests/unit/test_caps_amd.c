/* AMD: CPUID decoding (AMD64 APM Vol. 2, "Performance Monitoring
 * Counters"; CPUID 80000001H, 80000022H, 8000001BH), the counter MSRs it
 * implies, the probe that tells a PMU from a hypervisor's empty promise
 * (Linux arch/x86/events/core.c, check_hw_exists), and pmu/amd.c's
 * protocol on PerfMonV2 and on the per-counter enable of earlier parts.
 * Leaf 1 values are those of the named parts; the PMU leaves follow the
 * APM's field definitions for them. */
#include "test.h"
#include "fake_hw.h"
#include "arch/caps.h"
#include "pmu/pmu.h"
#include "pmu/arch.h"
#include "cmd/cli.h"
#include "cmd/model.h"
#include "events/events.h"

#define AMD_VENDOR(max) { 0x0, 0, { (max), 0x68747541, 0x444D4163, 0x69746E65 } }

/* EPYC 9654 (Zen 4, family 19h model 11h): PerfCtrExtCore, IBS,
 * PerfMonV2 with 6 core counters, LbrExtV2 with 16 entries. */
static const struct fake_cpuid zen4_cpuid[] = {
	AMD_VENDOR(0x10),
	{ 0x1, 0, { 0x00A10F11, 0x00800800, 0x7EF8320B, 0x178BFBFF } },
	{ 0x80000000, 0, { 0x80000028, 0, 0, 0 } },
	{ 0x80000001, 0, { 0x00A10F11, 0, 0x75C237FF, 0x2FD3FBFF } },
	{ 0x8000001B, 0, { 0x00000BFF, 0, 0, 0 } },
	{ 0x80000022, 0, { 0x00000007, 0x00004106, 0, 0 } },
	FAKE_END_CPUID,
};
#define AMD_EXT_MSRS(n) \
	{ MSR_AMD_PERF_CTL0 + 2 * (n), 0 }, { MSR_AMD_PERF_CTR0 + 2 * (n), 0 }
static const struct fake_msr zen4_msrs[] = {
	AMD_EXT_MSRS(0), AMD_EXT_MSRS(1), AMD_EXT_MSRS(2),
	AMD_EXT_MSRS(3), AMD_EXT_MSRS(4), AMD_EXT_MSRS(5),
	{ MSR_AMD_PERF_CNTR_GLOBAL_STATUS, 0 }, { MSR_AMD_PERF_CNTR_GLOBAL_CTL, 0x3F },
	{ MSR_AMD_PERF_CNTR_GLOBAL_STATUS_CLR, 0 }, { MSR_AMD_PERF_CNTR_GLOBAL_STATUS_SET, 0 },
	FAKE_END_MSR,
};

/* EPYC 7742 (Zen 2, family 17h model 31h): PerfCtrExtCore, no
 * PerfMonV2 (leaf 80000022H is beyond its highest extended leaf). The
 * firmware left counter 5 counting retired instructions. */
static const struct fake_cpuid zen2_cpuid[] = {
	AMD_VENDOR(0x10),
	{ 0x1, 0, { 0x00830F10, 0x00800800, 0x7ED8320B, 0x178BFBFF } },
	{ 0x80000000, 0, { 0x80000020, 0, 0, 0 } },
	{ 0x80000001, 0, { 0x00830F10, 0, 0x75C237FF, 0x2FD3FBFF } },
	{ 0x8000001B, 0, { 0x000003FF, 0, 0, 0 } },
	FAKE_END_CPUID,
};
#define ZEN2_FW_SEL5 (0xC0 | EVTSEL_OS | EVTSEL_USR | EVTSEL_EN)
static const struct fake_msr zen2_msrs[] = {
	AMD_EXT_MSRS(0), AMD_EXT_MSRS(1), AMD_EXT_MSRS(2), AMD_EXT_MSRS(3), AMD_EXT_MSRS(4),
	{ MSR_AMD_PERF_CTL0 + 10, ZEN2_FW_SEL5 }, { MSR_AMD_PERF_CTR0 + 10, 12345 },
	FAKE_END_MSR,
};

/* Phenom II X4 (family 10h): no PerfCtrExtCore, the four K7 counters. */
static const struct fake_cpuid k10_cpuid[] = {
	AMD_VENDOR(0x5),
	{ 0x1, 0, { 0x00100F42, 0x00040800, 0x00802009, 0x178BFBFF } },
	{ 0x80000000, 0, { 0x8000001B, 0, 0, 0 } },
	{ 0x80000001, 0, { 0x00100F42, 0, 0x000037FF, 0xEFD3FBFF } },
	{ 0x8000001B, 0, { 0x0000001F, 0, 0, 0 } },
	FAKE_END_CPUID,
};
static const struct fake_msr k10_msrs[] = {
	{ MSR_K7_EVNTSEL0, 0 }, { MSR_K7_EVNTSEL0 + 1, 0 }, { MSR_K7_EVNTSEL0 + 2, 0 },
	{ MSR_K7_EVNTSEL0 + 3, 0 }, { MSR_K7_PERFCTR0, 0 }, { MSR_K7_PERFCTR0 + 1, 0 },
	{ MSR_K7_PERFCTR0 + 2, 0 }, { MSR_K7_PERFCTR0 + 3, 0 },
	FAKE_END_MSR,
};

/* QEMU's qemu64 CPU under TCG: AuthenticAMD, the legacy counters
 * promised, reads of them 0 and writes dropped. */
static const struct fake_cpuid qemu64_cpuid[] = {
	AMD_VENDOR(0xD),
	{ 0x1, 0, { 0x00060FB1, 0x00000800, 0x80202001, 0x078BFBFD } },
	{ 0x80000000, 0, { 0x8000000A, 0, 0, 0 } },
	{ 0x80000001, 0, { 0x00060FB1, 0, 0x00000001, 0x2191ABFD } },
	FAKE_END_CPUID,
};

static const struct fake_cpu zen4 = { .name = "zen4", .cpuid = zen4_cpuid, .msrs = zen4_msrs, .writable = true,
				      .rdpmc_gp_base = MSR_AMD_PERF_CTR0, .rdpmc_gp_stride = 2 };
static const struct fake_cpu zen2 = { .name = "zen2", .cpuid = zen2_cpuid, .msrs = zen2_msrs, .writable = true,
				      .rdpmc_gp_base = MSR_AMD_PERF_CTR0, .rdpmc_gp_stride = 2 };
static const struct fake_cpu k10 = { .name = "k10", .cpuid = k10_cpuid, .msrs = k10_msrs, .writable = true,
				     .rdpmc_gp_base = MSR_K7_PERFCTR0, .rdpmc_gp_stride = 1 };
static const struct fake_cpu k10_faulting = { .name = "k10-nomsr", .cpuid = k10_cpuid };
static const struct fake_cpu qemu64 = { .name = "qemu64", .cpuid = qemu64_cpuid, .msrs = k10_msrs, .drops_writes = true };

static struct pmu_caps read_caps(const struct fake_cpu *cpu)
{
	struct pmu_caps c;
	fake_hw_select(cpu);
	pmu_caps_read(&c);
	return c;
}

static void test_zen4_perfmon_v2(void **state)
{
	(void)state;
	struct pmu_caps c = read_caps(&zen4);
	assert_true(c.amd);
	assert_false(c.intel);
	assert_int_equal(c.family, 0x19);
	assert_int_equal(c.model, 0x11);
	assert_true(c.perfctr_core && c.perfmon_v2 && c.lbr_ext_v2 && c.lbr_pmc_freeze);
	assert_int_equal(c.num_gp, 6);
	assert_int_equal(c.gp_mask, 0x3F);
	assert_int_equal(c.gp_width, 48);
	assert_int_equal(c.num_fixed, 0);
	assert_int_equal(c.amd_lbr_depth, 16);
	assert_int_equal(c.amd_nb_counters, 16);
	assert_true(c.ibs);
	assert_true(c.ibs_caps & IBS_CAPS_ZEN4);
	assert_true(caps_has_pmu(&c) && caps_has_global_ctrl(&c) && caps_has_status_set(&c));
	/* PERF_CTLn at C001_0200H + 2n, PERF_CTRn after it */
	assert_int_equal(caps_gp_eventsel_msr(&c, 5), 0xC001020Au);
	assert_int_equal(caps_gp_counter_msr(&c, 5), 0xC001020Bu);
	assert_int_equal(caps_gp_counter_write_msr(&c, 2), 0xC0010205u);
	assert_int_equal(c.msr_global_ctrl, MSR_AMD_PERF_CNTR_GLOBAL_CTL);
	assert_int_equal(c.msr_global_status_reset, MSR_AMD_PERF_CNTR_GLOBAL_STATUS_CLR);
	assert_false(caps_has_pebs(&c));
	assert_string_equal(pmu_arch_for(&c)->name, "amd");
}

static void test_zen2_and_k10(void **state)
{
	(void)state;
	struct pmu_caps c = read_caps(&zen2);
	assert_int_equal(c.family, 0x17);
	assert_int_equal(c.model, 0x31);
	assert_true(c.perfctr_core);
	assert_false(c.perfmon_v2);
	assert_int_equal(c.num_gp, 6);
	assert_false(caps_has_global_ctrl(&c));
	assert_false(c.counters_unusable);

	c = read_caps(&k10);
	assert_int_equal(c.family, 0x10);
	assert_false(c.perfctr_core);
	assert_int_equal(c.num_gp, 4);
	assert_int_equal(caps_gp_eventsel_msr(&c, 3), MSR_K7_EVNTSEL0 + 3);
	assert_int_equal(caps_gp_counter_msr(&c, 3), MSR_K7_PERFCTR0 + 3);
	assert_int_equal(c.ibs_caps, 0x1F);
	assert_true(caps_has_pmu(&c));
}

/* A hypervisor without a PMU: counters that fault, or drop what is
 * written, are no PMU (Linux: "Broken PMU hardware detected"), and
 * opening says so. */
static void test_counters_that_do_not_work(void **state)
{
	(void)state;
	const struct fake_cpu *cpus[] = { &qemu64, &k10_faulting };
	for (size_t i = 0; i < ARRAY_SIZE(cpus); i++) {
		struct pmu_caps c = read_caps(cpus[i]);
		assert_true(c.amd);
		assert_true(c.counters_unusable);
		assert_false(caps_has_pmu(&c));
		static struct pmu p;
		char err[256];
		assert_int_equal(pmu_open(&p, &c, false, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "do not work"));
	}
}

static struct pmu_event amd_event(u16 code, u8 umask)
{
	struct pmu_event e = { .event = code, .umask = umask, .gp_allowed = 0x3F, .group = -1 };
	return e;
}

/* PerfMonV2: PERF_CTL carries En and the 12-bit event (7:0 and 35:32);
 * PerfCntrGlobalCtl is the enable; close puts back the firmware's 0x3F. */
static void test_zen4_protocol(void **state)
{
	(void)state;
	struct pmu_caps c = read_caps(&zen4);
	static struct pmu p;
	char err[256];
	assert_int_equal(pmu_open(&p, &c, false, err, sizeof(err)), 0);
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_CTL), 0);
	struct pmu_event e = amd_event(0x1C0, 0x01);	/* a 12-bit event code */
	int id = pmu_add(&p, &e, 0, err, sizeof(err));
	assert_true(id >= 0);
	pmu_enable(&p);
	unsigned i = counter_index(pmu_counter_of(&p, id));
	u64 sel = hw_rdmsr(caps_gp_eventsel_msr(&c, i));
	assert_int_equal(sel & 0xFF, 0xC0);
	assert_int_equal(FIELD(sel, 35, 32), 0x1);
	assert_int_equal(FIELD(sel, 15, 8), 0x01);
	assert_true(sel & EVTSEL_EN);
	assert_true(sel & EVTSEL_OS);
	assert_false(sel & (AMD_EVTSEL_HOST_ONLY | AMD_EVTSEL_GUEST_ONLY));
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_CTL), global_gp_bit(i));
	assert_false(pmu_check_started(&p).held);
	u64 config1;
	assert_int_equal(pmu_arch_of(&p)->perf_config(&e, &config1), 0x1000001C0ULL);
	pmu_close(&p);
	assert_int_equal(hw_rdmsr(MSR_AMD_PERF_CNTR_GLOBAL_CTL), 0x3F);
	assert_int_equal(hw_rdmsr(caps_gp_eventsel_msr(&c, i)), 0);
}

/* Without PerfMonV2 each PERF_CTL's En is the enable: pmu_disable clears
 * it, pmu_enable sets it, and the firmware's running counter 5 is
 * stopped while bareperf holds the PMU (--force) and put back counting. */
static void test_zen2_per_counter_enable(void **state)
{
	(void)state;
	struct pmu_caps c = read_caps(&zen2);
	static struct pmu p;
	char err[256];
	assert_int_equal(pmu_open(&p, &c, false, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "already running"));
	assert_int_equal(pmu_open(&p, &c, true, err, sizeof(err)), 0);
	u32 fw_sel = caps_gp_eventsel_msr(&c, 5);
	assert_false(hw_rdmsr(fw_sel) & EVTSEL_EN);
	struct pmu_event e = amd_event(0xC0, 0);
	int id = pmu_add(&p, &e, 1000, err, sizeof(err));
	assert_true(id >= 0);
	pmu_enable(&p);
	u32 sel = caps_gp_eventsel_msr(&c, counter_index(pmu_counter_of(&p, id)));
	assert_true(hw_rdmsr(sel) & EVTSEL_EN);
	assert_true(hw_rdmsr(sel) & EVTSEL_INT);
	assert_false(pmu_check_started(&p).held);
	/* preset to -1000 within 48 bits: no overflow by the sign yet */
	assert_int_equal(pmu_status(&p), 0);
	pmu_disable(&p);
	assert_false(hw_rdmsr(sel) & EVTSEL_EN);
	pmu_enable(&p);
	assert_true(hw_rdmsr(sel) & EVTSEL_EN);
	pmu_close(&p);
	assert_int_equal(hw_rdmsr(fw_sel), ZEN2_FW_SEL5);
	assert_int_equal(hw_rdmsr(caps_gp_counter_msr(&c, 5)), 12345);
	assert_false(hw_rdmsr(sel) & EVTSEL_EN);
}

/* `list` and every command without --cpu take this CPU's Zen table, the
 * one perf's mapfile gives its family and model (EPYC 9654: 19h/11h, zen4;
 * EPYC 7742: 17h/31h, zen2); a pre-Zen part has none. */
static void test_this_cpus_event_table(void **state)
{
	struct cmd_model m;

	fake_hw_select(&zen4);
	assert_int_equal(cmd_model_resolve("list", NULL, true, &m), EXIT_OK);
	assert_non_null(m.t);
	assert_string_equal(m.t->name, "zen4");
	fake_hw_select(&zen2);
	assert_int_equal(cmd_model_resolve("list", NULL, true, &m), EXIT_OK);
	assert_string_equal(m.t->name, "zen2");
	struct pmu_caps c = read_caps(&k10);
	assert_null(event_table_for_caps(&c));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zen4_perfmon_v2),
		cmocka_unit_test(test_zen2_and_k10),
		cmocka_unit_test(test_counters_that_do_not_work),
		cmocka_unit_test(test_zen4_protocol),
		cmocka_unit_test(test_zen2_per_counter_enable),
		cmocka_unit_test(test_this_cpus_event_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
