/* perf.data writer: see perfdata.h for the layout and the contract. All
 * records are multiples of 8 bytes and the output buffer is 8-byte aligned,
 * so records are composed in place as u64 words (x86 is little-endian, as
 * perf.data is). */
#include "perfdata.h"
#include "fmt.h"
#include "plat.h"
#include "str.h"

#define MAX_STRING	128	/* config strings are cut to this, with NUL */
#define MAX_FILENAME	1024
/* Largest record the writer composes: MMAP2 with the longest filename. */
#define MAX_RECORD	(64 + MAX_FILENAME + 8)
/* perf pads header strings to this (NAME_ALIGN in tools/perf/util/header.c). */
#define NAME_ALIGN	64
#define FEATURE_WORDS	4	/* 256-bit feature bitmap */

enum pd_state { PD_OPEN, PD_STARTED, PD_FINISHED };

struct pd_event {
	struct perfdata_event ev;	/* ev.name points to name[] */
	char name[PERFDATA_MAX_NAME];
};

struct perfdata {
	struct perfdata_sink sink;
	u64 tsc_hz;
	u32 pid;
	u32 nr_cpus_online, nr_cpus_avail;
	char comm[32];
	char cpudesc[MAX_STRING], cpuid[MAX_STRING], arch[MAX_STRING];
	char hostname[MAX_STRING], osrelease[MAX_STRING], version[MAX_STRING];
	struct pd_event events[PERFDATA_MAX_EVENTS];
	u32 nr_events;
	enum pd_state state;
	int status;
	char err[160];
	u64 data_offset;	/* where the data section starts */
	u64 sunk;		/* bytes handed to the sink so far */
	u64 samples;
	u64 buffered_samples;	/* of samples, those not yet sunk */
	u64 records_end;	/* finishing: where the records end (the
				 * feature sections follow); 0 before */
	bool allocated;
	size_t alloc_size;
	u64 *buf;		/* output buffer, 8-byte aligned */
	size_t buf_size, buf_len;	/* in bytes */
};

static size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

size_t perfdata_mem_size(size_t buf_size)
{
	return align8(sizeof(struct perfdata)) + align8(buf_size);
}

static int fail(struct perfdata *pd, int code, const char *fmt, ...) PRINTF_LIKE(3, 4);
static int fail(struct perfdata *pd, int code, const char *fmt, ...)
{
	va_list ap;
	if (pd->status)
		return pd->status;	/* keep the first cause */
	if (!pd->err[0]) {	/* ... also across perfdata_salvage */
		va_start(ap, fmt);
		bp_vsnprintf(pd->err, sizeof(pd->err), fmt, ap);
		va_end(ap);
	}
	pd->status = code;
	return code;
}

static void copy_config(struct perfdata *pd, const struct perfdata_config *cfg)
{
	pd->tsc_hz = cfg->tsc_hz;
	pd->pid = cfg->pid ? cfg->pid : PERFDATA_PID;
	bp_strlcpy(pd->comm, cfg->comm ? cfg->comm : "bareperf", sizeof(pd->comm));
	bp_strlcpy(pd->arch, cfg->arch ? cfg->arch : "x86_64", sizeof(pd->arch));
	bp_strlcpy(pd->cpudesc, cfg->cpudesc ? cfg->cpudesc : "", MAX_STRING);
	bp_strlcpy(pd->cpuid, cfg->cpuid ? cfg->cpuid : "", MAX_STRING);
	bp_strlcpy(pd->hostname, cfg->hostname ? cfg->hostname : "", MAX_STRING);
	bp_strlcpy(pd->osrelease, cfg->osrelease ? cfg->osrelease : "", MAX_STRING);
	bp_strlcpy(pd->version, cfg->version ? cfg->version : "", MAX_STRING);
	pd->nr_cpus_online = cfg->nr_cpus_online;
	pd->nr_cpus_avail = cfg->nr_cpus_avail ? cfg->nr_cpus_avail
					       : cfg->nr_cpus_online;
}

