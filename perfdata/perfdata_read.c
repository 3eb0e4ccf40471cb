/* perf.data reader: see perfdata_read.h. Reads fields byte by byte so any
 * buffer alignment works; validates before it trusts a length. */
#include "perfdata_read.h"
#include "../lib/fmt.h"
#include "../lib/str.h"

static u64 get_le(const u8 *p, unsigned bytes)
{
	u64 v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v |= (u64)p[i] << (8 * i);
	return v;
}

static int bad(struct perfdata_reader *r, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int bad(struct perfdata_reader *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bp_vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* True if [off, off+size) lies inside limit bytes, without overflow. */
static bool inside(u64 off, u64 size, u64 limit)
{
	return off <= limit && size <= limit - off;
}

/* The bytes [off, off+size) of the file if they are in memory: in the
 * whole file, or (chunked) in the head, the tail or the data window. */
static const u8 *at(const struct perfdata_reader *r, u64 off, u64 size)
{
	if (inside(off, size, r->head_len))
		return r->head + off;
	if (off >= r->tail_off && inside(off - r->tail_off, size, r->tail_len))
		return r->tail + (off - r->tail_off);
	if (off >= r->win_off && inside(off - r->win_off, size, r->win_len))
		return r->win + (off - r->win_off);
	return NULL;
}

static int read_attr(struct perfdata_reader *r, u32 i, const u8 *p, u64 attr_size)
{
	struct perfdata_rattr *a = &r->attrs[i];
	u64 ids_off = get_le(p + attr_size - 16, 8), ids_size = get_le(p + attr_size - 8, 8);
	u32 size = (u32)get_le(p + 4, 4);

	/* perf reads attr.size bytes, so it must match the file's attr_size. */
	if (size != attr_size - 16)
		return bad(r, "attr %u: size %u but header attr_size %llu - 16", i, size,
			   (unsigned long long)attr_size);
	a->type = (u32)get_le(p, 4);
	a->config = get_le(p + 8, 8);
	a->sample_period = get_le(p + 16, 8);
	a->sample_type = get_le(p + 24, 8);
	a->flags = get_le(p + 40, 8);
	a->config1 = get_le(p + 56, 8);
	a->config2 = get_le(p + 64, 8);
	const u8 *ids;

	if (ids_size % 8 || !inside(ids_off, ids_size, r->len))
		return bad(r, "attr %u: ids {offset %llu, size %llu} outside the file", i,
			   (unsigned long long)ids_off, (unsigned long long)ids_size);
	ids = at(r, ids_off, ids_size);
	if (!ids)
		return bad(r, "attr %u: ids {offset %llu, size %llu} not before the data section", i,
			   (unsigned long long)ids_off, (unsigned long long)ids_size);
	if (ids_size / 8 > PERFDATA_READ_MAX_IDS)
		return bad(r, "attr %u: %llu ids, more than %d", i,
			   (unsigned long long)(ids_size / 8), PERFDATA_READ_MAX_IDS);
	a->nr_ids = (u32)(ids_size / 8);
	a->ids_consecutive = true;
	for (u32 k = 0; k < a->nr_ids; k++) {
		a->ids[k] = get_le(ids + 8 * k, 8);
		a->ids_consecutive &= a->ids[k] == a->ids[0] + k;
	}
	if (a->sample_type & ~PERFDATA_SAMPLE_SUPPORTED)
		return bad(r, "attr %u: sample_type 0x%llx has fields this reader cannot decode", i,
			   (unsigned long long)a->sample_type);
	if ((a->sample_type & BP_SAMPLE_WEIGHT) && (a->sample_type & BP_SAMPLE_WEIGHT_STRUCT))
		return bad(r, "attr %u: sample_type 0x%llx has both PERF_SAMPLE_WEIGHT and "
			   "PERF_SAMPLE_WEIGHT_STRUCT", i, (unsigned long long)a->sample_type);
	return 0;
}

static int check_sample_types(struct perfdata_reader *r)
{
	if (r->nr_attrs < 2)
		return 0;
	/* Several attrs: perf finds a sample's attr by IDENTIFIER. */
	for (u32 i = 0; i < r->nr_attrs; i++) {
		if (!(r->attrs[i].sample_type & PERF_SAMPLE_IDENTIFIER))
			return bad(r, "attr %u: several events but no PERF_SAMPLE_IDENTIFIER", i);
		if (!r->attrs[i].nr_ids)
			return bad(r, "attr %u: several events but no ids", i);
	}
	return 0;
}

/* Header string at *p (u32 length, bytes): name and length without pad. */
static bool read_string(const u8 *p, u64 avail, const char **s, u32 *len, u64 *used)
{
	u32 n;
	if (avail < 4)
		return false;
	n = (u32)get_le(p, 4);
	if (n == 0 || n > avail - 4)
		return false;
	*s = (const char *)p + 4;
	*len = 0;
	while (*len < n && (*s)[*len])
		(*len)++;
	if (*len == n)
		return false;	/* not terminated */
	*used = 4 + n;
	return true;
}

/* A sample's attr by its id: per attr a range check where its ids are
 * consecutive (perf's and ours, one per CPU), else a walk of them. */
static int find_attr_by_id(const struct perfdata_reader *r, u64 id)
{
	for (u32 i = 0; i < r->nr_attrs; i++) {
		const struct perfdata_rattr *a = &r->attrs[i];
		if (a->ids_consecutive) {
			if (a->nr_ids && id - a->ids[0] < a->nr_ids)
				return (int)i;
			continue;
		}
		for (u32 k = 0; k < a->nr_ids; k++)
			if (a->ids[k] == id)
				return (int)i;
	}
	return -1;
}

static void cut_feature(struct perfdata_reader *r, int bit)
{
	r->features_cut[bit / 64] |= BIT(bit % 64);
}

/* Event names; a malformed section leaves the events it did not reach
 * unnamed (perf then names them from their attr). */
static void read_event_desc(struct perfdata_reader *r)
{
	u64 off, size, pos = 8;
	const u8 *p;
	u32 nr, attr_size;

	if (!perfdata_read_feature(r, HEADER_EVENT_DESC, &off, &size))
		return;
	p = at(r, off, size);
	if (!p || size < 8) {
		cut_feature(r, HEADER_EVENT_DESC);
		return;
	}
	nr = (u32)get_le(p, 4);
	attr_size = (u32)get_le(p + 4, 4);
	for (u32 i = 0; i < nr; i++) {
		const char *name;
		u32 name_len, nr_ids;
		u64 used;
		int at;
		if (!inside(pos, (u64)attr_size + 4, size))
			break;
		pos += attr_size;
		nr_ids = (u32)get_le(p + pos, 4);
		pos += 4;
		if (!read_string(p + pos, size - pos, &name, &name_len, &used))
			break;
		pos += used;
		if (!inside(pos, 8ULL * nr_ids, size))
			break;
		at = nr_ids ? find_attr_by_id(r, get_le(p + pos, 8)) : -1;
		if (at >= 0) {
			r->attrs[at].name = name;
			r->attrs[at].name_len = name_len;
		}
		pos += 8ULL * nr_ids;
		if (i + 1 == nr)
			return;
	}
	if (nr)
		cut_feature(r, HEADER_EVENT_DESC);
}

/* A file cut inside its feature table or sections keeps its data: the
 * sections it cannot hold whole are ignored, as perf ignores them. */
static void check_feature_table(struct perfdata_reader *r)
{
	u64 table = r->data_offset + r->data_size;
	u32 nr = 0;
	for (int bit = 0; bit < 256; bit++)
		if (r->features[bit / 64] & BIT(bit % 64))
			nr++;
	bool table_whole = nr && inside(table, 16ULL * nr, r->len) && at(r, table, 16ULL * nr);
	const u8 *p = table_whole ? at(r, table, 16ULL * nr) : NULL;
	u32 i = 0;
	for (int bit = 0; bit < 256; bit++) {
		if (!(r->features[bit / 64] & BIT(bit % 64)))
			continue;
		u64 off = p ? get_le(p + 16 * i, 8) : 0, size = p ? get_le(p + 16 * i + 8, 8) : 0;
		if (!p || !inside(off, size, r->len) || !at(r, off, size))
			cut_feature(r, bit);
		i++;
	}
}

/* Magic and the header's own size, from the first 104 bytes at h. */
static int check_magic(struct perfdata_reader *r, const u8 *h, u64 len)
{
	if (len < PERFDATA_HEADER_SIZE || bp_memcmp(h, "PERFILE2", 8))
		return bad(r, "not a perf.data file (no PERFILE2 magic)");
	if (get_le(h + 8, 8) != PERFDATA_HEADER_SIZE)
		return bad(r, "header size %llu, expected %d", (unsigned long long)get_le(h + 8, 8),
			   PERFDATA_HEADER_SIZE);
	r->data_offset = get_le(h + 40, 8);
	r->data_size = get_le(h + 48, 8);
	if (!inside(r->data_offset, r->data_size, len))
		return bad(r, "data section {%llu, %llu} outside the file (%llu bytes)",
			   (unsigned long long)r->data_offset, (unsigned long long)r->data_size,
			   (unsigned long long)len);
	return 0;
}

/* Everything but the data records, once head (and tail) are in memory. */
static int open_common(struct perfdata_reader *r)
{
	const u8 *h = at(r, 0, PERFDATA_HEADER_SIZE), *attrs;
	u64 attr_size, attrs_off, attrs_size;

	if (check_magic(r, h, r->len))
		return -1;
	attr_size = get_le(h + 16, 8);
	attrs_off = get_le(h + 24, 8);
	attrs_size = get_le(h + 32, 8);
	for (int w = 0; w < 4; w++)
		r->features[w] = get_le(h + 72 + 8 * w, 8);
	if (attr_size < 16 + 72 || attr_size > 16 + 1024)
		return bad(r, "attr_size %llu out of range", (unsigned long long)attr_size);
	if (!attrs_size || attrs_size % attr_size || !inside(attrs_off, attrs_size, r->len))
		return bad(r, "attrs section {%llu, %llu} malformed", (unsigned long long)attrs_off,
			   (unsigned long long)attrs_size);
	if (attrs_size / attr_size > PERFDATA_MAX_EVENTS)
		return bad(r, "%llu attrs, more than %d", (unsigned long long)(attrs_size / attr_size),
			   PERFDATA_MAX_EVENTS);
	attrs = at(r, attrs_off, attrs_size);
	if (!attrs)
		return bad(r, "attrs section {%llu, %llu} not before the data section",
			   (unsigned long long)attrs_off, (unsigned long long)attrs_size);
	r->nr_attrs = (u32)(attrs_size / attr_size);
	for (u32 i = 0; i < r->nr_attrs; i++)
		if (read_attr(r, i, attrs + i * attr_size, attr_size))
			return -1;
	if (check_sample_types(r))
		return -1;
	check_feature_table(r);
	read_event_desc(r);
	r->pos = r->data_offset;
	return 0;
}

int perfdata_read_open(struct perfdata_reader *r, const void *buf, u64 len)
{
	bp_memset(r, 0, sizeof(*r));
	r->buf = buf;
	r->len = len;
	r->head = buf;
	r->head_len = len;
	if (check_magic(r, buf, len))
		return -1;
	return open_common(r);
}

/* Reads [off, off+len) of the file into dst, all of it or an error. */
static int read_fully(struct perfdata_reader *r, u64 off, void *dst, u64 len, const char *what)
{
	long got = r->read(r->ctx, off, dst, (size_t)len);
	if (got < 0 || (u64)got != len)
		return bad(r, "reading %s ({%llu, %llu}) failed", what, (unsigned long long)off,
			   (unsigned long long)len);
	return 0;
}

int perfdata_read_open_chunked(struct perfdata_reader *r, u64 file_size,
			       perfdata_read_fn read, void *ctx, void *mem, size_t mem_size)
{
	u8 *head = mem, *tail = head + PERFDATA_READ_HEAD_MAX;
	u64 head_len, tail_off;

	bp_memset(r, 0, sizeof(*r));
	r->len = file_size;
	r->read = read;
	r->ctx = ctx;
	if (!mem || mem_size < PERFDATA_READ_CHUNKED_MEM)
		return bad(r, "chunked reader needs %d bytes of memory", PERFDATA_READ_CHUNKED_MEM);
	if (file_size < PERFDATA_HEADER_SIZE)
		return bad(r, "not a perf.data file (%llu bytes, shorter than the header)",
			   (unsigned long long)file_size);
	if (read_fully(r, 0, head, PERFDATA_HEADER_SIZE, "the header") ||
	    check_magic(r, head, file_size))
		return -1;
	/* perf and our writer put header, attrs and ids before the data and
	 * the feature sections after it: those two parts stay in memory. */
	head_len = MAX(r->data_offset, (u64)PERFDATA_HEADER_SIZE);
	tail_off = r->data_offset + r->data_size;
	if (head_len > PERFDATA_READ_HEAD_MAX || file_size - tail_off > PERFDATA_READ_TAIL_MAX)
		return bad(r, "header part (%llu bytes) or feature part (%llu bytes) larger than the "
			   "reader's %d-byte buffers", (unsigned long long)head_len,
			   (unsigned long long)(file_size - tail_off), PERFDATA_READ_HEAD_MAX);
	r->head = head;
	r->tail = tail;
	r->win = tail + PERFDATA_READ_TAIL_MAX;
	r->win_off = tail_off;	/* empty window, out of the way */
	if (read_fully(r, 0, head, head_len, "the header part") ||
	    read_fully(r, tail_off, tail, file_size - tail_off, "the feature part"))
		return -1;
	r->head_len = head_len;
	r->tail_off = tail_off;
	r->tail_len = file_size - tail_off;
	return open_common(r);
}

bool perfdata_read_feature(const struct perfdata_reader *r, int bit, u64 *offset, u64 *size)
{
	u64 entry = r->data_offset + r->data_size;
	const u8 *p;
	if (bit < 0 || bit >= 256 || !(r->features[bit / 64] & BIT(bit % 64)) ||
	    (r->features_cut[bit / 64] & BIT(bit % 64)))
		return false;
	for (int b = 0; b < bit; b++)
		if (r->features[b / 64] & BIT(b % 64))
			entry += 16;
	p = at(r, entry, 16);
	if (!p)
		return false;
	*offset = get_le(p, 8);
	*size = get_le(p + 8, 8);
	return true;
}

bool perfdata_read_feature_string(const struct perfdata_reader *r, int bit, char *out, size_t cap)
{
	u64 off, size, used;
	const char *s;
	u32 len;
	if (!perfdata_read_feature(r, bit, &off, &size) ||
	    !read_string(at(r, off, size), size, &s, &len, &used) || cap == 0)
		return false;
	bp_strlcpy(out, s, MIN((size_t)len + 1, cap));
	return true;
}

bool perfdata_read_nrcpus(const struct perfdata_reader *r, u32 *avail, u32 *online)
{
	u64 off, size;
	const u8 *p;
	if (!perfdata_read_feature(r, HEADER_NRCPUS, &off, &size) || size < 8)
		return false;
	p = at(r, off, 8);
	*avail = (u32)get_le(p, 4);
	*online = (u32)get_le(p + 4, 4);
	return true;
}

u64 perfdata_callchain_at(const struct perfdata_record *rec, u64 i)
{
	return i < rec->nr_callchain ? get_le(rec->callchain + 8 * i, 8) : 0;
}

/* ---- records ------------------------------------------------------------ */

/* Cursor over one record's body. */
struct body {
	const u8 *p;
	u64 left;
	bool short_read;
};

static u64 take(struct body *b, unsigned bytes)
{
	u64 v;
	if (b->left < bytes) {
		b->short_read = true;
		b->left = 0;
		return 0;
	}
	v = get_le(b->p, bytes);
	b->p += bytes;
	b->left -= bytes;
	return v;
}

/* Steps over bytes the reader does not keep (take() decodes at most 8). */
static void skip(struct body *b, u64 bytes)
{
	if (b->left < bytes) {
		b->short_read = true;
		b->left = 0;
		return;
	}
	b->p += bytes;
	b->left -= bytes;
}

static int decode_sample(struct perfdata_reader *r, struct perfdata_record *rec, struct body *b)
{
	u64 type = r->attrs[0].sample_type;
	rec->attr = 0;
	if (r->nr_attrs > 1) {
		rec->id = take(b, 8);
		rec->attr = find_attr_by_id(r, rec->id);
		if (rec->attr < 0)
			return bad(r, "sample at %llu: IDENTIFIER %llu matches no attr",
				   (unsigned long long)rec->offset, (unsigned long long)rec->id);
		type = r->attrs[rec->attr].sample_type;
	} else if (type & PERF_SAMPLE_IDENTIFIER) {
		rec->id = take(b, 8);
	}
	if (type & BP_SAMPLE_IP)
		rec->ip = take(b, 8);
	if (type & BP_SAMPLE_TID) {
		rec->pid = (u32)take(b, 4);
		rec->tid = (u32)take(b, 4);
	}
	if (type & BP_SAMPLE_TIME)
		rec->time = take(b, 8);
	if (type & BP_SAMPLE_ADDR)
		rec->addr = take(b, 8);
	if (type & PERF_SAMPLE_ID)
		rec->id = take(b, 8);
	if (type & BP_SAMPLE_CPU)
		rec->cpu = (u32)take(b, 8);
	if (type & BP_SAMPLE_PERIOD)
		rec->period = take(b, 8);
	if (type & BP_SAMPLE_CALLCHAIN) {
		rec->nr_callchain = take(b, 8);
		rec->callchain = b->p;
		if (rec->nr_callchain > b->left / 8)
			return bad(r, "sample at %llu: callchain of %llu entries runs past the record",
				   (unsigned long long)rec->offset, (unsigned long long)rec->nr_callchain);
		b->p += 8 * rec->nr_callchain;
		b->left -= 8 * rec->nr_callchain;
	}
	if (type & BP_SAMPLE_RAW) {
		rec->raw_size = (u32)take(b, 4);
		rec->raw = b->p;
		skip(b, rec->raw_size);
	}
	if (type & (BP_SAMPLE_WEIGHT | BP_SAMPLE_WEIGHT_STRUCT))
		rec->weight = take(b, 8);
	if (type & BP_SAMPLE_DATA_SRC)
		rec->data_src = take(b, 8);
	if (b->short_read || b->left)
		return bad(r, "sample at %llu: size %u does not match its sample_type 0x%llx",
			   (unsigned long long)rec->offset, rec->size, (unsigned long long)type);
	return 0;
}

static bool has_nul(const u8 *p, u64 n)
{
	for (u64 i = 0; i < n; i++)
		if (!p[i])
			return true;
	return false;
}

/* A NUL-terminated string that fills the rest of the record. */
static int decode_name(struct perfdata_reader *r, struct perfdata_record *rec, struct body *b)
{
	if (b->short_read || !b->left || !has_nul(b->p, b->left))
		return bad(r, "record at %llu (type %u): name not terminated inside the record",
			   (unsigned long long)rec->offset, rec->type);
	rec->name = (const char *)b->p;
	return 0;
}

/* PERF_RECORD_EVENT_UPDATE of type NAME names its attr where no
 * EVENT_DESC did (a file cut before its features), as perf's
 * perf_event__process_event_update does. The name is copied: the
 * record's window may be read over. */
static int decode_event_update(struct perfdata_reader *r, struct perfdata_record *rec,
			       struct body *b)
{
	u64 type = take(b, 8), id = take(b, 8);
	if (b->short_read || type != PERF_EVENT_UPDATE_NAME)
		return 0;
	if (decode_name(r, rec, b))
		return -1;
	int at = find_attr_by_id(r, id);
	if (at < 0 || r->attrs[at].name)
		return 0;
	struct perfdata_rattr *a = &r->attrs[at];
	a->name_len = (u32)bp_strlcpy(a->update_name, rec->name, sizeof(a->update_name));
	a->name_len = MIN(a->name_len, (u32)sizeof(a->update_name) - 1);
	a->name = a->update_name;
	return 0;
}

/* nr entries of size bytes each, at the body's position: they must fit. */
static int decode_entries(struct perfdata_reader *r, struct perfdata_record *rec, struct body *b,
			  const char *what, u64 nr, u64 size)
{
	if (b->short_read || nr > b->left / size)
		return bad(r, "%s at %llu: %llu entries do not fit its %u bytes", what,
			   (unsigned long long)rec->offset, (unsigned long long)nr, rec->size);
	rec->nr_entries = nr;
	rec->entries = b->p;
	return 0;
}

/* As perf_event__process_id_index: an id no attr has is an error. */
static int decode_id_index(struct perfdata_reader *r, struct perfdata_record *rec, struct body *b)
{
	if (decode_entries(r, rec, b, "ID_INDEX", take(b, 8), 32))
		return -1;
	for (u64 j = 0; j < rec->nr_entries; j++) {
		u64 id = get_le(rec->entries + 32 * j, 8);
		if (find_attr_by_id(r, id) < 0)
			return bad(r, "ID_INDEX at %llu: id %llu is no attr's",
				   (unsigned long long)rec->offset, (unsigned long long)id);
	}
	return 0;
}

static int decode(struct perfdata_reader *r, struct perfdata_record *rec, struct body *b)
{
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		return decode_sample(r, rec, b);
	case PERF_RECORD_LOST:
		rec->id = take(b, 8);
		rec->lost = take(b, 8);
		rec->attr = find_attr_by_id(r, rec->id);
		if (b->short_read)
			return bad(r, "LOST at %llu: short record", (unsigned long long)rec->offset);
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		rec->lost = take(b, 8);
		if (b->short_read)
			return bad(r, "LOST_SAMPLES at %llu: short record", (unsigned long long)rec->offset);
		return 0;
	case PERF_RECORD_COMM:
		rec->pid = (u32)take(b, 4);
		rec->tid = (u32)take(b, 4);
		return decode_name(r, rec, b);
	case PERF_RECORD_MMAP2:
		rec->pid = (u32)take(b, 4);
		rec->tid = (u32)take(b, 4);
		rec->start = take(b, 8);
		rec->len = take(b, 8);
		rec->pgoff = take(b, 8);
		skip(b, 8 + 8 + 8 + 4 + 4);	/* maj/min, ino, generation, prot, flags */
		return decode_name(r, rec, b);
	case PERF_RECORD_EVENT_UPDATE:
		return decode_event_update(r, rec, b);
	case PERF_RECORD_ID_INDEX:
		return decode_id_index(r, rec, b);
	case PERF_RECORD_THREAD_MAP:
		return decode_entries(r, rec, b, "THREAD_MAP", take(b, 8), 24);
	case PERF_RECORD_CPU_MAP:
		if ((u16)take(b, 2) != PERF_CPU_MAP__CPUS)
			return 0;	/* a mask or a range: perf's other layouts, not decoded */
		return decode_entries(r, rec, b, "CPU_MAP", take(b, 2), 2);
	default:
		return 0;	/* other records: header only */
	}
}

/* size bytes of data at pos, reading a new window in chunked mode. A
 * record is at most 64 KiB, less than the window. */
static const u8 *data_bytes(struct perfdata_reader *r, u64 pos, u64 size, u64 end)
{
	const u8 *p = at(r, pos, size);
	u64 n = MIN((u64)PERFDATA_READ_WINDOW, end - pos);
	if (p || !r->read)
		return p;
	r->win_len = 0;
	if (read_fully(r, pos, r->win, n, "data"))
		return NULL;
	r->win_off = pos;
	r->win_len = n;
	return at(r, pos, size);
}

static int read_one(struct perfdata_reader *r, struct perfdata_record *rec)
{
	u64 end = r->data_offset + r->data_size;
	const u8 *p;
	struct body b;

	if (r->pos >= end)
		return 0;
	bp_memset(rec, 0, sizeof(*rec));
	rec->offset = r->pos;
	if (end - r->pos < 8)
		return bad(r, "record at %llu: header cut by the end of data", (unsigned long long)r->pos);
	p = data_bytes(r, r->pos, 8, end);
	if (!p)
		return r->read ? -1 : bad(r, "record at %llu: not in memory", (unsigned long long)r->pos);
	rec->type = (u32)get_le(p, 4);
	rec->misc = (u16)get_le(p + 4, 2);
	rec->size = (u16)get_le(p + 6, 2);
	if (rec->size < 8 || rec->size % 8 || rec->size > end - r->pos)
		return bad(r, "record at %llu (type %u): size %u invalid (8-byte multiple inside the data)",
			   (unsigned long long)r->pos, rec->type, rec->size);
	p = data_bytes(r, r->pos, rec->size, end);
	if (!p)
		return -1;
	b.p = p + 8;
	b.left = rec->size - 8u;
	b.short_read = false;
	if (decode(r, rec, &b))
		return -1;
	r->pos += rec->size;
	return 1;
}

/* The writer's preamble says things perf needs and a reader of samples
 * does not: event names again (EVENT_UPDATE, for files cut before their
 * features), the ids' CPUs, the thread and CPU maps, and the empty kernel
 * mapping. */
static bool is_preamble(const struct perfdata_record *rec)
{
	return rec->type == PERF_RECORD_EVENT_UPDATE || rec->type == PERF_RECORD_ID_INDEX ||
	       rec->type == PERF_RECORD_THREAD_MAP || rec->type == PERF_RECORD_CPU_MAP ||
	       (rec->type == PERF_RECORD_MMAP && (rec->misc & 7) == PERF_RECORD_MISC_KERNEL);
}

int perfdata_read_any(struct perfdata_reader *r, struct perfdata_record *rec)
{
	return read_one(r, rec);
}

int perfdata_read_next(struct perfdata_reader *r, struct perfdata_record *rec)
{
	int rc;
	do
		rc = read_one(r, rec);
	while (rc == 1 && is_preamble(rec));
	return rc;
}
