/* Self-test checks: AMD's Instruction-Based Sampling (AMD64 APM Vol. 2,
 * "Instruction-Based Sampling"), one unit per check. The unit is armed with
 * a small MaxCnt; it tags an op (a fetch), sets Val, latches the address
 * and interrupts through the extended LVT entry IBS_CTL names (APM Vol. 2,
 * "Extended APIC Registers"), which the check programs for the test
 * handler and puts back. The handler stops the unit as Linux's
 * perf_ibs_handle_irq does and keeps what it found; the check judges it,
 * clears the unit and the journal restores its control register. */
#include "selftest_int.h"

#define IBS_TEST_PERIOD 0x1000	/* cycles (op) or fetches (fetch): MaxCnt 0x100 */
/* How far the sampled address may be from where the interrupt came: the
 * busy loop and what it calls, a few instructions of interrupt skid. */
#define IBS_RIP_WINDOW  0x10000

struct ibs_unit {
	const char *name;	/* "IBS_OP_CTL" */
	u32 cap;		/* CPUID.8000001BH:EAX bit of the unit */
	u32 ctl_msr, addr_msr;
	const char *addr_name;	/* the sampled address's register */
	const char *counts;	/* what the period counts */
	u64 enable, val, max_cnt;
};

static const struct ibs_unit op_unit = {
	"IBS_OP_CTL", IBS_CAPS_OPSAM, MSR_AMD_IBS_OP_CTL, MSR_AMD_IBS_OP_RIP, "IbsOpRip",
	"cycles", IBS_OP_ENABLE, IBS_OP_VAL, IBS_OP_MAX_CNT_MASK,
};
static const struct ibs_unit fetch_unit = {
	"IBS_FETCH_CTL", IBS_CAPS_FETCHSAM, MSR_AMD_IBS_FETCH_CTL, MSR_AMD_IBS_FETCH_LINADDR,
	"IbsFetchLinAd", "fetches", IBS_FETCH_ENABLE, IBS_FETCH_VAL, IBS_FETCH_MAX_CNT_MASK,
};

/* What the test handler saw at the first IBS interrupt. */
static struct {
	volatile u32 calls;
	u64 ctl;		/* the unit's control register */
	u64 addr;		/* the sampled address */
	u64 frame_ip;		/* where the interrupt came */
	const struct ibs_unit *unit;
	const struct apic_state *apic;
} ibs_irq;

/* Stops the unit, keeping Val (MaxCnt and En cleared together, as
 * pmu/precise_ibs.c's disarm), and looks. */
static bool on_ibs(const struct plat_irq_frame *f, void *ctx)
{
	const struct ibs_unit *u = ibs_irq.unit;
	u64 ctl = 0;
	(void)ctx;
	hw_rdmsr_safe(u->ctl_msr, &ctl);
	hw_wrmsr_safe(u->ctl_msr, ctl & u->val);
	if (ibs_irq.calls == 0) {
		ibs_irq.ctl = ctl;
		hw_rdmsr_safe(u->addr_msr, &ibs_irq.addr);
		ibs_irq.frame_ip = f->ip;
	}
	ibs_irq.calls++;
	apic_eoi(ibs_irq.apic);
	return true;
}

static bool ibs_irq_came(void *ctx) { (void)ctx; return ibs_irq.calls > 0; }

static bool unit_present(struct st *x, const struct ibs_unit *u)
{
	const struct pmu_caps *c = x->caps;
	if (x->arch->no_ibs)
		st_verdict(x, SELFTEST_SKIP, "%s", x->arch->no_ibs);
	else if (!c->ibs)
		st_verdict(x, SELFTEST_SKIP, "no Instruction-Based Sampling (CPUID.80000001H:ECX[10] = 0)");
	else if (!(c->ibs_caps & u->cap))
		st_verdict(x, SELFTEST_SKIP, "no %s unit (CPUID.8000001BH:EAX = 0x%x)", u->name,
			   c->ibs_caps);
	else
		return true;
	return false;
}

/* The extended LVT entry IBS_CTL names (LvtOffset, valid with
 * LvtOffsetVal; Linux get_ibs_lvt_offset), one the local APIC has
 * (APIC_EXT_FEATURE's count) and nobody uses (masked, as Linux's
 * ibs_eilvt_valid wants it free). */
