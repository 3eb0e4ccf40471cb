/* cmd/cpus and sampling/percpu: CPU lists, and sampling on every CPU of the emulated PMU:
 * each model CPU set up and given back (the machine left as found on
 * every CPU), samples from every CPU carrying its number and the IP its
 * CPU published, and a hybrid part's core type without an event reported
 * and left out. The host has no APs: the test publishes their IPs. */
#include "test.h"
#include "cli_run.h"
#include "cmd/cli.h"
#include "cmd/cpus.h"
#include "sampling/percpu.h"
#include "host/capture.h"
#include "lib/plat.h"
#include "arch/hw.h"
#include "sim/drive.h"
#include "workload/workload.h"
#include "sim/sim.h"
#include "sim/sim_api.h"
#include "events/evparse.h"
#include <time.h>

static char out[8192];
static struct percpu pc;
static struct percpu_types types;

/* The events parsed as the commands parse them: once for the calling
 * CPU's core type, then once for each other core type among mask's CPUs. */
static const struct percpu_types *parsed(const char *text, u64 mask)
{
	struct pmu_caps own;
	struct pmu_event ev[PMU_MAX_EVENTS];
	char err[512];
	pmu_caps_read(&own);
	int n = evparse_list(text, event_table_for_caps(&own), &own, ev, PMU_MAX_EVENTS, err,
			     sizeof(err));
	if (n < 0)
		fail_msg("%s: %s", text, err);
	percpu_types_init(&types, &own, text, ev, n);
	percpu_types_add_cpus(&types, mask);
	return &types;
}

static void test_parse_list(void **state)
{
	char err[160];
	u64 m;
	assert_int_equal(cpus_parse_list("0,2-3", 4, &m, err, sizeof(err)), 0);
	assert_int_equal(m, 0xD);
	assert_int_equal(cpus_parse_list("1", 2, &m, err, sizeof(err)), 0);
	assert_int_equal(m, 0x2);
	assert_int_equal(cpus_parse_list("0-63", 64, &m, err, sizeof(err)), 0);
	assert_true(m == ~0ULL);
	assert_int_equal(cpus_parse_list("4", 4, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "CPU 4 does not exist (CPUs 0-3)"));
	assert_int_equal(cpus_parse_list("3-2", 4, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "upwards"));
	assert_int_equal(cpus_parse_list("1-", 4, &m, err, sizeof(err)), -1);
	assert_int_equal(cpus_parse_list("a", 4, &m, err, sizeof(err)), -1);
	assert_int_equal(cpus_parse_list("1;2", 4, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "commas"));
	assert_int_equal(cpus_parse_list("", 4, &m, err, sizeof(err)), -1);
	/* A machine with more CPUs than a u64 mask: named, not silently cut. */
	assert_int_equal(cpus_parse_list("70", 128, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "CPU 70: bareperf samples at most 64 CPUs (0-63) of this machine's 128"));
	assert_int_equal(cpus_parse_list("63", 128, &m, err, sizeof(err)), 0);
	assert_true(m == BIT(63));
}

static void test_all_mask(void **state)
{
	char note[160];
	assert_true(cpus_all_mask(4, note, sizeof(note)) == 0xF);
	assert_string_equal(note, "");
	assert_true(cpus_all_mask(64, note, sizeof(note)) == ~0ULL);
	assert_string_equal(note, "");
	assert_true(cpus_all_mask(128, note, sizeof(note)) == ~0ULL);
	assert_string_equal(note, "-a: this machine has 128 CPUs; bareperf samples the first 64 "
				  "(CPUs 64-127 are not sampled)");
}

/* Where the "APs" run, as far as the model knows. */
__attribute__((noinline)) static void ap_code(void) { __asm__ volatile(""); }

static void open_sim(const char *model)
{
	char err[160];
	const struct hw_ops *ops = sim_open(model, err, sizeof(err));
	if (!ops)
		fail_msg("%s: %s", model, err);
	hw_select(ops);
	exec_select(sim_drive_exec());	/* as backend_select does with --pmu=sim */
	const char *why;
	assert_int_equal(sim_drive_start(SIM_DRIVE_PERIOD_US, workload_insn_rate(), &why), 0);
}

