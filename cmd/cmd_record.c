/* `bareperf record -e LIST (-c PERIOD | -F FREQ) [-g] [--pebs-threshold
 * 1|N|max] [-o FILE] [--] WORKLOAD [ARGS]`: samples a built-in workload and
 * writes a perf.data file that perf reads. Samples stream from the ring to
 * the file on a timer while the workload runs; the header is rewritten
 * every second, so a run cut short still leaves a readable file. */
#include "cli.h"
#include "cpus.h"
#include "../sampling/percpu.h"
#include "backend.h"
#include "session.h"
#include "output.h"
#include "target.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/result.h"
#include "../perfdata/perfdata.h"
#include "../perfdata/perfdata_file.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../perfdata/symtab.h"
#include "../arch/hw.h"
#include "../arch/cache.h"
#include "../sampling/sampling.h"
#include "../pmu/arch.h"
#include "../pmu/precise.h"
#include "../workload/workload.h"

#define RECORD_DEFAULT_EVENTS "cycles"
#define RECORD_DEFAULT_FILE   "perf.data"
#define RECORD_PATH_MAX       240	/* with ".old"; the ESP path holds 255 characters */
/* -o's longest name: RECORD_PATH_MAX less ".old" and its NUL, as a plain
 * number for the message (CLI_NUMBER_TEXT). */
#define RECORD_NAME_MAX       235
_Static_assert(RECORD_NAME_MAX + sizeof(".old") == RECORD_PATH_MAX, "-o's longest name");
#define RECORD_POLL_MS        10
#define RECORD_BATCH          256
#define RECORD_PENDING_PASSES 25	/* drain passes between two pending counts */

struct record_opts {
	char events[CLI_EVENTS_MAX];
	const char *output;
	struct cmd_output out;	/* -o: the file, and whether and where it is sent */
	struct sampling_opts so;
	bool quiet;
	bool connect_all;
	bool all_cpus;		/* -a */
	const char *cpu_list;	/* -C LIST */
	u32 pebs_buffer_kib;	/* --pebs-buffer; 0: the default */
	int workload_at;
};

struct record_run {
	struct session s;
	struct percpu pc;
	struct pmu_event ev[SESSION_MAX_EVENTS];	/* this CPU's core type's (perf.data's attrs) */
	int n;
	struct percpu_types types;	/* the events of each core type sampled, ev's first */
	struct plat_file *file;
	struct perfdata_sink sink;
	struct perfdata *pd;
	u64 start, next_progress;
	u64 tsc_hz;		/* the seam's TSC ticks per second */
	bool quiet;
	bool write_failed;
	u32 images;
	u64 lost;			/* all CPUs, once they stopped */
	u64 cpu_samples[PERCPU_MAX];	/* delivered, per position in pc */
	u64 cpu_pending[PERCPU_MAX];	/* PEBS records waiting at the last count */
	bool cpu_filling[PERCPU_MAX];	/* ... and more than at the one before */
	u64 passes;			/* drain passes, for RECORD_PENDING_PASSES */
	u64 delivered;			/* all CPUs */
	const char *output;
	struct cmd_output out;		/* -o: where output is sent once written */
	int argc;			/* the command line, for perf.data */
	char **argv;
	bool ended;			/* record_end ran */
	int end_rc;
	bool kept_previous;		/* a recording was at output: now at output.old */
	bool discard;			/* the target did not start: nothing recorded */
	struct bp_sample batch[RECORD_BATCH];
};


/* ---- options ---------------------------------------------------------------- */

static int take_threshold(const char *cmd, const char *value, void *opts)
{
	struct record_opts *o = opts;
	char err[160];
	if (pebs_threshold_parse(value, &o->so.threshold, err, sizeof(err)))
		return 0;
	err_printf("bareperf %s: --pebs-threshold: %s\n", cmd, err);
	return -1;
}

static const char *const pmi_words[] = { "vector", "nmi", NULL };	/* so.pmi_nmi */

static const struct cli_option record_options[] = {
	{ .name = "--event", .short_name = "-e", .kind = CLI_EVENTS,
	  CLI_AT(struct record_opts, events) },
	{ .short_name = "-c", .kind = CLI_NUMBER, CLI_AT(struct record_opts, so.period),
	  /* The upper bound is the CPU's counters' (check_events): 2^47 - 1
	   * on 48-bit counters. */
	  .min = 2, .max = ~0ULL >> 1, .expect = "expected a period of 2 events or more (at most "
	  "what this CPU's counters take: 2^47 - 1 on 48-bit counters)" },
	{ .short_name = "-F", .kind = CLI_NUMBER, CLI_AT(struct record_opts, so.freq),
	  .min = 1, .max = 1000000, .expect = "expected a frequency from 1 to 1000000 Hz" },
	{ .name = "--pebs-threshold", .kind = CLI_CALL, .parse = take_threshold },
	{ .name = "--pebs-buffer", .kind = CLI_NUMBER, CLI_AT(struct record_opts, pebs_buffer_kib),
	  .min = 4, .max = 65536, .expect = "expected KiB from 4 to 65536" },
	{ .name = "--ring", .kind = CLI_NUMBER, CLI_AT(struct record_opts, so.ring_samples),
	  .min = 64, .max = 1u << 22, .expect = "expected a sample count from 64 to 4194304" },
	{ .short_name = "-o", .kind = CLI_STRING, CLI_AT(struct record_opts, output),
	  .min = 1, .max = RECORD_NAME_MAX,
	  .expect = "expected a file name of 1 to " CLI_NUMBER_TEXT(RECORD_NAME_MAX) " characters" },
	{ .short_name = "-g", .kind = CLI_FLAG, CLI_AT(struct record_opts, so.callchain) },
	{ .name = "--weight", .short_name = "-W", .kind = CLI_FLAG, CLI_AT(struct record_opts, so.weight) },
	{ .short_name = "-C", .kind = CLI_STRING, CLI_AT(struct record_opts, cpu_list) },
	{ .short_name = "-a", .kind = CLI_FLAG, CLI_AT(struct record_opts, all_cpus) },
	{ .name = "--connect-all", .kind = CLI_FLAG, CLI_AT(struct record_opts, connect_all) },
	{ .short_name = "-q", .kind = CLI_FLAG, CLI_AT(struct record_opts, quiet) },
	{ .name = "--pmi", .kind = CLI_ENUM, CLI_AT(struct record_opts, so.pmi_nmi),
	  .words = pmi_words,
	  .expect = "expected 'vector' (a fixed interrupt, the default) or 'nmi'" },
};

