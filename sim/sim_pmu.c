/* The performance-monitoring MSRs of one emulated CPU and the rules the SDM
 * (Vol. 3B ch. 20 "Performance Monitoring") gives for them: which MSRs
 * exist, which bits are reserved (#GP), how counters are written through
 * the legacy and full-width aliases, GLOBAL_CTRL/STATUS/STATUS_RESET/
 * STATUS_SET, freezing on PMI. Counting itself is in sim_count.c. */
#include "sim_int.h"
#include "../lib/str.h"

/* ---- what this CPU has ------------------------------------------------------ */

static u64 gp_bits(const struct sim_cpu *c)
{
	return c->core->num_gp ? GENMASK(c->core->num_gp - 1, 0) : 0;
}

static u64 fixed_bits(const struct sim_cpu *c)
{
	return (u64)sim_fixed_present(c->core) << GLOBAL_FIXED_SHIFT;
}

/* PERF_METRICS (329H) and GLOBAL_CTRL/STATUS bit 48 exist only where
 * PERF_CAPABILITIES says so; no model sets the bit yet (sim/README.md,
 * "Capabilities"). */
static bool has_perf_metrics(const struct sim_cpu *c)
{
	return sim_has(PERF_CAP_PERF_METRICS) && sim_version() >= 5 && c->core->slots_per_cycle;
}

/* Valid bits of IA32_PERFEVTSELi. IN_TXCP exists on IA32_PERFEVTSEL2
 * only and is reserved elsewhere (SDM Vol. 3B, "Performance Monitoring and
 * Intel TSX"; KVM's intel_pmu_set_msr, arch/x86/kvm/vmx/pmu_intel.c, lifts
 * HSW_IN_TX_CHECKPOINTED from the reserved bits for counter 2 alone). */
static u64 evtsel_valid(unsigned i)
{
	u64 v = GENMASK(31, 0);
	/* AnyThread exists from v3 and is reserved once deprecated
	 * (CPUID.0AH:EDX[15]). */
	if (sim_version() < 3 || sim_anythread_deprecated())
		v &= ~EVTSEL_ANY;
	if (sim.model->has_tsx)
		v |= EVTSEL_IN_TX | (i == 2 ? EVTSEL_IN_TXCP : 0);
	if (sim_has(PERF_CAP_PEBS_BASELINE))
		v |= EVTSEL_ADAPTIVE_RECORD;
	/* The PERFEVTSEL extension where CPUID.23H.0:EBX offers it. */
	if (sim.model->leaf7_1_eax & CPUID_07_1_EAX_ARCH_PERFMON_EXT) {
		if (sim.model->leaf23_ebx & CPUID_23_EBX_UMASK2)
			v |= EVTSEL_UMASK2_MASK;
		if (sim.model->leaf23_ebx & CPUID_23_EBX_EQ)
			v |= EVTSEL_EQ;
	}
	return v;
}

static u64 fixed_ctrl_valid(const struct sim_cpu *c)
{
	u64 field = FIXED_CTRL_OS | FIXED_CTRL_USR | FIXED_CTRL_PMI;
	u64 v = 0;
	if (sim_version() >= 3 && !sim_anythread_deprecated())
		field |= FIXED_CTRL_ANY;
	for (unsigned i = 0; i < c->core->num_fixed; i++) {
		if (!sim_has_fixed(c, i))
			continue;
		v |= fixed_ctrl_field(i, field);
		if (sim_has(PERF_CAP_PEBS_BASELINE))
			v |= fixed_ctrl_adaptive(i);
	}
	return v;
}

static u64 global_ctrl_valid(const struct sim_cpu *c)
{
	return gp_bits(c) | fixed_bits(c) | (has_perf_metrics(c) ? GLOBAL_STATUS_PERF_METRICS : 0);
}

/* Bits STATUS_RESET (OVF_CTRL before v4) may clear (SDM Vol. 4, the
 * architectural MSRs: OvfBuf and CondChgd from version 1, Ovf_Uncore
 * "If CPUID.0AH: EAX[7:0] > 2"; the version 4 layout adds Trace_ToPA_PMI,
 * LBR_Frz, CTR_Frz and ASCI, bit 60, which STATUS_SET may set "If
 * CPUID.0AH: EAX[7:0] > 3"). */
