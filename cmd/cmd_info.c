/* `bareperf info`: what this CPU's PMU is, decoded from CPUID and the
 * capability MSRs, plus the interrupt path and the firmware. */
#include "cli.h"
#include "backend.h"
#include "../arch/apic.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../arch/caps.h"
#include "../arch/exec.h"
#include "../pmu/arch.h"
#include "../pmu/precise.h"

static const char *yes_no(bool b) { return b ? "yes" : "no"; }

static void print_identity(const struct pmu_caps *c)
{
	out_printf("cpu:          %s, family 0x%x model 0x%x stepping 0x%x (signature 0x%08x)\n",
		   c->vendor, c->family, c->model, c->stepping, c->signature);
	if (c->brand[0])
		out_printf("brand:        %s\n", c->brand);
	if (c->hypervisor)
		out_printf("hypervisor:   yes, signature '%s'\n", c->hypervisor_sig);
	else
		out_printf("hypervisor:   none reported\n");
	if (c->hybrid)
		out_printf("hybrid:       yes; this CPU is a %s (0x%02x)\n",
			   caps_core_type_name(c->core_type), c->core_type);
	out_printf("cpus:         %u\n", exec_cpu_count());
	out_printf("firmware:     %s, revision 0x%08x (%s)\n", plat_firmware_vendor(),
		   plat_firmware_revision(), plat_name());
}

static void print_counters(const struct pmu_caps *c)
{
	out_printf("perfmon:      version %u\n", c->version);
	const char *source = c->has_leaf_23 ? " [CPUID.23H]" :
			     c->hybrid_core_extra ? " [CPUID.0AH's common ones and this P-core's own]" : "";
	out_printf("gp counters:  %u x %u bits (mask 0x%x)%s\n", c->num_gp, c->gp_width,
		   c->gp_mask, source);
	out_printf("fixed:        %u x %u bits (mask 0x%x)%s\n", c->num_fixed,
		   c->fixed_width, c->fixed_mask, c->hybrid_core_extra || c->has_leaf_23 ? source : "");
	out_printf("arch events:  %u enumerated\n", c->arch_events_len);
	for (unsigned e = 0; e < ARCH_EVENT_COUNT && e < c->arch_events_len; e++)
		out_printf("  %-28s %s\n", caps_arch_event_name(e),
			   caps_arch_event(c, e) ? "available" : "NOT available");
	if (c->version >= 3)
		out_printf("anythread:    %s\n", c->anythread_deprecated ? "deprecated" : "supported");
	if (c->arch_perfmon_ext)
		out_printf("perfmon ext:  CPUID.23H, sub-leaves 0x%x; PERFEVTSEL extension: UMASK2 %s, "
			   "EQ %s\n", c->leaf23_subleaves, yes_no(c->umask2), yes_no(c->evtsel_eq));
	if (caps_v6_msrs(c))	/* where caps addresses the counters */
		out_printf("counter MSRs: perfmon v6 block: IA32_PMC_GPn_CTR 0x%x + %un, _CFG_A 0x%x + %un, "
			   "IA32_PMC_FXn_CTR 0x%x + %un\n", c->msr_gp_counter_base, c->msr_gp_stride,
			   c->msr_gp_event_select_base, c->msr_gp_stride, c->msr_fixed_counter_base,
			   c->msr_fixed_stride);
	if (c->has_arch_pebs_leaves)	/* CPUID.23H.4 and .5 */
		out_printf("arch PEBS:    groups%s%s%s%s%s (CFG_C 0x%llx); PEBS counters GP 0x%llx fixed "
			   "0x%llx; PDist GP 0x%llx fixed 0x%llx\n",
			   c->arch_pebs_groups & ARCH_PEBS_AUX ? " aux" : "",
			   c->arch_pebs_groups & ARCH_PEBS_GPR ? " gpr" : "",
			   c->arch_pebs_groups & ARCH_PEBS_VECR_XMM ? " xmm" : "",
			   c->arch_pebs_groups & ARCH_PEBS_LBR ? " lbr" : "",
			   c->arch_pebs_groups & (ARCH_PEBS_CNTR_GP | ARCH_PEBS_CNTR_FIXED) ? " counters" : "",
			   (unsigned long long)c->arch_pebs_groups,
			   (unsigned long long)(c->arch_pebs_counters & GENMASK(31, 0)),
			   (unsigned long long)(c->arch_pebs_counters >> GLOBAL_FIXED_SHIFT),
			   (unsigned long long)(c->arch_pebs_pdists & GENMASK(31, 0)),
			   (unsigned long long)(c->arch_pebs_pdists >> GLOBAL_FIXED_SHIFT));
}

static void print_perf_capabilities(const struct pmu_caps *c)
{
	if (!c->pdcm) {
		out_printf("perf caps:    none (CPUID.01H:ECX.PDCM = 0)\n");
		return;
	}
	out_printf("perf caps:    IA32_PERF_CAPABILITIES = 0x%llx\n",
		   (unsigned long long)c->perf_capabilities);
	out_printf("  PEBS record format     %u\n", c->pebs_format);
	out_printf("  PEBS baseline          %s\n", yes_no(c->pebs_baseline));
	out_printf("  PEBS trap / arch regs  %s / %s\n", yes_no(c->pebs_trap), yes_no(c->pebs_arch_reg));
	out_printf("  full-width writes      %s\n", yes_no(c->full_width_write));
	out_printf("  freeze while SMM       %s\n", yes_no(c->smm_freeze));
	out_printf("  perf metrics           %s\n", yes_no(c->perf_metrics));
	out_printf("  PEBS output to PT      %s\n", yes_no(c->pebs_output_pt));
	out_printf("  PEBS timing info       %s\n", yes_no(c->pebs_timing_info));
	out_printf("  LBR format             %u\n", c->lbr_format);
}

