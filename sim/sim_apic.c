/* The local APIC of each emulated CPU, as far as the PMI path needs it:
 * IA32_APIC_BASE with the xAPIC/x2APIC modes (SDM Vol. 3A ch. 11), the
 * registers reached through MMIO (xAPIC) or MSRs 0x800+ (x2APIC), the
 * LVT performance counter entry, ISR/IRR/EOI for fixed delivery, NMI
 * delivery, and IPIs through the ICR. Timers, LINT pins and priorities
 * beyond "higher vector first" are not modelled (see README). */
#include "sim_int.h"
#include "../lib/str.h"

#define APIC_VERSION_VALUE  0x00060015u	/* version 0x15, 7 LVT entries */
#define APIC_PPR            0x0A0
#define APIC_LDR            0x0D0
#define APIC_ISR0           0x100
#define APIC_TMR0           0x180
#define APIC_IRR0           0x200
#define APIC_ESR            0x280
#define APIC_LVT_CMCI       0x2F0
#define APIC_LVT_THERMAL    0x330
#define APIC_TIMER_INITIAL  0x380
#define APIC_TIMER_CURRENT  0x390
#define APIC_TIMER_DIVIDE   0x3E0
#define APIC_SELF_IPI       0x3F0	/* x2APIC only */
#define APIC_SPIV_ENABLE    BIT(8)
#define APIC_ICR_SHORTHAND_MASK GENMASK(19, 18)
#define APIC_ICR_SHORTHAND_ALL_INCL (0x2 << 18)
#define APIC_ICR_SHORTHAND_ALL_EXCL (0x3 << 18)
#define LVT_PC_WRITABLE     (APIC_LVT_VECTOR_MASK | APIC_LVT_DELIVERY_MASK | APIC_LVT_MASKED)
#define LVT_TIMER_WRITABLE  (APIC_LVT_VECTOR_MASK | APIC_LVT_MASKED | GENMASK(18, 17))
#define LVT_LINT_WRITABLE   (APIC_LVT_VECTOR_MASK | APIC_LVT_DELIVERY_MASK | GENMASK(16, 13))
#define LVT_ERROR_WRITABLE  (APIC_LVT_VECTOR_MASK | APIC_LVT_MASKED)

static bool apic_enabled(const struct sim_cpu *c) { return c->r.apic_base & APIC_BASE_GLOBAL_ENABLE; }
static bool apic_x2(const struct sim_cpu *c) { return c->r.apic_base & APIC_BASE_X2APIC_ENABLE; }
static u64 apic_mmio_base(const struct sim_cpu *c) { return c->r.apic_base & APIC_BASE_ADDR_MASK; }

static void lvt_reset(struct sim_cpu *c)
{
	/* What OVMF leaves: its 10 ms tick on the timer (periodic, 0x20),
	 * LINT0 ExtINT / LINT1 NMI on the BSP, everything else masked. */
	bool bsp = c->index == 0;
	c->r.lvt_timer = 0x20020;
	c->r.lvt_pc = APIC_LVT_MASKED;
	c->r.lvt_lint0 = bsp ? 0x700 : 0x10700;
	c->r.lvt_lint1 = bsp ? 0x400 : 0x10400;
	c->r.lvt_error = APIC_LVT_MASKED;
	for (unsigned i = 0; i < APIC_EILVT_COUNT_MAX; i++)
		c->r.eilvt[i] = APIC_LVT_MASKED;	/* APM: reset value masked */
	c->r.apic_spiv = 0x1FF;
	c->r.apic_tpr = 0;
	bp_memset(c->r.isr, 0, sizeof(c->r.isr));
	bp_memset(c->r.irr, 0, sizeof(c->r.irr));
}

void sim_apic_reset(struct sim_cpu *c, bool x2apic)
{
	c->r.apic_base = APIC_DEFAULT_BASE | APIC_BASE_GLOBAL_ENABLE |
			 (c->index == 0 ? APIC_BASE_BSP : 0) |
			 (x2apic ? APIC_BASE_X2APIC_ENABLE : 0);
	lvt_reset(c);
}

/* ---- interrupt acceptance and delivery ------------------------------------- */

static bool vec_test(const u32 *bits, u8 v) { return bits[v / 32] & (1u << (v % 32)); }
static void vec_set(u32 *bits, u8 v) { bits[v / 32] |= 1u << (v % 32); }
static void vec_clear(u32 *bits, u8 v) { bits[v / 32] &= ~(1u << (v % 32)); }

static int highest_vector(const u32 *bits)
{
	for (int v = 255; v >= 0; v--)
		if (vec_test(bits, (u8)v))
			return v;
	return -1;
}

