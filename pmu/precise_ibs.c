/* AMD's Instruction-Based Sampling as a precise engine (pmu/precise.h):
 * AMD64 APM Vol. 2, "Instruction-Based Sampling", driven as Linux's
 * arch/x86/events/amd/ibs.c drives it. An IBS unit (op or fetch) counts on
 * its own, on no core counter; at MaxCnt it tags one op (fetch), latches
 * its RIP and data in the sample MSRs, sets Val and interrupts through the
 * extended LVT entry the firmware named in IBS_CTL. One sample per
 * interrupt: the drain reads it and re-arms the unit, which clears Val
 * (perf_ibs_handle_irq).
 *
 * The engine owns, for the session: that extended LVT entry (saved,
 * programmed with the PMI's vector or NMI, put back at teardown, as
 * setup_APIC_ibs/clear_APIC_ibs do per CPU) and the units' control
 * registers (put back as found). IBS_CTL itself is the firmware's.
 *
 * Accounting: every Val found is one sample owed, delivered or lost by
 * reason: found == delivered + ring_full + throttled + rip_invalid. */
#include "pmu_int.h"
#include "precise.h"
#include "../arch/hw.h"
#include "../lib/fmt.h"
#include "../lib/str.h"
#include "../pebs/datasrc.h"
#include "ibs_datasrc.h"

static const u32 ctl_msr[PRECISE_IBS_UNITS] = { MSR_AMD_IBS_OP_CTL, MSR_AMD_IBS_FETCH_CTL };
static const u64 val_bit[PRECISE_IBS_UNITS] = { IBS_OP_VAL, IBS_FETCH_VAL };
static const u8 pmu_unit[PRECISE_IBS_UNITS] = { PMU_IBS_OP, PMU_IBS_FETCH };
static const char *const unit_name[PRECISE_IBS_UNITS] = { "ibs_op", "ibs_fetch" };

static const char *ibs_missing(const struct pmu_caps *c)
{
	if (!c->amd)
		return "no AMD PMU";
	if (!c->ibs)
		return "no Instruction-Based Sampling (CPUID.80000001H:ECX[10] = 0)";
	return NULL;
}

/* ---- which events, which unit ------------------------------------------------ */

static int unit_of(const struct pmu_event *e)
{
	return e->ibs == EVENT_IBS_OP ? PRECISE_IBS_OP : e->ibs == EVENT_IBS_FETCH ? PRECISE_IBS_FETCH : -1;
}

/* Each precise event is an IBS event of a unit the CPU has, one per unit
 * (an IBS unit samples one event: Linux's perf_ibs_add returns -ENOSPC
 * for a second, validate_group refuses two in a group). */
static bool classify(u32 caps, const struct precise_event *ev, unsigned n, char *err,
		     size_t errlen)
{
	static const u32 unit_cap[PRECISE_IBS_UNITS] = { IBS_CAPS_OPSAM, IBS_CAPS_FETCHSAM };
	bool taken[PRECISE_IBS_UNITS] = { false, false };
	for (unsigned i = 0; i < n; i++) {
		int u = unit_of(ev[i].ev);
		const char *name = ev[i].ev->name;
		if (u < 0) {
			bp_snprintf(err, errlen, "%s: on AMD, precise sampling is IBS: ibs_op//, "
				    "ibs_fetch//, or cycles:p (which samples through ibs_op)", name);
			return false;
		}
		if (!(caps & unit_cap[u])) {
			bp_snprintf(err, errlen, "%s: this CPU's IBS has no %s unit (CPUID.8000001BH:"
				    "EAX = 0x%x)", name, unit_name[u], caps);
			return false;
		}
		if (taken[u]) {
			bp_snprintf(err, errlen, "%s: %s samples one event at a time, and another "
				    "event already uses it", name, unit_name[u]);
			return false;
		}
		taken[u] = true;
	}
	return true;
}

static bool ibs_check(const struct pmu_caps *c, const struct precise_event *ev, unsigned n,
		      const struct precise_opts *o, char *err, size_t errlen)
{
	(void)o;
	return classify(c->ibs_caps, ev, n, err, errlen);
}

/* ---- the period ---------------------------------------------------------------- */

/* The longest period: MaxCnt's 16 bits in units of 16, with OpCntExt 7
 * more for op (Linux perf_ibs_op_init: max_period |= IBS_OP_MAX_CNT_EXT_MASK). */
static u64 max_period(u32 caps, int u)
{
	u64 max = (u64)IBS_OP_MAX_CNT_MASK << IBS_PERIOD_SHIFT;
	if (u == PRECISE_IBS_OP && (caps & IBS_CAPS_OPCNTEXT))
		max |= IBS_OP_MAX_CNT_EXT_MASK;
	return max;
}