static const struct cli_spec record_spec = {
	.cmd = "record", .options = record_options, .count = ARRAY_SIZE(record_options),
	.dashdash_ends = true,
};

static int parse_opts(int argc, char **argv, struct record_opts *o)
{
	bp_memset(o, 0, sizeof(*o));
	o->output = RECORD_DEFAULT_FILE;
	o->workload_at = 1;
	int rc = cli_parse_options(&record_spec, argc, argv, &o->workload_at, o);
	if (rc != EXIT_OK)
		return rc;
	o->so.pebs_buffer_bytes = (size_t)o->pebs_buffer_kib * 1024;
	if ((rc = cmd_output_parse(&o->out, o->output, RECORD_DEFAULT_FILE, "record")) != EXIT_OK)
		return rc;
	o->output = o->out.file;
	if (o->all_cpus && o->cpu_list) {
		err_printf("bareperf record: -a and -C exclude each other\n");
		return EXIT_USAGE;
	}
	if (o->so.period && o->so.freq) {
		err_printf("bareperf record: -c and -F exclude each other\n");
		return EXIT_USAGE;
	}
	if (o->workload_at >= argc)
		o->workload_at = -1;
	if (o->workload_at < 0 && !o->connect_all) {
		err_printf("bareperf record: no workload given (built-in: %s; "
			   "\\PATH\\APP.EFI [ARGS]; bs:NAME [LOOPS]; --connect-all)\n",
			   workload_names());
		return EXIT_USAGE;
	}
	if (!o->events[0])
		bp_strlcpy(o->events, RECORD_DEFAULT_EVENTS, sizeof(o->events));
	return EXIT_OK;
}

/* ---- CPUs -------------------------------------------------------------------------- */

/* Whether a CPU's IA32_DS_AREA something else took (pmi_stats_add keeps
 * the first such CPU's value in the sum). */
static bool ds_area_lost(const struct record_run *r)
{
	u64 ours;
	const char *reg;
	return percpu_ds_area_lost(&r->pc, &ours, &reg);
}

/* ---- perf.data ---------------------------------------------------------------- */

/* TSC ticks per second, measured against the platform clock: the clock
 * that samples carry is the seam's (the model's TSC when emulated). */
static u64 calibrate_tsc(void)
{
	u64 tps = plat_ticks_per_second();
	u64 t0 = plat_ticks(), c0 = hw_rdtsc(), t1, c1;
	do {
		t1 = plat_ticks();
		c1 = hw_rdtsc();
	} while (t1 - t0 < tps / 50);	/* 20 ms */
	return (c1 - c0) * (tps / 1000) / ((t1 - t0) / 1000 ? (t1 - t0) / 1000 : 1);
}

/* Where IPs outside every image go (plat_unmapped_name): one mapping
 * under all the others, which perf splits around each image mapped after
 * it, so `perf report --sort dso` shows them as one entry. */
#define RECORD_UNMAPPED_END  (1ULL << 47)	/* the canonical lower half */

struct image_writer {
	struct record_run *r;
	u64 skip_base;		/* the application's, mapped by itself */
	int failed;
	u32 count;
};

static void write_image(const struct plat_image_info *img, void *ctx)
{
	struct image_writer *iw = ctx;
	if (img->base == iw->skip_base)
		return;
	struct perfdata_mmap m = {
		.filename = img->name, .start = img->base, .len = img->size, .pgoff = img->pgoff,
	};
	iw->failed |= perfdata_mmap2(iw->r->pd, &m);
	iw->count++;
}

/* The unmapped rest first, then every loaded image, the application, and our own
 * image last (its text, named by the ELF with our symbols). */
static int write_mappings(struct record_run *r, const struct target *t)
{
	struct perfdata_mmap rest = { .filename = plat_unmapped_name(), .start = 0,
				      .len = RECORD_UNMAPPED_END };
	struct image_writer iw = { .r = r, .skip_base = t->app ? t->image.base : ~0ULL };
	if (perfdata_comm(r->pd) || (rest.filename && perfdata_mmap2(r->pd, &rest)))
		return -1;
	plat_foreach_image(write_image, &iw);
	if (t->app)
		write_image(&t->image, &(struct image_writer){ .r = r, .skip_base = ~0ULL });
	struct perfdata_mmap self = {
		.filename = plat_image_path(),
		.start = plat_image_base() + symtab_header.text_vaddr,
		.len = symtab_header.text_size,
		.pgoff = symtab_header.text_offset,
	};
	r->images = iw.count;
	return iw.failed || perfdata_mmap2(r->pd, &self) ? -1 : 0;
}

