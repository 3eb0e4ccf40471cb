/* The emulated Intel PMU: a strict model of the SDM behind the hardware
 * seam. This header is the part the rest of bareperf uses; the model's
 * test-facing API (event injection, fault injection, statistics,
 * snapshots) is in sim/sim_api.h. */
#ifndef BP_SIM_H
#define BP_SIM_H
#include "../lib/types.h"
#include "../arch/hw.h"
#include "../arch/exec.h"

/* Starts the model of a CPU ("skl", "icx", "spr", "adl", ...). Returns its
 * seam backend, or NULL with a message in err naming the known models. */
const struct hw_ops *sim_open(const char *model, char *err, size_t errlen);
/* The same with at least min_cpus logical CPUs (at most SIM_MAX_CPUS),
 * unless the spec's cpus=N says how many: `--pmu=sim` gives the model as
 * many CPUs as the machine has, so every CPU has a model PMU. */
const struct hw_ops *sim_open_cpus(const char *model, u32 min_cpus, char *err, size_t errlen);
void sim_close(void);
const char *sim_default_model(void);

/* The model's execution seam (arch/exec.h, sim/drive.c): every model
 * CPU's code runs on the BSP, and a periodic tick drives the model. The
 * backend selects it with the model's hw_ops. */
const struct exec_ops *sim_drive_exec(void);

#endif