static u64 status_reset_valid(const struct sim_cpu *c)
{
	u64 v = gp_bits(c) | fixed_bits(c) | GLOBAL_STATUS_OVF_BUFFER | GLOBAL_STATUS_COND_CHGD;
	if (sim_version() > 2)
		v |= GLOBAL_STATUS_OVF_UNCORE;
	if (sim_version() >= 4)
		v |= GLOBAL_STATUS_TRACE_TOPA_PMI | GLOBAL_STATUS_LBR_FRZ | GLOBAL_STATUS_CTR_FRZ |
		     GLOBAL_STATUS_ASCI;
	if (has_perf_metrics(c))
		v |= GLOBAL_STATUS_PERF_METRICS;
	if (sim_arch_pebs())
		v |= GLOBAL_STATUS_ARCH_PEBS_THRESHOLD;
	return v;
}

/* Bits STATUS_SET (v4+) may set: all of the above but CondChgd. */
static u64 status_set_valid(const struct sim_cpu *c)
{
	return status_reset_valid(c) & ~GLOBAL_STATUS_COND_CHGD;
}

static u64 pebs_enable_valid(const struct sim_cpu *c)
{
	u64 gp = c->core->pebs_gp & gp_bits(c);
	if (sim_has(PERF_CAP_PEBS_BASELINE))
		return gp | ((u64)c->core->pebs_fixed << 32 & fixed_bits(c));
	/* Before baseline, bits 32+i enable load latency on GP i (i < 4). */
	if (sim.model->has_ld_lat)
		return gp | (gp & 0xF) << PEBS_ENABLE_LL_SHIFT;
	return gp;
}

static u64 debugctl_valid(void)
{
	u64 v = DEBUGCTL_LBR | DEBUGCTL_BTF | DEBUGCTL_TR | DEBUGCTL_BTS | DEBUGCTL_BTINT |
		DEBUGCTL_BTS_OFF_OS | DEBUGCTL_BTS_OFF_USR | DEBUGCTL_FREEZE_LBRS_ON_PMI |
		DEBUGCTL_FREEZE_PERFMON_ON_PMI | DEBUGCTL_ENABLE_UNCORE_PMI;
	if (sim_has(PERF_CAP_SMM_FREEZE))
		v |= DEBUGCTL_FREEZE_WHILE_SMM;
	if (sim.model->has_tsx)
		v |= DEBUGCTL_RTM_DEBUG;
	return v;
}

static bool has_pmu(void) { return sim_version() > 0; }
/* DS-based PEBS's MSRs: gone where Architectural PEBS replaces them. */
static bool has_pebs_msrs(void)
{
	return has_pmu() && sim_ds() && sim_pdcm() && sim_pebs_format() != PERF_CAP_PEBS_FORMAT_ARCH;
}

/* ---- reset ---------------------------------------------------------------- */

void sim_pmu_reset(struct sim_cpu *c)
{
	if (sim_amd()) {
		sim_amd_reset(c);
		return;
	}
	c->r.misc_enable = sim.model->misc_enable;
	/* SDM 20.2.2: at RESET the GP enable bits of GLOBAL_CTRL are set, so
	 * software written for v1 (EN bits only) still counts. */
	if (sim_version() >= 2)
		c->r.global_ctrl = gp_bits(c);
}

/* ---- reads ---------------------------------------------------------------- */

static bool in_range(u32 msr, u32 first, unsigned n, unsigned *i)
{
	if (msr < first || msr >= first + n)
		return false;
	*i = msr - first;
	return true;
}

/* The counter registers, by the block they are reached through. */
enum counter_reg {
	REG_NONE,
	REG_PMC,	/* IA32_PMCx: writes sign-extend bit 31 */
	REG_A_PMC,	/* IA32_A_PMCx: full width, with FW_WRITE */
	REG_V6_CTR,	/* IA32_PMC_GPx_CTR: full width */
	REG_EVTSEL,	/* IA32_PERFEVTSELx, IA32_PMC_GPx_CFG_A */
	REG_FIXED,	/* IA32_FIXED_CTRx, IA32_PMC_FXx_CTR */
	REG_V6_CFG,	/* CFG_B, CFG_C: auto reload and Architectural PEBS */
};

/* Perfmon v6's block (arch/msr.h): counter n's four MSRs at first + 4n,
 * CTR, CFG_A, CFG_B and CFG_C; a fixed counter has no CFG_A. */
