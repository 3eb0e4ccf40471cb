/* `bareperf list`: model choice through the hardware seam (a fake CPU that
 * answers CPUID like a real one), the architectural fallback, --cpu,
 * patterns and the JSON form. Output is captured from stdout/stderr. */
#include "test.h"
#include <time.h>
#include <unistd.h>
#include "cmd/cli.h"
#include "arch/hw.h"
#include "arch/msr.h"

extern const struct command cmd_list;

/* The fake CPU: what CPUID returns. */
static struct {
	u32 signature;		/* CPUID.01H:EAX */
	bool hybrid;
	u32 leaf1a_eax;		/* core type [31:24], native model [23:0] */
	struct cpuid_regs leaf0a;
} cpu;

static void fake_cpuid(u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
	memset(r, 0, sizeof(*r));
	switch (leaf) {
	case 0x0:
		r->eax = 0x1a;
		memcpy(&r->ebx, "Genu", 4);
		memcpy(&r->edx, "ineI", 4);
		memcpy(&r->ecx, "ntel", 4);
		break;
	case 0x1: r->eax = cpu.signature; break;
	case 0x7: r->edx = cpu.hybrid ? CPUID_07_EDX_HYBRID : 0; break;
	case 0xa: *r = cpu.leaf0a; break;
	case 0x1a: r->eax = cpu.leaf1a_eax; break;
	default: break;
	}
}

static int fake_rdmsr(u32 msr, u64 *val, struct hw_fault *f) { return 1; }
static int fake_wrmsr(u32 msr, u64 val, struct hw_fault *f) { return 1; }
static u32 fake_mmio_read32(u64 addr) { return 0; }
static void fake_mmio_write32(u64 addr, u32 val) {}

static const struct hw_ops fake_ops = {
	.name = "fake", .emulated = true, .cpuid = fake_cpuid,
	.rdmsr = fake_rdmsr, .wrmsr = fake_wrmsr,
	.mmio_read32 = fake_mmio_read32, .mmio_write32 = fake_mmio_write32,
};

/* CPUID.0AH of a version-5 PMU: n GP counters of 48 bits, fixed bitmap,
 * EBX = unavailable architectural events. */
static void set_pmu(unsigned gp, u32 fixed_bitmap, u32 unavailable)
{
	cpu.leaf0a.eax = 5 | gp << 8 | 48 << 16 | 8u << 24;
	cpu.leaf0a.ebx = unavailable;
	cpu.leaf0a.ecx = fixed_bitmap;
	cpu.leaf0a.edx = 4 | 48 << 5;
}

static char out[1 << 20], errs[4096];

