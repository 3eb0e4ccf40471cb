#include "percpu.h"
#include "../pmu/probe.h"
#include "../pebs/arch.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../events/evparse.h"
#include "../arch/hw.h"
#include "../arch/exec.h"

/* ---- running code for a CPU ------------------------------------------------ */

/* A fatal MSR fault an AP kept (arch/hw.h: it may not print there), into
 * c->err. Where the BSP ran c's code (exec_fault_cpu), its faults were its
 * own and were reported as they happened. */
static bool took_fault(struct percpu *p, struct percpu_cpu *c)
{
	struct hw_fault f;
	u32 more;
	char what[300];
	u32 kept_by = exec_fault_cpu(c->cpu);
	if (kept_by == p->bsp || !hw_fault_take(kept_by, &f, &more))
		return false;
	hw_fault_describe(&f, what, sizeof(what));
	if (more)
		bp_snprintf(c->err, sizeof(c->err), "%s (and %u more faults)", what, more);
	else
		bp_snprintf(c->err, sizeof(c->err), "%s", what);
	return true;
}

static void print_cpu_error(const struct percpu *p, const struct percpu_cpu *c, const char *when)
{
	err_printf("bareperf %s: CPU %u: %s, %s\n", p->cmd, c->cpu, c->err, when);
}

static void report_fault(struct percpu *p, struct percpu_cpu *c, const char *when)
{
	if (took_fault(p, c))
		print_cpu_error(p, c, when);
}

/* For that CPU, as the execution seam runs it (arch/exec.h). -1 with
 * c->err when it could not run there, or faulted there. */
static int exec_on(struct percpu *p, struct percpu_cpu *c, void (*fn)(void *ctx))
{
	const char *why;
	if (exec_run_on(c->cpu, fn, c, &why) == 0)
		return took_fault(p, c) ? -1 : 0;
	bp_snprintf(c->err, sizeof(c->err), "cannot run code there: %s", why);
	return -1;
}

/* exec_on for a step that has no error path of its own: a fault there is
 * reported as it happens. */
static void exec_reporting(struct percpu *p, struct percpu_cpu *c, void (*fn)(void *ctx),
			   const char *when)
{
	if (exec_on(p, c, fn) && c->err[0])
		print_cpu_error(p, c, when);
}


/* "0-3, 5": the CPU numbers of p's CPUs in set (bits: p->cpu[] indexes). */
static void format_cpu_set(const struct percpu *p, u64 set, char *buf, size_t len)
{
	size_t pos = 0;
	buf[0] = 0;
	for (u32 i = 0; i < p->count && pos < len; i++) {
		if (!(set & BIT(i)))
			continue;
		u32 j = i;
		while (j + 1 < p->count && (set & BIT(j + 1)) && p->cpu[j + 1]->cpu == p->cpu[j]->cpu + 1)
			j++;
		int k = j == i ? bp_snprintf(buf + pos, len - pos, "%s%u", pos ? ", " : "", p->cpu[i]->cpu)
			       : bp_snprintf(buf + pos, len - pos, "%s%u-%u", pos ? ", " : "", p->cpu[i]->cpu,
					     p->cpu[j]->cpu);
		pos += k > 0 ? (size_t)k : 0;
		i = j;
	}
}

/* Why the CPUs in failed (p->cpu[] indexes) are not sampled, once for
 * all that share a reason: on a 64-CPU machine an event list that does
 * not fit is one message, not 64. The scheduler explains each event it
 * could not place on a line of its own, so the reason ends the message. */
