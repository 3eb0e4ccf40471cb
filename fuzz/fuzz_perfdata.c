/* The perf.data writer and reader. Two modes, by bit 0 of the first byte:
 *
 * 1: the rest of the input is a file for the reader, which must parse it
 *    or reject it with a message, never read outside it.
 *
 * 0: the input drives the writer into a memory sink: a config, events,
 *    then up to MAX_OPS calls (COMM, MMAP2, samples with any fields, LOST,
 *    LOST_SAMPLES, flush, a late event). The file is then parsed back and
 *    every record must equal what was written: all of them after a
 *    successful finish, else those before the last successful flush (the
 *    cut-safe point; a failed call stops the writer for good and must
 *    leave a message). After finish the feature sections and event names
 *    must read back too.
 *
 * Writer input: [mode] [chaos: bit 0 passes precise and sample_type
 * unmasked] [sink: bit 0 a 1 MiB sink, else 512 + u16 % 16384 bytes]
 * [writer buffer: 4096 * (1 + u8 % 8)] [config: tsc_hz u64, pid u32,
 * present-strings u8, strings comm, cpudesc, cpuid, arch, hostname,
 * osrelease, version (length byte + bytes), cpus online u8, avail u8]
 * [events: 1 + u8 % 6, each as event()] then ops: [op u8 % 7] + its
 * values, as below. */
#include "fuzz/input.h"
#include "perfdata/perfdata.h"
#include "perfdata/perfdata_read.h"

#define MAX_OPS 64
#define MAX_FILENAME_FUZZ 1100	/* past the writer's 1023-character limit */

enum op { OP_COMM, OP_MMAP2, OP_SAMPLE, OP_LOST, OP_LOST_SAMPLES, OP_FLUSH, OP_ADD_EVENT, OP_NR };

struct expect {
	enum op op;
	struct bp_sample s;
	struct perfdata_mmap m;
	char filename[MAX_FILENAME_FUZZ + 1];
	u32 event;
	u64 count;
};

struct event_in {
	struct perfdata_event ev;
	char name[160];
};

struct run {
	struct perfdata_config cfg;
	char strings[7][200];
	struct event_in events[PERFDATA_MAX_EVENTS];
	u32 nr_events;
	struct expect expect[MAX_OPS];
	u32 nr_expect;
	u32 committed;		/* records readable at the last flush/finish */
	bool readable, finished;
	bool chaos;
};

static struct run run;

/* ---- the reader on any bytes ------------------------------------------ */

static void walk_reader(const u8 *buf, u64 len)
{
	static struct perfdata_reader r;
	struct perfdata_record rec;
	char s[16];
	u32 a, o;

	if (perfdata_read_open(&r, buf, len)) {
		FUZZ_CHECK(r.err[0] && memchr(r.err, 0, sizeof(r.err)));
		return;
	}
	for (u64 n = 0; n <= len / 8; n++) {
		int rc = perfdata_read_next(&r, &rec);
		if (rc <= 0) {
			FUZZ_CHECK(rc == 0 || (r.err[0] && memchr(r.err, 0, sizeof(r.err))));
			break;
		}
		for (u64 i = 0; i < rec.nr_callchain; i++)
			(void)perfdata_callchain_at(&rec, i);
		if (rec.name)	/* must be terminated inside the buffer */
			FUZZ_CHECK((const u8 *)rec.name + strlen(rec.name) < buf + len);
	}
	for (int bit = 0; bit < 256; bit++)
		if (perfdata_read_feature_string(&r, bit, s, sizeof(s)))
			FUZZ_CHECK(memchr(s, 0, sizeof(s)));
	(void)perfdata_read_nrcpus(&r, &a, &o);
}

/* ---- writer input -------------------------------------------------------- */

static const char *opt_str(struct input *in, bool present, char *buf)
{
	const char *s = in_str(in, buf, 200);
	return present ? s : NULL;
}

