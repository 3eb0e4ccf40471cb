/* pebs/ds and pebs/threshold: DS area layout and bounds, reset slots,
 * IA32_DS_AREA through the seam, and the large-PEBS threshold policy. */
#include "test.h"
#include "pebs/ds.h"
#include "pebs/threshold.h"
#include "arch/hw.h"
#include "events/event.h"

/* ---- a two-MSR fake behind the hardware seam ---- */
static u64 fake_ds_area;
static bool fake_ds_faults;
static void fake_cpuid(u32 l, u32 s, struct cpuid_regs *r) { memset(r, 0, sizeof(*r)); }
static int fake_rdmsr(u32 msr, u64 *v, struct hw_fault *f)
{
	if (msr != MSR_IA32_DS_AREA || fake_ds_faults) {
		snprintf(f->rule, sizeof(f->rule), "fake: no MSR 0x%x", msr);
		return 1;
	}
	*v = fake_ds_area;
	return 0;
}
static int fake_wrmsr(u32 msr, u64 v, struct hw_fault *f)
{
	if (msr != MSR_IA32_DS_AREA || fake_ds_faults) {
		snprintf(f->rule, sizeof(f->rule), "fake: no MSR 0x%x", msr);
		return 1;
	}
	fake_ds_area = v;
	return 0;
}
static u32 fake_mmio_read(u64 a) { return 0; }
static void fake_mmio_write(u64 a, u32 v) {}
static const struct hw_ops fake_ops = {
	.name = "fake-ds", .emulated = true, .cpuid = fake_cpuid, .rdmsr = fake_rdmsr,
	.wrmsr = fake_wrmsr, .mmio_read32 = fake_mmio_read, .mmio_write32 = fake_mmio_write,
};

static struct pebs_layout layout(u8 fmt, u64 cfg)
{
	struct pebs_layout l;
	assert_true(pebs_layout_init(&l, fmt, cfg, NULL, 0));
	return l;
}

/* 64-bit DS save area layout (SDM Vol. 3B 18.4.9.2, "DS Save Area"). */
static void test_ds_area_layout(void **state)
{
	assert_int_equal(offsetof(struct ds_area, pebs_buffer_base), 0x20);
	assert_int_equal(offsetof(struct ds_area, pebs_index), 0x28);
	assert_int_equal(offsetof(struct ds_area, pebs_absolute_maximum), 0x30);
	assert_int_equal(offsetof(struct ds_area, pebs_interrupt_threshold), 0x38);
	assert_int_equal(offsetof(struct ds_area, pebs_counter_reset), 0x40);
	assert_int_equal(offsetof(struct ds_area, pebs_counter_reset[32]), 0x40 + 32 * 8);
}

/* Default 256 KiB (fmt0: one page), absolute max a whole number of
 * records, the area and buffer page aligned, threshold one record. */
static void test_ds_default_bounds(void **state)
{
	struct pebs_ds ds;
	char err[160];
	struct pebs_layout l3 = layout(3, 0);
	assert_true(pebs_ds_init(&ds, &l3, 0, err, sizeof(err)));
	assert_int_equal((uintptr_t)ds.area % 4096, 0);
	assert_int_equal((uintptr_t)ds.buffer % 4096, 0);
	assert_int_equal(ds.buffer_pages, 64);
	assert_int_equal(ds.max_records, 262144 / 200);		/* 1310 */
	assert_int_equal(ds.area->pebs_buffer_base, (uintptr_t)ds.buffer);
	assert_int_equal(ds.area->pebs_index, ds.area->pebs_buffer_base);
	assert_int_equal(ds.area->pebs_absolute_maximum - ds.area->pebs_buffer_base, 1310 * 200);
	assert_int_equal(ds.area->pebs_interrupt_threshold, ds.base + 200);
	pebs_ds_free(&ds);

	struct pebs_layout l0 = layout(0, 0);
	assert_true(pebs_ds_init(&ds, &l0, 0, err, sizeof(err)));
	assert_int_equal(ds.buffer_pages, 1);
	assert_int_equal(ds.max_records, 4096 / 144);		/* 28 */
	assert_int_equal(ds.abs_max - ds.base, 28 * 144);
	pebs_ds_free(&ds);

	struct pebs_layout l5 = layout(5, PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP);
	assert_true(pebs_ds_init(&ds, &l5, 0, err, sizeof(err)));
	assert_int_equal(ds.max_records, 262144 / 208);
	pebs_ds_free(&ds);
}