/* The low 4 bits cannot be set in MaxCnt: the period is rounded down to
 * a multiple of 16, at least 16 (Linux perf_ibs_init: sample_period &=
 * ~0x0F, 0 becomes 0x10). */
static u64 armed_period(u64 period)
{
	period &= ~(u64)(IBS_PERIOD_MIN - 1);
	return period ? period : IBS_PERIOD_MIN;
}

/* A 4-bit random start for CurCnt, so that samples do not lock onto a
 * loop whose length divides the period: Linux keeps the random low bits
 * of CurCnt (IBS_OP_CUR_CNT_RAND) when it re-arms, and IbsRandEn asks the
 * fetch unit for the same. */
static u64 rand4(struct precise_ibs *b)
{
	b->rand = b->rand * 6364136223846793005ULL + 1442695040888963407ULL;
	return (b->rand >> 60) & 0xF;
}

/* IBS_OP_CTL as perf_ibs_start writes it: period bits 26:20 in place with
 * OpCntExt, bits 19:4 in MaxCnt, CntCtl for cnt_ctl=1, En. */
static u64 op_ctl_of(u32 caps, u64 period, bool cnt_ctl)
{
	u64 ctl = IBS_OP_ENABLE | (cnt_ctl ? IBS_OP_CNT_CTL : 0);
	if (caps & IBS_CAPS_OPCNTEXT) {
		ctl |= period & IBS_OP_MAX_CNT_EXT_MASK;
		period &= ~IBS_OP_MAX_CNT_EXT_MASK;
	}
	return ctl | (period >> IBS_PERIOD_SHIFT);
}

static u64 fetch_ctl_of(u64 period)
{
	return IBS_FETCH_ENABLE | IBS_FETCH_RAND_EN | (period >> IBS_PERIOD_SHIFT);
}

/* The control value for one arming: the op unit's CurCnt starts at a
 * random 0-15 where software may write it (RdWrOpCnt); the fetch unit
 * randomises its own count (IbsRandEn). */
static u64 arm_value(struct precise_ibs *b, int u)
{
	u64 ctl = b->unit[u].ctl;
	if (u == PRECISE_IBS_OP && (b->caps & IBS_CAPS_RDWROPCNT))
		ctl |= rand4(b) << IBS_OP_CUR_CNT_SHIFT;
	return ctl;
}

static void arm(struct precise_ibs *b, int u)
{
	hw_wrmsr(ctl_msr[u], arm_value(b, u));
}

/* Stops a unit and keeps a sample it holds (Val) for the drain; MaxCnt
 * cleared first as Linux's perf_ibs_disable_event does (erratum #420). */
static void disarm(int u)
{
	u64 ctl = hw_rdmsr(ctl_msr[u]);
	hw_wrmsr(ctl_msr[u], ctl & val_bit[u]);
}

/* ---- setup and teardown ----------------------------------------------------------- */

static int add_unit(struct precise_ibs *b, const struct precise_event *e, char *err, size_t errlen)
{
	int u = unit_of(e->ev);
	struct precise_ibs_unit *un = &b->unit[u];
	u64 period = armed_period(e->period), max = max_period(b->caps, u);
	if (period > max) {
		bp_snprintf(err, errlen, "%s: period %llu: %s takes periods up to %llu (MaxCnt)",
			    e->ev->name, (unsigned long long)e->period, unit_name[u],
			    (unsigned long long)max);
		return -1;
	}
	*un = (struct precise_ibs_unit){ .on = true, .event = e->sample_event, .period = period,
					 .period_asked = e->period, .fields = e->fields };
	un->ctl = u == PRECISE_IBS_OP ? op_ctl_of(b->caps, period, e->ev->ibs_cnt_ctl)
				      : fetch_ctl_of(period);
	return 0;
}

/* The extended LVT entry the firmware assigned to IBS (Linux
 * get_ibs_lvt_offset, ibs_eilvt_valid): IBS_CTL.LvtOffsetVal, and the
 * entry free (masked) or already ours. IBS_CTL is read-only: only family
 * 10h leaves the assignment to the OS, through the northbridge's PCI
 * configuration (Linux force_ibs_eilvt_setup), which bareperf does not
 * touch, so no other entry can be chosen. */
