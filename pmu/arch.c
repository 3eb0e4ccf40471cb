#include "pmu_int.h"

/* The one registry of PMU architectures, most specific first: an entry
 * whose matches() takes the CPU drives it. */
static const struct pmu_arch *const pmu_arch_table[] = {
	&pmu_arch_intel,
};

const struct pmu_arch *pmu_arch_for(const struct pmu_caps *c)
{
	for (size_t i = 0; i < ARRAY_SIZE(pmu_arch_table); i++)
		if (pmu_arch_table[i]->matches(c))
			return pmu_arch_table[i];
	return NULL;
}
