#include "drive.h"
#include "sim_api.h"
#include "../lib/plat.h"
#include "../arch/hw.h"
#include "../arch/msr.h"
#include "../lib/fmt.h"

static const struct hw_ops *model_ops;
static struct hw_ops drive_ops;
static volatile u32 busy;
static u64 last_ticks;		/* plat_run_ticks at the last step */
static struct exec_stats stats;
static const struct code_profile *running_code;	/* exec_code_profile: NULL, plain code */
static bool running;
static u64 insn_per_s;		/* this machine's measured instruction rate */
/* Time elapsed but not yet run by the model: held while a PMI is out. */
static u64 pending_cycles, pending_ip;	/* units: see split_units */
static u64 insn_frac;		/* ticks x rate remainder, so nothing is lost */
/* The running code's instructions as its workload tells them
 * (exec_retired): the model charges those, and within the part that runs
 * what the time since the telling estimates, up to the part's own count.
 * Time alone follows this machine's rate as measured in its fastest
 * slice, which the workload does not keep up when the model's own work
 * (a PEBS record every 1,000 instructions) evicts its caches, and which
 * the firmware's own timer work stretches: soak's 400 M instructions
 * counted 459 M in stat and 499 M in PEBS records at -c 1000. */
static struct workload_told {
	bool told;		/* the workload has told since its profile was set */
	u64 done;		/* the instructions it said it retired */
	u64 next;		/* ... and the part it then started retires */
	u64 charged;		/* instructions charged to it (pending included) */
	s64 since;		/* time's estimate since the telling, instructions */
} truth;
/* What a profile that ended left to run: its told instructions not yet
 * charged and its pending time, run at the next tick at the IP where
 * the last tick found it. */
static struct profile_tail {
	struct code_profile code;
	bool has_code;
	u64 units, ip;
} tail;
static volatile bool telling;	/* the main flow changes truth or tail */
static volatile bool settling;	/* the main flow waits for the tail to run */
#define SETTLE_MAX_TICKS 20	/* the longest wait for a tail that does not shrink: 20 ticks */
static u64 max_tick_delta;	/* the most time one tick may count (ticks) */
/* A tick that comes late counts at most this many periods: the host ran
 * something else instead of this CPU (4 vCPUs on 2 host cores, a loaded
 * machine), and time the emulated CPU did not run must not become its
 * events; else more events make more PMIs, whose handling makes the next
 * tick later still (a 4-CPU run on 2 host cores once ran away so). */
#define MAX_PERIODS_PER_TICK 4
#define MAX_PMIS_PER_TICK 4096	/* an AP's, handled within one tick */
static volatile bool pmi_outstanding;	/* delivered, not yet EOIed */
static u32 held_in_a_row;
static bool frozen;		/* sim_drive_freeze: no emulated time passes */
static bool workload_only;	/* exec_workload_only: no time outside a profile */
#define PMI_EOI_TIMEOUT_TICKS 1000	/* 1 s at the default tick */
static bool advancing;
static u64 handler_ticks;	/* PMI handlers run from inside the model (host) */

static u32 bsp_cpu;		/* the CPU the tick runs on */
static void advance(void);
static bool is_eoi_msr(u32 msr) { return msr == x2apic_msr(APIC_EOI); }
static bool is_eoi_mmio(u64 addr) { return (addr & 0xFFF) == APIC_EOI; }

/* The handler EOIed the model's APIC: the PMI is over; the time it took
 * is not the workload's, and the held-back time can run on. */
static void pmi_done(void)
{
	if (!pmi_outstanding || sim_current_cpu() != bsp_cpu)
		return;	/* an AP's handler EOIs its own APIC */
	pmi_outstanding = false;
	last_ticks = plat_run_ticks();
	stats.pmis_completed++;
	advance();
}

/* The seam's entry points, marked busy while the model is in use. */
static void d_cpuid(u32 leaf, u32 sub, struct cpuid_regs *r)
{
	busy++;
	model_ops->cpuid(leaf, sub, r);
	busy--;
}

static int d_rdmsr(u32 msr, u64 *val, struct hw_fault *f)
{
	busy++;
	int rc = model_ops->rdmsr(msr, val, f);
	busy--;
	return rc;
}