/* A recording already at `path` moves to `path`.old first, as perf
 * record keeps perf.data.old: the new recording, which may yet fail,
 * never overwrites the last one (and put_back_previous returns it when
 * the target did not start). */
static int keep_previous(struct record_run *r, const char *path)
{
	char old[RECORD_PATH_MAX];
	if (plat_file_size(path) < 0)
		return 0;	/* nothing there */
	r->kept_previous = true;
	if (bp_snprintf(old, sizeof(old), "%s.old", path) >= (int)sizeof(old) ||
	    plat_file_rename(path, old)) {
		err_printf("bareperf record: cannot move the previous %s to %s.old (%s); it is left as "
			   "it was and nothing is recorded (remove it, or give another -o)\n", path, path,
			   plat_file_error());
		r->kept_previous = false;
		return -1;
	}
	return 0;
}

/* The target did not start, so the run recorded nothing of it: its file
 * goes, and the previous recording comes back from path.old, so that a
 * failing command, or two in a row, loses no recording. */
static void put_back_previous(struct record_run *r, const char *path)
{
	char old[RECORD_PATH_MAX];
	bp_snprintf(old, sizeof(old), "%s.old", path);
	if (plat_file_delete(path) ||
	    (r->kept_previous && plat_file_rename(old, path))) {
		err_printf("bareperf record: the target did not start, but %s could not be put "
			   "back as it was: %s%s\n", path, plat_file_error(),
			   r->kept_previous ? " (the previous recording is the .old)" : "");
		return;
	}
	out_printf("[ bareperf record: nothing recorded (the target did not start): %s ]\n",
		   r->kept_previous ? "the previous recording is back where it was"
				    : "no file written");
}

/* A cut-safe point on the disk. The firmware's FAT driver keeps writes in
 * its cache and stores them at Flush in no set order, so the records are
 * made durable first and only then the header that covers them: a cut in
 * between leaves the previous header, which covers less, all of it stored
 * (a kill 3 s into a run once found a header covering zeros). */
static int durable_flush(struct record_run *r)
{
	if (perfdata_push(r->pd) || plat_file_sync(r->file) || perfdata_flush(r->pd))
		return -1;
	return plat_file_sync(r->file);
}

/* The attr config (and config1) perf itself would write for the event on
 * the cpu PMU: the PMU architecture's (pmu/arch.h perf_config); an IBS
 * event on Linux's ibs_op or ibs_fetch PMU instead, a type of its own. */
static void attr_encoding(const struct pmu_arch *arch, const struct pmu_event *e,
			  struct perfdata_event *pe)
{
	pe->pmu_name = precise_ibs_perf_pmu(e, &pe->config);
	if (pe->pmu_name)
		pe->type = PERFDATA_TYPE_DYNAMIC + e->ibs;
	else
		pe->config = arch->perf_config(e, &pe->config1);
	pe->exclude_user = e->exclude_user;
	pe->exclude_kernel = e->exclude_kernel;
}

/* The leader's group size: its members follow it in r->ev. */
static u32 group_size(const struct record_run *r, int leader)
{
	u32 n = 0;
	for (int i = 0; i < r->n; i++)
		n += r->ev[i].group == leader;
	return r->ev[leader].group == leader ? n : 0;
}

static void add_build_id(struct record_run *r)
{
	u8 id[PERFDATA_BUILD_ID_MAX];
	u32 len = plat_image_build_id(id, sizeof(id));
	if (len)
		perfdata_build_id(r->pd, plat_image_path(), id, len);
}

/* HEADER_CACHE: the BSP's caches, as CPUID lists them. */
static u32 machine_caches(const struct pmu_caps *c, struct perfdata_cache out[PERFDATA_MAX_CACHES])
{
	struct cpu_cache cpu[PERFDATA_MAX_CACHES];
	u32 n = caches_read(c, cpu, PERFDATA_MAX_CACHES);
	for (u32 i = 0; i < n; i++)
		out[i] = (struct perfdata_cache){ .level = cpu[i].level, .line_size = cpu[i].line_size,
						  .sets = cpu[i].sets, .ways = cpu[i].ways,
						  .type = cache_type_name(cpu[i].type), .size = cpu[i].size };
	return n;
}

/* HEADER_CPU_PMU_CAPS: max_precise as Linux's cpu PMU reports it
 * (x86_pmu_max_precise): 3 where PEBS samples :ppp, 0 where precise
 * events go to IBS or nowhere. Linux's "branches" (the LBR depth) is
 * left out: bareperf records no branch stacks. */
static u32 cpu_pmu_caps(const struct pmu_caps *c, struct perfdata_pmu_cap out[PERFDATA_MAX_PMU_CAPS])
{
	const char *why;
	const struct precise_ops *engine = precise_engine_for(c, &why);
	bool pebs = engine == &precise_ds_pebs || engine == &precise_arch_pebs;
	out[0] = (struct perfdata_pmu_cap){ "max_precise", pebs ? "3" : "0" };
	return 1;
}