struct perfdata *perfdata_open(const struct perfdata_sink *sink,
			       const struct perfdata_config *cfg,
			       void *mem, size_t mem_size)
{
	struct perfdata *pd;
	bool allocated = false;

	if (!sink || !sink->append || !sink->write_at || !cfg)
		return NULL;
	if (!mem) {
		mem_size = perfdata_mem_size(PERFDATA_DEFAULT_BUFFER);
		mem = plat_alloc(mem_size);
		allocated = true;
	}
	if (!mem || ((uintptr_t)mem & 7) ||
	    mem_size < perfdata_mem_size(PERFDATA_MIN_BUFFER)) {
		if (allocated && mem)
			plat_free(mem);
		return NULL;
	}
	pd = mem;
	bp_memset(pd, 0, sizeof(*pd));
	pd->sink = *sink;
	pd->allocated = allocated;
	pd->alloc_size = mem_size;
	pd->buf = (u64 *)((u8 *)mem + align8(sizeof(*pd)));
	pd->buf_size = (mem_size - align8(sizeof(*pd))) & ~(size_t)7;
	copy_config(pd, cfg);
	return pd;
}

void perfdata_close(struct perfdata *pd)
{
	if (pd && pd->allocated)
		plat_free(pd);
}

int perfdata_status(const struct perfdata *pd) { return pd->status; }
const char *perfdata_error(const struct perfdata *pd) { return pd->err; }
u64 perfdata_bytes(const struct perfdata *pd) { return pd->sunk + pd->buf_len; }
u64 perfdata_samples(const struct perfdata *pd) { return pd->samples; }

u64 perfdata_event_id(const struct perfdata *pd, u32 event)
{
	(void)pd;
	return PERFDATA_ID_BASE + event;
}

static int event_error(struct perfdata *pd, const char *what, const char *name)
{
	fail(pd, -1, "perf.data: event '%.60s': %s", name ? name : "?", what);
	return -1;
}

int perfdata_add_event(struct perfdata *pd, const struct perfdata_event *ev)
{
	struct pd_event *slot;
	size_t name_len;

	if (pd->status)
		return -1;
	if (pd->state != PD_OPEN)
		return event_error(pd, "added after the file started", ev->name);
	if (pd->nr_events == PERFDATA_MAX_EVENTS)
		return event_error(pd, "too many events (PERFDATA_MAX_EVENTS)", ev->name);
	if (!ev->name || !ev->name[0])
		return event_error(pd, "no name", ev->name);
	name_len = bp_strlen(ev->name);
	if (name_len >= PERFDATA_MAX_NAME)
		return event_error(pd, "name longer than PERFDATA_MAX_NAME - 1", ev->name);
	if (ev->sample_type & ~PERFDATA_SAMPLE_SUPPORTED)
		return event_error(pd, "sample_type has bits the writer does not support", ev->name);
	if (ev->precise > 3)
		return event_error(pd, "precise level above 3", ev->name);
	/* perf reports 0% everywhere without a period (facts sheet). */
	if (!ev->sample_period && !(ev->sample_type & PERF_SAMPLE_PERIOD))
		return event_error(pd, "neither a sample period nor PERF_SAMPLE_PERIOD", ev->name);
	slot = &pd->events[pd->nr_events];
	slot->ev = *ev;
	bp_memcpy(slot->name, ev->name, name_len + 1);
	slot->ev.name = slot->name;
	return (int)pd->nr_events++;
}

/* ---- output buffer ------------------------------------------------------ */

static int sink_buffer(struct perfdata *pd)
{
	int rc;
	if (!pd->buf_len)
		return 0;
	rc = pd->sink.append(pd->sink.ctx, pd->buf, pd->buf_len);
	if (rc < 0)
		return fail(pd, rc, "perf.data: writing %zu bytes at offset %llu failed (%d)",
			    pd->buf_len, (unsigned long long)pd->sunk, rc);
	pd->sunk += pd->buf_len;
	pd->buf_len = 0;
	pd->buffered_samples = 0;
	return 0;
}