static int take_eilvt(struct precise_ibs *b, u32 want, char *err, size_t errlen)
{
	b->ibs_ctl = hw_rdmsr(MSR_AMD_IBS_CTL);
	if (!(b->ibs_ctl & IBS_CTL_LVT_OFFSET_VALID)) {
		bp_snprintf(err, errlen, "IBS_CTL (MSR C001_103AH) = 0x%llx: LvtOffsetVal (bit 8) is "
			    "clear, the firmware assigned IBS no extended LVT entry, so IBS cannot "
			    "interrupt", (unsigned long long)b->ibs_ctl);
		return -1;
	}
	b->offset = (unsigned)(b->ibs_ctl & IBS_CTL_LVT_OFFSET_MASK);
	if (apic_probe(&b->apic) != 0) {
		bp_snprintf(err, errlen, "IBS: %s", b->apic.why);
		return -1;
	}
	u32 xlc = (u32)FIELD(apic_read(&b->apic, APIC_EXT_FEATURE), 23, 16);
	if (b->offset >= xlc) {
		bp_snprintf(err, errlen, "IBS_CTL names extended LVT entry %u, but the local APIC "
			    "has %u (APIC_EXT_FEATURE)", b->offset, xlc);
		return -1;
	}
	b->eilvt_found = apic_read(&b->apic, apic_eilvt(b->offset));
	if (!(b->eilvt_found & APIC_LVT_MASKED) && b->eilvt_found != want) {
		bp_snprintf(err, errlen, "extended LVT entry %u (APIC 0x%x), which IBS_CTL names, "
			    "is in use: 0x%x, not masked", b->offset, apic_eilvt(b->offset),
			    b->eilvt_found);
		return -1;
	}
	apic_write(&b->apic, apic_eilvt(b->offset), want);
	b->eilvt_taken = true;
	return 0;
}

static int ibs_setup(struct precise *pr, struct pmu *p, const struct precise_event *ev, unsigned n,
		     const struct precise_opts *o, char *err, size_t errlen)
{
	struct precise_ibs *b = &pr->ibs;
	bp_memset(b, 0, sizeof(*b));
	b->pmu = p;
	b->caps = p->caps.ibs_caps;
	b->cpu = o->cpu;
	b->rand = hw_rdtsc() | 1;
	pr->counters = 0;	/* on no core counter */
	if (!classify(b->caps, ev, n, err, errlen))
		return -1;
	for (unsigned i = 0; i < n; i++)
		if (add_unit(b, &ev[i], err, errlen))
			return -1;
	pr->ready = true;
	u32 want = o->nmi ? APIC_LVT_DELIVERY_NMI : APIC_LVT_DELIVERY_FIXED | o->vector;
	if (take_eilvt(b, want, err, errlen))
		return -1;
	for (int u = 0; u < PRECISE_IBS_UNITS; u++)
		if (b->unit[u].on) {
			b->unit[u].found = hw_rdmsr(ctl_msr[u]);
			disarm(u);
			p->ibs_units |= pmu_unit[u];
		}
	return 0;
}

static void ibs_enable(struct precise *pr, bool on)
{
	struct precise_ibs *b = &pr->ibs;
	if (!pr->ready || b->running == on)
		return;
	b->running = on;
	for (int u = 0; u < PRECISE_IBS_UNITS; u++)
		if (b->unit[u].on) {
			if (on)
				arm(b, u);
			else
				disarm(u);
		}
}

static void ibs_teardown(struct precise *pr)
{
	struct precise_ibs *b = &pr->ibs;
	if (!pr->ready)
		return;
	for (int u = 0; u < PRECISE_IBS_UNITS; u++)
		if (b->unit[u].on) {
			disarm(u);
			hw_wrmsr(ctl_msr[u], b->unit[u].found);
		}
	if (b->eilvt_taken)
		apic_write(&b->apic, apic_eilvt(b->offset), b->eilvt_found);
	if (b->pmu)
		b->pmu->ibs_units = 0;
	b->eilvt_taken = false;
	b->running = false;
	pr->ready = false;
}

/* ---- the drain ------------------------------------------------------------------------ */

/* The unit's registers into raw[], in perf_ibs_handle_irq's order: the
 * control register as found (Val and En set, which perf's IBS decoder
 * checks), the registers after it up to IBS_DC_PHYSADDR (op) or
 * IBS_FETCH_PHYSADDR (fetch), then IBS_BR_TARGET and IBS_OP_DATA4, or
 * IC_IBS_EXTD_CTL, where CPUID says the part has them. The head is the
 * IBS caps, as struct perf_ibs_data has them before the registers. */
