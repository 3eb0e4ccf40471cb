/* PEBS threshold policy; see threshold.h. */
#include "threshold.h"
#include "record.h"
#include "../lib/fmt.h"
#include "../lib/str.h"

bool pebs_threshold_parse(const char *arg, struct pebs_threshold_opt *out,
			  char *err, size_t errlen)
{
	u64 n;
	if (!arg || !*arg) {
		bp_snprintf(err, errlen, "--pebs-threshold needs a value: 1, a number of records, or max");
		return false;
	}
	if (bp_strcasecmp(arg, "max") == 0) {
		*out = (struct pebs_threshold_opt){ .mode = PEBS_THRESHOLD_MAX };
		return true;
	}
	if (!bp_parse_u64(arg, &n)) {
		bp_snprintf(err, errlen, "--pebs-threshold=%s: not a number of records "
			    "(expected 1, N or max)", arg);
		return false;
	}
	if (n == 0) {
		bp_snprintf(err, errlen, "--pebs-threshold=0: the threshold must be at least 1 record");
		return false;
	}
	*out = (struct pebs_threshold_opt){
		.mode = n == 1 ? PEBS_THRESHOLD_ONE : PEBS_THRESHOLD_N, .records = n,
	};
	return true;
}

/* Why an event needs one record per PMI, or NULL if it qualifies. */
static const char *disqualifier(const struct pebs_event_req *r, u8 format)
{
	if (r->freq_mode)
		return "frequency mode (-F) adapts the period at each PMI";
	if (r->fields & BP_SAMPLE_CALLCHAIN)
		return "callchain requested with -g";
	if (r->fields & BP_SAMPLE_TIME && format < 3)
		return "timestamps requested but records before format 3 have no TSC";
	if (r->fields & BP_SAMPLE_READ)
		return "group counter values are read at the PMI";
	if (r->fields & BP_SAMPLE_BRANCH_STACK)
		return "branch stacks are read at the PMI";
	if (r->fields & ~pebs_record_fields(format))
		return "a sample field the PEBS record does not supply";
	return NULL;
}

static void set_reason(struct pebs_threshold_choice *c, const char *why)
{
	bp_strlcpy(c->reason, why, sizeof(c->reason));
}

bool pebs_threshold_choose(const struct pebs_event_req *reqs, unsigned n, u8 format,
			   u64 max_records, unsigned pebs_counters,
			   const struct pebs_threshold_opt *opt,
			   struct pebs_threshold_choice *out, char *err, size_t errlen)
{
	const char *why_one = NULL;
	for (unsigned i = 0; i < n && !why_one; i++)
		why_one = disqualifier(&reqs[i], format);
	/* Leave room for one record per PEBS counter between the PMI being
	 * raised and the counters being stopped, so none is lost. */
	u64 large = max_records > pebs_counters ? max_records - pebs_counters : 1;

	bp_memset(out, 0, sizeof(*out));
	switch (opt->mode) {
	case PEBS_THRESHOLD_ONE:
		out->records = 1;
		set_reason(out, "--pebs-threshold=1");
		return true;
	case PEBS_THRESHOLD_N:
	case PEBS_THRESHOLD_MAX:
		if (why_one) {
			bp_snprintf(err, errlen, "--pebs-threshold above 1 is not possible: %s", why_one);
			return false;
		}
		if (opt->mode == PEBS_THRESHOLD_N && opt->records > large) {
			bp_snprintf(err, errlen, "--pebs-threshold=%llu: the buffer allows at most %llu "
				    "records (%llu records minus one per PEBS counter); use max or a "
				    "larger buffer", (unsigned long long)opt->records,
				    (unsigned long long)large, (unsigned long long)max_records);
			return false;
		}
		out->records = opt->mode == PEBS_THRESHOLD_MAX ? large : opt->records;
		out->large = out->records > 1;
		if (opt->mode == PEBS_THRESHOLD_MAX)
			set_reason(out, "--pebs-threshold=max");
		else
			bp_snprintf(out->reason, sizeof(out->reason), "--pebs-threshold=%llu",
				    (unsigned long long)opt->records);
		return true;
	case PEBS_THRESHOLD_AUTO:
		break;
	}
	if (why_one) {
		out->records = 1;
		set_reason(out, why_one);
	} else {
		out->records = large;
		out->large = large > 1;
		set_reason(out, "large PEBS: fixed period, no callchain");
	}
	return true;
}

int pebs_threshold_explain(const struct pebs_threshold_choice *c, char *buf, size_t len)
{
	return bp_snprintf(buf, len, "PEBS threshold: %llu record%s (%s)",
			   (unsigned long long)c->records, c->records == 1 ? "" : "s", c->reason);
}
