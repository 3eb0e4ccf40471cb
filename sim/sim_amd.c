/* AMD's core performance counters (AMD64 APM Vol. 2, "Performance
 * Monitoring Counters"), with Linux's KVM (arch/x86/kvm/svm/pmu.c and
 * arch/x86/kvm/pmu.c) as the reference where the APM is silent on what the
 * hardware does: which MSRs exist (the legacy K7 registers alias counters
 * 0-3, PerfCtrExtCore's six CTL/CTR pairs, PerfMonV2's globals), PERF_CTL's
 * reserved bits, 48-bit counters, RDPMC. The registers live in the same
 * struct sim_cpu_regs as Intel's (evtsel, pmc, global_ctrl/status: bit i is
 * counter i in both), so counting (sim_count.c), the PMI (sim_pmu.c) and
 * snapshots serve both. IBS is sim_ibs.c's. */
#include "sim_int.h"

static bool perfctr_core(void)
{
	return sim.model->ext1_ecx & CPUID_8000_0001_ECX_PERFCTR_CORE;
}

static u64 counter_bits(const struct sim_cpu *c) { return GENMASK(c->core->num_gp - 1, 0); }

static bool in_block(u32 msr, u32 first, u32 n) { return msr >= first && msr < first + n; }

static bool is_global(u32 msr)
{
	return in_block(msr, MSR_AMD_PERF_CNTR_GLOBAL_STATUS, 4);	/* STATUS, CTL, CLR, SET */
}

bool sim_amd_pmu_msr(u32 msr)
{
	return in_block(msr, MSR_K7_EVNTSEL0, 2 * AMD_LEGACY_COUNTERS) ||
	       in_block(msr, MSR_AMD_PERF_CTL0, 2 * AMD_CORE_EXT_COUNTERS) || is_global(msr);
}

enum amd_reg { AMD_CTL, AMD_CTR };

/* The counter an MSR names, or -1. The legacy EVNTSEL0-3 (C001_0000H) and
 * PERFCTR0-3 (C001_0004H) name counters 0-3 on every part; with
 * PerfCtrExtCore PERF_CTLn is at C001_0200H + 2n and PERF_CTRn right
 * after it (KVM's get_gp_pmc_amd; arch/x86/kvm/pmu.c: "MSR_F15H_PERF_CTR[0-3]
 * are aliased to MSR_K7_PERFCTRn"). */
static int amd_counter(const struct sim_cpu *c, u32 msr, enum amd_reg *reg)
{
	if (in_block(msr, MSR_K7_EVNTSEL0, AMD_LEGACY_COUNTERS)) {
		*reg = AMD_CTL;
		return (int)(msr - MSR_K7_EVNTSEL0);
	}
	if (in_block(msr, MSR_K7_PERFCTR0, AMD_LEGACY_COUNTERS)) {
		*reg = AMD_CTR;
		return (int)(msr - MSR_K7_PERFCTR0);
	}
	if (!perfctr_core() || !in_block(msr, MSR_AMD_PERF_CTL0, 2 * c->core->num_gp))
		return -1;
	*reg = ((msr - MSR_AMD_PERF_CTL0) & 1) ? AMD_CTR : AMD_CTL;
	return (int)((msr - MSR_AMD_PERF_CTL0) / 2);
}

static int no_such_msr(u32 msr, struct hw_fault *f)
{
	if (is_global(msr))
		return sim_gp(f, "MSR 0x%x: the PerfMonV2 global registers need "
			      "CPUID.80000022H:EAX.PerfMonV2[0] (model '%s' has none)",
			      msr, sim.model->name);
	return sim_gp(f, "MSR 0x%x is not implemented by model '%s' (an AMD part: no "
		      "IA32 PMU, MISC_ENABLE, PERF_CAPABILITIES or DS MSRs)", msr, sim.model->name);
}

/* ---- reset ------------------------------------------------------------------ */

/* PerfCntrGlobalCtl resets with every counter's enable set, as Intel's
 * GLOBAL_CTRL does: KVM emulates that post-RESET value for PerfMonV2
 * (commit de120e1d692d, "AMD also documents this behavior for PerfMonV2
 * CPUs in one of AMD's PPRs"), so software that knows only PERF_CTL.En
 * counts. */
void sim_amd_reset(struct sim_cpu *c)
{
	c->r.global_ctrl = sim_amd_v2() ? counter_bits(c) : 0;
}

/* ---- reads -------------------------------------------------------------------- */

/* PerfCntrGlobalStatusClr and StatusSet read as 0 (KVM's kvm_pmu_get_msr). */
static u64 read_global(const struct sim_cpu *c, u32 msr)
{
	if (msr == MSR_AMD_PERF_CNTR_GLOBAL_STATUS)
		return c->r.global_status;
	if (msr == MSR_AMD_PERF_CNTR_GLOBAL_CTL)
		return c->r.global_ctrl;
	return 0;
}