/* Room for bytes (<= MAX_RECORD) at the end of the buffer; NULL on error. */
static u64 *reserve(struct perfdata *pd, size_t bytes)
{
	if (pd->buf_len + bytes > pd->buf_size && sink_buffer(pd))
		return NULL;
	return (u64 *)((u8 *)pd->buf + pd->buf_len);
}

static void commit(struct perfdata *pd, size_t bytes) { pd->buf_len += bytes; }

/* Copies arbitrary bytes (attrs, features) through the buffer. */
static int put_bytes(struct perfdata *pd, const void *data, size_t len)
{
	const u8 *src = data;
	while (len) {
		size_t room = pd->buf_size - pd->buf_len, n = MIN(room, len);
		if (!room) {
			if (sink_buffer(pd))
				return pd->status;
			continue;
		}
		bp_memcpy((u8 *)pd->buf + pd->buf_len, src, n);
		pd->buf_len += n;
		src += n;
		len -= n;
	}
	return 0;
}

static void put_le(u8 *p, u64 v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (u8)(v >> (8 * i));
}

/* ---- header and attrs ------------------------------------------------- */

static u64 event_sample_type(const struct perfdata *pd, u32 i)
{
	u64 t = pd->events[i].ev.sample_type;
	/* With several events perf finds a sample's attr by its first word
	 * (facts sheet); with one it is harmless and keeps all files alike. */
	if (pd->nr_events > 1)
		t |= PERF_SAMPLE_IDENTIFIER;
	return t;
}

static void encode_attr(const struct perfdata *pd, u32 i, u8 attr[PERFDATA_ATTR_SIZE])
{
	const struct perfdata_event *ev = &pd->events[i].ev;
	u64 flags = PERF_ATTR_FLAG_EXCLUDE_KERNEL | PERF_ATTR_FLAG_EXCLUDE_HV |
		    ((u64)ev->precise << PERF_ATTR_PRECISE_SHIFT);
	if (ev->freq)
		flags |= PERF_ATTR_FLAG_FREQ;
	bp_memset(attr, 0, PERFDATA_ATTR_SIZE);
	put_le(attr + 0, ev->type, 4);
	put_le(attr + 4, PERFDATA_ATTR_SIZE, 4);
	put_le(attr + 8, ev->config, 8);
	put_le(attr + 16, ev->sample_period, 8);
	put_le(attr + 24, event_sample_type(pd, i), 8);
	put_le(attr + 40, flags, 8);
	put_le(attr + 56, ev->config1, 8);
	put_le(attr + 64, ev->config2, 8);
}

static u64 data_size(const struct perfdata *pd)
{
	return pd->sunk + pd->buf_len - pd->data_offset;
}

static void encode_header(const struct perfdata *pd, u64 data_bytes,
			  const u64 features[FEATURE_WORDS], u8 hdr[PERFDATA_HEADER_SIZE])
{
	bp_memcpy(hdr, "PERFILE2", 8);
	put_le(hdr + 8, PERFDATA_HEADER_SIZE, 8);
	put_le(hdr + 16, PERFDATA_FILE_ATTR_SIZE, 8);
	put_le(hdr + 24, PERFDATA_HEADER_SIZE, 8);		/* attrs.offset */
	put_le(hdr + 32, (u64)pd->nr_events * PERFDATA_FILE_ATTR_SIZE, 8);
	put_le(hdr + 40, pd->data_offset, 8);
	put_le(hdr + 48, data_bytes, 8);
	put_le(hdr + 56, 0, 8);					/* event_types */
	put_le(hdr + 64, 0, 8);
	for (int w = 0; w < FEATURE_WORDS; w++)
		put_le(hdr + 72 + 8 * w, features[w], 8);
}

