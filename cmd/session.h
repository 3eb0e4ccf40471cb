/* What every measuring command (stat, record, ...) does around its work:
 * read the capabilities, pick the event table, parse the events, and, on
 * the emulated PMU, drive the model from a real tick so it sees the
 * running code (stopped on every exit path). Each CPU's PMU is taken by
 * the per-CPU engine (sampling/percpu.h), or by selftest itself. */
#ifndef BP_SESSION_H
#define BP_SESSION_H
#include "cli.h"
#include "../events/events.h"
#include "../pmu/pmu.h"

#define SESSION_MAX_EVENTS PMU_MAX_EVENTS

struct session {
	struct pmu_caps caps;
	const struct event_table *table;	/* NULL: architectural events only */
	bool emulated;
	bool driving;		/* the emulated PMU's tick is running */
	bool started;		/* session_start_drive ran: -v shows the seam's figures */
	int verbose;		/* -v: placement and seam statistics */
};

/* Reads capabilities and the table. Fails with EXIT_NO_PMU (after saying
 * why and what to do) when the CPU has no usable PMU. */
int session_probe(struct session *s, const char *cmd);
/* Parses an event list; prints the parser's error. Returns the count or -1. */
int session_parse_events(struct session *s, const char *cmd, const char *text,
			 struct pmu_event *out, int max);
/* Once the PMU is taken (sampling/percpu.h, or selftest's own): the
 * emulated PMU's tick, nothing on the real PMU; and with -v, the seam's
 * access counts from here on. Returns EXIT_OK or a failure status after
 * printing why. */
int session_start_drive(struct session *s, const struct global_opts *g, const char *cmd);
/* With -v: where each event went on pmu ("cycles: fixed1"). ids: pmu slots. */
void session_show_placement(const struct session *s, const struct pmu *pmu,
			    const struct pmu_event *ev, const int *ids, int n);
/* Stops the drive; safe to call twice. With -v, prints the seam's
 * MSR/MMIO access counts and, when emulated, the drive's figures. */
void session_stop(struct session *s);
/* Seconds as a double from plat_ticks() units. */
double session_seconds(u64 ticks);

/* A command's state, too big for the stack, taken from the heap rather
 * than kept static (static state is file size in a PE image, whose .data
 * holds .bss): zeroed, or NULL after saying so. plat_free when done. */
void *session_state_alloc(const char *cmd, size_t size);
/* Frees it, with the exit hooks that point into it (the command closed
 * what they would have). */
void session_state_free(void *state, size_t size);

#endif
