/* `bareperf report`: the top symbols of a perf.data file, with the shares
 * `perf report --stdio --no-children` gives: per event, the sum of the
 * sample periods of a symbol over the event's total period. Reads the
 * file in chunks (perfdata/perfdata_read.h), so memory stays bounded, and
 * names our own functions with the symbol table embedded in the image
 * (perfdata/symtab.h); samples in mappings of other files show their address,
 * samples outside any mapping show as [unknown], as in perf. */
#include "cli.h"
#include "../lib/out.h"
#include "../lib/path.h"
#include "../perfdata/perfdata_read.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../perfdata/symtab.h"
#include "../lib/fmt.h"

extern const struct command cmd_report;

#define REPORT_MAPS_START 64	/* the maps array grows from here, doubling */
#define REPORT_MAX_ROWS	4096	/* power of two: open addressing */
#define REPORT_NAME_MAX	128
#define REPORT_DEFAULT_ROWS 20

enum sort_key { SORT_SYM, SORT_DSO };

struct map {
	u64 start, len, pgoff;
	bool self;		/* our image: resolve through the table */
	char name[REPORT_NAME_MAX];
	const char *base;	/* basename inside name: perf's dso column */
};

/* One line of the report: an event and a (dso, symbol) pair. An
 * unresolved symbol is its address (sym == NULL). */
struct row {
	bool used, shown;
	u32 event;
	const char *dso, *sym;
	u64 addr, period, samples;
};

struct report {
	struct perfdata_reader r;
	enum sort_key sort;
	/* Every MMAP2 of the file (a firmware run maps a hundred images):
	 * each map apart, so the rows' dso names stay where they are while
	 * the array of pointers grows. */
	struct map **maps;
	u32 nr_maps, cap_maps;
	struct row rows[REPORT_MAX_ROWS];
	u32 nr_rows;
	u64 unrowed;		/* samples that found no free row */
	u64 total[PERFDATA_MAX_EVENTS], samples[PERFDATA_MAX_EVENTS];
	u64 lost;
	char comm[32];
};

static const char *basename_of(const char *path)
{
	const char *b = path;
	for (const char *p = path; *p; p++)
		if (*p == '/' || *p == '\\')
			b = p + 1;
	return b;
}

/* Whether a mapping is of this program's own code, whose functions the
 * embedded table names: the image's ELF, or the running program (the host
 * twin names its mapping after its own path). Its size and offset must be
 * the table's too: another build's file gets addresses, not wrong names. */
static bool names_this_program(const struct map *m)
{
	return bp_strcmp(m->base, SYMTAB_IMAGE_ELF) == 0 ||
	       bp_strcmp(m->base, basename_of(plat_image_path())) == 0;
}

static int grow_maps(struct report *rp)
{
	u32 cap = rp->cap_maps ? 2 * rp->cap_maps : REPORT_MAPS_START;
	struct map **maps = plat_alloc(cap * sizeof(*maps));
	if (!maps)
		return -1;
	if (rp->nr_maps)
		bp_memcpy(maps, rp->maps, rp->nr_maps * sizeof(*maps));
	plat_free(rp->maps);
	rp->maps = maps;
	rp->cap_maps = cap;
	return 0;
}

/* 0, or -1 when memory ran out (the report then says so and stops: a
 * mapping dropped would move its samples to another name). */
static int add_map(struct report *rp, const struct perfdata_record *rec)
{
	struct map *m;
	if (rp->nr_maps == rp->cap_maps && grow_maps(rp))
		return -1;
	if (!(m = plat_alloc(sizeof(*m))))
		return -1;
	rp->maps[rp->nr_maps++] = m;
	m->start = rec->start;
	m->len = rec->len;
	m->pgoff = rec->pgoff;
	bp_strlcpy(m->name, rec->name, sizeof(m->name));
	m->base = basename_of(m->name);
	m->self = names_this_program(m) && m->len == symtab_header.text_size &&
		  m->pgoff == symtab_header.text_offset;
	return 0;
}

static void free_maps(struct report *rp)
{
	for (u32 i = 0; i < rp->nr_maps; i++)
		plat_free(rp->maps[i]);
	plat_free(rp->maps);
	rp->maps = NULL;
	rp->nr_maps = rp->cap_maps = 0;
}