int perfdata_start(struct perfdata *pd)
{
	static const u64 no_features[FEATURE_WORDS];
	u8 hdr[PERFDATA_HEADER_SIZE], attr[PERFDATA_FILE_ATTR_SIZE];
	u64 ids_offset;

	if (pd->status || pd->state != PD_OPEN)
		return pd->status ? pd->status
				  : fail(pd, -1, "perf.data: started twice");
	if (!pd->nr_events)
		return fail(pd, -1, "perf.data: no event added before the first record");
	ids_offset = PERFDATA_HEADER_SIZE + (u64)pd->nr_events * PERFDATA_FILE_ATTR_SIZE;
	pd->data_offset = ids_offset + 8ULL * pd->nr_events;
	encode_header(pd, 0, no_features, hdr);
	put_bytes(pd, hdr, sizeof(hdr));
	for (u32 i = 0; i < pd->nr_events; i++) {
		encode_attr(pd, i, attr);
		put_le(attr + PERFDATA_ATTR_SIZE, ids_offset + 8ULL * i, 8);
		put_le(attr + PERFDATA_ATTR_SIZE + 8, 8, 8);
		put_bytes(pd, attr, sizeof(attr));
	}
	for (u32 i = 0; i < pd->nr_events; i++) {
		u64 id = perfdata_event_id(pd, i);
		put_bytes(pd, &id, 8);
	}
	pd->state = PD_STARTED;
	return pd->status;
}

static int ready_for_record(struct perfdata *pd)
{
	if (pd->status)
		return pd->status;
	if (pd->state == PD_OPEN)
		return perfdata_start(pd);
	if (pd->state == PD_FINISHED)
		return fail(pd, -1, "perf.data: record written after finish");
	return 0;
}

static u64 record_header(u32 type, u16 misc, size_t size)
{
	return type | (u64)misc << 32 | (u64)size << 48;
}

/* ---- records ------------------------------------------------------------ */

/* Copies a NUL-terminated string into whole u64 words, zero padded;
 * returns the words used. */
static size_t put_string_words(u64 *p, const char *s, size_t len)
{
	size_t words = (len + 1 + 7) / 8;
	bp_memcpy(p, s, len);
	bp_memset((u8 *)p + len, 0, words * 8 - len);
	return words;
}

int perfdata_comm(struct perfdata *pd)
{
	size_t len = bp_strlen(pd->comm), words;
	u64 *p;
	if (ready_for_record(pd) || !(p = reserve(pd, MAX_RECORD)))
		return pd->status;
	p[1] = pd->pid | (u64)pd->pid << 32;
	words = 2 + put_string_words(p + 2, pd->comm, len);
	p[0] = record_header(PERF_RECORD_COMM, 0, words * 8);
	commit(pd, words * 8);
	return 0;
}

int perfdata_mmap2(struct perfdata *pd, const struct perfdata_mmap *m)
{
	size_t len, words;
	u64 *p;
	if (ready_for_record(pd))
		return pd->status;
	if (!m->filename || !m->filename[0] || !m->len)
		return fail(pd, -1, "perf.data: MMAP2 needs a file name and a length");
	len = bp_strlen(m->filename);
	if (len >= MAX_FILENAME)
		return fail(pd, -1, "perf.data: image path longer than %d characters",
			    MAX_FILENAME - 1);
	if (!(p = reserve(pd, MAX_RECORD)))
		return pd->status;
	p[1] = pd->pid | (u64)pd->pid << 32;
	p[2] = m->start;
	p[3] = m->len;
	p[4] = m->pgoff;
	p[5] = 0;		/* maj, min: no device, so perf opens the path */
	p[6] = 0;		/* ino */
	p[7] = 0;		/* ino_generation */
	p[8] = 5 | (u64)2 << 32;	/* PROT_READ|PROT_EXEC, MAP_PRIVATE */
	words = 9 + put_string_words(p + 9, m->filename, len);
	p[0] = record_header(PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, words * 8);
	commit(pd, words * 8);
	return 0;
}

int perfdata_lost(struct perfdata *pd, u32 event, u64 count)
{
	u64 *p;
	if (ready_for_record(pd))
		return pd->status;
	if (event >= pd->nr_events)
		return fail(pd, -1, "perf.data: LOST for event %u of %u", event, pd->nr_events);
	if (!(p = reserve(pd, 24)))
		return pd->status;
	p[0] = record_header(PERF_RECORD_LOST, 0, 24);
	p[1] = perfdata_event_id(pd, event);
	p[2] = count;
	commit(pd, 24);
	return 0;
}

