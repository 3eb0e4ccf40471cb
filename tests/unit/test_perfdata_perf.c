/* perf.data files from perfdata/perfdata.c, read by the real Linux perf (6.1 as
 * Debian's linux-perf ships it). The symbols come from a small ELF built at
 * test time with the same shape as build/bareperf.elf: a shared object
 * whose executable PT_LOAD has p_vaddr != p_offset, "loaded" at a firmware
 * style base address (perf maps an address through the PT_LOAD's
 * p_vaddr and p_offset, tools/perf/util/map.c).
 * Without perf on PATH every test fails and says so. */
#include "test.h"
#include <elf.h>
#include <unistd.h>
#include "arch/msr.h"
#include "perfdata/perfdata.h"
#include "test_perfdata.h"
#include "report_rows.h"

static const char target_src[] =
	"volatile long sink;\n"
	"long table[4096];\n"
	"__attribute__((noinline)) void func_a(void) { for (int i = 0; i < 100; i++) sink += table[i]; }\n"
	"__attribute__((noinline)) void func_b(void) { for (int i = 0; i < 100; i++) sink -= table[i]; }\n"
	"void run(void) { func_a(); func_b(); }\n";

/* bareperf's linker.ld in miniature: headers first, page-aligned .text. */
static const char target_lds[] =
	"SECTIONS {\n"
	"  . = 0;\n"
	"  .hash : { *(.hash) } .gnu.hash : { *(.gnu.hash) }\n"
	"  .dynsym : { *(.dynsym) } .dynstr : { *(.dynstr) }\n"
	"  . = ALIGN(4096); .text : { *(.text) *(.text.*) }\n"
	"  . = ALIGN(4096); .data : { *(.rodata*) *(.data) *(.bss) *(COMMON) }\n"
	"  .dynamic : { *(.dynamic) }\n"
	"}\n";

#define LOAD_BASE 0x7e4d6000ULL	/* where "firmware" put the image */

static struct {
	char dir[64];
	char elf[128];
	u64 text_vaddr, text_offset, text_size;	/* the executable PT_LOAD */
	u64 func_a, func_b, run, table;		/* link addresses */
	bool have_perf;
} fx;

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static u8 *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	u8 *buf;
	long n;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n + 1);
	*len = fread(buf, 1, n, f);
	buf[*len] = 0;
	fclose(f);
	return buf;
}