static enum counter_reg v6_counter_reg(const struct sim_cpu *c, u32 msr, unsigned *i)
{
	static const enum counter_reg gp[MSR_IA32_PMC_V6_STEP] = {
		REG_V6_CTR, REG_EVTSEL, REG_V6_CFG, REG_V6_CFG };
	static const enum counter_reg fx[MSR_IA32_PMC_V6_STEP] = {
		REG_FIXED, REG_NONE, REG_V6_CFG, REG_V6_CFG };
	unsigned off;
	if (in_range(msr, MSR_IA32_PMC_GP0_CTR, c->core->num_gp * MSR_IA32_PMC_V6_STEP, &off)) {
		*i = off / MSR_IA32_PMC_V6_STEP;
		return gp[off % MSR_IA32_PMC_V6_STEP];
	}
	if (in_range(msr, MSR_IA32_PMC_FX0_CTR, c->core->num_fixed * MSR_IA32_PMC_V6_STEP, &off) &&
	    sim_has_fixed(c, off / MSR_IA32_PMC_V6_STEP)) {
		*i = off / MSR_IA32_PMC_V6_STEP;
		return fx[off % MSR_IA32_PMC_V6_STEP];
	}
	return REG_NONE;
}

/* Which counter register msr is on this CPU, and whose (i). The legacy
 * blocks reach the first eight GP and four fixed counters; from v6 the
 * 1900H block reaches all (SDM Vol. 3B, "Architectural Performance
 * Monitoring Version 6"). */
static enum counter_reg counter_reg(const struct sim_cpu *c, u32 msr, unsigned *i)
{
	unsigned legacy_gp = MIN(c->core->num_gp, MSR_LEGACY_GP_MAX);
	unsigned legacy_fixed = MIN(c->core->num_fixed, MSR_LEGACY_FIXED_MAX);
	if (in_range(msr, MSR_IA32_PMC0, legacy_gp, i))
		return REG_PMC;
	if (in_range(msr, MSR_IA32_A_PMC0, legacy_gp, i))
		return REG_A_PMC;
	if (in_range(msr, MSR_IA32_PERFEVTSEL0, legacy_gp, i))
		return REG_EVTSEL;
	if (sim_version() >= 2 && in_range(msr, MSR_IA32_FIXED_CTR0, legacy_fixed, i) &&
	    sim_has_fixed(c, *i))
		return REG_FIXED;
	return sim_version() >= 6 ? v6_counter_reg(c, msr, i) : REG_NONE;
}

/* CFG_B and CFG_C exist where CPUID.23H.0:EAX lists auto counter reload
 * (sub-leaf 2) or Architectural PEBS (sub-leaves 4, 5: sim_pebs_arch.c);
 * no model has auto counter reload. */
static int v6_cfg_absent(u32 msr, unsigned i, struct hw_fault *f)
{
	bool fixed = msr >= MSR_IA32_PMC_FX0_CTR;
	bool cfg_b = (msr - (fixed ? MSR_IA32_PMC_FX0_CTR : MSR_IA32_PMC_GP0_CTR)) %
		     MSR_IA32_PMC_V6_STEP == 2;
	return sim_gp(f, "IA32_PMC_%s%u_CFG_%c (MSR 0x%x): %s is not enumerated by model '%s' "
		      "(CPUID.23H.0:EAX = 0x%x)", fixed ? "FX" : "GP", i, cfg_b ? 'B' : 'C', msr,
		      cfg_b ? "auto counter reload" : "Architectural PEBS", sim.model->name,
		      sim.model->leaf23_eax);
}

static u64 global_inuse(const struct sim_cpu *c)
{
	u64 v = 0;
	bool pmi = false;
	for (unsigned i = 0; i < c->core->num_gp; i++) {
		if (c->r.evtsel[i] & EVTSEL_EVENT_MASK)
			v |= global_gp_bit(i);
		pmi |= c->r.evtsel[i] & EVTSEL_INT;
	}
	for (unsigned i = 0; i < c->core->num_fixed; i++) {
		if (!sim_has_fixed(c, i))
			continue;
		u64 f = (c->r.fixed_ctrl >> (4 * i)) & FIXED_CTRL_FIELD_MASK;
		if (f & (FIXED_CTRL_OS | FIXED_CTRL_USR))
			v |= global_fixed_bit(i);
		pmi |= f & FIXED_CTRL_PMI;
	}
	bool pebs = c->r.pebs_enable || (sim_arch_pebs() && sim_arch_pebs_counters(c));
	return v | (pmi || pebs ? BIT(63) : 0);
}

