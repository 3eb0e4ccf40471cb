/* BPRESULT lines (result.h). */
#include "result.h"
#include "fmt.h"
#include "out.h"

static bool results_on;

void results_enable(bool on) { results_on = on; }
bool results_enabled(void) { return results_on; }

/* The id as one word: a blank would end it early for the pattern. */
static const char *one_word(const char *id)
{
	static char word[128];
	size_t n = 0;
	for (; id[n] && n + 1 < sizeof(word); n++)
		word[n] = id[n] == ' ' || id[n] == '\t' ? '_' : id[n];
	word[n] = 0;
	return word;
}

static const char *kind_word(enum result_kind r)
{
	return r == RESULT_PASS ? "pass" : r == RESULT_FAIL ? "fail" : "skip";
}

void result_case(const char *id, enum result_kind r)
{
	if (results_on)
		out_printf("BPRESULT %s %s\n", one_word(id), kind_word(r));
}

void result_measure(const char *id, enum result_kind r, double value, const char *units)
{
	if (results_on)
		out_printf("BPRESULT %s %s %.6f %s\n", one_word(id), kind_word(r), value, units);
}

void result_count(const char *id, enum result_kind r, u64 value, const char *units)
{
	if (results_on)
		out_printf("BPRESULT %s %s %llu %s\n", one_word(id), kind_word(r), (unsigned long long)value,
			   units);
}

void result_start(const char *version, const char *command)
{
	if (results_on)
		out_printf("BPSTART bareperf %s %s\n", version, command);
}

void result_end(const char *command, int status)
{
	char id[48];
	bp_snprintf(id, sizeof(id), "%s.exit", command);
	result_count(id, status == 0 ? RESULT_PASS : RESULT_FAIL, (u64)status, "status");
	if (results_on)
		out_printf("BPEND %s %d\n", command, status);
}
