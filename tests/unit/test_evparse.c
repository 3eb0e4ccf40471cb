/* events/evparse: perf-style event text, good and bad. Encodings and counter
 * sets expected here come from Intel's perfmon JSON (icelakex_core.json
 * and others) and Linux's AMD Zen JSON and generic-event maps, read by hand. */
#include "test.h"
#include "zen_caps.h"
#include "lib/str.h"
#include "events/evparse.h"

static char err[512];

static const struct event_table *model(const char *name)
{
	const struct event_table *t = event_table_by_name(name);
	assert_non_null(t);
	return t;
}

static void parse_ok(const char *text, const char *cpu, const struct pmu_caps *caps,
		     struct pmu_event *ev)
{
	err[0] = 0;
	int rc = evparse_event(text, cpu ? model(cpu) : NULL, caps, ev, err, sizeof(err));
	if (rc != 0)
		fail_msg("'%s' on %s: %s", text, cpu ? cpu : "arch", err);
}

/* Parses text expecting an error whose message contains every needle. */
static void parse_bad(const char *text, const char *cpu, const struct pmu_caps *caps,
		      const char *needle1, const char *needle2)
{
	struct pmu_event evs[4];
	err[0] = 0;
	int rc = evparse_list(text, cpu ? model(cpu) : NULL, caps, evs, 4, err, sizeof(err));
	if (rc != -1)
		fail_msg("'%s' parsed (rc %d) but should fail", text, rc);
	if (!strstr(err, needle1) || (needle2 && !strstr(err, needle2)))
		fail_msg("'%s': message '%s' lacks '%s'%s%s", text, err, needle1,
			 needle2 ? " or " : "", needle2 ? needle2 : "");
}

/* An Ice Lake server thread as CPUID and PERF_CAPABILITIES describe it. */
static struct pmu_caps icx_caps(void)
{
	struct pmu_caps c;
	memset(&c, 0, sizeof(c));
	c.intel = true;
	c.family = 6, c.model = 0x6a, c.stepping = 6;
	c.version = 5, c.num_gp = 8, c.gp_mask = 0xff, c.gp_width = 48;
	c.num_fixed = 4, c.fixed_mask = 0xf, c.fixed_width = 48;
	c.arch_events_len = 8, c.arch_events = 0xff;
	c.pdcm = c.ds = c.dtes64 = true;
	c.misc_enable_readable = true;
	c.pebs_format = 4, c.pebs_baseline = true;
	return c;
}

/* A CPU no table knows: 2 GP counters, fixed 0-2, branch mispredicts
 * reported unavailable (CPUID.0AH.EBX bit 6 set). */
static struct pmu_caps unknown_caps(void)
{
	struct pmu_caps c = icx_caps();
	c.model = 0x99;
	c.num_gp = 2, c.gp_mask = 0x3;
	c.num_fixed = 3, c.fixed_mask = 0x7;
	c.arch_events = 0xff & ~(1u << ARCH_EVENT_BRANCH_MISSES);
	return c;
}

static void test_generic_names_icx(void **state)
{
	struct pmu_event ev;

	/* cycles: 0x3C/00 on any GP (CPU_CLK_UNHALTED.THREAD_P) or fixed 1. */
	parse_ok("cycles", "icx", NULL, &ev);
	assert_int_equal(ev.event, 0x3c);
	assert_int_equal(ev.umask, 0x00);
	assert_int_equal(ev.gp_allowed, 0xff);
	assert_int_equal(ev.fixed_allowed, 0x2);
	assert_int_equal(ev.pebs_gp, 0);	/* THREAD_P: Precise 0 */
	assert_int_equal(ev.group, -1);
	assert_string_equal(ev.name, "cycles");

	parse_ok("cpu-cycles", "icx", NULL, &ev);
	assert_int_equal(ev.fixed_allowed, 0x2);

	/* instructions: INST_RETIRED.ANY_P PEBScounters 0-7, and fixed 0
	 * (PEBScounters "32"). */
	parse_ok("instructions", "icx", NULL, &ev);
	assert_int_equal(ev.event, 0xc0);
	assert_int_equal(ev.gp_allowed, 0xff);
	assert_int_equal(ev.pebs_gp, 0xff);
	assert_int_equal(ev.fixed_allowed, 0x1);
	assert_int_equal(ev.pebs_fixed, 0x1);
	assert_int_equal(ev.sample_after, 2000003);

	/* ref-cycles: fixed 2 only, never a GP counter. */
	parse_ok("ref-cycles", "icx", NULL, &ev);
	assert_int_equal(ev.gp_allowed, 0);
	assert_int_equal(ev.fixed_allowed, 0x4);

	parse_ok("branch-instructions", "icx", NULL, &ev);
	assert_int_equal(ev.event, 0xc4);
	assert_int_equal(ev.fixed_allowed, 0);
	assert_int_equal(ev.sample_after, 400009);
	parse_ok("branch-misses", "icx", NULL, &ev);
	assert_int_equal(ev.event, 0xc5);
	parse_ok("cache-misses", "icx", NULL, &ev);
	assert_int_equal(ev.event, 0x2e);
	assert_int_equal(ev.umask, 0x41);
	parse_ok("cache-references", "icx", NULL, &ev);
	assert_int_equal(ev.umask, 0x4f);
	parse_ok("slots", "icx", NULL, &ev);
	assert_int_equal(ev.fixed_allowed, 0x8);
}

