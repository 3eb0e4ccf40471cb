/* Self-test checks: overflow is seen (GLOBAL_STATUS, PerfCntrGlobalStatus,
 * or the counter's top bit) and raises a PMI; what the PMI's delivery does
 * to LVT PC's mask (see selftest.h). */
#include "selftest_int.h"

/* ---- checks: overflow, PMI, LVT PC mask ------------------------------------------------ */

struct pmi_trial {
	int counter;
	bool came;
	u64 status_now;		/* overflows after the wait (st_overflows) */
};

int st_first_gp(const struct pmu_caps *c)
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
	char name[32];
	u64 status;
	if (!caps_has_global_ctrl(c))
		return true;	/* no status register: nothing to be stuck */
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
		       "%s (stuck)", what, (unsigned long long)bit,
		       st_msr_name(x, c->msr_global_status_reset, name, sizeof(name)));
}

/* The counter preset PMI_PERIOD core cycles before overflow and enabled;
 * the PMI handler stops it. */
static bool start_pmi_counter(struct st *x, int counter)
{
	return st_wr_counter(x, counter, counter_preset(x->caps, counter, PMI_PERIOD)) &&
	       st_enable(x, BIT(counter));
}

static bool pmi_count_reached(void *ctx)
{
	return selftest_pmi.calls >= *(const u32 *)ctx;
}

/* Presets a GP counter PMI_PERIOD cycles before overflow with INT set and
 * waits for the PMI. */
static bool run_pmi_trial(struct st *x, struct pmi_trial *t)
{
	const struct pmu_caps *c = x->caps;
	t->counter = st_first_gp(c);
	u64 bit = BIT(t->counter);
	u32 evtsel = caps_gp_eventsel_msr(c, counter_index(t->counter));
	if (!st_enable(x, 0) || !st_wr(x, evtsel, 0) ||
	    !st_status_bit_clears(x, bit, "counter bit") || !st_pmi_arm(x, NULL))
		return false;
	selftest_pmi.counters = bit;
	if (!st_wr(x, evtsel, st_cycles_evtsel(x) | EVTSEL_INT) || !start_pmi_counter(x, t->counter))
		return false;
	t->came = st_spin_until(st_pmi_came, NULL, SELFTEST_WAIT_MS);
	st_check_owned(x, bit, ~0ULL);	/* IA32_PEBS_ENABLE is not this check's */
	if (!st_enable(x, 0))
		return false;
	t->status_now = st_overflows(c, bit);
	return true;
}

static bool pmi_arrived(struct st *x, const struct pmi_trial *t)
{
	u64 bit = BIT(t->counter), value = 0;
	if (t->came)
		return true;
	if (t->status_now & bit)
		return st_fail(x, "GP%u overflowed (status 0x%llx) but no PMI arrived in %u ms",
			       counter_index(t->counter), (unsigned long long)t->status_now,
			       SELFTEST_WAIT_MS);
	st_rd_counter(x, t->counter, &value);
	return st_fail(x, "GP%u preset %u core cycles before overflow did not overflow in %u ms "
		       "(counter 0x%llx)", counter_index(t->counter), PMI_PERIOD, SELFTEST_WAIT_MS,
		       (unsigned long long)value);
}

/* With a status register (Intel v2+, PerfMonV2): the counter's bit is set
 * at the PMI and clears through the reset register (SDM 20.2.4; APM Vol. 2,
 * "PerfCntrGlobalStatusClr"). */
