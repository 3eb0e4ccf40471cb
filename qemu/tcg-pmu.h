// SPDX-License-Identifier: GPL-2.0-or-later (built into QEMU: LICENSE)
/*
 * bareperf's TCG PMU: the hooks QEMU's x86 target calls (qemu/README.md).
 * Installed as target/i386/tcg-pmu.h by tools/build-qemu; the code is
 * target/i386/tcg/sysemu/tcg-pmu.c (qemu/tcg-pmu.c in bareperf); the
 * translator's own hooks are in tcg-pmu-translate.h.
 */
#ifndef TARGET_I386_TCG_PMU_H
#define TARGET_I386_TCG_PMU_H

/* What an MSR or RDPMC hook did with the access. */
enum {
    TCG_PMU_MSR_NOT_MINE,   /* not a PMU register: QEMU handles it */
    TCG_PMU_MSR_DONE,
    TCG_PMU_MSR_GP,         /* the PMU refuses it: #GP */
};

/* cpu.c: tcg-pmu=MODEL or pmu=on under TCG; CPUID as the modelled part. */
void tcg_pmu_realize(X86CPU *cpu, Error **errp);
void tcg_pmu_cpuid(CPUX86State *env, uint32_t index, uint32_t count,
                   uint32_t *eax, uint32_t *ebx, uint32_t *ecx, uint32_t *edx);
/* misc_helper.c: RDMSR/WRMSR/RDPMC of the PMU's registers. */
int tcg_pmu_rdmsr(CPUX86State *env, uint32_t msr, uint64_t *val);
int tcg_pmu_wrmsr(CPUX86State *env, uint32_t msr, uint64_t val);
int tcg_pmu_rdpmc(CPUX86State *env, uint32_t ecx, uint64_t *val);
uint64_t tcg_pmu_misc_enable(CPUX86State *env, uint64_t val);
/* cpu.h: the CPL is about to change (USR/OS filtering). */
void tcg_pmu_cpl_change(CPUX86State *env, int cpl);
/* misc_helper.c: PAUSE ends the vCPU's turn unless its PMU counts. */
bool tcg_pmu_pause_keeps_turn(CPUX86State *env);
/* tcg-cpu.c: the TB stopped at an instruction that did not retire. */
void tcg_pmu_restore(CPUX86State *env);

#endif
