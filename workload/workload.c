#include "workload.h"
#include "../lib/out.h"
#include "../lib/str.h"

extern const struct workload workload_soak, workload_chase;

static const struct workload *const all[] = { &workload_soak, &workload_chase };

size_t workload_count(void) { return ARRAY_SIZE(all); }
const struct workload *workload_at(size_t i) { return i < ARRAY_SIZE(all) ? all[i] : NULL; }

const struct workload *workload_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (bp_strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

void workload_unknown(const char *name)
{
	err_printf("bareperf: unknown workload '%s'; built-in workloads:\n", name);
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		err_printf("  %-8s %s\n", all[i]->name, all[i]->summary);
}

const struct workload_profile *workload_active_profile;
void workload_begin(const struct workload_profile *p)
{
	workload_active_profile = p;
}