static int d_rdpmc(u32 ecx, u64 *val, struct hw_fault *f)
{
	busy++;
	int rc = model_ops->rdpmc(ecx, val, f);
	busy--;
	return rc;
}

static int d_wrmsr(u32 msr, u64 val, struct hw_fault *f)
{
	busy++;
	int rc = model_ops->wrmsr(msr, val, f);
	busy--;
	if (rc == 0 && is_eoi_msr(msr))
		pmi_done();
	return rc;
}

static u32 d_mmio_read32(u64 addr)
{
	busy++;
	u32 v = model_ops->mmio_read32(addr);
	busy--;
	return v;
}

static void d_mmio_write32(u64 addr, u32 val)
{
	busy++;
	model_ops->mmio_write32(addr, val);
	busy--;
	if (is_eoi_mmio(addr))
		pmi_done();
}

static u64 d_rdtsc(void)
{
	busy++;
	u64 v = model_ops->rdtsc();
	busy--;
	return v;
}

/* Core cycles of the modelled CPU since the last call: the time our code
 * ran (plat_run_ticks: not the time a busy host ran others, which the
 * next tick would charge to the instruction it interrupts: the host
 * twin's timer handler, under load) at the rate this machine retires
 * instructions (IPC 1). */
static u64 cycles_between(u64 from, u64 now, u64 *frac)
{
	u64 tps = plat_ticks_per_second();
	u64 delta = MIN(now - from, max_tick_delta);
	if (!tps)
		return 0;
	unsigned __int128 total = (unsigned __int128)delta * insn_per_s + *frac;
	*frac = (u64)(total % tps);
	return (u64)(total / tps);
}

static u64 elapsed_cycles(void)
{
	u64 now = plat_run_ticks(), from = last_ticks;
	last_ticks = now;
	return cycles_between(from, now, &insn_frac);
}

/* elapsed_cycles without using them up. */
static u64 elapsed_so_far(void)
{
	u64 frac = insn_frac;
	return cycles_between(last_ticks, plat_run_ticks(), &frac);
}

#define RATE_CHUNKS 8	/* spread a tick's occurrences over this many addresses */

static u64 rate_carry[CODE_MAX_RATES];
static u64 addr_seed = 0x2545F4914F6CDD1DULL;

static u64 next_addr(const struct code_rate *w)
{
	addr_seed ^= addr_seed << 13;
	addr_seed ^= addr_seed >> 7;
	addr_seed ^= addr_seed << 17;
	return w->addr_base + (addr_seed % w->addr_size & ~63ULL);
}

/* The events the running workload makes happen besides cycles and
 * instructions, at the rates its profile states. */
static void make_events(const struct code_profile *wp, u64 instructions, u64 ip)
{
	for (u32 k = 0; k < wp->nrates && k < CODE_MAX_RATES; k++) {
		const struct code_rate *w = &wp->rate[k];
		u64 total = instructions * w->per_kilo_insn + rate_carry[k];
		u64 count = total / 1000;
		rate_carry[k] = total % 1000;
		u64 chunks = w->addr_size ? RATE_CHUNKS : 1;
		for (u64 c = 0; c < chunks && count; c++) {
			u64 part = c + 1 == chunks ? count : count / chunks;
			struct sim_occ o = {
				.event = w->event, .umask = w->umask, .count = part, .ip = ip,
				.data_addr = w->addr_size ? next_addr(w) : 0, .latency = w->latency,
				.data_src = w->data_src,
			};
			if (part)	/* profiles are in Intel's encoding */
				sim_event_from_intel(&o);
			count -= part;
		}
	}
}

/* Every CPU: which model CPUs run, where, and who takes their PMIs. */
static u64 cpu_mask;
static const volatile u64 *cpu_ips;
static exec_pmi_fn cpu_pmi;
static void *cpu_pmi_ctx;
static struct plat_irq_frame tick_frame;	/* the BSP's, during a tick */
static u64 pending_pmis;	/* raised outside a tick: taken at the next */

