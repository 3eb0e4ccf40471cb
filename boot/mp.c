/* Every CPU through EFI_MP_SERVICES_PROTOCOL: which CPU runs, running a
 * function on another one, and the memory code on an AP may allocate
 * (lib/plat.h). APs must not call boot services (PI spec, MP services:
 * "the AP procedure ... may not call boot services"), so each AP's
 * allocations come from pages the BSP reserved for it. */
#include "efi.h"
#include "mp.h"
#include "idt.h"
#include "../lib/plat.h"
#include "../lib/str.h"

#define MP_MAX_CPUS 64
#define MP_WAIT_US  5000000	/* an AP procedure that does not return: give up */

EFI_MP_SERVICES_PROTOCOL *mp_services(void)
{
	static EFI_GUID guid = EFI_MP_SERVICES_PROTOCOL_GUID;
	static EFI_MP_SERVICES_PROTOCOL *mp;
	static bool looked;
	if (!looked) {
		looked = true;
		if (uefi_call_wrapper(BS->LocateProtocol, 3, &guid, NULL, (void **)&mp) != EFI_SUCCESS)
			mp = NULL;
	}
	return mp;
}

u32 plat_cpu_self(void)
{
	EFI_MP_SERVICES_PROTOCOL *mp = mp_services();
	UINTN me = 0;
	if (!mp || uefi_call_wrapper(mp->WhoAmI, 2, mp, &me) != EFI_SUCCESS)
		return 0;
	return (u32)me;
}

/* ---- reservations --------------------------------------------------------- */

struct arena {
	u8 *base;
	size_t size, used;
	size_t pages;
};
static struct arena arenas[MP_MAX_CPUS];
/* The AP that plat_run_on is running code on (-1: none): its allocations
 * come from its arena. Only one runs at a time (StartupThisAP blocks). */
static volatile int arena_cpu = -1;

int plat_cpu_reserve(u32 cpu, size_t bytes)
{
	if (cpu >= MP_MAX_CPUS)
		return -1;
	plat_cpu_release(cpu);
	size_t pages = (bytes + 4095) / 4096;
	void *p = plat_alloc_pages(pages);
	if (!p)
		return -1;
	arenas[cpu] = (struct arena){ .base = p, .size = pages * 4096, .pages = pages };
	return 0;
}

void plat_cpu_release(u32 cpu)
{
	if (cpu >= MP_MAX_CPUS || !arenas[cpu].base)
		return;
	struct arena a = arenas[cpu];
	arenas[cpu] = (struct arena){ 0 };
	plat_free_pages(a.base, a.pages);
}

void *mp_arena_alloc(size_t size, size_t align, bool *from_arena)
{
	int cpu = arena_cpu;
	*from_arena = cpu >= 0;
	if (cpu < 0)
		return NULL;
	struct arena *a = &arenas[cpu];
	size_t at = (a->used + align - 1) & ~(align - 1);
	if (!a->base || at + size > a->size)
		return NULL;
	/* Already zero: plat_cpu_reserve's pages were zeroed on the BSP, and
	 * an arena is handed out once (used only grows). Zeroing them again
	 * here, a byte at a time on the AP, cost that AP's setup 21 million
	 * instructions for the sample ring alone. */
	a->used = at + size;
	return a->base + at;
}

bool mp_in_arena(const void *p)
{
	for (u32 i = 0; i < MP_MAX_CPUS; i++)
		if (arenas[i].base && (const u8 *)p >= arenas[i].base &&
		    (const u8 *)p < arenas[i].base + arenas[i].size)
			return true;
	return false;
}

/* ---- running code on other CPUs --------------------------------------------- */

struct ap_job {
	void (*fn)(void *ctx);
	void *ctx;
	volatile bool entered;	/* the AP reached our procedure */
};

/* Set when an AP may still run on its interrupt table or stack: they are
 * then never freed. */
static bool tables_in_use;

/* Each AP's procedure runs on a stack of ours: MP services give an AP
 * PcdCpuApStackSize bytes (32 KiB by default in UefiCpuPkg.dec), and
 * parsing and scheduling events on the AP nest frames of 6-7 KiB each
 * (schedule, add_events); an AP that overflows its stack silently
 * overwrites the firmware's memory below it. */
#define AP_STACK_BYTES (128 * 1024)
static u8 *ap_stacks;
static u32 ap_stack_cpus;

void ap_call_on_stack(void (*fn)(void *ctx), void *ctx, void *stack_top);

static int ap_stacks_prepare(u32 ncpus)
{
	if (ap_stacks)
		return 0;
	ap_stacks = plat_alloc_pages((size_t)ncpus * AP_STACK_BYTES / 4096);
	if (!ap_stacks)
		return -1;
	ap_stack_cpus = ncpus;
	return 0;
}