/* A generic name Linux's map leaves out on this model: perf's
 * stalled-cycles names on Intel; on AMD bus-cycles and slots everywhere,
 * stalled-cycles-backend after Zen 1, ref-cycles before Zen 4
 * (arch/x86/events/amd/core.c, amd_zen*_perfmon_event_map); Intel's Atom
 * cores have no topdown slots. */
static bool generic_missing(const struct event_table *t, const char *name)
{
	bool stalled = bp_strncmp(name, "stalled-cycles-", 15) == 0;
	bool slots = bp_strcmp(name, "slots") == 0;

	if (!t->amd_zen)
		return stalled || (slots && !(t->fixed_mask & 0x8) &&
				   !event_find_encoding(t, 0xa4, 0x01));
	return slots || bp_strcmp(name, "bus-cycles") == 0 ||
	       (bp_strcmp(name, "stalled-cycles-backend") == 0 && t->amd_zen > 1) ||
	       (bp_strcmp(name, "ref-cycles") == 0 && t->amd_zen < 4);
}

/* Every generic name resolves on every model to its architectural
 * encoding (Linux's, on AMD), never to a variant with cmask/inv/edge or
 * an extra MSR; the names a model lacks are refused. */
static void test_generic_names_every_model(void **state)
{
	const char *name, *alias;
	struct pmu_event ev;

	for (size_t m = 0; m < event_table_count; m++) {
		for (size_t i = 0; evparse_generic(i, &name, &alias); i++) {
			if (generic_missing(&event_tables[m], name)) {
				parse_bad(name, event_tables[m].name, NULL, "not available", NULL);
				continue;
			}
			parse_ok(name, event_tables[m].name, NULL, &ev);
			assert_int_equal(ev.cmask, 0);
			assert_false(ev.inv || ev.edge || ev.any);
			assert_int_equal(ev.extra_msr, 0);
			assert_true(ev.gp_allowed || ev.fixed_allowed);
		}
	}
}

static void test_intel_names(void **state)
{
	struct pmu_event ev;

	parse_ok("mem_load_retired.l3_miss:pp", "icx", NULL, &ev);
	assert_string_equal(ev.name, "mem_load_retired.l3_miss:pp");
	assert_int_equal(ev.event, 0xd1);
	assert_int_equal(ev.umask, 0x20);
	assert_int_equal(ev.gp_allowed, 0x0f);
	assert_int_equal(ev.pebs_gp, 0x0f);
	assert_int_equal(ev.precise, 2);
	assert_true(ev.data_la);
	assert_false(ev.store);
	assert_int_equal(ev.sample_after, 50021);

	/* Stores, by the table's EVF_STORE: named, or by their encoding. */
	parse_ok("mem_inst_retired.all_stores:pp", "icx", NULL, &ev);
	assert_true(ev.data_la && ev.store);
	parse_ok("cpu/event=0xd0,umask=0x82/pp", "icx", NULL, &ev);
	assert_true(ev.data_la && ev.store);
	parse_ok("mem_inst_retired.all_loads:pp", "icx", NULL, &ev);
	assert_true(ev.data_la && !ev.store);

	/* Load latency with the table's threshold (MSRValue 0x4). */
	parse_ok("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:p", "icx", NULL, &ev);
	assert_int_equal(ev.extra_msr, MSR_PEBS_LD_LAT_THRESHOLD);
	assert_int_equal(ev.extra_value, 4);
	assert_true(ev.taken_alone);

	/* INST_RETIRED.ANY is the fixed-0 event only. */
	parse_ok("inst_retired.any", "icx", NULL, &ev);
	assert_int_equal(ev.gp_allowed, 0);
	assert_int_equal(ev.fixed_allowed, 0x1);
}

static void test_modifiers(void **state)
{
	struct pmu_event ev;

	parse_ok("instructions:u", "icx", NULL, &ev);
	assert_true(ev.exclude_kernel);
	assert_false(ev.exclude_user);
	parse_ok("instructions:k", "icx", NULL, &ev);
	assert_true(ev.exclude_user);
	assert_false(ev.exclude_kernel);
	parse_ok("instructions:uk", "icx", NULL, &ev);
	assert_false(ev.exclude_user || ev.exclude_kernel);
	parse_ok("instructions:ppu", "icx", NULL, &ev);
	assert_int_equal(ev.precise, 2);
	assert_true(ev.exclude_kernel);
	parse_ok("BR_INST_RETIRED.ALL_BRANCHES:p", "icx", NULL, &ev);
	assert_int_equal(ev.precise, 1);

	parse_bad("cycles:x", "icx", NULL, "cycles:x", "unknown modifier 'x'");
	parse_bad("cycles:pppp", "icx", NULL, "cycles:pppp", "at most :ppp");
}