int sim_amd_rdmsr(struct sim_cpu *c, u32 msr, u64 *val, struct hw_fault *f)
{
	enum amd_reg reg;
	int i = amd_counter(c, msr, &reg);
	if (i >= 0) {
		*val = reg == AMD_CTL ? c->r.evtsel[i] : c->r.pmc[i];
		return 0;
	}
	if (is_global(msr) && sim_amd_v2()) {
		*val = read_global(c, msr);
		return 0;
	}
	if (msr == MSR_IA32_DEBUGCTL) {
		*val = c->r.debugctl;
		return 0;
	}
	return no_such_msr(msr, f);
}

/* RDPMC (APM Vol. 3, RDPMC): ECX 0-5 read core counters 0-5 whole (48
 * bits, zero-extended); other indexes select the DF and L3 counters this
 * model does not have, and #GP (KVM's amd_check_rdpmc_early: "an invalid
 * PMC results in a #GP"). No fixed counters, no fast-read bit. */
int sim_amd_rdpmc(struct sim_cpu *c, u32 ecx, u64 *val, struct hw_fault *f)
{
	*val = 0;
	f->msr = 0;
	f->write = false;
	if (ecx >= c->core->num_gp)
		return sim_gp(f, "RDPMC ECX 0x%x: no core counter %u (0-%u; DF and L3 "
			      "counters are not modelled)", ecx, ecx, c->core->num_gp - 1u);
	*val = c->r.pmc[ecx];
	return 0;
}

/* ---- writes -------------------------------------------------------------------- */

/* PERF_CTL: reserved bits are dropped, not faulted: "AMD EPYC CPUs never
 * raise a #GP for a WRMSR to a PerfEvtSeln MSR" (Linux commit
 * 9b026073db2f; KVM's amd_pmu_set_msr clears pmu->reserved_bits). Bits
 * 41:40 (HostOnly, GuestOnly) exist on these SVM parts. */
static void write_ctl(struct sim_cpu *c, int i, u64 val)
{
	if (val & AMD_EVTSEL_RESERVED)
		c->stats.reserved_dropped++;
	c->r.evtsel[i] = val & ~AMD_EVTSEL_RESERVED;
}

/* PERF_CTR: 48 bits; a write keeps them whole (no sign extension, unlike
 * Intel's IA32_PMCx) and drops bits 63:48 (KVM's pmc_write_counter masks
 * to counter_bitmask = 2^48 - 1). */
static void write_ctr(struct sim_cpu *c, int i, u64 val)
{
	c->r.pmc[i] = val & width_mask(c->core->gp_width);
}

/* PerfMonV2's globals (APM Vol. 2, "Global Control" and "Global
 * Status"): status is read-only, and "AMD ignores writes to reserved bits
 * and read-only PMU MSRs" (KVM's kvm_pmu_set_msr): no #GP, bits beyond the
 * counters dropped. StatusClr clears, StatusSet sets (no PMI). */
static void write_global(struct sim_cpu *c, u32 msr, u64 val)
{
	val &= counter_bits(c);
	switch (msr) {
	case MSR_AMD_PERF_CNTR_GLOBAL_CTL:
		c->r.global_ctrl = val;
		break;
	case MSR_AMD_PERF_CNTR_GLOBAL_STATUS_CLR:
		c->r.global_status &= ~(val & ~c->stuck_status);
		break;
	case MSR_AMD_PERF_CNTR_GLOBAL_STATUS_SET:
		c->r.global_status |= val;
		break;
	default:	/* PerfCntrGlobalStatus: "Per PPR, Read-only MSR. Writes are ignored." */
		break;
	}
}

/* DebugCtl (APM Vol. 2, "Debug-Control MSR"): LBR, BTF, PB0-3 in bits
 * 5:0; with LbrAndPmcFreeze also the freeze-on-PMI bits: 11 for the LBRs
 * (Linux's amd_pmu_lbr_enable_all sets DEBUGCTLMSR_FREEZE_LBRS_ON_PMI) and,
 * taken in Intel's layout, 12 for the counters. The model does not
 * emulate freezing: setting them is loud. */
static int write_debugctl(struct sim_cpu *c, u64 val, struct hw_fault *f)
{
	u64 freeze = DEBUGCTL_FREEZE_LBRS_ON_PMI | DEBUGCTL_FREEZE_PERFMON_ON_PMI;
	u64 valid = GENMASK(5, 0);
	if (sim.model->ext22_eax & CPUID_8000_0022_EAX_LBR_PMC_FREEZE)
		valid |= freeze;
	if (val & ~valid)
		return sim_gp(f, "DebugCtl: reserved bits 0x%llx set (valid bits 0x%llx)",
			      (unsigned long long)(val & ~valid), (unsigned long long)valid);
	if (val & freeze)
		return sim_gp(f, "DebugCtl: freezing on PMI is not emulated by the model");
	c->r.debugctl = val;
	return 0;
}

