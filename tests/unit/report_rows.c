/* See report_rows.h. */
#include "test.h"
#include <stdbool.h>
#include "report_rows.h"

/* The section of event: [*start, *end) of report, or false. */
static bool section(const char *report, const char *event, const char **start, const char **end)
{
	char head[160];
	snprintf(head, sizeof(head), "of event '%s'", event);
	*start = strstr(report, head);
	if (!*start)
		return false;
	*end = strstr(*start + 1, "# Samples:");
	if (!*end)
		*end = *start + strlen(*start);
	return true;
}

double report_share(const char *report, const char *event, const char *sym)
{
	char tag[160];
	const char *sec, *end, *line;
	if (!section(report, event, &sec, &end))
		return -1;
	snprintf(tag, sizeof(tag), "[.] %s", sym);
	for (line = strstr(sec, tag); line && line < end; line = strstr(line + 1, tag)) {
		/* The whole symbol, not a prefix of a longer one. */
		char after = line[strlen(tag)];
		if (after != '\n' && after != ' ' && after != 0)
			continue;
		while (line > sec && line[-1] != '\n')
			line--;
		return strtod(line, NULL);
	}
	return -1;
}

int report_rows(const char *report, const char *event, struct report_row *rows, int max)
{
	const char *sec, *end, *line;
	int n = 0;
	if (!section(report, event, &sec, &end))
		return 0;
	for (line = sec; line && line < end && n < max; line = strchr(line, '\n')) {
		char comm[64];
		line++;
		/* Data rows start with blanks and a share; call graph lines
		 * start with blanks and '|' or '-'. */
		if (line[0] != ' ' || sscanf(line, "%lf%% %63s %63s [.] %127s", &rows[n].share, comm,
					      rows[n].dso, rows[n].sym) != 4)
			continue;
		n++;
	}
	return n;
}