/* cycles:p, perf's own default, as Linux samples it (intel_pebs_aliases_skl
 * and PMU_FL_PEBS_ALL in arch/x86/events/intel): on Skylake as
 * INST_RETIRED.TOTAL_CYCLES_PS (0xC0/0x01, inv, cmask 10, a PEBS event in
 * Intel's table), on parts with extended PEBS on cycles' own counters. */
static void test_precise_cycles(void **state)
{
	struct pmu_event ev;
	struct pmu_caps c = icx_caps();

	parse_ok("cycles:p", "skl", NULL, &ev);
	assert_int_equal(ev.event, 0xc0);
	assert_int_equal(ev.umask, 0x01);
	assert_true(ev.inv);
	assert_int_equal(ev.cmask, 10);
	assert_int_equal(ev.fixed_allowed, 0);
	assert_true(ev.pebs_gp != 0);
	assert_string_equal(ev.pebs_alias, "INST_RETIRED.TOTAL_CYCLES_PS");
	assert_string_equal(ev.name, "cycles:p");

	parse_ok("cycles:pp", "icx", &c, &ev);
	assert_int_equal(ev.event, 0x3c);
	assert_int_equal(ev.pebs_gp, ev.gp_allowed);
	assert_int_equal(ev.pebs_fixed, 1u << 1);	/* fixed counter 1 */
	assert_string_equal(ev.pebs_alias, PEBS_ALIAS_EXTENDED);
	parse_ok("cycles:p", "adl-e", NULL, &ev);
	assert_string_equal(ev.pebs_alias, PEBS_ALIAS_EXTENDED);
	/* Not cycles: no alias, and no PEBS where the table has none. */
	parse_ok("instructions:p", "icx", &c, &ev);
	assert_null(ev.pebs_alias);
	/* Sandy Bridge to Broadwell: UOPS_RETIRED.ALL, inv, cmask 16
	 * (intel_pebs_aliases_snb/_ivb); the table alone (no caps) does not
	 * make Haswell an extended-PEBS part. */
	parse_ok("cycles:p", "hsw", NULL, &ev);
	assert_int_equal(ev.event, 0xc2);
	assert_int_equal(ev.umask, 0x01);
	assert_true(ev.inv);
	assert_int_equal(ev.cmask, 16);
	assert_int_equal(ev.fixed_allowed, 0);
	assert_int_equal(ev.pebs_gp, 0xf);
	assert_string_equal(ev.pebs_alias, "UOPS_RETIRED.ALL");
	parse_ok("cycles:pp", "snb", NULL, &ev);
	assert_string_equal(ev.pebs_alias, "UOPS_RETIRED.ALL");
	/* Nehalem's file lists Linux's core2 alias itself, with PEBS. */
	parse_ok("cycles:p", "nhm", NULL, &ev);
	assert_string_equal(ev.pebs_alias, "INST_RETIRED.TOTAL_CYCLES_PS");
	assert_int_equal(ev.cmask, 16);
	(void)state;
}

/* A precise modifier that cannot be met is an error, not a downgrade. */
static void test_precise_errors(void **state)
{
	struct pmu_event ev;
	struct pmu_caps c = icx_caps();

	/* CPU_CLK_UNHALTED.THREAD_P has Precise 0 on ICX; fixed 1 no PEBS in
	 * the table; cycles:p goes by extended PEBS (test_precise_cycles),
	 * which PERF_CAPABILITIES without baseline PEBS rules out. */
	struct pmu_caps no_baseline = icx_caps();
	no_baseline.pebs_baseline = false;
	parse_bad("cycles:p", "icx", &no_baseline, "cycles:p", "no PEBS support");
	/* Goldmont: no alias in its file, no extended PEBS (that came with
	 * Goldmont Plus). */
	parse_bad("cycles:p", "glm", NULL, "cycles:p", "no PEBS support");
	/* Nova Lake's off-module events need MSR_OMR_0 (0x3E0), which
	 * bareperf does not program (extra_msr_slot): refused by name. */
	parse_bad("MEM_LOAD_L2_MISS_RETIRED.L3_HIT_SAME_CBB", "nvl", NULL,
		  "needs MSR 0x3e0", "does not program");
	parse_bad("LONGEST_LAT_CACHE.MISS:pp", "icx", NULL, "LONGEST_LAT_CACHE.MISS:pp", "no PEBS");
	/* The same CPU with PEBS turned off in IA32_MISC_ENABLE[12]. */
	c.misc_enable = MISC_ENABLE_PEBS_UNAVAILABLE;
	parse_bad("instructions:p", "icx", &c, "instructions:p", "needs PEBS");

	/* :ppp wants a PDIST counter: SPR INST_RETIRED.ANY PDISTCounter
	 * "32" (fixed 0), INST_RETIRED.ANY_P "NA". */
	parse_ok("instructions:ppp", "spr", NULL, &ev);
	assert_int_equal(ev.precise, 3);
	assert_int_equal(ev.pebs_fixed, 0x1);
	assert_int_equal(ev.pebs_gp, 0);
	/* LNL MEM_LOAD_RETIRED.L3_MISS: PEBScounters 0-3, PDISTCounter 0,1. */
	parse_ok("MEM_LOAD_RETIRED.L3_MISS:ppp", "lnl", NULL, &ev);
	assert_int_equal(ev.pebs_gp, 0x3);
	/* SKL: only INST_RETIRED.PREC_DIST (GP1) does PDIR. */
	parse_ok("INST_RETIRED.PREC_DIST:ppp", "skl", NULL, &ev);
	assert_int_equal(ev.pebs_gp, 0x2);
	parse_bad("MEM_LOAD_RETIRED.L3_MISS:ppp", "icx", NULL, "L3_MISS:ppp", "use :pp");
}

