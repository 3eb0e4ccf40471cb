/* The differential sequence (pmu_diff.h) on the PMU model, as QEMU's TCG
 * PMU drives it (sim/sim_machine.h): usage `pmu_diff_host MODEL`. Prints
 * the transcript tests/efi/pmudiff.c prints in the guest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pmu_diff.h"
#include "../../sim/sim_machine.h"
#include "../../arch/msr.h"

static void host_read(void *ctx, uint64_t la, void *buf, uint32_t len)
{
	memcpy(buf, (const void *)(uintptr_t)la, len);
}

static void host_write(void *ctx, uint64_t la, const void *buf, uint32_t len)
{
	memcpy((void *)(uintptr_t)la, buf, len);
}

static void host_pmi(void *ctx, uint32_t cpu) { }	/* LVT PC masked: dropped */

static const struct sim_machine_ops machine = {
	.read = host_read, .write = host_write, .pmi = host_pmi,
	.eilvt = NULL,	/* an Intel part: no extended APIC space */
};

static void fail(const char *what, uint32_t msr, const char *why)
{
	fprintf(stderr, "pmu_diff_host: %s 0x%x: #GP: %s\n", what, msr, why);
	exit(1);
}

typedef int (*read_fn)(uint32_t cpu, uint32_t what, uint64_t *val, char *why, size_t whylen);

/* A read that must not #GP: the sequence only does what every part allows. */
static u64 checked_read(read_fn read, const char *name, u32 what)
{
	char why[192];
	uint64_t v;
	if (read(0, what, &v, why, sizeof(why)))
		fail(name, what, why);
	return v;
}

static u64 host_rdmsr(u32 msr) { return checked_read(sim_machine_rdmsr, "RDMSR", msr); }

static void host_wrmsr(u32 msr, u64 val)
{
	char why[192];
	if (sim_machine_wrmsr(0, msr, val, why, sizeof(why)))
		fail("WRMSR", msr, why);
}

static u64 host_rdpmc(u32 ecx) { return checked_read(sim_machine_rdpmc, "RDPMC", ecx); }

static void retire(u64 instructions, u64 branches)
{
	struct sim_machine_retired r = { .instructions = instructions, .branches = branches };
	sim_machine_retire(0, &r);
}

/* What the guest's loop retires, instruction by instruction in order: the
 * enabling WRMSR, per iteration four then the branch, the two XORs. */
static void host_measure(u64 ctrl, u64 n)
{
	host_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, ctrl);
	retire(1, 0);
	for (u64 i = 0; i < n; i++) {
		retire(4, 0);
		retire(1, 1);
	}
	retire(2, 0);
	host_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
}

static void host_emit(const char *name, u64 value)
{
	printf("pmudiff %s 0x%llx\n", name, (unsigned long long)value);
}

int main(int argc, char **argv)
{
	static u8 ds[4096] __attribute__((aligned(4096)));
	static u8 pebs[65536] __attribute__((aligned(4096)));
	char err[192];
	if (argc != 2) {
		fprintf(stderr, "usage: pmu_diff_host MODEL\n");
		return 2;
	}
	if (sim_machine_open(argv[1], 1, &machine, NULL, err, sizeof(err))) {
		fprintf(stderr, "pmu_diff_host: %s\n", err);
		return 2;
	}
	const struct pmu_diff_ops ops = {
		.rdmsr = host_rdmsr, .wrmsr = host_wrmsr, .rdpmc = host_rdpmc,
		.measure = host_measure, .emit = host_emit, .ds = ds, .pebs = pebs,
	};
	pmu_diff_run(&ops);
	printf("pmudiff done\n");
	return 0;
}