static bool find_eilvt(struct st *x, unsigned *n)
{
	u64 ibs_ctl;
	if (!st_rd(x, MSR_AMD_IBS_CTL, &ibs_ctl))
		return false;
	*n = (unsigned)(ibs_ctl & IBS_CTL_LVT_OFFSET_MASK);
	if (!(ibs_ctl & IBS_CTL_LVT_OFFSET_VALID)) {
		st_verdict(x, SELFTEST_SKIP, "IBS_CTL = 0x%llx: LvtOffsetVal clear, the firmware "
			   "assigned IBS no extended LVT entry", (unsigned long long)ibs_ctl);
		return false;
	}
	if (apic_probe(&x->apic) != 0) {
		st_verdict(x, SELFTEST_SKIP, "no local APIC to deliver IBS interrupts: %s", x->apic.why);
		return false;
	}
	u32 count = (apic_read(&x->apic, APIC_EXT_FEATURE) & APIC_EXT_FEATURE_XLC_MASK) >>
		    APIC_EXT_FEATURE_XLC_SHIFT;
	if (*n >= count) {
		st_verdict(x, SELFTEST_SKIP, "IBS_CTL names extended LVT entry %u; the local APIC "
			   "has %u", *n, count);
		return false;
	}
	u32 entry = apic_read(&x->apic, apic_eilvt(*n));
	if (!(entry & APIC_LVT_MASKED)) {
		st_verdict(x, SELFTEST_SKIP, "extended LVT entry %u, which IBS_CTL names, is in use "
			   "(0x%x, unmasked): left alone", *n, entry);
		return false;
	}
	return true;
}

/* Saves the entry, installs the handler and points the entry at it. */
static bool arm_eilvt(struct st *x, const struct ibs_unit *u)
{
	unsigned n;
	if (!find_eilvt(x, &n))
		return false;
	bp_memset(&ibs_irq, 0, sizeof(ibs_irq));
	ibs_irq.unit = u;
	ibs_irq.apic = &x->apic;
	x->eilvt_n = n;
	x->eilvt0 = apic_read(&x->apic, apic_eilvt(n));
	x->eilvt_saved = true;
	x->vector = plat_pmi_install(on_ibs, NULL);
	x->pmi_installed = true;
	apic_write(&x->apic, apic_eilvt(n), APIC_LVT_DELIVERY_FIXED | x->vector);
	return true;
}

/* Arms the unit (MaxCnt holds the period's bits 19:4, APM "IbsOpMaxCnt",
 * "IbsFetchMaxCnt"), waits for the interrupt, clears the unit. */
static bool run_ibs_trial(struct st *x, const struct ibs_unit *u, u64 *after)
{
	u64 ctl = u->enable | ((IBS_TEST_PERIOD >> IBS_PERIOD_SHIFT) & u->max_cnt);
	if (!st_wr(x, u->ctl_msr, 0) || !arm_eilvt(x, u) || !st_wr(x, u->ctl_msr, ctl))
		return false;
	st_spin_until(ibs_irq_came, NULL, SELFTEST_WAIT_MS);
	u64 left;
	if (!st_rd(x, u->ctl_msr, &left) || !st_wr(x, u->ctl_msr, 0) || !st_rd(x, u->ctl_msr, after))
		return false;
	if (ibs_irq.calls)
		return true;
	if (left & u->val)
		return st_fail(x, "%s = 0x%llx: a sample (Val) but no interrupt through extended LVT "
			       "entry %u in %u ms", u->name, (unsigned long long)left, x->eilvt_n,
			       SELFTEST_WAIT_MS);
	return st_fail(x, "%s = 0x%llx: no sample in %u ms (period %u)", u->name,
		       (unsigned long long)left, SELFTEST_WAIT_MS, IBS_TEST_PERIOD);
}

static u64 distance(u64 a, u64 b) { return a > b ? a - b : b - a; }

static void check_unit(struct st *x, const struct ibs_unit *u)
{
	u64 after;
	if (!unit_present(x, u) || !run_ibs_trial(x, u, &after))
		return;
	if (!(ibs_irq.ctl & u->val))
		st_fail(x, "an interrupt came through extended LVT entry %u, but %s read 0x%llx: "
			"Val clear", x->eilvt_n, u->name, (unsigned long long)ibs_irq.ctl);
	else if (!ibs_irq.addr || distance(ibs_irq.addr, ibs_irq.frame_ip) > IBS_RIP_WINDOW)
		st_fail(x, "%s = 0x%llx: not in the code that ran (interrupted at 0x%llx)",
			u->addr_name, (unsigned long long)ibs_irq.addr,
			(unsigned long long)ibs_irq.frame_ip);
	else if (after & u->val)
		st_fail(x, "%s kept Val when written 0 (0x%llx)", u->name, (unsigned long long)after);
	else
		st_verdict(x, SELFTEST_PASS, "a sample after %u %s: Val set, %s 0x%llx (interrupted "
			   "at 0x%llx), vector 0x%x through extended LVT entry %u; cleared",
			   IBS_TEST_PERIOD, u->counts, u->addr_name, (unsigned long long)ibs_irq.addr,
			   (unsigned long long)ibs_irq.frame_ip, x->vector, x->eilvt_n);
}

void st_check_ibs_op(struct st *x)    { check_unit(x, &op_unit); }
void st_check_ibs_fetch(struct st *x) { check_unit(x, &fetch_unit); }
