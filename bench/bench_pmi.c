/* Cost of our PMI handler on the emulated PMU (figures, not assertions):
 * MSR and APIC accesses per PMI and samples per PMI in PMI mode, one-record
 * PEBS and large PEBS on sim:icx, and IBS op sampling on sim:zen4 (one
 * sample per interrupt; counted by the seam, so the model's own work is not
 * in them), and, when valgrind is installed, instructions per PMI of our
 * code alone: the bench runs itself under callgrind with collection on
 * inside pmi_handle() and sums the cost of every function outside sim/.
 *
 * `make bench` builds and runs it. `bench_pmi --only N` runs mode N alone
 * (what the callgrind pass uses). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "events/evparse.h"
#include "events/events.h"
#include "arch/hw.h"
#include "sampling/sampling.h"
#include "sim/sim_api.h"

#define PERIOD  10007
#define RECORDS 20000ULL	/* overflows per mode */

struct mode {
	const char *name, *model, *event;
	enum pebs_threshold_mode threshold;
	bool run;	/* driven by run cycles (IBS tags ops), not injected events */
};
static const struct mode modes[] = {
	{ "PMI mode", "icx", "BR_INST_RETIRED.ALL_BRANCHES", PEBS_THRESHOLD_AUTO, false },
	{ "PEBS, 1 record/PMI", "icx", "BR_INST_RETIRED.ALL_BRANCHES:p", PEBS_THRESHOLD_ONE, false },
	{ "large PEBS", "icx", "BR_INST_RETIRED.ALL_BRANCHES:p", PEBS_THRESHOLD_AUTO, false },
	{ "IBS op (zen4)", "zen4", "ibs_op//", PEBS_THRESHOLD_AUTO, true },
};
#define NMODES (sizeof(modes) / sizeof(modes[0]))

static struct sampling smp;
static struct bp_sample batch[4096];

/* The bench is the PMI's gate: the model's PMIs come here, and LVT PC
 * gets this vector (no handler is installed). */
#define BENCH_PMI_VECTOR 0xF0

static void deliver(u32 cpu, u8 vector, void *ctx)
{
	struct plat_irq_frame r = { 0x401000, 0, 0 };
	pmi_handle(&smp.pmi, &r);
}

struct figures {
	double msr, rdpmc, mmio, samples;
	u64 pmis;
};