void sim_drive_set_cpus(u64 mask, const volatile u64 *ips, exec_pmi_fn pmi, void *ctx)
{
	busy++;		/* no tick while these change */
	cpu_mask = mask;
	cpu_ips = ips;
	cpu_pmi = pmi;
	cpu_pmi_ctx = ctx;
	busy--;
}

u32 sim_drive_cpu_count(void) { return sim_is_open() ? sim_cpu_count() : 0; }

void sim_drive_run_as(u32 cpu, void (*fn)(void *ctx), void *ctx)
{
	u32 prev = sim_current_cpu();
	sim_set_cpu(cpu);
	fn(ctx);
	sim_set_cpu(prev);
}

/* Advances the other model CPUs by the same time, each at its IP. */
static void call_pmi(u32 cpu);

/* One other CPU runs its share of the tick, at the IP it published. Its
 * PMIs are handled as they come (on this CPU, on its behalf), and it runs
 * on after each, as the BSP does: every overflow is a PMI, so no CPU
 * loses samples to another's timing. */
static void run_other_cpu(u32 cpu, u64 cycles, u64 ip)
{
	sim_set_cpu(cpu);
	/* Bounded as the handler's throttling bounds the BSP's PMIs: a
	 * handler that never clears its overflow cannot hold the tick. */
	for (u32 pmis = 0; cycles && pmis < MAX_PMIS_PER_TICK; pmis++) {
		u64 insns_done;
		u64 done = sim_run_until_pmi(cycles, cycles, ip, &insns_done);
		cycles -= MIN(done, cycles);
		if (!(pending_pmis & BIT(cpu)))
			break;	/* ran to the end (done == cycles) */
		pending_pmis &= ~BIT(cpu);
		call_pmi(cpu);
		sim_set_cpu(cpu);
	}
}

/* The BSP's TSC, whichever model CPU the main flow has selected. */
static u64 bsp_tsc(void)
{
	u32 selected = sim_current_cpu();
	sim_set_cpu(bsp_cpu);
	u64 tsc = sim_tsc();
	sim_set_cpu(selected);
	return tsc;
}

/* Each other CPU first takes the BSP's time at the tick's start (tick_tsc):
 * the model CPUs share one clock, halted ones too, so every CPU's samples
 * are stamped on the time of the records the BSP writes. */
static void run_other_cpus(u64 cycles, u64 tick_tsc)
{
	for (u64 m = cpu_mask & ~BIT(bsp_cpu); m; m &= m - 1) {
		u32 cpu = (u32)__builtin_ctzll(m);
		u64 ip = cpu_ips ? cpu_ips[cpu] : 0;
		if (cpu >= sim_cpu_count())
			continue;
		sim_set_cpu(cpu);
		sim_tsc_catch_up(tick_tsc);
		if (ip)
			run_other_cpu(cpu, cycles, ip);
	}
}

static void deliver_pending(void);

/* Elapsed time is measured in units of this machine's instruction rate
 * (soak's, IPC 1). A workload that retires more per cycle (stream in
 * cache) retires them at that rate, in fewer cycles; one that retires
 * fewer (chase, memory bound) takes those units as cycles and retires its
 * share of instructions. The other way round, a memory-bound workload's
 * events would come many times faster than the work really done, and
 * their handling would never catch up under TCG. */
static u32 ipc_of(const struct code_profile *wp)
{
	return wp && wp->ipc_permille ? wp->ipc_permille : 1000;
}

static void split_units(u32 ipc, u64 units, u64 *cycles, u64 *insns)
{
	*cycles = ipc >= 1000 ? units * 1000 / ipc : units;
	*insns = ipc >= 1000 ? units : units * ipc / 1000;
	if (units && !*cycles)
		*cycles = 1;
}

/* Instructions in units of time and back (split_units' units). */
static u64 insns_of_units(u32 ipc, u64 units) { return ipc >= 1000 ? units : units * ipc / 1000; }
static u64 units_of_insns(u32 ipc, u64 insns) { return ipc >= 1000 ? insns : insns * 1000 / ipc; }

/* Around a built-in workload (exec_workload_only) with only the BSP
 * running, time outside its profile counts nothing. */
static bool workload_alone(void) { return workload_only && !(cpu_mask & ~BIT(bsp_cpu)); }

