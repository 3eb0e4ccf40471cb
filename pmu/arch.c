#include "pmu_int.h"
#include "precise.h"

/* The one registry of PMU architectures, most specific first: an entry
 * whose matches() takes the CPU drives it. */
static const struct pmu_arch *const pmu_arch_table[] = {
	&pmu_arch_intel,
	&pmu_arch_amd,
};

const struct pmu_arch *pmu_arch_for(const struct pmu_caps *c)
{
	for (size_t i = 0; i < ARRAY_SIZE(pmu_arch_table); i++)
		if (pmu_arch_table[i]->matches(c))
			return pmu_arch_table[i];
	return NULL;
}

const struct precise_ops *precise_engine_for(const struct pmu_caps *c, const char **why)
{
	const struct pmu_arch *arch = pmu_arch_for(c);
	const struct precise_ops *ops = arch ? arch->precise : NULL;
	*why = !arch ? "no PMU bareperf drives" : !ops ? "this PMU has no precise sampling"
						: ops->missing(c);
	return *why ? NULL : ops;
}