static int run_mode(const struct mode *m, struct figures *f)
{
	char err[512];
	static struct pmu pmu;
	struct pmu_caps caps;
	struct pmu_event ev;
	const struct hw_ops *ops = sim_open(m->model, err, sizeof(err));
	if (!ops) {
		fprintf(stderr, "sim_open: %s\n", err);
		return -1;
	}
	hw_select(ops);
	pmu_caps_read(&caps);
	struct sampling_opts o = { .period = PERIOD, .threshold = { .mode = m->threshold },
				   .pmi_vector = BENCH_PMI_VECTOR };
	if (evparse_list(m->event, event_table_for_caps(&caps), &caps, &ev, 1, err, sizeof(err)) != 1 ||
	    pmu_open(&pmu, &caps, false, err, sizeof(err)) ||
	    sampling_setup(&smp, &pmu, &ev, 1, &o, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", m->name, err);
		return -1;
	}
	smp.pmi.max_pmis_per_window = 0;	/* the model runs faster than real time */
	sim_set_pmi_hook(deliver, NULL);
	sampling_start(&smp);
	hw_stats_reset();
	u64 samples = 0;
	for (u64 done = 0; done < RECORDS; done += 1000) {
		if (m->run)
			sim_run(1000ULL * PERIOD, 1000ULL * PERIOD, 0x401000);
		else
			sim_events(ev.event, ev.umask, 1000ULL * PERIOD, 0x401000);
		samples += sampling_poll(&smp, batch, 4096);
	}
	struct hw_stats st;
	hw_stats_get(&st);
	f->pmis = smp.pmi.st.pmis;
	f->msr = (double)(st.rdmsr + st.wrmsr) / (double)f->pmis;
	f->rdpmc = (double)st.rdpmc / (double)f->pmis;
	f->mmio = (double)(st.mmio_read + st.mmio_write) / (double)f->pmis;
	f->samples = (double)samples / (double)f->pmis;
	sampling_stop(&smp);
	sampling_teardown(&smp);
	pmu_close(&pmu);
	sim_close();
	return 0;
}

/* Instructions per PMI of everything but the model, from callgrind. */
static double callgrind_ipp(const char *self, unsigned mode, u64 pmis)
{
	char cmd[1024], line[1024];
	const char *out = "build/host/bench/callgrind.pmi.out";
	snprintf(cmd, sizeof(cmd), "valgrind --tool=callgrind --toggle-collect=pmi_handle "
		 "--callgrind-out-file=%s %s --only %u >/dev/null 2>&1 && "
		 "callgrind_annotate --auto=no --inclusive=no --threshold=100 %s 2>/dev/null",
		 out, self, mode, out);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	double ours = 0;
	bool any = false;
	while (fgets(line, sizeof(line), p)) {
		/* "3,160,000 ( 9.85%)  pebs/drain.c:pebs_drain [binary]" */
		char num[64], where[900];
		const char *after = strstr(line, "%)");
		if (sscanf(line, " %63[0-9,]", num) != 1 || !after ||
		    sscanf(after + 2, " %899s", where) != 1)
			continue;
		if (!strchr(where, ':') || strstr(where, "PROGRAM TOTALS"))
			continue;
		any = true;
		if (strstr(where, "sim/"))
			continue;	/* the model, not our handler */
		double v = 0;
		for (char *c = num; *c; c++)
			if (*c >= '0' && *c <= '9')
				v = v * 10 + (*c - '0');
		ours += v;
	}
	return pclose(p) == 0 && any ? ours / (double)pmis : -1;
}

int main(int argc, char **argv)
{
	struct figures f[NMODES];
	if (argc == 3 && strcmp(argv[1], "--only") == 0) {
		unsigned m = (unsigned)atoi(argv[2]);
		return m < NMODES ? run_mode(&modes[m], &f[0]) != 0 : 2;
	}
	bool callgrind = system("command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null") == 0;
	printf("PMI handler on sim:icx (IBS: sim:zen4), period %d, %llu overflows per mode%s\n", PERIOD,
	       RECORDS, callgrind ? "" : " (no valgrind: no instruction counts)");
	printf("%-20s %8s %12s %10s %13s %12s %17s %13s\n", "mode", "PMIs", "MSR acc/PMI",
	       "RDPMC/PMI", "APIC acc/PMI", "samples/PMI", "instructions/PMI", "insn/sample");
	for (unsigned m = 0; m < NMODES; m++) {
		if (run_mode(&modes[m], &f[m]))
			return 1;
		double ipp = callgrind ? callgrind_ipp(argv[0], m, f[m].pmis) : -1;
		char insn[32] = "-", per[32] = "-";
		if (ipp >= 0) {
			snprintf(insn, sizeof(insn), "%.0f", ipp);
			snprintf(per, sizeof(per), "%.0f", ipp / f[m].samples);
		}
		printf("%-20s %8llu %12.2f %10.2f %13.2f %12.1f %17s %13s\n", modes[m].name,
		       (unsigned long long)f[m].pmis, f[m].msr, f[m].rdpmc, f[m].mmio, f[m].samples,
		       insn, per);
	}
	printf("(instructions: callgrind, collection inside pmi_handle, functions outside sim/,\n"
	 " the seam's dispatch in arch/hw.c included (a single rdmsr/wrmsr/rdpmc on hardware);\n"
	 " large PEBS: the drain of a whole buffer is in its one PMI)\n");
	return 0;
}
