/* The emulated machine's one piece of state, shared by the seam
 * (sim.c), the PMU (sim_pmu.c, sim_count.c, sim_pebs.c) and the local APIC
 * (sim_apic.c), and the two ways the model fails: a #GP the hardware would
 * raise, and a loud model error. Each part depends on this file and on
 * none of the others' internals. */
#include "sim_int.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"

struct sim_state sim;

/* ---- failure paths ------------------------------------------------------- */

int sim_gp(struct hw_fault *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bp_vsnprintf(f->rule, sizeof(f->rule), fmt, ap);
	va_end(ap);
	bp_snprintf(sim.last_error, sizeof(sim.last_error), "#GP: %s MSR 0x%x: %s",
		    f->write ? "WRMSR" : "RDMSR", f->msr, f->rule);
	if (sim.open)
		sim_cur()->stats.faults++;
	return 1;
}

void sim_model_error(const char *fmt, ...)
{
	struct hw_fault f = { .msr = 0, .write = false };
	va_list ap;
	va_start(ap, fmt);
	int n = bp_snprintf(f.rule, sizeof(f.rule), "emulated PMU: ");
	bp_vsnprintf(f.rule + n, sizeof(f.rule) - (size_t)n, fmt, ap);
	va_end(ap);
	bp_strlcpy(sim.last_error, f.rule, sizeof(sim.last_error));
	sim_cur()->stats.model_errors++;
	/* The seam's handler decides, as for a #GP: tests catch it, the
	 * default stops the program. */
	hw_fault_handler h = hw_set_fault_handler(NULL);
	hw_set_fault_handler(h);
	if (h) {
		h(&f);
		return;
	}
	err_printf("bareperf: %s\n", f.rule);
	plat_abort("emulated PMU error");
}

const char *sim_last_error(void) { return sim.last_error; }
