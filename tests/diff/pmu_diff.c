/* The differential sequence (pmu_diff.h): counting, privilege filtering,
 * RDPMC, overflow and status, STATUS_SET/RESET, freeze on PMI and the PEBS
 * assist, each checked by the values it leaves. Only rules every modelled
 * part shares (v4+, 48-bit counters, PEBS on GP counter 0). */
#include "pmu_diff.h"
#include "../../arch/msr.h"

#define EV_INSTRUCTIONS 0xC0
#define EV_BRANCHES     0xC4
#define EV_CYCLES       0x3C
#define FIXED_OS_ALL    (fixed_ctrl_field(0, FIXED_CTRL_OS) | fixed_ctrl_field(1, FIXED_CTRL_OS) | \
			 fixed_ctrl_field(2, FIXED_CTRL_OS))
#define CTRL_GP012_FIXED012 (GENMASK(2, 0) | (GENMASK(2, 0) << GLOBAL_FIXED_SHIFT))
#define COUNTER_MASK    GENMASK(47, 0)

static void emit_counters(const struct pmu_diff_ops *o, const char *step)
{
	static const char *const gp_names[] = { "pmc0", "pmc1", "pmc2" };
	static const char *const fixed_names[] = { "fixed0", "fixed1", "fixed2" };
	o->emit(step, 0);
	for (unsigned i = 0; i < 3; i++)
		o->emit(gp_names[i], o->rdmsr(msr_pmc(i)));
	for (unsigned i = 0; i < 3; i++)
		o->emit(fixed_names[i], o->rdmsr(msr_fixed_ctr(i)));
	o->emit("status", o->rdmsr(MSR_IA32_PERF_GLOBAL_STATUS));
}

static void clear_counters(const struct pmu_diff_ops *o)
{
	for (unsigned i = 0; i < 3; i++) {
		o->wrmsr(msr_pmc(i), 0);
		o->wrmsr(msr_fixed_ctr(i), 0);
	}
	o->wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_RESET, o->rdmsr(MSR_IA32_PERF_GLOBAL_STATUS));
}

static u64 evtsel(u8 event, u64 bits) { return EVTSEL_EN | bits | event; }

static void counting(const struct pmu_diff_ops *o)
{
	o->wrmsr(msr_perfevtsel(0), evtsel(EV_INSTRUCTIONS, EVTSEL_OS | EVTSEL_USR));
	o->wrmsr(msr_perfevtsel(1), evtsel(EV_BRANCHES, EVTSEL_OS));
	o->wrmsr(msr_perfevtsel(2), evtsel(EV_CYCLES, EVTSEL_OS));
	o->wrmsr(MSR_IA32_FIXED_CTR_CTRL, FIXED_OS_ALL);
	clear_counters(o);
	o->measure(CTRL_GP012_FIXED012, 10000);
	emit_counters(o, "counting");
	o->emit("rdpmc0", o->rdpmc(0));
	o->emit("rdpmc_fixed0", o->rdpmc(BIT(30)));
	o->emit("rdpmc0_fast", o->rdpmc(BIT(31)));
	/* The second stretch adds to the first. */
	o->measure(CTRL_GP012_FIXED012, 777);
	emit_counters(o, "counting_again");
}

/* At CPL 0 an event counted for ring 3 only stays at 0 (SDM 20.2.1.1). */
static void user_only(const struct pmu_diff_ops *o)
{
	clear_counters(o);
	o->wrmsr(msr_perfevtsel(0), evtsel(EV_INSTRUCTIONS, EVTSEL_USR));
	o->wrmsr(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(0, FIXED_CTRL_USR));
	o->measure(CTRL_GP012_FIXED012, 1000);
	emit_counters(o, "user_only");
}

/* A legacy write of -100 sign-extends to the width; overflow sets the
 * status bit and the counter wraps (SDM 20.2.2). */
static void overflow(const struct pmu_diff_ops *o)
{
	clear_counters(o);
	o->wrmsr(msr_perfevtsel(0), evtsel(EV_INSTRUCTIONS, EVTSEL_OS | EVTSEL_INT));
	o->wrmsr(msr_pmc(0), (u32)-100);
	o->emit("preset", o->rdmsr(msr_pmc(0)));
	o->measure(BIT(0), 1000);
	emit_counters(o, "overflow");
	o->wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_RESET, BIT(0));
	o->emit("status_after_reset", o->rdmsr(MSR_IA32_PERF_GLOBAL_STATUS));
	o->wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_SET, BIT(1) | BIT(GLOBAL_FIXED_SHIFT));
	o->emit("status_after_set", o->rdmsr(MSR_IA32_PERF_GLOBAL_STATUS));
	o->wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_RESET, BIT(1) | BIT(GLOBAL_FIXED_SHIFT));
}

