/* perf.data writer: see perfdata.h for the layout and the contract. All
 * records are multiples of 8 bytes and the output buffer is 8-byte aligned,
 * so records are composed in place as u64 words (x86 is little-endian, as
 * perf.data is). */
#include "perfdata.h"
#include "perfdata_int.h"
#include "../lib/fmt.h"
#include "../lib/plat.h"
#include "../lib/str.h"

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
	pd->start_tsc = cfg->start_tsc;
	pd->tod_ns = cfg->tod_ns;
	pd->total_mem_kb = cfg->total_mem_kb;
	pd->free_mem_kb = cfg->free_mem_kb;
	pd->argc = MIN(cfg->argv ? cfg->argc : 0, PERFDATA_MAX_ARGS);
	for (u32 i = 0; i < pd->argc; i++)
		bp_strlcpy(pd->args[i], cfg->argv[i] ? cfg->argv[i] : "", MAX_STRING);
	pd->nr_cpus_online = cfg->nr_cpus_online;
	pd->nr_cpus_avail = cfg->nr_cpus_avail ? cfg->nr_cpus_avail
					       : cfg->nr_cpus_online;
	pd->system_wide = cfg->system_wide;
	pd->nr_caches = MIN(cfg->caches ? cfg->nr_caches : 0, PERFDATA_MAX_CACHES);
	for (u32 i = 0; i < pd->nr_caches; i++) {
		const struct perfdata_cache *c = &cfg->caches[i];
		pd->caches[i] = (struct pd_cache){ .level = c->level, .line_size = c->line_size,
						   .sets = c->sets, .ways = c->ways, .size = c->size };
		bp_strlcpy(pd->caches[i].type, c->type ? c->type : "Unified", sizeof(pd->caches[i].type));
	}
	pd->nr_pmu_caps = MIN(cfg->pmu_caps ? cfg->nr_pmu_caps : 0, PERFDATA_MAX_PMU_CAPS);
	for (u32 i = 0; i < pd->nr_pmu_caps; i++) {
		bp_strlcpy(pd->pmu_caps[i][0], cfg->pmu_caps[i].name, sizeof(pd->pmu_caps[i][0]));
		bp_strlcpy(pd->pmu_caps[i][1], cfg->pmu_caps[i].value, sizeof(pd->pmu_caps[i][1]));
	}
}

