/* The emulated PMU behind the hardware seam: model selection, the seam
 * operations, per-MSR access counts, statistics and snapshots. The state every part shares, and its failure paths, are in
 * sim_state.c; the PMU itself is in sim_pmu.c, PEBS in sim_pebs.c, the
 * local APIC in sim_apic.c. */
#include "sim_int.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"

/* ---- per-MSR access counts ------------------------------------------------ */

#define MSR_COUNT_SLOTS 256
static struct msr_count {
	u32 msr;
	bool used;
	u64 reads, writes;
} msr_counts[MSR_COUNT_SLOTS];

static struct msr_count *msr_count_slot(u32 msr, bool create)
{
	u32 h = (msr * 2654435761u) % MSR_COUNT_SLOTS;
	for (u32 i = 0; i < MSR_COUNT_SLOTS; i++) {
		struct msr_count *s = &msr_counts[(h + i) % MSR_COUNT_SLOTS];
		if (s->used && s->msr == msr)
			return s;
		if (!s->used) {
			if (!create)
				return NULL;
			s->used = true;
			s->msr = msr;
			return s;
		}
	}
	return NULL;	/* table full: the access is not counted */
}

u64 sim_msr_reads(u32 msr)
{
	struct msr_count *s = msr_count_slot(msr, false);
	return s ? s->reads : 0;
}

u64 sim_msr_writes(u32 msr)
{
	struct msr_count *s = msr_count_slot(msr, false);
	return s ? s->writes : 0;
}

u64 sim_msr_accesses(void)
{
	u64 n = 0;
	for (u32 i = 0; i < MSR_COUNT_SLOTS; i++)
		n += msr_counts[i].reads + msr_counts[i].writes;
	return n;
}

void sim_msr_counts_reset(void) { bp_memset(msr_counts, 0, sizeof(msr_counts)); }

/* ---- the seam ------------------------------------------------------------- */

static bool is_x2apic_msr(u32 msr)
{
	return msr >= MSR_IA32_X2APIC_BASE && msr <= MSR_IA32_X2APIC_BASE + 0xFF;
}

/* After sim_close the seam must not be used: say so instead of crashing. */
static bool closed(struct hw_fault *f)
{
	if (sim.open)
		return false;
	if (f)
		sim_gp(f, "the emulated PMU is closed (sim_close was called)");
	else
		sim_model_error("the emulated PMU is closed (sim_close was called)");
	return true;
}

static void seam_cpuid(u32 leaf, u32 sub, struct cpuid_regs *r)
{
	if (closed(NULL)) {
		*r = (struct cpuid_regs){ 0 };
		return;
	}
	sim_model_cpuid(sim.model, sim.cur, leaf, sub, r);
}

static bool msr_listed(const u32 *list, size_t n, u32 msr)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == msr)
			return true;
	return false;
}

static bool read_faults(u32 msr)
{
	return msr_listed(sim.faulting_reads, ARRAY_SIZE(sim.faulting_reads), msr);
}

/* Injected handler time (sim_inject_access_cycles): the code before an
 * access runs first; the accesses of a PMI handler it delivers do not
 * run more. */
#define HANDLER_IP 0xFFFFF000ULL	/* where the injected code "runs" */
static void code_before_access(struct sim_cpu *c)
{
	if (!c->access_cycles || c->in_access_run || !sim.open)
		return;
	c->in_access_run = true;
	sim_run(c->access_cycles, c->access_cycles, HANDLER_IP);
	c->in_access_run = false;
}

static int seam_rdmsr(u32 msr, u64 *val, struct hw_fault *f)
{
	struct msr_count *s = msr_count_slot(msr, true);
	struct sim_cpu *c = sim_cur();
	if (s)
		s->reads++;
	*val = 0;
	if (closed(f))
		return 1;
	code_before_access(c);
	if (msr != 0 && read_faults(msr))
		return sim_gp(f, "injected: this MSR is advertised but faults when read");
	if (msr == MSR_IA32_APIC_BASE || is_x2apic_msr(msr))
		return sim_apic_rdmsr(c, msr, val, f);
	if (sim_ibs_msr(msr))
		return sim_ibs_rdmsr(c, msr, val, f);
	return sim_pmu_rdmsr(c, msr, val, f);
}

