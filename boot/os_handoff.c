/* An OS loader bareperf runs (`record -- \LOADER.EFI`) ends the firmware's
 * services with ExitBootServices; after that bareperf can neither write
 * its file nor be called again, and the OS owns the memory the DS area
 * and PEBS buffer are in. So while such an application runs, bareperf's
 * own ExitBootServices sits in the boot services table: it ends the
 * command (plat_before_os's fn: stop sampling, write the file) and runs
 * every exit hook (PMU, DS area, LVT PC, IDT gates, this table entry),
 * all while boot services still work, and only then goes on to the
 * firmware's ExitBootServices (UEFI spec 7.4). Our allocations and frees
 * there change the memory map, so the loader's map key goes stale and it
 * asks for the map again, as loaders must. */
#include "efi.h"
#include "../lib/plat.h"

static EFI_EXIT_BOOT_SERVICES firmware_ebs;
static void (*end_fn)(void *ctx);
static void *end_ctx;
static bool handed_over;

static void set_entry(EFI_EXIT_BOOT_SERVICES entry)
{
	BS->ExitBootServices = entry;
	BS->Hdr.CRC32 = 0;	/* the table's CRC covers its entries (UEFI 4.2) */
	uefi_call_wrapper(BS->CalculateCrc32, 3, BS, BS->Hdr.HeaderSize, &BS->Hdr.CRC32);
}

static void unhook(void *ctx)
{
	(void)ctx;
	if (firmware_ebs && BS->ExitBootServices != firmware_ebs)
		set_entry(firmware_ebs);
}

static EFI_STATUS EFIAPI before_exit_boot_services(EFI_HANDLE image, UINTN map_key)
{
	if (!handed_over) {
		handed_over = true;
		if (end_fn)
			end_fn(end_ctx);
		boot_hand_over();	/* the undo stack puts the firmware's entry back */
	}
	return uefi_call_wrapper(firmware_ebs, 2, image, map_key);
}

void plat_before_os(void (*fn)(void *ctx), void *ctx)
{
	end_fn = fn;
	end_ctx = ctx;
	if (!fn) {
		unhook(NULL);
		return;
	}
	if (!firmware_ebs) {
		firmware_ebs = BS->ExitBootServices;
		boot_on_exit(unhook, NULL);
	}
	set_entry(before_exit_boot_services);
}