static void read_regs(const struct precise_ibs *b, int u, u64 ctl, struct bp_sample *s)
{
	u32 first = ctl_msr[u] + 1, last = u == PRECISE_IBS_OP ? MSR_AMD_IBS_DC_PHYSADDR
							      : MSR_AMD_IBS_FETCH_PHYSADDR;
	u32 n = 0;
	s->raw[n++] = ctl;
	for (u32 msr = first; msr <= last; msr++)
		s->raw[n++] = hw_rdmsr(msr);
	if (u == PRECISE_IBS_OP && (b->caps & IBS_CAPS_BRNTRGT))
		s->raw[n++] = hw_rdmsr(MSR_AMD_IBS_BR_TARGET);
	if (u == PRECISE_IBS_OP && (b->caps & IBS_CAPS_OPDATA4))
		s->raw[n++] = hw_rdmsr(MSR_AMD_IBS_OP_DATA4);
	if (u == PRECISE_IBS_FETCH && (b->caps & IBS_CAPS_FETCHCTLEXTD))
		s->raw[n++] = hw_rdmsr(MSR_AMD_IC_IBS_EXTD_CTL);
	s->raw_words = n;
	s->raw_head = b->caps;
	s->flags |= BP_SAMPLE_RAW;
}

/* raw[] index of an op register (IBS_OP_CTL is 0). */
static u64 op_reg(const struct bp_sample *s, u32 msr) { return s->raw[msr - MSR_AMD_IBS_OP_CTL]; }

/* A load's or store's data source (pmu/ibs_datasrc.c); PERF_MEM_NA for
 * other ops, as Linux leaves it. */
static void op_data_src(const struct precise_ibs *b, struct bp_sample *s, u64 d3)
{
	const struct pmu_caps *c = &b->pmu->caps;
	struct ibs_cpu cpu = { .ibs_caps = b->caps, .family = c->family, .model = c->model };
	s->data_src = ibs_op_is_mem(d3) ? ibs_op_data_src(op_reg(s, MSR_AMD_IBS_OP_DATA2), d3, &cpu)
					: BP_MEM_NA;
	s->flags |= BP_SAMPLE_DATA_SRC;
}

/* An op sample: IbsOpRip, exact (skid 0, Linux sets PERF_EFLAGS_EXACT);
 * the data address from IbsDcLinAd when OpData3 says it is valid, a
 * load's DC miss latency as its weight, and the data source
 * (perf_ibs_parse_ld_st_data). */
static bool op_fields(const struct precise_ibs *b, struct bp_sample *s)
{
	u64 d3 = op_reg(s, MSR_AMD_IBS_OP_DATA3);
	if ((b->caps & IBS_CAPS_RIPINVALIDCHK) && (op_reg(s, MSR_AMD_IBS_OP_DATA) & IBS_OP_DATA_RIP_INVALID))
		return false;
	s->ip = op_reg(s, MSR_AMD_IBS_OP_RIP);
	if (b->unit[PRECISE_IBS_OP].fields & BP_SAMPLE_DATA_SRC)
		op_data_src(b, s, d3);
	if (!(b->unit[PRECISE_IBS_OP].fields & BP_SAMPLE_ADDR))
		return true;
	if (d3 & IBS_OP_DATA3_LIN_ADDR_VALID) {
		s->addr = op_reg(s, MSR_AMD_IBS_DC_LINADDR);
		s->flags |= BP_SAMPLE_ADDR;
	}
	if ((d3 & IBS_OP_DATA3_LD_OP) && (d3 & IBS_OP_DATA3_DC_MISS)) {
		s->weight = FIELD(d3, 47, 32);
		s->flags |= BP_SAMPLE_WEIGHT;
	}
	return true;
}

/* A fetch sample: the fetch's linear address is its IP (Linux takes the
 * register after the control one, IbsFetchLinAd, as the sample's IP). */
static bool fetch_fields(struct bp_sample *s)
{
	s->ip = s->raw[MSR_AMD_IBS_FETCH_LINADDR - MSR_AMD_IBS_FETCH_CTL];
	return true;
}

/* The sample is written in its ring slot, committed only when valid; a
 * full ring gets it built aside, to tell a RipInvalid loss from a full
 * ring's (ring_push then counts the drop). */
static void deliver(struct precise_ibs *b, int u, u64 ctl, struct sample_ring *ring, bool throttled)
{
	struct precise_ibs_unit *un = &b->unit[u];
	struct precise_ibs_loss *l = &b->loss;
	struct bp_sample aside;
	un->samples++;
	l->found++;
	if (throttled) {
		l->throttled++;
		return;
	}
	bool room = ring_count(ring) < ring->capacity;
	struct bp_sample *s = room ? ring_reserve(ring) : &aside;
	bp_sample_init(s, un->event, b->cpu, un->period);
	s->tsc = hw_rdtsc();
	s->flags |= BP_SAMPLE_TIME | BP_SAMPLE_EXACT_IP;
	read_regs(b, u, ctl, s);
	if (!(un->fields & BP_SAMPLE_RAW))
		s->flags &= ~BP_SAMPLE_RAW;
	if (!(u == PRECISE_IBS_OP ? op_fields(b, s) : fetch_fields(s))) {
		l->rip_invalid++;
		return;		/* the slot was not committed: the next sample takes it */
	}
	if (!room && !ring_push(ring, s)) {	/* the main flow may have made room */
		l->ring_full++;		/* ring_push counted the drop */
		return;
	}
	if (room)
		ring_commit(ring);
	l->delivered++;
}