static void test_ds_sizes_checked(void **state)
{
	struct pebs_ds ds;
	char err[200];
	struct pebs_layout l1 = layout(1, 0);
	assert_false(pebs_ds_init(&ds, &l1, 100, err, sizeof(err)));
	assert_non_null(strstr(err, "100 bytes"));
	assert_non_null(strstr(err, "176-byte"));
	assert_false(pebs_ds_init(&ds, &l1, 128u << 20, err, sizeof(err)));
	assert_non_null(strstr(err, "out of range"));
	/* a size that is not a page multiple is rounded up to whole pages */
	assert_true(pebs_ds_init(&ds, &l1, 100000, err, sizeof(err)));
	assert_int_equal(ds.buffer_pages, 25);
	assert_int_equal(ds.max_records, 102400 / 176);
	pebs_ds_free(&ds);
}

static void test_ds_threshold_and_layout(void **state)
{
	struct pebs_ds ds;
	struct pebs_layout l4 = layout(4, 0);
	assert_true(pebs_ds_init(&ds, &l4, 8192, NULL, 0));
	assert_int_equal(ds.max_records, 256);
	pebs_ds_set_threshold(&ds, 0);
	assert_int_equal(ds.threshold_records, 1);
	pebs_ds_set_threshold(&ds, 100);
	assert_int_equal(ds.area->pebs_interrupt_threshold, ds.base + 100 * 32);
	pebs_ds_set_threshold(&ds, 1000000);
	assert_int_equal(ds.area->pebs_interrupt_threshold, ds.abs_max);
	/* a new PEBS_DATA_CFG changes the record size: new bounds */
	ds.area->pebs_index = ds.base + 64;
	struct pebs_layout big = layout(4, PEBS_DATACFG_GP | PEBS_DATACFG_XMMS);	/* 432 B */
	assert_true(pebs_ds_set_layout(&ds, &big));
	assert_int_equal(ds.max_records, 8192 / 432);
	assert_int_equal(ds.abs_max - ds.base, (8192 / 432) * 432);
	assert_int_equal(ds.area->pebs_index, ds.base);
	/* the largest adaptive record (all groups, 32 LBRs) fits one page */
	struct pebs_ds small;
	assert_true(pebs_ds_init(&small, &l4, 200, NULL, 0));	/* one page */
	struct pebs_layout huge = layout(4, PEBS_DATACFG_LBRS | (31ULL << 24) | PEBS_DATACFG_XMMS |
					    PEBS_DATACFG_GP | PEBS_DATACFG_MEMINFO);
	assert_true(huge.record_size < 4096);
	assert_true(pebs_ds_set_layout(&small, &huge));
	assert_int_equal(small.max_records, 4096 / huge.record_size);
	pebs_ds_free(&small);
	pebs_ds_free(&ds);
}

/* Reset slots: GP i at i; fixed i at 8+i below format 5, 32+i from 5. */
static void test_reset_slots(void **state)
{
	assert_int_equal(pebs_ds_reset_slot(3, counter_gp(0)), 0);
	assert_int_equal(pebs_ds_reset_slot(3, counter_gp(7)), 7);
	assert_int_equal(pebs_ds_reset_slot(3, counter_gp(8)), -1);
	assert_int_equal(pebs_ds_reset_slot(4, counter_fixed(0)), 8);
	assert_int_equal(pebs_ds_reset_slot(4, counter_fixed(3)), 11);
	assert_int_equal(pebs_ds_reset_slot(5, counter_gp(8)), 8);
	assert_int_equal(pebs_ds_reset_slot(5, counter_gp(31)), 31);
	assert_int_equal(pebs_ds_reset_slot(5, counter_fixed(0)), 32);
	assert_int_equal(pebs_ds_reset_slot(5, counter_fixed(2)), 34);
	assert_int_equal(pebs_ds_reset_slot(5, counter_fixed(16)), -1);
	assert_int_equal(pebs_ds_reset_slot(5, -1), -1);
}

