/* Test support: writes synthetic PEBS records, as the CPU would, for every
 * format. Free of libc so that bench/bench_drain.c can reuse it. */
#ifndef BP_PEBS_SYNTH_H
#define BP_PEBS_SYNTH_H
#include "lib/types.h"
#include "pebs/record.h"

struct synth_rec {
	u64 ip;			/* record IP (fmt0-3 "next" IP; adaptive GPR ip) */
	u64 eventing_ip;	/* fmt2+; adaptive basic ip */
	u64 applicable;		/* fmt1+ status / adaptive applicable counters */
	u64 tsc;
	u64 addr, dse, latency;
	u64 regs[PEBS_REG_COUNT];	/* enum pebs_reg order */
	u32 stated_size;	/* adaptive format_size[63:48]; 0: the layout's size */
};

/* Writes one record of layout l at dst (l->record_size bytes); returns
 * the bytes written. */
u32 synth_write(const struct pebs_layout *l, void *dst, const struct synth_rec *r);

#endif