int sim_amd_wrmsr(struct sim_cpu *c, u32 msr, u64 val, struct hw_fault *f)
{
	enum amd_reg reg;
	int i = amd_counter(c, msr, &reg);
	if (i >= 0) {
		if (reg == AMD_CTL)
			write_ctl(c, i, val);
		else
			write_ctr(c, i, val);
		return 0;
	}
	if (is_global(msr) && sim_amd_v2()) {
		write_global(c, msr, val);
		return 0;
	}
	if (msr == MSR_IA32_DEBUGCTL)
		return write_debugctl(c, val, f);
	return no_such_msr(msr, f);
}

/* ---- events in Intel's encoding ---------------------------------------------- */

/* What the drive's workload profiles and the machine's retirement report
 * (in Intel's encoding: arch/exec.h, sim_machine.c) as the AMD events that
 * count it (arch/msr.h, AMD section). Branches: ex_ret_brn and
 * ex_ret_brn_misp; loads and stores: ls_dispatch's sub-events and
 * ls_dc_accesses; a load served by the last-level cache or by memory: a
 * demand fill from the CCX's L3 or from near DRAM. The machine's one
 * level between L1 and memory stands for L2 in Linux's cache-references
 * (L2 requests, 0xFF60) and cache-misses (L2 misses, 0x0964): a
 * reference is a data read request, a miss a data request that missed
 * (amd_zen2/zen4_perfmon_event_map). Taken branches (0xC4)
 * have no Intel counterpart here: inject them with sim_event. */
static const struct intel_to_amd {
	u8 event, umask;
	u16 amd_event;
	u8 amd_umask;
} intel_to_amd[] = {
	{ ARCH_CODE_BRANCH_RETIRED, ARCH_UMASK_BRANCH_RETIRED, AMD_EVENT_RETIRED_BRANCHES, 0 },
	{ ARCH_CODE_BRANCH_MISSES, ARCH_UMASK_BRANCH_MISSES, AMD_EVENT_RETIRED_BRANCH_MISPRED, 0 },
	{ EVENT_MEM_INST_RETIRED, UMASK_MEM_INST_RETIRED_ALL_LOADS,
	  AMD_EVENT_LS_DISPATCH, AMD_UMASK_LS_DISPATCH_LD },
	{ EVENT_MEM_INST_RETIRED, UMASK_MEM_INST_RETIRED_ALL_LOADS, AMD_EVENT_LS_DC_ACCESSES, 0 },
	{ EVENT_MEM_INST_RETIRED, UMASK_MEM_INST_RETIRED_ALL_STORES,
	  AMD_EVENT_LS_DISPATCH, AMD_UMASK_LS_DISPATCH_ST },
	{ EVENT_MEM_INST_RETIRED, UMASK_MEM_INST_RETIRED_ALL_STORES, AMD_EVENT_LS_DC_ACCESSES, 0 },
	{ EVENT_MEM_LOAD_RETIRED, UMASK_MEM_LOAD_RETIRED_L3_HIT,
	  AMD_EVENT_LS_DMND_FILLS, AMD_UMASK_FILLS_LOCAL_CCX },
	{ EVENT_MEM_LOAD_RETIRED, UMASK_MEM_LOAD_RETIRED_L3_MISS,
	  AMD_EVENT_LS_DMND_FILLS, AMD_UMASK_FILLS_DRAM_NEAR },
	{ ARCH_CODE_LLC_REFERENCES, ARCH_UMASK_LLC_REFERENCES,
	  AMD_EVENT_L2_REQUEST_G1, AMD_UMASK_L2_RD_BLK_L },
	{ ARCH_CODE_LLC_MISSES, ARCH_UMASK_LLC_MISSES,
	  AMD_EVENT_L2_CACHE_REQ_STAT, AMD_UMASK_L2_LS_RD_BLK_C },
};

void sim_event_from_intel(const struct sim_occ *o)
{
	if (!sim_amd()) {
		sim_event(o);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(intel_to_amd); i++) {
		const struct intel_to_amd *t = &intel_to_amd[i];
		if (t->event != o->event || t->umask != o->umask)
			continue;
		struct sim_occ a = *o;
		a.event = t->amd_event;
		a.umask = t->amd_umask;
		sim_event(&a);
	}
}

bool sim_amd_memory_event(u64 sel)
{
	u16 ev = AMD_EVTSEL_EVENT_12BIT(sel);
	return ev == AMD_EVENT_LS_DISPATCH || ev == AMD_EVENT_LS_DC_ACCESSES ||
	       ev == AMD_EVENT_LS_DMND_FILLS || ev == AMD_EVENT_L2_REQUEST_G1 ||
	       ev == AMD_EVENT_L2_CACHE_REQ_STAT;
}