static void judge_status(struct st *x, const struct pmi_trial *t)
{
	char name[32];
	const char *reset = st_msr_name(x, x->caps->msr_global_status_reset, name, sizeof(name));
	u64 bit = BIT(t->counter);
	const char *status = x->arch->status_name;
	if (!(selftest_pmi.status & bit))
		st_fail(x, "a PMI arrived but %s was 0x%llx: bit %d clear", status,
		        (unsigned long long)selftest_pmi.status, t->counter);
	else if (selftest_pmi.ack_faulted || (selftest_pmi.status_after & bit))
		st_fail(x, "%s bit %d did not clear when acknowledged through %s (status after: "
		        "0x%llx)", status, t->counter, reset,
		        (unsigned long long)selftest_pmi.status_after);
	else
		st_verdict(x, SELFTEST_PASS, "GP%u overflowed after %u cycles: %s 0x%llx, PMI on "
			   "vector 0x%x, acknowledged", counter_index(t->counter), PMI_PERIOD, status,
			   (unsigned long long)selftest_pmi.status, x->vector);
}

/* Without one (AMD before PerfMonV2): the preset was negative, so the
 * counter's top bit is clear once it has wrapped (Linux x86_pmu_handle_irq). */
static void judge_top_bit(struct st *x, const struct pmi_trial *t)
{
	char name[32];
	u64 value = 0;
	u32 msr = counter_read_msr(x->caps, t->counter);
	st_rd_counter(x, t->counter, &value);
	if (!(selftest_pmi.status & BIT(t->counter)))
		st_fail(x, "a PMI arrived but %s's top bit (%u) was set: no wrap (0x%llx now)",
			st_msr_name(x, msr, name, sizeof(name)), x->caps->gp_width - 1,
			(unsigned long long)value);
	else
		st_verdict(x, SELFTEST_PASS, "GP%u wrapped after %u cycles: %s's top bit clear at the "
			   "PMI (no global status), PMI on vector 0x%x", counter_index(t->counter),
			   PMI_PERIOD, st_msr_name(x, msr, name, sizeof(name)), x->vector);
}

void st_check_overflow_pmi(struct st *x)
{
	struct pmi_trial t;
	if (!run_pmi_trial(x, &t) || !pmi_arrived(x, &t))
		return;
	if (caps_has_global_ctrl(x->caps))
		judge_status(x, &t);
	else
		judge_top_bit(x, &t);
}

/* Where delivery leaves LVT PC unmasked, a second overflow raises a
 * second PMI without the handler unmasking anything. */
static bool second_pmi_came(struct st *x, const struct pmi_trial *t)
{
	u32 want = 2;
	if (!start_pmi_counter(x, t->counter))
		return false;
	bool came = st_spin_until(pmi_count_reached, &want, SELFTEST_WAIT_MS);
	st_check_owned(x, BIT(t->counter), ~0ULL);
	if (!st_enable(x, 0))
		return false;
	if (came)
		return true;
	return st_fail(x, "LVT PC read 0x%x at the first PMI (unmasked), but a second overflow "
		       "raised no PMI in %u ms", selftest_pmi.lvt, SELFTEST_WAIT_MS);
}

void st_check_lvt_mask(struct st *x)
{
	struct pmi_trial t;
	const struct st_arch *a = x->arch;
	if (!run_pmi_trial(x, &t) || !pmi_arrived(x, &t))
		return;
	bool masked = selftest_pmi.lvt & APIC_LVT_MASKED;
	if (masked != a->delivery_masks_lvt_pc) {
		st_fail(x, "LVT PC read 0x%x in the handler: delivery %s the mask bit (%s says it %s)",
		        selftest_pmi.lvt, masked ? "set" : "did not set", a->lvt_rule,
		        a->delivery_masks_lvt_pc ? "does" : "does not");
		return;
	}
	if (masked) {
		st_verdict(x, SELFTEST_PASS, "LVT PC read 0x%x in the handler: delivery set the mask bit",
			   selftest_pmi.lvt);
		return;
	}
	if (second_pmi_came(x, &t))
		st_verdict(x, SELFTEST_PASS, "LVT PC read 0x%x in the handler: delivery left it "
			   "unmasked (%s); a second PMI came without unmasking", selftest_pmi.lvt,
			   a->lvt_rule);
}
