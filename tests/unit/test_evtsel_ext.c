/* The perfmon v6 PERFEVTSEL extension: UMASK2 (IA32_PERFEVTSELx[47:40])
 * and EQ (bit 36), offered by CPUID.23H.0:EBX[0] and [1] (Linux:
 * ARCH_PERFMON_EXT_UMASK2/EQ in intel_pmu_init, which adds them to
 * x86_pmu.config_mask; "Support PERFEVTSEL extension", 6.11). An event of
 * Intel's tables with UMaskExt must count as its definition says: the
 * programmed select carries it, and a CPU without the extension refuses
 * it instead of programming another event. */
#include "test.h"
#include "fake_hw.h"
#include "arch/caps.h"
#include "events/events.h"
#include "events/evparse.h"
#include "pmu/pmu.h"
#include "pmu/arch.h"

#define INTEL_VENDOR(max) { 0x0, 0, { (max), 0x756e6547, 0x6c65746e, 0x49656e69 } }

/* A Lunar Lake P-core (06_BDH) stand-in: perfmon v6 in CPUID.0AH,
 * CPUID.07H.1:EAX[8] (ArchPerfmonExt) and CPUID.23H with the counter
 * bitmaps (sub-leaf 1) and the PERFEVTSEL extension (sub-leaf 0 EBX =
 * UMASK2 | EQ). Not a dump of the part; its counters are reached through
 * perfmon v6's block from 1900H (the legacy aliases are left out, so a
 * legacy access fails the test). */
static const struct fake_cpuid lnl_cpuid[] = {
	INTEL_VENDOR(0x23),
	{ 0x1, 0, { 0x000B06D1, 0x00800800, 0x7FFAFBFF, 0xBFCBFBFF } },	/* no DS: no PEBS here */
	{ 0x7, 0, { 0x00000001, 0, 0, 0 } },
	{ 0x7, 1, { CPUID_07_1_EAX_ARCH_PERFMON_EXT, 0, 0, 0 } },
	{ 0xA, 0, { 0x08300806, 0x00000000, 0x0000000F, 0x00008604 } },
	{ 0x23, 0, { 0x00000003, CPUID_23_EBX_UMASK2 | CPUID_23_EBX_EQ, 0, 0 } },
	{ 0x23, 1, { 0x000000FF, 0x0000000F, 0, 0 } },
	FAKE_END_CPUID,
};
#define GP_MSRS(n) { MSR_IA32_PMC_GP0_CFG_A + MSR_IA32_PMC_V6_STEP * (n), 0 }, \
		   { MSR_IA32_PMC_GP0_CTR + MSR_IA32_PMC_V6_STEP * (n), 0 }
#define FX_MSR(n) { MSR_IA32_PMC_FX0_CTR + MSR_IA32_PMC_V6_STEP * (n), 0 }
static const struct fake_msr lnl_msrs[] = {
	GP_MSRS(0), GP_MSRS(1), GP_MSRS(2), GP_MSRS(3),
	GP_MSRS(4), GP_MSRS(5), GP_MSRS(6), GP_MSRS(7),
	FX_MSR(0), FX_MSR(1), FX_MSR(2), FX_MSR(3),
	{ MSR_IA32_FIXED_CTR_CTRL, 0 }, { MSR_IA32_PERF_GLOBAL_CTRL, 0 },
	{ MSR_IA32_PERF_GLOBAL_STATUS, 0 }, { MSR_IA32_PERF_GLOBAL_STATUS_RESET, 0 },
	{ MSR_IA32_PERF_GLOBAL_STATUS_SET, 0 }, { MSR_IA32_MISC_ENABLE, 0x850089 },
	{ MSR_IA32_DEBUGCTL, 0 }, { MSR_OFFCORE_RSP_0, 0 }, { MSR_OFFCORE_RSP_1, 0 },
	FAKE_END_MSR,
};
/* The same CPU without the extension (CPUID.23H.0:EBX = 0). */
static const struct fake_cpuid lnl_noext_cpuid[] = {
	INTEL_VENDOR(0x23),
	{ 0x1, 0, { 0x000B06D1, 0x00800800, 0x7FFAFBFF, 0xBFCBFBFF } },	/* no DS: no PEBS here */
	{ 0x7, 0, { 0x00000001, 0, 0, 0 } },
	{ 0x7, 1, { CPUID_07_1_EAX_ARCH_PERFMON_EXT, 0, 0, 0 } },
	{ 0xA, 0, { 0x08300806, 0x00000000, 0x0000000F, 0x00008604 } },
	{ 0x23, 0, { 0x00000003, 0, 0, 0 } },
	{ 0x23, 1, { 0x000000FF, 0x0000000F, 0, 0 } },
	FAKE_END_CPUID,
};

static const struct fake_cpu lnl = { .name = "lnl", .cpuid = lnl_cpuid, .msrs = lnl_msrs,
				     .writable = true };