int perfdata_lost_samples(struct perfdata *pd, u64 count)
{
	u64 *p;
	if (ready_for_record(pd) || !(p = reserve(pd, 16)))
		return pd->status;
	p[0] = record_header(PERF_RECORD_LOST_SAMPLES, 0, 16);
	p[1] = count;
	commit(pd, 16);
	return 0;
}

/* TSC ticks to ns without overflow for any 64-bit count and no floating
 * point: whole seconds and the remainder are scaled apart. The remainder
 * product stays below 2^64 for TSC rates up to 18 GHz. */
static u64 tsc_to_ns(u64 tsc, u64 hz)
{
	if (!hz)
		return tsc;
	return (tsc / hz) * 1000000000ULL + (tsc % hz) * 1000000000ULL / hz;
}

static u64 *put_callchain(u64 *p, const struct bp_sample *s)
{
	u32 n;
	if (!(s->flags & BP_SAMPLE_CALLCHAIN)) {
		*p++ = 0;
		return p;
	}
	/* As the kernel writes a user callchain: the context marker, the
	 * sampled IP, then the return addresses innermost first. */
	n = MIN(s->callchain_len, BP_MAX_CALLCHAIN);
	*p++ = 2 + n;
	*p++ = PERF_CONTEXT_USER;
	*p++ = s->ip;
	for (u32 i = 0; i < n; i++)
		*p++ = s->callchain[i];
	return p;
}

int perfdata_sample(struct perfdata *pd, const struct bp_sample *s)
{
	u64 *start, *p, type, id;
	u16 misc = PERF_RECORD_MISC_USER;
	size_t bytes;

	if (pd->state != PD_STARTED && ready_for_record(pd))
		return pd->status;
	if (pd->status)
		return pd->status;
	if (s->event >= pd->nr_events)
		return fail(pd, -1, "perf.data: sample for event %u of %u",
			    s->event, pd->nr_events);
	/* Fits: 8 header + 11 fields + callchain (3 + BP_MAX_CALLCHAIN). */
	if (!(start = reserve(pd, 8 * (1 + 11 + 3 + BP_MAX_CALLCHAIN))))
		return pd->status;
	type = event_sample_type(pd, s->event);
	id = perfdata_event_id(pd, s->event);
	p = start + 1;
	/* The kernel's field order (facts sheet). */
	if (type & PERF_SAMPLE_IDENTIFIER)
		*p++ = id;
	if (type & PERF_SAMPLE_IP)
		*p++ = s->ip;
	if (type & PERF_SAMPLE_TID)
		*p++ = pd->pid | (u64)pd->pid << 32;
	if (type & PERF_SAMPLE_TIME)
		*p++ = (s->flags & BP_SAMPLE_TIME) ? tsc_to_ns(s->tsc, pd->tsc_hz) : 0;
	if (type & PERF_SAMPLE_ADDR)
		*p++ = (s->flags & BP_SAMPLE_ADDR) ? s->addr : 0;
	if (type & PERF_SAMPLE_ID)
		*p++ = id;
	if (type & PERF_SAMPLE_CPU)
		*p++ = s->cpu;
	if (type & PERF_SAMPLE_PERIOD)
		*p++ = s->period;
	if (type & PERF_SAMPLE_CALLCHAIN)
		p = put_callchain(p, s);
	if (type & PERF_SAMPLE_WEIGHT)
		*p++ = (s->flags & BP_SAMPLE_WEIGHT) ? s->weight : 0;
	if (type & PERF_SAMPLE_DATA_SRC)
		*p++ = (s->flags & BP_SAMPLE_DATA_SRC) ? s->data_src : 0;
	if (s->flags & BP_SAMPLE_EXACT_IP)
		misc |= PERF_RECORD_MISC_EXACT_IP;
	bytes = (size_t)(p - start) * 8;
	*start = record_header(PERF_RECORD_SAMPLE, misc, bytes);
	commit(pd, bytes);
	pd->samples++;
	pd->buffered_samples++;
	return 0;
}

/* ---- flush and finish ----------------------------------------------------- */

