// SPDX-License-Identifier: GPL-2.0-or-later (built into QEMU: LICENSE)
/*
 * bareperf's TCG PMU: QEMU's side of an Intel or AMD PMU per vCPU, under
 * -icount.
 *
 * The rules (MSRs, counting, overflow, freeze, the PEBS assist) are
 * bareperf's PMU model, sim/, reached through sim/sim_machine.h. This
 * file only connects it to the machine:
 *   - what retires: icount's exact instruction count, branches counted by
 *     code emitted before each branch, the CPL at each change;
 *   - where to stop: each vCPU's icount budget is cut so that execution
 *     ends right before, then right after, the instruction at which a
 *     counter overflows, so the PMI and the PEBS record fall exactly there;
 *   - the guest's memory (PEBS records) and the local APIC (LVT PC, and on
 *     AMD parts the extended LVT entries, IBS's interrupt).
 * See qemu/README.md for the model names, the cost model and the limits.
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "cpu.h"
#include "exec/exec-all.h"
#include "exec/translator.h"
#include "hw/boards.h"
#include "hw/i386/apic.h"
#include "sysemu/cpu-timers.h"
#include "sysemu/tcg.h"
#include "tcg/tcg-op.h"
#include "exec/helper-proto.h"
#include "exec/helper-gen.h"
#include "tcg-pmu-translate.h"
#include "sim_machine.h"

/*
 * The CPUID leaves and bits the PMU brings (SDM Vol. 2A, CPUID) and the
 * MSRs it watches, by bareperf's names: arch/msr.h, the one list of them,
 * which tools/build-qemu installs in bareperf/ beside this file. Its
 * lib/types.h defines BIT, MIN, MAX, ARRAY_SIZE and FIELD, and it names
 * MSR_IA32_MISC_ENABLE, as QEMU does; QEMU's definitions are put back
 * after it and stay in force here (the same MSR; BIT(n) is 1 << n in both,
 * 64 bits wide on an x86-64 host).
 */
#pragma push_macro("BIT")
#pragma push_macro("MIN")
#pragma push_macro("MAX")
#pragma push_macro("ARRAY_SIZE")
#pragma push_macro("FIELD")
#pragma push_macro("MSR_IA32_MISC_ENABLE")
#undef BIT
#undef MIN
#undef MAX
#undef ARRAY_SIZE
#undef FIELD
#undef MSR_IA32_MISC_ENABLE
#include "bareperf/arch/msr.h"
#pragma pop_macro("BIT")
#pragma pop_macro("MIN")
#pragma pop_macro("MAX")
#pragma pop_macro("ARRAY_SIZE")
#pragma pop_macro("FIELD")
#pragma pop_macro("MSR_IA32_MISC_ENABLE")

#define TCG_PMU_MAX_CPUS 4
#define TCG_PMU_WHY_LEN 192

/*
 * The cost model's caches (qemu/README.md): a 32 KiB L1 and a 2 MiB LLC,
 * both direct mapped with 64-byte lines, and a next-line prefetcher that
 * turns the LLC miss of line L+1 after one of line L into a hit.
 */
#define LINE_SHIFT 6
#define L1_LINES   512
#define LLC_LINES  32768

typedef struct CacheModel {
    uint64_t l1[L1_LINES];      /* line + 1; 0 is empty */
    uint64_t llc[LLC_LINES];
    uint64_t last_l1_miss;
} CacheModel;

/* Accesses since the last settle. */
typedef struct MemCounts {
    uint64_t loads[3];          /* by level, SIM_MACHINE_L1 ... */
    uint64_t stores;
    uint64_t llc_references, llc_misses;
    uint64_t data_addr;
} MemCounts;

typedef struct TCGPMUCpu {
    bool on;
    int64_t pending;            /* retired per icount, not yet counted */
    uint64_t branches_counted;  /* env->tcg_pmu_branches already counted */
    uint64_t misses_counted;
    uint64_t slice_ip;          /* linear IP where the slice began */
    uint64_t tsc;               /* the TSC at the last safe read */
    bool pmi_pending;           /* requested, to deliver where we may */
    uint32_t eilvt_pending;     /* extended LVT entries requested (bit n) */
    MemCounts mem;
    CacheModel cache;
} TCGPMUCpu;

