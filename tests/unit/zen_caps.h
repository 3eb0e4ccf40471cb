/* A Zen core as struct pmu_caps describes it, filled by hand for the event
 * table and parser tests: AuthenticAMD, the family and model given, six
 * 48-bit core counters (PerfCtrExtCore), no fixed counters. */
#ifndef BP_TEST_ZEN_CAPS_H
#define BP_TEST_ZEN_CAPS_H
#include <string.h>
#include "arch/caps.h"

static inline struct pmu_caps zen_caps(u32 family, u32 model)
{
	struct pmu_caps c;
	memset(&c, 0, sizeof(c));
	c.amd = true;
	c.family = family, c.model = model;
	c.num_gp = 6, c.gp_mask = 0x3f, c.gp_width = 48;
	return c;
}

#endif