/* A Clearwater Forest thread: Architectural PEBS (PEBS_FORMAT 0xF), whose
 * CPUID.23H.5 names the counters records may come from, fixed ones
 * included, and those with PDist. */
static struct pmu_caps cwf_caps(u64 pebs_counters, u64 pdists)
{
	struct pmu_caps c = icx_caps();
	c.model = 0xdd, c.version = 6;
	c.fixed_mask = 0x77, c.num_fixed = 7;
	c.pebs_format = 0xF, c.pebs_baseline = false;
	c.has_arch_pebs_leaves = true;
	c.arch_pebs_counters = pebs_counters, c.arch_pebs_pdists = pdists;
	return c;
}

/* Architectural PEBS takes its PEBS and PDist counters from CPUID.23H.5
 * (ISE "Architectural PEBS"; Linux update_pmu_cap reads sub-leaf 5 into
 * hybrid(pmu, arch_pebs_cap).counters and .pdists), not from the DS rule
 * that fixed counters need baseline PEBS: INST_RETIRED.ANY (fixed 0)
 * samples precisely, and :ppp keeps only the counters sub-leaf 5 says
 * have PDist, of those the table names. */
static void test_arch_pebs_counters(void **state)
{
	struct pmu_event ev;
	struct pmu_caps c = cwf_caps(0x77000000FFull, 0x100000003ull);
	assert_true(caps_has_arch_pebs(&c));
	parse_ok("INST_RETIRED.ANY:pp", "cwf", &c, &ev);
	assert_int_equal(ev.pebs_fixed, 0x1);
	parse_ok("INST_RETIRED.ANY:ppp", "cwf", &c, &ev);
	assert_int_equal(ev.pebs_fixed, 0x1);
	parse_ok("BR_INST_RETIRED.ALL_BRANCHES:ppp", "cwf", &c, &ev);
	assert_int_equal(ev.pebs_gp, 0x3);	/* table 0,1; CPUID GP 0-1 */
	/* a CPU whose sub-leaf 5 gives PDist on GP 0 alone, and PEBS on
	 * GP 0-3 and no fixed counter */
	c = cwf_caps(0xF, 0x1);
	parse_ok("BR_INST_RETIRED.ALL_BRANCHES:ppp", "cwf", &c, &ev);
	assert_int_equal(ev.pebs_gp, 0x1);
	parse_ok("BR_INST_RETIRED.ALL_BRANCHES:pp", "cwf", &c, &ev);
	assert_int_equal(ev.pebs_gp, 0xF);
	parse_bad("INST_RETIRED.ANY:pp", "cwf", &c, "INST_RETIRED.ANY:pp", "no PEBS support");
	c = cwf_caps(0xFF, 0);
	parse_bad("BR_INST_RETIRED.ALL_BRANCHES:ppp", "cwf", &c, ":ppp", "use :pp");
	/* cycles: Intel's file marks it not precise, but Architectural PEBS
	 * records from every counter (extended PEBS), fixed 1 included, as
	 * far as CPUID.23H.5 goes */
	c = cwf_caps(0x77000000FFull, 0x100000003ull);
	parse_ok("cycles:pp", "cwf", &c, &ev);
	assert_int_equal(ev.pebs_fixed, 0x2);
	assert_int_equal(ev.pebs_gp, 0xFF);
	c = cwf_caps(0x0F, 0);
	parse_ok("cycles:pp", "cwf", &c, &ev);
	assert_int_equal(ev.pebs_fixed, 0);
	assert_int_equal(ev.pebs_gp, 0x0F);
}

/* SDM Vol. 3B ch. 20, PEBS facility (Nehalem to Skylake): PEBS is valid
 * only with AnyThread, Edge, Invert and CMask all zero. Intel's
 * skylake_core.json lists one exception, INST_RETIRED.TOTAL_CYCLES_PS
 * (0xc0/0x01, CounterMask 10, Invert 1, PEBS 2, Counter 0,2,3). */