static void read_config(struct input *in, struct perfdata_config *c)
{
	memset(c, 0, sizeof(*c));
	c->tsc_hz = in_u64(in) % 18000000001ULL;	/* tsc_to_ns is exact up to 18 GHz */
	c->pid = in_u32(in);
	u8 present = in_u8(in);
	c->comm = opt_str(in, present & 1, run.strings[0]);
	c->cpudesc = opt_str(in, present & 2, run.strings[1]);
	c->cpuid = opt_str(in, present & 4, run.strings[2]);
	c->arch = opt_str(in, present & 8, run.strings[3]);
	c->hostname = opt_str(in, present & 16, run.strings[4]);
	c->osrelease = opt_str(in, present & 32, run.strings[5]);
	c->version = opt_str(in, present & 64, run.strings[6]);
	c->nr_cpus_online = in_u8(in);
	c->nr_cpus_avail = in_u8(in);
}

/* [name] [type u8] [config, config1, config2 u64] [precise u8] [freq u8]
 * [period u64] [sample_type u32] [rings u8: bit 0 exclude_user, bit 1
 * exclude_kernel] */
static void read_event(struct input *in, struct event_in *e)
{
	memset(e, 0, sizeof(*e));
	e->ev.name = in_str(in, e->name, sizeof(e->name));
	e->ev.type = in_u8(in);
	e->ev.config = in_u64(in);
	e->ev.config1 = in_u64(in);
	e->ev.config2 = in_u64(in);
	e->ev.precise = in_u8(in);
	e->ev.freq = in_bool(in);
	e->ev.sample_period = in_u64(in);
	e->ev.sample_type = in_u32(in);
	u8 rings = in_u8(in);
	e->ev.exclude_user = rings & 1;
	e->ev.exclude_kernel = rings & 2;
	if (!run.chaos) {
		e->ev.precise &= 3;
		e->ev.sample_type &= PERFDATA_SAMPLE_SUPPORTED;
		if (e->ev.sample_type & BP_SAMPLE_WEIGHT)	/* one weight field */
			e->ev.sample_type &= ~(u64)BP_SAMPLE_WEIGHT_STRUCT;
	}
}

/* The sample flag each bit of the flags byte sets, in the order the
 * corpus was written with; bit 7, a field the writer never writes. */
static const u32 flag_of_bit[8] = {
	BP_SAMPLE_PEBS, BP_SAMPLE_EXACT_IP, BP_SAMPLE_ADDR, BP_SAMPLE_WEIGHT,
	BP_SAMPLE_DATA_SRC, BP_SAMPLE_TIME, BP_SAMPLE_CALLCHAIN, BP_SAMPLE_REGS_INTR,
};

static u32 sample_flags(u8 bits)
{
	u32 flags = 0;
	for (unsigned i = 0; i < ARRAY_SIZE(flag_of_bit); i++)
		if (bits & (1u << i))
			flags |= flag_of_bit[i];
	return flags;
}

/* [event u8 % (events + 1)] [ip, tsc, addr, period, weight, data_src
 * u64] [cpu u32] [flags u8] [callchain length u8 % 40, then the entries] */
static void read_sample(struct input *in, struct bp_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->event = in_u8(in) % (run.nr_events + 1);
	s->ip = in_u64(in);
	s->tsc = in_u64(in);
	s->addr = in_u64(in);
	s->period = in_u64(in);
	s->weight = in_u64(in);
	s->data_src = in_u64(in);
	s->cpu = in_u32(in);
	s->flags = sample_flags(in_u8(in));
	s->callchain_len = in_u8(in) % 40;
	for (u32 i = 0; i < MIN(s->callchain_len, (u32)BP_MAX_CALLCHAIN); i++)
		s->callchain[i] = in_u64(in);
}

/* [length u16 % (MAX_FILENAME_FUZZ + 1)] [bytes] [start, len, pgoff u64] */
static void read_mmap(struct input *in, struct expect *x)
{
	size_t n = in_u16(in) % (MAX_FILENAME_FUZZ + 1);
	n = MIN(n, in->left);
	memcpy(x->filename, in->p, n);
	x->filename[n] = 0;
	in->p += n;
	in->left -= n;
	x->m.filename = x->filename;
	x->m.start = in_u64(in);
	x->m.len = in_u64(in);
	x->m.pgoff = in_u64(in);
}

/* Adds an event read from the input; 0, or -1 when the writer refused it. */
static int add_event(struct input *in, struct perfdata *pd)
{
	struct event_in e;
	read_event(in, &e);
	int idx = perfdata_add_event(pd, &e.ev);
	if (idx < 0)
		return -1;
	FUZZ_CHECK((u32)idx == run.nr_events && idx < PERFDATA_MAX_EVENTS);
	run.events[idx] = e;	/* the writer copied it; ours is for the checks */
	run.events[idx].ev.name = run.events[idx].name;
	run.nr_events++;
	return 0;
}