static void call_hook(struct sim_cpu *c, u8 vector)
{
	if (!sim.hook) {
		sim_model_error("CPU %u received vector 0x%02x but no interrupt hook is "
				"registered (sim_set_pmi_hook)", c->index, vector);
		return;
	}
	u32 saved = sim.cur;
	sim.cur = c->index;
	c->hook_depth++;
	sim.hook(c->index, vector, sim.hook_ctx);
	c->hook_depth--;
	sim.cur = saved;
}

/* Dispatches the highest requested fixed vector that outranks everything
 * in service, one at a time, and NMIs held back while a handler ran. Only
 * at "instruction boundaries": never from inside a running hook. */
static void dispatch_pending(struct sim_cpu *c)
{
	while (c->hook_depth == 0) {
		if (c->nmi_pending) {
			c->nmi_pending = false;
			call_hook(c, SIM_NMI_VECTOR);
			continue;
		}
		int req = highest_vector(c->r.irr);
		int serv = highest_vector(c->r.isr);
		if (req < 0 || (req >> 4) <= (serv >> 4) ||
		    (req >> 4) <= (int)(c->r.apic_tpr >> 4))
			return;
		vec_clear(c->r.irr, (u8)req);
		vec_set(c->r.isr, (u8)req);
		call_hook(c, (u8)req);
	}
}

static void accept_fixed(struct sim_cpu *c, u8 vector)
{
	if (vector < 16) {
		sim_model_error("CPU %u: illegal vector 0x%02x (vectors 0-15 are reserved; "
				"the APIC would set ESR and drop it)", c->index, vector);
		return;
	}
	vec_set(c->r.irr, vector);
	dispatch_pending(c);
}

static void accept_nmi(struct sim_cpu *c)
{
	c->nmi_pending = true;
	dispatch_pending(c);
}

void sim_apic_pmi(struct sim_cpu *c)
{
	u32 lvt = c->r.lvt_pc;
	if (!apic_enabled(c) || !(c->r.apic_spiv & APIC_SPIV_ENABLE) || (lvt & APIC_LVT_MASKED)) {
		c->stats.pmis_masked++;	/* SDM 11.5.1: mask inhibits reception */
		return;
	}
	/* SDM 11.5.1: delivering a performance-counter interrupt sets the
	 * mask bit of LVT PC; software must clear it for the next one. AMD's
	 * local APIC leaves it clear (Linux amd_pmu_v2_handle_irq: "the Mask
	 * (M) bit of the LVT PMI entry is not set by the local APIC when a PMC
	 * overflow occurs"). */
	if ((!c->lvt_pc_no_mask && !sim_amd()) || c->lvt_pc_masks)
		c->r.lvt_pc |= APIC_LVT_MASKED;
	c->stats.pmis_delivered++;
	switch (lvt & APIC_LVT_DELIVERY_MASK) {
	case APIC_LVT_DELIVERY_FIXED:
		accept_fixed(c, (u8)(lvt & APIC_LVT_VECTOR_MASK));
		return;
	case APIC_LVT_DELIVERY_NMI:
		accept_nmi(c);
		return;
	default:
		sim_model_error("LVT PC delivery mode %u is not modelled (fixed and NMI are)",
				(unsigned)((lvt & APIC_LVT_DELIVERY_MASK) >> 8));
	}
}

/* AMD parts have the extended APIC space (APM Vol. 2, "Extended APIC
 * Registers"). */
bool sim_apic_ext_space(void) { return sim_amd(); }

/* An extended LVT entry delivers as LVT PC does, fixed vector or NMI;
 * unlike LVT PC it is not masked by the delivery (APM Vol. 2; Linux's
 * perf_ibs_handle_irq never unmasks it). */
bool sim_apic_eilvt(struct sim_cpu *c, unsigned n)
{
	if (n >= APIC_EILVT_COUNT_MAX || !sim_apic_ext_space())
		return false;
	if (sim.machine) {	/* the machine's APIC holds the entries */
		if (!sim.machine->eilvt)
			return false;
		sim.machine->eilvt(sim.machine_ctx, c->index, n);
		return true;
	}
	u32 lvt = c->r.eilvt[n];
	if (!apic_enabled(c) || !(c->r.apic_spiv & APIC_SPIV_ENABLE) || (lvt & APIC_LVT_MASKED))
		return false;
	switch (lvt & APIC_LVT_DELIVERY_MASK) {
	case APIC_LVT_DELIVERY_FIXED:
		accept_fixed(c, (u8)(lvt & APIC_LVT_VECTOR_MASK));
		return true;
	case APIC_LVT_DELIVERY_NMI:
		accept_nmi(c);
		return true;
	default:
		sim_model_error("extended LVT %u delivery mode %u is not modelled (fixed and NMI are)",
				n, (unsigned)((lvt & APIC_LVT_DELIVERY_MASK) >> 8));
		return false;
	}
}