static TCGPMUCpu pmu_cpu[TCG_PMU_MAX_CPUS];
static CPUState *settling;      /* the vCPU whose retirement is counted */
static char pmu_model[32];      /* "" until the first vCPU opens it */
static bool pmu_translating;    /* some vCPU has the PMU: emit counting */
static bool pmu_tracking_memory;        /* a memory event was enabled */
static bool pmu_amd;            /* the part is AMD's (CPUID vendor) */

static TCGPMUCpu *pmu_of(CPUState *cs)
{
    if (cs->cpu_index >= TCG_PMU_MAX_CPUS || !pmu_cpu[cs->cpu_index].on) {
        return NULL;
    }
    return &pmu_cpu[cs->cpu_index];
}

/* ---- the machine the model sees ---------------------------------------- */

static void guest_read(void *ctx, uint64_t la, void *buf, uint32_t len)
{
    if (cpu_memory_rw_debug(settling, la, buf, len, false)) {
        memset(buf, 0, len);
    }
}

static void guest_write(void *ctx, uint64_t la, const void *buf, uint32_t len)
{
    cpu_memory_rw_debug(settling, la, (void *)buf, len, true);
}

static void request_pmi(void *ctx, uint32_t cpu)
{
    pmu_cpu[cpu].pmi_pending = true;
}

/* An interrupt through extended LVT entry n (AMD: IBS's, at the offset
 * IBS_CTL holds), delivered as the PMI is. */
static void request_eilvt(void *ctx, uint32_t cpu, uint32_t n)
{
    if (n < APIC_EILVT_COUNT_MAX) {
        pmu_cpu[cpu].eilvt_pending |= 1u << n;
    }
}

static const struct sim_machine_ops machine_ops = {
    .read = guest_read,
    .write = guest_write,
    .pmi = request_pmi,
    .eilvt = request_eilvt,
};

/* Raising an interrupt from the vCPU's own thread needs can_do_io under
 * icount (icount_handle_interrupt) and the BQL; where neither holds, the
 * PMI waits for the end of the slice, which the budget makes near. */
static void deliver_pmi(X86CPU *cpu)
{
    CPUState *cs = CPU(cpu);
    TCGPMUCpu *p = pmu_of(cs);
    bool locked;

    if (!p || !(p->pmi_pending || p->eilvt_pending) || !cs->can_do_io) {
        return;
    }
    qemu_log_mask(CPU_LOG_INT, "tcg-pmu: PMI on CPU %d (LVT PC %d, extended "
                  "LVT 0x%x), IF %d\n", cs->cpu_index, p->pmi_pending,
                  p->eilvt_pending, !!(cpu->env.eflags & IF_MASK));
    locked = qemu_mutex_iothread_locked();
    if (!locked) {
        qemu_mutex_lock_iothread();
    }
    if (p->pmi_pending) {
        /* Intel parts mask LVT PC as they deliver, AMD parts do not. */
        apic_deliver_pmi(cpu->apic_state, !pmu_amd);
    }
    for (int n = 0; n < APIC_EILVT_COUNT_MAX; n++) {
        if (p->eilvt_pending & (1u << n)) {
            apic_deliver_eilvt(cpu->apic_state, n);
        }
    }
    p->pmi_pending = false;
    p->eilvt_pending = 0;
    if (!locked) {
        qemu_mutex_unlock_iothread();
    }
}

/* ---- counting what retired --------------------------------------------- */

static void fill_registers(CPUX86State *env, struct sim_machine_retired *r)
{
    for (int i = 0; i < CPU_NB_REGS && i < 16; i++) {
        r->gpr[i] = env->regs[i];
    }
    r->rflags = cpu_compute_eflags(env);
    for (int i = 0; i < 16; i++) {
        r->xmm[i][0] = env->xmm_regs[i].ZMM_Q(0);
        r->xmm[i][1] = env->xmm_regs[i].ZMM_Q(1);
    }
}

