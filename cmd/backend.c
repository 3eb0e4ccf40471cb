#include "backend.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../arch/hw.h"
#include "../sim/sim.h"
#include "../arch/exec.h"

static bool sim_active;
static struct backend_sim_watch watch;

void backend_watch_sim(const struct backend_sim_watch *w)
{
	if (w)
		watch = *w;
	else
		bp_memset(&watch, 0, sizeof(watch));
}

int backend_select(const struct global_opts *g)
{
	const char *spec = g->pmu ? g->pmu : "hw";

	hw_fault_home(plat_cpu_self());	/* faults elsewhere are kept for it */
	if (bp_strcmp(spec, "hw") == 0) {
		hw_select(plat_hw_ops());
		return EXIT_OK;
	}
	if (bp_strcmp(spec, "sim") == 0 || bp_starts_with(spec, "sim:")) {
		const char *model = spec[3] == ':' ? spec + 4 : sim_default_model();
		char err[160];
		const struct hw_ops *ops = sim_open_cpus(model, plat_cpu_count(), err, sizeof(err));
		if (!ops) {
			err_printf("bareperf: --pmu=%s: %s\n", spec, err);
			return EXIT_USAGE;
		}
		hw_select(ops);
		exec_select(sim_drive_exec());
		sim_active = true;
		if (watch.opened)
			watch.opened(watch.ctx);
		return EXIT_OK;
	}
	err_printf("bareperf: --pmu=%s: expected 'hw', 'sim' or 'sim:MODEL'\n", spec);
	return EXIT_USAGE;
}

void backend_release(void)
{
	if (sim_active && watch.closing)
		watch.closing(watch.ctx);
	if (sim_active)
		sim_close();
	sim_active = false;
	hw_select(plat_hw_ops());
	exec_select(exec_machine());
}

bool backend_is_emulated(void)
{
	const struct hw_ops *ops = hw_current();
	return ops && ops->emulated;
}

void backend_banner(void)
{
	if (backend_is_emulated())
		out_printf("*** EMULATED PMU (%s): figures come from bareperf's model, "
			   "not from hardware ***\n", hw_current()->name);
}
