#include "workload.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../lib/fmt.h"

extern const struct workload workload_soak, workload_chase, workload_branchy, workload_stream,
	workload_irqoff;

static const struct workload *const all[] = {
	&workload_soak, &workload_chase, &workload_branchy, &workload_stream, &workload_irqoff,
};

size_t workload_count(void) { return ARRAY_SIZE(all); }
const struct workload *workload_at(size_t i) { return i < ARRAY_SIZE(all) ? all[i] : NULL; }

const struct workload *workload_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (bp_strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

const char *workload_names(void)
{
	static char names[128];
	size_t n = 0;
	names[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		n += (size_t)bp_snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
					 all[i]->name);
	return names;
}

void workload_unknown(const char *name)
{
	err_printf("bareperf: unknown workload '%s'; built-in workloads:\n", name);
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		err_printf("  %-8s %s\n", all[i]->name, all[i]->summary);
}

const struct workload *workload_checked(int argc, char **argv)
{
	const struct workload *w = workload_find(argv[0]);
	if (!w) {
		workload_unknown(argv[0]);
		return NULL;
	}
	return w->check(argc, argv) ? NULL : w;
}

void workload_begin(const struct code_profile *p)
{
	exec_code_profile(p);
}

void workload_retired(u64 done, u64 next)
{
	exec_retired(done, next);
}

u64 soak_hot(u64 iterations);

#define RATE_SLICE_US 2000	/* each measurement: about 2 ms */
#define RATE_SLICES   16

/* Ticks one run of soak's loop over n iterations takes. */
static u64 time_soak(u64 n)
{
	u64 t0 = plat_ticks();
	(void)soak_hot(n);	/* an external call: the compiler cannot drop it */
	return plat_ticks() - t0;
}

/* The fastest of several short slices: a slice that no interrupt (the
 * firmware's timer, a disk completion) landed in measures the rate
 * itself, which under -icount makes the rate exact and repeatable. */
static u64 measure_insn_rate(void)
{
	u64 tps = plat_ticks_per_second(), n = 1u << 12, best = ~0ULL;
	if (!tps)
		return 2000000000ULL;	/* no clock: a 2 GHz core at IPC 1 */
	while (n < (1ULL << 34) && time_soak(n) < tps / 1000000 * RATE_SLICE_US)
		n <<= 1;
	for (int i = 0; i < RATE_SLICES; i++) {
		u64 t = time_soak(n);
		best = t && t < best ? t : best;
	}
	return (u64)((unsigned __int128)(8 * n + 3) * tps / best);	/* soak_loops.asm */
}

/* Measured once: every run of a process follows one rate. */
u64 workload_insn_rate(void)
{
	static u64 rate;
	if (!rate)
		rate = measure_insn_rate();
	return rate;
}

int workload_opt_u64(const char *wname, int argc, char **argv, int *i, const char *opt,
		     u64 min, u64 max, u64 *out)
{
	if (bp_strcmp(argv[*i], opt) != 0)
		return 0;
	if (*i + 1 >= argc) {
		err_printf("bareperf: %s: %s needs a value\n", wname, opt);
		return -1;
	}
	const char *v = argv[++*i];
	if (!bp_parse_u64(v, out) || *out < min || *out > max) {
		/* "16GiB": digits then a unit, which no option takes */
		u64 digits;
		const char *end;
		bool unit = bp_parse_u64_prefix(v, &digits, &end) && end != v && *end &&
			    ((*end >= 'A' && *end <= 'Z') || (*end >= 'a' && *end <= 'z'));
		err_printf("bareperf: %s: %s '%s': expected a number from %llu to %llu%s\n", wname,
			   opt, v, (unsigned long long)min, (unsigned long long)max,
			   unit ? " (a plain number, without a unit)" : "");
		return -1;
	}
	return 1;
}