/*
 * The PEBS assist's own time per record, which the guest sees pass (its
 * TSC, its clocks) while no instruction retires: by default 250 ns, the
 * middle of the 200-300 ns per record that Akiyama and Hirofuchi measured
 * ("Quantitative Evaluation of Intel PEBS Overhead for Online System-Noise
 * Analysis", ROSS 2017, doi:10.1145/3095770.3095773). The environment's
 * TCG_PMU_PEBS_ASSIST_NS sets another (0: the assist is free).
 */
#define PEBS_ASSIST_NS_DEFAULT 250

static int64_t pebs_assist_ns(void)
{
    static int64_t ns = -1;
    if (ns < 0) {
        const char *v = getenv("TCG_PMU_PEBS_ASSIST_NS");
        ns = v && *v ? strtoll(v, NULL, 10) : PEBS_ASSIST_NS_DEFAULT;
        ns = ns < 0 ? 0 : ns;
    }
    return ns;
}

static void charge_pebs_assist(uint64_t records)
{
    if (records && pebs_assist_ns()) {
        icount_stall((int64_t)records * pebs_assist_ns());
    }
}

/*
 * Gives the model what retired since the last settle. hold_current keeps
 * the instruction being executed (an RDMSR, WRMSR or RDPMC, the last of
 * its TB) for later: it retires after its own access, so the WRMSR that
 * enables a counter is counted by it and the one that disables it is not,
 * as on hardware (kvm-unit-tests x86/pmu.c, EXTRA_INSNS).
 */
static void settle(X86CPU *cpu, bool hold_current, bool may_read_tsc)
{
    CPUState *cs = CPU(cpu);
    CPUX86State *env = &cpu->env;
    TCGPMUCpu *p = pmu_of(cs);
    struct sim_machine_retired r = { 0 };
    int64_t n;

    if (!p) {
        return;
    }
    icount_update(cs);
    n = p->pending - (hold_current && p->pending > 0 ? 1 : 0);
    r.instructions = n > 0 ? n : 0;
    r.branches = env->tcg_pmu_branches - p->branches_counted;
    r.branch_misses = env->tcg_pmu_branch_misses - p->misses_counted;
    if (!r.instructions && !r.branches && !r.branch_misses &&
        !(p->mem.stores + p->mem.loads[0] + p->mem.loads[1] + p->mem.loads[2])) {
        return;
    }
    memcpy(r.loads, p->mem.loads, sizeof(r.loads));
    r.stores = p->mem.stores;
    r.llc_references = p->mem.llc_references;
    r.llc_misses = p->mem.llc_misses;
    r.data_addr = p->mem.data_addr;
    p->mem = (MemCounts){ 0 };
    p->pending -= r.instructions;
    p->branches_counted = env->tcg_pmu_branches;
    p->misses_counted = env->tcg_pmu_branch_misses;
    if (may_read_tsc) {
        p->tsc = cpu_get_tsc(env) + env->tsc_offset;
    }
    r.tsc = p->tsc;
    r.cpl = env->hflags & HF_CPL_MASK;
    r.next_ip = env->eip + env->segs[R_CS].base;
    /* A one-instruction slice ran exactly the eventing instruction. */
    r.ip = r.instructions == 1 ? p->slice_ip : r.next_ip;
    fill_registers(env, &r);
    settling = cs;
    uint64_t records = sim_machine_pebs_records(cs->cpu_index);
    sim_machine_retire(cs->cpu_index, &r);
    charge_pebs_assist(sim_machine_pebs_records(cs->cpu_index) - records);
    settling = NULL;
}

/* The budget that stops one instruction short of the next overflow, so
 * that the overflowing instruction then runs alone (its IP is known). */
