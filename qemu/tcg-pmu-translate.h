// SPDX-License-Identifier: GPL-2.0-or-later (built into QEMU: LICENSE)
/*
 * bareperf's TCG PMU: what the x86 translator emits for it (qemu/README.md).
 * Installed as target/i386/tcg-pmu-translate.h by tools/build-qemu.
 */
#ifndef TARGET_I386_TCG_PMU_TRANSLATE_H
#define TARGET_I386_TCG_PMU_TRANSLATE_H

#include "exec/translator.h"

/* Before each instruction: counts it if it is a branch. */
void tcg_pmu_translate_insn(CPUX86State *env, DisasContextBase *db,
                            target_ulong cs_base, bool code64);
/* Before each integer load or store at linear address addr, once a
 * counter counts a memory event: the cache model and the access counts. */
void tcg_pmu_gen_mem(TCGv addr, bool store);

#endif