static bool ibs_drain(struct precise *pr, struct sample_ring *ring, bool throttled)
{
	struct precise_ibs *b = &pr->ibs;
	for (int u = 0; u < PRECISE_IBS_UNITS && pr->ready; u++) {
		u64 ctl = b->unit[u].on ? hw_rdmsr(ctl_msr[u]) : 0;
		if (!(ctl & val_bit[u]))
			continue;
		deliver(b, u, ctl, ring, throttled);
		if (b->running && !throttled)
			arm(b, u);	/* clears Val: the next sample may come */
		else
			hw_wrmsr(ctl_msr[u], 0);
	}
	/* Throttled: stopped, as Linux's perf_ibs_handle_irq stops the
	 * event (perf_ibs_stop) when perf_event_overflow says throttle. */
	if (throttled)
		b->running = false;
	return false;	/* no buffer to fill: a counter's reload is never skipped */
}

static bool ibs_still_ours(const struct precise *pr, u64 *found)
{
	(void)pr;
	*found = 0;
	return true;	/* no memory the hardware writes to */
}

static u64 ibs_lost(const struct precise *pr)
{
	const struct precise_ibs_loss *l = &pr->ibs.loss;
	return l->ring_full + l->throttled + l->rip_invalid;
}

static int describe_unit(const struct precise_ibs_unit *un, int u, char *buf, size_t len)
{
	const char *what = u == PRECISE_IBS_FETCH ? "fetches"
			   : (un->ctl & IBS_OP_CNT_CTL) ? "dispatched ops" : "cycles";
	int n = bp_snprintf(buf, len, "%s every %llu %s (low 4 bits of the count random)", unit_name[u],
			    (unsigned long long)un->period, what);
	if (un->period != un->period_asked) {
		size_t at = MIN((size_t)n, len);
		n += bp_snprintf(buf + at, len - at, ", not %llu: MaxCnt counts in 16s",
				 (unsigned long long)un->period_asked);
	}
	return n;
}

static int ibs_describe(const struct precise *pr, char *buf, size_t len)
{
	const struct precise_ibs *b = &pr->ibs;
	int n = bp_snprintf(buf, len, "IBS: one interrupt per sample through extended LVT entry %u",
			    b->offset);
	for (int u = 0; u < PRECISE_IBS_UNITS; u++) {
		if (!b->unit[u].on)
			continue;
		size_t at = MIN((size_t)n, len);
		n += bp_snprintf(buf + at, len - at, "; ");
		at = MIN((size_t)n, len);
		n += describe_unit(&b->unit[u], u, buf + at, len - at);
	}
	return n;
}

static int ibs_describe_loss(const struct precise *pr, char *buf, size_t len)
{
	const struct precise_ibs_loss *l = &pr->ibs.loss;
	return bp_snprintf(buf, len, "IBS: %llu samples, %llu delivered, %llu lost (ring full %llu, "
			   "throttled %llu, RIP invalid %llu)", (unsigned long long)l->found,
			   (unsigned long long)l->delivered, (unsigned long long)ibs_lost(pr),
			   (unsigned long long)l->ring_full, (unsigned long long)l->throttled,
			   (unsigned long long)l->rip_invalid);
}

const char *precise_ibs_perf_pmu(const struct pmu_event *e, u64 *config)
{
	int u = unit_of(e);
	if (u < 0)
		return NULL;
	*config = u == PRECISE_IBS_FETCH ? IBS_FETCH_RAND_EN : e->ibs_cnt_ctl ? IBS_OP_CNT_CTL : 0;
	return unit_name[u];
}

const struct precise_ops precise_ibs = {
	.name = "IBS",
	.column = "IBS",
	.missing = ibs_missing,
	.check = ibs_check,
	.setup = ibs_setup,
	.drain = ibs_drain,
	.still_ours = ibs_still_ours,
	.lost = ibs_lost,
	.describe = ibs_describe,
	.describe_loss = ibs_describe_loss,
	.teardown = ibs_teardown,
	.enable = ibs_enable,
};