static void report_not_sampled(const struct percpu *p, u64 failed)
{
	while (failed) {
		const struct percpu_cpu *c = p->cpu[__builtin_ctzll(failed)];
		u64 same = 0;
		for (u64 m = failed; m; m &= m - 1)
			if (bp_strcmp(p->cpu[__builtin_ctzll(m)]->err, c->err) == 0)
				same |= m & -m;
		failed &= ~same;
		size_t len = bp_strlen(c->err);
		const char *end = len && c->err[len - 1] == '\n' ? "" : "\n";
		char cpus[160];
		format_cpu_set(p, same, cpus, sizeof(cpus));
		if (!p->name_cpus)
			err_printf("bareperf %s: %s%s", p->cmd, c->err, end);
		else if (same & (same - 1))
			err_printf("bareperf %s: CPUs %s are not sampled: %s%s", p->cmd, cpus, c->err, end);
		else
			err_printf("bareperf %s: CPU %s is not sampled: %s%s", p->cmd, cpus, c->err, end);
	}
}

/* ---- the events of each core type ------------------------------------------ */

static bool same_core_type(const struct pmu_caps *a, const struct pmu_caps *b)
{
	return a->hybrid == b->hybrid && a->core_type == b->core_type && a->family == b->family &&
	       a->model == b->model && event_table_for_caps(a) == event_table_for_caps(b);
}

const struct percpu_events *percpu_types_find(const struct percpu_types *t,
					      const struct pmu_caps *caps)
{
	for (u32 i = 0; t && i < t->count; i++)
		if (same_core_type(&t->type[i].caps, caps))
			return &t->type[i];
	return NULL;
}

void percpu_types_init(struct percpu_types *t, const struct pmu_caps *own, const char *text,
		       const struct pmu_event *ev, int n)
{
	t->text = text;
	t->count = 1;
	struct percpu_events *e = &t->type[0];
	e->caps = *own;
	e->n = n;
	e->err[0] = 0;
	for (int i = 0; i < n; i++)
		e->ev[i] = ev[i];
}

static void read_caps(void *ctx) { pmu_caps_read(ctx); }

/* Why a CPU's events cannot be sampled, named by its core type on a
 * hybrid part ("efficiency core (Atom): unknown event ..."). */
static void type_reason(char *out, size_t len, const struct pmu_caps *caps, const char *why)
{
	bp_snprintf(out, len, "%s%s%s", caps->hybrid ? caps_core_type_name(caps->core_type) : "",
		    caps->hybrid ? ": " : "", why);
}

void percpu_types_add_cpus(struct percpu_types *t, u64 mask)
{
	char why[96];
	const char *cannot;
	for (u64 m = mask; m && t->count < PERCPU_MAX_TYPES; m &= m - 1) {
		u32 cpu = (u32)__builtin_ctzll(m);
		struct percpu_events *e = &t->type[t->count];
		if (cpu >= PERCPU_MAX || exec_cpu_usable(cpu, why, sizeof(why)) ||
		    exec_run_on(cpu, read_caps, &e->caps, &cannot) || percpu_types_find(t, &e->caps))
			continue;
		char err[PERCPU_ERR_MAX];
		e->n = evparse_list(t->text, event_table_for_caps(&e->caps), &e->caps, e->ev,
				    PMU_MAX_EVENTS, err, sizeof(err));
		e->err[0] = 0;
		if (e->n < 0)	/* hybrid parts: an event this core type lacks */
			type_reason(e->err, sizeof(e->err), &e->caps, err);
		t->count++;
	}
}

/* ---- one CPU's steps ---------------------------------------------------------- */

/* What a CPU reads and programs for itself, with its core type's events.
 * Runs on it: no printing, no firmware services; errors go to c->err. */
