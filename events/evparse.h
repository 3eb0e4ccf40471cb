/* The event parser: perf-style event text to struct pmu_event, encoded and
 * constrained for one CPU model. Syntax (docs/events.md has the details):
 *
 *   LIST   := ITEM (',' ITEM)*
 *   ITEM   := EVENT | '{' EVENT (',' EVENT)* '}' [':' MODS]
 *   EVENT  := NAME [':' MODS] | 'r' HEX [':' MODS] | 'cpu/' TERMS '/' [[':'] MODS]
 *             (on AMD, r HEX's bits 35:32 and event=N take the 12-bit
 *             event code's bits 11:8, as perf's amd config does)
 *   NAME   := a perf generic name (cycles, instructions, ref-cycles,
 *             branches, branch-misses, cache-references, cache-misses,
 *             bus-cycles, slots, stalled-cycles-frontend/-backend and
 *             perf's aliases; on AMD, Linux's Zen encodings) or an event
 *             name of the model's table (Intel or AMD Zen), in any case
 *   TERMS  := TERM (',' TERM)*; TERM := event=N | umask=N | cmask=N | inv |
 *             edge | any | ldlat=N | offcore_rsp=N | frontend=N |
 *             period=N | name=WORD | an event NAME as the base
 *   MODS   := any of u k p pp ppp (e.g. "ppu")
 *
 * Ring 0 and :u/:k: bareperf runs as firmware, in ring 0, with no ring-3
 * code at all. :k (exclude_user) counts ring 0 only, i.e. everything the
 * firmware and bareperf do; :u (exclude_kernel) counts ring 3 only, which
 * in firmware is nothing: such an event reads 0 (it is accepted, since a
 * zero is a valid measurement, but rarely what one wants). Without a
 * modifier, and with both, an event counts in both rings (OS and USR set),
 * the same as :k in practice.
 *
 * The model: t is the event table of the CPU in use (or of --cpu MODEL);
 * NULL means architectural events only (a CPU the tables do not know).
 * caps, when given, is the CPU in use: its counters and architectural
 * events limit what is allowed. Pass caps NULL for a model named with
 * --cpu (then the table alone decides). */
#ifndef BP_EVPARSE_H
#define BP_EVPARSE_H
#include "../lib/types.h"
#include "../arch/caps.h"
#include "event.h"
#include "events.h"

/* Parses a comma list with {groups}. Fills out[0..n-1] (group = index of
 * the group's leader, -1 outside groups) and returns n, or -1 with a
 * message in err that names the offending token. */
int evparse_list(const char *text, const struct event_table *t,
		 const struct pmu_caps *caps, struct pmu_event *out, int max,
		 char *err, size_t errlen);

/* Parses one EVENT (no list, no braces). 0 or -1 with err. */
int evparse_event(const char *text, const struct event_table *t,
		  const struct pmu_caps *caps, struct pmu_event *out,
		  char *err, size_t errlen);

/* The generic names, for `list`: the i-th name and its perf alias (or
 * NULL); false past the end. */
bool evparse_generic(size_t i, const char **name, const char **alias);

#endif
