/* Platform services of the image: memory, time, firmware identity, CPUs. */
#include "efi.h"
#include "mp.h"
#include "../lib/plat.h"

/* Code running on an AP allocates from its reservation (boot/mp.c). */
void *plat_alloc(size_t size)
{
	bool on_ap;
	void *p = mp_arena_alloc(size, 16, &on_ap);
	return on_ap ? p : AllocateZeroPool(size);
}

void plat_free(void *p)
{
	if (p && !mp_in_arena(p))
		FreePool(p);
}

/* EfiLoaderData pages stay ours until we free them or exit: the firmware
 * does not reuse them behind our back, which the DS area relies on. */
void *plat_alloc_pages(size_t pages)
{
	EFI_PHYSICAL_ADDRESS addr = 0;
	bool on_ap;
	void *p = mp_arena_alloc(pages * 4096, 4096, &on_ap);
	if (on_ap)
		return p;
	if (uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData,
			      pages, &addr) != EFI_SUCCESS)
		return NULL;
	ZeroMem((void *)(uintptr_t)addr, pages * 4096);
	return (void *)(uintptr_t)addr;
}

void plat_free_pages(void *p, size_t pages)
{
	if (p && !mp_in_arena(p))
		uefi_call_wrapper(BS->FreePages, 2, (EFI_PHYSICAL_ADDRESS)(uintptr_t)p, pages);
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (u64)hi << 32 | lo;
}

u64 plat_ticks(void) { return rdtsc(); }
u64 plat_run_ticks(void) { return rdtsc(); }	/* the firmware's CPU is ours alone */

u64 plat_irqs_off(void)
{
	u64 rflags;
	__asm__ volatile("pushfq; popq %0; cli" : "=r"(rflags) : : "memory");
	return rflags;
}

void plat_irqs_restore(u64 flags)
{
	if (flags & (1u << 9))	/* RFLAGS.IF was set */
		__asm__ volatile("sti" ::: "memory");
}

/* Measured once against the firmware's Stall(), which UEFI defines in
 * microseconds. 20 ms keeps the error near 0.1 % under emulation too. */
u64 plat_ticks_per_second(void)
{
	static u64 hz;
	if (!hz) {
		u64 t0 = rdtsc();
		uefi_call_wrapper(BS->Stall, 1, 20000);
		hz = (rdtsc() - t0) * 50;
	}
	return hz;
}

static char vendor[64];

const char *plat_firmware_vendor(void)
{
	size_t n = 0;
	for (const CHAR16 *w = ST->FirmwareVendor; w && *w && n < sizeof(vendor) - 1; w++)
		vendor[n++] = *w < 0x80 ? (char)*w : '?';
	vendor[n] = 0;
	return vendor;
}

u32 plat_firmware_revision(void) { return ST->FirmwareRevision; }
const char *plat_name(void) { return "UEFI"; }

/* Link address 0 of bareperf.elf runs at ImageBase (linker.ld). */
u64 plat_image_base(void)
{
	return boot_loaded_image ? (u64)(UINTN)boot_loaded_image->ImageBase : 0;
}

const char *plat_image_path(void) { return "/bareperf.elf"; }

u32 plat_cpu_count(void)
{
	EFI_MP_SERVICES_PROTOCOL *mp = mp_services();
	UINTN total = 1, enabled = 1;
	if (mp && uefi_call_wrapper(mp->GetNumberOfProcessors, 3, mp, &total, &enabled) == EFI_SUCCESS)
		return (u32)enabled;
	return 1;
}
