/* The execution seam's dispatch, and the machine behind it: code for a
 * CPU runs on that CPU (plat_run_on: the firmware's MP services), time is
 * real, and nothing needs driving. */
#include "exec.h"
#include "../lib/str.h"

static u32 machine_cpu_count(void) { return plat_cpu_count(); }
static int machine_cpu_usable(u32 cpu, char *why, size_t len) { return 0; }
static void machine_run_here(u32 cpu, void (*fn)(void *ctx), void *ctx) { fn(ctx); }
static bool machine_aps_run_own_code(void) { return true; }
static u32 machine_fault_cpu(u32 cpu) { return cpu; }
static int machine_pmi_cpu(void) { return -1; }
/* The handler's EOI went through the register seam to this very APIC. */
static void machine_pmi_irq_done(void (*eoi_here)(void)) { }
static int machine_start(u64 (*insn_per_s)(void), const char **why) { return 0; }
static void machine_stop(void) { }
static bool machine_running(void) { return false; }
static void machine_stats(struct exec_stats *out) { bp_memset(out, 0, sizeof(*out)); }
static void machine_set_cpus(u64 mask, const volatile u64 *ips, exec_pmi_fn pmi, void *ctx) { }
static void machine_freeze(bool on) { }
static void machine_code_profile(const struct code_profile *p) { }
/* The machine's PMU counts what retires: nothing to be told. */
static void machine_retired(u64 done, u64 next) { }
static void machine_settle(void) { }
static void machine_workload_only(bool on) { }

static const struct exec_ops machine_ops = {
	.name = "machine",
	.cpu_count = machine_cpu_count,
	.cpu_usable = machine_cpu_usable,
	.run_on = plat_run_on,
	.run_here = machine_run_here,
	.aps_run_own_code = machine_aps_run_own_code,
	.fault_cpu = machine_fault_cpu,
	.pmi_cpu = machine_pmi_cpu,
	.pmi_irq_done = machine_pmi_irq_done,
	.reserve = plat_cpu_reserve,
	.release = plat_cpu_release,
	.start = machine_start,
	.stop = machine_stop,
	.running = machine_running,
	.stats = machine_stats,
	.set_cpus = machine_set_cpus,
	.freeze = machine_freeze,
	.code_profile = machine_code_profile,
	.retired = machine_retired,
	.settle = machine_settle,
	.workload_only = machine_workload_only,
};

static const struct exec_ops *current = &machine_ops;

const struct exec_ops *exec_machine(void) { return &machine_ops; }
void exec_select(const struct exec_ops *ops) { current = ops ? ops : &machine_ops; }
const struct exec_ops *exec_current(void) { return current; }

u32 exec_cpu_count(void) { return current->cpu_count(); }
int exec_cpu_usable(u32 cpu, char *why, size_t len) { return current->cpu_usable(cpu, why, len); }
int exec_run_on(u32 cpu, void (*fn)(void *ctx), void *ctx, const char **why)
{
	return current->run_on(cpu, fn, ctx, why);
}
void exec_run_here(u32 cpu, void (*fn)(void *ctx), void *ctx) { current->run_here(cpu, fn, ctx); }
bool exec_aps_run_own_code(void) { return current->aps_run_own_code(); }
u32 exec_fault_cpu(u32 cpu) { return current->fault_cpu(cpu); }
int exec_pmi_cpu(void) { return current->pmi_cpu(); }
void exec_pmi_irq_done(void (*eoi_here)(void)) { current->pmi_irq_done(eoi_here); }
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
void exec_retired(u64 done, u64 next) { current->retired(done, next); }
void exec_settle(void) { current->settle(); }
void exec_workload_only(bool on) { current->workload_only(on); }