static int64_t budget_before_overflow(CPUState *cs, TCGPMUCpu *p, int64_t budget)
{
    uint64_t d;

    if (budget <= 0 || !sim_machine_active(cs->cpu_index)) {
        return budget;
    }
    d = sim_machine_distance(cs->cpu_index, budget + p->pending);
    d = d > (uint64_t)p->pending ? d - p->pending : 1;
    return MIN(budget, d > 1 ? (int64_t)d - 1 : 1);
}

static void icount_retired(CPUState *cs, int64_t executed)
{
    TCGPMUCpu *p = pmu_of(cs);

    if (p) {
        p->pending += executed;
    }
}

static int64_t icount_budget(CPUState *cs, int64_t budget)
{
    TCGPMUCpu *p = pmu_of(cs);
    CPUX86State *env = cs->env_ptr;

    if (!p) {
        return budget;
    }
    p->slice_ip = env->eip + env->segs[R_CS].base;
    return budget_before_overflow(cs, p, budget);
}

static void icount_slice_end(CPUState *cs)
{
    X86CPU *cpu = X86_CPU(cs);

    if (pmu_of(cs)) {
        settle(cpu, false, true);
        deliver_pmi(cpu);
    }
}

static const IcountPMUHooks pmu_icount_hooks = {
    .retired = icount_retired,
    .budget = icount_budget,
    .slice_end = icount_slice_end,
};

/* No more of this slice after the current TB (budget and decrementer
 * together, so icount's accounting stays exact). */
static void end_slice_now(CPUState *cs)
{
    int64_t left = cpu_neg(cs)->icount_decr.u16.low + cs->icount_extra;

    cs->icount_budget -= left;
    cpu_neg(cs)->icount_decr.u16.low = 0;
    cs->icount_extra = 0;
}

/* After a PMU write mid-slice: the rest of the slice may cross an
 * overflow the write just armed; shorten it (budget and decrementer
 * together, so icount's accounting stays exact). */
static void recut_slice(CPUState *cs, TCGPMUCpu *p)
{
    int64_t left = cpu_neg(cs)->icount_decr.u16.low + cs->icount_extra;
    int64_t cut = budget_before_overflow(cs, p, left);

    if (cut >= left) {
        return;
    }
    cs->icount_budget -= left - cut;
    cpu_neg(cs)->icount_decr.u16.low = MIN(0xffff, cut);
    cs->icount_extra = cut - cpu_neg(cs)->icount_decr.u16.low;
}

/* ---- hooks ---------------------------------------------------------------- */

static const char *model_for_class(X86CPU *cpu)
{
    const char *name = object_class_get_name(OBJECT_CLASS(X86_CPU_GET_CLASS(cpu)));

    if (g_str_has_prefix(name, "Icelake-Server")) {
        return "icx";
    }
    if (g_str_has_prefix(name, "Skylake-Client")) {
        return "skl";
    }
    if (g_str_has_prefix(name, "EPYC-Rome")) {
        return "zen2";
    }
    return NULL;
}

/*
 * What the part says of itself before anything else: its vendor (CPUID
 * leaf 0, and leaf 80000000H on AMD parts), so that QEMU's own vendor
 * checks and the guest agree with the model; how far its basic and
 * extended leaves go (0AH, 1AH, 23H; AMD's 8000001BH, 80000022H); on AMD
 * parts the brand string (80000002H-80000004H). An AMD part's local APIC has the extended space (APM Vol. 2, "Extended APIC
 * Registers": APIC version bit 31, the feature register at 400H, four
 * extended LVT entries at 500H-530H), where IBS's interrupt is routed.
 */
