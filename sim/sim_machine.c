/* The model inside a machine (sim_machine.h): the machine's memory and
 * APIC replace the model's own, and what the guest really retires drives
 * the counters. */
#include "sim_int.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/str.h"

/* The machine's retirement feeds the architectural events (branches,
 * branch misses, LLC references and misses) and the memory events of
 * Skylake and later cores (MEM_INST_RETIRED, MEM_TRANS_RETIRED.LOAD_LATENCY,
 * MEM_LOAD_RETIRED), all named in arch/msr.h. */

/* What the cost model says of each level: load latency in core cycles,
 * and the SDM's load data-source encoding (Table "Data Source Encoding
 * for Load Latency Record": 1 L1 hit, 4 L3 hit no snoop, 0xC local DRAM). */
static const struct level_cost {
	u64 latency, data_src;
} level_cost[3] = {
	[SIM_MACHINE_L1] = { 4, 0x1 },
	[SIM_MACHINE_LLC] = { 40, 0x4 },
	[SIM_MACHINE_MEMORY] = { 200, 0xC },
};

void sim_mem_read(u64 la, void *buf, u32 len)
{
	if (sim.machine)
		sim.machine->read(sim.machine_ctx, la, buf, len);
	else
		bp_memcpy(buf, (const void *)(uintptr_t)la, len);
}

void sim_mem_write(u64 la, const void *buf, u32 len)
{
	if (sim.machine)
		sim.machine->write(sim.machine_ctx, la, buf, len);
	else
		bp_memcpy((void *)(uintptr_t)la, buf, len);
}

/* In a machine, what the model cannot emulate (a PEBS write outside the
 * buffer, say) is the guest's doing: say so on the machine's console and
 * go on, as the hardware would, rather than stop the machine. */
static void report_model_error(const struct hw_fault *f)
{
	err_printf("bareperf PMU model, CPU %u: %s\n", sim.cur, f->rule);
}

int sim_machine_open(const char *spec, uint32_t ncpus, const struct sim_machine_ops *ops,
		     void *ctx, char *err, size_t errlen)
{
	char full[64];
	if (ncpus < 1 || ncpus > SIM_MAX_CPUS) {
		bp_snprintf(err, errlen, "the PMU model has 1 to %d CPUs, the machine %u",
			    SIM_MAX_CPUS, ncpus);
		return -1;
	}
	bp_snprintf(full, sizeof(full), "%s,cpus=%u", spec, ncpus);
	if (!sim_open(full, err, errlen))
		return -1;
	sim.machine = ops;
	sim.machine_ctx = ctx;
	hw_set_fault_handler(report_model_error);
	return 0;
}

uint32_t sim_machine_cpus(void) { return sim.ncpus; }

static bool select_cpu(uint32_t cpu)
{
	if (!sim.open || cpu >= sim.ncpus)
		return false;
	sim.cur = cpu;
	return true;
}

void sim_machine_cpuid(uint32_t cpu, uint32_t leaf, uint32_t sub, uint32_t out[4])
{
	struct cpuid_regs r = { 0 };
	if (select_cpu(cpu))
		sim_model_cpuid(sim.model, cpu, leaf, sub, &r);
	out[0] = r.eax;
	out[1] = r.ebx;
	out[2] = r.ecx;
	out[3] = r.edx;
}

static bool in_block(u32 msr, u32 first, u32 n) { return msr >= first && msr < first + n; }