/* The newest mapping that covers ip, as perf's maps replace older ones. */
static const struct map *find_map(const struct report *rp, u64 ip)
{
	for (u32 i = rp->nr_maps; i-- > 0;)
		if (ip - rp->maps[i]->start < rp->maps[i]->len && ip >= rp->maps[i]->start)
			return rp->maps[i];
	return NULL;
}

static void resolve(const struct report *rp, u64 ip, struct row *key)
{
	const struct map *m = find_map(rp, ip);
	u64 file_off, link;

	key->sym = NULL;
	key->addr = ip;
	key->dso = m ? m->base : "[unknown]";
	if (!m)
		return;
	/* perf's map_ip: the IP as an offset in the mapped file. */
	file_off = ip - m->start + m->pgoff;
	key->addr = file_off;
	if (m->self && symtab_file_to_link(file_off, &link))
		key->sym = symtab_lookup(link, NULL);
	if (key->sym)
		key->addr = 0;
}

static u32 row_hash(const struct row *k)
{
	u64 h = (u64)(uintptr_t)k->dso * 0x9e3779b97f4a7c15ULL;
	h ^= ((u64)(uintptr_t)k->sym + k->addr + k->event) * 0xc2b2ae3d27d4eb4fULL;
	return (u32)(h ^ (h >> 29));
}

static bool same_row(const struct row *a, const struct row *b)
{
	return a->event == b->event && a->dso == b->dso && a->sym == b->sym && a->addr == b->addr;
}

/* The row for key, created if needed; NULL when the table is full. */
static struct row *row_for(struct report *rp, const struct row *key)
{
	u32 i = row_hash(key) & (REPORT_MAX_ROWS - 1);
	for (u32 n = 0; n < REPORT_MAX_ROWS; n++, i = (i + 1) & (REPORT_MAX_ROWS - 1)) {
		struct row *row = &rp->rows[i];
		if (row->used && same_row(row, key))
			return row;
		if (!row->used) {
			*row = *key;
			row->used = true;
			rp->nr_rows++;
			return row;
		}
	}
	return NULL;
}

static void add_sample(struct report *rp, const struct perfdata_record *rec)
{
	const struct perfdata_rattr *a = &rp->r.attrs[rec->attr];
	/* Without PERIOD in the sample, perf uses the attr's period. */
	u64 period = a->sample_type & BP_SAMPLE_PERIOD ? rec->period : a->sample_period;
	struct row key = { .event = (u32)rec->attr }, *row;

	resolve(rp, rec->ip, &key);
	if (rp->sort == SORT_DSO) {
		key.sym = NULL;
		key.addr = 0;
	}
	rp->total[rec->attr] += period;
	rp->samples[rec->attr]++;
	row = row_for(rp, &key);
	if (!row) {
		rp->unrowed++;
		return;
	}
	row->period += period;
	row->samples++;
}

/* Reads every record; 0, -1 with the reader's error, or -2 when memory
 * for the mappings ran out. */
static int collect(struct report *rp)
{
	struct perfdata_record rec;
	int got;
	while ((got = perfdata_read_next(&rp->r, &rec)) == 1) {
		switch (rec.type) {
		case PERF_RECORD_SAMPLE:
			add_sample(rp, &rec);
			break;
		case PERF_RECORD_MMAP2:
			if (add_map(rp, &rec))
				return -2;
			break;
		case PERF_RECORD_COMM:
			bp_strlcpy(rp->comm, rec.name, sizeof(rp->comm));
			break;
		case PERF_RECORD_LOST_SAMPLES:
			rp->lost += rec.lost;
			break;
		}
	}
	return got;
}

/* "70.00%": period / total in hundredths of a percent, rounded. */
static void format_share(char *buf, size_t cap, u64 period, u64 total)
{
	unsigned __int128 h = total ? ((unsigned __int128)period * 20000 + total) / (2 * (unsigned __int128)total) : 0;
	bp_snprintf(buf, cap, "%llu.%02llu%%", (unsigned long long)(h / 100),
		    (unsigned long long)(h % 100));
}

