/* Events shared by the perf.data tests (test_perfdata*.c): a precise
 * cycles event with call chains and a load-latency event with every memory
 * field, as bareperf's `record -e cycles:pp,mem-loads,ldlat=30:p` makes. */
#ifndef BP_TEST_PERFDATA_H
#define BP_TEST_PERFDATA_H
#include "perfdata/perfdata.h"

static const struct perfdata_event cycles_ev = {
	.name = "cycles:pp", .type = PERF_TYPE_RAW, .config = 0x3c, .precise = 2,
	.sample_period = 100003,
	.sample_type = BP_SAMPLE_IP | BP_SAMPLE_TID | BP_SAMPLE_TIME |
		       BP_SAMPLE_CPU | BP_SAMPLE_PERIOD | BP_SAMPLE_CALLCHAIN,
};

static const struct perfdata_event loads_ev = {
	.name = "mem-loads,ldlat=30:p", .type = PERF_TYPE_RAW, .config = 0x1cd,
	.config1 = 30, .precise = 1, .sample_period = 1000,
	.sample_type = BP_SAMPLE_IP | BP_SAMPLE_TID | BP_SAMPLE_TIME |
		       BP_SAMPLE_ADDR | PERF_SAMPLE_ID | BP_SAMPLE_CPU |
		       BP_SAMPLE_PERIOD | BP_SAMPLE_WEIGHT | BP_SAMPLE_DATA_SRC,
};

#endif