static void test_pebs_qualifiers(void **state)
{
	struct pmu_event ev;

	parse_bad("cpu/event=0xc0,umask=0x1,cmask=2/p", "skl", NULL, "cmask=2/p",
		  "PEBS is valid only when cmask, inv, edge and any are all zero");
	parse_bad("cpu/event=0xc0,umask=0x1,inv/p", "skl", NULL, "inv/p", "all zero");
	parse_bad("cpu/event=0xc4,umask=0x0,edge/pp", "icx", NULL, "edge/pp", "all zero");
	parse_bad("cpu/event=0xc0,umask=0x1,any/p", "skl", NULL, "any/p", "all zero");
	/* A table event whose own encoding has cmask but no PEBS. */
	parse_bad("UOPS_RETIRED.STALL_CYCLES:p", "skl", NULL, "STALL_CYCLES:p", "all zero");
	/* Without :p the qualifiers are fine. */
	parse_ok("cpu/event=0xc0,umask=0x1,cmask=2/", "skl", NULL, &ev);
	assert_int_equal(ev.cmask, 2);

	/* The listed exception, by name and by its encoding: the encoding
	 * takes that event's counters (0,2,3), not INST_RETIRED.PREC_DIST's
	 * (1), which has the same event and umask. */
	parse_ok("INST_RETIRED.TOTAL_CYCLES_PS:p", "skl", NULL, &ev);
	assert_int_equal(ev.pebs_gp, 0xd);
	parse_ok("cpu/event=0xc0,umask=0x1,cmask=10,inv/pp", "skl", NULL, &ev);
	assert_int_equal(ev.gp_allowed, 0xd);
	assert_int_equal(ev.pebs_gp, 0xd);
	assert_true(ev.inv);
	assert_int_equal(ev.cmask, 10);
}

/* offcore_rsp= values are checked against the part's MSR_OFFCORE_RSP_x
 * valid bits, Linux's masks (arch/x86/events/intel/core.c):
 * intel_icl_extra_regs 0x3fffffbfff (bit 14 reserved), intel_spr_extra_regs
 * 0x3fffffffff, intel_cmt_extra_regs 0x800ff3ffffffffff for RSP_0 and
 * 0xff3ffffffffff for RSP_1 (Crestmont). */
static void test_offcore_valid_bits(void **state)
{
	struct pmu_event ev;

	parse_bad("cpu/event=0xb7,umask=0x1,offcore_rsp=0x4001/", "icx", NULL,
		  "offcore_rsp=0x4001 sets bits 0x4000", "MSR_OFFCORE_RSP_0 of icx");
	parse_bad("cpu/event=0xb7,umask=0x1,offcore_rsp=0x4000010001/", "icx", NULL,
		  "bits 0x4000000000", "valid: 0x3fffffbfff");
	parse_ok("cpu/event=0x2a,umask=0x1,offcore_rsp=0x4001/", "spr", NULL, &ev);
	parse_bad("cpu/event=0x2a,umask=0x1,offcore_rsp=0x4000000001/", "spr", NULL,
		  "bits 0x4000000000", "of spr");
	/* Bit 63 fits MSR_OFFCORE_RSP_0 of Crestmont but not _1: the event
	 * keeps its own encoding. */
	parse_ok("cpu/event=0xb7,umask=0x1,offcore_rsp=0x8000000000010001/", "mtl-e", NULL, &ev);
	assert_false(ev.has_alt);
	parse_ok("cpu/event=0xb7,umask=0x1,offcore_rsp=0x10001/", "mtl-e", NULL, &ev);
	assert_true(ev.has_alt);
}