/* MSRs that exist whether or not there is a PMU. */
static int read_always(struct sim_cpu *c, u32 msr, u64 *val, struct hw_fault *f, bool *done)
{
	*done = true;
	switch (msr) {
	case MSR_IA32_MISC_ENABLE:
		*val = c->r.misc_enable;
		return 0;
	case MSR_IA32_DEBUGCTL:
		*val = c->r.debugctl;
		return 0;
	case MSR_IA32_PERF_CAPABILITIES:
		if (!sim_pdcm())
			return sim_gp(f, "IA32_PERF_CAPABILITIES needs CPUID.01H:ECX.PDCM[15] = 1");
		*val = sim.model->perf_capabilities;
		return 0;
	case MSR_IA32_DS_AREA:
		if (!sim_ds())
			return sim_gp(f, "IA32_DS_AREA needs CPUID.01H:EDX.DS[21] = 1");
		*val = c->r.ds_area;
		return 0;
	}
	*done = false;
	return 0;
}

static int no_such_msr(u32 msr, struct hw_fault *f)
{
	if (!has_pmu())
		return sim_gp(f, "MSR 0x%x: this CPU has no architectural perfmon "
			      "(CPUID.0AH:EAX[7:0] = 0)", msr);
	return sim_gp(f, "MSR 0x%x is not implemented by model '%s' (SDM Vol. 4: "
		      "access to an unimplemented MSR #GPs)", msr, sim.model->name);
}

/* RDPMC (SDM Vol. 2B, RDPMC): ECX[30] selects the fixed counters, ECX[29:0]
 * the counter; an index this CPU does not have #GPs. ECX[31], the "fast
 * read", returns bits 31:0 only, as KVM does (arch/x86/kvm/pmu.c,
 * kvm_pmu_rdpmc). CR4.PCE and the CPL are the caller's rule: it knows CR4. */
int sim_pmu_rdpmc(struct sim_cpu *c, u32 ecx, u64 *val, struct hw_fault *f)
{
	u32 idx = ecx & (u32)GENMASK(29, 0);
	bool fixed = ecx & BIT(30), fast = ecx & BIT(31);
	if (sim_amd())
		return sim_amd_rdpmc(c, ecx, val, f);
	*val = 0;
	f->msr = 0;
	f->write = false;
	if (!has_pmu())
		return sim_gp(f, "RDPMC: this CPU has no architectural perfmon");
	if (fixed ? !sim_has_fixed(c, idx) : idx >= c->core->num_gp)
		return sim_gp(f, "RDPMC ECX 0x%x: no %s counter %u on this CPU", ecx,
			      fixed ? "fixed" : "general-purpose", idx);
	*val = fixed ? c->r.fixed[idx] : c->r.pmc[idx];
	if (fast)
		*val &= GENMASK(31, 0);
	return 0;
}

int sim_pmu_rdmsr(struct sim_cpu *c, u32 msr, u64 *val, struct hw_fault *f)
{
	unsigned i;
	bool done;
	if (sim_amd())
		return sim_amd_rdmsr(c, msr, val, f);
	int rc = read_always(c, msr, val, f, &done);
	if (done)
		return rc;
	if (!has_pmu())
		return no_such_msr(msr, f);
	switch (counter_reg(c, msr, &i)) {
	case REG_A_PMC:
		if (!sim_has(PERF_CAP_FW_WRITE))
			return sim_gp(f, "IA32_A_PMC%u needs IA32_PERF_CAPABILITIES.FW_WRITE[13]", i);
		/* fall through */
	case REG_PMC:
	case REG_V6_CTR:
		*val = c->r.pmc[i];
		return 0;
	case REG_EVTSEL:
		*val = c->r.evtsel[i];
		return 0;
	case REG_FIXED:
		*val = c->r.fixed[i];
		return 0;
	case REG_V6_CFG: {
		int idx = sim_arch_pebs_cfg_c_index(msr, i);
		if (idx < 0)
			return v6_cfg_absent(msr, i, f);
		*val = sim_arch_pebs_read_cfg_c(c, (unsigned)idx);
		return 0;
	}
	case REG_NONE:
		break;
	}
	rc = sim_arch_pebs_rdmsr(c, msr, val, f, &done);
	if (done)
		return rc;
	switch (msr) {
	case MSR_IA32_FIXED_CTR_CTRL:     *val = c->r.fixed_ctrl; break;
	case MSR_IA32_PERF_GLOBAL_STATUS: *val = c->r.global_status; break;
	case MSR_IA32_PERF_GLOBAL_CTRL:   *val = c->r.global_ctrl; break;
	case MSR_IA32_PERF_GLOBAL_OVF_CTRL:
		*val = 0;	/* write-1-to-clear; reads return 0 */
		break;
	case MSR_IA32_PERF_GLOBAL_STATUS_SET:
		if (sim_version() < 4)
			return no_such_msr(msr, f);
		*val = 0;
		break;
	case MSR_IA32_PERF_GLOBAL_INUSE:
		if (sim_version() < 4)
			return no_such_msr(msr, f);
		*val = global_inuse(c);
		break;
	case MSR_IA32_PEBS_ENABLE:
		if (!has_pebs_msrs())
			return no_such_msr(msr, f);
		*val = c->r.pebs_enable;
		break;
	case MSR_PEBS_DATA_CFG:
		if (!sim_has(PERF_CAP_PEBS_BASELINE))
			return sim_gp(f, "MSR_PEBS_DATA_CFG needs IA32_PERF_CAPABILITIES.PEBS_BASELINE[14]");
		*val = c->r.pebs_data_cfg;
		break;
	case MSR_PEBS_LD_LAT_THRESHOLD:
		if (!sim.model->has_ld_lat)
			return no_such_msr(msr, f);
		*val = c->r.ld_lat_threshold;
		break;
	case MSR_OFFCORE_RSP_0:
	case MSR_OFFCORE_RSP_1:
		if (!sim.model->has_offcore)
			return no_such_msr(msr, f);
		*val = c->r.offcore_rsp[msr - MSR_OFFCORE_RSP_0];
		break;
	case MSR_PEBS_FRONTEND:
		if (!c->core->frontend_valid)
			return no_such_msr(msr, f);
		*val = c->r.pebs_frontend;
		break;
	default:
		return no_such_msr(msr, f);
	}
	return 0;
}

