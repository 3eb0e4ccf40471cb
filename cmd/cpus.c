/* The CPUs a command measures, from its -a and -C options. */
#include "cpus.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../arch/exec.h"

static int list_error(char *err, size_t errlen, const char *list, const char *why)
{
	bp_snprintf(err, errlen, "-C '%s': %s", list, why);
	return -1;
}

int cpus_parse_list(const char *list, u32 ncpus, u64 *mask, char *err, size_t errlen)
{
	const char *s = list;
	*mask = 0;
	if (!*s)
		return list_error(err, errlen, list, "expected CPU numbers like 0,2-3");
	while (*s) {
		u64 lo, hi;
		const char *end;
		if (!bp_parse_u64_prefix(s, &lo, &end))
			return list_error(err, errlen, list, "expected CPU numbers like 0,2-3");
		hi = lo;
		if (*end == '-' && !bp_parse_u64_prefix(end + 1, &hi, &end))
			return list_error(err, errlen, list, "a range needs its last CPU (2-3)");
		if (hi < lo)
			return list_error(err, errlen, list, "a range goes upwards (2-3, not 3-2)");
		if (hi >= ncpus) {
			char why[80];
			bp_snprintf(why, sizeof(why), "CPU %llu does not exist (CPUs 0-%u)",
				    (unsigned long long)hi, ncpus - 1);
			return list_error(err, errlen, list, why);
		}
		if (hi >= PERCPU_MAX) {
			char why[120];
			bp_snprintf(why, sizeof(why), "CPU %llu: bareperf samples at most %u CPUs "
				    "(0-%u) of this machine's %u", (unsigned long long)hi,
				    (u32)PERCPU_MAX, (u32)PERCPU_MAX - 1, ncpus);
			return list_error(err, errlen, list, why);
		}
		for (u64 c = lo; c <= hi; c++)
			*mask |= BIT(c);
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return list_error(err, errlen, list, "CPUs are separated by commas");
		s = end;
	}
	return 0;
}

u64 cpus_all_mask(u32 ncpus, char *note, size_t notelen)
{
	note[0] = 0;
	if (ncpus <= PERCPU_MAX)
		return ncpus == PERCPU_MAX ? ~0ULL : BIT(ncpus) - 1;
	bp_snprintf(note, notelen, "-a: this machine has %u CPUs; bareperf samples the first %u "
		    "(CPUs %u-%u are not sampled)", ncpus, (u32)PERCPU_MAX, (u32)PERCPU_MAX,
		    ncpus - 1);
	return ~0ULL;
}

/* An emulated PMU may model more CPUs (sim:MODEL,cpus=N) than the machine
 * has, but -a and -C take the machine's: a model CPU stands for one of them
 * (in the image, the AP whose code it samples; the host twin follows the
 * image). Says so, with why, where the difference matters. */
static void say_model_cpus(const char *cmd, u32 n)
{
	u32 modelled = exec_cpu_count();
	if (modelled <= n)
		return;
	err_printf("bareperf %s: the emulated PMU models %u CPUs, but -a and -C take this "
		   "machine's %u (CPUs 0-%u): a model CPU stands for one of them%s; model "
		   "CPUs %u-%u are not used\n", cmd, modelled, n, n - 1,
		   bp_strcmp(plat_name(), "host") == 0 ?
		   " (the host twin runs on this host's CPUs, as the image on its machine's)" : "",
		   n, modelled - 1);
}

int cpus_mask_of(bool all, const char *list, const char *cmd, u64 *mask)
{
	char err[160];
	u32 n = plat_cpu_count();
	if (all) {
		*mask = cpus_all_mask(n, err, sizeof(err));
		if (err[0])
			err_printf("bareperf %s: %s\n", cmd, err);
		say_model_cpus(cmd, n);
		return EXIT_OK;
	}
	if (list) {
		if (cpus_parse_list(list, n, mask, err, sizeof(err))) {
			err_printf("bareperf %s: %s\n", cmd, err);
			say_model_cpus(cmd, n);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	*mask = BIT(plat_cpu_self());
	return EXIT_OK;
}