/* Auto-reload: the reset value is -period within the counter width. */
static void test_reset_values(void **state)
{
	struct pebs_ds ds;
	struct pebs_layout l5 = layout(5, 0);
	assert_true(pebs_ds_init(&ds, &l5, 4096, NULL, 0));
	assert_true(pebs_ds_set_period(&ds, counter_gp(1), 10000, 48));
	assert_int_equal(ds.area->pebs_counter_reset[1], (1ULL << 48) - 10000);
	assert_true(pebs_ds_set_period(&ds, counter_fixed(1), 2000003, 48));
	assert_int_equal(ds.area->pebs_counter_reset[33], (1ULL << 48) - 2000003);
	assert_false(pebs_ds_set_period(&ds, counter_gp(0), 0, 48));
	assert_false(pebs_ds_set_period(&ds, counter_gp(0), 1ULL << 47, 48));	/* does not fit */
	assert_true(pebs_ds_set_period(&ds, counter_gp(0), (1ULL << 47) - 1, 48));
	assert_false(pebs_ds_set_period(&ds, counter_fixed(20), 100, 48));
	pebs_ds_free(&ds);
}

static void test_ds_program_restore(void **state)
{
	struct pebs_ds ds;
	char err[160];
	struct pebs_layout l3 = layout(3, 0);
	const struct hw_ops *old = hw_current();
	hw_select(&fake_ops);
	fake_ds_area = 0xabc000;
	fake_ds_faults = false;
	assert_true(pebs_ds_init(&ds, &l3, 0, err, sizeof(err)));
	assert_true(pebs_ds_program(&ds, err, sizeof(err)));
	assert_int_equal(fake_ds_area, (uintptr_t)ds.area);
	pebs_ds_restore(&ds);
	assert_int_equal(fake_ds_area, 0xabc000);		/* left as found */
	pebs_ds_restore(&ds);					/* idempotent */
	assert_int_equal(fake_ds_area, 0xabc000);
	fake_ds_faults = true;
	assert_false(pebs_ds_program(&ds, err, sizeof(err)));
	assert_non_null(strstr(err, "IA32_DS_AREA"));
	assert_false(ds.programmed);
	pebs_ds_free(&ds);
	hw_select(old);
}

/* ---- threshold policy ---- */

static void test_threshold_parse(void **state)
{
	struct pebs_threshold_opt o;
	char err[160];
	assert_true(pebs_threshold_parse("1", &o, err, sizeof(err)));
	assert_int_equal(o.mode, PEBS_THRESHOLD_ONE);
	assert_true(pebs_threshold_parse("64", &o, err, sizeof(err)));
	assert_int_equal(o.mode, PEBS_THRESHOLD_N);
	assert_int_equal(o.records, 64);
	assert_true(pebs_threshold_parse("max", &o, err, sizeof(err)));
	assert_int_equal(o.mode, PEBS_THRESHOLD_MAX);
	assert_true(pebs_threshold_parse("MAX", &o, err, sizeof(err)));
	assert_false(pebs_threshold_parse("0", &o, err, sizeof(err)));
	assert_non_null(strstr(err, "at least 1"));
	assert_false(pebs_threshold_parse("lots", &o, err, sizeof(err)));
	assert_non_null(strstr(err, "--pebs-threshold=lots"));
	assert_false(pebs_threshold_parse("-3", &o, err, sizeof(err)));
	assert_false(pebs_threshold_parse("12x", &o, err, sizeof(err)));
	assert_false(pebs_threshold_parse("", &o, err, sizeof(err)));
	assert_non_null(strstr(err, "needs a value"));
}

static const struct pebs_threshold_opt AUTO = { PEBS_THRESHOLD_AUTO, 0 };

static struct pebs_threshold_choice choose_ok(const struct pebs_event_req *r, unsigned n, u8 fmt,
					      const struct pebs_threshold_opt *o)
{
	struct pebs_threshold_choice c;
	char err[200];
	assert_true(pebs_threshold_choose(r, n, fmt, 1310, 4, o, &c, err, sizeof(err)));
	return c;
}

/* Large PEBS only when every event has a fixed period, no callchain and
 * only fields the record supplies; threshold = max - one per counter. */
static void test_threshold_large_when_all_qualify(void **state)
{
	struct pebs_event_req r[2] = {
		{ .fields = BP_SAMPLE_IP | BP_SAMPLE_TID | BP_SAMPLE_TIME | BP_SAMPLE_PERIOD },
		{ .fields = BP_SAMPLE_IP | BP_SAMPLE_ADDR | BP_SAMPLE_DATA_SRC | BP_SAMPLE_WEIGHT | BP_SAMPLE_REGS_INTR },
	};
	struct pebs_threshold_choice c = choose_ok(r, 2, 3, &AUTO);
	assert_true(c.large);
	assert_int_equal(c.records, 1310 - 4);
	char line[160];
	pebs_threshold_explain(&c, line, sizeof(line));
	assert_string_equal(line, "PEBS threshold: 1306 records (large PEBS: fixed period, no callchain)");
}