static int rewrite_header(struct perfdata *pd, u64 data_bytes,
			  const u64 features[FEATURE_WORDS])
{
	u8 hdr[PERFDATA_HEADER_SIZE];
	int rc;
	encode_header(pd, data_bytes, features, hdr);
	rc = pd->sink.write_at(pd->sink.ctx, 0, hdr, sizeof(hdr));
	if (rc < 0)
		return fail(pd, rc, "perf.data: rewriting the header failed (%d)", rc);
	return 0;
}

int perfdata_push(struct perfdata *pd)
{
	if (pd->state == PD_FINISHED)
		return pd->status;
	if (ready_for_record(pd) || sink_buffer(pd))
		return pd->status;
	return 0;
}

int perfdata_flush(struct perfdata *pd)
{
	static const u64 no_features[FEATURE_WORDS];
	if (pd->state == PD_FINISHED)
		return pd->status;	/* the final header is in place */
	if (perfdata_push(pd))
		return pd->status;
	return rewrite_header(pd, data_size(pd), no_features);
}

int perfdata_salvage(struct perfdata *pd)
{
	static const u64 no_features[FEATURE_WORDS];
	if (!pd->sink.truncate || pd->state == PD_OPEN || pd->sunk < pd->data_offset)
		return pd->status ? pd->status : -1;
	pd->samples -= pd->buffered_samples;
	pd->buffered_samples = 0;
	pd->buf_len = 0;
	if (pd->records_end && pd->records_end < pd->sunk)
		pd->sunk = pd->records_end;	/* part of the feature sections */
	pd->records_end = 0;
	pd->state = PD_STARTED;
	pd->status = 0;		/* the writer goes on; err keeps the cause */
	int rc = pd->sink.truncate(pd->sink.ctx, pd->sunk);
	if (rc < 0)
		return fail(pd, rc, "perf.data: cutting the file back to %llu bytes failed (%d)",
			    (unsigned long long)pd->sunk, rc);
	if (rewrite_header(pd, pd->sunk - pd->data_offset, no_features))
		return pd->status;
	return 0;
}

/* Feature sections: each writer emits its section, or with pd NULL only
 * counts. A small cursor keeps the two passes identical. */
struct feat_out {
	struct perfdata *pd;	/* NULL: count only */
	u64 bytes;
};

static void feat_put(struct feat_out *o, const void *data, size_t len)
{
	if (o->pd)
		put_bytes(o->pd, data, len);
	o->bytes += len;
}

static void feat_u32(struct feat_out *o, u32 v) { feat_put(o, &v, 4); }

/* perf's header string: u32 length (NUL included, padded to NAME_ALIGN),
 * then the bytes. */
static void feat_string(struct feat_out *o, const char *s)
{
	static const u8 zeros[NAME_ALIGN];
	u32 len = (u32)bp_strlen(s), padded = (len + 1 + NAME_ALIGN - 1) & ~(u32)(NAME_ALIGN - 1);
	feat_u32(o, padded);
	feat_put(o, s, len);
	feat_put(o, zeros, padded - len);
}

static void feat_event_desc(struct feat_out *o, const struct perfdata *pd)
{
	u8 attr[PERFDATA_ATTR_SIZE];
	feat_u32(o, pd->nr_events);
	feat_u32(o, PERFDATA_ATTR_SIZE);
	for (u32 i = 0; i < pd->nr_events; i++) {
		u64 id = perfdata_event_id(pd, i);
		encode_attr(pd, i, attr);
		feat_put(o, attr, sizeof(attr));
		feat_u32(o, 1);
		feat_string(o, pd->events[i].name);
		feat_put(o, &id, 8);
	}
}

