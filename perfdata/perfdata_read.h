/* perf.data reader: parses and validates a file held in memory (header,
 * attrs, ids, data records, feature sections) as written by perfdata/perfdata.c
 * or by perf itself for the subset of sample fields perfdata.h lists.
 * Portable (no libc), for the unit tests, `bareperf report` and fuzzing:
 * every offset and size is bounds-checked against the buffer, and every
 * problem is reported as an error message naming the offending field. */
#ifndef BP_PERFDATA_READ_H
#define BP_PERFDATA_READ_H
#include "perfdata.h"

#define PERFDATA_READ_MAX_IDS	PERFDATA_MAX_CPUS	/* an attr's: one per CPU */

struct perfdata_rattr {
	u32 type;
	u64 config, config1, config2;
	u64 sample_period;
	u64 sample_type;
	u64 flags;		/* the bitfield word (PERF_ATTR_FLAG_*) */
	u32 nr_ids;
	u64 ids[PERFDATA_READ_MAX_IDS];
	bool ids_consecutive;	/* ids[k] = ids[0] + k: found without a search */
	const char *name;	/* from HEADER_EVENT_DESC (in the buffer), from an
				 * EVENT_UPDATE record (in update_name), or NULL */
	u32 name_len;
	char update_name[PERFDATA_MAX_NAME];
};

/* Chunked input: reads up to len bytes at off, returns the count read or
 * a negative value (plat_file_read_at fits). */
typedef long (*perfdata_read_fn)(void *ctx, u64 off, void *buf, size_t len);

/* Chunked reading keeps the part before the data (header, attrs, ids) and
 * the part after it (feature table and sections) in memory, each up to
 * 64 KiB, and reads the data records through a 128 KiB window. */
#define PERFDATA_READ_HEAD_MAX	(64 * 1024)
#define PERFDATA_READ_TAIL_MAX	(64 * 1024)
#define PERFDATA_READ_WINDOW	(128 * 1024)
#define PERFDATA_READ_CHUNKED_MEM \
	(PERFDATA_READ_HEAD_MAX + PERFDATA_READ_TAIL_MAX + PERFDATA_READ_WINDOW)

struct perfdata_reader {
	const u8 *buf;		/* the whole file (perfdata_read_open) or NULL */
	u64 len;		/* file size */
	/* What is in memory: file bytes [0, head_len), [tail_off, +tail_len)
	 * and the data window [win_off, +win_len) (chunked only). */
	const u8 *head, *tail;
	u8 *win;
	u64 head_len, tail_off, tail_len, win_off, win_len;
	perfdata_read_fn read;	/* chunked: where bytes come from */
	void *ctx;
	u64 data_offset, data_size;
	u64 features[4];
	/* Of those, sections cut short, outside the file or malformed: they
	 * are ignored, and the data is read all the same, as perf does. */
	u64 features_cut[4];
	u32 nr_attrs;
	struct perfdata_rattr attrs[PERFDATA_MAX_EVENTS];
	u64 pos;		/* next record, relative to the buffer */
	char err[160];
};

/* One decoded record. Pointers point into the reader's buffer. */
struct perfdata_record {
	u32 type;
	u16 misc;
	u16 size;
	u64 offset;		/* in the file */
	/* SAMPLE */
	int attr;		/* index into reader.attrs */
	u64 id, ip, time, addr, period, weight, data_src;
	u32 pid, tid, cpu;
	u64 nr_callchain;
	const u8 *callchain;	/* nr_callchain little-endian u64 */
	u32 raw_size;		/* PERF_SAMPLE_RAW: its bytes at raw */
	const u8 *raw;
	/* MMAP2 (start, len, pgoff), COMM, LOST (id, lost), LOST_SAMPLES (lost) */
	u64 start, len, pgoff, lost;
	/* ID_INDEX (32-byte {id, idx, cpu, tid}), THREAD_MAP (24-byte {pid,
	 * comm[16]}), CPU_MAP (PERF_CPU_MAP__CPUS: u16 cpu[]): nr entries at
	 * entries, little-endian. Every ID_INDEX id is an attr's (checked). */
	u64 nr_entries;
	const u8 *entries;
	const char *name;	/* MMAP2 filename or COMM name */
};

/* Checks header, attrs, ids and the feature table; reads event names.
 * Returns 0, or -1 with r->err set. */
int perfdata_read_open(struct perfdata_reader *r, const void *buf, u64 len);
/* The same for a file read in chunks through read(ctx, ...), of file_size
 * bytes, with mem (PERFDATA_READ_CHUNKED_MEM bytes) as its buffers: memory
 * stays bounded whatever the size of the data section. */
int perfdata_read_open_chunked(struct perfdata_reader *r, u64 file_size,
			       perfdata_read_fn read, void *ctx, void *mem, size_t mem_size);
/* Decodes the next data record: 1 = got one, 0 = end of data, -1 = invalid
 * (r->err says why). In chunked mode rec's pointers (name, callchain) stay
 * valid only until the next call. */
int perfdata_read_next(struct perfdata_reader *r, struct perfdata_record *rec);
/* The same, with the writer's preamble records too (EVENT_UPDATE,
 * ID_INDEX, THREAD_MAP, CPU_MAP, the kernel MMAP), which perfdata_read_next
 * leaves out. */
int perfdata_read_any(struct perfdata_reader *r, struct perfdata_record *rec);
/* The section of feature bit, if the file has it: true and its place. */
bool perfdata_read_feature(const struct perfdata_reader *r, int bit,
			   u64 *offset, u64 *size);
/* A string feature (HOSTNAME, ARCH, CPUID...) copied into out; false if
 * absent or malformed. */
bool perfdata_read_feature_string(const struct perfdata_reader *r, int bit,
				  char *out, size_t cap);
/* HEADER_NRCPUS; false if absent. */
bool perfdata_read_nrcpus(const struct perfdata_reader *r, u32 *avail, u32 *online);
/* u64 i of a callchain. */
u64 perfdata_callchain_at(const struct perfdata_record *rec, u64 i);

#endif
