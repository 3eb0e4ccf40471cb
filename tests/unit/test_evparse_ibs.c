/* events/evparse: AMD's IBS events. Linux's PMU names and format terms
 * (arch/x86/events/amd/ibs.c: the "ibs_op" and "ibs_fetch" PMUs, cnt_ctl
 * = config:19 visible with IBS_CAPS_OPCNT), the refusals of perf_ibs_init
 * (exclude_user/kernel without swfilt), and how cycles:p is forwarded to
 * ibs_op (forward_event_to_ibs, core_pmu_ibs_config: cycles and r076 count
 * cycles, r0C1 ops; precise_ip 1 and 2 only). */
#include "test.h"
#include "lib/str.h"
#include "events/evparse.h"

static char err[512];

/* A Zen 4 thread: PerfMonV2, 6 counters, IBS with every feature through
 * the Zen 4 extensions (CPUID.8000001BH:EAX 0xBFF). */
static struct pmu_caps zen4_caps(void)
{
	struct pmu_caps c;
	memset(&c, 0, sizeof(c));
	c.amd = true;
	c.family = 0x19, c.model = 0x61;
	c.version = 2, c.num_gp = 6, c.gp_mask = 0x3f, c.gp_width = 48;
	c.ibs = true;
	c.ibs_caps = 0xBFF;
	return c;
}

static struct pmu_caps no_ibs_caps(void)
{
	struct pmu_caps c = zen4_caps();
	c.ibs = false;
	c.ibs_caps = 0;
	return c;
}

static void parse_ok(const char *text, const struct pmu_caps *caps, struct pmu_event *ev)
{
	err[0] = 0;
	if (evparse_event(text, NULL, caps, ev, err, sizeof(err)) != 0)
		fail_msg("'%s': %s", text, err);
}

static void parse_bad(const char *text, const struct pmu_caps *caps, const char *needle)
{
	struct pmu_event evs[4];
	err[0] = 0;
	int rc = evparse_list(text, NULL, caps, evs, 4, err, sizeof(err));
	if (rc != -1)
		fail_msg("'%s' parsed (rc %d) but should fail", text, rc);
	if (!strstr(err, needle))
		fail_msg("'%s': message '%s' lacks '%s'", text, err, needle);
}

static void test_ibs_op_and_fetch(void **state)
{
	(void)state;
	struct pmu_caps c = zen4_caps();
	struct pmu_event ev;
	parse_ok("ibs_op//", &c, &ev);
	assert_int_equal(ev.ibs, EVENT_IBS_OP);
	assert_false(ev.ibs_cnt_ctl);
	assert_false(event_needs_counter(&ev));	/* on no core counter */
	assert_true(ev.precise >= 1);
	assert_true(ev.data_la);		/* IbsDcLinAd */
	parse_ok("ibs_op/cnt_ctl=1/", &c, &ev);
	assert_true(ev.ibs_cnt_ctl);
	parse_ok("ibs_op/cnt_ctl=0,period=0x1000/", &c, &ev);
	assert_false(ev.ibs_cnt_ctl);
	assert_int_equal(ev.period, 0x1000);
	parse_ok("ibs_fetch//", &c, &ev);
	assert_int_equal(ev.ibs, EVENT_IBS_FETCH);
	assert_false(ev.data_la);
	parse_ok("ibs_fetch//:p", &c, &ev);
	assert_int_equal(ev.precise, 1);

	struct pmu_event evs[4];
	assert_int_equal(evparse_list("ibs_op//,ibs_fetch//,r76", NULL, &c, evs, 4, err,
				      sizeof(err)), 3);
	assert_int_equal(evs[0].ibs, EVENT_IBS_OP);
	assert_int_equal(evs[1].ibs, EVENT_IBS_FETCH);
	assert_int_equal(evs[2].ibs, EVENT_IBS_NONE);
	assert_true(event_needs_counter(&evs[2]));
}

static void test_ibs_refused(void **state)
{
	(void)state;
	struct pmu_caps c = zen4_caps(), none = no_ibs_caps(), no_opcnt = zen4_caps();
	no_opcnt.ibs_caps &= ~IBS_CAPS_OPCNT;
	parse_bad("ibs_op//", &none, "CPUID.80000001H:ECX[10] = 0");
	parse_bad("ibs_fetch//", &none, "Instruction-Based Sampling");
	parse_bad("ibs_op/cnt_ctl=1/", &no_opcnt, "OpCnt");
	parse_bad("ibs_fetch/cnt_ctl=1/", &c, "unknown term 'cnt_ctl'");
	parse_bad("ibs_op/l3missonly=1/", &c, "unknown term");
	parse_bad("ibs_op/cnt_ctl=2/", &c, "out of range");
	parse_bad("ibs_op//:u", &c, "exclude_user");
	parse_bad("ibs_op//:ppp", &c, "levels 1 and 2");
	parse_bad("ibs_op/cnt_ctl=1", &c, "missing closing '/'");
	struct pmu_caps fetch_only = zen4_caps();
	fetch_only.ibs_caps &= ~IBS_CAPS_OPSAM;
	parse_bad("ibs_op//", &fetch_only, "no ibs_op unit");
}

static void test_cycles_p_forwarded_to_ibs_op(void **state)
{
	(void)state;
	struct pmu_caps c = zen4_caps(), none = no_ibs_caps();
	struct pmu_event ev;
	parse_ok("cycles:p", &c, &ev);
	assert_int_equal(ev.ibs, EVENT_IBS_OP);
	assert_false(ev.ibs_cnt_ctl);
	assert_string_equal(ev.pebs_alias, "ibs_op");
	parse_ok("cpu-cycles:pp", &c, &ev);
	assert_int_equal(ev.ibs, EVENT_IBS_OP);
	assert_int_equal(ev.precise, 2);
	parse_ok("r76:p", &c, &ev);
	assert_int_equal(ev.ibs, EVENT_IBS_OP);
	parse_ok("r0C1:p", &c, &ev);	/* retired ops: count dispatched ops */
	assert_int_equal(ev.ibs, EVENT_IBS_OP);
	assert_true(ev.ibs_cnt_ctl);
	parse_ok("r76", &c, &ev);	/* not precise: a core counter */
	assert_int_equal(ev.ibs, EVENT_IBS_NONE);

	parse_bad("cycles:ppp", &c, "levels 1 and 2");
	parse_bad("r0C0:p", &c, "only cycles (r76) and r0C1");
	parse_bad("cycles:p", &none, "Instruction-Based Sampling");
	parse_bad("cycles:pk", &c, "exclude_user");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ibs_op_and_fetch),
		cmocka_unit_test(test_ibs_refused),
		cmocka_unit_test(test_cycles_p_forwarded_to_ibs_op),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