/* What a tick charges the running code for units of time: once its
 * workload has told what it retired, that count plus time's estimate
 * since the telling (at most the running part's count), less what is
 * charged already. */
static u64 charge_units(u64 units)
{
	u32 ipc = ipc_of(running_code);
	u64 insns = insns_of_units(ipc, units);
	if (!running_code && workload_alone()) {
		stats.outside += insns;
		return 0;
	}
	if (!running_code || !truth.told) {
		truth.charged += running_code ? insns : 0;
		stats.untold += insns;
		return units;
	}
	truth.since += (s64)insns;
	u64 target = truth.done + MIN(truth.since > 0 ? (u64)truth.since : 0, truth.next);
	u64 charge = target > truth.charged ? target - truth.charged : 0;
	truth.charged += charge;
	return units_of_insns(ipc, charge);
}

/* Runs *units of code that behaves as wp, at ip, until they are used up
 * or a PMI goes out (what is left stays in *units). */
static void run_units(u64 *units, const struct code_profile *wp, u64 ip)
{
	u32 ipc = ipc_of(wp);
	while (*units && !pmi_outstanding) {
		u64 insns_done, cycles, insns;
		split_units(ipc, *units, &cycles, &insns);
		u64 cyc_done = sim_run_until_pmi(cycles, insns, ip, &insns_done);
		stats.cycles += cyc_done;
		if (wp)
			make_events(wp, insns_done, ip);
		if (cyc_done >= cycles)
			*units = 0;
		else	/* what is left, in the same units */
			*units -= ipc >= 1000 ? MIN(insns_done, *units) : MIN(cyc_done, *units);
	}
}

/* Runs the held-back time until it is used up or a PMI goes out: first
 * what an ended profile left (its tail), then the running code's. */
static void advance(void)
{
	if (advancing || busy)
		return;
	advancing = true;
	busy++;
	u32 selected = sim_current_cpu();	/* the main flow may have another CPU selected */
	sim_set_cpu(bsp_cpu);
	u64 t0 = plat_ticks(), nested0 = handler_ticks;
	const struct code_profile *wp = running_code;
	run_units(&tail.units, tail.has_code ? &tail.code : NULL, tail.ip);
	if (!tail.units)
		run_units(&pending_cycles, wp, pending_ip);
	sim_set_cpu(selected);
	busy--;
	advancing = false;
	if (wp)	/* the model's share of a workload's timed part */
		stats.model_ticks += plat_ticks() - t0 - (handler_ticks - nested0);
	/* The model's own work is not the workload's time either. */
	last_ticks = plat_run_ticks();
}

/* While the main flow waits for the tail, a tick runs it and no other
 * time: the wait is no CPU's work. */
static void settle_tick(void)
{
	last_ticks = plat_run_ticks();
	if (!advancing && !pmi_outstanding)
		advance();
}

static void on_tick(const struct plat_irq_frame *f, void *ctx)
{
	stats.ticks++;
	if (settling) {
		settle_tick();
		return;
	}
	if (frozen) {
		last_ticks = plat_run_ticks();
		return;
	}
	/* A tick inside advance() lands on the model's own work, which
	 * advance() leaves uncounted (it restarts last_ticks when done).
	 * Charged, it would be run by the same loop it interrupts: at a short
	 * period under ASan the model ran slower than time passed, and the
	 * held-back time grew past 2^40 cycles. One during the main flow's
	 * brief telling (exec_retired, a profile's end) leaves its time to
	 * the next tick. */
	if (advancing || telling) {
		stats.deferred++;
		return;
	}
	u64 cycles = elapsed_cycles();
	if (pmi_outstanding) {	/* the handler runs: counters are stopped */
		stats.held++;
		/* A handler never takes a second: its EOI went missing. Count
		 * it and go on rather than stop the emulated CPU for good. */
		if (++held_in_a_row < PMI_EOI_TIMEOUT_TICKS)
			return;
		stats.eoi_timeouts++;
		pmi_outstanding = false;
	}
	held_in_a_row = 0;
	u64 charged = charge_units(cycles);
	pending_cycles += charged;
	pending_ip = f->ip;
	if (busy) {
		stats.deferred++;
		return;
	}
	u32 selected = sim_current_cpu();
	tick_frame = *f;
	bool others = cpu_mask & ~BIT(bsp_cpu);
	u64 tick_tsc = others ? bsp_tsc() : 0;	/* the tick's start, for the others */
	advance();
	if (others) {
		/* The other CPUs run as long as the BSP was charged (what its
		 * workload told, not the time: one clock for every CPU, which
		 * perf needs to order the CPUs' samples), each at the IP it
		 * published; their PMIs are taken once all have been advanced. */
		busy++;
		run_other_cpus(charged, tick_tsc);
		deliver_pending();
		sim_set_cpu(selected);
		busy--;
		/* Running the other CPUs' models and their PMI handlers, all
		 * on this CPU, is no CPU's workload time either. */
		last_ticks = plat_run_ticks();
	}
}

