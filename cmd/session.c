#include "session.h"
#include "backend.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../events/evparse.h"
#include "../arch/exec.h"
#include "../workload/workload.h"
#include "../arch/hw.h"
#include "../sched/sched.h"
#include "../pmu/arch.h"

int session_probe(struct session *s, const char *cmd)
{
	s->emulated = backend_is_emulated();
	pmu_caps_read(&s->caps);
	char why[300];
	if (pmu_absent_reason(&s->caps, why, sizeof(why))) {
		err_printf("bareperf %s: this CPU has no usable PMU: %s; "
			   "use --pmu=sim:MODEL for the emulated one\n", cmd, why);
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

static int start_drive(struct session *s, const char *cmd);

int session_start_drive(struct session *s, const struct global_opts *g, const char *cmd)
{
	s->verbose = g->verbose;
	s->started = true;
	hw_stats_reset();
	plat_on_exit(stop_hook, s);
	return start_drive(s, cmd);
}

static int start_drive(struct session *s, const char *cmd)
{
	const char *why;
	if (exec_start(workload_insn_rate, &why)) {
		err_printf("bareperf %s: cannot drive the emulated PMU: %s\n", cmd, why);
		session_stop(s);
		return EXIT_FAILURE_STATUS;
	}
	s->driving = exec_running();
	return EXIT_OK;
}

void session_show_placement(const struct session *s, const struct pmu *pmu,
			    const struct pmu_event *ev, const int *ids, int n)
{
	if (!s->verbose)
		return;
	for (int i = 0; i < n; i++) {
		char where[16] = "not placed";
		int c = ids[i] >= 0 ? pmu_counter_of(pmu, ids[i]) : COUNTER_NONE;
		if (c != COUNTER_NONE)
			sched_format_counter(c, where, sizeof(where));
		out_printf("[ %s: %s ]\n", ev[i].name, where);
	}
}

static void show_statistics(const struct session *s)
{
	struct hw_stats st;
	hw_stats_get(&st);
	out_printf("[ seam: %llu RDMSR, %llu WRMSR, %llu MMIO reads, %llu MMIO writes ]\n",
		   (unsigned long long)st.rdmsr, (unsigned long long)st.wrmsr,
		   (unsigned long long)st.mmio_read, (unsigned long long)st.mmio_write);
	if (s->driving) {
		struct exec_stats d;
		exec_stats(&d);
		out_printf("[ emulation: %llu ticks (%llu deferred, %llu held for a PMI), %llu cycles, "
			   "%llu instructions/s, %llu PMIs, %llu EOI timeouts ]\n",
			   (unsigned long long)d.ticks, (unsigned long long)d.deferred,
			   (unsigned long long)d.held, (unsigned long long)d.cycles,
			   (unsigned long long)d.insn_per_s, (unsigned long long)d.pmis_delivered,
			   (unsigned long long)d.eoi_timeouts);
		out_printf("[ emulation: %llu instructions told by the workload (%llu charged after it), "
			   "%llu charged by time alone, %llu left out around the workload ]\n",
			   (unsigned long long)d.told, (unsigned long long)d.told_owed,
			   (unsigned long long)d.untold, (unsigned long long)d.outside);
	}
}

void session_stop(struct session *s)
{
	if (s->verbose && (s->driving || s->started))
		show_statistics(s);
	s->started = false;
	if (s->driving)
		exec_stop();
	s->driving = false;
}

double session_seconds(u64 ticks)
{
	u64 tps = plat_ticks_per_second();
	return tps ? (double)ticks / (double)tps : 0.0;
}

void *session_state_alloc(const char *cmd, size_t size)
{
	void *p = plat_alloc(size);
	if (!p) {
		err_printf("bareperf %s: out of memory (%llu bytes for its state)\n", cmd,
			   (unsigned long long)size);
		return NULL;
	}
	bp_memset(p, 0, size);
	return p;
}

void session_state_free(void *state, size_t size)
{
	plat_on_exit_forget(state, size);
	plat_free(state);
}
