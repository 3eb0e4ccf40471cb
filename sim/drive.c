#include "drive.h"
#include "sim_api.h"
#include "../lib/plat.h"
#include "../pmu/hw.h"
#include "../workload/workload.h"

static const struct hw_ops *model_ops;
static struct hw_ops drive_ops;
static volatile u32 busy;
static u64 last_ticks, pending_cycles;
static struct sim_drive_stats stats;
static bool running;

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

static int d_wrmsr(u32 msr, u64 val, struct hw_fault *f)
{
	busy++;
	int rc = model_ops->wrmsr(msr, val, f);
	busy--;
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
}

static u64 d_rdtsc(void)
{
	busy++;
	u64 v = model_ops->rdtsc();
	busy--;
	return v;
}

static u64 cycles_per_us = SIM_DRIVE_CYCLES_PER_US;

static u64 elapsed_cycles(void)
{
	u64 now = plat_ticks(), tps = plat_ticks_per_second();
	u64 delta = now - last_ticks;
	last_ticks = now;
	if (!tps)
		return 0;
	/* ticks -> microseconds -> cycles, without overflow for deltas of
	 * up to hours */
	return delta / (tps / 1000000 ? tps / 1000000 : 1) * cycles_per_us;
}

u64 soak_hot(u64 iterations);	/* workload/soak_loops.asm: 8n + 3 instructions */

/* How fast this machine really executes: the modelled core retires one
 * instruction per cycle at the rate the CPU running us retires them (a
 * host core, or QEMU's TCG, which is many times slower). Counts then
 * follow the work done, and so does any overhead per sample. */
static u64 calibrate_cycles_per_us(void)
{
	u64 tps = plat_ticks_per_second(), us_ticks = tps / 1000000 ? tps / 1000000 : 1;
	for (u64 n = 1u << 16; n <= (1ULL << 34); n <<= 1) {
		u64 t0 = plat_ticks();
		soak_hot(n);
		u64 us = (plat_ticks() - t0) / us_ticks;
		if (us >= 20000)
			return MAX((8 * n + 3) / us, 1);
	}
	return SIM_DRIVE_CYCLES_PER_US;
}

#define RATE_CHUNKS 8	/* spread a tick's occurrences over this many addresses */

static u64 rate_carry[WORKLOAD_MAX_RATES];
static u64 addr_seed = 0x2545F4914F6CDD1DULL;

static u64 next_addr(const struct workload_rate *w)
{
	addr_seed ^= addr_seed << 13;
	addr_seed ^= addr_seed >> 7;
	addr_seed ^= addr_seed << 17;
	return w->addr_base + (addr_seed % w->addr_size & ~63ULL);
}

/* The events the running workload makes happen besides cycles and
 * instructions, at the rates its profile states. */
static void make_events(const struct workload_profile *wp, u64 instructions, u64 ip)
{
	for (u32 k = 0; k < wp->nrates && k < WORKLOAD_MAX_RATES; k++) {
		const struct workload_rate *w = &wp->rate[k];
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
			if (part)
				sim_event(&o);
			count -= part;
		}
	}
}

static void on_tick(const struct plat_irq_frame *f, void *ctx)
{
	stats.ticks++;
	pending_cycles += elapsed_cycles();
	if (busy) {
		stats.deferred++;
		return;
	}
	u64 cycles = pending_cycles;
	pending_cycles = 0;
	stats.cycles += cycles;
	const struct workload_profile *wp = workload_active_profile;
	u64 instructions = wp ? cycles * wp->ipc_permille / 1000 : cycles;
	busy++;
	sim_run(cycles, instructions, f->ip);
	if (wp)
		make_events(wp, instructions, f->ip);
	busy--;
	/* The model's own cost is not run time of the emulated CPU: without
	 * this, a slow model (under TCG) would generate events for the time
	 * it spends generating events, and never catch up. */
	last_ticks = plat_ticks();
}

static void deliver(u32 cpu, u8 vector, void *ctx)
{
	plat_raise_pmi();
}

int sim_drive_start(u32 period_us, const char **why)
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
	drive_ops.mmio_read32 = d_mmio_read32;
	drive_ops.mmio_write32 = d_mmio_write32;
	drive_ops.rdtsc = d_rdtsc;
	hw_select(&drive_ops);
	sim_set_pmi_hook(deliver, NULL);
	stats = (struct sim_drive_stats){ 0 };
	cycles_per_us = calibrate_cycles_per_us();
	stats.cycles_per_us = cycles_per_us;
	last_ticks = plat_ticks();
	pending_cycles = 0;
	if (plat_tick_start(period_us, on_tick, NULL, why)) {
		hw_select(model_ops);
		return -1;
	}
	running = true;
	return 0;
}

void sim_drive_stop(void)
{
	if (!running)
		return;
	plat_tick_stop();
	sim_set_pmi_hook(NULL, NULL);
	hw_select(model_ops);
	running = false;
}

bool sim_drive_running(void) { return running; }
void sim_drive_stats(struct sim_drive_stats *out) { *out = stats; }