/* Next row of event e by period (then name), not shown yet. */
static struct row *next_row(struct report *rp, u32 e)
{
	struct row *best = NULL;
	for (u32 i = 0; i < REPORT_MAX_ROWS; i++) {
		struct row *row = &rp->rows[i];
		if (!row->used || row->shown || row->event != e)
			continue;
		if (!best || row->period > best->period ||
		    (row->period == best->period && bp_strcmp(row->dso, best->dso) < 0))
			best = row;
	}
	return best;
}

static void print_dots(int n)
{
	for (int i = 0; i < n; i++)
		out_puts(".");
}

static void print_event(struct report *rp, u32 e, u32 limit)
{
	const struct perfdata_rattr *a = &rp->r.attrs[e];
	int comm_w = MAX(7, (int)bp_strlen(rp->comm)), dso_w = 13;
	char share[16];
	struct row *row;

	for (u32 i = 0; i < REPORT_MAX_ROWS; i++)
		if (rp->rows[i].used && rp->rows[i].event == e)
			dso_w = MAX(dso_w, (int)bp_strlen(rp->rows[i].dso));
	if (a->name)
		out_printf("# Samples: %llu  of event '%.*s'\n", (unsigned long long)rp->samples[e],
			   (int)a->name_len, a->name);
	else
		out_printf("# Samples: %llu  of event 'raw 0x%llx'\n",
			   (unsigned long long)rp->samples[e], (unsigned long long)a->config);
	out_printf("# Event count (approx.): %llu\n#\n", (unsigned long long)rp->total[e]);
	if (rp->sort == SORT_DSO) {
		out_printf("# Overhead  %-*s\n# ........  ", dso_w, "Shared Object");
		print_dots(dso_w);
	} else {
		out_printf("# Overhead  %-*s  %-*s  Symbol\n# ........  ", comm_w, "Command",
			   dso_w, "Shared Object");
		print_dots(comm_w);
		out_puts("  ");
		print_dots(dso_w);
		out_puts("  ......");
	}
	out_puts("\n#\n");
	for (u32 n = 0; n < limit && (row = next_row(rp, e)); n++) {
		row->shown = true;
		format_share(share, sizeof(share), row->period, rp->total[e]);
		if (rp->sort == SORT_DSO)
			out_printf("%10s  %s\n", share, row->dso);
		else if (row->sym)
			out_printf("%10s  %-*s  %-*s  [.] %s\n", share, comm_w, rp->comm, dso_w,
				   row->dso, row->sym);
		else
			out_printf("%10s  %-*s  %-*s  [.] 0x%016llx\n", share, comm_w, rp->comm,
				   dso_w, row->dso, (unsigned long long)row->addr);
	}
	out_puts("\n\n");
}

static long read_chunk(void *ctx, u64 off, void *buf, size_t len)
{
	return plat_file_read_at(ctx, off, buf, len);
}

static int report_file(struct report *rp, const char *path, u32 limit)
{
	long size = plat_file_size(path);
	struct plat_file *f;
	void *mem;
	int rc = EXIT_FAILURE_STATUS;

	if (size < 0) {
		/* An absolute name (the host twin takes one) is not looked for
		 * in the output folder: say only where it was. */
		err_printf("bareperf report: cannot open '%s'%s: %s\n", path,
			   path_is_sep(path[0]) ? "" : " in the output folder (\\bareperf\\ on "
			   "the ESP; $BAREPERF_OUT on the host)", plat_file_error());
		return rc;
	}
	f = plat_file_open_read(path);
	mem = plat_alloc(PERFDATA_READ_CHUNKED_MEM);
	if (!f || !mem) {
		err_printf("bareperf report: %s: %s\n", path, f ? "out of memory" : plat_file_error());
		goto out;
	}
	if (perfdata_read_open_chunked(&rp->r, (u64)size, read_chunk, f, mem,
				       PERFDATA_READ_CHUNKED_MEM)) {
		err_printf("bareperf report: %s: %s%s\n", path,
			   bp_starts_with(rp->r.err, "not a perf.data") ? "" : "corrupt perf.data: ",
			   rp->r.err);
		goto out;
	}
	bp_strlcpy(rp->comm, "[unknown]", sizeof(rp->comm));
	int collected = collect(rp);
	if (collected == -2) {
		err_printf("bareperf report: %s: out of memory for its mapping %u\n", path,
			   rp->nr_maps + 1);
		goto out;
	}
	if (collected) {
		err_printf("bareperf report: %s: corrupt perf.data: %s\n", path, rp->r.err);
		goto out;
	}
	out_printf("# bareperf report of %s (%ld bytes), %u symbols in the image's table\n#\n",
		   path, size, symtab_count());
	out_printf("# Total Lost Samples: %llu\n#\n", (unsigned long long)rp->lost);
	for (u32 e = 0; e < rp->r.nr_attrs; e++)
		if (rp->samples[e])
			print_event(rp, e, limit);
	if (rp->unrowed)
		out_printf("# %llu samples not shown: more than %d distinct rows\n",
			   (unsigned long long)rp->unrowed, REPORT_MAX_ROWS);
	rc = EXIT_OK;
out:
	free_maps(rp);
	plat_free(mem);
	plat_file_close(f);
	return rc;
}

