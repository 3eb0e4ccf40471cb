/* CPUID's cache descriptions (arch/cache.h). */
#include "cache.h"
#include "msr.h"

bool cache_decode(const struct cpuid_regs *r, struct cpu_cache *out)
{
	u32 type = CPUID_04_EAX_TYPE(r->eax);
	if (type < CACHE_DATA || type > CACHE_UNIFIED)
		return false;
	out->level = CPUID_04_EAX_LEVEL(r->eax);
	out->type = (enum cache_type)type;
	out->line_size = CPUID_04_EBX_LINE(r->ebx);
	out->partitions = CPUID_04_EBX_PARTITIONS(r->ebx);
	out->ways = CPUID_04_EBX_WAYS(r->ebx);
	out->sets = CPUID_04_ECX_SETS(r->ecx);
	out->size = (u64)out->ways * out->partitions * out->line_size * out->sets;
	return true;
}

const char *cache_type_name(enum cache_type t)
{
	return t == CACHE_DATA ? "Data" : t == CACHE_INSTRUCTION ? "Instruction" : "Unified";
}

/* The leaf that lists the caches, or 0: AMD's needs TopologyExtensions
 * and an extended range that reaches it. */
static u32 cache_leaf(const struct pmu_caps *c)
{
	struct cpuid_regs r;
	if (c->intel) {
		hw_cpuid(CPUID_LEAF_VENDOR, 0, &r);
		return r.eax >= CPUID_LEAF_CACHE_PARAMS ? CPUID_LEAF_CACHE_PARAMS : 0;
	}
	if (!c->amd)
		return 0;
	hw_cpuid(CPUID_LEAF_EXT_MAX, 0, &r);
	if (r.eax < CPUID_LEAF_AMD_CACHE_PARAMS)
		return 0;
	hw_cpuid(CPUID_LEAF_AMD_FEATURES, 0, &r);
	return (r.ecx & CPUID_8000_0001_ECX_TOPOEXT) ? CPUID_LEAF_AMD_CACHE_PARAMS : 0;
}

u32 caches_read(const struct pmu_caps *c, struct cpu_cache *out, u32 max)
{
	u32 leaf = cache_leaf(c), n = 0;
	for (u32 sub = 0; leaf && sub < CACHE_MAX_LEVELS && n < max; sub++) {
		struct cpuid_regs r;
		hw_cpuid(leaf, sub, &r);
		if (!cache_decode(&r, &out[n]))
			break;
		n++;
	}
	return n;
}
