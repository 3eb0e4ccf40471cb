/* perf.data reader: parses and validates a file held in memory (header,
 * attrs, ids, data records, feature sections) as written by lib/perfdata.c
 * or by perf itself for the subset of sample fields perfdata.h lists.
 * Portable (no libc), for the unit tests, `bareperf report` and fuzzing:
 * every offset and size is bounds-checked against the buffer, and every
 * problem is reported as an error message naming the offending field. */
#ifndef BP_PERFDATA_READ_H
#define BP_PERFDATA_READ_H
#include "perfdata.h"

#define PERFDATA_READ_MAX_IDS	8

struct perfdata_rattr {
	u32 type;
	u64 config, config1, config2;
	u64 sample_period;
	u64 sample_type;
	u64 flags;		/* the bitfield word (PERF_ATTR_FLAG_*) */
	u32 nr_ids;
	u64 ids[PERFDATA_READ_MAX_IDS];
	const char *name;	/* from HEADER_EVENT_DESC (in the buffer) or NULL */
	u32 name_len;
};

struct perfdata_reader {
	const u8 *buf;
	u64 len;
	u64 data_offset, data_size;
	u64 features[4];
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
	/* MMAP2 (start, len, pgoff), COMM, LOST (id, lost), LOST_SAMPLES (lost) */
	u64 start, len, pgoff, lost;
	const char *name;	/* MMAP2 filename or COMM name */
};

/* Checks header, attrs, ids and the feature table; reads event names.
 * Returns 0, or -1 with r->err set. */
int perfdata_read_open(struct perfdata_reader *r, const void *buf, u64 len);
/* Decodes the next data record: 1 = got one, 0 = end of data, -1 = invalid
 * (r->err says why). */
int perfdata_read_next(struct perfdata_reader *r, struct perfdata_record *rec);
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