static int open_output(struct record_run *r, const struct record_opts *o, const struct target *t)
{
	static char cpuid[64], hostname[64], firmware[96];
	static const char *argv[PERFDATA_MAX_ARGS];
	static u32 cpus[PERCPU_MAX];
	static struct perfdata_cache caches[PERFDATA_MAX_CACHES];
	static struct perfdata_pmu_cap pmu_caps[PERFDATA_MAX_PMU_CAPS];
	u32 argc = 0;
	const struct pmu_caps *c = &r->s.caps;
	bp_snprintf(cpuid, sizeof(cpuid), "%s,%u,%u,%u", c->vendor, c->family, c->model, c->stepping);
	if (keep_previous(r, o->output))
		return -1;
	r->file = plat_file_create(o->output);
	if (!r->file) {
		err_printf("bareperf record: cannot create %s: %s\n", o->output, plat_file_error());
		return -1;
	}
	perfdata_file_sink_init(&r->sink, r->file);
	argv[argc++] = "bareperf";
	for (int i = 0; i < r->argc && argc < PERFDATA_MAX_ARGS; i++)
		argv[argc++] = r->argv[i];
	plat_hostname(hostname, sizeof(hostname));
	bp_snprintf(firmware, sizeof(firmware), "%s, revision 0x%08x", plat_firmware_vendor(),
		    plat_firmware_revision());
	struct perfdata_config cfg = {
		.tsc_hz = r->tsc_hz, .comm = t->comm, .cpudesc = c->brand, .cpuid = cpuid,
		.osrelease = firmware, .version = "bareperf " BP_VERSION, .nr_cpus_online = plat_cpu_count(),
		.hostname = hostname[0] ? hostname : plat_name(),
		.argc = argc, .argv = argv, .total_mem_kb = plat_memory_kb(),
		.free_mem_kb = plat_free_memory_kb(),
		.start_tsc = hw_rdtsc(), .tod_ns = plat_wallclock_ns(),
		/* An id per event and sampled CPU, as perf record's per-CPU
		 * events; -a/-C counts every thread there. */
		.nr_cpus = percpu_ready_cpus(&r->pc, cpus), .cpus = cpus,
		.system_wide = o->all_cpus || o->cpu_list,
		.nr_caches = machine_caches(c, caches), .caches = caches,
		.nr_pmu_caps = cpu_pmu_caps(c, pmu_caps), .pmu_caps = pmu_caps,
	};
	r->pd = perfdata_open(&r->sink, &cfg, NULL, 0);
	if (!r->pd) {
		err_printf("bareperf record: cannot start the perf.data writer\n");
		return -1;
	}
	for (int i = 0; i < r->n; i++) {
		const struct pmu_event *e = &r->ev[i];
		struct perfdata_event pe = {
			.name = e->name, .type = PERF_TYPE_RAW,
			.precise = e->precise, .freq = o->so.freq != 0, .group_size = group_size(r, i),
			.sample_period = o->so.freq ? o->so.freq : percpu_period(&r->pc, i),
			.sample_type = sampling_fields(e, &o->so),
		};
		attr_encoding(pmu_arch_for(c), e, &pe);
		if (perfdata_add_event(r->pd, &pe) < 0)
			return -1;
	}
	add_build_id(r);
	/* On the disk before the first sample: a file cut at any moment is
	 * then a perf.data that perf reads, with the samples up to
	 * the last rewrite (on_timer, once a second). */
	if (write_mappings(r, t) || durable_flush(r))
		return -1;
	return 0;
}

/* ---- while it runs ---------------------------------------------------------------- */

/* A write failed (a full disk): the file is cut back to the records
 * stored whole, with a header that covers them, at once, so that it is
 * readable whatever comes after; no sample is written from here on. */
static void write_failed(struct record_run *r)
{
	r->write_failed = true;
	int readable = perfdata_salvage(r->pd) == 0 && plat_file_sync(r->file) == 0;
	err_printf("bareperf record: writing %s failed: %s; %s %llu samples stored so far, "
		   "and no more are written\n", r->output, perfdata_error(r->pd),
		   readable ? "it keeps the" : "it may not be readable; it had",
		   (unsigned long long)perfdata_samples(r->pd));
}

/* The TSC up to which every CPU has delivered its samples (~0 at the
 * end, and with one CPU): a CPU whose records still wait in its PEBS
 * buffer (large PEBS drains only at its threshold) has delivered up to
 * its newest sample. Only while its buffer fills: one whose pending
 * records did not grow (an idle AP, a rare event) holds nobody up. The
 * count walks an Architectural PEBS buffer record by record, so it is
 * taken every RECORD_PENDING_PASSES passes (at every 10 ms pass, dmr's
 * 16,372-record buffer slowed soak to a crawl). */
static u64 delivered_through(struct record_run *r, bool final)
{
	u64 w = ~0ULL;
	if (final || r->pc.count < 2)
		return w;
	bool count = ++r->passes % RECORD_PENDING_PASSES == 0;
	/* Before the first count every CPU counts as filling: counting at
	 * the first pass found every buffer empty, and for the next 25
	 * passes no CPU held the others back, so a full ESP kept CPU 0's
	 * first two drains and CPU 1's first (e2e record_all_cpus_disk_full). */
	bool before_first_count = r->passes < RECORD_PENDING_PASSES;
	for (u32 c = 0; c < r->pc.count; c++) {
		if (count) {
			u64 pending = percpu_cpu_pending(&r->pc, c);
			r->cpu_filling[c] = pending && pending != r->cpu_pending[c];
			r->cpu_pending[c] = pending;
		}
		if (before_first_count || r->cpu_filling[c])	/* no second walk */
			w = MIN(w, percpu_newest_tsc(&r->pc, c));
	}
	return w;
}