struct report_opts {
	const char *input;	/* -i */
	enum sort_key sort;	/* --sort */
	u64 limit;		/* -n */
	bool help;
};

static const char *const sort_words[] = { "sym", "dso", NULL };	/* enum sort_key */

static const struct cli_option report_options[] = {
	{ .name = "--input", .short_name = "-i", .kind = CLI_STRING,
	  CLI_AT(struct report_opts, input) },
	{ .name = "--sort", .kind = CLI_ENUM, CLI_AT(struct report_opts, sort),
	  .words = sort_words, .expect = "use sym or dso" },
	{ .short_name = "-n", .kind = CLI_NUMBER, CLI_AT(struct report_opts, limit),
	  .min = 1, .max = ~0ULL, .expect = "need a row count: a whole number from 1 "
	  "to 18446744073709551615" },
	{ .name = "--help", .short_name = "-h", .kind = CLI_FLAG, CLI_AT(struct report_opts, help),
	  .ends = true },
};

/* An unknown option, or any word (report takes none), is told with the usage. */
static void unknown_option(const char *arg)
{
	err_printf("bareperf report: unknown option '%s'\n", arg);
	cli_usage(&cmd_report);
}

static const struct cli_spec report_spec = {
	.cmd = "report", .options = report_options, .count = ARRAY_SIZE(report_options),
	.unknown = unknown_option,
};

static int parse_opts(int argc, char **argv, struct report_opts *o)
{
	int next = 1;
	*o = (struct report_opts){ .input = "perf.data", .sort = SORT_SYM,
				   .limit = REPORT_DEFAULT_ROWS };
	int rc = cli_parse_options(&report_spec, argc, argv, &next, o);
	if (rc == EXIT_OK && !o->help && next < argc) {
		cli_unknown_option(&report_spec, argv[next]);
		rc = EXIT_USAGE;
	}
	char why[160];
	if (rc == EXIT_OK && !o->help && plat_file_check(o->input, false, why, sizeof(why))) {
		err_printf("bareperf report: -i %s: %s\n", o->input, why);
		rc = EXIT_USAGE;
	}
	return rc;
}

static int report_run(int argc, char **argv, const struct global_opts *g)
{
	struct report_opts o;
	struct report *rp;
	int rc = parse_opts(argc, argv, &o);

	if (rc != EXIT_OK)
		return rc;
	if (o.help) {
		cli_usage(&cmd_report);
		return EXIT_OK;
	}
	rp = plat_alloc(sizeof(*rp));
	if (!rp) {
		err_printf("bareperf report: out of memory\n");
		return EXIT_FAILURE_STATUS;
	}
	rp->sort = o.sort;
	rc = report_file(rp, o.input, (u32)MIN(o.limit, (u64)REPORT_MAX_ROWS));
	plat_free(rp);
	return rc;
}

const struct command cmd_report = {
	.name = "report",
	.summary = "top symbols of a perf.data file, with perf report's shares",
	.usage = " [-i FILE] [--sort sym|dso] [-n N]\n\n"
		 "  -i FILE      perf.data to read (default perf.data in the output folder)\n"
		 "  --sort KEY   sym (default): by function; dso: by file\n"
		 "  -n N         rows per event (default 20)",
	.run = report_run,
};
