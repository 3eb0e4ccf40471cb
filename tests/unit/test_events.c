/* events/events: the generated tables and the model lookups. Expected values
 * were read by hand from Intel's perfmon JSON (../shared/perfmon) and
 * Linux's AMD Zen JSON (tools/perf/pmu-events/arch/x86/amdzen*, Linux 6.12),
 * cited per test, so a generator bug that mangles a field shows up here. */
#include "test.h"
#include "zen_caps.h"
#include "lib/str.h"
#include "events/events.h"

static const struct event_table *table(const char *name)
{
	const struct event_table *t = event_table_by_name(name);
	assert_non_null(t);
	return t;
}

static const struct ev_entry *find(const char *model, const char *event)
{
	const struct ev_entry *e = event_find(table(model), event);
	assert_non_null(e);
	return e;
}


/* icelakex_core.json: MEM_LOAD_RETIRED.L3_MISS EventCode 0xd1, UMask 0x20,
 * Counter "0,1,2,3", PEBScounters "0,1,2,3", Precise 1, Data_LA 1,
 * SampleAfterValue 50021. */
static void test_icx_l3_miss(void **state)
{
	const struct ev_entry *e = find("icx", "MEM_LOAD_RETIRED.L3_MISS");
	assert_int_equal(e->event, 0xd1);
	assert_int_equal(e->umask, 0x20);
	assert_int_equal(e->cmask, 0);
	assert_int_equal(e->gp, 0x0f);
	assert_int_equal(e->pebs_gp, 0x0f);
	assert_int_equal(ev_fixed(e), 0);
	assert_true(e->flags & EVF_DATA_LA);
	assert_false(e->flags & EVF_TAKEN_ALONE);
	assert_int_equal(ev_sample_after(e), 50021);
	assert_int_equal(e->extra, 0);
}

/* skylake_core.json: INST_RETIRED.PREC_DIST 0xC0/0x01, Counter "1", PEBS 2
 * (SDM Vol. 3B, "Precise Distribution of Instructions Retired (PDIR)":
 * on these cores PDIR works on IA32_PMC1 only). */
static void test_skl_prec_dist_gp1(void **state)
{
	const struct ev_entry *e = find("skl", "INST_RETIRED.PREC_DIST");
	assert_int_equal(e->event, 0xc0);
	assert_int_equal(e->umask, 0x01);
	assert_int_equal(e->gp, 0x2);
	assert_int_equal(e->pebs_gp, 0x2);
	assert_true(e->flags & EVF_PEBS_ONLY);
	assert_int_equal(ev_pdist_gp(e), 0x2);
	assert_true(table("skl")->legacy_pebs);
	/* HT-on counters: Skylake has 4 GP per thread with HT. */
	assert_int_equal(table("skl")->gp_mask, 0x0f);
}

/* sapphirerapids_core.json: TOPDOWN.BAD_SPEC_SLOTS (0x04A4) and
 * MEM_TRANS_RETIRED.STORE_SAMPLE (0x02CD) on GP0 only; load latency on
 * GP1-7 with the 0x3F6 threshold; event codes below 0x90 on GP0-3. */