static const struct fake_cpu lnl_noext = { .name = "lnl-noext", .cpuid = lnl_noext_cpuid,
					   .msrs = lnl_msrs, .writable = true };

static struct pmu_caps caps;
static char err[512];

static void read_caps(const struct fake_cpu *cpu)
{
	fake_hw_select(cpu);
	pmu_caps_read(&caps);
}

static void test_leaf23_extension_decoded(void **state)
{
	(void)state;
	read_caps(&lnl);
	assert_true(caps.umask2);
	assert_true(caps.evtsel_eq);
	assert_int_equal(caps.num_gp, 8);
	read_caps(&lnl_noext);
	assert_false(caps.umask2);
	assert_false(caps.evtsel_eq);
}

/* Lunar Lake's BR_INST_RETIRED.COND_TAKEN is event 0xC4, umask 0x01,
 * UMaskExt 0x01 (lunarlake_lioncove_core.json): without UMASK2 it would
 * count BR_INST_RETIRED.COND_TAKEN_BWD (0xC4/0x01) instead. perf's format
 * keeps umask2 at config:40-47 and eq at config:36. */
static void test_umask2_event_is_programmed(void **state)
{
	(void)state;
	read_caps(&lnl);
	const struct event_table *t = event_table_by_name("lnl");
	assert_non_null(t);
	struct pmu_event ev;
	assert_int_equal(evparse_event("br_inst_retired.cond_taken", t, &caps, &ev, err,
				       sizeof(err)), 0);
	assert_int_equal(ev.event, 0xC4);
	assert_int_equal(ev.umask, 0x01);
	assert_int_equal(ev.umask_ext, 0x01);

	static struct pmu p;
	assert_int_equal(pmu_open(&p, &caps, false, err, sizeof(err)), 0);
	int id = pmu_add(&p, &ev, 0, err, sizeof(err));
	assert_true(id >= 0);
	pmu_enable(&p);
	unsigned i = counter_index(pmu_counter_of(&p, id));
	assert_int_equal(caps_gp_eventsel_msr(&caps, i), msr_v6_gp_cfg_a(i));
	u64 sel = hw_rdmsr(caps_gp_eventsel_msr(&caps, i));
	assert_int_equal(FIELD(sel, 47, 40), 0x01);
	assert_int_equal(sel & EVTSEL_EVENT_MASK, 0xC4);
	assert_int_equal(FIELD(sel, 15, 8), 0x01);
	assert_false(sel & EVTSEL_EQ);
	u64 config1;
	assert_int_equal(pmu_arch_of(&p)->perf_config(&ev, &config1), 0x1ULL << 40 | 0x1C4);
	pmu_close(&p);
	assert_int_equal(hw_rdmsr(caps_gp_eventsel_msr(&caps, i)), 0);
}

/* The terms as Linux's format names them (umask2=, eq). */
static void test_umask2_and_eq_terms(void **state)
{
	(void)state;
	read_caps(&lnl);
	const struct event_table *t = event_table_by_name("lnl");
	struct pmu_event ev;
	assert_int_equal(evparse_event("cpu/event=0xc4,umask=0x1,umask2=0x2,eq,cmask=2/", t,
				       &caps, &ev, err, sizeof(err)), 0);
	assert_int_equal(ev.umask_ext, 0x02);
	assert_true(ev.eq);
	u64 config1;
	assert_int_equal(pmu_arch_for(&caps)->perf_config(&ev, &config1),
			 0x2ULL << 40 | EVTSEL_EQ | 0x2000000ULL | 0x1C4);
	assert_int_equal(evparse_event("cpu/event=0xc4,umask2=0x100/", t, &caps, &ev, err,
				       sizeof(err)), -1);
	assert_non_null(strstr(err, "out of range"));
}

/* Without the extension the bits are reserved (a write #GPs): the event
 * is refused with the reason, never programmed as another event. */
static void test_refused_without_extension(void **state)
{
	(void)state;
	read_caps(&lnl_noext);
	const struct event_table *t = event_table_by_name("lnl");
	struct pmu_event ev;
	assert_int_equal(evparse_event("br_inst_retired.cond_taken", t, &caps, &ev, err,
				       sizeof(err)), -1);
	assert_non_null(strstr(err, "UMASK2=0x1"));
	assert_non_null(strstr(err, "CPUID.23H.0:EBX[0] = 0"));
	assert_int_equal(evparse_event("cpu/event=0xc4,eq,cmask=1/", t, &caps, &ev, err,
				       sizeof(err)), -1);
	assert_non_null(strstr(err, "CPUID.23H.0:EBX[1] = 0"));
	/* an event without UMaskExt is fine */
	assert_int_equal(evparse_event("br_inst_retired.cond_ntaken", t, &caps, &ev, err,
				       sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leaf23_extension_decoded),
		cmocka_unit_test(test_umask2_event_is_programmed),
		cmocka_unit_test(test_umask2_and_eq_terms),
		cmocka_unit_test(test_refused_without_extension),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