static int seam_rdpmc(u32 ecx, u64 *val, struct hw_fault *f)
{
	*val = 0;
	if (closed(f))
		return 1;
	code_before_access(sim_cur());
	return sim_pmu_rdpmc(sim_cur(), ecx, val, f);
}

static bool write_ignored(u32 msr)
{
	return msr_listed(sim.ignored_writes, ARRAY_SIZE(sim.ignored_writes), msr);
}


static int seam_wrmsr(u32 msr, u64 val, struct hw_fault *f)
{
	struct msr_count *s = msr_count_slot(msr, true);
	struct sim_cpu *c = sim_cur();
	if (s)
		s->writes++;
	if (closed(f))
		return 1;
	code_before_access(c);
	if (msr != 0 && write_ignored(msr))
		return 0;	/* injected: the write "succeeds" but does not stick */
	if (msr == MSR_IA32_APIC_BASE || is_x2apic_msr(msr))
		return sim_apic_wrmsr(c, msr, val, f);
	if (sim_ibs_msr(msr))
		return sim_ibs_wrmsr(c, msr, val, f);
	return sim_pmu_wrmsr(c, msr, val, f);
}

static u32 seam_mmio_read32(u64 addr)
{
	if (closed(NULL))
		return 0xFFFFFFFFu;
	code_before_access(sim_cur());
	return sim_apic_mmio_read(sim_cur(), addr);
}

static void seam_mmio_write32(u64 addr, u32 val)
{
	if (closed(NULL))
		return;
	code_before_access(sim_cur());
	sim_apic_mmio_write(sim_cur(), addr, val);
}

static struct hw_ops sim_ops = {
	.emulated = true,
	.cpuid = seam_cpuid,
	.rdtsc = sim_tsc,
	.rdmsr = seam_rdmsr,
	.wrmsr = seam_wrmsr,
	.rdpmc = seam_rdpmc,
	.mmio_read32 = seam_mmio_read32,
	.mmio_write32 = seam_mmio_write32,
};

/* ---- opening a model ------------------------------------------------------ */

static void known_models(char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	for (size_t i = 0; i < sim_model_count() && at < len; i++)
		at += (size_t)bp_snprintf(buf + at, len - at, "%s%s", i ? ", " : "",
					  sim_model_name(i));
}

/* Options after the model name ("icx,x2apic,fmt=7,cpus=4"). cpus=N (1 to
 * SIM_MAX_CPUS) sets the number of logical CPUs. */
struct model_opts {
	bool x2apic;
	int pebs_format;	/* -1: the model's own */
	u32 cpus;		/* 0: the model's own */
	bool held;		/* IA32_PERF_GLOBAL_CTRL ignores writes */
};

static bool parse_option(const char *opt, size_t len, struct model_opts *o)
{
	if (len == 6 && bp_strncmp(opt, "x2apic", 6) == 0) {
		o->x2apic = true;
		return true;
	}
	/* held: firmware, SMM or a BMC holds the PMU, and IA32_PERF_GLOBAL_CTRL
	 * keeps its value whatever is written (sim_inject_ignored_writes). */
	if (len == 4 && bp_strncmp(opt, "held", 4) == 0) {
		o->held = true;
		return true;
	}
	/* fmt=N: IA32_PERF_CAPABILITIES[11:8] says PEBS record format N
	 * (0-15), e.g. a format newer than bareperf knows. */
	if (len >= 5 && len <= 6 && bp_strncmp(opt, "fmt=", 4) == 0) {
		unsigned v = 0;
		for (size_t i = 4; i < len; i++) {
			if (opt[i] < '0' || opt[i] > '9')
				return false;
			v = v * 10 + (unsigned)(opt[i] - '0');
		}
		if (v > 15)
			return false;
		o->pebs_format = (int)v;
		return true;
	}
	return false;
}

/* cpus=N: 0 when opt is not a cpus option, -1 when its value is bad. */
static int parse_cpus(const char *opt, size_t len, struct model_opts *o)
{
	u64 v = 0;
	const char *end;
	if (len <= 5 || bp_strncmp(opt, "cpus=", 5) != 0)
		return 0;
	if (!bp_parse_u64_prefix(opt + 5, &v, &end) || end != opt + len ||
	    v < 1 || v > SIM_MAX_CPUS)
		return -1;
	o->cpus = (u32)v;
	return 1;
}