static void test_cpu_terms(void **state)
{
	struct pmu_event ev;

	parse_ok("cpu/event=0x3c,umask=0x0,cmask=1,inv,edge/", "icx", NULL, &ev);
	assert_int_equal(ev.event, 0x3c);
	assert_int_equal(ev.umask, 0);
	assert_int_equal(ev.cmask, 1);
	assert_true(ev.inv);
	assert_true(ev.edge);
	assert_int_equal(ev.gp_allowed, 0xff);
	assert_int_equal(ev.fixed_allowed, 0);	/* cmask: not fixed 1's event */

	parse_ok("cpu/event=0x3c/", "icx", NULL, &ev);
	assert_int_equal(ev.fixed_allowed, 0x2);

	parse_ok("cpu/event=0xcd,umask=0x1,ldlat=30,period=1009/pp", "icx", NULL, &ev);
	assert_int_equal(ev.extra_msr, MSR_PEBS_LD_LAT_THRESHOLD);
	assert_int_equal(ev.extra_value, 30);
	assert_int_equal(ev.period, 1009);
	assert_int_equal(ev.precise, 2);
	assert_true(ev.taken_alone);

	parse_ok("cpu/MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4,ldlat=50,name=lat50/:k", "icx", NULL, &ev);
	assert_int_equal(ev.extra_value, 50);
	assert_string_equal(ev.name, "lat50");
	assert_true(ev.exclude_user);

	parse_ok("cpu/event=0xb7,umask=0x1,offcore_rsp=0x10001/", "icx", NULL, &ev);
	assert_int_equal(ev.extra_msr, MSR_OFFCORE_RSP_0);
	assert_int_equal(ev.extra_value, 0x10001);
	assert_true(ev.has_alt);
	assert_int_equal(ev.alt_event, 0xbb);

	/* SPR: event codes below 0x90 only on GP0-3; 0x48 is not named in
	 * a plain form but its code is. */
	parse_ok("cpu/event=0x48,umask=0x7f/", "spr", NULL, &ev);
	assert_int_equal(ev.gp_allowed, 0x0f);

	parse_bad("cpu/event=0x3g/", "icx", NULL, "cpu/event=0x3g/", "bad number '0x3g'");
	parse_bad("cpu/event=0x100/", "icx", NULL, "event=0x100", "out of range");
	parse_bad("cpu/event=0x3c,foo=1/", "icx", NULL, "unknown term 'foo'", NULL);
	parse_bad("cpu/event=0x3c", "icx", NULL, "missing closing '/'", NULL);
	parse_bad("cpu/umask=1/", "icx", NULL, "needs event=N", NULL);
	parse_bad("cpu/event=0xcd,umask=0x1/", "icx", NULL, "ldlat=N", NULL);
	parse_bad("cpu/cycles,ldlat=3/", "icx", NULL, "ldlat= applies only", NULL);
	parse_bad("cpu/cycels/", "icx", NULL, "unknown event 'cycels'", "cycles");
}

static void test_raw(void **state)
{
	struct pmu_event ev;

	/* perf raw: umask << 8 | event. */
	parse_ok("r20d1", "icx", NULL, &ev);
	assert_int_equal(ev.event, 0xd1);
	assert_int_equal(ev.umask, 0x20);
	assert_int_equal(ev.gp_allowed, 0x0f);
	assert_int_equal(ev.pebs_gp, 0x0f);
	parse_ok("r00c0:k", "icx", NULL, &ev);
	assert_int_equal(ev.fixed_allowed, 0x1);	/* fixed 0 counts 0xC0/00 */
	assert_true(ev.exclude_user);
	parse_ok("r18400c0", "icx", NULL, &ev);	/* cmask 1, edge */
	assert_int_equal(ev.cmask, 1);
	assert_true(ev.edge);
	assert_int_equal(ev.fixed_allowed, 0);
	parse_bad("r1000000c0", "icx", NULL, "r1000000c0", "bits other than");
}

static void test_unknown_names_suggest(void **state)
{
	parse_bad("mem_load_retired.l3_mis", "icx", NULL, "'mem_load_retired.l3_mis'",
		  "did you mean: MEM_LOAD_RETIRED.L3_MISS");
	parse_bad("cycels", "icx", NULL, "unknown event 'cycels'", "cycles");
	parse_bad("instrucions:u", "icx", NULL, "instrucions", "instructions");
	parse_bad("zzzzzzzzzzzzzzzz", "icx", NULL, "zzzzzzzzzzzzzzzz", "bareperf list");
	/* Gracemont has no topdown slots table event: name differs per core. */
	parse_bad("TOPDOWN.SLOTS", "adl-e", NULL, "TOPDOWN.SLOTS", "adl-e");
}

static void test_lists_and_groups(void **state)
{
	struct pmu_event evs[8];

	int n = evparse_list("{cycles,instructions},branches,{branch-misses:k,cache-misses}:u",
			     model("icx"), NULL, evs, 8, err, sizeof(err));
	assert_int_equal(n, 5);
	assert_int_equal(evs[0].group, 0);
	assert_int_equal(evs[1].group, 0);
	assert_int_equal(evs[2].group, -1);
	assert_int_equal(evs[3].group, 3);
	assert_int_equal(evs[4].group, 3);
	assert_string_equal(evs[1].name, "instructions");
	assert_string_equal(evs[3].name, "branch-misses:k");
	/* Group modifiers join the member's: k+u counts both rings. */
	assert_false(evs[3].exclude_user || evs[3].exclude_kernel);
	assert_true(evs[4].exclude_kernel);

	n = evparse_list("instructions", model("icx"), NULL, evs, 8, err, sizeof(err));
	assert_int_equal(n, 1);

	parse_bad("", "icx", NULL, "empty event list", NULL);
	parse_bad("cycles,,instructions", "icx", NULL, "empty event", NULL);
	parse_bad("cycles,", "icx", NULL, "trailing ','", NULL);
	parse_bad("{}", "icx", NULL, "empty event", NULL);
	parse_bad("{cycles,instructions", "icx", NULL, "never closed", NULL);
	parse_bad("cycles}", "icx", NULL, "'}' without a matching '{'", NULL);
	parse_bad("{cycles,{instructions}}", "icx", NULL, "nested group", NULL);
	parse_bad("{{cycles}}", "icx", NULL, "nested group", NULL);
	parse_bad("{cycles}x", "icx", NULL, "expected ','", NULL);
	parse_bad("cycles,instructions,branches,branch-misses,cache-misses", "icx", NULL,
		  "too many events", "'cache-misses'");
	parse_bad("{cycles,bad_event}", "icx", NULL, "unknown event 'bad_event'", NULL);
}

