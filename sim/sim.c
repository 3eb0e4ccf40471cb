/* Placeholder until the model lands: no CPU model is known yet. */
#include "sim.h"
#include "../lib/fmt.h"

const struct hw_ops *sim_open(const char *model, char *err, size_t errlen)
{
	bp_snprintf(err, errlen, "unknown model '%s' (the emulated PMU has no models yet)", model);
	return NULL;
}

void sim_close(void) {}
const char *sim_default_model(void) { return "icx"; }
