/* Event-table benchmark (`make bench`): what the packed tables of every
 * perfmon model cost where users wait, `list` and `sched`. Times the one
 * unpacking of the name dictionary (the first ev_name()), a name lookup
 * (event_find over every name of the largest table), one table walked as
 * `list` walks it (every row filled and named), and parsing an -e list as
 * `sched` does. Host only; prints figures and asserts nothing. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "events/events.h"
#include "events/evparse.h"

static volatile unsigned sink;

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static const struct event_table *largest_table(void)
{
	const struct event_table *big = &event_tables[0];
	for (size_t i = 1; i < event_table_count; i++)
		if (event_tables[i].count > big->count)
			big = &event_tables[i];
	return big;
}

static void walk_table(const struct event_table *t)
{
	struct pmu_event ev;
	for (u16 i = 0; i < t->count; i++) {
		memset(&ev, 0, sizeof(ev));
		event_entry_fill(t, event_at(t, i), &ev);
		sink += (unsigned)strlen(ev_name(event_at(t, i))) + ev.event;
	}
}

static void find_every_name(const struct event_table *t)
{
	for (u16 i = 0; i < t->count; i++)
		sink += event_find(t, ev_name(event_at(t, i))) != NULL;
}

#define SCHED_LIST "cycles,instructions,MEM_LOAD_RETIRED.L3_MISS," \
	"OCR.DEMAND_DATA_RD.ANY_RESPONSE,BR_MISP_RETIRED.ALL_BRANCHES,INST_RETIRED.PREC_DIST:ppp"

static void parse_sched_list(const struct event_table *t)
{
	struct pmu_event ev[8];
	char err[256];
	sink += (unsigned)evparse_list(SCHED_LIST, t, NULL, ev, 8, err, sizeof(err));
}

/* Microseconds per call, the best of 21 batches of reps calls. */
static double best_us(void (*fn)(const struct event_table *), const struct event_table *t,
		      int reps)
{
	double best = 1e30;
	for (int b = 0; b < 21; b++) {
		double t0 = now_ns();
		for (int r = 0; r < reps; r++)
			fn(t);
		double us = (now_ns() - t0) / reps / 1e3;
		best = us < best ? us : best;
	}
	return best;
}

int main(void)
{
	size_t events = 0;
	for (size_t i = 0; i < event_table_count; i++)
		events += event_tables[i].count;
	double t0 = now_ns();
	sink += (unsigned)strlen(ev_name(&event_rows[0]));	/* unpacks every name */
	double unpack_us = (now_ns() - t0) / 1e3;
	const struct event_table *big = largest_table(), *icx = event_table_by_name("icx");

	printf("tables: %zu models, %zu events, %u distinct rows, %u names (%u bytes unpacked)\n",
	       event_table_count, events, event_row_count, event_name_count, event_name_bytes);
	printf("name dictionary unpacked once:            %8.1f us\n", unpack_us);
	printf("event_find, every name of %-7s (%4u):   %8.3f us per lookup\n", big->name,
	       big->count, best_us(find_every_name, big, 20) / big->count);
	printf("list walk of %-7s (%4u rows):            %8.1f us\n", big->name, big->count,
	       best_us(walk_table, big, 20));
	printf("list walk of icx     (%4u rows):            %8.1f us\n", icx->count,
	       best_us(walk_table, icx, 20));
	printf("sched's parse of 6 events on icx:          %8.2f us\n",
	       best_us(parse_sched_list, icx, 200));
	return 0;
}