static void test_threshold_one_when_any_disqualifies(void **state)
{
	char line[160];
	struct pebs_event_req r[2] = {
		{ .fields = BP_SAMPLE_IP },
		{ .fields = BP_SAMPLE_IP | BP_SAMPLE_CALLCHAIN },
	};
	struct pebs_threshold_choice c = choose_ok(r, 2, 5, &AUTO);
	assert_false(c.large);
	assert_int_equal(c.records, 1);
	pebs_threshold_explain(&c, line, sizeof(line));
	assert_string_equal(line, "PEBS threshold: 1 record (callchain requested with -g)");

	struct pebs_event_req f = { .freq_mode = true, .fields = BP_SAMPLE_IP };
	c = choose_ok(&f, 1, 5, &AUTO);
	assert_int_equal(c.records, 1);
	assert_non_null(strstr(c.reason, "frequency"));

	/* time comes from the record only from format 3 (TSC field) */
	struct pebs_event_req t = { .fields = BP_SAMPLE_IP | BP_SAMPLE_TIME };
	assert_int_equal(choose_ok(&t, 1, 2, &AUTO).records, 1);
	assert_int_equal(choose_ok(&t, 1, 3, &AUTO).records, 1306);

	struct pebs_event_req rd = { .fields = BP_SAMPLE_IP | BP_SAMPLE_READ };
	assert_int_equal(choose_ok(&rd, 1, 5, &AUTO).records, 1);
	struct pebs_event_req raw = { .fields = BP_SAMPLE_IP | BP_SAMPLE_RAW };
	c = choose_ok(&raw, 1, 5, &AUTO);
	assert_int_equal(c.records, 1);
	assert_non_null(strstr(c.reason, "does not supply"));
}

static void test_threshold_override(void **state)
{
	struct pebs_event_req ok = { .fields = BP_SAMPLE_IP };
	struct pebs_event_req cc = { .fields = BP_SAMPLE_IP | BP_SAMPLE_CALLCHAIN };
	struct pebs_threshold_opt one = { PEBS_THRESHOLD_ONE, 1 };
	struct pebs_threshold_opt n64 = { PEBS_THRESHOLD_N, 64 };
	struct pebs_threshold_opt max = { PEBS_THRESHOLD_MAX, 0 };
	struct pebs_threshold_opt n2000 = { PEBS_THRESHOLD_N, 2000 };
	struct pebs_threshold_choice c;
	char err[200], line[160];

	c = choose_ok(&ok, 1, 3, &one);
	assert_int_equal(c.records, 1);
	pebs_threshold_explain(&c, line, sizeof(line));
	assert_string_equal(line, "PEBS threshold: 1 record (--pebs-threshold=1)");
	assert_int_equal(choose_ok(&cc, 1, 3, &one).records, 1);	/* always allowed */
	c = choose_ok(&ok, 1, 3, &n64);
	assert_int_equal(c.records, 64);
	assert_true(c.large);
	pebs_threshold_explain(&c, line, sizeof(line));
	assert_string_equal(line, "PEBS threshold: 64 records (--pebs-threshold=64)");
	assert_int_equal(choose_ok(&ok, 1, 3, &max).records, 1306);

	assert_false(pebs_threshold_choose(&cc, 1, 3, 1310, 4, &n64, &c, err, sizeof(err)));
	assert_non_null(strstr(err, "callchain"));
	assert_false(pebs_threshold_choose(&ok, 1, 3, 1310, 4, &n2000, &c, err, sizeof(err)));
	assert_non_null(strstr(err, "at most 1306"));
	/* a buffer with fewer records than counters still gets threshold 1 */
	assert_true(pebs_threshold_choose(&ok, 1, 3, 3, 4, &AUTO, &c, err, sizeof(err)));
	assert_int_equal(c.records, 1);
	assert_false(c.large);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ds_area_layout),
		cmocka_unit_test(test_ds_default_bounds),
		cmocka_unit_test(test_ds_sizes_checked),
		cmocka_unit_test(test_ds_threshold_and_layout),
		cmocka_unit_test(test_reset_slots),
		cmocka_unit_test(test_reset_values),
		cmocka_unit_test(test_ds_program_restore),
		cmocka_unit_test(test_threshold_parse),
		cmocka_unit_test(test_threshold_large_when_all_qualify),
		cmocka_unit_test(test_threshold_one_when_any_disqualifies),
		cmocka_unit_test(test_threshold_override),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