static int parse_spec(const char *spec, char *name, size_t namelen, struct model_opts *o,
		      char *err, size_t errlen)
{
	const char *comma = bp_strchr(spec, ',');
	size_t n = comma ? (size_t)(comma - spec) : bp_strlen(spec);
	if (n + 1 > namelen)
		n = namelen - 1;
	bp_memcpy(name, spec, n);
	name[n] = 0;
	o->x2apic = false;
	o->pebs_format = -1;
	o->cpus = 0;
	o->held = false;
	while (comma) {
		const char *opt = comma + 1;
		comma = bp_strchr(opt, ',');
		size_t len = comma ? (size_t)(comma - opt) : bp_strlen(opt);
		if (parse_option(opt, len, o))
			continue;
		int cpus = parse_cpus(opt, len, o);
		if (cpus > 0)
			continue;
		if (cpus < 0)
			bp_snprintf(err, errlen, "model option '%.*s': CPUs from 1 to %d",
				    (int)len, opt, SIM_MAX_CPUS);
		else
			bp_snprintf(err, errlen, "unknown model option '%.*s' (known: x2apic, "
				    "fmt=0..15, cpus=N, held)", (int)len, opt);
		return -1;
	}
	return 0;
}

static void reset_cpu(struct sim_cpu *c, u32 index, bool x2apic)
{
	bp_memset(c, 0, sizeof(*c));
	c->index = index;
	c->core = sim.model->core[index % sim.model->ncpus];	/* cpus=N repeats the pattern */
	sim_pmu_reset(c);
	sim_apic_reset(c, x2apic);
	sim_ibs_reset(c);
}

const struct hw_ops *sim_open(const char *spec, char *err, size_t errlen)
{
	return sim_open_cpus(spec, 0, err, errlen);
}

const struct hw_ops *sim_open_cpus(const char *spec, u32 min_cpus, char *err, size_t errlen)
{
	char name[24], known[96];
	struct model_opts o;

	if (parse_spec(spec, name, sizeof(name), &o, err, errlen))
		return NULL;
	const struct sim_model *m = sim_find_model(name);
	if (!m) {
		known_models(known, sizeof(known));
		bp_snprintf(err, errlen, "unknown CPU model '%s' (known: %s)", name, known);
		return NULL;
	}
	if (o.x2apic && !(m->leaf1_ecx & CPUID_01_ECX_X2APIC)) {
		bp_snprintf(err, errlen, "model '%s' has no x2APIC (CPUID.01H:ECX[21] = 0)", m->name);
		return NULL;
	}
	bp_memset(&sim, 0, sizeof(sim));
	sim.variant = *m;
	if (o.pebs_format >= 0)
		sim.variant.perf_capabilities = (m->perf_capabilities & ~GENMASK(11, 8)) |
						((u64)o.pebs_format << 8);
	/* An Architectural PEBS part given an adaptive format (cwf,fmt=5) is
	 * the same core with DS-based adaptive PEBS, baseline included: the
	 * differential test's other half (tests/unit/test_sampling_apebs.c). */
	if (o.pebs_format >= 4 && o.pebs_format < PERF_CAP_PEBS_FORMAT_ARCH &&
	    FIELD(m->perf_capabilities, 11, 8) == PERF_CAP_PEBS_FORMAT_ARCH)
		sim.variant.perf_capabilities |= PERF_CAP_PEBS_BASELINE;
	sim.model = &sim.variant;
	sim.ncpus = o.cpus ? o.cpus : MIN(MAX((u32)m->ncpus, min_cpus), (u32)SIM_MAX_CPUS);
	sim.open = true;
	for (u32 i = 0; i < sim.ncpus; i++)
		reset_cpu(&sim.cpu[i], i, o.x2apic);
	sim_msr_counts_reset();
	if (o.held)
		sim_inject_ignored_writes(m->amd ? MSR_AMD_PERF_CNTR_GLOBAL_CTL : MSR_IA32_PERF_GLOBAL_CTRL);
	bp_snprintf(sim.name, sizeof(sim.name), "sim:%s", m->name);
	sim_ops.name = sim.name;
	return &sim_ops;
}

