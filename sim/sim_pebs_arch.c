/* Architectural PEBS: what the processor does when a counter whose CFG_C
 * enables PEBS overflows, on parts whose IA32_PERF_CAPABILITIES.
 * PEBS_FORMAT reads 0xF (Intel's ISE manual, "Architectural PEBS"; the
 * facts as Linux 6.19 uses them are named in arch/msr.h). There is no DS
 * save area: one buffer per CPU at IA32_PEBS_BASE (4 KiB << SIZE), the
 * next record at IA32_PEBS_INDEX.WR, a PMI (GLOBAL_STATUS bit 54) once WR
 * reaches THRESH, and each counter's record groups and reload value in
 * its CFG_C. The model writes one fragment per record, the groups its
 * counters' CFG_C ask for (the union where one record serves several).
 * IA32_PEBS_BASE holds a physical address; the model writes it through
 * sim_mem_write as a linear one, which is the same address under the
 * UEFI identity map bareperf runs with (a guest OS with paging of its own
 * would need the translation, which no guest here needs). */
#include "sim_int.h"
#include "../lib/str.h"

/* The CFG_C group bits CPUID.23H.4:EBX lists (EBX bit n = CFG_C bit 32+n). */
static u64 groups_offered(void)
{
	return (u64)sim.model->leaf23_pebs_groups << ARCH_PEBS_CAPS_SHIFT & ~ARCH_PEBS_EN;
}

static u64 cfg_c_valid(void) { return ARCH_PEBS_RELOAD | groups_offered() | ARCH_PEBS_EN; }

/* The counters CPUID.23H.5 makes PEBS-capable (status layout). */
static u64 pebs_capable(const struct sim_cpu *c)
{
	return c->core->pebs_gp | (u64)c->core->pebs_fixed << SIM_FIXED_BASE;
}

int sim_arch_pebs_cfg_c_index(u32 msr, unsigned i)
{
	bool fixed = msr >= MSR_IA32_PMC_FX0_CTR;
	u32 first = fixed ? MSR_IA32_PMC_FX0_CFG_C : MSR_IA32_PMC_GP0_CFG_C;
	if (!sim_arch_pebs() || msr != first + MSR_IA32_PMC_V6_STEP * i)
		return -1;	/* a CFG_B, or no Architectural PEBS */
	return (int)(fixed ? SIM_FIXED_BASE + i : i);
}

static u64 *cfg_c_of(struct sim_cpu *c, unsigned idx)
{
	return idx >= SIM_FIXED_BASE ? &c->r.cfg_c_fixed[idx - SIM_FIXED_BASE] : &c->r.cfg_c[idx];
}

u64 sim_arch_pebs_counters(const struct sim_cpu *c)
{
	u64 on = 0;
	if (!(c->r.pebs_index & ARCH_PEBS_INDEX_EN))
		return 0;
	for (unsigned i = 0; i < c->core->num_gp; i++)
		if (c->r.cfg_c[i] & ARCH_PEBS_EN)
			on |= BIT(i);
	for (unsigned i = 0; i < c->core->num_fixed; i++)
		if (c->r.cfg_c_fixed[i] & ARCH_PEBS_EN)
			on |= BIT(SIM_FIXED_BASE + i);
	return on & pebs_capable(c);
}

u64 sim_arch_pebs_read_cfg_c(struct sim_cpu *c, unsigned idx) { return *cfg_c_of(c, idx); }

int sim_arch_pebs_rdmsr(struct sim_cpu *c, u32 msr, u64 *val, struct hw_fault *f, bool *done)
{
	*done = (msr == MSR_IA32_PEBS_BASE || msr == MSR_IA32_PEBS_INDEX) && sim_arch_pebs();
	if (*done)
		*val = msr == MSR_IA32_PEBS_BASE ? c->r.pebs_base : c->r.pebs_index;
	return 0;
}

static int write_base(struct sim_cpu *c, u64 val, struct hw_fault *f)
{
	u64 reserved = GENMASK(11, 4);
	if (val & reserved)
		return sim_gp(f, "IA32_PEBS_BASE: reserved bits 0x%llx set (bits 11:4)",
			      (unsigned long long)(val & reserved));
	if (!sim_canonical(val & ARCH_PEBS_BASE_ADDR_MASK))
		return sim_gp(f, "IA32_PEBS_BASE: 0x%llx is not a canonical address",
			      (unsigned long long)val);
	c->r.pebs_base = val;
	return 0;
}