static void ap_stacks_release(void)
{
	plat_free_pages(ap_stacks, (size_t)ap_stack_cpus * AP_STACK_BYTES / 4096);
	ap_stacks = NULL;
	ap_stack_cpus = 0;
}

/* The interrupt tables and stacks the APs' procedures run on (BSP only). */
static int ap_room_prepare(const char **why)
{
	u32 n = plat_cpu_count();
	if (idt_ap_tables_prepare(n) || ap_stacks_prepare(n)) {
		*why = "no memory for the APs' interrupt tables and stacks";
		return -1;
	}
	return 0;
}

void mp_release(void)
{
	if (tables_in_use)
		return;
	idt_ap_tables_release();
	ap_stacks_release();
}

/* MP services call the procedure with the UEFI (Microsoft) convention. */
static VOID EFIAPI ap_trampoline(VOID *arg)
{
	struct ap_job *j = arg;
	struct idt_ap_saved idt;
	j->entered = true;
	u32 me = plat_cpu_self();
	idt_ap_enter(&idt, me);
	if (ap_stacks && me < ap_stack_cpus)
		ap_call_on_stack(j->fn, j->ctx, ap_stacks + (size_t)(me + 1) * AP_STACK_BYTES);
	else
		j->fn(j->ctx);
	idt_ap_leave(&idt);
}

static const char *mp_why(EFI_STATUS st)
{
	switch (st) {
	case EFI_NOT_READY: return "the CPU is busy";
	case EFI_NOT_FOUND: return "no such CPU";
	case EFI_INVALID_PARAMETER: return "the CPU is disabled or is the BSP";
	case EFI_TIMEOUT: return "the CPU did not finish in time";
	case EFI_DEVICE_ERROR: return "not called from the BSP";
	default: return "MP services refused";
	}
}

int plat_run_on(u32 cpu, void (*fn)(void *ctx), void *ctx, const char **why)
{
	EFI_MP_SERVICES_PROTOCOL *mp = mp_services();
	struct ap_job job = { fn, ctx, false };
	if (cpu == plat_cpu_self()) {
		fn(ctx);
		return 0;
	}
	if (!mp || cpu >= MP_MAX_CPUS) {
		*why = mp ? "CPU number too high" : "the firmware has no MP services";
		return -1;
	}
	if (ap_room_prepare(why))
		return -1;
	arena_cpu = (int)cpu;
	EFI_STATUS st = uefi_call_wrapper(mp->StartupThisAP, 7, mp, ap_trampoline, cpu, NULL,
					  MP_WAIT_US, &job, NULL);
	arena_cpu = -1;
	if (st == EFI_TIMEOUT)
		tables_in_use = true;	/* the AP may still run on its table */
	if (st != EFI_SUCCESS) {
		/* Which half: a lost wake-up, or our code (or a starved CPU). */
		*why = st == EFI_TIMEOUT && !job.entered ? "the CPU did not start in time" : mp_why(st);
		return -1;
	}
	return 0;
}

static EFI_EVENT aps_done;
static struct ap_job aps_job;

int plat_aps_start(void (*fn)(void *ctx), void *ctx, const char **why)
{
	EFI_MP_SERVICES_PROTOCOL *mp = mp_services();
	if (!mp) {
		*why = "the firmware has no MP services";
		return -1;
	}
	/* Non-blocking: MP services signal the event when every AP returned. */
	if (uefi_call_wrapper(BS->CreateEvent, 5, 0, 0, NULL, NULL, &aps_done) != EFI_SUCCESS) {
		*why = "CreateEvent failed";
		return -1;
	}
	if (ap_room_prepare(why)) {
		uefi_call_wrapper(BS->CloseEvent, 1, aps_done);
		aps_done = NULL;
		return -1;
	}
	aps_job = (struct ap_job){ fn, ctx, false };
	EFI_STATUS st = uefi_call_wrapper(mp->StartupAllAPs, 7, mp, ap_trampoline, FALSE, aps_done,
					  0, &aps_job, NULL);
	if (st != EFI_SUCCESS) {
		uefi_call_wrapper(BS->CloseEvent, 1, aps_done);
		aps_done = NULL;
		*why = st == EFI_NOT_STARTED ? "there are no APs" : mp_why(st);
		return -1;
	}
	return 0;
}

void plat_aps_wait(void)
{
	if (!aps_done)
		return;
	bool back = false;
	for (u32 waited = 0; waited < MP_WAIT_US && !back; waited += 1000) {
		back = uefi_call_wrapper(BS->CheckEvent, 1, aps_done) == EFI_SUCCESS;
		if (!back)
			uefi_call_wrapper(BS->Stall, 1, 1000);
	}
	/* An AP still out may still run on its table and stack: then they
	 * are kept. */
	if (back)
		mp_release();
	else
		tables_in_use = true;
	uefi_call_wrapper(BS->CloseEvent, 1, aps_done);
	aps_done = NULL;
}
