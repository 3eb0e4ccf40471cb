/* One sample, as the PMI handler or the PEBS drain produces it and the
 * perf.data writer consumes it. Fixed size, so the sample ring needs no
 * allocation in interrupt context. */
#ifndef BP_SAMPLE_H
#define BP_SAMPLE_H
#include "types.h"
#include "str.h"

#define BP_MAX_CALLCHAIN 32
/* PERF_SAMPLE_RAW words a sample can carry: IBS op's MSRs as Linux's
 * perf_ibs_handle_irq reads them (IBS_OP_CTL .. IBS_DC_PHYSADDR, then
 * IBS_BR_TARGET and IBS_OP_DATA4 where the part has them). */
#define BP_SAMPLE_RAW_MAX 9

/* Sample fields: which ones a sample holds, and which ones a session asks
 * its samples to carry (sampling_fields(), the PEBS threshold policy),
 * in one set. The bits are those of perf's perf_event_attr.sample_type
 * (PERF_SAMPLE_*, include/uapi/linux/perf_event.h), so a session's set is
 * its perf.data attr's sample_type as it is and the policy weighs the
 * fields as Linux's large_pebs_flags do; perfdata/ writes and reads them
 * by these names (BP_SAMPLE_PERFDATA_FIELDS), and
 * tests/unit/test_pebs_record.c checks each against Linux's header. On a
 * sample, the fields every sample has (ip, cpu, period) are not marked:
 * flags says which of the others hold a value. */
enum bp_sample_flags {
	BP_SAMPLE_IP           = 1u << 0,
	BP_SAMPLE_TID          = 1u << 1,
	BP_SAMPLE_TIME         = 1u << 2,	/* tsc is valid */
	BP_SAMPLE_ADDR         = 1u << 3,	/* addr is valid */
	BP_SAMPLE_READ         = 1u << 4,	/* group counter values */
	BP_SAMPLE_CALLCHAIN    = 1u << 5,	/* callchain[] is valid */
	BP_SAMPLE_CPU          = 1u << 7,
	BP_SAMPLE_PERIOD       = 1u << 8,
	BP_SAMPLE_RAW          = 1u << 10,
	BP_SAMPLE_BRANCH_STACK = 1u << 11,
	BP_SAMPLE_WEIGHT       = 1u << 14,	/* weight (load latency) is valid */
	BP_SAMPLE_DATA_SRC     = 1u << 15,	/* data_src is valid */
	BP_SAMPLE_REGS_INTR    = 1u << 18,	/* registers at the sampled instruction */
	/* weight as perf's union perf_sample_weight (bp_sample.weight);
	 * instead of BP_SAMPLE_WEIGHT in a session's fields, never with it.
	 * On a sample, BP_SAMPLE_WEIGHT says weight holds a value. */
	BP_SAMPLE_WEIGHT_STRUCT = 1u << 24,
	/* Where a sample came from, not fields: above every bit of perf's
	 * sample_type (its last, PERF_SAMPLE_WEIGHT_STRUCT, is bit 24), so
	 * no field set can hold them. */
	BP_SAMPLE_PEBS         = 1u << 29,	/* from a PEBS record */
	BP_SAMPLE_EXACT_IP     = 1u << 30,	/* ip is the eventing IP */
};

/* The fields a perf.data sample record carries (perfdata/: the writer
 * writes them, the reader accepts them), in perf's order of sample_type. */
#define BP_SAMPLE_PERFDATA_FIELDS (BP_SAMPLE_IP | BP_SAMPLE_TID | BP_SAMPLE_TIME | \
	BP_SAMPLE_ADDR | BP_SAMPLE_CALLCHAIN | BP_SAMPLE_CPU | BP_SAMPLE_PERIOD | \
	BP_SAMPLE_RAW | BP_SAMPLE_WEIGHT | BP_SAMPLE_DATA_SRC | BP_SAMPLE_WEIGHT_STRUCT)

/* bp_sample.weight, laid out as perf's union perf_sample_weight
 * (include/uapi/linux/perf_event.h): var1_dw [31:0] the load's (cache)
 * latency, what PERF_SAMPLE_WEIGHT carries alone; var2_w [47:32] the
 * instruction latency (perf's ins_lat); var3_w [63:48] the retire
 * latency (perf 6.1 shows it as p_stage_cyc), all in core cycles. */
#define BP_WEIGHT_LOAD_MASK      0xFFFFFFFFull
#define BP_WEIGHT_INSTR_SHIFT    32
#define BP_WEIGHT_RETIRE_SHIFT   48
#define BP_WEIGHT_W_MASK         0xFFFFull

struct bp_sample {
	u64 ip;
	u64 tsc;		/* time stamp counter at the sample */
	u64 addr;		/* data linear address */
	u64 period;		/* events this sample stands for */
	u64 weight;		/* latencies in core cycles (BP_WEIGHT_*) */
	u64 data_src;		/* perf's union perf_mem_data_src encoding */
	u32 event;		/* index of the event in the session's list */
	u32 cpu;
	u32 flags;		/* enum bp_sample_flags */
	u32 callchain_len;
	u32 raw_words;		/* raw[] entries that count (BP_SAMPLE_RAW) */
	u32 raw_head;		/* the u32 before them (IBS: the IBS caps) */
	u64 callchain[BP_MAX_CALLCHAIN];	/* return addresses, innermost first */
	u64 raw[BP_SAMPLE_RAW_MAX];	/* PERF_SAMPLE_RAW's words after raw_head */
};

/* Copies a sample's fields that count: everything before callchain[],
 * the callchain_len return addresses and the raw_words raw words (a whole
 * copy moved 400 bytes for a sample of 72). */
static inline void bp_sample_copy(struct bp_sample *d, const struct bp_sample *s)
{
	u32 chain = s->callchain_len < BP_MAX_CALLCHAIN ? s->callchain_len : BP_MAX_CALLCHAIN;
	u32 raw = s->raw_words < BP_SAMPLE_RAW_MAX ? s->raw_words : BP_SAMPLE_RAW_MAX;
	bp_memcpy(d, s, offsetof(struct bp_sample, callchain));
	bp_memcpy(d->callchain, s->callchain, chain * sizeof(u64));
	bp_memcpy(d->raw, s->raw, raw * sizeof(u64));
}

/* How every producer (the PMI handler in PMI mode, the PEBS drain) starts
 * a sample: event's, on cpu, standing for period events, with no other
 * field yet; each then sets the fields it has and their flags. Every
 * member before callchain[] is cleared, a new one too; the array itself
 * is left alone, only its first callchain_len entries count, and clearing
 * 256 bytes per sample would cost the interrupt handler for nothing. */
static inline void bp_sample_init(struct bp_sample *s, u32 event, u32 cpu, u64 period)
{
	/* a constant size: the compiler clears it with a few stores, no call */
	__builtin_memset(s, 0, offsetof(struct bp_sample, callchain));
	s->event = event;
	s->cpu = cpu;
	s->period = period;
}

#endif