static void adopt_part(X86CPU *cpu)
{
    CPUX86State *env = &cpu->env;
    uint32_t idx = CPU(cpu)->cpu_index;
    uint32_t leaf0[4], ext0[4];

    sim_machine_cpuid(idx, CPUID_LEAF_VENDOR, 0, leaf0);
    sim_machine_cpuid(idx, CPUID_LEAF_EXT_MAX, 0, ext0);
    env->cpuid_level = MAX(env->cpuid_level, leaf0[0]);
    env->cpuid_xlevel = MAX(env->cpuid_xlevel, ext0[0]);
    env->cpuid_vendor1 = leaf0[1];
    env->cpuid_vendor2 = leaf0[3];
    env->cpuid_vendor3 = leaf0[2];
    pmu_amd = IS_AMD_CPU(env);
    if (!pmu_amd) {
        return;
    }
    /* The brand string too: zen4 runs on EPYC-Milan, which is not one. */
    for (int i = 0; i < 3; i++) {
        sim_machine_cpuid(idx, CPUID_LEAF_BRAND0 + i, 0, &env->cpuid_model[4 * i]);
    }
    if (cpu->apic_state) {
        apic_enable_ext_space(cpu->apic_state, APIC_EILVT_COUNT_MAX);
    }
}

void tcg_pmu_realize(X86CPU *cpu, Error **errp)
{
    CPUState *cs = CPU(cpu);
    const char *model = cpu->tcg_pmu_model;
    char err[TCG_PMU_WHY_LEN];

    if (!tcg_enabled() || (!model && !cpu->enable_pmu)) {
        return;
    }
    if (!model) {
        model = model_for_class(cpu);
    }
    if (!model) {
        error_setg(errp, "tcg-pmu: pmu=on under TCG names its part with "
                   "tcg-pmu=MODEL (icx, skl, spr, adl, lnl, cwf, ptl, dmr, bdw, srf, zen4, zen2; "
                   "qemu/README.md)");
        return;
    }
    if (!icount_enabled()) {
        error_setg(errp, "tcg-pmu: the TCG PMU counts exact instructions "
                   "through icount: add -icount shift=0");
        return;
    }
    if (cs->cpu_index >= TCG_PMU_MAX_CPUS) {
        error_setg(errp, "tcg-pmu: at most %d vCPUs have a PMU",
                   TCG_PMU_MAX_CPUS);
        return;
    }
    if (!pmu_model[0]) {
        if (sim_machine_open(model, current_machine->smp.cpus, &machine_ops,
                             NULL, err, sizeof(err))) {
            error_setg(errp, "tcg-pmu: %s", err);
            return;
        }
        g_strlcpy(pmu_model, model, sizeof(pmu_model));
        icount_pmu_hooks = &pmu_icount_hooks;
    } else if (strcmp(pmu_model, model)) {
        error_setg(errp, "tcg-pmu: every vCPU has the same part "
                   "(%s, not %s)", pmu_model, model);
        return;
    }
    pmu_cpu[cs->cpu_index] = (TCGPMUCpu){ .on = true };
    pmu_translating = true;
    cpu->enable_pmu = true;
    adopt_part(cpu);
}