static int eilvt_index(u32 off)
{
	if (off < APIC_EILVT0 || off >= apic_eilvt(APIC_EILVT_COUNT_MAX) || !sim_apic_ext_space())
		return -1;
	return (int)((off - APIC_EILVT0) >> 4);
}

/* The extended space's registers: 0 and the value, or -1 when absent. */
static int ext_read(struct sim_cpu *c, u32 off, u64 *val)
{
	int n = eilvt_index(off);
	if (n >= 0) {
		*val = c->r.eilvt[n];
		return 0;
	}
	if (!sim_apic_ext_space() || (off != APIC_EXT_FEATURE && off != APIC_EXT_CTRL))
		return -1;
	*val = off == APIC_EXT_FEATURE ? (u64)APIC_EILVT_COUNT_MAX << APIC_EXT_FEATURE_XLC_SHIFT : 0;
	return 0;
}

static void eoi(struct sim_cpu *c)
{
	int v = highest_vector(c->r.isr);
	if (v >= 0)
		vec_clear(c->r.isr, (u8)v);
	dispatch_pending(c);
}

static int send_ipi(struct sim_cpu *c, u32 low, u32 dest)
{
	u32 mode = low & APIC_LVT_DELIVERY_MASK;
	u32 shorthand = low & APIC_ICR_SHORTHAND_MASK;
	if (mode != APIC_LVT_DELIVERY_FIXED && mode != APIC_LVT_DELIVERY_NMI) {
		sim_model_error("ICR delivery mode %u is not modelled (fixed and NMI are)", mode >> 8);
		return -1;
	}
	for (u32 i = 0; i < sim.ncpus; i++) {
		struct sim_cpu *t = &sim.cpu[i];
		bool hit = shorthand == APIC_ICR_DEST_SELF ? t == c :
			   shorthand == APIC_ICR_SHORTHAND_ALL_INCL ? true :
			   shorthand == APIC_ICR_SHORTHAND_ALL_EXCL ? t != c : i == dest;
		if (!hit)
			continue;
		c->stats.ipis++;
		if (mode == APIC_LVT_DELIVERY_NMI)
			accept_nmi(t);
		else
			accept_fixed(t, (u8)(low & APIC_LVT_VECTOR_MASK));
	}
	return 0;
}

/* ---- registers ------------------------------------------------------------- */

/* Returns 0 and the value, or -1 when the register cannot be read. */
static int reg_read(struct sim_cpu *c, u32 off, bool x2, u64 *val)
{
	*val = 0;
	if (off >= APIC_ISR0 && off < APIC_ISR0 + 0x80) {
		*val = c->r.isr[(off - APIC_ISR0) >> 4];
		return 0;
	}
	if (off >= APIC_IRR0 && off < APIC_IRR0 + 0x80) {
		*val = c->r.irr[(off - APIC_IRR0) >> 4];
		return 0;
	}
	switch (off) {
	case APIC_ID:           *val = x2 ? c->index : c->index << 24; return 0;
	case APIC_VERSION:
		*val = APIC_VERSION_VALUE | (sim_apic_ext_space() ? APIC_VERSION_EXT_APIC_SPACE : 0);
		return 0;
	case APIC_TPR:          *val = c->r.apic_tpr; return 0;
	case APIC_SPIV:         *val = c->r.apic_spiv; return 0;
	case APIC_ICR_LOW:
		*val = c->r.apic_icr_low | (x2 ? (u64)c->r.apic_icr_high << 32 : 0);
		return 0;
	case APIC_ICR_HIGH:     *val = c->r.apic_icr_high; return x2 ? -1 : 0;
	case APIC_LVT_TIMER:    *val = c->r.lvt_timer; return 0;
	case APIC_LVT_PERFCNT:  *val = c->r.lvt_pc; return 0;
	case APIC_LVT_LINT0:    *val = c->r.lvt_lint0; return 0;
	case APIC_LVT_LINT1:    *val = c->r.lvt_lint1; return 0;
	case APIC_LVT_ERROR:    *val = c->r.lvt_error; return 0;
	case APIC_PPR: case APIC_LDR: case APIC_ESR: case APIC_LVT_CMCI:
	case APIC_LVT_THERMAL: case APIC_TIMER_INITIAL: case APIC_TIMER_CURRENT:
	case APIC_TIMER_DIVIDE:
		return 0;	/* present, not modelled: reads as zero */
	case APIC_EOI:
		return x2 ? -1 : 0;	/* write-only; x2APIC RDMSR #GPs */
	default:
		if (off >= APIC_TMR0 && off < APIC_TMR0 + 0x80)
			return 0;
		return ext_read(c, off, val);
	}
}

