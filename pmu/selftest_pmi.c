/* Self-test checks: overflow sets GLOBAL_STATUS and raises a PMI; the PMI's
 * delivery masks LVT PC (see selftest.h). */
#include "selftest_int.h"

/* ---- checks: overflow, PMI, LVT PC mask ------------------------------------------------ */

struct pmi_trial {
	int counter;
	bool came;
	u64 status_now;		/* GLOBAL_STATUS after the wait */
};

static int first_gp(const struct pmu_caps *c)
{
	for (unsigned i = 0; i < c->num_gp; i++)
		if (caps_has_gp(c, i))
			return counter_gp(i);
	return COUNTER_NONE;
}

/* The counter's overflow bit must be clear before the test, or clearable. */
bool st_status_bit_clears(struct st *x, u64 bit, const char *what)
{
	const struct pmu_caps *c = x->caps;
	u64 status;
	if (!st_rd(x, c->msr_global_status, &status))
		return false;
	if (!(status & bit))
		return true;
	hw_wrmsr_safe(c->msr_global_status_reset, bit);
	if (!st_rd(x, c->msr_global_status, &status))
		return false;
	if (!(status & bit))
		return true;
	return st_fail(x, "GLOBAL_STATUS %s (0x%llx) is set and does not clear through "
		       "IA32_PERF_GLOBAL_OVF_CTRL (stuck)", what, (unsigned long long)bit);
}

/* Presets a GP counter PMI_PERIOD cycles before overflow with INT set and
 * waits for the PMI. */
static bool run_pmi_trial(struct st *x, struct pmi_trial *t)
{
	const struct pmu_caps *c = x->caps;
	t->counter = first_gp(c);
	u64 bit = BIT(t->counter);
	u32 evtsel = caps_gp_eventsel_msr(c, counter_index(t->counter));
	if (!st_wr(x, c->msr_global_ctrl, 0) || !st_wr(x, evtsel, 0) ||
	    !st_status_bit_clears(x, bit, "counter bit") || !st_pmi_arm(x, NULL))
		return false;
	if (!st_wr_counter(x, t->counter, counter_preset(c, t->counter, PMI_PERIOD)) ||
	    !st_wr(x, evtsel, st_evtsel_for(ARCH_CODE_CORE_CYCLES) | EVTSEL_INT) ||
	    !st_wr(x, c->msr_global_ctrl, bit))
		return false;
	t->came = st_spin_until(st_pmi_came, NULL, SELFTEST_WAIT_MS);
	return st_wr(x, c->msr_global_ctrl, 0) &&
	       st_rd(x, c->msr_global_status, &t->status_now);
}

static bool pmi_arrived(struct st *x, const struct pmi_trial *t)
{
	u64 bit = BIT(t->counter), value = 0;
	if (t->came)
		return true;
	if (t->status_now & bit)
		return st_fail(x, "GP%u overflowed (GLOBAL_STATUS 0x%llx) but no PMI arrived in %u ms",
			       counter_index(t->counter), (unsigned long long)t->status_now,
			       SELFTEST_WAIT_MS);
	st_rd_counter(x, t->counter, &value);
	return st_fail(x, "GP%u preset %u core cycles before overflow did not overflow in %u ms "
		       "(counter 0x%llx)", counter_index(t->counter), PMI_PERIOD, SELFTEST_WAIT_MS,
		       (unsigned long long)value);
}

void st_check_overflow_pmi(struct st *x)
{
	struct pmi_trial t;
	if (!run_pmi_trial(x, &t) || !pmi_arrived(x, &t))
		return;
	u64 bit = BIT(t.counter);
	if (!(selftest_pmi.status & bit))
		st_fail(x, "a PMI arrived but GLOBAL_STATUS was 0x%llx: bit %d clear",
		        (unsigned long long)selftest_pmi.status, t.counter);
	else if (selftest_pmi.ack_faulted || (selftest_pmi.status_after & bit))
		st_fail(x, "GLOBAL_STATUS bit %d did not clear when acknowledged through "
		        "IA32_PERF_GLOBAL_OVF_CTRL (status after: 0x%llx)", t.counter,
		        (unsigned long long)selftest_pmi.status_after);
	else
		st_verdict(x, SELFTEST_PASS, "GP%u overflowed after %u cycles: GLOBAL_STATUS 0x%llx, "
			   "PMI on vector 0x%x, acknowledged", counter_index(t.counter), PMI_PERIOD,
			   (unsigned long long)selftest_pmi.status, x->vector);
}

void st_check_lvt_mask(struct st *x)
{
	struct pmi_trial t;
	if (!run_pmi_trial(x, &t) || !pmi_arrived(x, &t))
		return;
	/* SDM Vol. 3A 11.5.1: delivering a performance-monitoring interrupt
	 * sets the mask bit of LVT PC; the handler must clear it. */
	if (selftest_pmi.lvt & APIC_LVT_MASKED)
		st_verdict(x, SELFTEST_PASS, "LVT PC read 0x%x in the handler: delivery set the mask bit",
			   selftest_pmi.lvt);
	else
		st_fail(x, "LVT PC read 0x%x in the handler: delivery did not set the mask bit "
		        "(SDM 11.5.1 says it does)", selftest_pmi.lvt);
}