/* The CPU whose oldest waiting sample comes first in time, among those up
 * to the watermark (a ring over half full goes regardless: holding its
 * samples back for another CPU's buffer would drop them); -1: none. */
static int earliest_cpu(const struct record_run *r, u64 watermark)
{
	int best = -1;
	u64 best_tsc = 0;
	for (u32 c = 0; c < r->pc.count; c++) {
		const struct bp_sample *s = percpu_peek(&r->pc, c);
		if (!s || (s->tsc > watermark && !percpu_ring_half_full(&r->pc, c)))
			continue;
		if (best < 0 || s->tsc < best_tsc) {
			best = (int)c;
			best_tsc = s->tsc;
		}
	}
	return best;
}

/* The CPUs' samples in time order, up to the time every CPU has
 * delivered, then a round mark (perf's contract for FINISHED_ROUND: see
 * perfdata.h). In time order, a file cut short (a full disk) keeps every
 * CPU's samples up to the cut, not the first CPUs' buffers (issue 39 item
 * 8: a full ESP under -a kept one CPU's samples to the end, the other's
 * to one PEBS buffer earlier); what a CPU delivered beyond the others
 * waits for the next pass. */
static void drain_ring(struct record_run *r, bool final)
{
	u64 watermark = delivered_through(r, final);
	int c;
	while ((c = earliest_cpu(r, watermark)) >= 0 &&
	       percpu_poll(&r->pc, (u32)c, r->batch, 1) == 1) {
		r->cpu_samples[c]++;
		r->delivered++;
		if (!r->write_failed && perfdata_sample(r->pd, &r->batch[0]))
			write_failed(r);
	}
	if (!r->write_failed && perfdata_finished_round(r->pd))
		write_failed(r);
}

/* Samples the CPUs delivered that are not in the file (a write failed). */
static u64 unwritten(const struct record_run *r)
{
	return r->delivered - perfdata_samples(r->pd);
}

static void progress(struct record_run *r, u64 now)
{
	if (r->quiet)
		return;
	char samples[32], waiting[48] = "";
	struct pmi_stats st;
	percpu_pmi_stats(&r->pc, &st);
	/* Large PEBS drains at its threshold: until then the recording
	 * advances in the buffer, and the line says so. */
	u64 pending = percpu_pending(&r->pc);
	if (pending) {
		char n[32];
		bp_snprintf(waiting, sizeof(waiting), " (+%s in PEBS buffers)",
			    fmt_thousands(pending, n, sizeof(n)));
	}
	out_printf("[ bareperf record: %6.1f s, %s samples%s, %llu PMIs, %llu lost ]\n",
		   session_seconds(now - r->start),
		   fmt_thousands(perfdata_samples(r->pd), samples, sizeof(samples)), waiting,
		   (unsigned long long)st.pmis, (unsigned long long)percpu_lost(&r->pc));
}

static void on_timer(void *ctx)
{
	struct record_run *r = ctx;
	u64 now = plat_ticks();
	percpu_tick(&r->pc);
	/* Writing is our work, not the workload's: measured, it would be
	 * sampled, and at a short period make more samples than it writes. */
	percpu_hold_self(&r->pc);
	drain_ring(r, false);
	if (now >= r->next_progress) {
		/* A file cut after this point is readable: the header covers
		 * the data so far, and the firmware's file system has it. */
		if (!r->write_failed && durable_flush(r))
			write_failed(r);
		progress(r, now);
		r->next_progress = now + plat_ticks_per_second();
	}
	percpu_release_self(&r->pc);
}

/* ---- the end ---------------------------------------------------------------------- */