static void close_sim(void)
{
	sim_drive_stop();
	sim_close();
	hw_select(plat_hw_ops());
	exec_select(exec_machine());
}

static void run_for_ms(u64 ms)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((u64)(t.tv_sec - t0.tv_sec) * 1000 + (u64)(t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* Every CPU samples, each sample names its CPU, the APs' samples are at
 * the IPs they published, and closing puts every CPU's PMU and APIC back
 * exactly (LVT PC, DS_AREA, counters, PEBS enables). */
static void test_every_cpu_sampled_and_restored(void **state)
{
	struct sim_snapshot before, after;
	char diff[160];
	struct sampling_opts so = { .period = 20000 };
	open_sim("icx,cpus=4");
	sim_snapshot(&before);
	host_capture_start(out, sizeof(out));
	assert_int_equal(percpu_open(&pc, 0xF, parsed("cycles,instructions:p", 0xF), false, &so, &percpu_sampling, "test"), EXIT_OK);
	assert_int_equal(percpu_ready(&pc), 4);
	sim_snapshot(&after);
	assert_false(sim_snapshot_equal(&before, &after, diff, sizeof(diff)));
	for (u32 cpu = 1; cpu < 4; cpu++) {
		assert_int_not_equal(after.cpu[cpu].lvt_pc, before.cpu[cpu].lvt_pc);
		assert_int_not_equal(after.cpu[cpu].ds_area, 0);	/* its own DS area */
		assert_int_not_equal(after.cpu[cpu].ds_area, after.cpu[0].ds_area);
	}
	percpu_start(&pc);
	for (u32 cpu = 1; cpu < 4; cpu++)
		pc.ap_ip[cpu] = (u64)(uintptr_t)ap_code;
	run_for_ms(150);
	percpu_stop(&pc);
	host_capture_stop();
	for (u32 i = 0; i < 4; i++) {
		struct bp_sample s[64];
		u32 n = percpu_poll(&pc, i, s, 64);
		assert_true(n > 0);
		for (u32 k = 0; k < n; k++) {
			assert_int_equal(s[k].cpu, pc.cpu[i]->cpu);
			if (pc.cpu[i]->cpu != 0)
				assert_true(s[k].ip - (u64)(uintptr_t)ap_code < 16);
		}
	}
	percpu_close(&pc);
	sim_snapshot(&after);
	if (!sim_snapshot_equal(&before, &after, diff, sizeof(diff)))
		fail_msg("not restored: %s", diff);
	close_sim();
}

/* The model CPUs' time stamp counters run in step, as the TSCs of one
 * machine's logical processors do (SDM Vol. 3B 17.17, Time-Stamp Counter:
 * invariant TSC), halted or not: samples of every CPU are stamped on one
 * clock, so perf finds the image's mappings (written at the BSP's time)
 * before any CPU's samples. An AP that publishes its IP late started
 * from 0 and stamped its samples before the mappings. */
static void test_every_cpu_one_clock(void **state)
{
	struct sampling_opts so = { .period = 20000 };
	open_sim("icx,cpus=2");
	run_for_ms(60);		/* the BSP's model runs alone meanwhile */
	sim_set_cpu(0);
	u64 bsp_before = sim_tsc();
	assert_true(bsp_before > 0);
	host_capture_start(out, sizeof(out));
	assert_int_equal(percpu_open(&pc, 0x3, parsed("cycles", 0x3), false, &so, &percpu_sampling, "test"), 0);
	percpu_start(&pc);
	run_for_ms(30);		/* CPU 1 halted: no IP published yet */
	pc.ap_ip[1] = (u64)(uintptr_t)ap_code;
	run_for_ms(60);
	percpu_stop(&pc);
	host_capture_stop();
	struct bp_sample s[256];
	u32 n = percpu_poll(&pc, 1, s, 256);
	assert_true(n > 0);
	for (u32 k = 0; k < n; k++)
		if (s[k].tsc < bsp_before)
			fail_msg("CPU 1's sample %u at TSC %llu, before the BSP's %llu", k,
				 (unsigned long long)s[k].tsc, (unsigned long long)bsp_before);
	percpu_close(&pc);
	close_sim();
	(void)state;
}

/* On the machine (each CPU runs its own code), a session of the calling
 * CPU alone takes every PMI on its vector as that CPU's: only its LVT PC
 * holds the vector (SDM Vol. 3A 10.5.1, one LVT per local APIC). Finding
 * the CPU by its APIC ID ran CPUID three times at every PMI here (leaves
 * 0, 0BH and 01H). */
static void test_one_cpu_pmi_runs_no_cpuid(void **state)
{
	struct sampling_opts so = { .period = 20000 };
	open_sim("icx");
	exec_select(exec_machine());	/* PMIs through the gate, as on the machine */
	host_capture_start(out, sizeof(out));
	assert_int_equal(percpu_open_self(&pc, parsed("cycles", 0), false, &so, &percpu_sampling, "test"), 0);
	percpu_start(&pc);
	hw_stats_reset();		/* the seam's CPUIDs from here on */
	run_for_ms(60);
	struct hw_stats while_sampling;
	hw_stats_get(&while_sampling);
	percpu_stop(&pc);
	host_capture_stop();
	struct pmi_stats st;
	percpu_pmi_stats(&pc, &st);
	assert_true(st.pmis >= 10);
	assert_true(st.samples >= 10);
	assert_int_equal(while_sampling.cpuid, 0);	/* under a hypervisor, a VM exit each */
	percpu_close(&pc);
	close_sim();
	(void)state;
}

/* The CPU sampled the list its core type parsed: the same events,
 * field for field, given to its sampler. */
static void assert_samples_list(const struct percpu_cpu *c, const struct percpu_events *type)
{
	assert_int_equal(c->n, type->n);
	assert_memory_equal(c->ev, type->ev, (size_t)type->n * sizeof(type->ev[0]));
	const struct sampling *smp = c->state;	/* percpu_sampling's */
	assert_int_equal(smp->n, type->n);
	assert_memory_equal(smp->ev, type->ev, (size_t)type->n * sizeof(type->ev[0]));
}

/* A hybrid part: the E-cores lack decode.lcp. The events are parsed once
 * per core type, not per CPU: the P-cores' list (the BSP's, which the
 * command checks) is the one they sample, and the E-cores' parse failed
 * once, with its reason, which the E-cores report once, with their core
 * type; they are not sampled, the P-cores are. */
static void test_hybrid_core_type_lacks_event(void **state)
{
	struct sampling_opts so = { .period = 20000 };
	open_sim("adl,cpus=4");
	host_capture_start(out, sizeof(out));
	const struct percpu_types *t = parsed("cycles,decode.lcp", 0xF);
	int rc = percpu_open(&pc, 0xF, t, false, &so, &percpu_sampling, "test");
	host_capture_stop();
	assert_int_equal(rc, EXIT_OK);
	assert_int_equal(t->count, 2);		/* P-core, E-core: once each */
	assert_int_equal(t->type[0].n, 2);
	assert_int_equal(t->type[1].n, -1);
	assert_non_null(strstr(t->type[1].err, "efficiency core (Atom): "));
	assert_non_null(strstr(t->type[1].err, "decode.lcp"));
	assert_int_equal(percpu_ready(&pc), 2);
	assert_true(pc.by_number[0]->ready && pc.by_number[2]->ready);
	assert_false(pc.by_number[1]->ready || pc.by_number[3]->ready);
	assert_samples_list(pc.by_number[0], &t->type[0]);
	assert_samples_list(pc.by_number[2], &t->type[0]);
	/* Once for both E-cores (a 64-CPU part said it 32 times). */
	assert_int_equal(count_substr(out, "decode.lcp"), 1);
	assert_non_null(strstr(out, "CPUs 1, 3 are not sampled: efficiency core (Atom): "));
	percpu_close(&pc);
	close_sim();
}

/* Events both core types have: one list each, each CPU sampling its own
 * type's (an E-core's caps pick the E-core table). */
static void test_hybrid_one_list_per_core_type(void **state)
{
	struct sampling_opts so = { .period = 20000 };
	open_sim("adl,cpus=4");
	host_capture_start(out, sizeof(out));
	const struct percpu_types *t = parsed("cycles,instructions", 0xF);
	int rc = percpu_open(&pc, 0xF, t, false, &so, &percpu_sampling, "test");
	host_capture_stop();
	assert_int_equal(rc, EXIT_OK);
	assert_int_equal(t->count, 2);
	assert_int_equal(percpu_ready(&pc), 4);
	assert_true(t->type[0].caps.core_type != t->type[1].caps.core_type);
	for (u32 cpu = 0; cpu < 4; cpu++) {
		const struct percpu_cpu *c = pc.by_number[cpu];
		assert_ptr_equal(percpu_types_find(t, &c->caps), &t->type[cpu & 1]);
		assert_samples_list(c, &t->type[cpu & 1]);
	}
	percpu_close(&pc);
	close_sim();
	(void)state;
}

/* A CPU beyond what the model has is reported, not silently skipped. */
static void test_cpu_beyond_the_model(void **state)
{
	struct sampling_opts so = { .period = 20000 };
	open_sim("icx,cpus=2");
	host_capture_start(out, sizeof(out));
	int rc = percpu_open(&pc, 0x5, parsed("cycles", 0x5), false, &so, &percpu_sampling, "test");
	host_capture_stop();
	assert_int_equal(rc, EXIT_OK);
	assert_int_equal(percpu_ready(&pc), 1);
	assert_non_null(strstr(out, "CPU 2: the emulated PMU models 2 CPUs"));
	percpu_close(&pc);
	close_sim();
}

static int run_cli(const char *args) { return cli_run(args, out, sizeof(out)); }

/* stat -C LIST -A: one line per CPU and event, the CPU first; -A alone
 * and -a with -C are usage errors. */
/* A CPU whose PMU could not be given back (its DS/PEBS
 * pages were freed although its PEBS assist may still write there). On
 * the real path an AP's teardown that never runs (the host twin runs
 * nothing on CPU 1, as MP services that time out) leaves its state and
 * its arena reserved, and close says so. */
static void test_unreturned_cpu_kept(void **state)
{
	struct percpu p = { 0 };
	struct percpu_cpu *c = calloc(1, sizeof(*c));
	assert_non_null(c);
	c->cpu = 1;
	c->open = c->ready = true;
	c->owner = &p;
	p.cmd = "record";
	p.count = 1;
	p.cpu[0] = p.by_number[1] = c;
	host_capture_start(out, sizeof(out));
	percpu_close(&p);
	host_capture_stop();
	if (!strstr(out, "bareperf record: CPU 1: its PMU was not given back; its DS/PEBS memory "
			 "stays reserved"))
		fail_msg("close did not keep CPU 1's memory:\n%s", out);
	assert_true(c->open);	/* left as it was, not freed */
	assert_int_equal(p.count, 0);
	free(c);
}

static void test_stat_per_cpu(void **state)
{
	assert_int_equal(run_cli("--pmu=sim:icx stat -C 0 -A -e cycles,instructions soak"),
			 EXIT_OK);
	assert_non_null(strstr(out, "'system wide'"));
	assert_int_equal(count_substr(out, "\nCPU0 "), 2);
	assert_non_null(strstr(out, "insn per cycle"));
	assert_int_equal(run_cli("--pmu=sim:icx stat -A soak"), EXIT_USAGE);
	assert_non_null(strstr(out, "-A (per CPU) needs -a or -C LIST"));
	assert_int_equal(run_cli("--pmu=sim:icx stat -a -C 0 soak"), EXIT_USAGE);
	assert_int_equal(run_cli("--pmu=sim:icx stat -C 0-99 soak"), EXIT_USAGE);
	assert_non_null(strstr(out, "does not exist"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_all_mask),
		cmocka_unit_test(test_every_cpu_sampled_and_restored),
		cmocka_unit_test(test_every_cpu_one_clock),
		cmocka_unit_test(test_one_cpu_pmi_runs_no_cpuid),
		cmocka_unit_test(test_hybrid_core_type_lacks_event),
		cmocka_unit_test(test_hybrid_one_list_per_core_type),
		cmocka_unit_test(test_cpu_beyond_the_model),
		cmocka_unit_test(test_stat_per_cpu),
		cmocka_unit_test(test_unreturned_cpu_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
