/* A small OS loader for the tests (`record -- \bareperf\ebs.efi`): it
 * spins a while (so there is something to sample), notes the PMU state it
 * runs under, calls ExitBootServices as a loader does (GetMemoryMap, then
 * ExitBootServices with its key, again with a fresh map when the key went
 * stale), and then, as the OS would, reads the PMU, the DS area, LVT PC and
 * IDT gate 0xF0 again. It writes both states to COM1 and ends QEMU through
 * isa-debug-exit (port 0xF4): after ExitBootServices nothing else can. */
#include <efi.h>
#include <efilib.h>
#include "guest_msr.h"
#include "../../arch/msr.h"

#define COM1 0x3F8
#define COM1_LSR (COM1 + 5)
#define LSR_THR_EMPTY 0x20
#define DEBUG_EXIT_PORT 0xF4
#define XAPIC_BASE 0xFEE00000ULL
#define PMI_VECTOR 0xF0

static volatile UINT64 ebs_sink;

static inline void outb(UINT16 port, UINT8 v) { __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port)); }
static inline UINT8 inb(UINT16 port)
{
	UINT8 v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static void serial_putc(char c)
{
	for (int spin = 0; spin < 100000 && !(inb(COM1_LSR) & LSR_THR_EMPTY); spin++)
		;
	outb(COM1, (UINT8)c);
}

static void serial_puts(const char *s)
{
	while (*s)
		serial_putc(*s++);
}

static void serial_hex(UINT64 v)
{
	serial_puts("0x");
	for (int shift = 60; shift >= 0; shift -= 4)
		serial_putc("0123456789abcdef"[(v >> shift) & 0xF]);
}

__attribute__((noinline, noclone)) static UINT64 ebs_spin(UINT64 n)
{
	UINT64 x = n | 1;
	for (UINT64 i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

struct pmu_state {
	UINT64 global_ctrl, pebs_enable, ds_area, idt_pmi;
	UINT32 lvt_pc;
};

static UINT64 idt_gate(UINT8 vector)
{
	struct { UINT16 limit; UINT64 base; } __attribute__((packed)) idtr;
	__asm__ volatile("sidt %0" : "=m"(idtr));
	const UINT32 *g = (const UINT32 *)(UINTN)(idtr.base + vector * 16u);
	return (UINT64)(g[0] & 0xFFFF) | (UINT64)(g[1] & 0xFFFF0000) | (UINT64)g[2] << 32;
}

static void read_state(struct pmu_state *s)
{
	s->global_ctrl = guest_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL);
	s->pebs_enable = guest_rdmsr(MSR_IA32_PEBS_ENABLE);
	s->ds_area = guest_rdmsr(MSR_IA32_DS_AREA);
	s->lvt_pc = *(volatile UINT32 *)(UINTN)(XAPIC_BASE + APIC_LVT_PERFCNT);
	s->idt_pmi = idt_gate(PMI_VECTOR);
}

static void print_state(const char *when, const struct pmu_state *s)
{
	serial_puts("ebs: ");
	serial_puts(when);
	serial_puts(": GLOBAL_CTRL=");
	serial_hex(s->global_ctrl);
	serial_puts(" PEBS_ENABLE=");
	serial_hex(s->pebs_enable);
	serial_puts(" DS_AREA=");
	serial_hex(s->ds_area);
	serial_puts(" LVT_PC=");
	serial_hex(s->lvt_pc);
	serial_puts(" IDT_F0=");
	serial_hex(s->idt_pmi);
	serial_puts("\r\n");
}

/* GetMemoryMap into a pool buffer and ExitBootServices with its key, as a
 * loader does; a stale key (the map changed in between) gets a new map. */
static int exit_boot_services(EFI_HANDLE image)
{
	UINTN size = 0, key, desc_size;
	UINT32 desc_version;
	EFI_MEMORY_DESCRIPTOR *map = NULL;
	for (int tries = 1; tries <= 4; tries++) {
		EFI_STATUS st = uefi_call_wrapper(BS->GetMemoryMap, 5, &size, map, &key,
						  &desc_size, &desc_version);
		if (st == EFI_BUFFER_TOO_SMALL) {
			if (map)
				uefi_call_wrapper(BS->FreePool, 1, map);
			size += 8 * 4096;
			map = NULL;
			if (uefi_call_wrapper(BS->AllocatePool, 3, EfiLoaderData, size, (void **)&map) !=
			    EFI_SUCCESS)
				return -1;
			st = uefi_call_wrapper(BS->GetMemoryMap, 5, &size, map, &key, &desc_size,
					       &desc_version);
		}
		if (st != EFI_SUCCESS)
			return -1;
		if (uefi_call_wrapper(BS->ExitBootServices, 2, image, key) == EFI_SUCCESS)
			return tries;
		size += 8 * 4096;	/* the map changed: ask again */
	}
	return -1;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	struct pmu_state before, after;
	InitializeLib(image, systab);
	Print(L"ebs: spinning, then ExitBootServices\n");
	for (int m = 0; m < 20; m++)
		ebs_sink += ebs_spin(1000000);
	read_state(&before);
	int tries = exit_boot_services(image);
	if (tries < 0) {
		Print(L"ebs: ExitBootServices failed\n");
		return EFI_ABORTED;
	}
	read_state(&after);	/* boot services are gone: COM1 and port I/O only */
	serial_puts("ebs: boot services exited after ");
	serial_putc((char)('0' + tries));
	serial_puts(" tries\r\n");
	print_state("before", &before);
	print_state("after", &after);
	outb(DEBUG_EXIT_PORT, 0);	/* QEMU exits with status 1 */
	for (;;)
		__asm__ volatile("hlt");
}