static void print_accounting(struct record_run *r, u64 ticks)
{
	struct pmi_stats sum;
	const struct pmi_stats *st = &sum;
	char a[32], b[32];
	percpu_pmi_stats(&r->pc, &sum);
	u64 samples = perfdata_samples(r->pd), lost = percpu_lost(&r->pc) + unwritten(r);
	out_printf("[ bareperf record: %s samples written, %llu lost, in %.3f s; %s PMIs",
		   fmt_thousands(samples, a, sizeof(a)), (unsigned long long)lost,
		   session_seconds(ticks), fmt_thousands(st->pmis, b, sizeof(b)));
	if (st->pmis)
		out_printf(", %.1f samples/PMI", (double)samples / (double)st->pmis);
	out_printf(" ]\n");
	result_count("record.samples", samples ? RESULT_PASS : RESULT_FAIL, samples, "samples");
	result_count("record.lost", RESULT_PASS, lost, "samples");
	result_count("record.pmis", RESULT_PASS, st->pmis, "interrupts");
	result_measure("record.seconds", RESULT_PASS, session_seconds(ticks), "seconds");
	for (u32 i = 0; i < r->pc.count; i++) {
		char what[256];
		if (!percpu_loss_describe(&r->pc, i, what, sizeof(what)))
			continue;
		if (r->pc.count > 1)
			out_printf("[ CPU %u: %s ]\n", r->pc.cpu[i]->cpu, what);
		else
			out_printf("[ %s ]\n", what);
	}
	/* The engines' lines count what they delivered; what a full disk
	 * kept out of the file is the writer's loss, said beside them. */
	if (unwritten(r))
		out_printf("[ perf.data: %llu of the samples delivered were not written (the "
			   "file could not grow) ]\n", (unsigned long long)unwritten(r));
	if (r->pc.count > 1) {
		out_printf("[ samples per CPU:");
		for (u32 i = 0; i < r->pc.count; i++)
			out_printf(" cpu%u %llu", r->pc.cpu[i]->cpu, (unsigned long long)r->cpu_samples[i]);
		out_printf(" ]\n");
	}
	if (st->ring_full || st->throttled || st->spurious || st->unexpected || st->not_wrapped)
		out_printf("[ PMI: %llu ring full, %llu throttled (%llu times), %llu spurious, "
			   "%llu unexpected overflows, %llu status bits without a wrap ]\n",
			   (unsigned long long)st->ring_full, (unsigned long long)st->throttled,
			   (unsigned long long)st->throttle_events, (unsigned long long)st->spurious,
			   (unsigned long long)st->unexpected, (unsigned long long)st->not_wrapped);
	if (st->window_rescued)
		out_printf("[ PMI: %llu overflows came while LVT PC was still masked; handled "
			   "in the same PMI ]\n", (unsigned long long)st->window_rescued);
	if (st->throttle_events)
		out_printf("[ PMI storm: sampling was throttled %llu times: %llu for more than %u "
			   "PMIs a second (until the next %u ms tick), %llu for the handler taking "
			   "more than %u %% of the CPU (until that time was made up); samples were "
			   "not taken: use a longer period (-c) or a lower -F ]\n",
			   (unsigned long long)st->throttle_events,
			   (unsigned long long)(st->throttle_events - st->throttle_cpu),
			   SAMPLING_MAX_PMIS_PER_S, RECORD_POLL_MS, (unsigned long long)st->throttle_cpu,
			   SAMPLING_MAX_CPU_PERCENT);
	if (st->stuck_status)
		err_printf("bareperf record: GLOBAL_STATUS bits 0x%llx would not clear: "
			   "sampling was stopped\n", (unsigned long long)st->stuck_status);
	u64 ours;
	const char *reg;
	if (st->ds_area_lost && percpu_ds_area_lost(&r->pc, &ours, &reg))
		err_printf("bareperf record: %s was changed under us (0x%llx, not ours, "
			   "0x%llx): something else took the PEBS buffer; PEBS sampling was "
			   "stopped\n", reg, (unsigned long long)st->ds_area_moved,
			   (unsigned long long)ours);
}

/* The end of the file: lost samples and the feature sections. After a
 * failed write they are tried too (cutting the file back freed what the
 * failed write took); if they do not fit, the file stays as salvaged. */
static int finish_output(struct record_run *r, const char *path)
{
	u64 lost = r->lost + unwritten(r);
	if (lost)
		perfdata_lost_samples(r->pd, lost);
	int rc = perfdata_finish(r->pd);
	if (rc && !r->write_failed)
		write_failed(r);
	if (r->write_failed) {
		bool readable = rc == 0 || perfdata_salvage(r->pd) == 0;
		err_printf("bareperf record: %s holds the first %llu samples%s; %llu samples were "
			   "not written\n", path, (unsigned long long)perfdata_samples(r->pd),
			   readable ? ", and perf reads it" : ", but may not be readable",
			   (unsigned long long)unwritten(r));
	}
	perfdata_close(r->pd);
	plat_file_close(r->file);
	r->pd = NULL;
	r->file = NULL;
	return r->write_failed ? -1 : 0;
}

/* Everything after the target, once: stop sampling, drain, account, give
 * every CPU's PMU back, write the file. Runs after the target returns, or
 * inside an OS loader's ExitBootServices (plat_before_os), which never
 * returns to us. */
static int record_end(struct record_run *r)
{
	if (r->ended)
		return r->end_rc;
	r->ended = true;
	percpu_stop(&r->pc);
	exec_workload_only(false);
	plat_timer_stop();
	drain_ring(r, true);
	/* Every sample on the disk before they are counted as written. */
	if (r->pd && !r->write_failed && (perfdata_push(r->pd) || plat_file_sync(r->file)))
		write_failed(r);
	r->lost = percpu_lost(&r->pc);
	print_accounting(r, plat_ticks() - r->start);
	/* A DS area taken away: the file holds what was sampled until then,
	 * but it is incomplete. */
	int rc = ds_area_lost(r) ? EXIT_FAILURE_STATUS : EXIT_OK;
	if (percpu_report_held(&r->pc))
		rc = EXIT_FAILURE_STATUS;	/* the file is written, but holds nothing */
	session_stop(&r->s);
	percpu_close(&r->pc);
	if (r->pd && finish_output(r, r->output))
		rc = EXIT_FAILURE_STATUS;
	if (r->discard)
		put_back_previous(r, r->output);
	else if (rc == EXIT_OK)
		out_printf("[ bareperf record: wrote %s (%llu bytes) ]\n", r->output,
			   (unsigned long long)plat_file_size(r->output));
	/* What the file holds goes out even after a failure: a salvaged
	 * recording is all a lab gets back from a machine nobody visits. */
	if ((r->out.serial || r->out.url) && !r->discard && plat_file_size(r->output) >= 0) {
		bool sent = cmd_output_send(&r->out, "record") == 0;
		result_case("record.sent", sent ? RESULT_PASS : RESULT_FAIL);
		if (!sent)
			rc = EXIT_FAILURE_STATUS;
	}
	result_case("record.written", rc == EXIT_OK ? RESULT_PASS : RESULT_FAIL);
	r->end_rc = rc;
	return rc;
}

