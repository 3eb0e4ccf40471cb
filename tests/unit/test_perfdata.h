/* Events shared by the perf.data tests (test_perfdata*.c): a precise
 * cycles event with call chains and a load-latency event with every memory
 * field, as bareperf's `record -e cycles:pp,mem-loads,ldlat=30:p` makes. */
#ifndef BP_TEST_PERFDATA_H
#define BP_TEST_PERFDATA_H
#include "perfdata/perfdata.h"

static const struct perfdata_event cycles_ev = {
	.name = "cycles:pp", .type = PERF_TYPE_RAW, .config = 0x3c, .precise = 2,
	.sample_period = 100003,
	.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		       PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN,
};

static const struct perfdata_event loads_ev = {
	.name = "mem-loads,ldlat=30:p", .type = PERF_TYPE_RAW, .config = 0x1cd,
	.config1 = 30, .precise = 1, .sample_period = 1000,
	.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		       PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
		       PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC,
};

#endif