static void cpu_setup(void *ctx)
{
	struct percpu_cpu *c = ctx;
	struct percpu *p = c->owner;
	char err[PERCPU_ERR_MAX];
	pmu_caps_read(&c->caps);
	c->apic_id = caps_apic_id();
	const struct percpu_events *type = percpu_types_find(p->types, &c->caps);
	if (!type || type->n < 0) {
		if (type)
			bp_snprintf(c->err, sizeof(c->err), "%s", type->err);
		else
			type_reason(c->err, sizeof(c->err), &c->caps,
				    "its core type's events were not parsed");
		return;
	}
	c->n = type->n;
	for (int i = 0; i < c->n; i++)
		c->ev[i] = type->ev[i];
	/* A hypervisor may advertise counters it does not implement: check
	 * that they read, and after taking the PMU, that they keep what is
	 * written, before trusting them (pmu/probe.h). */
	if (pmu_probe_reads(&c->caps, err, sizeof(err)) ||
	    pmu_open(&c->pmu, &c->caps, p->force, err, sizeof(err))) {
		bp_snprintf(c->err, sizeof(c->err), "%s", err);
		return;
	}
	c->open = true;
	if (pmu_probe_writes(&c->pmu, err, sizeof(err))) {
		bp_snprintf(c->err, sizeof(c->err), "%s", err);
		pmu_close(&c->pmu);
		c->open = false;
		return;
	}
	if (p->ops->setup(c, err, sizeof(err))) {
		bp_snprintf(c->err, sizeof(c->err), "%s", err);
		pmu_close(&c->pmu);
		c->open = false;
		return;
	}
	c->ready = true;
}

/* The CPU's sampling engine, when its ops sample. */
static struct sampling *sampler_of(const struct percpu_cpu *c)
{
	return c->owner->ops->samples ? c->state : NULL;
}

/* Starts the CPU's events and checks that counting really began (issue
 * 19: a GLOBAL_CTRL that ignores writes gave 0 counts and exit 0). */
static void start_checked(struct percpu_cpu *c)
{
	c->owner->ops->start(c);
	c->started = pmu_check_started(&c->pmu);
	/* A PMI already taken proves the counters ran; its handler may have
	 * turned them off since (throttled at the first window). */
	if (c->started.held && sampler_of(c) && sampler_of(c)->pmi.st.pmis)
		c->started.held = false;
}

static void cpu_start(void *ctx) { start_checked(ctx); }
static void cpu_stop(void *ctx) { struct percpu_cpu *c = ctx; c->owner->ops->stop(c); }
static void cpu_tick(void *ctx) { struct percpu_cpu *c = ctx; c->owner->ops->tick(c); }

static void cpu_close(void *ctx)
{
	struct percpu_cpu *c = ctx;
	if (c->ready)
		c->owner->ops->teardown(c);
	if (c->open)
		pmu_close(&c->pmu);
	c->ready = c->open = false;
}

/* ---- sampling ------------------------------------------------------------- */

static int sampling_cpu_setup(struct percpu_cpu *c, char *err, size_t errlen)
{
	struct sampling_opts so = c->owner->so;
	so.cpu = c->cpu;
	so.pmi_vector = c->owner->vector;
	return sampling_setup(c->state, &c->pmu, c->ev, c->n, &so, err, errlen);
}

static void sampling_cpu_start(struct percpu_cpu *c) { sampling_start(c->state); }
static void sampling_cpu_stop(struct percpu_cpu *c) { sampling_stop(c->state); }
static void sampling_cpu_tick(struct percpu_cpu *c) { sampling_tick(c->state); }
static void sampling_cpu_teardown(struct percpu_cpu *c) { sampling_teardown(c->state); }
static void sampling_cpu_arm(struct percpu_cpu *c)
{
	pmi_arm(&((struct sampling *)c->state)->pmi, &c->armed);
}
static void sampling_cpu_disarm(struct percpu_cpu *c)
{
	pmi_disarm(&((struct sampling *)c->state)->pmi, &c->armed);
}

const struct percpu_ops percpu_sampling = {
	.state_bytes = sizeof(struct sampling), .samples = true,
	.setup = sampling_cpu_setup, .start = sampling_cpu_start, .stop = sampling_cpu_stop,
	.tick = sampling_cpu_tick, .teardown = sampling_cpu_teardown,
	.arm = sampling_cpu_arm, .disarm = sampling_cpu_disarm,
};

/* ---- PMIs ---------------------------------------------------------------- */

/* A PMI for a CPU that is not sampling (yet): acknowledge it, or the
 * local APIC keeps the vector in service and holds every interrupt of a
 * lower priority (the firmware's timer among them). */
static void acknowledge_only(void)
{
	struct apic_state a;
	if (apic_probe(&a) == 0)
		apic_eoi(&a);
}

