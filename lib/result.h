/* Machine-readable result lines, for a lab that reads the console log
 * (LAVA's `monitors` test action, grep): with the global --results, each
 * command adds one line per check or figure,
 *
 *   BPRESULT <id> <pass|fail|skip> [<measurement> <units>]
 *
 * id a dotted name without blanks (selftest.counters, record.samples), the
 * measurement a plain decimal number, between a first line "BPSTART
 * bareperf VERSION COMMAND" and a last "BPEND COMMAND STATUS" (a lab's
 * monitor starts and ends there). LAVA's pattern for them:
 *   BPRESULT (?P<test_case_id>[^ \r\n]+) (?P<result>pass|fail|skip)( (?P<measurement>-?[0-9.]+) (?P<units>[^ \r\n]+))?[ \t]*[\r\n]
 * (anchored at the line's end: pexpect matches what has come so far, and
 * would take a line whose measurement is still on its way without it).
 */
#ifndef BP_RESULT_H
#define BP_RESULT_H
#include "types.h"

enum result_kind { RESULT_PASS, RESULT_FAIL, RESULT_SKIP };

void results_enable(bool on);
bool results_enabled(void);
/* A test case: BPRESULT id pass|fail|skip. */
void result_case(const char *id, enum result_kind r);
/* A figure with its test case; units a word (samples, s, percent). */
void result_measure(const char *id, enum result_kind r, double value, const char *units);
void result_count(const char *id, enum result_kind r, u64 value, const char *units);
/* The command's first and last lines; the last also gives its exit
 * status as the test case COMMAND.exit. */
void result_start(const char *version, const char *command);
void result_end(const char *command, int status);

#endif