/* Runs `list ARGS...` against the fake CPU; captures stdout and stderr. */
static int run_list(const char *a1, const char *a2, const char *a3, const char *a4)
{
	char *argv[6] = { "list", (char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL };
	int argc = 1;
	while (argc < 5 && argv[argc])
		argc++;
	FILE *fo = tmpfile(), *fe = tmpfile();
	int saved_out = dup(1), saved_err = dup(2);
	struct global_opts g = { .pmu = "hw" };

	fflush(stdout);
	fflush(stderr);
	dup2(fileno(fo), 1);
	dup2(fileno(fe), 2);
	hw_select(&fake_ops);
	int rc = cmd_list.run(argc, argv, &g);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	rewind(fo);
	rewind(fe);
	out[fread(out, 1, sizeof(out) - 1, fo)] = 0;
	errs[fread(errs, 1, sizeof(errs) - 1, fe)] = 0;
	fclose(fo);
	fclose(fe);
	return rc;
}

/* CPUID.01H:EAX for family 6: extended model [19:16], model [7:4]. */
static u32 sig6(u32 model, u32 stepping)
{
	return (model >> 4) << 16 | 6 << 8 | (model & 0xf) << 4 | stepping;
}

static int setup(void **state)
{
	memset(&cpu, 0, sizeof(cpu));
	set_pmu(8, 0xf, 0);
	return 0;
}

static void test_this_cpu_by_signature(void **state)
{
	cpu.signature = sig6(0x6a, 6);	/* Ice Lake server */
	assert_int_equal(run_list("l3_miss", NULL, NULL, NULL), EXIT_OK);
	assert_non_null(strstr(out, "*** EMULATED PMU (fake)"));
	assert_non_null(strstr(out, "Events of icx:"));
	assert_non_null(strstr(out, "mem_load_retired.l3_miss "));
	assert_non_null(strstr(out, "[event=0xd1,umask=0x20, precise]"));
	assert_null(strstr(out, "l2_miss"));
}

/* Hybrid: the table follows CPUID.1AH of the CPU the code runs on. */
static void test_hybrid_core_type(void **state)
{
	cpu.signature = sig6(0x97, 2);	/* Alder Lake */
	cpu.hybrid = true;
	cpu.leaf1a_eax = CPUID_1A_CORE_TYPE_CORE << 24 | 1;
	assert_int_equal(run_list("topdown.slots", NULL, NULL, NULL), EXIT_OK);
	assert_non_null(strstr(out, "Events of adl:"));
	assert_non_null(strstr(out, "topdown.slots "));

	cpu.leaf1a_eax = CPUID_1A_CORE_TYPE_ATOM << 24 | 1;
	assert_int_equal(run_list("topdown", NULL, NULL, NULL), EXIT_OK);
	assert_non_null(strstr(out, "Events of adl-e:"));
	assert_null(strstr(out, "topdown.slots "));

	/* Arrow Lake 6-C5: two E-core kinds, told apart by native model. */
	cpu.signature = sig6(0xc5, 2);
	cpu.leaf1a_eax = CPUID_1A_CORE_TYPE_ATOM << 24 | 2;
	assert_int_equal(run_list("zzz", NULL, NULL, NULL), EXIT_OK);
	assert_non_null(strstr(out, "Events of arl-lpe:"));
	assert_non_null(strstr(out, "no event matches 'zzz'"));
}

/* A model the tables lack: the architectural events CPUID.0AH reports,
 * on the counters it enumerates (branch mispredicts marked unavailable). */
static void test_unknown_model_arch_only(void **state)
{
	cpu.signature = sig6(0x99, 1);
	set_pmu(2, 0x7, 1u << ARCH_EVENT_BRANCH_MISSES);
	assert_int_equal(run_list("--json", NULL, NULL, NULL), EXIT_OK);
	assert_non_null(strstr(out, "\"cpu\": \"arch\""));
	assert_non_null(strstr(out, "\"name\": \"cycles\""));
	assert_non_null(strstr(out, "\"name\": \"ref-cycles\""));
	assert_null(strstr(out, "branch-misses"));
	assert_null(strstr(out, "EMULATED"));	/* no banner inside JSON */
	assert_non_null(strstr(out, "\"counters\": [0,1], \"fixed_counters\": [1]"));

	assert_int_equal(run_list(NULL, NULL, NULL, NULL), EXIT_OK);
	assert_non_null(strstr(out, "architectural events of CPUID.0AH only"));
}

static void test_no_pmu(void **state)
{
	cpu.signature = sig6(0x6a, 6);
	memset(&cpu.leaf0a, 0, sizeof(cpu.leaf0a));	/* QEMU TCG: leaf 0AH = 0 */
	assert_int_equal(run_list(NULL, NULL, NULL, NULL), EXIT_NO_PMU);
	assert_non_null(strstr(errs, "reports no PMU"));
	assert_non_null(strstr(errs, "--cpu MODEL"));
	/* --cpu still works without a PMU. */
	assert_int_equal(run_list("--cpu", "skx", "prec_dist", NULL), EXIT_OK);
	assert_non_null(strstr(out, "Events of skx:"));
}

static void test_cpu_option_and_json(void **state)
{
	assert_int_equal(run_list("--cpu=icx", "--json", "MEM_LOAD_RETIRED.L3_MISS", NULL), EXIT_OK);
	assert_int_equal(count_substr(out, "\"name\":"), 1);
	assert_non_null(strstr(out, "\"event\": \"0xd1\", \"umask\": \"0x20\""));
	assert_non_null(strstr(out, "\"counters\": [0,1,2,3], \"fixed_counters\": [], "
			       "\"pebs_counters\": [0,1,2,3]"));
	assert_non_null(strstr(out, "\"data_la\": true"));
	assert_non_null(strstr(out, "\"sample_after\": 50021"));
	assert_non_null(strstr(out, "]}\n"));

	/* Load latency: its extra MSR and value, taken alone. */
	assert_int_equal(run_list("--cpu", "spr", "--json", "*load_latency_gt_128"), EXIT_OK);
	assert_non_null(strstr(out, "\"taken_alone\": true, \"extra_msr\": \"0x3f6\", "
			       "\"extra_value\": \"0x80\""));

	/* A glob must match the whole name. */
	assert_int_equal(run_list("--cpu", "icx", "mem_load_retired.l?_miss", NULL), EXIT_OK);
	assert_int_equal(count_substr(out, "mem_load_retired.l"), 3);

	assert_int_equal(run_list("--cpu", "core2", NULL, NULL), EXIT_USAGE);
	assert_non_null(strstr(errs, "unknown --cpu 'core2'"));
	assert_non_null(strstr(errs, "known models: nhm, nhm-ex"));
	assert_non_null(strstr(errs, ", nvl, nvl-e, dmr, zen1, zen2, zen3, zen4, zen5\n"));	/* all */
	/* AMD: `list --cpu zen5` names its Linux source and 12-bit codes. */
	assert_int_equal(run_list("--cpu", "zen5", "--json", "*smt_contention"), EXIT_OK);
	assert_non_null(strstr(out, "{\"cpu\": \"zen5\""));
	assert_non_null(strstr(out, "\"source\": \"linux-6.12/amdzen5 v1\""));
	assert_non_null(strstr(out, "\"event\": \"0x1a0\", \"umask\": \"0x60\""));
	assert_non_null(strstr(out, "\"counters\": [0,1,2,3,4,5], \"fixed_counters\": []"));
	assert_int_equal(run_list("--cpu", "zen2", "cycles", NULL), EXIT_OK);
	assert_non_null(strstr(out, "[generic: event=0x76,umask=0x00]"));
	assert_int_equal(run_list("--bogus", NULL, NULL, NULL), EXIT_USAGE);
	assert_non_null(strstr(errs, "unknown option '--bogus'"));
	assert_int_equal(run_list("a", "b", NULL, NULL), EXIT_USAGE);
}

/* Several stars: each matches any run, and a pattern with many of them
 * takes time linear in the names, not exponential (fuzz_cli found
 * `list --cpu icx m****************"om*o*"` running for minutes). */
static void test_glob_many_stars(void **state)
{
	char pattern[64] = "m";
	assert_int_equal(run_list("--cpu", "icx", "mem*load*retired*l3*miss", NULL), EXIT_OK);
	assert_non_null(strstr(out, "mem_load_retired.l3_miss "));
	assert_null(strstr(out, "mem_load_retired.l2_miss "));
	assert_int_equal(run_list("--cpu", "icx", "*.l3_miss", NULL), EXIT_OK);
	assert_non_null(strstr(out, "mem_load_retired.l3_miss "));

	for (int i = 0; i < 40; i++)
		strcat(pattern, "*");
	strcat(pattern, "\"om*o*q");
	clock_t start = clock();
	assert_int_equal(run_list("--cpu", "icx", pattern, NULL), EXIT_OK);
	assert_non_null(strstr(out, "no event matches"));
	assert_true(clock() - start < 2 * CLOCKS_PER_SEC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_this_cpu_by_signature, setup),
		cmocka_unit_test_setup(test_hybrid_core_type, setup),
		cmocka_unit_test_setup(test_unknown_model_arch_only, setup),
		cmocka_unit_test_setup(test_no_pmu, setup),
		cmocka_unit_test_setup(test_cpu_option_and_json, setup),
		cmocka_unit_test_setup(test_glob_many_stars, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