int sim_arch_pebs_write_cfg_c(struct sim_cpu *c, unsigned idx, u64 val, struct hw_fault *f)
{
	const char *kind = idx >= SIM_FIXED_BASE ? "FX" : "GP";
	unsigned n = idx >= SIM_FIXED_BASE ? idx - SIM_FIXED_BASE : idx;
	if (val & ~cfg_c_valid())
		return sim_gp(f, "IA32_PMC_%s%u_CFG_C: bits 0x%llx are reserved or name groups "
			      "CPUID.23H.4 does not list (valid 0x%llx)", kind, n,
			      (unsigned long long)(val & ~cfg_c_valid()),
			      (unsigned long long)cfg_c_valid());
	if ((val & ARCH_PEBS_EN) && !(pebs_capable(c) & BIT(idx)))
		return sim_gp(f, "IA32_PMC_%s%u_CFG_C: PEBS enabled on a counter CPUID.23H.5 does "
			      "not list as PEBS-capable", kind, n);
	*cfg_c_of(c, idx) = val;
	return 0;
}

int sim_arch_pebs_wrmsr(struct sim_cpu *c, u32 msr, u64 val, struct hw_fault *f, bool *done)
{
	*done = (msr == MSR_IA32_PEBS_BASE || msr == MSR_IA32_PEBS_INDEX) && sim_arch_pebs();
	if (!*done)
		return 0;
	if (msr == MSR_IA32_PEBS_BASE)
		return write_base(c, val, f);
	if (val & ~ARCH_PEBS_INDEX_VALID)
		return sim_gp(f, "IA32_PEBS_INDEX: reserved bits 0x%llx set",
			      (unsigned long long)(val & ~ARCH_PEBS_INDEX_VALID));
	c->r.pebs_index = val;
	return 0;
}

/* ---- the record ----------------------------------------------------------- */

/* The groups one record carries: those its counters' CFG_C select. */
static u64 record_groups(struct sim_cpu *c, u64 applicable)
{
	u64 groups = 0;
	for (unsigned idx = 0; idx < 64; idx++)
		if (applicable & BIT(idx))
			groups |= *cfg_c_of(c, idx);
	return groups & groups_offered() & (ARCH_PEBS_AUX | ARCH_PEBS_GPR | ARCH_PEBS_VECR_XMM);
}

static u32 record_bytes(u64 groups)
{
	u32 size = ARCH_PEBS_HEADER_BYTES + ARCH_PEBS_BASIC_BYTES;
	if (groups & ARCH_PEBS_AUX)
		size += ARCH_PEBS_AUX_BYTES;
	if (groups & ARCH_PEBS_GPR)
		size += ARCH_PEBS_GPR_BYTES;
	if (groups & ARCH_PEBS_VECR_XMM)
		size += ARCH_PEBS_XER_HEADER_BYTES + ARCH_PEBS_XMM_BYTES;
	return size;
}

static void put_zeros(struct sim_rec *r, unsigned words)
{
	while (words--)
		sim_rec_put(r, 0);
}

/* struct arch_pebs_basic: the eventing IP, the counters the record is
 * for, the TSC, and the retire latency (the model's instruction latency)
 * with its valid bit. */
static void put_basic(struct sim_rec *r, const struct sim_cpu *c, u64 applicable,
		      const struct sim_point *pt)
{
	sim_rec_put(r, pt->ip);
	sim_rec_put(r, applicable);
	sim_rec_put(r, c->tsc);
	sim_rec_put(r, (pt->instr_latency & ARCH_PEBS_RETIRE_LAT_MASK) | ARCH_PEBS_RETIRE_LAT_VALID);
	put_zeros(r, 2);
}

/* struct arch_pebs_aux: the address, the data source at 40, instruction
 * and cache latency at 48 (as adaptive PEBS's split meminfo), TSX 56. */
static void put_aux(struct sim_rec *r, const struct sim_cpu *c, const struct sim_point *pt)
{
	u64 cache = MIN(pt->latency, (u64)0xFFFF);
	sim_rec_put(r, pt->data_addr);
	put_zeros(r, 4);
	sim_rec_put(r, sim_pebs_data_src(c->core, pt->data_src));
	sim_rec_put(r, cache << PEBS_MEMINFO_CACHE_LAT_SHIFT | pt->instr_latency);
	sim_rec_put(r, 0);
}

/* struct arch_pebs_gprs: the adaptive group, then SSP and a reserved word;
 * the IP of the next instruction, as the adaptive GPR group's. */