static int pmi_for = -1;	/* the CPU whose PMI call_pmi delivers */

static void call_pmi(u32 cpu)
{
	struct plat_irq_frame f = tick_frame;
	if (cpu != bsp_cpu)
		f = (struct plat_irq_frame){ .ip = cpu_ips ? cpu_ips[cpu] : 0 };
	int outer = pmi_for;
	pmi_for = (int)cpu;
	cpu_pmi(&f, cpu_pmi_ctx);
	pmi_for = outer;
}

/* The model raised a PMI on cpu (selected while this runs). The BSP's
 * goes the usual way, through the PMI's IDT gate (INT n; a direct call on
 * the host), at once, on behalf of the code the tick interrupted. Another
 * CPU's is
 * handled at the end of the tick that raised it, once every CPU has been
 * advanced, as the AP would take it after its instruction (LVT PC stays
 * masked until its handler unmasks it, so more overflows meanwhile make no
 * second PMI); one raised by a main-flow access (a write that enables an
 * overflowed counter) waits for the next tick. */
static void deliver(u32 cpu, u8 vector, void *ctx)
{
	if (cpu_pmi && cpu != bsp_cpu) {
		pending_pmis |= BIT(cpu);
		return;
	}
	pmi_outstanding = true;
	stats.pmis_delivered++;
	u64 t0 = plat_ticks();
	plat_raise_pmi();	/* the handler runs here: INT n in the image, a call on the host */
	handler_ticks += plat_ticks() - t0;
}

static void deliver_pending(void)
{
	while (pending_pmis && cpu_pmi) {
		u32 cpu = (u32)__builtin_ctzll(pending_pmis);
		pending_pmis &= pending_pmis - 1;
		sim_set_cpu(cpu);
		call_pmi(cpu);
	}
}

int sim_drive_start(u32 period_us, u64 insn_per_s_measured, const char **why)
{
	const struct hw_ops *cur = hw_current();
	if (!cur || !cur->emulated || !sim_is_open()) {
		*why = "the emulated PMU is not selected (use --pmu=sim:MODEL)";
		return -1;
	}
	if (running)
		return 0;
	model_ops = cur;
	drive_ops = *cur;
	drive_ops.cpuid = d_cpuid;
	drive_ops.rdmsr = d_rdmsr;
	drive_ops.wrmsr = d_wrmsr;
	drive_ops.rdpmc = d_rdpmc;
	drive_ops.mmio_read32 = d_mmio_read32;
	drive_ops.mmio_write32 = d_mmio_write32;
	drive_ops.rdtsc = d_rdtsc;
	hw_select(&drive_ops);
	sim_set_pmi_hook(deliver, NULL);
	stats = (struct exec_stats){ 0 };
	insn_per_s = insn_per_s_measured;
	stats.insn_per_s = insn_per_s;
	pending_cycles = insn_frac = 0;
	truth = (struct workload_told){ 0 };
	tail = (struct profile_tail){ 0 };
	pmi_outstanding = advancing = telling = false;
	held_in_a_row = 0;
	frozen = workload_only = false;
	bsp_cpu = sim_current_cpu();
	cpu_mask = pending_pmis = 0;
	cpu_pmi = NULL;
	max_tick_delta = plat_ticks_per_second() * MAX_PERIODS_PER_TICK * period_us / 1000000;
	last_ticks = plat_run_ticks();
	if (plat_tick_start(period_us, on_tick, NULL, why)) {
		hw_select(model_ops);
		return -1;
	}
	running = true;
	return 0;
}