/* The architectural events of CPUID.0AH on a CPU no table knows. */
static void test_arch_fallback(void **state)
{
	struct pmu_caps c = unknown_caps();
	struct pmu_event ev;

	assert_null(event_table_for_caps(&c));
	parse_ok("cycles", NULL, &c, &ev);
	assert_int_equal(ev.gp_allowed, 0x3);
	assert_int_equal(ev.fixed_allowed, 0x2);
	parse_ok("instructions:k", NULL, &c, &ev);
	assert_int_equal(ev.fixed_allowed, 0x1);
	parse_ok("ref-cycles", NULL, &c, &ev);
	assert_int_equal(ev.fixed_allowed, 0x4);
	assert_int_equal(ev.gp_allowed, 0);
	parse_ok("slots", NULL, &c, &ev);	/* no fixed 3: GP only */
	assert_int_equal(ev.fixed_allowed, 0);
	assert_int_equal(ev.gp_allowed, 0x3);
	parse_ok("r412e", NULL, &c, &ev);
	assert_int_equal(ev.gp_allowed, 0x3);

	parse_bad("branch-misses", NULL, &c, "branch-misses", "architectural event 6");
	parse_bad("cycles:p", NULL, &c, "cycles:p", "not in the tables");
	parse_bad("MEM_LOAD_RETIRED.L3_MISS", NULL, &c, "unknown event", NULL);

	c.fixed_mask = 0x3;
	parse_bad("ref-cycles", NULL, &c, "ref-cycles", "fixed counter 2");

	/* No PMU at all (QEMU TCG) and no --cpu. */
	c.version = 0, c.num_gp = 0, c.gp_mask = 0;
	parse_bad("cycles", NULL, &c, "no PMU", "--cpu");
}

/* The CPU in use limits the table: ICX with 4 GP visible (a hypervisor). */
static void test_caps_limit_table(void **state)
{
	struct pmu_caps c = icx_caps();
	struct pmu_event ev;

	c.gp_mask = 0xf, c.num_gp = 4;
	parse_ok("instructions", "icx", &c, &ev);
	assert_int_equal(ev.gp_allowed, 0xf);
	assert_int_equal(ev.pebs_gp, 0xf);
	c.anythread_deprecated = true;
	parse_bad("cpu/event=0x3c,any/", "icx", &c, "AnyThread", "deprecated");
	c.pebs_baseline = false;
	parse_ok("instructions:p", "icx", &c, &ev);
	assert_int_equal(ev.pebs_fixed, 0);	/* fixed PEBS needs baseline */
	assert_int_equal(ev.pebs_gp, 0xf);
}

/* ---- AMD ------------------------------------------------------------- */


struct generic_want {
	const char *name;
	u16 event;
	u8 umask;
};

static void check_generic(const char *cpu, const struct pmu_caps *caps,
			  const struct generic_want *w, size_t n)
{
	struct pmu_event ev;

	for (size_t i = 0; i < n; i++) {
		parse_ok(w[i].name, cpu, caps, &ev);
		if (ev.event != w[i].event || ev.umask != w[i].umask)
			fail_msg("%s on %s: 0x%x/0x%02x, Linux maps 0x%x/0x%02x", w[i].name,
				 cpu ? cpu : "caps", ev.event, ev.umask, w[i].event, w[i].umask);
		assert_int_equal(ev.gp_allowed, 0x3f);
		assert_int_equal(ev.fixed_allowed, 0);
	}
}

/* perf's generic names on AMD: amd_zen1_perfmon_event_map,
 * amd_zen2_perfmon_event_map (Zen 2 and 3) and amd_zen4_perfmon_event_map
 * (Zen 4 and later), arch/x86/events/amd/core.c, Linux 6.12. */
