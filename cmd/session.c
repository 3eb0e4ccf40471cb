#include "session.h"
#include "backend.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../pmu/evparse.h"
#include "../sim/drive.h"

int session_probe(struct session *s, const char *cmd)
{
	s->emulated = backend_is_emulated();
	pmu_caps_read(&s->caps);
	if (!s->caps.intel || !caps_has_pmu(&s->caps)) {
		err_printf("bareperf %s: this CPU has no usable Intel PMU (%s%s); "
			   "use --pmu=sim:MODEL for the emulated one\n", cmd,
			   s->caps.intel ? "CPUID.0AH reports none" : s->caps.vendor,
			   s->caps.hypervisor ? ", under a hypervisor without a virtual PMU" : "");
		return EXIT_NO_PMU;
	}
	s->table = event_table_for_caps(&s->caps);
	return EXIT_OK;
}

int session_parse_events(struct session *s, const char *cmd, const char *text,
			 struct pmu_event *out, int max)
{
	char err[512];
	int n = evparse_list(text, s->table, &s->caps, out, max, err, sizeof(err));
	if (n < 0)
		err_printf("bareperf %s: %s\n", cmd, err);
	return n;
}

static void stop_hook(void *ctx)
{
	session_stop(ctx);
}

int session_start(struct session *s, const struct global_opts *g, const char *cmd)
{
	char err[512];
	if (pmu_open(&s->pmu, &s->caps, g->force, err, sizeof(err))) {
		err_printf("bareperf %s: %s\n", cmd, err);
		return EXIT_FAILURE_STATUS;
	}
	s->open = true;
	return session_start_drive(s, cmd);
}

int session_start_drive(struct session *s, const char *cmd)
{
	plat_on_exit(stop_hook, s);
	if (s->emulated) {
		const char *why;
		if (sim_drive_start(SIM_DRIVE_PERIOD_US, &why)) {
			err_printf("bareperf %s: cannot drive the emulated PMU: %s\n", cmd, why);
			session_stop(s);
			return EXIT_FAILURE_STATUS;
		}
		s->driving = true;
	}
	return EXIT_OK;
}

void session_stop(struct session *s)
{
	if (s->driving)
		sim_drive_stop();
	s->driving = false;
	if (s->open)
		pmu_close(&s->pmu);
	s->open = false;
}

double session_seconds(u64 ticks)
{
	u64 tps = plat_ticks_per_second();
	return tps ? (double)ticks / (double)tps : 0.0;
}
