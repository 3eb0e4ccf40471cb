/* What the TCG PMU costs QEMU (tools/bench-qemu-pmu): the same loop three
 * times, each phase announced on the console so the host can time it by
 * wall clock (the guest's own clock is icount's, i.e. instructions):
 *   idle:  no counter enabled;
 *   count: fixed counter 0 counting instructions;
 *   pebs:  PEBS on instructions every 10003, the index rewound every
 *          chunk so records keep being written (no PMI: LVT PC masked).
 * On a machine without a PMU every phase runs the loop uncounted. Ends
 * QEMU through isa-debug-exit (port 0xF4). */
#include <efi.h>
#include <efilib.h>
#include "../../arch/msr.h"
#include "guest_msr.h"

#define DEBUG_EXIT_PORT 0xF4
#define CHUNKS          400
#define CHUNK_ITERS     1000000ULL	/* 5 instructions each: 2 G in all */
#define PEBS_PERIOD     10003

static u8 ds_area[4096] __attribute__((aligned(4096)));
static u8 pebs_buffer[1 << 20] __attribute__((aligned(4096)));

static bool has_pmu(void)
{
	u32 a, b, c, d;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
	if (a < 0xA)
		return false;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xA), "c"(0));
	return (a & 0xFF) >= 2;
}

static void spin(u64 n)
{
	register u64 left __asm__("r8") = n;
	__asm__ volatile("1: nop\n\tnop\n\tnop\n\tdec %%r8\n\tjnz 1b" : "+r"(left) : : "cc");
}

static void ds_set(u32 off, u64 v) { __builtin_memcpy(ds_area + off, &v, sizeof(v)); }

static void pebs_rewind(void)
{
	ds_set(DS_PEBS_INDEX, (u64)(uintptr_t)pebs_buffer);
}

static void phase(const CHAR16 *name, bool pmu, int mode)
{
	Print(L"pmuspeed start %s\n", name);
	if (pmu && mode == 1) {
		guest_wrmsr(MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_field(0, FIXED_CTRL_OS));
		guest_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, BIT(GLOBAL_FIXED_SHIFT));
	}
	if (pmu && mode == 2) {
		u64 base = (u64)(uintptr_t)pebs_buffer;
		ds_set(DS_PEBS_BUFFER_BASE, base);
		pebs_rewind();
		ds_set(DS_PEBS_ABSOLUTE_MAXIMUM, base + sizeof(pebs_buffer));
		ds_set(DS_PEBS_INTERRUPT_THRESHOLD, base + sizeof(pebs_buffer));
		ds_set(DS_PEBS_COUNTER_RESET, (u64)-PEBS_PERIOD & GENMASK(47, 0));
		guest_wrmsr(MSR_IA32_DS_AREA, (u64)(uintptr_t)ds_area);
		guest_wrmsr(msr_perfevtsel(0), EVTSEL_EN | EVTSEL_OS | 0xC0);
		guest_wrmsr(msr_a_pmc(0), (u64)-PEBS_PERIOD & GENMASK(47, 0));
		guest_wrmsr(MSR_IA32_PEBS_ENABLE, BIT(0));
		guest_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, BIT(0));
	}
	for (int i = 0; i < CHUNKS; i++) {
		spin(CHUNK_ITERS);
		if (pmu && mode == 2)
			pebs_rewind();
	}
	if (pmu) {
		guest_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
		guest_wrmsr(MSR_IA32_PEBS_ENABLE, 0);
		guest_wrmsr(MSR_IA32_DS_AREA, 0);
		guest_wrmsr(msr_perfevtsel(0), 0);
		guest_wrmsr(MSR_IA32_FIXED_CTR_CTRL, 0);
		Print(L"pmuspeed counted %s 0x%lx\n", name, guest_rdmsr(msr_fixed_ctr(0)));
	}
	Print(L"pmuspeed end %s\n", name);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	InitializeLib(image, systab);
	bool pmu = has_pmu();
	Print(L"pmuspeed pmu %d\n", pmu ? 1 : 0);
	phase(L"idle", pmu, 0);
	phase(L"count", pmu, 1);
	phase(L"pebs", pmu, 2);
	__asm__ volatile("outb %b0, %w1" : : "a"((u8)0), "Nd"((u16)DEBUG_EXIT_PORT));
	return EFI_SUCCESS;
}
