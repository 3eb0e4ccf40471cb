/* Parsing `perf report --stdio` output, and bareperf report's, which has
 * the same layout: per event a "# Samples: N  of event 'NAME'" section
 * with rows "  SHARE%  COMMAND  DSO  [.] SYMBOL". */
#ifndef BP_TEST_REPORT_ROWS_H
#define BP_TEST_REPORT_ROWS_H

struct report_row {
	double share;
	char dso[64];
	char sym[128];
};

/* The share of sym in the section of event, or -1. */
double report_share(const char *report, const char *event, const char *sym);
/* The first max rows of event's section, in order; returns how many. */
int report_rows(const char *report, const char *event, struct report_row *rows, int max);

#endif
