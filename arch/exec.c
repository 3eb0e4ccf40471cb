/* The execution seam's dispatch, and the machine behind it: code for a
 * CPU runs on that CPU (plat_run_on: the firmware's MP services), time is
 * real, and nothing needs driving. */
#include "exec.h"
#include "../lib/str.h"

static u32 machine_cpu_count(void) { return plat_cpu_count(); }
static int machine_start(u64 (*insn_per_s)(void), const char **why) { return 0; }
static void machine_stop(void) { }
static bool machine_running(void) { return false; }
static void machine_stats(struct exec_stats *out) { bp_memset(out, 0, sizeof(*out)); }
static void machine_set_cpus(u64 mask, const volatile u64 *ips, exec_pmi_fn pmi, void *ctx) { }
static void machine_freeze(bool on) { }
static void machine_code_profile(const struct code_profile *p) { }

static const struct exec_ops machine_ops = {
	.name = "machine",
	.one_cpu_runs_all = false,
	.cpu_count = machine_cpu_count,
	.run_on = plat_run_on,
	.reserve = plat_cpu_reserve,
	.release = plat_cpu_release,
	.start = machine_start,
	.stop = machine_stop,
	.running = machine_running,
	.stats = machine_stats,
	.set_cpus = machine_set_cpus,
	.freeze = machine_freeze,
	.code_profile = machine_code_profile,
};

static const struct exec_ops *current = &machine_ops;

const struct exec_ops *exec_machine(void) { return &machine_ops; }
void exec_select(const struct exec_ops *ops) { current = ops ? ops : &machine_ops; }
const struct exec_ops *exec_current(void) { return current; }

u32 exec_cpu_count(void) { return current->cpu_count(); }
int exec_run_on(u32 cpu, void (*fn)(void *ctx), void *ctx, const char **why)
{
	return current->run_on(cpu, fn, ctx, why);
}
int exec_reserve(u32 cpu, size_t bytes) { return current->reserve(cpu, bytes); }
void exec_release(u32 cpu) { current->release(cpu); }
int exec_start(u64 (*insn_per_s)(void), const char **why) { return current->start(insn_per_s, why); }
void exec_stop(void) { current->stop(); }
bool exec_running(void) { return current->running(); }
void exec_stats(struct exec_stats *out) { current->stats(out); }
void exec_set_cpus(u64 mask, const volatile u64 *ips, exec_pmi_fn pmi, void *ctx)
{
	current->set_cpus(mask, ips, pmi, ctx);
}
void exec_freeze(bool on) { current->freeze(on); }
void exec_code_profile(const struct code_profile *p) { current->code_profile(p); }
