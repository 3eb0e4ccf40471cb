/* The CPU's caches as CPUID describes them (SDM Vol. 2A, CPUID leaf 04H
 * "Deterministic Cache Parameters"; AMD's leaf 8000001DH has its layout),
 * for perf.data's HEADER_CACHE. */
#ifndef BP_CACHE_H
#define BP_CACHE_H
#include "../lib/types.h"
#include "hw.h"
#include "caps.h"

#define CACHE_MAX_LEVELS 8	/* sub-leaves read: L1d, L1i, L2, L3 and room */

enum cache_type { CACHE_DATA = 1, CACHE_INSTRUCTION = 2, CACHE_UNIFIED = 3 };

struct cpu_cache {
	u32 level;
	enum cache_type type;
	u32 line_size, sets, ways, partitions;
	u64 size;		/* bytes: ways x partitions x line x sets */
};

/* One sub-leaf: false when it describes no cache (type 0: the list's end). */
bool cache_decode(const struct cpuid_regs *r, struct cpu_cache *out);
/* perf's (sysfs's) name of a type: "Data", "Instruction", "Unified". */
const char *cache_type_name(enum cache_type t);
/* This CPU's caches, through the seam, in CPUID's order: leaf 04H on
 * Intel, 8000001DH on AMD with TopologyExtensions. Returns how many. */
u32 caches_read(const struct pmu_caps *c, struct cpu_cache *out, u32 max);

#endif