/* ---- writes ---------------------------------------------------------------- */

static int write_reserved(struct hw_fault *f, const char *name, u64 val, u64 valid)
{
	return sim_gp(f, "%s: reserved bits 0x%llx set (valid bits 0x%llx)", name,
		      (unsigned long long)(val & ~valid), (unsigned long long)valid);
}

static int write_misc_enable(struct sim_cpu *c, u64 val, struct hw_fault *f)
{
	u64 ro = MISC_ENABLE_PERF_MON_AVAILABLE | MISC_ENABLE_BTS_UNAVAILABLE |
		 MISC_ENABLE_PEBS_UNAVAILABLE;
	if ((val ^ c->r.misc_enable) & ro)
		return sim_gp(f, "IA32_MISC_ENABLE bits 7, 11, 12 are read-only (tried to "
			      "change 0x%llx)", (unsigned long long)((val ^ c->r.misc_enable) & ro));
	c->r.misc_enable = val;
	return 0;
}

static int write_debugctl(struct sim_cpu *c, u64 val, struct hw_fault *f)
{
	if (val & ~debugctl_valid())
		return write_reserved(f, "IA32_DEBUGCTL", val, debugctl_valid());
	if (val & (DEBUGCTL_TR | DEBUGCTL_BTS))
		return sim_gp(f, "IA32_DEBUGCTL: branch trace (TR/BTS) is not emulated by the model");
	c->r.debugctl = val;
	return 0;
}

static int write_always(struct sim_cpu *c, u32 msr, u64 val, struct hw_fault *f, bool *done)
{
	*done = true;
	switch (msr) {
	case MSR_IA32_MISC_ENABLE:
		return write_misc_enable(c, val, f);
	case MSR_IA32_DEBUGCTL:
		return write_debugctl(c, val, f);
	case MSR_IA32_PERF_CAPABILITIES:
		return sim_gp(f, "IA32_PERF_CAPABILITIES is read-only");
	case MSR_IA32_DS_AREA:
		if (!sim_ds())
			return sim_gp(f, "IA32_DS_AREA needs CPUID.01H:EDX.DS[21] = 1");
		if (!sim_canonical(val))
			return sim_gp(f, "IA32_DS_AREA: 0x%llx is not a canonical address",
				      (unsigned long long)val);
		c->r.ds_area = val;
		return 0;
	}
	*done = false;
	return 0;
}

/* A write to a counter whose PEBS is armed replaces the overflow that
 * armed it: no record comes for it (the SDM calls such a write while the
 * event counts unpredictable; here it is the simplest outcome). */
static void disarm(struct sim_cpu *c, u64 counters)
{
	if (c->pebs_armed & counters)
		c->stats.pebs_disarmed++;
	c->pebs_armed &= ~counters;
}

