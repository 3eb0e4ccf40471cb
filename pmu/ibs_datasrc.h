/* perf's data source (union perf_mem_data_src, pebs/datasrc.h) for an IBS
 * op sample, from IBS_OP_DATA2 and IBS_OP_DATA3 as Linux derives it
 * (arch/x86/events/amd/ibs.c, perf_ibs_parse_ld_st_data), so that perf
 * mem and perf report --sort mem read bareperf's IBS samples as they read
 * Linux's. Portable code: tested on the host (test_ibs_datasrc). */
#ifndef BP_PMU_IBS_DATASRC_H
#define BP_PMU_IBS_DATASRC_H
#include "../lib/types.h"

/* What the decoding depends on besides the registers: the IBS feature
 * bits (CPUID 8000_001BH EAX; IBS_CAPS_ZEN4 widens DataSrc) and the
 * display family and model (errata). */
struct ibs_cpu {
	u32 ibs_caps;
	u32 family, model;
};

/* Whether the op is a load or a store: only those get a data source
 * (Linux leaves PERF_MEM_NA for other ops). */
bool ibs_op_is_mem(u64 op_data3);

/* The data source of a load or store op (ibs_op_is_mem). */
u64 ibs_op_data_src(u64 op_data2, u64 op_data3, const struct ibs_cpu *cpu);

#endif
