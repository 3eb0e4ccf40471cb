#include "pmu_int.h"
#include "precise.h"
#include "../lib/fmt.h"

/* The one registry of PMU architectures, most specific first: an entry
 * whose matches() takes the CPU drives it. */
static const struct pmu_arch *const pmu_arch_table[] = {
	&pmu_arch_intel_arch_pebs,
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

bool pmu_absent_reason(const struct pmu_caps *c, char *buf, size_t len)
{
	const struct pmu_arch *arch = pmu_arch_for(c);
	if (!arch) {
		bp_snprintf(buf, len, "bareperf drives no PMU of this CPU's vendor ('%s')",
			    c->vendor[0] ? c->vendor : "unknown");
		return true;
	}
	char why[200];
	if (caps_has_pmu(c) || !arch->check_usable(c, why, sizeof(why)))
		return false;
	bp_snprintf(buf, len, "%s%s", why, c->hypervisor ? "; this hypervisor gives no "
		    "virtual PMU (QEMU's TCG has none)" : "");
	return true;
}

const struct precise_ops *precise_engine_for(const struct pmu_caps *c, const char **why)
{
	const struct pmu_arch *arch = pmu_arch_for(c);
	const struct precise_ops *ops = arch ? arch->precise : NULL;
	*why = !arch ? "no PMU bareperf drives" : !ops ? "this PMU has no precise sampling"
						: ops->missing(c);
	return *why ? NULL : ops;
}