/* v4 freeze on PMI: the overflow's PMI request sets CTR_FRZ and every
 * counter stops, delivered or not (SDM 20.2.4.1). */
static void freeze(const struct pmu_diff_ops *o)
{
	clear_counters(o);
	o->wrmsr(MSR_IA32_DEBUGCTL, DEBUGCTL_FREEZE_PERFMON_ON_PMI);
	o->wrmsr(msr_perfevtsel(0), evtsel(EV_INSTRUCTIONS, EVTSEL_OS | EVTSEL_INT));
	o->wrmsr(msr_pmc(0), (u32)-1000);
	o->measure(CTRL_GP012_FIXED012, 1000);
	emit_counters(o, "freeze");
	o->wrmsr(MSR_IA32_DEBUGCTL, 0);
	clear_counters(o);
}

static u64 ds_field(const u8 *ds, u32 off)
{
	u64 v;
	__builtin_memcpy(&v, ds + off, sizeof(v));
	return v;
}

static void ds_set(u8 *ds, u32 off, u64 v) { __builtin_memcpy(ds + off, &v, sizeof(v)); }

/* PEBS on instructions every 50: one record per overflow at the index,
 * the counter reloaded from the DS reset slot (SDM 20.6.2.4, 18.4.9). */
static void pebs(const struct pmu_diff_ops *o)
{
	u64 base = (u64)(uintptr_t)o->pebs;
	clear_counters(o);
	ds_set(o->ds, DS_PEBS_BUFFER_BASE, base);
	ds_set(o->ds, DS_PEBS_INDEX, base);
	ds_set(o->ds, DS_PEBS_ABSOLUTE_MAXIMUM, base + 65536);
	ds_set(o->ds, DS_PEBS_INTERRUPT_THRESHOLD, base + 65536 - 4096);
	ds_set(o->ds, DS_PEBS_COUNTER_RESET, (u64)-50 & COUNTER_MASK);
	o->wrmsr(MSR_IA32_DS_AREA, (u64)(uintptr_t)o->ds);
	o->wrmsr(msr_perfevtsel(0), evtsel(EV_INSTRUCTIONS, EVTSEL_OS));
	o->wrmsr(msr_a_pmc(0), (u64)-50 & COUNTER_MASK);
	o->wrmsr(MSR_IA32_PEBS_ENABLE, BIT(0));
	o->measure(BIT(0), 1000);
	o->wrmsr(MSR_IA32_PEBS_ENABLE, 0);
	o->emit("pebs", 0);
	o->emit("pebs_bytes", ds_field(o->ds, DS_PEBS_INDEX) - base);
	o->emit("pebs_record0_word0", ds_field(o->pebs, 0));
	o->emit("pebs_pmc0", o->rdmsr(msr_pmc(0)));
	o->emit("pebs_status", o->rdmsr(MSR_IA32_PERF_GLOBAL_STATUS));
	o->wrmsr(MSR_IA32_DS_AREA, 0);
}

/* MSR_PEBS_FRONTEND holds a valid selection (DSB miss, 0x11) as written
 * on every modelled part from Skylake on (arch/msr.h). */
static void frontend(const struct pmu_diff_ops *o)
{
	o->wrmsr(MSR_PEBS_FRONTEND, 0x11);
	o->emit("pebs_frontend", o->rdmsr(MSR_PEBS_FRONTEND));
	o->wrmsr(MSR_PEBS_FRONTEND, 0);
}

void pmu_diff_run(const struct pmu_diff_ops *o)
{
	o->wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	o->emit("perf_capabilities", o->rdmsr(MSR_IA32_PERF_CAPABILITIES));
	counting(o);
	user_only(o);
	overflow(o);
	freeze(o);
	pebs(o);
	frontend(o);
	for (unsigned i = 0; i < 3; i++)
		o->wrmsr(msr_perfevtsel(i), 0);
	o->wrmsr(MSR_IA32_FIXED_CTR_CTRL, 0);
	clear_counters(o);
}