void tcg_pmu_cpuid(CPUX86State *env, uint32_t index, uint32_t count,
                   uint32_t *eax, uint32_t *ebx, uint32_t *ecx, uint32_t *edx)
{
    CPUState *cs = env_cpu(env);
    uint32_t m[4];

    if (!pmu_of(cs) || index > (index >= CPUID_LEAF_EXT_MAX ?
                                env->cpuid_xlevel : env->cpuid_level)) {
        return;     /* QEMU answered it as the last basic leaf */
    }
    sim_machine_cpuid(cs->cpu_index, index, count, m);
    switch (index) {
    case CPUID_LEAF_FEATURES:
        /* The part's signature: Linux and bareperf pick tables by it. */
        *eax = m[0];
        *ecx = (*ecx & ~(CPUID_01_ECX_PDCM | CPUID_01_ECX_DTES64)) |
               (m[2] & (CPUID_01_ECX_PDCM | CPUID_01_ECX_DTES64));
        *edx = (*edx & ~CPUID_01_EDX_DS) | (m[3] & CPUID_01_EDX_DS);
        break;
    case CPUID_LEAF_EXT_FEATURES:
        if (count == 0) {
            *edx = (*edx & ~CPUID_07_EDX_HYBRID) | (m[3] & CPUID_07_EDX_HYBRID);
            *eax = MAX(*eax, m[0]);     /* sub-leaf 1 exists where the part has it */
        } else if (count == 1) {
            /* ArchPerfmonExt: CPUID.23H is the part's (perfmon v6). */
            *eax = (*eax & ~CPUID_07_1_EAX_ARCH_PERFMON_EXT) |
                   (m[0] & CPUID_07_1_EAX_ARCH_PERFMON_EXT);
        }
        break;
    case CPUID_LEAF_AMD_FEATURES:
        /* AMD's signature again, PerfCtrExtCore and IBS (APM Vol. 3,
         * CPUID Fn8000_0001); the extended APIC space adopt_part gave. */
        if (pmu_amd) {
            *eax = m[0];
            *ecx = (*ecx & ~(CPUID_8000_0001_ECX_PERFCTR_CORE |
                             CPUID_8000_0001_ECX_IBS)) |
                   (m[2] & (CPUID_8000_0001_ECX_PERFCTR_CORE |
                            CPUID_8000_0001_ECX_IBS)) |
                   CPUID_8000_0001_ECX_EXT_APIC_SPACE;
        }
        break;
    case CPUID_LEAF_ARCH_PERFMON:
    case CPUID_LEAF_HYBRID:
    case CPUID_LEAF_ARCH_PERFMON_EXT:
    case CPUID_LEAF_AMD_IBS:
    case CPUID_LEAF_AMD_PERFMON:
        *eax = m[0];
        *ebx = m[1];
        *ecx = m[2];
        *edx = m[3];
        break;
    }
}

static int access_done(int gp, uint32_t what, bool is_write, uint64_t val,
                       const char *why)
{
    if (gp) {
        qemu_log_mask(LOG_GUEST_ERROR, "tcg-pmu: #GP on %s 0x%x (0x%" PRIx64
                      "): %s\n", is_write ? "WRMSR" : "RDMSR", what, val, why);
        return TCG_PMU_MSR_GP;
    }
    return TCG_PMU_MSR_DONE;
}

int tcg_pmu_rdmsr(CPUX86State *env, uint32_t msr, uint64_t *val)
{
    X86CPU *cpu = env_archcpu(env);
    char why[TCG_PMU_WHY_LEN] = "";
    int gp;

    if (!pmu_of(CPU(cpu)) || !sim_machine_owns_msr(msr)) {
        return TCG_PMU_MSR_NOT_MINE;
    }
    settle(cpu, true, true);
    gp = sim_machine_rdmsr(CPU(cpu)->cpu_index, msr, val, why, sizeof(why));
    return access_done(gp, msr, false, 0, why);
}

int tcg_pmu_wrmsr(CPUX86State *env, uint32_t msr, uint64_t val)
{
    X86CPU *cpu = env_archcpu(env);
    CPUState *cs = CPU(cpu);
    TCGPMUCpu *p = pmu_of(cs);
    char why[TCG_PMU_WHY_LEN] = "";
    int gp;

    if (!p || !sim_machine_owns_msr(msr)) {
        return TCG_PMU_MSR_NOT_MINE;
    }
    settle(cpu, true, true);
    if (msr == MSR_IA32_PERF_GLOBAL_CTRL ||     /* when each CPU counts */
        msr == MSR_AMD_PERF_CNTR_GLOBAL_CTL) {
        qemu_log_mask(CPU_LOG_INT, "tcg-pmu: CPU %d GLOBAL_CTRL 0x%" PRIx64 "\n",
                      cs->cpu_index, val);
    }
    gp = sim_machine_wrmsr(cs->cpu_index, msr, val, why, sizeof(why));
    deliver_pmi(cpu);   /* e.g. GLOBAL_STATUS_SET needs none, a reload may */
    recut_slice(cs, p);
    if (!pmu_tracking_memory && sim_machine_counts_memory(cs->cpu_index)) {
        /* From now on loads and stores are reported: retranslate. */
        pmu_tracking_memory = true;
        tb_flush(cs);
    }
    return access_done(gp, msr, true, val, why);
}