struct pmi_call {
	struct percpu_cpu *c;
	const struct plat_irq_frame *f;
};

static void handle(void *ctx)
{
	struct pmi_call *k = ctx;
	struct sampling *s = sampler_of(k->c);
	if (k->c->ready && s)
		pmi_handle(&s->pmi, k->f);
	else
		acknowledge_only();
}

/* The sampled CPU this code runs on, found by its APIC ID; NULL if none. */
static struct percpu_cpu *cpu_here(struct percpu *p)
{
	u32 id = caps_apic_id();
	for (u32 i = 0; i < p->count; i++)
		if (p->cpu[i]->apic_id == id)
			return p->cpu[i];
	return NULL;
}

/* The CPU a PMI is for. The execution seam names it where it delivers
 * the PMI on that CPU's behalf (an emulated CPU's: the main flow may have
 * another model CPU selected at that moment). Else the PMI came through
 * the local APIC of the CPU this runs on: where the command's CPU alone
 * samples with a fixed vector, only its LVT PC holds the vector (SDM Vol.
 * 3A 10.5.1: each CPU's local APIC has its own LVT), so the PMI is its,
 * and no CPUID is run to find it: CPUID serialises, and under a
 * hypervisor it is a VM exit at every PMI. An NMI may come to any CPU:
 * that one is found by its APIC ID. */
static struct percpu_cpu *pmi_cpu(struct percpu *p)
{
	int cpu = exec_pmi_cpu();
	if (cpu >= 0)
		return cpu < PERCPU_MAX ? p->by_number[cpu] : NULL;
	return p->vector_only_bsp ? p->by_number[p->bsp] : cpu_here(p);
}

/* The one PMI handler of the per-CPU engine, whatever delivers it: the
 * PMI's gate (a fixed vector or the NMI, on the CPU whose counter
 * overflowed) or the execution seam on an emulated CPU's behalf. Runs
 * the CPU's handler for it (exec_run_here); an NMI that is not the PMU's
 * goes on to the firmware's handler (false). */
static bool on_pmi(const struct plat_irq_frame *f, void *ctx)
{
	struct percpu *p = ctx;
	struct percpu_cpu *c = pmi_cpu(p);
	struct sampling *s = c ? sampler_of(c) : NULL;
	if (c && c->ready && s && s->pmi.nmi && !pmi_nmi_is_ours(&s->pmi))
		return false;
	if (!c || (!c->ready && p->so.pmi_nmi)) {
		if (p->so.pmi_nmi)
			return false;
		acknowledge_only();
		return true;
	}
	struct pmi_call k = { c, f };
	exec_run_here(c->cpu, handle, &k);
	return true;
}

/* ---- the APs' loop ------------------------------------------------------------ */

/* A real AP that takes PMIs counts only inside its loop, where its gates,
 * LVT PC and interrupts are ours: between two MP-services calls it runs
 * the firmware's code with interrupts off, and a PMI there would sit in
 * IRR until the next wake-up INIT discarded it (and the counter, never
 * preset again, would not overflow again). */
static bool starts_itself(const struct percpu *p, const struct percpu_cpu *c)
{
	return exec_aps_run_own_code() && p->ops->arm && c->cpu != p->bsp;
}

static void percpu_ap_spin(void *ctx)
{
	struct percpu *p = ctx;
	u32 me = plat_cpu_self();
	if (me >= PERCPU_MAX || !(p->mask & BIT(me)))
		return;		/* not sampled: back to the firmware's idle loop */
	struct percpu_cpu *c = p->by_number[me];
	u32 seen = p->tick_seq;
	bool own = exec_aps_run_own_code();	/* else the BSP ticks it */
	bool armed = c && c->ready && starts_itself(p, c);
	struct plat_ap_window w = { .open = false };
	if (armed) {
		plat_ap_window_begin(&w);	/* our gates on this AP, interrupts on */
		p->ops->arm(c);			/* LVT PC again: the wake-up INIT reset it */
		start_checked(c);
	}
	while (!p->stop) {
spin:
		p->ap_ip[me] = (u64)(uintptr_t)&&spin;
		if (own && c && c->ready && p->tick_seq != seen) {
			seen = p->tick_seq;
			p->ops->tick(c);	/* its own MSRs, on itself */
		}
		__builtin_ia32_pause();
	}
	if (armed) {
		p->ops->stop(c);		/* counting stops before LVT PC is put back */
		p->ops->disarm(c);
		plat_ap_window_end(&w);
	}
}

