/* One sample, as the PMI handler or the PEBS drain produces it and the
 * perf.data writer consumes it. Fixed size, so the sample ring needs no
 * allocation in interrupt context. */
#ifndef BP_SAMPLE_H
#define BP_SAMPLE_H
#include "types.h"

#define BP_MAX_CALLCHAIN 32

enum bp_sample_flags {
	BP_SAMPLE_PEBS      = 1u << 0,	/* from a PEBS record */
	BP_SAMPLE_EXACT_IP  = 1u << 1,	/* ip is the eventing IP */
	BP_SAMPLE_ADDR      = 1u << 2,	/* addr is valid */
	BP_SAMPLE_WEIGHT    = 1u << 3,	/* weight (load latency) is valid */
	BP_SAMPLE_DATA_SRC  = 1u << 4,	/* data_src is valid */
	BP_SAMPLE_TIME      = 1u << 5,	/* tsc is valid */
	BP_SAMPLE_CALLCHAIN = 1u << 6,	/* callchain[] is valid */
};

struct bp_sample {
	u64 ip;
	u64 tsc;		/* time stamp counter at the sample */
	u64 addr;		/* data linear address */
	u64 period;		/* events this sample stands for */
	u64 weight;		/* load latency in core cycles */
	u64 data_src;		/* perf's union perf_mem_data_src encoding */
	u32 event;		/* index of the event in the session's list */
	u32 cpu;
	u32 flags;		/* enum bp_sample_flags */
	u32 callchain_len;
	u64 callchain[BP_MAX_CALLCHAIN];	/* return addresses, innermost first */
};

#endif
