/* The emulated PMU inside a machine: the narrow interface QEMU's TCG PMU
 * (qemu/) drives, so that one model of the SDM's rules serves the host
 * twin, the image's --pmu=sim and the QEMU machine alike.
 *
 * The machine owns what it really has: guest memory (PEBS records go
 * there through its MMU), the local APIC (a PMI goes through its LVT
 * PC), CPL, registers and the exact instruction count. The model owns
 * the PMU's MSRs, counting, overflow, freeze and the PEBS assist.
 *
 * Plain <stdint.h> types only: QEMU includes this header and has its own
 * MIN/BIT macros. Calls are not thread-safe; the machine serialises them
 * (QEMU's round-robin TCG thread, which -icount implies). */
#ifndef BP_SIM_MACHINE_H
#define BP_SIM_MACHINE_H
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

struct sim_machine_ops {
	/* Guest linear memory; the PEBS assist's DS area and records. */
	void (*read)(void *ctx, uint64_t la, void *buf, uint32_t len);
	void (*write)(void *ctx, uint64_t la, const void *buf, uint32_t len);
	/* The PMU requests a PMI on this CPU: the machine's LVT PC decides. */
	void (*pmi)(void *ctx, uint32_t cpu);
	/* An interrupt through extended LVT entry n (AMD's extended APIC
	 * space: IBS's, at the offset IBS_CTL holds): the machine's entry
	 * decides. NULL where the machine has no extended space. */
	void (*eilvt)(void *ctx, uint32_t cpu, uint32_t n);
};

/* Opens model `spec` ("icx", "adl", ...) with ncpus logical CPUs and
 * attaches the machine. 0, or -1 with a message in err. */
int sim_machine_open(const char *spec, uint32_t ncpus, const struct sim_machine_ops *ops,
		     void *ctx, char *err, size_t errlen);
uint32_t sim_machine_cpus(void);

/* CPUID as the modelled part reports it. */
void sim_machine_cpuid(uint32_t cpu, uint32_t leaf, uint32_t sub, uint32_t out[4]);
/* True for the MSRs the PMU owns (counters, controls, DS, PEBS,
 * PERF_CAPABILITIES, DEBUGCTL, offcore; on an AMD model its PERF_CTL/CTR
 * pairs, legacy aliases, PerfMonV2 globals and DebugCtl): the machine
 * sends those here and keeps every other MSR, the APIC's included. */
bool sim_machine_owns_msr(uint32_t msr);
/* 0, or 1 for a #GP with the SDM rule in why. */
int sim_machine_rdmsr(uint32_t cpu, uint32_t msr, uint64_t *val, char *why, size_t whylen);
int sim_machine_wrmsr(uint32_t cpu, uint32_t msr, uint64_t val, char *why, size_t whylen);
int sim_machine_rdpmc(uint32_t cpu, uint32_t ecx, uint64_t *val, char *why, size_t whylen);
/* IA32_MISC_ENABLE bits the PMU defines (perfmon, BTS, PEBS available):
 * the machine keeps the MSR and takes these from the model (none on an
 * AMD model, which has no such MSR: *mask is 0). */
uint64_t sim_machine_misc_enable_bits(uint32_t cpu, uint64_t *mask);

/* What retired on a CPU since the last call, at one privilege level. */
struct sim_machine_retired {
	uint64_t instructions;	/* each also one core cycle (the cost model) */
	uint64_t branches;	/* BR_INST_RETIRED.ALL_BRANCHES (0xC4/00) */
	uint64_t branch_misses;	/* BR_MISP_RETIRED.ALL_BRANCHES (0xC5/00) */
	/* Loads by where the machine's cache model served them (L1, LLC,
	 * memory), stores, and the LLC's references and misses. */
	uint64_t loads[3];
	uint64_t stores;
	uint64_t llc_references, llc_misses;
	uint64_t data_addr;	/* the last access's linear address */
	uint8_t cpl;
	uint64_t ip;		/* the last retired instruction (eventing IP) */
	uint64_t next_ip;	/* where execution goes on (PEBS RIP) */
	uint64_t tsc;
	uint64_t gpr[16];	/* RAX RCX RDX RBX RSP RBP RSI RDI R8-R15 */
	uint64_t rflags;
	uint64_t xmm[16][2];
};
/* Counts them; an overflow sets its status bit, runs the PEBS assist and
 * requests the PMI, as the hardware does at that instruction. */
void sim_machine_retire(uint32_t cpu, const struct sim_machine_retired *r);
/* PEBS records the assist has written on this CPU so far: the machine
 * charges each record its own time (qemu/README.md, cost model). */
uint64_t sim_machine_pebs_records(uint32_t cpu);
/* The privilege level the CPU runs at from now on (after a settle at the
 * old one): which counters count, and so sim_machine_distance, depend on
 * it (EVTSEL USR/OS, FIXED_CTR_CTRL's enables). */
void sim_machine_set_cpl(uint32_t cpu, uint8_t cpl);
/* Instructions the CPU may retire before a counter can overflow, at most
 * limit (at least 1). */
uint64_t sim_machine_distance(uint32_t cpu, uint64_t limit);
/* True when some counter of this CPU is enabled and counting. */
bool sim_machine_active(uint32_t cpu);
/* True when an enabled counter of this CPU counts a memory event (LLC,
 * loads, stores, load latency), or IBS op sampling is on (a tagged load
 * carries its address and level): the machine then reports accesses. */
bool sim_machine_counts_memory(uint32_t cpu);

/* The cost model's cache levels (struct sim_machine_retired.loads). */
enum { SIM_MACHINE_L1, SIM_MACHINE_LLC, SIM_MACHINE_MEMORY };

#endif