static int write_pmc(struct sim_cpu *c, unsigned i, u64 val, enum counter_reg via,
		     struct hw_fault *f)
{
	u64 mask = width_mask(c->core->gp_width);
	if (via == REG_A_PMC && !sim_has(PERF_CAP_FW_WRITE))
		return sim_gp(f, "IA32_A_PMC%u needs IA32_PERF_CAPABILITIES.FW_WRITE[13]", i);
	if (via != REG_PMC) {
		if (val & ~mask)
			return sim_gp(f, via == REG_A_PMC ?
				      "IA32_A_PMC%u: bits beyond the %u-bit counter width set" :
				      "IA32_PMC_GP%u_CTR: bits beyond the %u-bit counter width set",
				      i, c->core->gp_width);
		c->r.pmc[i] = val;
		disarm(c, BIT(i));
		return 0;
	}
	/* SDM 20.2.5: a write to IA32_PMCx keeps bits 31:0 and sign-extends
	 * bit 31 through the counter width; bits 63:32 of the value are
	 * ignored. */
	c->r.pmc[i] = (u64)(s64)(s32)(u32)val & mask;
	disarm(c, BIT(i));
	return 0;
}

static int write_fixed_ctr(struct sim_cpu *c, unsigned i, u64 val, struct hw_fault *f)
{
	if (val & ~width_mask(c->core->fixed_width))
		return sim_gp(f, "IA32_FIXED_CTR%u: bits beyond the %u-bit counter width set",
			      i, c->core->fixed_width);
	c->r.fixed[i] = val;
	disarm(c, BIT(SIM_FIXED_BASE + i));
	return 0;
}

static int write_status_reset(struct sim_cpu *c, u64 val, struct hw_fault *f)
{
	u64 valid = status_reset_valid(c);
	if (val & ~valid)
		return write_reserved(f, sim_version() >= 4 ? "IA32_PERF_GLOBAL_STATUS_RESET"
				      : "IA32_PERF_GLOBAL_OVF_CTRL", val, valid);
	/* Writing 1 clears the status bit; clearing CTR_FRZ unfreezes. */
	c->r.global_status &= ~(val & ~c->stuck_status);
	return 0;
}

static int write_pebs_enable(struct sim_cpu *c, u64 val, struct hw_fault *f)
{
	u64 valid = pebs_enable_valid(c);
	if (!has_pebs_msrs())
		return no_such_msr(MSR_IA32_PEBS_ENABLE, f);
	if (val && (c->r.misc_enable & MISC_ENABLE_PEBS_UNAVAILABLE))
		return sim_gp(f, "IA32_PEBS_ENABLE: PEBS is unavailable (IA32_MISC_ENABLE[12] = 1)");
	if (val & ~valid)
		return sim_gp(f, "IA32_PEBS_ENABLE: bits 0x%llx name counters that cannot do "
			      "PEBS here (valid 0x%llx%s)", (unsigned long long)(val & ~valid),
			      (unsigned long long)valid,
			      sim_has(PERF_CAP_PEBS_BASELINE) ? "" :
			      "; fixed counters need PEBS baseline");
	/* Armed PEBS stays armed: a PEBS-disabled counter takes no assist
	 * (sim_count.c), and the record comes once PEBS is on again. Linux
	 * clears PEBS_ENABLE at every PMU disable, and the SDM names no
	 * disarming but a write to the counter. */
	c->r.pebs_enable = val;
	return 0;
}

static int write_pebs_msr(struct sim_cpu *c, u32 msr, u64 val, struct hw_fault *f)
{
	if (msr == MSR_IA32_PEBS_ENABLE)
		return write_pebs_enable(c, val, f);
	if (msr == MSR_PEBS_DATA_CFG) {
		u64 valid = PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP | PEBS_DATACFG_XMMS |
			    PEBS_DATACFG_LBRS | GENMASK(31, 24);
		if (!sim_has(PERF_CAP_PEBS_BASELINE))
			return sim_gp(f, "MSR_PEBS_DATA_CFG needs IA32_PERF_CAPABILITIES.PEBS_BASELINE[14]");
		if (val & ~valid)
			return write_reserved(f, "MSR_PEBS_DATA_CFG", val, valid);
		c->r.pebs_data_cfg = val;
		return 0;
	}
	/* MSR_PEBS_LD_LAT_THRESHOLD */
	if (!sim.model->has_ld_lat)
		return no_such_msr(msr, f);
	if (val & ~PEBS_LD_LAT_THRESHOLD_MASK)
		return write_reserved(f, "MSR_PEBS_LD_LAT_THRESHOLD", val, PEBS_LD_LAT_THRESHOLD_MASK);
	c->r.ld_lat_threshold = val;
	return 0;
}

/* MSR_OFFCORE_RSP_x: valid bits per core (arch/msr.h); the rest #GP. */
static int write_offcore(struct sim_cpu *c, unsigned k, u64 val, struct hw_fault *f)
{
	u64 valid = c->core->offcore_valid[k];
	if (val & ~valid)
		return write_reserved(f, k ? "MSR_OFFCORE_RSP_1" : "MSR_OFFCORE_RSP_0", val, valid);
	c->r.offcore_rsp[k] = val;
	return 0;
}