bool sim_machine_owns_msr(uint32_t msr)
{
	if (sim.open && sim_amd())
		return sim_amd_pmu_msr(msr) || msr == MSR_IA32_DEBUGCTL || sim_ibs_msr(msr);
	switch (msr) {
	case MSR_IA32_DEBUGCTL:
	case MSR_IA32_PERF_CAPABILITIES:
	case MSR_IA32_FIXED_CTR_CTRL:
	case MSR_IA32_PERF_GLOBAL_STATUS:
	case MSR_IA32_PERF_GLOBAL_CTRL:
	case MSR_IA32_PERF_GLOBAL_STATUS_RESET:
	case MSR_IA32_PERF_GLOBAL_STATUS_SET:
	case MSR_IA32_PERF_GLOBAL_INUSE:
	case MSR_IA32_PEBS_ENABLE:
	case MSR_PEBS_DATA_CFG:
	case MSR_PEBS_LD_LAT_THRESHOLD:
	case MSR_PEBS_FRONTEND:
	case MSR_IA32_DS_AREA:
	case MSR_IA32_PEBS_BASE:	/* Architectural PEBS */
	case MSR_IA32_PEBS_INDEX:
	case MSR_OFFCORE_RSP_0:
	case MSR_OFFCORE_RSP_1:
		return true;
	}
	return in_block(msr, MSR_IA32_PMC0, MSR_LEGACY_GP_MAX) ||
	       in_block(msr, MSR_IA32_A_PMC0, MSR_LEGACY_GP_MAX) ||
	       in_block(msr, MSR_IA32_PERFEVTSEL0, MSR_LEGACY_GP_MAX) ||
	       in_block(msr, MSR_IA32_FIXED_CTR0, MSR_LEGACY_FIXED_MAX) ||
	       in_block(msr, MSR_IA32_PMC_GP0_CTR, MSR_IA32_PMC_V6_GP_MAX * MSR_IA32_PMC_V6_STEP) ||
	       in_block(msr, MSR_IA32_PMC_FX0_CTR, MSR_IA32_PMC_V6_FX_MAX * MSR_IA32_PMC_V6_STEP);
}

static int access_result(int rc, const struct hw_fault *f, char *why, size_t whylen)
{
	if (rc && why)
		bp_strlcpy(why, f->rule, whylen);
	return rc ? 1 : 0;
}

int sim_machine_rdmsr(uint32_t cpu, uint32_t msr, uint64_t *val, char *why, size_t whylen)
{
	struct hw_fault f = { .msr = msr, .write = false };
	if (!select_cpu(cpu))
		return access_result(sim_gp(&f, "no PMU model for CPU %u", cpu), &f, why, whylen);
	u64 v = 0;
	int rc = sim_ibs_msr(msr) ? sim_ibs_rdmsr(sim_cur(), msr, &v, &f) :
				    sim_pmu_rdmsr(sim_cur(), msr, &v, &f);
	*val = v;
	return access_result(rc, &f, why, whylen);
}

int sim_machine_wrmsr(uint32_t cpu, uint32_t msr, uint64_t val, char *why, size_t whylen)
{
	struct hw_fault f = { .msr = msr, .value = val, .write = true };
	if (!select_cpu(cpu))
		return access_result(sim_gp(&f, "no PMU model for CPU %u", cpu), &f, why, whylen);
	int rc = sim_ibs_msr(msr) ? sim_ibs_wrmsr(sim_cur(), msr, val, &f) :
				    sim_pmu_wrmsr(sim_cur(), msr, val, &f);
	return access_result(rc, &f, why, whylen);
}

/* An IBS unit counts (IbsOpEn, IbsFetchEn): retirement drives it too. */
static bool ibs_counting(const struct sim_cpu *c)
{
	return (c->r.ibs_op_ctl & IBS_OP_ENABLE) || (c->r.ibs_fetch_ctl & IBS_FETCH_ENABLE);
}

static bool counting_or_sampling(void) { return sim_any_counting() || ibs_counting(sim_cur()); }

int sim_machine_rdpmc(uint32_t cpu, uint32_t ecx, uint64_t *val, char *why, size_t whylen)
{
	struct hw_fault f = { 0 };
	if (!select_cpu(cpu))
		return access_result(sim_gp(&f, "no PMU model for CPU %u", cpu), &f, why, whylen);
	u64 v = 0;
	int rc = sim_pmu_rdpmc(sim_cur(), ecx, &v, &f);
	*val = v;
	return access_result(rc, &f, why, whylen);
}