int tcg_pmu_rdpmc(CPUX86State *env, uint32_t ecx, uint64_t *val)
{
    X86CPU *cpu = env_archcpu(env);
    char why[TCG_PMU_WHY_LEN] = "";
    int gp;

    if (!pmu_of(CPU(cpu))) {
        return TCG_PMU_MSR_NOT_MINE;
    }
    settle(cpu, true, true);
    gp = sim_machine_rdpmc(CPU(cpu)->cpu_index, ecx, val, why, sizeof(why));
    return access_done(gp, ecx, false, 0, why);
}

uint64_t tcg_pmu_misc_enable(CPUX86State *env, uint64_t val)
{
    CPUState *cs = env_cpu(env);
    uint64_t mask, bits;

    if (!pmu_of(cs)) {
        return val;
    }
    bits = sim_machine_misc_enable_bits(cs->cpu_index, &mask);
    return (val & ~mask) | bits;
}

/*
 * What retired so far counts at the old level; from here counting follows
 * the new one (EVTSEL USR/OS). A slice whose budget was cut while nothing
 * counted (a user-only counter in the kernel) runs on uncut past the
 * return to user mode, so its overflows would be found only at the next
 * settle: the PEBS record and the PMI at another instruction (a timer
 * interrupt's return point, the next syscall), many overflows at one IP.
 * So where something counts at the new level the slice ends here (after
 * the instruction that changes the level, the last of its TB): the next
 * one is budgeted for the new level from where execution then stands,
 * which is also the IP a one-instruction slice reports (a budget cut here
 * would report the IP the slice began at, in the kernel).
 */
void tcg_pmu_cpl_change(CPUX86State *env, int cpl)
{
    CPUState *cs = env_cpu(env);

    if (pmu_of(cs)) {
        settle(env_archcpu(env), false, false);
        sim_machine_set_cpl(cs->cpu_index, (uint8_t)cpl);
        if (sim_machine_active(cs->cpu_index)) {
            end_slice_now(cs);
        }
    }
}

/* ---- branches, counted by the translated code -------------------------------- */

enum branch_kind {
    NOT_A_BRANCH,
    BRANCH,             /* predicted: conditional, direct, near return */
    BRANCH_MISSED,      /* the cost model's mispredict: indirect or far */
};

static bool is_legacy_prefix(uint8_t b)
{
    switch (b) {
    case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
    case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
        return true;
    }
    return false;
}

/* Reads only bytes of the instruction itself (prefixes, opcode, ModRM),
 * so it faults exactly where decoding would. */
static enum branch_kind classify(CPUX86State *env, target_ulong pc, bool code64)
{
    uint8_t b = cpu_ldub_code(env, pc);
    int n = 0;

    while ((is_legacy_prefix(b) || (code64 && (b & 0xf0) == 0x40)) && n < 14) {
        b = cpu_ldub_code(env, pc + ++n);
    }
    if ((b >= 0x70 && b <= 0x7f) || (b >= 0xe0 && b <= 0xe3) ||
        b == 0xe8 || b == 0xe9 || b == 0xeb || b == 0xc2 || b == 0xc3) {
        return BRANCH;
    }
    switch (b) {
    case 0x9a: case 0xea: case 0xca: case 0xcb: case 0xcf:    /* far, IRET */
    case 0xcc: case 0xcd: case 0xce:                          /* INT n */
        return BRANCH_MISSED;
    case 0x0f: {
        uint8_t b2 = cpu_ldub_code(env, pc + n + 1);
        if (b2 >= 0x80 && b2 <= 0x8f) {
            return BRANCH;
        }
        /* SYSCALL, SYSRET, SYSENTER, SYSEXIT */
        return (b2 == 0x05 || b2 == 0x07 || b2 == 0x34 || b2 == 0x35) ?
               BRANCH_MISSED : NOT_A_BRANCH;
    }
    case 0xff: {
        int reg = (cpu_ldub_code(env, pc + n + 1) >> 3) & 7;
        return reg >= 2 && reg <= 5 ? BRANCH_MISSED : NOT_A_BRANCH;
    }
    }
    return NOT_A_BRANCH;
}

