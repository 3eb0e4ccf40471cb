/* bp-workload: one of bareperf's built-in workloads as a Linux program,
 * for the Linux guest (tools/linux-guest): Linux's own perf driver and
 * perf tool measure the very code whose ground truth bareperf checks, on
 * the same emulated PMU. After the run it prints that truth, one
 * "truth KEY VALUE" line each, for the tests to compare perf's figures
 * with.
 *
 * usage: bp-workload NAME [WORKLOAD OPTIONS]   (bp-workload --list) */
#include "../workload/workload.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include <stdio.h>
#include <string.h>

static void print_truth(const struct workload_result *r)
{
	const struct workload_truth *t = &r->truth;
	unsigned long long total = 0;
	for (u32 i = 0; i < t->parts; i++) {
		printf("truth part %s %llu\n", t->part_name[i],
		       (unsigned long long)t->part_instructions[i]);
		total += t->part_instructions[i];
	}
	printf("truth instructions %llu\n", total);
	printf("truth branches %llu\n", (unsigned long long)t->branches);
	printf("truth loads %llu\n", (unsigned long long)t->loads);
	/* The timed part's guest time (plat_ticks: CLOCK_MONOTONIC), with
	 * every interrupt and every other task that ran meanwhile in it. */
	printf("elapsed_s %.6f\n", (double)r->ticks / (double)plat_ticks_per_second());
}

int main(int argc, char **argv)
{
	struct workload_result r;
	const struct workload *w;

	if (argc < 2) {
		fprintf(stderr, "usage: bp-workload NAME [OPTIONS] (bp-workload --list)\n");
		return 2;
	}
	if (strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < workload_count(); i++)
			printf("%s %s\n", workload_at(i)->name, workload_at(i)->usage);
		return 0;
	}
	w = workload_find(argv[1]);
	if (!w) {
		fprintf(stderr, "bp-workload: no workload '%s' (bp-workload --list)\n", argv[1]);
		return 2;
	}
	if (w->check(argc - 1, argv + 1) || w->run(argc - 1, argv + 1, &r))
		return 2;
	print_truth(&r);
	return 0;
}