/* ---- the whole set -------------------------------------------------------------- */

static void close_hook(void *ctx) { percpu_close(ctx); }

/* Whether a core type of the machine has Architectural PEBS. */
static bool any_arch_pebs(const struct percpu_types *t)
{
	for (u32 i = 0; t && i < t->count; i++)
		if (caps_has_arch_pebs(&t->type[i].caps))
			return true;
	return false;
}

/* What an AP allocates while it sets itself up: the ring and the PEBS
 * buffer (its engine's default: Architectural PEBS's 1 MiB where a core
 * type has it, else DS-based PEBS's), with room to spare. */
static size_t arena_bytes(const struct percpu *p)
{
	const struct sampling_opts *so = &p->so;
	size_t ring = (size_t)(so->ring_samples ? so->ring_samples : SAMPLING_DEFAULT_RING) *
		      sizeof(struct bp_sample);
	size_t pebs = MAX(pebs_ds_default_bytes(0), pebs_ds_default_bytes(4));
	if (so->pebs_buffer_bytes)
		pebs = so->pebs_buffer_bytes;
	else if (any_arch_pebs(p->types))
		pebs = ARCH_PEBS_DEFAULT_BYTES;
	return ring + pebs + 16 * 4096;
}

static int add_cpus(struct percpu *p, u64 mask, const char *cmd)
{
	u32 self = plat_cpu_self();
	for (u64 m = mask; m; m &= m - 1) {
		u32 cpu = (u32)__builtin_ctzll(m);
		char why[96];
		if (cpu >= PERCPU_MAX || exec_cpu_usable(cpu, why, sizeof(why))) {
			err_printf("bareperf %s: CPU %u: %s; not sampled\n", cmd, cpu, why);
			continue;
		}
		/* The ops' state follows the CPU's, 16-byte aligned. */
		size_t at = (sizeof(struct percpu_cpu) + 15) & ~(size_t)15;
		struct percpu_cpu *c = plat_alloc(at + p->ops->state_bytes);
		if (!c || (cpu != self && exec_reserve(cpu, arena_bytes(p)))) {
			err_printf("bareperf %s: CPU %u: out of memory\n", cmd, cpu);
			plat_free(c);
			return -1;
		}
		c->cpu = cpu;
		c->owner = p;
		c->state = (u8 *)c + at;
		p->cpu[p->count++] = c;
		p->by_number[cpu] = c;
		p->mask |= BIT(cpu);
	}
	return 0;
}

static int open_cpus(struct percpu *p, u64 mask, bool name_cpus, const struct percpu_types *types,
		     bool force, const struct sampling_opts *so, const struct percpu_ops *ops,
		     const char *cmd)
{
	bp_memset(p, 0, sizeof(*p));
	p->name_cpus = name_cpus;
	p->types = types;
	p->cmd = cmd;
	p->force = force;
	p->so = *so;
	p->ops = ops;
	/* Measured here on the BSP: an AP may not call the firmware's Stall. */
	plat_ticks_per_second();
	p->bsp = plat_cpu_self();
	p->vector_only_bsp = p->bsp < PERCPU_MAX && mask == BIT(p->bsp) && !so->pmi_nmi;
	plat_on_exit(close_hook, p);
	if (add_cpus(p, mask, cmd))
		return -1;
	p->vector = so->pmi_nmi ? plat_pmi_install_nmi(on_pmi, p) : plat_pmi_install(on_pmi, p);
	p->pmi_installed = true;
	u32 ready = 0;
	u64 failed = 0;
	for (u32 i = 0; i < p->count; i++) {
		struct percpu_cpu *c = p->cpu[i];
		if (exec_on(p, c, cpu_setup) == 0 && c->ready) {
			ready++;
			continue;
		}
		failed |= BIT(i);
		if (c->open)	/* a fault midway: give back what it took */
			exec_reporting(p, c, cpu_close, "while giving its PMU back");
	}
	report_not_sampled(p, failed);
	if (!ready) {
		percpu_close(p);
		return -1;
	}
	return 0;
}

