/* The record decoders, one per layout (pebs_record_decode in record.h
 * picks one per record), inline: the drain compiles its walk once per
 * decoder with the decoder in the loop (pebs/drain.c), so that a record
 * format costs its branches once per buffer and no call per sample. */
#ifndef BP_PEBS_DECODE_H
#define BP_PEBS_DECODE_H
#include "record.h"
#include "../arch/msr.h"

/* Decodes a record of layout l as pebs_record_decode does, a load's data
 * source looked up in loads (read for PEBS_MEM_LOAD and
 * PEBS_MEM_STORE_LATENCY only). */
typedef void pebs_decode_fn(const struct pebs_layout *l, const void *rec,
			    enum pebs_mem_kind mem,
			    const struct pebs_load_sources *loads, struct bp_sample *s);

enum pebs_decoder_kind {
	PEBS_DECODE_FMT0,	/* IP after the eventing instruction */
	PEBS_DECODE_FMT1,	/* + memory fields */
	PEBS_DECODE_FMT2,	/* eventing IP */
	PEBS_DECODE_FMT3,	/* + TSC */
	PEBS_DECODE_BASIC,	/* adaptive, basic group only */
	PEBS_DECODE_MEMINFO,	/* adaptive with the memory-info group */
	PEBS_DECODERS
};

static inline enum pebs_decoder_kind pebs_decoder_kind(const struct pebs_layout *l)
{
	if (l->adaptive)
		return l->meminfo_off ? PEBS_DECODE_MEMINFO : PEBS_DECODE_BASIC;
	return (enum pebs_decoder_kind)MIN(l->format, 3);
}

static inline void pebs_decode_mem(struct bp_sample *s, enum pebs_mem_kind mem,
				   const struct pebs_load_sources *loads,
				   u64 addr, u64 dse, u64 latency)
{
	if (mem == PEBS_MEM_NONE)
		return;
	s->addr = addr;
	s->flags |= BP_SAMPLE_ADDR | BP_SAMPLE_DATA_SRC;
	if (mem == PEBS_MEM_LOAD || mem == PEBS_MEM_STORE_LATENCY) {
		s->data_src = mem == PEBS_MEM_LOAD ? pebs_load_source(loads, dse)
						   : pebs_store_latency_source(loads, dse);
		s->weight = latency & BP_WEIGHT_LOAD_MASK;	/* perf's var1: 32 bits */
		s->flags |= BP_SAMPLE_WEIGHT;
	} else {
		s->data_src = pebs_data_src_store(dse);
	}
}

/* Alder Lake and later split the latency field: the cache latency
 * [47:32] is the load's, the instruction latency [15:0] goes to perf's
 * var2 (Linux setup_pebs_adaptive_sample_data, PMU_FL_INSTR_LATENCY). */
static inline u64 pebs_cache_latency(u64 field)
{
	return (field & PEBS_MEMINFO_CACHE_LAT_MASK) >> PEBS_MEMINFO_CACHE_LAT_SHIFT;
}

/* The memory fields of an adaptive meminfo group or an Architectural
 * PEBS aux group (the same layout): address, data source, and the latency
 * field, whole or split. */
static inline void pebs_decode_meminfo_fields(struct bp_sample *s, enum pebs_mem_kind mem,
					      const struct pebs_load_sources *loads, u64 addr,
					      u64 dse, u64 latency, bool split)
{
	pebs_decode_mem(s, mem, loads, addr, dse, split ? pebs_cache_latency(latency) : latency);
	if (split && (mem == PEBS_MEM_LOAD || mem == PEBS_MEM_STORE_LATENCY))
		s->weight |= (latency & PEBS_MEMINFO_INSTR_LAT_MASK) << BP_WEIGHT_INSTR_SHIFT;
}

/* Formats 0 and 1: the IP after the eventing instruction (trap-like). */
static inline void pebs_decode_fmt0(const struct pebs_layout *l, const void *rec,
				    enum pebs_mem_kind mem,
				    const struct pebs_load_sources *loads, struct bp_sample *s)
{
	s->ip = pebs_rec_u64(rec, PEBS_REC_IP);
	s->flags |= BP_SAMPLE_PEBS;
}

/* Formats 1-3: the memory fields at fixed offsets. */
static inline void pebs_decode_fixed_mem(const void *rec, enum pebs_mem_kind mem,
					 const struct pebs_load_sources *loads,
					 struct bp_sample *s)
{
	pebs_decode_mem(s, mem, loads, pebs_rec_u64(rec, PEBS_REC_DLA),
			pebs_rec_u64(rec, PEBS_REC_DSE), pebs_rec_u64(rec, PEBS_REC_LAT));
}

static inline void pebs_decode_fmt1(const struct pebs_layout *l, const void *rec,
				    enum pebs_mem_kind mem,
				    const struct pebs_load_sources *loads, struct bp_sample *s)
{
	pebs_decode_fmt0(l, rec, mem, loads, s);
	pebs_decode_fixed_mem(rec, mem, loads, s);
}

/* Format 2 adds the eventing IP. */
static inline void pebs_decode_fmt2(const struct pebs_layout *l, const void *rec,
				    enum pebs_mem_kind mem,
				    const struct pebs_load_sources *loads, struct bp_sample *s)
{
	s->ip = pebs_rec_u64(rec, PEBS_REC_EVENTING_IP);
	s->flags |= BP_SAMPLE_PEBS | BP_SAMPLE_EXACT_IP;
	pebs_decode_fixed_mem(rec, mem, loads, s);
}

/* Format 3 adds the TSC. */
static inline void pebs_decode_fmt3(const struct pebs_layout *l, const void *rec,
				    enum pebs_mem_kind mem,
				    const struct pebs_load_sources *loads, struct bp_sample *s)
{
	pebs_decode_fmt2(l, rec, mem, loads, s);
	s->tsc = pebs_rec_u64(rec, PEBS_REC_TSC);
	s->flags |= BP_SAMPLE_TIME;
}

/* Adaptive records (SDM Vol. 3B 20.9.2): the basic group; the GPR, XMM
 * and LBR groups hold nothing a sample carries. */
static inline void pebs_decode_basic(const struct pebs_layout *l, const void *rec,
				     enum pebs_mem_kind mem,
				     const struct pebs_load_sources *loads, struct bp_sample *s)
{
	s->ip = pebs_rec_u64(rec, PEBS_BASIC_IP);
	s->tsc = pebs_rec_u64(rec, PEBS_BASIC_TSC);
	s->flags |= BP_SAMPLE_PEBS | BP_SAMPLE_EXACT_IP | BP_SAMPLE_TIME;
}

/* And the memory-info group. */
static inline void pebs_decode_meminfo(const struct pebs_layout *l, const void *rec,
				       enum pebs_mem_kind mem,
				       const struct pebs_load_sources *loads, struct bp_sample *s)
{
	pebs_decode_basic(l, rec, mem, loads, s);
	const u8 *mi = (const u8 *)rec + l->meminfo_off;
	pebs_decode_meminfo_fields(s, mem, loads, pebs_rec_u64(mi, PEBS_MEMINFO_ADDRESS),
				   pebs_rec_u64(mi, PEBS_MEMINFO_AUX),
				   pebs_rec_u64(mi, PEBS_MEMINFO_LATENCY), l->latency_split);
}

#endif