static void end_before_os(void *ctx)
{
	out_printf("[ bareperf record: the application called ExitBootServices: the recording "
		   "ends here, and the PMU, DS area, LVT PC and IDT are given back ]\n");
	record_end(ctx);
}

/* Events bareperf added that the user did not type: said, not hidden. */
static void say_added_events(const struct record_run *r)
{
	for (int i = 0; i < r->n; i++)
		if (r->ev[i].count_only && r->ev[i].group >= 0 && r->ev[i].group < r->n)
			out_printf("[ bareperf record: %s added to the group of %s, counting only: this "
				   "core's load-latency facility reports latency and data source only "
				   "while it counts ]\n", r->ev[i].name, r->ev[r->ev[i].group].name);
}

/* How cycles:p is sampled where cycles has no PEBS of its own (the
 * parser's alias, as Linux's intel_pebs_aliases_*): said in the banner,
 * since the samples' event is then another encoding. */
static void say_pebs_aliases(const struct record_run *r)
{
	for (int i = 0; i < r->n; i++) {
		const struct pmu_event *e = &r->ev[i];
		if (!e->pebs_alias)
			continue;
		if (bp_strcmp(e->pebs_alias, PEBS_ALIAS_EXTENDED) == 0)
			out_printf("[ bareperf record: %s is sampled with PEBS on its own counters "
				   "(extended PEBS: every event on every counter) ]\n", e->name);
		else
			out_printf("[ bareperf record: %s is sampled as %s (event 0x%02x, umask 0x%02x%s, "
				   "cmask %u), this part's PEBS alias for cycles ]\n", e->name,
				   e->pebs_alias, e->event, e->umask, e->inv ? ", inv" : "", e->cmask);
	}
}

static int record_target(struct record_run *r, struct target *t)
{
	char line[320];

	say_added_events(r);
	say_pebs_aliases(r);
	percpu_describe(&r->pc, line, sizeof(line));
	out_printf("[ bareperf record: %s; %u CPU%s; %u other images mapped ]\n", line,
		   percpu_ready(&r->pc), percpu_ready(&r->pc) == 1 ? "" : "s", r->images);
	r->start = plat_ticks();
	r->next_progress = r->start + plat_ticks_per_second();
	plat_timer_start(RECORD_POLL_MS, on_timer, r);
	exec_workload_only(t->kind == TARGET_WORKLOAD);
	percpu_start(&r->pc);
	if (t->kind == TARGET_APP)
		plat_before_os(end_before_os, r);
	int rc = target_run(t, "record");
	if (t->kind == TARGET_WORKLOAD)
		exec_settle();	/* an emulated PMU runs the workload's last told instructions */
	if (t->kind == TARGET_APP)
		plat_before_os(NULL, NULL);
	r->discard = rc != EXIT_OK && t->not_started;
	int end = record_end(r);
	return rc != EXIT_OK ? rc : end;
}

/* --pebs-threshold and --pebs-buffer shape PEBS sampling only: without
 * a PEBS event they would be ignored, which a user who gave them would
 * not know. */
static int check_pebs_options(const struct record_opts *o, const struct pmu_event *ev, int n)
{
	for (int i = 0; i < n; i++)
		if (ev[i].precise)
			return EXIT_OK;
	const char *opt = o->so.threshold.mode != PEBS_THRESHOLD_AUTO ? "--pebs-threshold"
			  : o->so.pebs_buffer_bytes ? "--pebs-buffer" : NULL;
	if (!opt)
		return EXIT_OK;
	err_printf("bareperf record: %s applies to PEBS events (:p, :pp, :ppp), and '%s' has "
		   "none\n", opt, o->events);
	return EXIT_USAGE;
}

/* What a core type's CPUs will sample, checked before the PMU is taken:
 * a type that lacks an event samples nothing (percpu_open says so). */