/* MSR_PEBS_FRONTEND: valid bits per core (arch/msr.h); the rest #GP. */
static int write_frontend(struct sim_cpu *c, u64 val, struct hw_fault *f)
{
	u64 valid = c->core->frontend_valid;
	if (!valid)
		return no_such_msr(MSR_PEBS_FRONTEND, f);
	if (val & ~valid)
		return write_reserved(f, "MSR_PEBS_FRONTEND", val, valid);
	c->r.pebs_frontend = val;
	return 0;
}

static int write_global(struct sim_cpu *c, u32 msr, u64 val, struct hw_fault *f)
{
	switch (msr) {
	case MSR_IA32_FIXED_CTR_CTRL:
		if (val & ~fixed_ctrl_valid(c))
			return write_reserved(f, "IA32_FIXED_CTR_CTRL", val, fixed_ctrl_valid(c));
		c->r.fixed_ctrl = val;
		return 0;
	case MSR_IA32_PERF_GLOBAL_STATUS:
		return sim_gp(f, "IA32_PERF_GLOBAL_STATUS is read-only (clear bits through "
			      "0x390, set them through 0x391 on v4+)");
	case MSR_IA32_PERF_GLOBAL_CTRL:
		if (val & ~global_ctrl_valid(c))
			return write_reserved(f, "IA32_PERF_GLOBAL_CTRL", val, global_ctrl_valid(c));
		c->r.global_ctrl = val;
		return 0;
	case MSR_IA32_PERF_GLOBAL_STATUS_RESET:
		return write_status_reset(c, val, f);
	case MSR_IA32_PERF_GLOBAL_STATUS_SET:
		if (sim_version() < 4)
			return no_such_msr(msr, f);
		if (val & ~status_set_valid(c))
			return write_reserved(f, "IA32_PERF_GLOBAL_STATUS_SET", val, status_set_valid(c));
		c->r.global_status |= val;	/* no PMI: SDM 20.2.4.2 */
		return 0;
	case MSR_IA32_PERF_GLOBAL_INUSE:
		if (sim_version() < 4)
			return no_such_msr(msr, f);
		return sim_gp(f, "IA32_PERF_GLOBAL_INUSE is read-only");
	}
	return no_such_msr(msr, f);
}

int sim_pmu_wrmsr(struct sim_cpu *c, u32 msr, u64 val, struct hw_fault *f)
{
	unsigned i;
	bool done;
	if (sim_amd())
		return sim_amd_wrmsr(c, msr, val, f);
	int rc = write_always(c, msr, val, f, &done);
	if (done)
		return rc;
	if (!has_pmu())
		return no_such_msr(msr, f);
	enum counter_reg reg = counter_reg(c, msr, &i);
	switch (reg) {
	case REG_PMC:
	case REG_A_PMC:
	case REG_V6_CTR:
		return write_pmc(c, i, val, reg, f);
	case REG_EVTSEL:
		if (val & ~evtsel_valid(i))
			return sim_gp(f, "IA32_PERFEVTSEL%u: reserved bits 0x%llx set (valid 0x%llx)",
				      i, (unsigned long long)(val & ~evtsel_valid(i)),
				      (unsigned long long)evtsel_valid(i));
		c->r.evtsel[i] = val;
		return 0;
	case REG_FIXED:
		return write_fixed_ctr(c, i, val, f);
	case REG_V6_CFG: {
		int idx = sim_arch_pebs_cfg_c_index(msr, i);
		if (idx < 0)
			return v6_cfg_absent(msr, i, f);
		return sim_arch_pebs_write_cfg_c(c, (unsigned)idx, val, f);
	}
	case REG_NONE:
		break;
	}
	rc = sim_arch_pebs_wrmsr(c, msr, val, f, &done);
	if (done)
		return rc;
	if (msr == MSR_IA32_PEBS_ENABLE || msr == MSR_PEBS_DATA_CFG ||
	    msr == MSR_PEBS_LD_LAT_THRESHOLD)
		return write_pebs_msr(c, msr, val, f);
	if (msr == MSR_OFFCORE_RSP_0 || msr == MSR_OFFCORE_RSP_1) {
		if (!sim.model->has_offcore)
			return no_such_msr(msr, f);
		return write_offcore(c, msr - MSR_OFFCORE_RSP_0, val, f);
	}
	if (msr == MSR_PEBS_FRONTEND)
		return write_frontend(c, val, f);
	if (sim_version() >= 2)
		return write_global(c, msr, val, f);
	return no_such_msr(msr, f);
}