/* The CPUs with ids, checked: ascending, each below PERFDATA_MAX_CPUS. */
static bool copy_cpus(struct perfdata *pd, const struct perfdata_config *cfg)
{
	u32 n = cfg->cpus ? cfg->nr_cpus : 0;
	if (n > PERFDATA_MAX_CPUS)
		return false;
	pd->nr_slots = n ? n : 1;
	pd->cpu_of_slot[0] = -1;
	for (u32 k = 0; k < n; k++) {
		u32 cpu = cfg->cpus[k];
		if (cpu >= PERFDATA_MAX_CPUS || (k && cpu <= cfg->cpus[k - 1]))
			return false;
		pd->cpu_of_slot[k] = (s32)cpu;
		pd->slot_of_cpu[cpu] = (u16)(k + 1);
	}
	return true;
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
	if (!copy_cpus(pd, cfg)) {
		perfdata_close(pd);
		return NULL;
	}
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

u64 pd_slot_id(const struct perfdata *pd, u32 event, u32 slot)
{
	return PERFDATA_ID_BASE + (u64)event * pd->nr_slots + slot;
}

u64 perfdata_event_id(const struct perfdata *pd, u32 event) { return pd_slot_id(pd, event, 0); }

u64 perfdata_event_cpu_id(const struct perfdata *pd, u32 event, u32 cpu)
{
	u32 slot = cpu < PERFDATA_MAX_CPUS && pd->slot_of_cpu[cpu] ? pd->slot_of_cpu[cpu] - 1u : 0;
	return pd_slot_id(pd, event, slot);
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
	if ((ev->sample_type & BP_SAMPLE_WEIGHT) && (ev->sample_type & BP_SAMPLE_WEIGHT_STRUCT))
		return event_error(pd, "sample_type has both PERF_SAMPLE_WEIGHT and _WEIGHT_STRUCT "
				   "(one weight field: perf_event_open refuses both)", ev->name);
	if (ev->precise > 3)
		return event_error(pd, "precise level above 3", ev->name);
	/* perf reports 0% everywhere without a period (PERF_SAMPLE_PERIOD). */
	if (!ev->sample_period && !(ev->sample_type & BP_SAMPLE_PERIOD))
		return event_error(pd, "neither a sample period nor PERF_SAMPLE_PERIOD", ev->name);
	slot = &pd->events[pd->nr_events];
	slot->ev = *ev;
	bp_memcpy(slot->name, ev->name, name_len + 1);
	slot->ev.name = slot->name;
	return (int)pd->nr_events++;
}

int perfdata_build_id(struct perfdata *pd, const char *filename, const u8 *id, u32 len)
{
	struct pd_build_id *b;
	if (pd->status)
		return pd->status;
	if (!filename || !filename[0] || !len || len > PERFDATA_BUILD_ID_MAX)
		return fail(pd, -1, "perf.data: a build-id needs a file name and 1 to %d bytes",
			    PERFDATA_BUILD_ID_MAX);
	if (bp_strlen(filename) >= MAX_FILENAME)
		return fail(pd, -1, "perf.data: build-id file name longer than %d characters",
			    MAX_FILENAME - 1);
	if (pd->nr_build_ids == PERFDATA_MAX_BUILD_IDS)
		return fail(pd, -1, "perf.data: more than %d build-ids", PERFDATA_MAX_BUILD_IDS);
	b = &pd->build_ids[pd->nr_build_ids++];
	bp_memcpy(b->id, id, len);
	b->len = len;
	bp_strlcpy(b->filename, filename, sizeof(b->filename));
	return 0;
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
int pd_put_bytes(struct perfdata *pd, const void *data, size_t len)
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

void pd_put_le(u8 *p, u64 v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (u8)(v >> (8 * i));
}

/* ---- header and attrs ------------------------------------------------- */

static u64 event_sample_type(const struct perfdata *pd, u32 i)
{
	u64 t = pd->events[i].ev.sample_type;
	/* With several events perf finds a sample's attr by its first word,
	 * PERF_SAMPLE_IDENTIFIER (perf_evlist__id_pos in tools/perf); with
	 * one it is harmless and keeps all files alike. */
	if (pd->nr_events > 1)
		t |= PERF_SAMPLE_IDENTIFIER;
	return t;
}

void pd_encode_attr(const struct perfdata *pd, u32 i, u8 attr[PERFDATA_ATTR_SIZE])
{
	const struct perfdata_event *ev = &pd->events[i].ev;
	/* What was counted: ring 0 unless :u, ring 3 unless :k (perf sets
	 * exclude_hv along with either, as its modifiers do). */
	u64 flags = ((u64)ev->precise << PERF_ATTR_PRECISE_SHIFT) | PERF_ATTR_FLAG_SAMPLE_ID_ALL;
	if (ev->exclude_user)
		flags |= PERF_ATTR_FLAG_EXCLUDE_USER | PERF_ATTR_FLAG_EXCLUDE_HV;
	if (ev->exclude_kernel)
		flags |= PERF_ATTR_FLAG_EXCLUDE_KERNEL | PERF_ATTR_FLAG_EXCLUDE_HV;
	if (ev->freq)
		flags |= PERF_ATTR_FLAG_FREQ;
	if (pd->tsc_hz)
		flags |= PERF_ATTR_FLAG_USE_CLOCKID;
	bp_memset(attr, 0, PERFDATA_ATTR_SIZE);
	pd_put_le(attr + 0, ev->type, 4);
	pd_put_le(attr + 4, PERFDATA_ATTR_SIZE, 4);
	pd_put_le(attr + 8, ev->config, 8);
	pd_put_le(attr + 16, ev->sample_period, 8);
	pd_put_le(attr + 24, event_sample_type(pd, i), 8);
	pd_put_le(attr + 40, flags, 8);
	pd_put_le(attr + 56, ev->config1, 8);
	pd_put_le(attr + 64, ev->config2, 8);
	if (pd->tsc_hz)
		pd_put_le(attr + PERF_ATTR_CLOCKID_OFFSET, PERFDATA_CLOCKID, 4);
}

static u64 data_size(const struct perfdata *pd)
{
	return pd->sunk + pd->buf_len - pd->data_offset;
}

static void encode_header(const struct perfdata *pd, u64 data_bytes,
			  const u64 features[FEATURE_WORDS], u8 hdr[PERFDATA_HEADER_SIZE])
{
	bp_memcpy(hdr, "PERFILE2", 8);
	pd_put_le(hdr + 8, PERFDATA_HEADER_SIZE, 8);
	pd_put_le(hdr + 16, PERFDATA_FILE_ATTR_SIZE, 8);
	pd_put_le(hdr + 24, PERFDATA_HEADER_SIZE, 8);		/* attrs.offset */
	pd_put_le(hdr + 32, (u64)pd->nr_events * PERFDATA_FILE_ATTR_SIZE, 8);
	pd_put_le(hdr + 40, pd->data_offset, 8);
	pd_put_le(hdr + 48, data_bytes, 8);
	pd_put_le(hdr + 56, 0, 8);					/* event_types */
	pd_put_le(hdr + 64, 0, 8);
	for (int w = 0; w < FEATURE_WORDS; w++)
		pd_put_le(hdr + 72 + 8 * w, features[w], 8);
}

static void write_preamble(struct perfdata *pd);

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
	u64 ids_bytes = 8ULL * pd->nr_slots;	/* each event's */
	ids_offset = PERFDATA_HEADER_SIZE + (u64)pd->nr_events * PERFDATA_FILE_ATTR_SIZE;
	pd->data_offset = ids_offset + ids_bytes * pd->nr_events;
	encode_header(pd, 0, no_features, hdr);
	pd_put_bytes(pd, hdr, sizeof(hdr));
	for (u32 i = 0; i < pd->nr_events; i++) {
		pd_encode_attr(pd, i, attr);
		pd_put_le(attr + PERFDATA_ATTR_SIZE, ids_offset + ids_bytes * i, 8);
		pd_put_le(attr + PERFDATA_ATTR_SIZE + 8, ids_bytes, 8);
		pd_put_bytes(pd, attr, sizeof(attr));
	}
	for (u32 i = 0; i < pd->nr_events; i++)
		for (u32 k = 0; k < pd->nr_slots; k++) {
			u64 id = pd_slot_id(pd, i, k);
			pd_put_bytes(pd, &id, 8);
		}
	pd->state = PD_STARTED;
	if (!pd->status)
		write_preamble(pd);
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

/* sample_id_all's trailer, in the order the kernel appends it
 * (__perf_event__output_id_sample): TID, TIME, CPU, then IDENTIFIER when
 * the attr has it. Every event's sample_type has the same id bits, so
 * event 0's stands for all. */
static u64 *put_sample_id(const struct perfdata *pd, u64 *p, u64 time_ns, u32 cpu)
{
	u64 type = event_sample_type(pd, 0);
	if (type & BP_SAMPLE_TID)
		*p++ = pd->pid | (u64)pd->pid << 32;
	if (type & BP_SAMPLE_TIME)
		*p++ = time_ns;
	if (type & PERF_SAMPLE_ID)
		*p++ = perfdata_event_cpu_id(pd, 0, cpu);
	if (type & BP_SAMPLE_CPU)
		*p++ = cpu;
	if (type & PERF_SAMPLE_IDENTIFIER)
		*p++ = perfdata_event_cpu_id(pd, 0, cpu);
	return p;
}

static u64 start_ns(const struct perfdata *pd)
{
	return pd_tsc_to_ns(pd->start_tsc, pd->tsc_hz);
}

/* PERF_RECORD_EVENT_UPDATE with the event's name: perf report and script
 * take it (perf_event__process_event_update) where no EVENT_DESC exists,
 * i.e. in a file cut before perfdata_finish. */
static void write_event_name(struct perfdata *pd, u32 i)
{
	const char *name = pd->events[i].name;
	u64 *p = reserve(pd, 24 + PERFDATA_MAX_NAME + 8);
	size_t words;
	if (!p)
		return;
	p[1] = PERF_EVENT_UPDATE_NAME;
	p[2] = perfdata_event_id(pd, i);
	words = 3 + put_string_words(p + 3, name, bp_strlen(name));
	p[0] = record_header(PERF_RECORD_EVENT_UPDATE, 0, words * 8);
	commit(pd, words * 8);
}

/* An empty kernel mapping, in the upper half where no firmware address is:
 * with attrs that count ring 0, perf report warns that kernel samples
 * cannot be resolved unless a kernel mapping exists (the kernel map perf
 * builds from an MMAP named "[kernel.kallsyms]..." with misc KERNEL). */
#define PERFDATA_KERNEL_START	0xffff800000000000ULL
#define PERFDATA_KERNEL_NAME	"[kernel.kallsyms]_text"
static void write_kernel_placeholder(struct perfdata *pd)
{
	u64 *p = reserve(pd, MAX_RECORD), *end;
	if (!p)
		return;
	p[1] = 0xffffffffULL;		/* pid -1, tid 0: the kernel's */
	p[2] = PERFDATA_KERNEL_START;
	p[3] = 4096;
	p[4] = 0;
	end = p + 5 + put_string_words(p + 5, PERFDATA_KERNEL_NAME, bp_strlen(PERFDATA_KERNEL_NAME));
	end = put_sample_id(pd, end, start_ns(pd), 0);
	p[0] = record_header(PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, (size_t)(end - p) * 8);
	commit(pd, (size_t)(end - p) * 8);
}

/* PERF_RECORD_ID_INDEX: each id's event CPU index, CPU and thread
 * (struct id_index_entry), as perf record writes it before the samples
 * (perf_event__synthesize_id_index); perf's reader refuses an id no attr
 * has. In records of ID_INDEX_CHUNK entries (a record's size is 16 bits). */
#define ID_INDEX_CHUNK	64
static void write_id_index(struct perfdata *pd)
{
	u32 total = pd->nr_events * pd->nr_slots;
	s64 tid = pd->system_wide ? -1 : (s64)pd->pid;
	for (u32 first = 0; first < total; first += ID_INDEX_CHUNK) {
		u32 n = MIN(total - first, ID_INDEX_CHUNK);
		u64 *p = reserve(pd, 16 + 32 * n);
		if (!p)
			return;
		p[1] = n;
		for (u32 j = 0; j < n; j++) {
			u32 slot = (first + j) % pd->nr_slots;
			u64 *e = p + 2 + 4 * j;
			e[0] = pd_slot_id(pd, (first + j) / pd->nr_slots, slot);
			e[1] = slot;
			e[2] = (u64)(s64)pd->cpu_of_slot[slot];
			e[3] = (u64)tid;
		}
		p[0] = record_header(PERF_RECORD_ID_INDEX, 0, 16 + 32 * n);
		commit(pd, 16 + 32 * n);
	}
}

/* PERF_RECORD_THREAD_MAP: the threads the events count (struct
 * perf_record_thread_map: nr, then {pid, comm[16]}): perf's dummy map
 * (pid -1) system-wide, else the one process. */
static void write_thread_map(struct perfdata *pd)
{
	u64 *p = reserve(pd, 16 + 24);
	if (!p)
		return;
	p[1] = 1;
	p[2] = pd->system_wide ? (u64)-1 : pd->pid;
	bp_memset(p + 3, 0, 16);
	if (!pd->system_wide)
		bp_strlcpy((char *)(p + 3), pd->comm, 16);
	p[0] = record_header(PERF_RECORD_THREAD_MAP, 0, 16 + 24);
	commit(pd, 16 + 24);
}

/* PERF_RECORD_CPU_MAP: the CPUs the events count on, as a list
 * (PERF_CPU_MAP__CPUS: u16 type, u16 nr, u16 cpu[nr], padded to 8; the
 * layout every perf reads): -1 alone without a CPU list. */
static void write_cpu_map(struct perfdata *pd)
{
	size_t bytes = align8(8 + 4 + 2 * (size_t)pd->nr_slots);
	u64 *p = reserve(pd, bytes);
	if (!p)
		return;
	bp_memset(p, 0, bytes);
	u16 *w = (u16 *)(p + 1);
	w[0] = PERF_CPU_MAP__CPUS;
	w[1] = (u16)pd->nr_slots;
	for (u32 k = 0; k < pd->nr_slots; k++)
		w[2 + k] = (u16)pd->cpu_of_slot[k];
	p[0] = record_header(PERF_RECORD_CPU_MAP, 0, bytes);
	commit(pd, bytes);
}

static void write_preamble(struct perfdata *pd)
{
	for (u32 i = 0; i < pd->nr_events; i++)
		write_event_name(pd, i);
	write_id_index(pd);
	write_kernel_placeholder(pd);
	write_thread_map(pd);
	write_cpu_map(pd);
}

int perfdata_comm(struct perfdata *pd)
{
	size_t len = bp_strlen(pd->comm), words;
	u64 *p;
	if (ready_for_record(pd) || !(p = reserve(pd, MAX_RECORD)))
		return pd->status;
	p[1] = pd->pid | (u64)pd->pid << 32;
	words = 2 + put_string_words(p + 2, pd->comm, len);
	words = (size_t)(put_sample_id(pd, p + words, start_ns(pd), 0) - p);
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
	words = (size_t)(put_sample_id(pd, p + words, start_ns(pd), 0) - p);
	p[0] = record_header(PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, words * 8);
	commit(pd, words * 8);
	return 0;
}

int perfdata_lost(struct perfdata *pd, u32 event, u64 count)
{
	u64 *p, *end;
	if (ready_for_record(pd))
		return pd->status;
	if (event >= pd->nr_events)
		return fail(pd, -1, "perf.data: LOST for event %u of %u", event, pd->nr_events);
	if (!(p = reserve(pd, 24 + ID_TRAILER_MAX)))
		return pd->status;
	p[1] = perfdata_event_id(pd, event);
	p[2] = count;
	end = put_sample_id(pd, p + 3, pd->last_sample_ns, 0);
	p[0] = record_header(PERF_RECORD_LOST, 0, (size_t)(end - p) * 8);
	commit(pd, (size_t)(end - p) * 8);
	return 0;
}

int perfdata_lost_samples(struct perfdata *pd, u64 count)
{
	u64 *p, *end;
	if (ready_for_record(pd) || !(p = reserve(pd, 16 + ID_TRAILER_MAX)))
		return pd->status;
	p[1] = count;
	end = put_sample_id(pd, p + 2, pd->last_sample_ns, 0);
	p[0] = record_header(PERF_RECORD_LOST_SAMPLES, 0, (size_t)(end - p) * 8);
	commit(pd, (size_t)(end - p) * 8);
	return 0;
}

int perfdata_finished_round(struct perfdata *pd)
{
	u64 *p;
	if (pd->samples == pd->samples_at_round)
		return pd->status;
	if (ready_for_record(pd) || !(p = reserve(pd, 8)))
		return pd->status;
	p[0] = record_header(PERF_RECORD_FINISHED_ROUND, 0, 8);
	commit(pd, 8);
	pd->samples_at_round = pd->samples;
	return 0;
}

/* TSC ticks to ns without overflow for any 64-bit count and no floating
 * point: whole seconds and the remainder are scaled apart. The remainder
 * product stays below 2^64 for TSC rates up to 18 GHz. */
u64 pd_tsc_to_ns(u64 tsc, u64 hz)
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

/* PERF_SAMPLE_RAW: u32 size, then size bytes, which make the pair a
 * whole number of u64s (perf_sample_save_raw_data pads to it): here the
 * sample's raw_head and its raw words, as Linux's IBS driver stores its
 * perf_ibs_data (caps, then the MSRs). A sample without them has the
 * head alone. */
static u64 *put_raw(u64 *p, const struct bp_sample *s)
{
	u32 words = (s->flags & BP_SAMPLE_RAW) ? MIN(s->raw_words, BP_SAMPLE_RAW_MAX) : 0;
	*p++ = (u64)(4 + 8 * words) | (u64)s->raw_head << 32;
	for (u32 i = 0; i < words; i++)
		*p++ = s->raw[i];
	return p;
}

/* The sample's time in ns, kept for HEADER_SAMPLE_TIME (the first and the
 * last sample's time). */
static u64 sample_time(struct perfdata *pd, const struct bp_sample *s)
{
	u64 ns;
	if (!(s->flags & BP_SAMPLE_TIME))
		return 0;
	ns = pd_tsc_to_ns(s->tsc, pd->tsc_hz);
	if (!pd->first_sample_ns || ns < pd->first_sample_ns)
		pd->first_sample_ns = ns;
	if (ns > pd->last_sample_ns)
		pd->last_sample_ns = ns;
	return ns;
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
	/* Fits: 8 header + 11 fields + callchain (3 + BP_MAX_CALLCHAIN) +
	 * raw (1 + BP_SAMPLE_RAW_MAX). */
	if (!(start = reserve(pd, 8 * (1 + 11 + 3 + BP_MAX_CALLCHAIN + 1 + BP_SAMPLE_RAW_MAX))))
		return pd->status;
	type = event_sample_type(pd, s->event);
	id = perfdata_event_cpu_id(pd, s->event, s->cpu);
	p = start + 1;
	/* The kernel's field order (perf_output_sample, kernel/events/core.c). */
	if (type & PERF_SAMPLE_IDENTIFIER)
		*p++ = id;
	if (type & BP_SAMPLE_IP)
		*p++ = s->ip;
	if (type & BP_SAMPLE_TID)
		*p++ = pd->pid | (u64)pd->pid << 32;
	if (type & BP_SAMPLE_TIME)
		*p++ = sample_time(pd, s);
	if (type & BP_SAMPLE_ADDR)
		*p++ = (s->flags & BP_SAMPLE_ADDR) ? s->addr : 0;
	if (type & PERF_SAMPLE_ID)
		*p++ = id;
	if (type & BP_SAMPLE_CPU)
		*p++ = s->cpu;
	if (type & BP_SAMPLE_PERIOD)
		*p++ = s->period;
	if (type & BP_SAMPLE_CALLCHAIN)
		p = put_callchain(p, s);
	if (type & BP_SAMPLE_RAW)
		p = put_raw(p, s);
	/* PERF_SAMPLE_WEIGHT alone is the load latency (Linux's
	 * weight.full); PERF_SAMPLE_WEIGHT_STRUCT, at the same place, all
	 * three latencies. */
	if (type & BP_SAMPLE_WEIGHT)
		*p++ = (s->flags & BP_SAMPLE_WEIGHT) ? (s->weight & BP_WEIGHT_LOAD_MASK) : 0;
	else if (type & BP_SAMPLE_WEIGHT_STRUCT)
		*p++ = (s->flags & BP_SAMPLE_WEIGHT) ? s->weight : 0;
	if (type & BP_SAMPLE_DATA_SRC)
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

int perfdata_finish(struct perfdata *pd)
{
	u64 features[FEATURE_WORDS] = { 0 }, offset, data_end;
	u64 sizes[PD_NR_FEATURES];
	u32 nr = 0;

	/* The records go first, so that a failure in the feature sections
	 * leaves them whole for perfdata_salvage. */
	if (ready_for_record(pd) || sink_buffer(pd))
		return pd->status;
	pd->records_end = pd->sunk;
	/* Pass 1: which sections exist and their sizes, so the table of
	 * {offset, size} (in bit order, right after the data) can go first. */
	for (u32 i = 0; i < PD_NR_FEATURES; i++) {
		struct feat_out count = { NULL, 0 };
		sizes[i] = pd_feature(&count, pd, pd_feature_bits[i]) ? count.bytes : 0;
		if (sizes[i]) {
			features[pd_feature_bits[i] / 64] |= BIT(pd_feature_bits[i] % 64);
			nr++;
		}
	}
	data_end = pd->data_offset + data_size(pd);
	offset = data_end + 16ULL * nr;
	for (u32 i = 0; i < PD_NR_FEATURES; i++) {
		u64 entry[2] = { offset, sizes[i] };
		if (!sizes[i])
			continue;
		pd_put_bytes(pd, entry, sizeof(entry));
		offset += sizes[i];
	}
	for (u32 i = 0; i < PD_NR_FEATURES; i++) {
		struct feat_out emit = { pd, 0 };
		if (sizes[i])
			pd_feature(&emit, pd, pd_feature_bits[i]);
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