static int check_events(const struct record_opts *o, const struct percpu_events *e)
{
	char err[256];
	if (e->n < 0)
		return EXIT_OK;
	if (check_pebs_options(o, e->ev, e->n) != EXIT_OK)
		return EXIT_USAGE;
	if (!o->so.freq && o->so.period &&
	    !sampling_check_period(&e->caps, o->so.period, "-c", err, sizeof(err))) {
		err_printf("bareperf record: %s\n", err);
		return EXIT_USAGE;
	}
	if (!sampling_check_threshold(&e->caps, e->ev, e->n, &o->so, err, sizeof(err))) {
		err_printf("bareperf record: %s\n", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int record_with(struct record_run *r, int argc, char **argv, const struct global_opts *g)
{
	struct record_opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc != EXIT_OK)
		return rc;
	struct target t;
	bool has_words = o.workload_at >= 0;
	rc = target_parse(&t, "record", has_words ? argc - o.workload_at : 0,
			  has_words ? argv + o.workload_at : NULL, o.connect_all);
	if (rc != EXIT_OK)
		return rc;
	if (o.so.pmi_nmi && backend_is_emulated()) {
		err_printf("bareperf record: --pmi=nmi needs a PMU in the machine (--pmu=hw): "
			   "the emulated PMU raises its PMIs in software\n");
		return EXIT_USAGE;
	}
	bp_memset(r, 0, sizeof(*r));
	r->quiet = o.quiet;
	backend_banner();
	if ((rc = session_probe(&r->s, "record")) != EXIT_OK)
		return rc;
	r->n = session_parse_events(&r->s, "record", o.events, r->ev, SESSION_MAX_EVENTS);
	if (r->n < 0)
		return EXIT_USAGE;
	percpu_types_init(&r->types, &r->s.caps, o.events, r->ev, r->n);
	if ((rc = check_events(&o, &r->types.type[0])) != EXIT_OK)
		return rc;
	u64 mask;
	if ((rc = cpus_mask_of(o.all_cpus, o.cpu_list, "record", &mask)) != EXIT_OK)
		return rc;
	/* The other core types among the CPUs sampled, checked as this one. */
	percpu_types_add_cpus(&r->types, mask);
	for (u32 k = 1; k < r->types.count; k++)
		if ((rc = check_events(&o, &r->types.type[k])) != EXIT_OK)
			return rc;
	/* A missing application fails here, before the PMU is touched. */
	if ((rc = target_load(&t, "record")) != EXIT_OK)
		return rc;
	/* The PMU is taken before the emulated CPU runs, and given back after
	 * it stops (session_stop first): counters found running count no
	 * emulated time that bareperf's restore would then hide. */
	if (percpu_open(&r->pc, mask, &r->types, g->force, &o.so, &percpu_sampling, "record")) {
		target_release(&t);
		return EXIT_FAILURE_STATUS;
	}
	if ((rc = session_start_drive(&r->s, g, "record")) != EXIT_OK) {
		percpu_close(&r->pc);
		target_release(&t);
		return rc;
	}
	/* One clock for samples and for throttling: the seam's TSC (measured
	 * once the PMU is ours: an emulated machine's foreign counters would
	 * count on meanwhile). */
	r->tsc_hz = calibrate_tsc();
	percpu_set_tsc_clock(&r->pc, r->tsc_hz);
	r->output = o.output;
	r->out = o.out;
	r->argc = argc;
	r->argv = argv;
	rc = open_output(r, &o, &t) ? EXIT_FAILURE_STATUS : EXIT_OK;
	if (rc == EXIT_OK)
		rc = record_target(r, &t);
	target_release(&t);
	session_stop(&r->s);
	percpu_close(&r->pc);
	if (r->pd && finish_output(r, o.output))
		rc = EXIT_FAILURE_STATUS;
	return rc;
}

static int record_main(int argc, char **argv, const struct global_opts *g)
{
	struct record_run *r = session_state_alloc("record", sizeof(*r));
	if (!r)
		return EXIT_FAILURE_STATUS;
	int rc = record_with(r, argc, argv, g);
	session_state_free(r, sizeof(*r));
	return rc;
}

const struct command cmd_record = {
	.name = "record",
	.summary = "sample a workload, a UEFI application or firmware work into perf.data",
	.usage = " [-e LIST] [-c PERIOD | -F FREQ] [-g] [-W] [--pebs-threshold 1|N|max]\n"
		 "        [--pebs-buffer KIB] [--ring SAMPLES] [-a | -C LIST] [-o FILE] [-q]\n"
		 "        [--pmi vector|nmi]\n"
		 "        ([--] WORKLOAD [ARGS] | [--] \\PATH\\APP.EFI [ARGS] | [--] bs:NAME [LOOPS] | --connect-all)\n\n"
		 "  WORKLOAD   a built-in workload (soak, chase, branchy, stream, irqoff)\n"
		 "  APP.EFI    a UEFI application on the boot volume, started with ARGS (UEFI only)\n"
		 "  bs:NAME    a boot service called LOOPS times (default 10000): AllocatePages,\n"
		 "             FreePages, LocateHandleBuffer, ConnectController, GetVariable\n"
		 "             (UEFI only)\n"
		 "  --connect-all  connect every driver to every controller (UEFI only)\n"
		 "  -e LIST    events (default " RECORD_DEFAULT_EVENTS "); :p/:pp/:ppp sample with PEBS\n"
		 "  -c PERIOD  sample every PERIOD events (default: the event's own, else 100003);\n"
		 "             at most what this CPU's counters take (2^47 - 1 on 48-bit ones)\n"
		 "  -F FREQ    adapt the period for about FREQ samples a second (PMI mode)\n"
		 "  -g         record callchains (frame pointers)\n"
		 "  -W, --weight  each sample's latencies as perf's weight struct: the load's\n"
		 "             (weight), the instruction's (ins_lat) and the retire latency\n"
		 "             (p_stage_cyc) where the PEBS record has them\n"
		 "  -a         sample every CPU (the others wait in bareperf's loop meanwhile)\n"
		 "  -C LIST    sample these CPUs (0,2-3)\n"
		 "  --pebs-threshold 1|N|max  PEBS records per PMI (default: the policy)\n"
		 "  --pebs-buffer KIB  the PEBS buffer per CPU, 4 to 65536 (default 256)\n"
		 "  --ring SAMPLES  the sample ring per CPU, 64 to 4194304 (default 16384)\n"
		 "  -o FILE    output (default perf.data in \\bareperf\\ or $BAREPERF_OUT)\n"
		 "  -o serial  perf.data as above, then sent over the serial line (COM1) as\n"
		 "             text frames that tools/serial-extract rebuilds from the log\n"
		 "  -o http://HOST[:PORT]/PATH  the file named as PATH's last part, then sent\n"
		 "             with an HTTP PUT (the firmware's HTTP stack, DHCP if needed)\n"
		 "  -q         no progress lines\n"
		 "  --pmi vector|nmi  deliver the PMI as a fixed interrupt (default) or as an\n"
		 "             NMI, which also samples code that runs with interrupts off",
	.run = record_main,
};