static void print_ds(const struct pmu_caps *c)
{
	out_printf("debug store:  DS %s, DTES64 %s, DS-CPL %s\n", yes_no(c->ds),
		   yes_no(c->dtes64), yes_no(c->ds_cpl));
	if (c->misc_enable_readable)
		out_printf("misc enable:  0x%llx (perfmon %s, PEBS %s, BTS %s)\n",
			   (unsigned long long)c->misc_enable,
			   c->misc_enable & MISC_ENABLE_PERF_MON_AVAILABLE ? "available" : "unavailable",
			   c->misc_enable & MISC_ENABLE_PEBS_UNAVAILABLE ? "unavailable" : "available",
			   c->misc_enable & MISC_ENABLE_BTS_UNAVAILABLE ? "unavailable" : "available");
	else
		out_printf("misc enable:  not readable\n");
	out_printf("PEBS:         %s\n", caps_has_pebs(c) ? "available" : "not available");
}

/* AMD's PMU leaves (APM Vol. 2; CPUID 80000001H, 80000022H, 8000001BH). */
static void print_amd(const struct pmu_caps *c)
{
	out_printf("core counters: %u x %u bits (mask 0x%x) at %s\n", c->num_gp, c->gp_width,
		   c->gp_mask, c->perfctr_core ? "PERF_CTL/PERF_CTR C001_0200H+ [PerfCtrExtCore]"
						: "the legacy C001_0000H/C001_0004H");
	out_printf("PerfMonV2:    %s\n", c->perfmon_v2 ?
		   "yes (global control, status, clear and set at C000_0300H)" :
		   "no (each PERF_CTL's En enables its counter; overflow is seen by the sign)");
	if (c->perfmon_v2)
		out_printf("LBR v2:       %s, depth %u; freeze on PMI %s; northbridge/DF counters %u, "
			   "UMC counters %u\n", yes_no(c->lbr_ext_v2), c->amd_lbr_depth,
			   yes_no(c->lbr_pmc_freeze), c->amd_nb_counters, c->amd_umc_counters);
	if (!c->ibs) {
		out_printf("IBS:          not available (CPUID.80000001H:ECX[10] = 0)\n");
		return;
	}
	static const struct { u32 bit; const char *name; } ibs_names[] = {
		{ IBS_CAPS_FETCHSAM, "fetch sampling" }, { IBS_CAPS_OPSAM, "op sampling" },
		{ IBS_CAPS_RDWROPCNT, "read/write op counter" }, { IBS_CAPS_OPCNT, "op counting" },
		{ IBS_CAPS_BRNTRGT, "branch target" }, { IBS_CAPS_OPCNTEXT, "27-bit op period" },
		{ IBS_CAPS_RIPINVALIDCHK, "RIP invalid check" },
		{ IBS_CAPS_OPBRNFUSE, "fused branches" }, { IBS_CAPS_FETCHCTLEXTD, "fetch ctl ext" },
		{ IBS_CAPS_OPDATA4, "op data 4" }, { IBS_CAPS_ZEN4, "Zen 4 filters" },
	};
	out_printf("IBS:          CPUID.8000001BH:EAX = 0x%x", c->ibs_caps);
	const char *sep = ": ";
	for (size_t i = 0; i < ARRAY_SIZE(ibs_names); i++)
		if (c->ibs_caps & ibs_names[i].bit) {
			out_printf("%s%s", sep, ibs_names[i].name);
			sep = ", ";
		}
	out_printf("\n");
}

static void print_apic(void)
{
	struct apic_state a;
	if (apic_probe(&a) != 0) {
		out_printf("local APIC:   not accessible (%s)\n", a.why);
		return;
	}
	out_printf("local APIC:   %s, id %u, base 0x%llx\n", a.x2apic ? "x2APIC" : "xAPIC",
		   a.id, (unsigned long long)a.base);
	u32 lvt = apic_read(&a, APIC_LVT_PERFCNT);
	out_printf("LVT PC:       0x%08x (vector 0x%02x, %s, %s)\n", lvt,
		   (unsigned)(lvt & APIC_LVT_VECTOR_MASK),
		   (lvt & APIC_LVT_DELIVERY_MASK) == APIC_LVT_DELIVERY_NMI ? "NMI" : "fixed",
		   lvt & APIC_LVT_MASKED ? "masked" : "unmasked");
}

static int info_run(int argc, char **argv, const struct global_opts *g)
{
	struct pmu_caps c;

	if (argc > 1) {
		err_printf("bareperf info: unexpected argument '%s'\n", argv[1]);
		return EXIT_USAGE;
	}
	backend_banner();
	pmu_caps_read(&c);
	print_identity(&c);
	const struct pmu_arch *arch = pmu_arch_for(&c);
	if (arch)
		out_printf("architecture: %s (precise sampling: %s)\n", arch->name,
			   arch->precise ? arch->precise->name : "none");
	else
		out_printf("note:         bareperf drives no PMU of this vendor yet\n");
	char why[300];
	if (pmu_absent_reason(&c, why, sizeof(why))) {
		out_printf("perfmon:      none: %s%s\n", why,
			   c.hypervisor ? "; use --pmu=sim:MODEL, or KVM with -cpu host" : "");
		out_printf("PEBS:         not available\n");
		print_apic();
		return EXIT_OK;
	}
	if (c.amd) {
		print_amd(&c);
		print_apic();
		return EXIT_OK;
	}
	print_counters(&c);
	print_perf_capabilities(&c);
	print_ds(&c);
	print_apic();
	return EXIT_OK;
}

const struct command cmd_info = {
	.name = "info",
	.summary = "describe this CPU's PMU, PEBS and interrupt path",
	.usage = "",
	.run = info_run,
};