int percpu_open(struct percpu *p, u64 mask, const struct percpu_types *types, bool force,
		const struct sampling_opts *so, const struct percpu_ops *ops, const char *cmd)
{
	return open_cpus(p, mask, true, types, force, so, ops, cmd);
}

int percpu_open_self(struct percpu *p, const struct percpu_types *types, bool force,
		     const struct sampling_opts *so, const struct percpu_ops *ops, const char *cmd)
{
	return open_cpus(p, BIT(plat_cpu_self()), false, types, force, so, ops, cmd);
}

static u64 ready_mask(const struct percpu *p)
{
	u64 m = 0;
	for (u32 i = 0; i < p->count; i++)
		if (p->cpu[i]->ready)
			m |= BIT(p->cpu[i]->cpu);
	return m;
}

void percpu_start(struct percpu *p)
{
	const char *why;
	u64 ready = ready_mask(p);
	exec_set_cpus(ready, p->ap_ip, on_pmi, p);
	p->drive_cpus = true;
	for (u32 i = 0; i < p->count; i++)
		if (p->cpu[i]->ready && !starts_itself(p, p->cpu[i]))
			exec_reporting(p, p->cpu[i], cpu_start, "while starting");
	p->stop = 0;
	if (ready & ~BIT(plat_cpu_self())) {
		if (plat_aps_start(percpu_ap_spin, p, &why) == 0)
			p->aps_running = true;
		else
			err_printf("bareperf: the other CPUs stay where the firmware left them "
				   "(%s)\n", why);
	}
}

bool percpu_report_held_on(const char *cmd, int cpu, const struct pmu_start_check *c)
{
	if (!c->held)
		return false;
	char where[24] = "";
	if (cpu >= 0)
		bp_snprintf(where, sizeof(where), "CPU %d: ", cpu);
	/* Counters the holder leaves enabled may count, at its will; those
	 * it turned off count nothing. Neither gives a count to trust. */
	err_printf("bareperf %s: %s%s reads 0x%llx after bareperf wrote 0x%llx: something "
		   "else holds the PMU (firmware, SMM, a BMC or a hypervisor): counters "
		   "0x%llx did not start, and no count%s is to be trusted\n", cmd, where,
		   c->reg, (unsigned long long)c->found, (unsigned long long)c->wrote,
		   (unsigned long long)(c->wrote & ~c->found), cpu >= 0 ? " there" : "");
	return true;
}

u32 percpu_report_held(const struct percpu *p)
{
	u32 held = 0;
	for (u32 i = 0; i < p->count; i++) {
		const struct percpu_cpu *c = p->cpu[i];
		held += c->ready && percpu_report_held_on(p->cmd, p->name_cpus ? (int)c->cpu : -1,
							 &c->started);
	}
	return held;
}

static void bring_aps_back(struct percpu *p)
{
	p->stop = 1;
	if (!p->aps_running)
		return;
	plat_aps_wait();
	p->aps_running = false;
	for (u32 i = 0; i < p->count; i++)
		report_fault(p, p->cpu[i], "while sampling");
}

void percpu_stop(struct percpu *p)
{
	bring_aps_back(p);
	for (u32 i = 0; i < p->count; i++)
		if (p->cpu[i]->ready && !starts_itself(p, p->cpu[i]))
			exec_reporting(p, p->cpu[i], cpu_stop, "while stopping");
}

/* A CPU whose PMU could not be given back (its procedure never ran: MP
 * services timed out) may still count, and write PEBS records into its
 * DS area: its pages (its arena) and its state stay reserved for good, so
 * that no one else is handed memory its PEBS assist writes into. */