static void gen_count(size_t offset)
{
    TCGv_i64 t = tcg_temp_new_i64();

    tcg_gen_ld_i64(t, cpu_env, offset);
    tcg_gen_addi_i64(t, t, 1);
    tcg_gen_st_i64(t, cpu_env, offset);
    tcg_temp_free_i64(t);
}

/* x86 branches end their TB, so the count emitted before one runs only
 * when the instructions before it retired; if the branch itself faults,
 * tcg_pmu_restore takes the count back. */
void tcg_pmu_translate_insn(CPUX86State *env, DisasContextBase *db,
                            target_ulong cs_base, bool code64)
{
    enum branch_kind kind;

    if (!pmu_translating) {
        return;
    }
    kind = classify(env, db->pc_next, code64);
    if (kind == NOT_A_BRANCH) {
        return;
    }
    tcg_gen_st_tl(tcg_constant_tl(db->pc_next - cs_base), cpu_env,
                  offsetof(CPUX86State, tcg_pmu_branch_eip));
    tcg_gen_st_i32(tcg_constant_i32(kind == BRANCH_MISSED), cpu_env,
                   offsetof(CPUX86State, tcg_pmu_branch_miss));
    gen_count(offsetof(CPUX86State, tcg_pmu_branches));
    if (kind == BRANCH_MISSED) {
        gen_count(offsetof(CPUX86State, tcg_pmu_branch_misses));
    }
}

void tcg_pmu_restore(CPUX86State *env)
{
    if (!pmu_translating || env->eip != env->tcg_pmu_branch_eip) {
        return;
    }
    env->tcg_pmu_branches--;
    env->tcg_pmu_branch_misses -= env->tcg_pmu_branch_miss;
    env->tcg_pmu_branch_eip = (target_ulong)-1;
}

/* ---- loads and stores, through the cost model's caches --------------------- */

static int cache_access(CacheModel *c, MemCounts *m, uint64_t line)
{
    uint64_t tag = line + 1;
    bool llc_hit;

    if (c->l1[line % L1_LINES] == tag) {
        return SIM_MACHINE_L1;
    }
    c->l1[line % L1_LINES] = tag;
    m->llc_references++;
    llc_hit = c->llc[line % LLC_LINES] == tag || line == c->last_l1_miss + 1;
    c->last_l1_miss = line;
    c->llc[line % LLC_LINES] = tag;
    if (llc_hit) {
        return SIM_MACHINE_LLC;
    }
    m->llc_misses++;
    return SIM_MACHINE_MEMORY;
}

void helper_tcg_pmu_mem(CPUX86State *env, target_ulong addr, uint32_t store)
{
    TCGPMUCpu *p = pmu_of(env_cpu(env));
    int level;

    if (!p) {
        return;
    }
    p->mem.data_addr = addr;
    if (store) {
        p->mem.stores++;
        /* Write-allocate; the RFO is not counted as an LLC reference. */
        p->cache.l1[(addr >> LINE_SHIFT) % L1_LINES] = (addr >> LINE_SHIFT) + 1;
        return;
    }
    level = cache_access(&p->cache, &p->mem, addr >> LINE_SHIFT);
    p->mem.loads[level]++;
}

void tcg_pmu_gen_mem(TCGv addr, bool store)
{
    if (pmu_tracking_memory) {
        gen_helper_tcg_pmu_mem(cpu_env, addr, tcg_constant_i32(store));
    }
}

/* Under icount every vCPU runs in turn on one thread; QEMU's PAUSE ends
 * the vCPU's turn, so an AP spinning in a PAUSE loop while it samples
 * would retire a handful of instructions per turn. Hardware gives nothing
 * away on PAUSE: while a counter counts, the vCPU keeps its turn (which
 * icount's deadlines, the round-robin kick among them, still end). */
bool tcg_pmu_pause_keeps_turn(CPUX86State *env)
{
    CPUState *cs = env_cpu(env);

    return pmu_of(cs) && sim_machine_active(cs->cpu_index);
}