static void test_spr_constraints(void **state)
{
	const struct ev_entry *e = find("spr", "TOPDOWN.BAD_SPEC_SLOTS");
	assert_int_equal(e->event, 0xa4);
	assert_int_equal(e->umask, 0x04);
	assert_int_equal(e->gp, 0x1);
	e = find("spr", "MEM_TRANS_RETIRED.STORE_SAMPLE");
	assert_int_equal(e->gp, 0x1);
	assert_int_equal(e->pebs_gp, 0x1);
	assert_true(e->flags & EVF_DATA_LA && e->flags & EVF_STORE);
	assert_false(ev_precise_store(e));

	e = find("spr", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_128");
	assert_int_equal(e->gp, 0xfe);
	assert_int_equal(e->pebs_gp, 0xfe);
	assert_int_equal(ev_extra(e)->msr, MSR_PEBS_LD_LAT_THRESHOLD);
	assert_int_equal(ev_extra(e)->value, 0x80);
	assert_true(e->flags & EVF_TAKEN_ALONE);
	assert_false(e->flags & EVF_STORE);
	assert_int_equal(ev_sample_after(e), 1009);

	assert_int_equal(event_code_gp_mask(table("spr"), 0x48), 0x0f);
	assert_int_equal(event_code_gp_mask(table("spr"), 0x3c), 0xff);
}

/* Offcore: OCR.DEMAND_DATA_RD.L3_MISS EventCode "0x2A,0x2B", MSRIndex
 * "0x1a6,0x1a7", MSRValue 0x3FBFC00001, Precise 0 (so no PEBS although
 * PEBScounters says "0"). */
static void test_spr_offcore(void **state)
{
	const struct event_table *t = table("spr");
	const struct ev_entry *e = find("spr", "OCR.DEMAND_DATA_RD.L3_MISS");
	struct pmu_event ev = { 0 };

	assert_int_equal(e->event, 0x2a);
	assert_true(e->flags & EVF_OCR_ALT);
	assert_int_equal(e->pebs_gp, 0);
	event_entry_fill(t, e, &ev);
	assert_int_equal(ev.extra_msr, MSR_OFFCORE_RSP_0);
	assert_int_equal(ev.extra_value, 0x3FBFC00001ULL);
	assert_true(ev.has_alt);
	assert_int_equal(ev.alt_event, 0x2b);
	assert_int_equal(ev.alt_umask, 0x01);
	assert_int_equal(ev.alt_extra_msr, MSR_OFFCORE_RSP_1);
	/* Gracemont pairs by umask instead: 0xB7 umask 0x01 and 0x02. */
	assert_int_equal(table("adl-e")->ocr_event[1], 0xb7);
	assert_int_equal(table("adl-e")->ocr_umask[1], 0x02);
}

/* Fixed counters: ICX INST_RETIRED.ANY "Fixed counter 0", PEBScounters "32"
 * (fixed 0 with baseline PEBS); Skymont has fixed 4-6 but no 3. */
static void test_fixed_counters(void **state)
{
	const struct ev_entry *e = find("icx", "INST_RETIRED.ANY");
	assert_int_equal(ev_fixed(e), 0x1);
	assert_int_equal(e->gp, 0);
	assert_int_equal(ev_pebs_fixed(e), 0x1);
	e = find("icx", "TOPDOWN.SLOTS");
	assert_int_equal(ev_fixed(e), 0x8);
	assert_int_equal(table("icx")->fixed_mask, 0x0f);
	assert_int_equal(table("lnl-e")->fixed_mask, 0x77);
	e = find("lnl-e", "TOPDOWN_RETIRING.ALL");
	assert_int_equal(ev_fixed(e), 1u << 6);
	assert_int_equal(table("lnl")->gp_mask, 0x3ff);
}

/* Lion Cove: BR_INST_RETIRED.COND_TAKEN 0xc4/0x01 with UMaskExt 0x01. */
static void test_umask_ext(void **state)
{
	struct pmu_event ev = { 0 };
	const struct ev_entry *e = find("lnl", "BR_INST_RETIRED.COND_TAKEN");
	event_entry_fill(table("lnl"), e, &ev);
	assert_int_equal(ev.event, 0xc4);
	assert_int_equal(ev.umask, 0x01);
	assert_int_equal(ev.umask_ext, 0x01);
	assert_int_equal(ev.extra_msr, 0);
}

static void test_find_any_case_and_sorted(void **state)
{
	assert_ptr_equal(event_find(table("icx"), "mem_load_retired.l3_miss"),
			 event_find(table("icx"), "MEM_LOAD_RETIRED.L3_MISS"));
	assert_null(event_find(table("icx"), "MEM_LOAD_RETIRED.L3_MISSES"));
	assert_null(event_find(table("icx"), ""));
	/* Binary search needs every table sorted case-insensitively, and every
	 * name must be found. */
	for (size_t i = 0; i < event_table_count; i++) {
		const struct event_table *t = &event_tables[i];
		/* every Intel file and Zen directory has hundreds; dmr,
		 * described from Linux's tables (tools/gen-events.py), 25 */
		assert_true(t->count > (strcmp(t->name, "dmr") ? 100 : 20));
		for (u16 j = 0; j < t->count; j++) {
			if (j)
				assert_true(bp_strcasecmp(ev_name(event_at(t, j - 1)),
							  ev_name(event_at(t, j))) < 0);
			assert_ptr_equal(event_find(t, ev_name(event_at(t, j))), event_at(t, j));
			/* PEBS counters are a subset of the counters. */
			assert_int_equal(event_at(t, j)->pebs_gp & ~event_at(t, j)->gp, 0);
		}
	}
}

/* mapfile.csv: GenuineIntel-6-6A -> icelakex; 6-55 steppings 0-4 -> SKX
 * (5 and later are Cascade Lake, not in the tables); 6-97 hybrid rows
 * 0x40 -> goldencove, 0x20 -> gracemont; 6-C5 has two 0x20 rows told apart
 * by native model ID 3 (Skymont) and 2 (Crestmont). */
static void test_model_lookup(void **state)
{
	assert_ptr_equal(event_table_for_cpu(6, 0x6a, 6, 0, 0), table("icx"));
	assert_ptr_equal(event_table_for_cpu(6, 0x8f, 8, 0, 0), table("spr"));
	assert_ptr_equal(event_table_for_cpu(6, 0x55, 4, 0, 0), table("skx"));
	assert_ptr_equal(event_table_for_cpu(6, 0x55, 7, 0, 0), table("clx"));
	assert_ptr_equal(event_table_for_cpu(6, 0x3c, 3, 0, 0), table("hsw"));
	assert_ptr_equal(event_table_for_cpu(6, 0x1a, 5, 0, 0), table("nhm"));
	assert_ptr_equal(event_table_for_cpu(6, 0xaf, 3, 0, 0), table("srf"));
	/* Nova Lake is family 18 (mapfile "GenuineIntel-18-1": decimal). */
	assert_ptr_equal(event_table_for_cpu(18, 0x1, 0, 0x40, 5), table("nvl"));
	assert_ptr_equal(event_table_for_cpu(18, 0x1, 0, 0x20, 5), table("nvl-e"));
	assert_null(event_table_for_cpu(0x18, 0x1, 0, 0x40, 5));
	assert_ptr_equal(event_table_for_cpu(6, 0x9e, 10, 0, 0), table("skl"));
	assert_ptr_equal(event_table_for_cpu(6, 0x97, 2, 0x40, 1), table("adl"));
	assert_ptr_equal(event_table_for_cpu(6, 0x97, 2, 0x20, 1), table("adl-e"));
	assert_ptr_equal(event_table_for_cpu(6, 0xaa, 4, 0x20, 0), table("mtl-e"));
	assert_ptr_equal(event_table_for_cpu(6, 0xc5, 2, 0x20, 3), table("arl-e"));
	assert_ptr_equal(event_table_for_cpu(6, 0xc5, 2, 0x20, 2), table("arl-lpe"));
	assert_ptr_equal(event_table_for_cpu(6, 0xc5, 2, 0x20, 0), table("arl-e"));
	assert_ptr_equal(event_table_for_cpu(6, 0xbd, 1, 0x40, 3), table("lnl"));
	/* Diamond Rapids (family 19, model 01H; Linux INTEL_DIAMONDRAPIDS_X):
	 * the table from Linux's intel_pnc_event_constraints, its masks as
	 * Linux states them (load latency on GP 2-7, store sample on 0-1,
	 * MEM_INST_RETIRED on 0-3, fixed 0-3). */
	const struct event_table *dmr = table("dmr");
	assert_ptr_equal(event_table_for_cpu(19, 0x01, 0, 0, 0), dmr);
	assert_int_equal(dmr->gp_mask, 0xFF);
	assert_int_equal(dmr->fixed_mask, 0xF);
	assert_int_equal(event_find(dmr, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32")->gp, 0xFC);
	assert_int_equal(event_find(dmr, "MEM_TRANS_RETIRED.STORE_SAMPLE")->gp, 0x3);
	assert_int_equal(event_find(dmr, "MEM_INST_RETIRED.ALL_LOADS")->gp, 0xF);
	assert_true(event_find(dmr, "MEM_INST_RETIRED.ALL_LOADS")->flags & EVF_DATA_LA);
	assert_true(event_find(dmr, "MEM_INST_RETIRED.ALL_STORES")->flags & EVF_STORE);
	/* Hybrid part without a known core type: no guess. */
	assert_null(event_table_for_cpu(6, 0x97, 2, 0, 0));
	/* Alder Lake-N is E-cores only and not hybrid. */
	assert_ptr_equal(event_table_for_cpu(6, 0xbe, 0, 0, 0), table("adl-e"));
	assert_null(event_table_for_cpu(6, 0x17, 6, 0, 0));	/* Core 2: no perfmon file */
	assert_null(event_table_for_cpu(15, 0x6a, 0, 0, 0));
}

static void test_table_names(void **state)
{
	char buf[EVENT_TABLE_NAMES_LEN];
	event_table_names(buf, sizeof(buf));
	assert_non_null(strstr(buf, "nhm, nhm-ex"));
	assert_non_null(strstr(buf, "icl, icx"));
	/* The buffer holds every name: the last table's ends the list. */
	const char *last = event_tables[event_table_count - 1].name;
	assert_true(strlen(buf) + 1 < sizeof(buf));
	assert_string_equal(buf + strlen(buf) - strlen(last), last);
	assert_ptr_equal(event_table_by_name("ADL-E"), table("adl-e"));
	assert_null(event_table_by_name("core2"));
}

/* The dictionary decoded name by name (ev_name's way without memory)
 * gives each name exactly as the whole unpacking does. */
static void test_names_unpack_alone(void **state)
{
	char alone[128];
	for (size_t i = 0; i < event_row_count; i++) {
		event_name_unpack(event_rows[i].name, alone, sizeof(alone));
		assert_string_equal(alone, ev_name(&event_rows[i]));
	}
}

/* Older perfmon files, read by their own conventions. */
static void test_older_file_conventions(void **state)
{
	/* Nehalem counts fixed counters from 1: INST_RETIRED.ANY is "Fixed
	 * counter 1", IA32_FIXED_CTR0. */
	const struct ev_entry *e = event_find(table("nhm"), "INST_RETIRED.ANY");
	assert_non_null(e);
	assert_int_equal(ev_fixed(e), 0x1);
	assert_int_equal(ev_fixed(event_find(table("slm"), "CPU_CLK_UNHALTED.REF_TSC")), 0x4);
	assert_int_equal(table("nhm")->fixed_mask, 0x7);
	/* Knights Landing's one event on MSR_OFFCORE_RSP_1 alone: its second
	 * encoding, no alternative. */
	e = event_find(table("knl"), "OFFCORE_RESPONSE.STREAMING_STORES.ANY_RESPONSE");
	assert_non_null(e);
	assert_int_equal(e->umask, 0x02);
	assert_int_equal(ev_extra(e)->msr, MSR_OFFCORE_RSP_1);
	assert_int_equal(e->flags & EVF_OCR_ALT, 0);
	/* Goldmont Plus: OUTSTANDING only on MSR_OFFCORE_RSP_0; a PDIR counter
	 * per event. */
	e = event_find(table("glp"), "OFFCORE_RESPONSE.DEMAND_DATA_RD.OUTSTANDING");
	assert_non_null(e);
	assert_int_equal(e->umask, 0x01);
	assert_int_equal(ev_extra(e)->msr, MSR_OFFCORE_RSP_0);
	assert_int_equal(e->flags & EVF_OCR_ALT, 0);
	assert_int_equal(ev_pdist_gp(event_find(table("glp"), "INST_RETIRED.PREC_DIST")), 0x1);
	/* Sandy Bridge's precise store, PEBS on GP3 only. */
	e = event_find(table("snb"), "MEM_TRANS_RETIRED.PRECISE_STORE");
	assert_non_null(e);
	assert_true(ev_precise_store(e));
	assert_int_equal(e->pebs_gp, 0x8);
	/* Nehalem has one offcore MSR; Westmere two. */
	assert_int_equal(table("nhm")->offcore_valid[1], 0);
	assert_int_equal(table("wsm")->offcore_valid[1], 0xffff);
}

/* Every table's MSR_OFFCORE_RSP_x mask holds Linux's mask for the core
 * (tools/gen-events.py names each) and every value its own OCR events set,
 * so no named event is refused. Spot values: icx 0x3fffffbfff
 * (intel_icl_extra_regs), adl-e 0x3fffffffff plus bits 46 and 47 from
 * OCR.PARTIAL_STREAMING_WR.ANY_RESPONSE (MSRValue 0x400000010000) and
 * OCR.FULL_STREAMING_WR.ANY_RESPONSE (0x800000010000). */
static void test_offcore_masks_cover_the_files(void **state)
{
	for (size_t k = 0; k < event_table_count; k++) {
		const struct event_table *t = &event_tables[k];
		/* Bonnell has no offcore response, Nova Lake's and Diamond
		 * Rapids' MSR_OMR_x replace it; AMD has none. */
		bool none = !strcmp(t->name, "bnl") || !strncmp(t->name, "nvl", 3) ||
			    !strcmp(t->name, "dmr") || t->amd_zen;
		assert_true(none ? t->offcore_valid[0] == 0 : (t->offcore_valid[0] & 0xffff) != 0);
		for (u16 i = 0; i < t->count; i++) {
			const struct ev_entry *e = event_at(t, i);
			const struct ev_extra *x = e->extra ? ev_extra(e) : NULL;
			if (!x || (x->msr != MSR_OFFCORE_RSP_0 && x->msr != MSR_OFFCORE_RSP_1))
				continue;
			if (x->value & ~t->offcore_valid[x->msr == MSR_OFFCORE_RSP_1])
				fail_msg("%s %s: 0x%llx outside the mask", t->name, ev_name(e),
					 (unsigned long long)x->value);
		}
	}
	assert_int_equal(table("icx")->offcore_valid[0], 0x3fffffbfffULL);
	assert_int_equal(table("adl-e")->offcore_valid[0], 0x3fffffffffULL | (3ULL << 46));
	assert_int_equal(table("mtl-e")->offcore_valid[1] >> 60, 0);
}

/* ---- AMD Zen (Linux 6.12 tools/perf/pmu-events/arch/x86/amdzen*) ------ */

/* One event of each generation: ls_not_halted_cyc EventCode 0x76 in
 * amdzen1-3/memory.json, amdzen4/core.json, amdzen5/load-store.json. The
 * JSON names no counters, PEBS or fixed counters: all six core counters. */
static void test_zen_lookup_per_generation(void **state)
{
	static const char *const zens[] = { "zen1", "zen2", "zen3", "zen4", "zen5" };

	for (int i = 0; i < 5; i++) {
		const struct ev_entry *e = find(zens[i], "ls_not_halted_cyc");
		assert_int_equal(ev_event(e), 0x76);
		assert_int_equal(e->umask, 0);
		assert_int_equal(e->gp, 0x3f);
		assert_int_equal(e->pebs_gp, 0);
		assert_int_equal(ev_fixed(e), 0);
		assert_int_equal(table(zens[i])->amd_zen, i + 1);
		assert_int_equal(table(zens[i])->gp_mask, 0x3f);
		assert_int_equal(table(zens[i])->fixed_mask, 0);
	}
	assert_ptr_equal(find("zen4", "LS_NOT_HALTED_CYC"), find("zen4", "ls_not_halted_cyc"));
	/* Generations differ: Zen 1 has no ic_tag_hit_miss (0x18e, amdzen3
	 * on), Zen 5 no ex_ret_cops (amdzen1/2 core.json). */
	assert_null(event_find(table("zen1"), "ic_tag_hit_miss.instruction_cache_miss"));
	assert_non_null(event_find(table("zen1"), "ex_ret_cops"));
	assert_null(event_find(table("zen5"), "ex_ret_cops"));
	assert_null(event_find(table("icx"), "ls_not_halted_cyc"));
	assert_int_equal(table("icx")->amd_zen, 0);
}

/* Codes above 0xFF (PERF_CTL EventSelect[11:8]): amdzen4 and 5
 * de_no_dispatch_per_slot.smt_contention 0x1a0/0x60; amdzen3
 * ic_tag_hit_miss.instruction_cache_miss 0x18e/0x18; amdzen5
 * ex_ret_uncond_brnch_instr 0x1c9. */
static void test_zen_12bit_event_codes(void **state)
{
	const struct ev_entry *e = find("zen4", "de_no_dispatch_per_slot.smt_contention");
	struct pmu_event ev;

	assert_int_equal(e->event, 0xa0);	/* the row's low byte */
	assert_int_equal(ev_event(e), 0x1a0);
	assert_int_equal(e->umask, 0x60);
	assert_int_equal(ev_event(find("zen3", "ic_tag_hit_miss.instruction_cache_miss")), 0x18e);
	assert_int_equal(ev_event(find("zen5", "ex_ret_uncond_brnch_instr")), 0x1c9);
	bp_memset(&ev, 0, sizeof(ev));
	event_entry_fill(table("zen4"), e, &ev);
	assert_int_equal(ev.event, 0x1a0);
	assert_ptr_equal(event_find_encoding(table("zen4"), 0x1a0, 0x60), e);
	assert_null(event_find_encoding(table("zen4"), 0xa0, 0x60));
	assert_int_equal(event_code_gp_mask(table("zen4"), 0x1a0), 0x3f);
}

/* fp_ret_sse_avx_ops.*, EventCode 0x03 in floating-point.json of every
 * amdzenN: Linux's amd_is_pair_event_code (0x003) gives it pair_constraint
 * on family 17h and later. Other events are unconstrained. */
static void test_zen_counter_pair(void **state)
{
	struct pmu_event ev;

	for (const char *z = "12345"; *z; z++) {
		char name[8] = "zen";
		name[3] = *z;
		assert_true(ev_amd_pair(find(name, "fp_ret_sse_avx_ops.all")));
		assert_false(ev_amd_pair(find(name, "ls_not_halted_cyc")));
		assert_true(event_code_amd_pair(table(name), 0x003));
		assert_false(event_code_amd_pair(table(name), 0x076));
	}
	bp_memset(&ev, 0, sizeof(ev));
	event_entry_fill(table("zen3"), find("zen3", "fp_ret_sse_avx_ops.all"), &ev);
	assert_true(ev.amd_pair);
	assert_false(event_code_amd_pair(table("icx"), 0x003));
}

static const char *zen_table_for(u32 family, u32 model)
{
	struct pmu_caps c = zen_caps(family, model);
	const struct event_table *t = event_table_for_caps(&c);
	return t ? t->name : "none";
}

/* Linux's x86 mapfile.csv: AuthenticAMD-23-([12][0-9A-F]|[0-9A-F]) zen1,
 * -23-[[:xdigit:]]+ zen2, -25-([245][[:xdigit:]]|[[:xdigit:]]) zen3,
 * -25-[[:xdigit:]]+ zen4, -26-[[:xdigit:]]+ zen5; first match wins. */
static void test_zen_model_choice(void **state)
{
	assert_string_equal(zen_table_for(0x17, 0x01), "zen1");	/* Naples */
	assert_string_equal(zen_table_for(0x17, 0x08), "zen1");	/* Pinnacle Ridge */
	assert_string_equal(zen_table_for(0x17, 0x2f), "zen1");
	assert_string_equal(zen_table_for(0x17, 0x31), "zen2");	/* Rome */
	assert_string_equal(zen_table_for(0x17, 0x71), "zen2");	/* Matisse */
	assert_string_equal(zen_table_for(0x19, 0x01), "zen3");	/* Milan */
	assert_string_equal(zen_table_for(0x19, 0x21), "zen3");	/* Vermeer */
	assert_string_equal(zen_table_for(0x19, 0x50), "zen3");	/* Cezanne */
	assert_string_equal(zen_table_for(0x19, 0x11), "zen4");	/* Genoa */
	assert_string_equal(zen_table_for(0x19, 0x31), "zen4");	/* not [245]x */
	assert_string_equal(zen_table_for(0x19, 0x61), "zen4");	/* Raphael */
	assert_string_equal(zen_table_for(0x19, 0xa0), "zen4");	/* Bergamo */
	assert_string_equal(zen_table_for(0x1a, 0x02), "zen5");	/* Turin */
	assert_string_equal(zen_table_for(0x1a, 0x44), "zen5");	/* Granite Ridge */
	assert_string_equal(zen_table_for(0x15, 0x01), "none");	/* Bulldozer */
	assert_string_equal(zen_table_for(0x1b, 0x00), "none");

	/* The signature of an Intel part, or a part without counters, gets
	 * no Zen table. */
	struct pmu_caps c = zen_caps(0x19, 0x11);
	c.amd = false, c.intel = true;
	assert_null(event_table_for_caps(&c));
	c = zen_caps(0x19, 0x11);
	c.num_gp = 0;
	assert_null(event_table_for_caps(&c));
	assert_ptr_equal(event_table_for_cpu(0x19, 0x61, 2, 0, 0), table("zen4"));
	/* Llano is family 12h = 18, Nova Lake's family number at Intel: a
	 * table goes to its own vendor's CPUs only. */
	struct pmu_caps llano = zen_caps(0x12, 0x01);
	assert_ptr_equal(event_table_for_cpu(18, 0x01, 0, 0x40, 0), table("nvl"));
	assert_null(event_table_for_vendor(&llano, table("nvl")));
	assert_ptr_equal(event_table_for_vendor(&llano, table("zen4")), table("zen4"));
	llano.amd = false, llano.intel = true;
	assert_null(event_table_for_vendor(&llano, table("zen4")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_icx_l3_miss),
		cmocka_unit_test(test_skl_prec_dist_gp1),
		cmocka_unit_test(test_spr_constraints),
		cmocka_unit_test(test_spr_offcore),
		cmocka_unit_test(test_fixed_counters),
		cmocka_unit_test(test_umask_ext),
		cmocka_unit_test(test_find_any_case_and_sorted),
		cmocka_unit_test(test_model_lookup),
		cmocka_unit_test(test_table_names),
		cmocka_unit_test(test_names_unpack_alone),
		cmocka_unit_test(test_older_file_conventions),
		cmocka_unit_test(test_offcore_masks_cover_the_files),
		cmocka_unit_test(test_zen_lookup_per_generation),
		cmocka_unit_test(test_zen_12bit_event_codes),
		cmocka_unit_test(test_zen_counter_pair),
		cmocka_unit_test(test_zen_model_choice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