void sim_close(void)
{
	sim.open = false;
	sim.hook = NULL;
}

const char *sim_default_model(void) { return "icx"; }
bool sim_is_open(void) { return sim.open; }

/* ---- CPUs ----------------------------------------------------------------- */

u32 sim_cpu_count(void) { return sim.ncpus; }
u32 sim_current_cpu(void) { return sim.cur; }

void sim_set_cpu(u32 cpu)
{
	if (cpu >= sim.ncpus) {
		sim_model_error("sim_set_cpu(%u): the model has %u CPUs", cpu, sim.ncpus);
		return;
	}
	sim.cur = cpu;
}

void sim_set_cpl(u8 cpl)
{
	if (cpl > 3) {
		sim_model_error("sim_set_cpl(%u): privilege levels are 0..3", cpl);
		return;
	}
	sim_cur()->cpl = cpl;
}

u8 sim_cpl(void) { return sim_cur()->cpl; }
u64 sim_tsc(void) { return sim_cur()->tsc; }
void sim_tsc_catch_up(u64 tsc)
{
	struct sim_cpu *c = sim_cur();
	if (c->tsc < tsc)
		c->tsc = tsc;
}
bool sim_pebs_at_overflow(unsigned counter)
{
	const struct sim_core_desc *core = sim_cur()->core;
	if (counter >= GLOBAL_FIXED_SHIFT)
		return (counter - GLOBAL_FIXED_SHIFT) < 32 &&
		       (core->pdist_fixed & BIT(counter - GLOBAL_FIXED_SHIFT));
	return core->pdist_gp & BIT(counter);
}
void sim_set_gprs(const struct sim_gprs *g) { sim_cur()->gprs = *g; }
void sim_set_pmi_hook(sim_irq_hook hook, void *ctx)
{
	sim.hook = hook;
	sim.hook_ctx = ctx;
}

/* ---- statistics ------------------------------------------------------------- */

void sim_stats_get(u32 cpu, struct sim_stats *out)
{
	bp_memset(out, 0, sizeof(*out));
	if (cpu < sim.ncpus)
		*out = sim.cpu[cpu].stats;
}

/* Every field of struct sim_stats is a u64 count, so the sum goes field
 * by field over the struct as an array: a new field cannot be left out. */
void sim_stats_total(struct sim_stats *out)
{
	enum { FIELDS = sizeof(struct sim_stats) / sizeof(u64) };
	_Static_assert(sizeof(struct sim_stats) % sizeof(u64) == 0, "sim_stats holds u64s only");
	u64 *sum = (u64 *)out;

	bp_memset(out, 0, sizeof(*out));
	for (u32 i = 0; i < sim.ncpus; i++) {
		const u64 *one = (const u64 *)&sim.cpu[i].stats;
		for (unsigned f = 0; f < FIELDS; f++)
			sum[f] += one[f];
	}
}

void sim_stats_reset(void)
{
	for (u32 i = 0; i < sim.ncpus; i++)
		bp_memset(&sim.cpu[i].stats, 0, sizeof(sim.cpu[i].stats));
	sim.last_error[0] = 0;
}

/* ---- snapshots ------------------------------------------------------------- */

const struct sim_cpu_regs *sim_regs(void) { return &sim_cur()->r; }

void sim_snapshot(struct sim_snapshot *s)
{
	bp_memset(s, 0, sizeof(*s));
	s->ncpus = sim.ncpus;
	for (u32 i = 0; i < sim.ncpus; i++)
		s->cpu[i] = sim.cpu[i].r;
}

#define REG_FIELD(f, n) { #f, __builtin_offsetof(struct sim_cpu_regs, f), \
	sizeof(((struct sim_cpu_regs *)0)->f) / (n), n }