static void put_gprs(struct sim_rec *r, const struct sim_gprs *g, u64 rip)
{
	sim_pebs_put_adaptive_gprs(r, g, rip);
	put_zeros(r, 2);	/* SSP: no shadow stack modelled; reserved */
}

#define XSTATE_XMM BIT(1)	/* XCR0 bit 1, the xer header's component */

static void put_xmm(struct sim_rec *r, const struct sim_gprs *g)
{
	sim_rec_put(r, XSTATE_XMM);
	sim_rec_put(r, 0);
	sim_pebs_put_xmm(r, g);
}

#define SCRATCH_BYTES 1024
static void write_record(struct sim_cpu *c, u64 at, u32 size, u64 groups, u64 applicable,
			 const struct sim_point *pt)
{
	static u8 scratch[SCRATCH_BYTES] __attribute__((aligned(8)));
	struct sim_rec r = { scratch };
	sim_rec_put(&r, size | groups | ARCH_PEBS_HDR_BASIC);
	sim_rec_put(&r, 0);
	put_basic(&r, c, applicable, pt);
	if (groups & ARCH_PEBS_AUX)
		put_aux(&r, c, pt);
	if (groups & ARCH_PEBS_GPR)
		put_gprs(&r, &c->gprs, sim_point_next_ip(pt));
	if (groups & ARCH_PEBS_VECR_XMM)
		put_xmm(&r, &c->gprs);
	sim_mem_write(at, scratch, size);
}

static u64 buffer_bytes(u64 base) { return 4096ull << (base & ARCH_PEBS_BASE_SIZE_MASK); }

/* The counters' reload: CFG_C[31:0], sign-extended from bit 31 to the
 * counter's width (Linux writes -period there, as a 32-bit value). */
static void reload(struct sim_cpu *c, u64 applicable)
{
	for (unsigned idx = 0; idx < 64; idx++) {
		if (!(applicable & BIT(idx)))
			continue;
		u64 v = (u64)(s64)(s32)(u32)(*cfg_c_of(c, idx) & ARCH_PEBS_RELOAD);
		if (idx >= SIM_FIXED_BASE)
			c->r.fixed[idx - SIM_FIXED_BASE] = v & width_mask(c->core->fixed_width);
		else
			c->r.pmc[idx] = v & width_mask(c->core->gp_width);
	}
}

/* Returns true when WR reached THRESH (GLOBAL_STATUS bit 54 set, a PMI
 * due). A record that does not fit sets FULL and, as DS-based PEBS at
 * its absolute maximum, is skipped entirely: no reload, the overflow bit
 * stays. */
bool sim_arch_pebs_assist(struct sim_cpu *c, u64 applicable, const struct sim_point *pt)
{
	u64 groups = record_groups(c, applicable), index = c->r.pebs_index;
	u32 size = record_bytes(groups);
	u64 wr = (index & ARCH_PEBS_INDEX_WR_MASK) >> ARCH_PEBS_INDEX_WR_SHIFT << ARCH_PEBS_UNIT_SHIFT;
	u64 base = c->r.pebs_base & ARCH_PEBS_BASE_ADDR_MASK;
	if (!base) {
		sim_model_error("Architectural PEBS record with IA32_PEBS_BASE = 0: the "
				"processor would write to physical address 0");
		return false;
	}
	if (wr + size > buffer_bytes(c->r.pebs_base)) {
		c->r.pebs_index |= ARCH_PEBS_INDEX_FULL;
		c->stats.pebs_lost++;
		return false;
	}
	write_record(c, base + wr, size, groups, applicable, pt);
	wr += size;
	c->r.pebs_index = (index & ~ARCH_PEBS_INDEX_WR_MASK) |
			  (wr >> ARCH_PEBS_UNIT_SHIFT << ARCH_PEBS_INDEX_WR_SHIFT);
	c->r.global_status &= ~applicable;	/* the record holds the overflow */
	c->stats.pebs_records++;
	c->stats.pebs_bytes += size;
	if (!c->pebs_no_reload)	/* sim_inject_pebs_no_reload */
		reload(c, applicable);
	u64 thresh = FIELD(index, 58, ARCH_PEBS_INDEX_THRESH_SHIFT);
	if ((wr >> ARCH_PEBS_UNIT_SHIFT) < thresh && !c->pebs_threshold_ignored)
		return false;
	c->r.global_status |= GLOBAL_STATUS_ARCH_PEBS_THRESHOLD;
	return true;
}