static int lvt_write(u32 *reg, u64 val, u64 writable, bool x2)
{
	if (x2 && (val & ~writable))
		return -1;
	*reg = (u32)(val & writable);
	return 0;
}

/* Returns 0, or -1 when the write is refused (#GP in x2APIC mode). */
static int reg_write(struct sim_cpu *c, u32 off, u64 val, bool x2)
{
	switch (off) {
	case APIC_TPR:
		if (x2 && (val & ~0xFFULL))
			return -1;
		c->r.apic_tpr = (u32)(val & 0xFF);
		dispatch_pending(c);
		return 0;
	case APIC_EOI:
		if (x2 && val)
			return -1;	/* SDM 11.12.1.2: non-zero x2APIC EOI #GPs */
		eoi(c);
		return 0;
	case APIC_SPIV:
		if (x2 && (val & ~0x13FFULL))
			return -1;
		c->r.apic_spiv = (u32)(val & 0x13FF);
		return 0;
	case APIC_ICR_LOW:
		c->r.apic_icr_low = (u32)val & ~APIC_LVT_DELIVERY_STATUS;
		if (x2)
			c->r.apic_icr_high = (u32)(val >> 32);
		send_ipi(c, c->r.apic_icr_low,
			 x2 ? c->r.apic_icr_high : c->r.apic_icr_high >> 24);
		return 0;
	case APIC_ICR_HIGH:
		if (x2)
			return -1;
		c->r.apic_icr_high = (u32)val & 0xFF000000u;
		return 0;
	case APIC_LVT_PERFCNT: return lvt_write(&c->r.lvt_pc, val, LVT_PC_WRITABLE, x2);
	case APIC_LVT_TIMER:   return lvt_write(&c->r.lvt_timer, val, LVT_TIMER_WRITABLE, x2);
	case APIC_LVT_LINT0:   return lvt_write(&c->r.lvt_lint0, val, LVT_LINT_WRITABLE, x2);
	case APIC_LVT_LINT1:   return lvt_write(&c->r.lvt_lint1, val, LVT_LINT_WRITABLE, x2);
	case APIC_LVT_ERROR:   return lvt_write(&c->r.lvt_error, val, LVT_ERROR_WRITABLE, x2);
	case APIC_SELF_IPI:
		if (!x2 || (val & ~0xFFULL))
			return -1;
		c->stats.ipis++;
		accept_fixed(c, (u8)val);
		return 0;
	case APIC_ESR: case APIC_LVT_CMCI: case APIC_LVT_THERMAL:
	case APIC_TIMER_INITIAL: case APIC_TIMER_DIVIDE: case APIC_LDR:
		return 0;	/* accepted, not modelled */
	default:
		if (eilvt_index(off) >= 0)
			return lvt_write(&c->r.eilvt[eilvt_index(off)], val, APIC_EILVT_WRITABLE, x2);
		if (off == APIC_EXT_CTRL && sim_apic_ext_space())
			return 0;	/* accepted, not modelled */
		return -1;	/* read-only or reserved */
	}
}

/* ---- x2APIC MSRs and IA32_APIC_BASE ----------------------------------------- */