static const struct reg_field {
	const char *name;
	size_t offset, size;
	unsigned count;
} reg_fields[] = {
	REG_FIELD(pmc, SIM_MAX_GP), REG_FIELD(evtsel, SIM_MAX_GP),
	REG_FIELD(fixed, SIM_MAX_FIXED), REG_FIELD(fixed_ctrl, 1),
	REG_FIELD(global_ctrl, 1), REG_FIELD(global_status, 1),
	REG_FIELD(pebs_enable, 1), REG_FIELD(pebs_data_cfg, 1),
	REG_FIELD(ld_lat_threshold, 1), REG_FIELD(pebs_frontend, 1), REG_FIELD(ds_area, 1),
	REG_FIELD(pebs_base, 1), REG_FIELD(pebs_index, 1), REG_FIELD(cfg_c, SIM_MAX_GP),
	REG_FIELD(cfg_c_fixed, SIM_MAX_FIXED),
	REG_FIELD(debugctl, 1), REG_FIELD(misc_enable, 1),
	REG_FIELD(offcore_rsp, 2), REG_FIELD(apic_base, 1),
	REG_FIELD(apic_tpr, 1), REG_FIELD(apic_spiv, 1),
	REG_FIELD(apic_icr_low, 1), REG_FIELD(apic_icr_high, 1),
	REG_FIELD(lvt_timer, 1), REG_FIELD(lvt_pc, 1), REG_FIELD(lvt_lint0, 1),
	REG_FIELD(lvt_lint1, 1), REG_FIELD(lvt_error, 1), REG_FIELD(isr, 8),
	/* IBS's controls; its sample registers hold the last sample's
	 * data, which no sampler puts back (Linux's ibs.c never writes
	 * them), so they are not compared. */
	REG_FIELD(irr, 8), REG_FIELD(eilvt, 4), REG_FIELD(ibs_fetch_ctl, 1),
	REG_FIELD(ibs_op_ctl, 1),
};

static u64 field_value(const struct sim_cpu_regs *r, const struct reg_field *f, unsigned i)
{
	const u8 *p = (const u8 *)r + f->offset + f->size * i;
	u64 v = 0;
	bp_memcpy(&v, p, f->size);
	return v;
}

bool sim_snapshot_equal(const struct sim_snapshot *a, const struct sim_snapshot *b,
			char *diff, size_t difflen)
{
	if (a->ncpus != b->ncpus) {
		bp_snprintf(diff, difflen, "CPU count %u != %u", a->ncpus, b->ncpus);
		return false;
	}
	for (u32 cpu = 0; cpu < a->ncpus; cpu++)
		for (size_t k = 0; k < ARRAY_SIZE(reg_fields); k++) {
			const struct reg_field *f = &reg_fields[k];
			for (unsigned i = 0; i < f->count; i++) {
				u64 va = field_value(&a->cpu[cpu], f, i);
				u64 vb = field_value(&b->cpu[cpu], f, i);
				if (va == vb)
					continue;
				if (f->count > 1)
					bp_snprintf(diff, difflen, "cpu%u %s[%u]: 0x%llx != 0x%llx",
						    cpu, f->name, i, (unsigned long long)va,
						    (unsigned long long)vb);
				else
					bp_snprintf(diff, difflen, "cpu%u %s: 0x%llx != 0x%llx", cpu,
						    f->name, (unsigned long long)va,
						    (unsigned long long)vb);
				return false;
			}
		}
	if (difflen)
		diff[0] = 0;
	return true;
}

/* ---- fault injection that is not PMU logic ---------------------------------- */

/* Adds msr to an injection list of n MSRs (msr 0 empties it). */
static void msr_list_add(u32 *list, size_t n, u32 msr, const char *what)
{
	if (msr == 0) {
		bp_memset(list, 0, n * sizeof(*list));
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (list[i] == 0) {
			list[i] = msr;
			return;
		}
	sim_model_error("more than %u MSRs with %s", (unsigned)n, what);
}

void sim_inject_ignored_writes(u32 msr)
{
	msr_list_add(sim.ignored_writes, ARRAY_SIZE(sim.ignored_writes), msr, "ignored writes");
}

void sim_inject_faulting_reads(u32 msr)
{
	msr_list_add(sim.faulting_reads, ARRAY_SIZE(sim.faulting_reads), msr, "faulting reads");
}

void sim_inject_dead_counters(u64 mask) { sim_cur()->dead_counters = mask; }