/* One call; false once the writer has failed (it must say why). */
static bool do_op(struct input *in, struct perfdata *pd)
{
	struct expect *x = &run.expect[run.nr_expect];
	int rc = 0;

	memset(x, 0, sizeof(*x));
	x->op = (enum op)(in_u8(in) % OP_NR);
	switch (x->op) {
	case OP_COMM:
		rc = perfdata_comm(pd);
		break;
	case OP_MMAP2:
		read_mmap(in, x);
		rc = perfdata_mmap2(pd, &x->m);
		break;
	case OP_SAMPLE:
		read_sample(in, &x->s);
		rc = perfdata_sample(pd, &x->s);
		break;
	case OP_LOST:
		x->event = in_u8(in) % (run.nr_events + 1);
		x->count = in_u64(in);
		rc = perfdata_lost(pd, x->event, x->count);
		break;
	case OP_LOST_SAMPLES:
		x->count = in_u64(in);
		rc = perfdata_lost_samples(pd, x->count);
		break;
	case OP_FLUSH:
		rc = perfdata_flush(pd);
		if (!rc) {
			run.committed = run.nr_expect;
			run.readable = true;
		}
		break;
	case OP_ADD_EVENT:
		rc = add_event(in, pd);
		break;
	default:
		break;
	}
	if (rc) {
		FUZZ_CHECK(perfdata_status(pd) != 0 && perfdata_error(pd)[0]);
		return false;
	}
	if (x->op <= OP_LOST_SAMPLES)
		run.nr_expect++;
	return true;
}

/* ---- what must read back ------------------------------------------------ */

static u64 sample_type_of(u32 event)
{
	u64 t = run.events[event].ev.sample_type;
	return run.nr_events > 1 ? t | PERF_SAMPLE_IDENTIFIER : t;
}

static u32 pid_of(void) { return run.cfg.pid ? run.cfg.pid : PERFDATA_PID; }

static u64 time_of(const struct bp_sample *s)
{
	u64 hz = run.cfg.tsc_hz;
	if (!(s->flags & BP_SAMPLE_TIME))
		return 0;
	/* floor(tsc * 1e9 / hz), modulo 2^64 like the writer's u64 sum */
	return hz ? (u64)((unsigned __int128)s->tsc * 1000000000u / hz) : s->tsc;
}

static u64 field(u64 type, u64 bit, bool have, u64 v)
{
	return (type & bit) && have ? v : 0;
}

static void check_sample(const struct perfdata_record *r, const struct bp_sample *s)
{
	u64 t = sample_type_of(s->event), id = PERFDATA_ID_BASE + s->event;
	u16 misc = PERF_RECORD_MISC_USER | (s->flags & BP_SAMPLE_EXACT_IP ? PERF_RECORD_MISC_EXACT_IP : 0);

	FUZZ_CHECK(r->type == PERF_RECORD_SAMPLE && r->misc == misc);
	FUZZ_CHECK(r->attr == (int)s->event);
	FUZZ_CHECK(r->id == field(t, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID, true, id));
	FUZZ_CHECK(r->ip == field(t, BP_SAMPLE_IP, true, s->ip));
	FUZZ_CHECK(r->pid == field(t, BP_SAMPLE_TID, true, pid_of()) && r->tid == r->pid);
	FUZZ_CHECK(r->time == field(t, BP_SAMPLE_TIME, true, time_of(s)));
	FUZZ_CHECK(r->addr == field(t, BP_SAMPLE_ADDR, s->flags & BP_SAMPLE_ADDR, s->addr));
	FUZZ_CHECK(r->cpu == field(t, BP_SAMPLE_CPU, true, s->cpu));
	FUZZ_CHECK(r->period == field(t, BP_SAMPLE_PERIOD, true, s->period));
	/* PERF_SAMPLE_WEIGHT is the load latency (var1), _WEIGHT_STRUCT all */
	FUZZ_CHECK(r->weight == (field(t, BP_SAMPLE_WEIGHT, s->flags & BP_SAMPLE_WEIGHT,
				       s->weight & BP_WEIGHT_LOAD_MASK) |
				 field(t, BP_SAMPLE_WEIGHT_STRUCT, s->flags & BP_SAMPLE_WEIGHT, s->weight)));
	FUZZ_CHECK(r->data_src == field(t, BP_SAMPLE_DATA_SRC, s->flags & BP_SAMPLE_DATA_SRC,
					s->data_src));
	bool chain = (t & BP_SAMPLE_CALLCHAIN) && (s->flags & BP_SAMPLE_CALLCHAIN);
	u32 n = MIN(s->callchain_len, (u32)BP_MAX_CALLCHAIN);
	FUZZ_CHECK(r->nr_callchain == (chain ? 2 + n : 0));
	if (chain) {
		FUZZ_CHECK(perfdata_callchain_at(r, 0) == PERF_CONTEXT_USER);
		FUZZ_CHECK(perfdata_callchain_at(r, 1) == s->ip);
		for (u32 i = 0; i < n; i++)
			FUZZ_CHECK(perfdata_callchain_at(r, 2 + i) == s->callchain[i]);
	}
}