uint64_t sim_machine_misc_enable_bits(uint32_t cpu, uint64_t *mask)
{
	*mask = MISC_ENABLE_PERF_MON_AVAILABLE | MISC_ENABLE_BTS_UNAVAILABLE |
		MISC_ENABLE_PEBS_UNAVAILABLE;
	if (sim.open && sim_amd())
		*mask = 0;	/* no IA32_MISC_ENABLE on AMD: the machine's own stays */
	return select_cpu(cpu) ? sim_cur()->r.misc_enable & *mask : 0;
}

static void set_registers(const struct sim_machine_retired *r)
{
	struct sim_gprs g = {
		.rax = r->gpr[0], .rcx = r->gpr[1], .rdx = r->gpr[2], .rbx = r->gpr[3],
		.rsp = r->gpr[4], .rbp = r->gpr[5], .rsi = r->gpr[6], .rdi = r->gpr[7],
		.r8 = r->gpr[8], .r9 = r->gpr[9], .r10 = r->gpr[10], .r11 = r->gpr[11],
		.r12 = r->gpr[12], .r13 = r->gpr[13], .r14 = r->gpr[14], .r15 = r->gpr[15],
		.rflags = r->rflags,
	};
	bp_memcpy(g.xmm, r->xmm, sizeof(g.xmm));
	sim_set_gprs(&g);
}

static void retire_events(u8 event, u8 umask, u64 count, const struct sim_machine_retired *r,
			  int level)
{
	if (!count)
		return;
	struct sim_occ o = { .event = event, .umask = umask, .count = count, .ip = r->ip,
			     .next_ip = r->next_ip, .data_addr = r->data_addr };
	/* A load's instruction latency (and so its retire latency) is its
	 * level's: the cost model has no other stall in it. */
	if (level >= 0) {
		o.latency = level_cost[level].latency;
		o.instr_latency = (u16)level_cost[level].latency;
		o.data_src = level_cost[level].data_src;
	}
	sim_event_from_intel(&o);	/* AMD parts count their own events for it */
}

/* The deepest level any of a slice's loads reached. */
static int deepest_level(const u64 *ld)
{
	return ld[SIM_MACHINE_MEMORY] ? SIM_MACHINE_MEMORY :
	       ld[SIM_MACHINE_LLC] ? SIM_MACHINE_LLC : SIM_MACHINE_L1;
}

static void retire_memory(const struct sim_machine_retired *r)
{
	const u64 *ld = r->loads;
	int last = deepest_level(ld);
	retire_events(ARCH_CODE_LLC_REFERENCES, ARCH_UMASK_LLC_REFERENCES, r->llc_references,
		      r, last);
	retire_events(ARCH_CODE_LLC_MISSES, ARCH_UMASK_LLC_MISSES, r->llc_misses, r, last);
	retire_events(EVENT_MEM_INST_RETIRED, UMASK_MEM_INST_RETIRED_ALL_LOADS,
		      ld[0] + ld[1] + ld[2], r, last);
	retire_events(EVENT_MEM_INST_RETIRED, UMASK_MEM_INST_RETIRED_ALL_STORES, r->stores, r, -1);
	/* loads by latency: the big cores' event, or the E-cores' */
	bool atom = sim_cur()->core->atom_ld_lat;
	for (int lv = SIM_MACHINE_L1; lv <= SIM_MACHINE_MEMORY; lv++)
		retire_events(atom ? EVENT_MEM_INST_RETIRED : EVENT_MEM_TRANS_RETIRED,
			      atom ? UMASK_MEM_UOPS_RETIRED_LOAD_LATENCY : UMASK_LOAD_LATENCY,
			      ld[lv], r, lv);
	retire_events(EVENT_MEM_LOAD_RETIRED, UMASK_MEM_LOAD_RETIRED_L1_HIT,
		      ld[SIM_MACHINE_L1], r, SIM_MACHINE_L1);
	retire_events(EVENT_MEM_LOAD_RETIRED, UMASK_MEM_LOAD_RETIRED_L1_MISS,
		      ld[SIM_MACHINE_LLC] + ld[SIM_MACHINE_MEMORY], r, last);
	retire_events(EVENT_MEM_LOAD_RETIRED, UMASK_MEM_LOAD_RETIRED_L3_HIT,
		      ld[SIM_MACHINE_LLC], r, SIM_MACHINE_LLC);
	retire_events(EVENT_MEM_LOAD_RETIRED, UMASK_MEM_LOAD_RETIRED_L3_MISS,
		      ld[SIM_MACHINE_MEMORY], r, SIM_MACHINE_MEMORY);
}