/* Reads the executable PT_LOAD and the symbols the tests sample. */
static int read_target_elf(void)
{
	size_t len;
	u8 *img = slurp(fx.elf, &len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Shdr *sh;
	if (!img || len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return -1;
	for (int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr *ph = (Elf64_Phdr *)(img + eh->e_phoff + i * eh->e_phentsize);
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			fx.text_vaddr = ph->p_vaddr;
			fx.text_offset = ph->p_offset;
			fx.text_size = ph->p_memsz;
		}
	}
	sh = (Elf64_Shdr *)(img + eh->e_shoff);
	for (int i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		const char *names = (const char *)img + sh[sh[i].sh_link].sh_offset;
		Elf64_Sym *sym = (Elf64_Sym *)(img + sh[i].sh_offset);
		for (size_t k = 0; k < sh[i].sh_size / sizeof(*sym); k++) {
			const char *n = names + sym[k].st_name;
			u64 *slot = !strcmp(n, "func_a") ? &fx.func_a : !strcmp(n, "func_b") ? &fx.func_b :
				    !strcmp(n, "run") ? &fx.run : !strcmp(n, "table") ? &fx.table : NULL;
			if (slot)
				*slot = sym[k].st_value;
		}
	}
	free(img);
	return fx.text_size && fx.func_a && fx.func_b && fx.run && fx.table ? 0 : -1;
}

static int setup(void **state)
{
	char cmd[512];
	strcpy(fx.dir, "/tmp/bp-perfdata-XXXXXX");
	if (!mkdtemp(fx.dir))
		return -1;
	snprintf(fx.elf, sizeof(fx.elf), "%s/target.so", fx.dir);
	snprintf(cmd, sizeof(cmd), "%s/target.c", fx.dir);
	write_text(cmd, target_src);
	snprintf(cmd, sizeof(cmd), "%s/target.lds", fx.dir);
	write_text(cmd, target_lds);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && gcc -g -O1 -fpic -shared -nostdlib -Wl,-T,target.lds -o target.so target.c",
		 fx.dir);
	if (system(cmd) != 0 || read_target_elf() != 0)
		return -1;
	/* The case where p_vaddr and p_offset differ must be what we test. */
	if (fx.text_vaddr == fx.text_offset)
		return -1;
	fx.have_perf = system("perf --version >/dev/null 2>&1") == 0;
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	if (getenv("BP_KEEP_TMP"))	/* to look at the files perf read */
		return 0;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", fx.dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void require_perf(void)
{
	if (!fx.have_perf)
		fail_msg("`perf` not found on PATH: these tests need Linux perf "
			 "(Debian/Ubuntu: apt-get install linux-perf)");
}

/* Run-time address of a link address inside the image. */
static u64 runtime(u64 link) { return LOAD_BASE + link; }

/* ---- writing files ------------------------------------------------------ */

static int file_append(void *ctx, const void *data, size_t len)
{
	return fwrite(data, 1, len, ctx) == len ? 0 : -1;
}

static int file_write_at(void *ctx, u64 offset, const void *data, size_t len)
{
	FILE *f = ctx;
	long end = ftell(f);
	int ok = fseek(f, (long)offset, SEEK_SET) == 0 && fwrite(data, 1, len, f) == len;
	return ok && fseek(f, end, SEEK_SET) == 0 ? 0 : -1;
}

struct out_file {
	FILE *f;
	struct perfdata_sink sink;
	struct perfdata *pd;
	char path[160];
};

/* An Ice Lake-SP core's caches, as its CPUID.04H gives them. */
static const struct perfdata_cache icx_caches[] = {
	{ .level = 1, .line_size = 64, .sets = 64, .ways = 12, .type = "Data", .size = 48 << 10 },
	{ .level = 1, .line_size = 64, .sets = 64, .ways = 8, .type = "Instruction", .size = 32 << 10 },
	{ .level = 2, .line_size = 64, .sets = 1024, .ways = 20, .type = "Unified", .size = 1280 << 10 },
	{ .level = 3, .line_size = 64, .sets = 49152, .ways = 12, .type = "Unified",
	  .size = 36864ULL << 10 },
};
static const struct perfdata_pmu_cap icx_pmu_caps[] = { { "max_precise", "3" } };

static const struct perfdata_config perf_cfg = {
	.nr_caches = 4, .caches = icx_caches,
	.nr_pmu_caps = 1, .pmu_caps = icx_pmu_caps,
	.tsc_hz = 2000000000ULL,
	.cpudesc = "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz",
	.cpuid = "GenuineIntel,6,106,6",
	.nr_cpus_online = 2,
	.hostname = "uefi",
	.osrelease = "EDK II",
	.version = "bareperf test",
	.total_mem_kb = 4194304,
	.free_mem_kb = 1048576,
};

static const struct perfdata_event insts_ev = {
	.name = "inst_retired.any", .type = PERF_TYPE_RAW, .config = 0xc0,
	.sample_period = 200003,
	.sample_type = BP_SAMPLE_IP | BP_SAMPLE_TID | BP_SAMPLE_TIME |
		       BP_SAMPLE_PERIOD,
};

/* Opens F in the scratch dir with the given events, COMM and MMAP2, as
 * the CPU cfg describes. */
static void out_open_cfg(struct out_file *o, const struct perfdata_config *cfg, const char *name,
			 const char *mmap_name, const struct perfdata_event *const *evs, int nr)
{
	struct perfdata_mmap m = { mmap_name ? mmap_name : fx.elf, runtime(fx.text_vaddr),
				   fx.text_size, fx.text_offset };
	snprintf(o->path, sizeof(o->path), "%s/%s", fx.dir, name);
	o->f = fopen(o->path, "w+b");
	assert_non_null(o->f);
	o->sink = (struct perfdata_sink){ .append = file_append, .write_at = file_write_at, .ctx = o->f };
	o->pd = perfdata_open(&o->sink, cfg, NULL, 0);
	assert_non_null(o->pd);
	for (int i = 0; i < nr; i++)
		assert_int_equal(perfdata_add_event(o->pd, evs[i]), i);
	assert_int_equal(perfdata_comm(o->pd), 0);
	assert_int_equal(perfdata_mmap2(o->pd, &m), 0);
}

static void out_open(struct out_file *o, const char *name, const char *mmap_name,
		     const struct perfdata_event *const *evs, int nr)
{
	out_open_cfg(o, &perf_cfg, name, mmap_name, evs, nr);
}

static void out_close(struct out_file *o, bool finish)
{
	if (finish)
		assert_int_equal(perfdata_finish(o->pd), 0);
	assert_int_equal(perfdata_status(o->pd), 0);
	perfdata_close(o->pd);
	fclose(o->f);
}

static void sample_at(struct out_file *o, u32 event, u64 link_ip, u64 n)
{
	struct bp_sample s = { 0 };
	s.event = event;
	s.ip = runtime(link_ip);
	s.tsc = 1000000 + n * 977;
	s.period = event ? 200003 : 100003;
	s.flags = BP_SAMPLE_TIME | BP_SAMPLE_EXACT_IP | BP_SAMPLE_CALLCHAIN;
	/* Called from run(): a return address inside it. */
	s.callchain_len = 1;
	s.callchain[0] = runtime(fx.run + 5);
	assert_int_equal(perfdata_sample(o->pd, &s), 0);
}

/* ---- running perf ------------------------------------------------------- */

struct perf_out {
	char *out, *err;
};

/* Runs `perf ARGS` with HOME in the scratch dir (perf keeps no cache in
 * the user's ~/.debug; perf report has no --no-buildid-cache option). */
static struct perf_out run_perf(const char *args)
{
	char cmd[1024], path[192];
	struct perf_out r;
	size_t len;
	snprintf(cmd, sizeof(cmd), "cd %s && HOME=%s perf %s >stdout.txt 2>stderr.txt",
		 fx.dir, fx.dir, args);
	if (system(cmd) != 0)
		print_message("# perf %s: non-zero exit\n", args);
	snprintf(path, sizeof(path), "%s/stdout.txt", fx.dir);
	r.out = (char *)slurp(path, &len);
	snprintf(path, sizeof(path), "%s/stderr.txt", fx.dir);
	r.err = (char *)slurp(path, &len);
	assert_non_null(r.out);
	assert_non_null(r.err);
	return r;
}

static void perf_out_free(struct perf_out *r)
{
	free(r->out);
	free(r->err);
}

static void assert_no_warnings(const struct perf_out *r)
{
	if (r->err[0])
		fail_msg("perf wrote to stderr:\n%s", r->err);
}

/* ---- tests ------------------------------------------------------------ */

/* Known shares: 70% func_a, 30% func_b for cycles; 25/75 for a second
 * event. perf must resolve both through the MMAP2 (pgoff = the PT_LOAD's
 * p_offset while p_vaddr differs), name both events from EVENT_DESC, and
 * warn about nothing. Tolerance: 0.5 points (the shares are exact here;
 * perf prints two decimals). */
static void test_report_shares_and_names(void **state)
{
	const struct perfdata_event *evs[] = { &cycles_ev, &insts_ev };
	struct out_file o;
	struct perf_out r;
	char args[256];

	require_perf();
	out_open(&o, "shares.data", NULL, evs, 2);
	for (int i = 0; i < 1000; i++)
		sample_at(&o, 0, (i % 10 < 7 ? fx.func_a : fx.func_b) + 4, i);
	for (int i = 0; i < 400; i++)
		sample_at(&o, 1, (i % 4 == 0 ? fx.func_a : fx.func_b) + 2, i);
	out_close(&o, true);
	/* Self shares: with callchains in the file perf defaults to
	 * --children, where the first column is inclusive. */
	snprintf(args, sizeof(args), "report --stdio --no-children -i %s", o.path);
	r = run_perf(args);
	assert_no_warnings(&r);
	assert_non_null(strstr(r.out, "# Samples: 1000  of event 'cycles:pp'"));
	assert_non_null(strstr(r.out, "# Samples: 400  of event 'inst_retired.any'"));
	assert_float_equal(report_share(r.out, "cycles:pp", "func_a"), 70.0, 0.5);
	assert_float_equal(report_share(r.out, "cycles:pp", "func_b"), 30.0, 0.5);
	assert_float_equal(report_share(r.out, "inst_retired.any", "func_a"), 25.0, 0.5);
	assert_float_equal(report_share(r.out, "inst_retired.any", "func_b"), 75.0, 0.5);
	assert_non_null(strstr(r.out, "bareperf"));	/* the COMM */
	perf_out_free(&r);

	/* The header perf shows: features from the writer. */
	snprintf(args, sizeof(args), "report --stdio --header-only -i %s", o.path);
	r = run_perf(args);
	assert_no_warnings(&r);
	assert_non_null(strstr(r.out, "# cpuid : GenuineIntel,6,106,6"));
	assert_non_null(strstr(r.out, "# arch : x86_64"));
	assert_non_null(strstr(r.out, "# nrcpus online : 2"));
	assert_non_null(strstr(r.out, "# cpudesc : Intel(R) Xeon(R) Platinum 8380"));
	assert_non_null(strstr(r.out, "name = cycles:pp"));
	assert_non_null(strstr(r.out, "precise_ip = 2"));
	/* CPU_PMU_CAPS and CACHE (issue 39 item 22; the caches with -I). */
	assert_non_null(strstr(r.out, "# cpu pmu capabilities: max_precise=3"));
	assert_non_null(strstr(r.out, "# CACHE info available"));
	perf_out_free(&r);
	/* the node's free memory (issue 39 item 22: it read 0 kB); perf
	 * shows NUMA_TOPOLOGY with -I */
	snprintf(args, sizeof(args), "report --stdio --header-only -I -i %s", o.path);
	r = run_perf(args);
	assert_non_null(strstr(r.out, "node0 meminfo  : total = 4194304 kB, free = 1048576 kB"));
	/* A CPU's own L1 and L2 for each of the 2 CPUs, one L3 for both. */
	assert_non_null(strstr(r.out, "# CPU cache info:\n#  L1 Data                 48K [0]\n"
				      "#  L1 Data                 48K [1]\n"
				      "#  L1 Instruction          32K [0]\n"
				      "#  L1 Instruction          32K [1]\n"
				      "#  L2 Unified            1280K [0]\n"
				      "#  L2 Unified            1280K [1]\n"
				      "#  L3 Unified           36864K [0-1]\n"));
	perf_out_free(&r);
}

/* The device records a path of its own ("/bareperf.elf"); --symfs DIR
 * makes perf open DIR/bareperf.elf. */
static void test_report_with_symfs(void **state)
{
	const struct perfdata_event *evs[] = { &cycles_ev };
	struct out_file o;
	struct perf_out r;
	char args[256];

	require_perf();
	out_open(&o, "symfs.data", "/target.so", evs, 1);
	for (int i = 0; i < 100; i++)
		sample_at(&o, 0, fx.func_b + 3, i);
	out_close(&o, true);
	snprintf(args, sizeof(args), "report --stdio --symfs %s -i %s", fx.dir, o.path);
	r = run_perf(args);
	assert_no_warnings(&r);
	assert_float_equal(report_share(r.out, "cycles:pp", "func_b"), 100.0, 0.01);
	perf_out_free(&r);
}

/* -g data: perf's call graph puts run() above func_a. */
static void test_report_callchain(void **state)
{
	const struct perfdata_event *evs[] = { &cycles_ev };
	struct out_file o;
	struct perf_out r;
	char args[256];

	require_perf();
	out_open(&o, "callchain.data", NULL, evs, 1);
	for (int i = 0; i < 100; i++)
		sample_at(&o, 0, fx.func_a + 3, i);
	out_close(&o, true);
	snprintf(args, sizeof(args), "report --stdio --children -i %s", o.path);
	r = run_perf(args);
	assert_no_warnings(&r);
	/* Children: run() accounts for all of its callee's samples. */
	assert_float_equal(report_share(r.out, "cycles:pp", "run"), 100.0, 0.01);
	assert_non_null(strstr(r.out, "---run"));
	perf_out_free(&r);
}

static void write_load_latency(struct out_file *o, const char *name, u64 *total_weight)
{
	const struct perfdata_event *evs[] = { &loads_ev };
	*total_weight = 0;
	out_open(o, name, NULL, evs, 1);
	for (int i = 0; i < 50; i++) {
		struct bp_sample s = { 0 };
		s.ip = runtime(fx.func_b + 4);
		s.tsc = 5000 + i;
		s.period = 1000;
		s.addr = runtime(fx.table) + 8 * i;
		s.weight = 30 + i;
		s.data_src = 0x68100142;	/* load, L1 hit, no snoop, TLB L1/L2 hit */
		s.flags = BP_SAMPLE_TIME | BP_SAMPLE_EXACT_IP | BP_SAMPLE_ADDR |
			  BP_SAMPLE_WEIGHT | BP_SAMPLE_DATA_SRC;
		*total_weight += s.weight;
		assert_int_equal(perfdata_sample(o->pd, &s), 0);
	}
	out_close(o, true);
}

static void test_script_load_latency(void **state)
{
	struct out_file o;
	struct perf_out r;
	char args[256], expect[64];
	u64 weight;

	require_perf();
	write_load_latency(&o, "ldlat.data", &weight);
	snprintf(args, sizeof(args), "script -F ip,sym,addr,weight,data_src -i %s", o.path);
	r = run_perf(args);
	assert_no_warnings(&r);
	/* Sample 1: address table + 8, weight 31. */
	snprintf(expect, sizeof(expect), "%llx", (unsigned long long)runtime(fx.table) + 8);
	assert_non_null(strstr(r.out, expect));
	assert_non_null(strstr(r.out, "68100142 |OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit"));
	assert_non_null(strstr(r.out, " 31 "));
	assert_non_null(strstr(r.out, "func_b"));
	perf_out_free(&r);
}

/* IBS op samples as Linux's perf_ibs_handle_irq stores them: the ibs_op
 * PMU's type named in HEADER_PMU_MAPPINGS, PERF_SAMPLE_RAW holding the
 * IBS caps and then IBS_OP_CTL .. IBS_DC_PHYSADDR, IBS_BR_TARGET. perf
 * report -D decodes them with its AMD IBS decoder (tools/perf/util/
 * amd-sample-raw.c: an AuthenticAMD cpuid, an ibs_op mapping, En and Val
 * set in the control word). */
static const struct perfdata_config amd_cfg = {
	.tsc_hz = 2000000000ULL, .cpudesc = "AMD EPYC 9654 96-Core Processor",
	.cpuid = "AuthenticAMD,25,17,1", .nr_cpus_online = 2, .hostname = "uefi",
	.osrelease = "EDK II", .version = "bareperf test",
};
static const struct perfdata_event ibs_op_ev = {
	.name = "ibs_op//", .type = PERFDATA_TYPE_DYNAMIC + 1, .pmu_name = "ibs_op",
	.precise = 1, .sample_period = 100000,
	.sample_type = BP_SAMPLE_IP | BP_SAMPLE_TID | BP_SAMPLE_TIME | BP_SAMPLE_PERIOD |
		       BP_SAMPLE_RAW,
};

static void test_ibs_raw_samples_decoded(void **state)
{
	const struct perfdata_event *evs[] = { &ibs_op_ev };
	struct out_file o;
	struct perf_out r;
	char args[256], expect[64];
	struct bp_sample s = { 0 };

	require_perf();
	out_open_cfg(&o, &amd_cfg, "ibs.data", NULL, evs, 1);
	s.ip = runtime(fx.func_a);
	s.tsc = 1000000;
	s.period = 100000;
	s.flags = BP_SAMPLE_TIME | BP_SAMPLE_EXACT_IP | BP_SAMPLE_RAW;
	s.raw_head = 0xBFF;
	s.raw_words = 8;
	s.raw[0] = IBS_OP_ENABLE | IBS_OP_VAL | (100000 >> 4);
	s.raw[1] = s.ip;
	s.raw[4] = IBS_OP_DATA3_LD_OP | IBS_OP_DATA3_LIN_ADDR_VALID;
	s.raw[5] = 0xabc000;
	assert_int_equal(perfdata_sample(o.pd, &s), 0);
	out_close(&o, true);

	snprintf(args, sizeof(args), "report -D -i %s", o.path);
	r = run_perf(args);
	assert_non_null(strstr(r.out, "ibs_op_ctl:"));
	assert_non_null(strstr(r.out, "MaxCnt    100000 En 1 Val 1"));
	snprintf(expect, sizeof(expect), "IbsOpRip:\t%016llx", (unsigned long long)s.ip);
	assert_non_null(strstr(r.out, expect));
	assert_non_null(strstr(r.out, "IbsDCLinAd:\t0000000000abc000"));
	perf_out_free(&r);
	snprintf(args, sizeof(args), "script -F event,ip,sym -i %s", o.path);
	r = run_perf(args);
	assert_no_warnings(&r);
	if (!strstr(r.out, "ibs_op//") || !strstr(r.out, "func_a"))
		fail_msg("perf script: %s", r.out);
	perf_out_free(&r);
}

static void test_mem_report(void **state)
{
	struct out_file o;
	struct perf_out r;
	char args[256], expect[64];
	u64 weight;

	require_perf();
	write_load_latency(&o, "mem.data", &weight);
	snprintf(args, sizeof(args), "mem report --stdio -i %s", o.path);
	r = run_perf(args);
	assert_no_warnings(&r);
	snprintf(expect, sizeof(expect), "# Total weight : %llu", (unsigned long long)weight);
	assert_non_null(strstr(r.out, expect));
	assert_non_null(strstr(r.out, "of event 'mem-loads,ldlat=30:p'"));
	assert_non_null(strstr(r.out, "L1 hit"));
	assert_non_null(strstr(r.out, "[.] func_b"));
	perf_out_free(&r);
}

/* A run cut short: 600 samples, a flush, then 4000 more that reach the file
 * without a header update (the writer's buffer spills on its own), then
 * the file is cut mid-record and never finished. perf reads the 600. */
static void test_cut_short_file(void **state)
{
	const struct perfdata_event *evs[] = { &cycles_ev };
	struct out_file o;
	struct perf_out r;
	char args[256];
	long flushed;

	require_perf();
	out_open(&o, "cut.data", NULL, evs, 1);
	for (int i = 0; i < 600; i++)
		sample_at(&o, 0, (i % 3 ? fx.func_a : fx.func_b) + 4, i);
	assert_int_equal(perfdata_flush(o.pd), 0);
	fflush(o.f);
	flushed = ftell(o.f);
	for (int i = 0; i < 4000; i++)
		sample_at(&o, 0, fx.func_b + 4, 600 + i);
	fflush(o.f);
	assert_true(ftell(o.f) > flushed + 4096);
	assert_int_equal(ftruncate(fileno(o.f), ftell(o.f) - 20), 0);
	out_close(&o, false);
	snprintf(args, sizeof(args), "report --stdio --no-children -i %s", o.path);
	r = run_perf(args);
	assert_no_warnings(&r);
	assert_non_null(strstr(r.out, "# Samples: 600 "));
	/* No EVENT_DESC yet: perf names the event from the EVENT_UPDATE
	 * record the writer puts before the first sample (a cut
	 * file named it "raw 0x3c:upp"). */
	assert_non_null(strstr(r.out, "of event 'cycles:pp'"));
	assert_float_equal(report_share(r.out, "cycles:pp", "func_a"), 66.67, 0.5);
	perf_out_free(&r);
}

static unsigned count_text(const char *s, const char *what)
{
	unsigned n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* FINISHED_ROUND after each pass (issue 39 item 22): perf's ordered
 * events flush what is older than the previous round's newest sample
 * as they read. A pass may hold samples older than the previous pass's
 * newest (another CPU's ring read later), as perf's mmap passes do; perf
 * must take them all without "Timestamp below last timeslice flush". A
 * round with no sample since the last one is not written. */
static void test_finished_rounds(void **state)
{
	const struct perfdata_event *evs[] = { &cycles_ev };
	struct out_file o;
	struct perf_out r;
	char args[256];

	require_perf();
	out_open(&o, "rounds.data", NULL, evs, 1);
	static const u64 pass_times[3][4] = { { 10, 20, 30, 40 }, { 35, 50, 60, 70 },
					       { 65, 80, 90, 100 } };
	for (int pass = 0; pass < 3; pass++) {
		for (int i = 0; i < 4; i++)
			sample_at(&o, 0, (i % 2 ? fx.func_a : fx.func_b) + 4, pass_times[pass][i]);
		assert_int_equal(perfdata_finished_round(o.pd), 0);
		assert_int_equal(perfdata_finished_round(o.pd), 0);	/* nothing new: no record */
	}
	out_close(&o, true);
	snprintf(args, sizeof(args), "report -D -i %s", o.path);
	r = run_perf(args);
	assert_int_equal(count_text(r.out, "PERF_RECORD_FINISHED_ROUND"), 3);
	perf_out_free(&r);
	snprintf(args, sizeof(args), "report --stdio --no-children -i %s", o.path);
	r = run_perf(args);
	assert_no_warnings(&r);
	assert_non_null(strstr(r.out, "# Samples: 12  of event 'cycles:pp'"));
	assert_float_equal(report_share(r.out, "cycles:pp", "func_a"), 50.0, 0.01);
	perf_out_free(&r);
}

/* LOST_SAMPLES goes to perf report's header line; LOST (per event id) is
 * perf's ring-overflow record, which it always warns about. */
static void test_lost_records(void **state)
{
	const struct perfdata_event *evs[] = { &cycles_ev };
	struct out_file o;
	struct perf_out r;
	char args[256];

	require_perf();
	out_open(&o, "lost.data", NULL, evs, 1);
	for (int i = 0; i < 200; i++)
		sample_at(&o, 0, fx.func_a + 4, i);
	assert_int_equal(perfdata_lost_samples(o.pd, 7), 0);
	assert_int_equal(perfdata_lost(o.pd, 0, 3), 0);
	out_close(&o, true);
	snprintf(args, sizeof(args), "report --stdio -i %s", o.path);
	r = run_perf(args);
	assert_non_null(strstr(r.out, "# Total Lost Samples: 7"));
	assert_non_null(strstr(r.err, "lost 1 chunks"));
	assert_float_equal(report_share(r.out, "cycles:pp", "func_a"), 100.0, 0.01);
	perf_out_free(&r);
}

/* perf annotate finds the source of func_a through the same mapping. */
static void test_annotate(void **state)
{
	const struct perfdata_event *evs[] = { &cycles_ev };
	struct out_file o;
	struct perf_out r;
	char args[256];

	require_perf();
	out_open(&o, "annotate.data", NULL, evs, 1);
	for (int i = 0; i < 100; i++)
		sample_at(&o, 0, fx.func_a + 4, i);
	out_close(&o, true);
	snprintf(args, sizeof(args), "annotate --stdio -i %s func_a", o.path);
	r = run_perf(args);
	assert_non_null(strstr(r.out, "Percent"));
	assert_non_null(strstr(r.out, "sink += table[i]"));
	perf_out_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_shares_and_names),
		cmocka_unit_test(test_report_with_symfs),
		cmocka_unit_test(test_report_callchain),
		cmocka_unit_test(test_script_load_latency),
		cmocka_unit_test(test_mem_report),
		cmocka_unit_test(test_ibs_raw_samples_decoded),
		cmocka_unit_test(test_cut_short_file),
		cmocka_unit_test(test_lost_records),
		cmocka_unit_test(test_finished_rounds),
		cmocka_unit_test(test_annotate),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