static void check_record(const struct perfdata_record *r, const struct expect *x)
{
	char comm[32];
	switch (x->op) {
	case OP_SAMPLE:
		check_sample(r, &x->s);
		break;
	case OP_COMM:
		snprintf(comm, sizeof(comm), "%s", run.cfg.comm ? run.cfg.comm : "bareperf");
		FUZZ_CHECK(r->type == PERF_RECORD_COMM && r->pid == pid_of() && r->tid == pid_of());
		FUZZ_CHECK(strcmp(r->name, comm) == 0);
		break;
	case OP_MMAP2:
		FUZZ_CHECK(r->type == PERF_RECORD_MMAP2 && r->misc == PERF_RECORD_MISC_USER);
		FUZZ_CHECK(r->pid == pid_of() && r->tid == pid_of());
		FUZZ_CHECK(r->start == x->m.start && r->len == x->m.len && r->pgoff == x->m.pgoff);
		FUZZ_CHECK(strcmp(r->name, x->filename) == 0);
		break;
	case OP_LOST:
		FUZZ_CHECK(r->type == PERF_RECORD_LOST && r->attr == (int)x->event);
		FUZZ_CHECK(r->id == PERFDATA_ID_BASE + x->event && r->lost == x->count);
		break;
	case OP_LOST_SAMPLES:
		FUZZ_CHECK(r->type == PERF_RECORD_LOST_SAMPLES && r->lost == x->count);
		break;
	default:
		FUZZ_CHECK(!"an op without a record was expected");
	}
}

static void check_attrs(const struct perfdata_reader *r)
{
	FUZZ_CHECK(r->nr_attrs == run.nr_events);
	for (u32 i = 0; i < run.nr_events; i++) {
		const struct perfdata_event *ev = &run.events[i].ev;
		const struct perfdata_rattr *a = &r->attrs[i];
		u64 flags = (u64)ev->precise << PERF_ATTR_PRECISE_SHIFT |
			    PERF_ATTR_FLAG_SAMPLE_ID_ALL |
			    (ev->freq ? PERF_ATTR_FLAG_FREQ : 0) |
			    (run.cfg.tsc_hz ? PERF_ATTR_FLAG_USE_CLOCKID : 0) |
			    (ev->exclude_user ? PERF_ATTR_FLAG_EXCLUDE_USER : 0) |
			    (ev->exclude_kernel ? PERF_ATTR_FLAG_EXCLUDE_KERNEL : 0) |
			    (ev->exclude_user || ev->exclude_kernel ? PERF_ATTR_FLAG_EXCLUDE_HV : 0);
		FUZZ_CHECK(a->type == ev->type && a->config == ev->config);
		FUZZ_CHECK(a->config1 == ev->config1 && a->config2 == ev->config2);
		FUZZ_CHECK(a->sample_period == ev->sample_period);
		FUZZ_CHECK(a->sample_type == sample_type_of(i) && a->flags == flags);
		FUZZ_CHECK(a->nr_ids == 1 && a->ids[0] == PERFDATA_ID_BASE + i);
		if (run.finished)
			FUZZ_CHECK(a->name && a->name_len == strlen(ev->name) &&
				   memcmp(a->name, ev->name, a->name_len) == 0);
	}
}

/* A string feature: present with the config's text (cut to 127), or
 * absent when the text is empty (ARCH: always present). */