void sim_drive_freeze(bool on)
{
	frozen = on;
	last_ticks = plat_run_ticks();
}

void sim_drive_stop(void)
{
	if (!running)
		return;
	plat_tick_stop();
	sim_set_pmi_hook(NULL, NULL);
	cpu_mask = 0;
	cpu_pmi = NULL;
	hw_select(model_ops);
	running = false;
}

bool sim_drive_running(void) { return running; }
void sim_drive_stats(struct exec_stats *out) { *out = stats; }

/* ---- behind the execution seam ---------------------------------------------- */

static u32 exec_cpus(void) { return sim_drive_cpu_count(); }

static int exec_cpu_modelled(u32 cpu, char *why, size_t len)
{
	u32 modelled = sim_drive_cpu_count();
	if (cpu < modelled)
		return 0;
	bp_snprintf(why, len, "the emulated PMU models %u CPUs", modelled);
	return -1;
}

static void exec_here_as(u32 cpu, void (*fn)(void *ctx), void *ctx) { sim_drive_run_as(cpu, fn, ctx); }
/* The APs only publish their IPs: the BSP runs their model CPUs. */
static bool exec_aps_run_nothing(void) { return false; }
/* Code for every CPU runs here, and keeps its faults under this CPU's number. */
static u32 exec_fault_here(u32 cpu) { return plat_cpu_self(); }
/* Through the PMI's gate come the BSP's model CPU's PMIs (plat_raise_pmi),
 * whichever model CPU the main flow has selected; through call_pmi, the
 * others'. */
static int exec_pmi_of(void) { return pmi_for >= 0 ? pmi_for : (int)bsp_cpu; }
/* The handler EOIed the model's APIC; an interrupt that came through this
 * CPU's own APIC (a self-IPI, not the drive's INT n) needs its own EOI. */
static void exec_pmi_eoi_real(void (*eoi_here)(void)) { eoi_here(); }

static int exec_run_as(u32 cpu, void (*fn)(void *ctx), void *ctx, const char **why)
{
	sim_drive_run_as(cpu, fn, ctx);
	return 0;
}

/* The model CPUs' state lives with the model; an AP allocates nothing. */
static int exec_reserve_nothing(u32 cpu, size_t bytes) { return 0; }
static void exec_release_nothing(u32 cpu) { }
static int exec_drive_start(u64 (*insn_per_s_of_machine)(void), const char **why)
{
	if (running)	/* before the rate is asked for: its first measurement runs a loop */
		return 0;
	return sim_drive_start(SIM_DRIVE_PERIOD_US, insn_per_s_of_machine(), why);
}
/* A profile ends: what its workload told and the model has not charged,
 * and its pending time, become the tail that the next tick runs with the
 * profile (a copy: a workload's profile may live on its stack), where
 * the last tick found the workload. The time since that tick is in what
 * it told. An estimate that ran ahead of the last telling cannot be
 * taken back. While an older tail waits, this one's count joins the
 * pending time, under the next profile's rates. */
static void end_profile(void)
{
	if (running_code) {
		u32 ipc = ipc_of(running_code);
		u64 owed = truth.told && truth.done > truth.charged ? truth.done - truth.charged : 0;
		if (truth.told) {
			stats.told += truth.done;
			stats.told_owed += owed;
			last_ticks = plat_run_ticks();
		}
		if (tail.units) {
			pending_cycles += units_of_insns(ipc, owed);
		} else {
			tail = (struct profile_tail){ .code = *running_code, .has_code = true,
						      .units = pending_cycles + units_of_insns(ipc, owed),
						      .ip = pending_ip };
			pending_cycles = 0;
		}
	}
	truth = (struct workload_told){ 0 };
}

/* The profile's loads (MEM_INST_RETIRED.ALL_LOADS with an address range)
 * are also what the run's ops load, for IBS op sampling, which tags ops of
 * the run rather than the counted events. */
