/* The perf.data writer's state, shared by its files (perfdata.c: records
 * and the file's frame; perfdata_feat.c: the feature sections). Not for
 * users of the writer: see perfdata.h. */
#ifndef BP_PERFDATA_INT_H
#define BP_PERFDATA_INT_H
#include "perfdata.h"

#define MAX_STRING	128	/* config strings are cut to this, with NUL */
#define MAX_FILENAME	1024
/* Largest record the writer composes: MMAP2 with the longest filename and
 * the sample_id trailer. */
#define MAX_RECORD	(64 + MAX_FILENAME + 8 + ID_TRAILER_MAX)
/* sample_id_all's trailer: TID, TIME, CPU and IDENTIFIER words. */
#define ID_TRAILER_MAX	(4 * 8)
/* perf pads header strings to this (NAME_ALIGN in tools/perf/util/header.c). */
#define NAME_ALIGN	64
#define FEATURE_WORDS	4	/* 256-bit feature bitmap */

enum pd_state { PD_OPEN, PD_STARTED, PD_FINISHED };

struct pd_event {
	struct perfdata_event ev;	/* ev.name points to name[] */
	char name[PERFDATA_MAX_NAME];
};

struct pd_build_id {
	u8 id[PERFDATA_BUILD_ID_MAX];
	u32 len;
	char filename[MAX_FILENAME];
};

struct perfdata {
	struct perfdata_sink sink;
	u64 tsc_hz;
	u64 start_tsc, tod_ns;
	u64 total_mem_kb;
	u64 free_mem_kb;
	u32 pid;
	u32 nr_cpus_online, nr_cpus_avail;
	/* The CPUs with ids (cfg.cpus; one slot with cpu -1 when none):
	 * slot k's CPU, and CPU c's slot + 1 (0: not in the file). */
	u32 nr_slots;
	s32 cpu_of_slot[PERFDATA_MAX_CPUS];
	u16 slot_of_cpu[PERFDATA_MAX_CPUS];
	bool system_wide;
	struct pd_cache {
		u32 level, line_size, sets, ways;
		char type[16];
		u64 size;
	} caches[PERFDATA_MAX_CACHES];
	u32 nr_caches;
	char pmu_caps[PERFDATA_MAX_PMU_CAPS][2][32];	/* name, value */
	u32 nr_pmu_caps;
	char comm[32];
	char cpudesc[MAX_STRING], cpuid[MAX_STRING], arch[MAX_STRING];
	char hostname[MAX_STRING], osrelease[MAX_STRING], version[MAX_STRING];
	char args[PERFDATA_MAX_ARGS][MAX_STRING];
	u32 argc;
	struct pd_build_id build_ids[PERFDATA_MAX_BUILD_IDS];
	u32 nr_build_ids;
	u64 first_sample_ns, last_sample_ns;	/* SAMPLE_TIME; first 0: none yet */
	struct pd_event events[PERFDATA_MAX_EVENTS];
	u32 nr_events;
	enum pd_state state;
	int status;
	char err[160];
	u64 data_offset;	/* where the data section starts */
	u64 sunk;		/* bytes handed to the sink so far */
	u64 samples;
	u64 samples_at_round;	/* samples when the last FINISHED_ROUND went */
	u64 buffered_samples;	/* of samples, those not yet sunk */
	u64 records_end;	/* finishing: where the records end (the
				 * feature sections follow); 0 before */
	bool allocated;
	size_t alloc_size;
	u64 *buf;		/* output buffer, 8-byte aligned */
	size_t buf_size, buf_len;	/* in bytes */
};

/* Shared helpers (perfdata.c). */
int pd_put_bytes(struct perfdata *pd, const void *data, size_t len);
void pd_put_le(u8 *p, u64 v, unsigned bytes);
void pd_encode_attr(const struct perfdata *pd, u32 i, u8 attr[PERFDATA_ATTR_SIZE]);
u64 pd_tsc_to_ns(u64 tsc, u64 hz);
u64 pd_slot_id(const struct perfdata *pd, u32 event, u32 slot);	/* event's id on slot's CPU */

/* Feature sections (perfdata_feat.c): writes bit's section through
 * o (or only counts its bytes when o->pd is NULL); false if the file
 * has no such section. */
struct feat_out {
	struct perfdata *pd;	/* NULL: count only */
	u64 bytes;
};
bool pd_feature(struct feat_out *o, const struct perfdata *pd, int bit);
#define PD_NR_FEATURES 22
extern const int pd_feature_bits[PD_NR_FEATURES];	/* in bit order */

#endif