static void keep_unreturned(struct percpu *p, struct percpu_cpu *c)
{
	err_printf("bareperf %s: CPU %u: its PMU was not given back; its DS/PEBS memory stays "
		   "reserved until the machine is reset\n", p->cmd, c->cpu);
}

void percpu_close(struct percpu *p)
{
	if (p->closed)
		return;
	p->closed = true;
	bring_aps_back(p);
	for (u32 i = 0; i < p->count; i++)
		exec_reporting(p, p->cpu[i], cpu_close, "while giving its PMU back");
	if (p->drive_cpus)
		exec_set_cpus(0, NULL, NULL, NULL);
	if (p->pmi_installed)
		plat_pmi_remove();
	u32 self = plat_cpu_self();
	for (u32 i = 0; i < p->count; i++) {
		struct percpu_cpu *c = p->cpu[i];
		p->cpu[i] = NULL;
		if (c->open) {
			keep_unreturned(p, c);
			continue;
		}
		if (c->cpu != self)
			exec_release(c->cpu);
		plat_free(c);
	}
	bp_memset(p->by_number, 0, sizeof(p->by_number));
	p->count = 0;
}

/* fn for c, from the CPU the main flow runs on (exec_run_here: without
 * asking the firmware which CPU this is, at every tick). */
static void run_here(struct percpu_cpu *c, void (*fn)(void *ctx))
{
	exec_run_here(c->cpu, fn, c);
}

void percpu_tick(struct percpu *p)
{
	bool own = exec_aps_run_own_code();
	u32 self = own ? plat_cpu_self() : p->bsp;
	for (u32 i = 0; i < p->count; i++) {
		struct percpu_cpu *c = p->cpu[i];
		if (!c->ready)
			continue;
		if (!own || c->cpu == self)
			run_here(c, cpu_tick);
	}
	p->tick_seq++;	/* the APs that run their own loop do their own */
}

void percpu_tick_self(struct percpu *p)
{
	struct percpu_cpu *c = p->bsp < PERCPU_MAX ? p->by_number[p->bsp] : NULL;
	if (c && c->ready)
		run_here(c, cpu_tick);
}

/* The sampler of the CPU the main flow runs on, if it samples: the BSP,
 * or the one the seam runs it for. */
static struct percpu_cpu *main_flow_sampler(const struct percpu *p)
{
	u32 self = exec_aps_run_own_code() ? plat_cpu_self() : p->bsp;
	for (u32 i = 0; i < p->count; i++) {
		struct percpu_cpu *c = p->cpu[i];
		if (c->ready && c->cpu == self && p->ops->samples)
			return c;
	}
	return NULL;
}

static void cpu_hold(void *ctx) { sampling_hold(sampler_of(ctx)); }
static void cpu_release(void *ctx) { sampling_release(sampler_of(ctx)); }

static void on_main_flow_cpu(struct percpu *p, void (*fn)(void *ctx))
{
	struct percpu_cpu *c = main_flow_sampler(p);
	if (!c)
		return;
	run_here(c, fn);
}

void percpu_set_tsc_clock(struct percpu *p, u64 tsc_per_second)
{
	for (u32 i = 0; i < p->count; i++)
		if (p->cpu[i]->ready && p->ops->samples)
			sampling_set_tsc_clock(sampler_of(p->cpu[i]), tsc_per_second);
}

/* Time stops before the counters are held and runs again after they
 * are released: an emulated PMU's tick in between would charge the
 * workload's time (and what it has told it retired) to counters that
 * are off, and those counts would be lost. */
void percpu_hold_self(struct percpu *p)
{
	exec_freeze(true);
	on_main_flow_cpu(p, cpu_hold);
}

void percpu_release_self(struct percpu *p)
{
	on_main_flow_cpu(p, cpu_release);
	exec_freeze(false);
}