static void test_amd_generic_events(void **state)
{
	static const struct generic_want zen1[] = {
		{ "cycles", 0x76, 0 }, { "cpu-cycles", 0x76, 0 }, { "instructions", 0xc0, 0 },
		{ "branches", 0xc2, 0 }, { "branch-misses", 0xc3, 0 },
		{ "cache-references", 0x60, 0xff }, { "cache-misses", 0x64, 0x09 },
		{ "stalled-cycles-frontend", 0x87, 0x02 }, { "stalled-cycles-backend", 0x87, 0x01 },
	};
	static const struct generic_want zen2[] = {
		{ "cycles", 0x76, 0 }, { "cache-misses", 0x64, 0x09 },
		{ "stalled-cycles-frontend", 0xa9, 0 }, { "idle-cycles-frontend", 0xa9, 0 },
	};
	static const struct generic_want zen4[] = {
		{ "instructions", 0xc0, 0 }, { "stalled-cycles-frontend", 0xa9, 0 },
		{ "ref-cycles", 0x120, 0x01 },
	};
	struct pmu_event ev;

	check_generic("zen1", NULL, zen1, ARRAY_SIZE(zen1));
	check_generic("zen2", NULL, zen2, ARRAY_SIZE(zen2));
	check_generic("zen3", NULL, zen2, ARRAY_SIZE(zen2));
	check_generic("zen4", NULL, zen4, ARRAY_SIZE(zen4));
	check_generic("zen5", NULL, zen4, ARRAY_SIZE(zen4));
	/* What a generation's map leaves out. */
	parse_bad("stalled-cycles-backend", "zen2", NULL, "not available", NULL);
	parse_bad("ref-cycles", "zen3", NULL, "not available", NULL);
	parse_bad("bus-cycles", "zen4", NULL, "not available", NULL);
	parse_bad("slots", "zen5", NULL, "not available", NULL);
	parse_bad("stalled-cycles-frontend", "icx", NULL, "AMD CPUs only", NULL);

	/* On the CPU itself, with no table given: its model's map. */
	struct pmu_caps genoa = zen_caps(0x19, 0x11);
	parse_ok("stalled-cycles-frontend", NULL, &genoa, &ev);
	assert_int_equal(ev.event, 0xa9);
	/* An AMD CPU the tables lack: before Zen amd_perfmon_event_map (K7
	 * to family 16h); family 1Ah and later the Zen 4 map. */
	static const struct generic_want k8[] = {
		{ "cycles", 0x76, 0 }, { "cache-references", 0x7d, 0x07 },
		{ "cache-misses", 0x7e, 0x07 }, { "stalled-cycles-frontend", 0xd0, 0 },
		{ "stalled-cycles-backend", 0xd1, 0 },
	};
	static const struct generic_want later[] = { { "ref-cycles", 0x120, 0x01 } };
	struct pmu_caps bulldozer = zen_caps(0x15, 0x02), next = zen_caps(0x1b, 0x00);
	check_generic(NULL, &bulldozer, k8, ARRAY_SIZE(k8));
	check_generic(NULL, &next, later, ARRAY_SIZE(later));
}

/* 12-bit codes by name, raw (perf's amd format: event [7:0] and [35:32])
 * and cpu// terms; amdzen4 de_no_dispatch_per_slot.smt_contention is
 * 0x1a0/0x60, amdzen5 ex_ret_uncond_brnch_instr 0x1c9. The counter pair
 * of code 0x003 (fp_ret_sse_avx_ops.*) comes along. */
static void test_amd_encodings(void **state)
{
	struct pmu_event ev;

	parse_ok("de_no_dispatch_per_slot.smt_contention", "zen4", NULL, &ev);
	assert_int_equal(ev.event, 0x1a0);
	parse_ok("r1000060a0", "zen4", NULL, &ev);
	assert_int_equal(ev.event, 0x1a0);
	assert_int_equal(ev.umask, 0x60);
	assert_int_equal(ev.gp_allowed, 0x3f);
	parse_ok("cpu/event=0x1c9/", "zen5", NULL, &ev);
	assert_int_equal(ev.event, 0x1c9);
	parse_bad("r1000060a0", "icx", NULL, "sets bits other than", NULL);
	parse_bad("cpu/event=0x1c9/", "icx", NULL, "out of range", NULL);
	parse_bad("cpu/event=0x1000/", "zen4", NULL, "out of range", NULL);

	parse_ok("fp_ret_sse_avx_ops.all", "zen3", NULL, &ev);
	assert_true(ev.amd_pair);
	parse_ok("cycles", "zen3", NULL, &ev);
	assert_false(ev.amd_pair);
	/* An encoding the table lacks takes its code's constraint. */
	parse_ok("cpu/event=0x03,umask=0x40/", "zen3", NULL, &ev);
	assert_true(ev.amd_pair);
	parse_ok("INST_RETIRED.ANY_P", "icx", NULL, &ev);
	assert_false(ev.amd_pair);
	/* No PEBS on AMD. */
	parse_bad("ls_not_halted_cyc:p", "zen4", NULL, "no PEBS support", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic_names_icx),
		cmocka_unit_test(test_generic_names_every_model),
		cmocka_unit_test(test_intel_names),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_precise_errors),
		cmocka_unit_test(test_pebs_qualifiers),
		cmocka_unit_test(test_offcore_valid_bits),
		cmocka_unit_test(test_cpu_terms),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_unknown_names_suggest),
		cmocka_unit_test(test_precise_cycles),
		cmocka_unit_test(test_lists_and_groups),
		cmocka_unit_test(test_arch_fallback),
		cmocka_unit_test(test_caps_limit_table),
		cmocka_unit_test(test_arch_pebs_counters),
		cmocka_unit_test(test_amd_generic_events),
		cmocka_unit_test(test_amd_encodings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
