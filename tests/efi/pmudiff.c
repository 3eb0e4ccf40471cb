/* The differential sequence (tests/diff/pmu_diff.h) on the machine's own
 * PMU: real RDMSR/WRMSR/RDPMC, booted as the removable-media loader on
 * our QEMU with the TCG PMU. It prints "name value" lines, then ends QEMU
 * through isa-debug-exit (port 0xF4). Built with the image's flags
 * (Makefile); tests/e2e/qemu_pmu_differential.sh compares its transcript
 * with the model's on the host. */
#include <efi.h>
#include <efilib.h>
#include "../diff/pmu_diff.h"
#include "guest_msr.h"
#include "../../arch/msr.h"

#define DEBUG_EXIT_PORT 0xF4

static u8 ds_area[4096] __attribute__((aligned(4096)));
static u8 pebs_buffer[65536] __attribute__((aligned(4096)));

/* Exactly PMU_DIFF_INSNS(n) instructions counted: the enabling WRMSR, n
 * iterations of five, two XORs; the disabling WRMSR is not counted. */
static void guest_measure(u64 ctrl, u64 n)
{
	u32 lo = (u32)ctrl, hi = (u32)(ctrl >> 32);
	register u64 left __asm__("r8") = n;
	/* Interrupts off while the counters run: a firmware timer tick in
	 * the loop would add its handler's ring-0 instructions (a run under
	 * load once counted more than 5 * 10000 + 3 on fixed 0); one that
	 * came meanwhile is taken after the counters stop. */
	__asm__ volatile("pushfq\n\tcli\n\t"
			 "wrmsr\n\t"
			 "1: nop\n\tnop\n\tnop\n\tdec %%r8\n\tjnz 1b\n\t"
			 "xor %%eax, %%eax\n\txor %%edx, %%edx\n\t"
			 "wrmsr\n\tpopfq"
			 : "+a"(lo), "+d"(hi), "+r"(left)
			 : "c"(MSR_IA32_PERF_GLOBAL_CTRL)
			 : "memory", "cc");
}

static void guest_emit(const char *name, u64 value)
{
	Print(L"pmudiff %a 0x%lx\n", name, value);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	const struct pmu_diff_ops ops = {
		.rdmsr = guest_rdmsr, .wrmsr = guest_wrmsr, .rdpmc = guest_rdpmc,
		.measure = guest_measure, .emit = guest_emit,
		.ds = ds_area, .pebs = pebs_buffer,
	};
	InitializeLib(image, systab);
	pmu_diff_run(&ops);
	Print(L"pmudiff done\n");
	__asm__ volatile("outb %b0, %w1" : : "a"((u8)0), "Nd"((u16)DEBUG_EXIT_PORT));
	return EFI_SUCCESS;
}