/* On AMD, a slice of one instruction that loaded once (the slice the
 * machine ends at an IBS tag): the run's op is that load, at the level the
 * cache model served it from, so a tag there reads as a load (sim_ibs.c).
 * Intel's PEBS records of run events keep no data address. */
static void single_load(const struct sim_machine_retired *r, struct sim_point *pt)
{
	const u64 *ld = r->loads;
	if (!sim_amd() || r->instructions != 1 || ld[0] + ld[1] + ld[2] != 1 || r->stores ||
	    !r->data_addr)
		return;
	int level = deepest_level(ld);
	pt->data_addr = r->data_addr;
	pt->latency = level_cost[level].latency;
	pt->data_src = level_cost[level].data_src;
}

void sim_machine_retire(uint32_t cpu, const struct sim_machine_retired *r)
{
	if (!select_cpu(cpu) || r->cpl > 3)
		return;
	struct sim_cpu *c = sim_cur();
	c->cpl = r->cpl;
	c->tsc = r->tsc;
	if (!counting_or_sampling())
		return;
	set_registers(r);
	if (r->instructions) {
		struct sim_point pt = { .ip = r->ip, .next_ip = r->next_ip };
		single_load(r, &pt);
		sim_run_at(r->instructions, r->instructions, &pt);
	}
	retire_events(ARCH_CODE_BRANCH_RETIRED, ARCH_UMASK_BRANCH_RETIRED, r->branches, r, -1);
	retire_events(ARCH_CODE_BRANCH_MISSES, ARCH_UMASK_BRANCH_MISSES, r->branch_misses, r, -1);
	retire_memory(r);
}

uint64_t sim_machine_pebs_records(uint32_t cpu)
{
	struct sim_stats st;
	if (cpu >= sim_machine_cpus())
		return 0;
	sim_stats_get(cpu, &st);
	return st.pebs_records;
}

void sim_machine_set_cpl(uint32_t cpu, uint8_t cpl)
{
	if (select_cpu(cpu) && cpl <= 3)
		sim_cur()->cpl = cpl;
}

uint64_t sim_machine_distance(uint32_t cpu, uint64_t limit)
{
	if (!select_cpu(cpu) || limit == 0)
		return limit;
	u64 d = sim_events_until_overflow(limit);
	/* The op an IBS counter tags (one cycle per instruction here) ends
	 * a slice as an overflow does: IbsOpRip is then that op's. */
	if (ibs_counting(sim_cur()))
		d = MIN(d, sim_ibs_cycles_until_tag(sim_cur(), limit, limit));
	return d ? d : 1;
}

bool sim_machine_active(uint32_t cpu) { return select_cpu(cpu) && counting_or_sampling(); }

static bool is_memory_event(u64 sel)
{
	u8 event = (u8)(sel & EVTSEL_EVENT_MASK);
	if (sim_amd())
		return sim_amd_memory_event(sel);
	return event == ARCH_CODE_LLC_REFERENCES || event == ARCH_CODE_LLC_MISSES ||
	       event == EVENT_MEM_INST_RETIRED || event == EVENT_MEM_TRANS_RETIRED ||
	       event == EVENT_MEM_LOAD_RETIRED;
}

bool sim_machine_counts_memory(uint32_t cpu)
{
	if (!select_cpu(cpu))
		return false;
	const struct sim_cpu *c = sim_cur();
	if (sim_amd() && (c->r.ibs_op_ctl & IBS_OP_ENABLE))
		return true;
	for (unsigned i = 0; i < c->core->num_gp; i++)
		if ((c->r.evtsel[i] & EVTSEL_EN) &&
		    is_memory_event(c->r.evtsel[i]))
			return true;
	return false;
}