static void check_feature(const struct perfdata_reader *r, int bit, const char *want)
{
	char got[200], cut[128];
	snprintf(cut, sizeof(cut), "%s", want ? want : "");
	bool present = perfdata_read_feature_string(r, bit, got, sizeof(got));
	FUZZ_CHECK(present == (cut[0] != 0 || bit == HEADER_ARCH));
	if (present)
		FUZZ_CHECK(strcmp(got, cut) == 0);
}

static void check_features(const struct perfdata_reader *r)
{
	const struct perfdata_config *c = &run.cfg;
	u32 avail, online;
	check_feature(r, HEADER_HOSTNAME, c->hostname);
	check_feature(r, HEADER_OSRELEASE, c->osrelease);
	check_feature(r, HEADER_VERSION, c->version);
	check_feature(r, HEADER_ARCH, c->arch ? c->arch : "x86_64");
	check_feature(r, HEADER_CPUDESC, c->cpudesc);
	check_feature(r, HEADER_CPUID, c->cpuid);
	bool nrcpus = perfdata_read_nrcpus(r, &avail, &online);
	FUZZ_CHECK(nrcpus == (c->nr_cpus_online != 0));
	if (nrcpus)
		FUZZ_CHECK(online == c->nr_cpus_online &&
			   avail == (c->nr_cpus_avail ? c->nr_cpus_avail : c->nr_cpus_online));
}

static void check_file(const u8 *buf, u64 len)
{
	static struct perfdata_reader r;
	struct perfdata_record rec;

	if (perfdata_read_open(&r, buf, len)) {
		fprintf(stderr, "reader: %s\n", r.err);
		FUZZ_CHECK(!"the written file does not open");
	}
	check_attrs(&r);
	for (u32 i = 0; i < run.committed; i++) {
		int rc = perfdata_read_next(&r, &rec);
		if (rc != 1)
			fprintf(stderr, "record %u of %u: %d %s\n", i, run.committed, rc, r.err);
		FUZZ_CHECK(rc == 1);
		check_record(&rec, &run.expect[i]);
	}
	FUZZ_CHECK(perfdata_read_next(&r, &rec) == 0);
	if (run.finished)
		check_features(&r);
}

/* ---- the writer's run ------------------------------------------------------ */

static void write_and_check(struct input *in)
{
	struct perfdata_sink sink;
	struct perfdata_mem_sink mem;

	memset(&run, 0, sizeof(run));
	run.chaos = in_bool(in);
	size_t cap = in_bool(in) ? 1u << 20 : 512 + in_u16(in) % 16384;
	size_t buf_size = PERFDATA_MIN_BUFFER * (1 + in_u8(in) % 8);
	size_t mem_size = perfdata_mem_size(buf_size);
	u8 *file = malloc(cap);
	void *state = aligned_alloc(8, (mem_size + 7) & ~(size_t)7);
	read_config(in, &run.cfg);
	perfdata_mem_sink_init(&sink, &mem, file, cap);
	struct perfdata *pd = perfdata_open(&sink, &run.cfg, state, mem_size);
	FUZZ_CHECK(pd != NULL);

	bool alive = true;
	unsigned n = 1 + in_u8(in) % 6;
	for (unsigned i = 0; i < n && alive; i++) {
		alive = add_event(in, pd) == 0;
		FUZZ_CHECK(alive || perfdata_error(pd)[0]);
	}
	for (unsigned ops = 0; alive && in->left && ops < MAX_OPS; ops++)
		alive = do_op(in, pd);
	if (alive && perfdata_finish(pd) == 0) {
		run.committed = run.nr_expect;
		run.readable = run.finished = true;
		struct bp_sample late = { 0 };
		FUZZ_CHECK(perfdata_sample(pd, &late) != 0);	/* no record after finish */
	}
	if (run.readable)
		check_file(file, mem.len);
	walk_reader(file, mem.len);
	perfdata_close(pd);
	free(state);
	free(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	if (in_u8(&in) & 1) {
		/* exact-size copy: ASan catches a read one byte past the end */
		u8 *copy = malloc(in.left ? in.left : 1);
		memcpy(copy, in.p, in.left);
		walk_reader(copy, in.left);
		free(copy);
	} else {
		write_and_check(&in);
	}
	return 0;
}