u32 percpu_poll(struct percpu *p, u32 i, struct bp_sample *out, u32 max)
{
	return i < p->count && p->cpu[i]->ready && p->ops->samples ? sampling_poll(sampler_of(p->cpu[i]), out, max) : 0;
}

u32 percpu_ready(const struct percpu *p)
{
	return (u32)__builtin_popcountll(ready_mask(p));
}

u32 percpu_ready_cpus(const struct percpu *p, u32 cpus[PERCPU_MAX])
{
	u32 n = 0;
	for (u64 m = ready_mask(p); m; m &= m - 1)
		cpus[n++] = (u32)__builtin_ctzll(m);
	return n;
}

/* The i-th CPU's sampling engine, if it samples (ready: set up). */
static const struct sampling *sampler_at(const struct percpu *p, u32 i, bool ready)
{
	if (i >= p->count || !p->cpu[i] || !p->ops || !p->ops->samples)
		return NULL;
	return !ready || p->cpu[i]->ready ? p->cpu[i]->state : NULL;
}

const struct bp_sample *percpu_peek(const struct percpu *p, u32 i)
{
	const struct sampling *s = sampler_at(p, i, true);
	return s ? sampling_peek(s) : NULL;
}

u64 percpu_cpu_pending(const struct percpu *p, u32 i)
{
	const struct sampling *s = sampler_at(p, i, true);
	return s ? sampling_pending(s) : 0;
}

u64 percpu_newest_tsc(const struct percpu *p, u32 i)
{
	const struct sampling *s = sampler_at(p, i, true);
	return s ? sampling_newest_tsc(s) : ~0ULL;
}

u64 percpu_pending(const struct percpu *p)
{
	u64 pending = 0;
	for (u32 i = 0; i < p->count; i++) {
		const struct sampling *s = sampler_at(p, i, true);
		if (s)
			pending += sampling_pending(s);
	}
	return pending;
}

u64 percpu_lost(const struct percpu *p)
{
	u64 lost = 0;
	for (u32 i = 0; i < p->count; i++) {
		const struct sampling *s = sampler_at(p, i, false);
		if (s && (p->cpu[i]->ready || s->ring.slots))
			lost += sampling_lost(s);
	}
	return lost;
}

void percpu_pmi_stats(const struct percpu *p, struct pmi_stats *sum)
{
	bp_memset(sum, 0, sizeof(*sum));
	for (u32 i = 0; i < p->count; i++) {
		const struct sampling *s = sampler_at(p, i, false);
		if (s)
			pmi_stats_add(sum, &s->pmi.st);
	}
}

static const struct sampling *first_sampler(const struct percpu *p)
{
	for (u32 i = 0; i < p->count; i++)
		if (sampler_at(p, i, true))
			return sampler_at(p, i, true);
	return NULL;
}

int percpu_describe(const struct percpu *p, char *buf, size_t len)
{
	const struct sampling *s = first_sampler(p);
	return s ? sampling_describe(s, buf, len) : 0;
}

u64 percpu_period(const struct percpu *p, int i)
{
	const struct sampling *s = first_sampler(p);
	return s && i >= 0 && i < s->n ? s->period[i] : 0;
}

bool percpu_loss_describe(const struct percpu *p, u32 i, char *buf, size_t len)
{
	const struct sampling *s = sampler_at(p, i, true);
	if (!s || !s->any_pebs)
		return false;
	sampling_describe_loss(s, buf, len);
	return true;
}

bool percpu_ds_area_lost(const struct percpu *p, u64 *ours, const char **reg)
{
	for (u32 i = 0; i < p->count; i++) {
		const struct sampling *s = sampler_at(p, i, true);
		if (s && s->pmi.st.ds_area_lost && s->precise.ops && s->precise.ops->ours) {
			*ours = s->precise.ops->ours(&s->precise);
			*reg = s->precise.ops->base_reg;
			return true;
		}
	}
	return false;
}

bool percpu_ring_half_full(const struct percpu *p, u32 i)
{
	const struct sampling *s = sampler_at(p, i, false);
	return s && s->ring.head - s->ring.tail >= s->ring.capacity / 2;
}