static void exec_code(const struct code_profile *p)
{
	struct sim_run_loads loads = { 0 };
	telling = true;
	compiler_barrier();	/* no tick sees the change half made */
	end_profile();
	/* Around a workload only its profile counts: the time since the last
	 * tick was bareperf's, before the profile began. Left to the next
	 * tick, a tick before the workload's first telling charged it all by
	 * time (up to a tick's 3.8 M instructions: soak -n 20000 counted
	 * 3,656,818 of its 161,200, now and then). */
	if (p && workload_alone())
		stats.outside += elapsed_cycles();
	running_code = p;
	compiler_barrier();
	telling = false;
	for (u32 k = 0; p && k < p->nrates && k < CODE_MAX_RATES; k++) {
		const struct code_rate *w = &p->rate[k];
		if (w->event == EVENT_MEM_INST_RETIRED && w->umask == UMASK_MEM_INST_RETIRED_ALL_LOADS &&
		    w->addr_size)
			loads = (struct sim_run_loads){ .per_kilo = w->per_kilo_insn, .base = w->addr_base,
							.size = w->addr_size, .latency = w->latency,
							.data_src = w->data_src };
	}
	sim_set_run_loads(&loads);
}

/* Before counts are read (stat reads its counters as soon as the workload
 * returns, before the next tick; record stops them): waits for the ticks
 * to run the tail. At a short PEBS period the model runs slower than
 * time passed, and the tail is seconds of its work (-c 128: 2 % of soak's
 * records, on a loaded machine); so the wait ends when the tail is run,
 * or when it has not shrunk for SETTLE_MAX_TICKS (a tick went missing). */
static void drive_settle(void)
{
	if (!running || !tail.units)
		return;
	u64 tps = plat_ticks_per_second();
	u64 window = tps ? tps / 1000 * SETTLE_MAX_TICKS : 0;
	u64 deadline = plat_ticks() + window, left = tail.units;
	settling = true;
	compiler_barrier();
	while (tail.units && plat_ticks() < deadline) {
		__builtin_ia32_pause();	/* the ticks run it */
		compiler_barrier();
		if (tail.units < left) {
			left = tail.units;
			deadline = plat_ticks() + window;
		}
	}
	compiler_barrier();
	settling = false;
	last_ticks = plat_run_ticks();
}

/* The workload told what it retired and what the part it starts
 * retires: time's estimate counts from this moment (the time since the
 * last tick was the told parts'). */
static void exec_told(u64 done, u64 next)
{
	if (!running_code || !running)
		return;
	telling = true;
	compiler_barrier();	/* no tick sees the change half made */
	truth.told = true;
	truth.done = done;
	truth.next = next;
	truth.since = -(s64)insns_of_units(ipc_of(running_code), elapsed_so_far());
	compiler_barrier();
	telling = false;
}

/* Before the counters start around a workload: time charged so far and
 * not yet run (a tick that found the model busy left it pending) and the
 * time since the last tick came before the counters started; run after,
 * it counted (now and then 0.5 M of soak -n 20000's 161,200). */
static void drive_workload_only(bool on)
{
	telling = true;
	compiler_barrier();
	if (on && !tail.units) {
		stats.outside += pending_cycles + elapsed_cycles();
		pending_cycles = 0;
	}
	workload_only = on;
	compiler_barrier();
	telling = false;
}

static const struct exec_ops drive_exec = {
	.name = "emulated PMU's drive",
	.cpu_count = exec_cpus,
	.cpu_usable = exec_cpu_modelled,
	.run_on = exec_run_as,
	.run_here = exec_here_as,
	.aps_run_own_code = exec_aps_run_nothing,
	.fault_cpu = exec_fault_here,
	.pmi_cpu = exec_pmi_of,
	.pmi_irq_done = exec_pmi_eoi_real,
	.reserve = exec_reserve_nothing,
	.release = exec_release_nothing,
	.start = exec_drive_start,
	.stop = sim_drive_stop,
	.running = sim_drive_running,
	.stats = sim_drive_stats,
	.set_cpus = sim_drive_set_cpus,
	.freeze = sim_drive_freeze,
	.code_profile = exec_code,
	.retired = exec_told,
	.settle = drive_settle,
	.workload_only = drive_workload_only,
};

const struct exec_ops *sim_drive_exec(void) { return &drive_exec; }