/* Emits feature bit's section; false if this file does not have it. */
static bool feature(struct feat_out *o, const struct perfdata *pd, int bit)
{
	switch (bit) {
	case HEADER_HOSTNAME:	if (!pd->hostname[0]) return false;
				feat_string(o, pd->hostname); return true;
	case HEADER_OSRELEASE:	if (!pd->osrelease[0]) return false;
				feat_string(o, pd->osrelease); return true;
	case HEADER_VERSION:	if (!pd->version[0]) return false;
				feat_string(o, pd->version); return true;
	case HEADER_ARCH:	feat_string(o, pd->arch); return true;
	case HEADER_NRCPUS:	if (!pd->nr_cpus_online) return false;
				feat_u32(o, pd->nr_cpus_avail);
				feat_u32(o, pd->nr_cpus_online); return true;
	case HEADER_CPUDESC:	if (!pd->cpudesc[0]) return false;
				feat_string(o, pd->cpudesc); return true;
	case HEADER_CPUID:	if (!pd->cpuid[0]) return false;
				feat_string(o, pd->cpuid); return true;
	case HEADER_EVENT_DESC:	feat_event_desc(o, pd); return true;
	default:		return false;
	}
}

static const int feature_bits[] = {
	HEADER_HOSTNAME, HEADER_OSRELEASE, HEADER_VERSION, HEADER_ARCH,
	HEADER_NRCPUS, HEADER_CPUDESC, HEADER_CPUID, HEADER_EVENT_DESC,
};

int perfdata_finish(struct perfdata *pd)
{
	u64 features[FEATURE_WORDS] = { 0 }, offset, data_end;
	u64 sizes[ARRAY_SIZE(feature_bits)];
	u32 nr = 0;

	/* The records go first, so that a failure in the feature sections
	 * leaves them whole for perfdata_salvage. */
	if (ready_for_record(pd) || sink_buffer(pd))
		return pd->status;
	pd->records_end = pd->sunk;
	/* Pass 1: which sections exist and their sizes, so the table of
	 * {offset, size} (in bit order, right after the data) can go first. */
	for (u32 i = 0; i < ARRAY_SIZE(feature_bits); i++) {
		struct feat_out count = { NULL, 0 };
		sizes[i] = feature(&count, pd, feature_bits[i]) ? count.bytes : 0;
		if (sizes[i]) {
			features[feature_bits[i] / 64] |= BIT(feature_bits[i] % 64);
			nr++;
		}
	}
	data_end = pd->data_offset + data_size(pd);
	offset = data_end + 16ULL * nr;
	for (u32 i = 0; i < ARRAY_SIZE(feature_bits); i++) {
		u64 entry[2] = { offset, sizes[i] };
		if (!sizes[i])
			continue;
		put_bytes(pd, entry, sizeof(entry));
		offset += sizes[i];
	}
	for (u32 i = 0; i < ARRAY_SIZE(feature_bits); i++) {
		struct feat_out emit = { pd, 0 };
		if (sizes[i])
			feature(&emit, pd, feature_bits[i]);
	}
	/* The header's data size stops where the feature table starts. */
	if (sink_buffer(pd) || rewrite_header(pd, data_end - pd->data_offset, features))
		return pd->status;
	pd->state = PD_FINISHED;
	return 0;
}

/* ---- memory sink ------------------------------------------------------- */

static int mem_append(void *ctx, const void *data, size_t len)
{
	struct perfdata_mem_sink *m = ctx;
	size_t fits = MIN(len, m->cap - m->len);
	bp_memcpy(m->buf + m->len, data, fits);
	m->len += fits;
	return fits == len ? 0 : -1;
}

static int mem_truncate(void *ctx, u64 size)
{
	struct perfdata_mem_sink *m = ctx;
	if (size > m->len)
		return -1;
	m->len = (size_t)size;
	return 0;
}

static int mem_write_at(void *ctx, u64 offset, const void *data, size_t len)
{
	struct perfdata_mem_sink *m = ctx;
	if (offset > m->len || len > m->len - offset)
		return -1;
	bp_memcpy(m->buf + offset, data, len);
	return 0;
}

void perfdata_mem_sink_init(struct perfdata_sink *sink,
			    struct perfdata_mem_sink *m, void *buf, size_t cap)
{
	m->buf = buf;
	m->cap = cap;
	m->len = 0;
	sink->append = mem_append;
	sink->write_at = mem_write_at;
	sink->truncate = mem_truncate;
	sink->ctx = m;
}