/* ---- PMI requests ------------------------------------------------------------ */

void sim_pmu_raise_pmi(struct sim_cpu *c)
{
	c->stats.pmis_raised++;
	/* Freezing happens when the PMU raises the PMI, not when it arrives.
	 * v4+ (SDM 20.2.4.1): CTR_FRZ/LBR_FRZ are set in GLOBAL_STATUS and
	 * the counters stop until software clears them. v2/v3 (SDM 20.2.2):
	 * GLOBAL_CTRL is cleared, resp. DEBUGCTL.LBR. */
	if (c->r.debugctl & DEBUGCTL_FREEZE_PERFMON_ON_PMI) {
		if (sim_version() >= 4)
			c->r.global_status |= GLOBAL_STATUS_CTR_FRZ;
		else
			c->r.global_ctrl = 0;
	}
	if (c->r.debugctl & DEBUGCTL_FREEZE_LBRS_ON_PMI) {
		if (sim_version() >= 4)
			c->r.global_status |= GLOBAL_STATUS_LBR_FRZ;
		else
			c->r.debugctl &= ~DEBUGCTL_LBR;
	}
	if (sim.machine)
		sim.machine->pmi(sim.machine_ctx, c->index);	/* its APIC's LVT PC */
	else
		sim_apic_pmi(c);
}

/* ---- fault injection ------------------------------------------------------------ */

void sim_inject_spurious_pmi(void)
{
	struct sim_cpu *c = sim_cur();
	c->stats.pmis_raised++;
	sim_apic_pmi(c);
}

void sim_inject_stuck_status(u64 bits)
{
	struct sim_cpu *c = sim_cur();
	c->stuck_status = bits;
	c->r.global_status |= bits;
}

void sim_inject_rival(u64 global_bits, u64 pebs_bits)
{
	struct sim_cpu *c = sim_cur();
	c->rival_global = global_bits;
	c->rival_pebs = pebs_bits;
	for (unsigned i = 0; i < SIM_MAX_GP; i++) {
		c->rival_evtsel[i] = global_bits & global_gp_bit(i) ? c->r.evtsel[i] : 0;
		c->rival_pmc[i] = c->r.pmc[i];
	}
}

void sim_rival_visit(struct sim_cpu *c)
{
	c->r.global_ctrl |= c->rival_global;
	c->r.pebs_enable |= c->rival_pebs;
	for (unsigned i = 0; i < SIM_MAX_GP; i++) {
		if (!c->rival_evtsel[i])
			continue;
		c->r.evtsel[i] = c->rival_evtsel[i];
		if (c->r.pmc[i] < c->rival_pmc[i])	/* it reloads its period */
			c->r.pmc[i] = c->rival_pmc[i];
	}
}

void sim_inject_counters_running(void)
{
	struct sim_cpu *c = sim_cur();
	if (sim_amd()) {	/* counter 0 counting cycles; PerfCntrGlobalCtl resets to all */
		c->r.evtsel[0] = EVTSEL_EN | EVTSEL_OS | EVTSEL_USR | AMD_EVENT_CYCLES_NOT_HALTED;
		return;
	}
	if (!has_pmu())
		return;
	c->r.evtsel[0] = EVTSEL_EN | EVTSEL_OS | EVTSEL_USR | ARCH_CODE_CORE_CYCLES;
	c->r.global_ctrl |= global_gp_bit(0);
	for (unsigned i = 0; i < c->core->num_fixed && i < 3; i++) {
		if (!sim_has_fixed(c, i))
			continue;
		c->r.fixed_ctrl |= fixed_ctrl_field(i, FIXED_CTRL_OS);
		c->r.global_ctrl |= global_fixed_bit(i);
	}
}

void sim_inject_pebs_unavailable(bool unavailable)
{
	struct sim_cpu *c = sim_cur();
	if (unavailable)
		c->r.misc_enable |= MISC_ENABLE_PEBS_UNAVAILABLE;
	else
		c->r.misc_enable &= ~MISC_ENABLE_PEBS_UNAVAILABLE;
}

void sim_inject_perfmon_unavailable(bool unavailable)
{
	struct sim_cpu *c = sim_cur();
	if (unavailable)
		c->r.misc_enable &= ~MISC_ENABLE_PERF_MON_AVAILABLE;
	else
		c->r.misc_enable |= MISC_ENABLE_PERF_MON_AVAILABLE;
}