static int apic_base_write(struct sim_cpu *c, u64 val, struct hw_fault *f)
{
	u8 maxphys = (u8)FIELD(sim.model->ext8_eax, 7, 0);
	u64 valid = APIC_BASE_BSP | APIC_BASE_X2APIC_ENABLE | APIC_BASE_GLOBAL_ENABLE |
		    (GENMASK(maxphys - 1, 12));
	bool en = val & APIC_BASE_GLOBAL_ENABLE, extd = val & APIC_BASE_X2APIC_ENABLE;

	if (val & ~valid)
		return sim_gp(f, "IA32_APIC_BASE: reserved bits 0x%llx set (bits 7:0, 9 and "
			      "above MAXPHYADDR %u are reserved)",
			      (unsigned long long)(val & ~valid), maxphys);
	if (extd && !(sim.model->leaf1_ecx & CPUID_01_ECX_X2APIC))
		return sim_gp(f, "IA32_APIC_BASE.EXTD set but CPUID.01H:ECX.x2APIC[21] = 0");
	if (extd && !en)
		return sim_gp(f, "IA32_APIC_BASE: EXTD=1 with EN=0 is an invalid state (SDM 11.12.5)");
	if (apic_x2(c) && en && !extd)
		return sim_gp(f, "IA32_APIC_BASE: x2APIC to xAPIC directly is invalid; "
			      "disable the APIC first (SDM 11.12.5)");
	if (!apic_enabled(c) && extd)
		return sim_gp(f, "IA32_APIC_BASE: disabled to x2APIC directly is invalid; "
			      "enable xAPIC first (SDM 11.12.5)");
	u64 bsp = c->r.apic_base & APIC_BASE_BSP;	/* read-only */
	c->r.apic_base = (val & ~APIC_BASE_BSP) | bsp;
	if (!en)
		lvt_reset(c);	/* disabling resets the APIC (LVT masked) */
	return 0;
}

int sim_apic_rdmsr(struct sim_cpu *c, u32 msr, u64 *val, struct hw_fault *f)
{
	if (msr == MSR_IA32_APIC_BASE) {
		*val = c->r.apic_base;
		return 0;
	}
	if (!apic_enabled(c) || !apic_x2(c))
		return sim_gp(f, "x2APIC MSR read while the APIC is not in x2APIC mode (SDM 11.12.1.2)");
	u32 off = (msr - MSR_IA32_X2APIC_BASE) << 4;
	if (reg_read(c, off, true, val))
		return sim_gp(f, "x2APIC register 0x%03x cannot be read (reserved or write-only)", off);
	return 0;
}

int sim_apic_wrmsr(struct sim_cpu *c, u32 msr, u64 val, struct hw_fault *f)
{
	if (msr == MSR_IA32_APIC_BASE)
		return apic_base_write(c, val, f);
	if (!apic_enabled(c) || !apic_x2(c))
		return sim_gp(f, "x2APIC MSR write while the APIC is not in x2APIC mode (SDM 11.12.1.2)");
	u32 off = (msr - MSR_IA32_X2APIC_BASE) << 4;
	if (off == APIC_EOI && val)
		return sim_gp(f, "x2APIC EOI must be written with 0 (SDM 11.12.1.2)");
	if (off != APIC_ICR_LOW && (val >> 32))
		return sim_gp(f, "x2APIC register 0x%03x is 32 bits wide", off);
	if (reg_write(c, off, val, true))
		return sim_gp(f, "x2APIC register 0x%03x: read-only, reserved, or reserved bits "
			      "set in 0x%llx", off, (unsigned long long)val);
	return 0;
}

/* ---- xAPIC MMIO ------------------------------------------------------------- */

static bool mmio_offset(struct sim_cpu *c, u64 addr, u32 *off, const char *what)
{
	u64 base = apic_mmio_base(c);
	if (!apic_enabled(c) || apic_x2(c) || addr < base || addr >= base + 0x1000) {
		sim_model_error("MMIO %s at 0x%llx: not CPU %u's xAPIC page (base 0x%llx, %s); "
				"the model has no other memory-mapped devices", what,
				(unsigned long long)addr, c->index, (unsigned long long)base,
				!apic_enabled(c) ? "APIC disabled" :
				apic_x2(c) ? "APIC in x2APIC mode" : "xAPIC mode");
		return false;
	}
	*off = (u32)(addr - base);
	if (*off & 0xF) {
		sim_model_error("MMIO %s at 0x%llx: APIC registers are 16-byte aligned", what,
				(unsigned long long)addr);
		return false;
	}
	return true;
}

u32 sim_apic_mmio_read(struct sim_cpu *c, u64 addr)
{
	u32 off;
	u64 v;
	if (!mmio_offset(c, addr, &off, "read"))
		return 0xFFFFFFFFu;
	reg_read(c, off, false, &v);	/* xAPIC: unknown registers read as 0 */
	return (u32)v;
}

void sim_apic_mmio_write(struct sim_cpu *c, u64 addr, u32 val)
{
	u32 off;
	if (!mmio_offset(c, addr, &off, "write"))
		return;
	reg_write(c, off, val, false);	/* xAPIC: writes to read-only registers are ignored */
}

void sim_inject_lvt_pc_no_mask(bool on) { sim_cur()->lvt_pc_no_mask = on; }
void sim_inject_lvt_pc_masks(bool on)   { sim_cur()->lvt_pc_masks = on; }
void sim_inject_access_cycles(u64 cycles) { sim_cur()->access_cycles = cycles; }
