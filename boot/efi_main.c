/* UEFI entry: set up the console and files, build argv, run the command
 * line core, and leave through boot_exit(), which undoes what we changed. */
#include "efi.h"
#include "idt.h"
#include "../cmd/cli.h"
#include "../lib/out.h"
#include "../lib/str.h"

EFI_HANDLE boot_image;
EFI_LOADED_IMAGE *boot_loaded_image;

/* GNU-EFI's crt0 calls us with the System V ABI after relocating. */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static char *argv[CLI_MAX_ARGS + 1];
	struct global_opts g = { 0 };

	InitializeLib(image, systab);
	boot_image = image;
	uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol,
			  (void **)&boot_loaded_image);
	/* The firmware's watchdog would reset the machine after 5 minutes
	 * of a long recording. */
	uefi_call_wrapper(BS->SetWatchdogTimer, 4, 0, 0, 0, NULL);
	console_init();
	esp_init();
	msr_probe_init();

	int argc = boot_cmdline(CLI_MAX_ARGS, argv);
	if (argc < 0)	/* boot_cmdline found --qemu-exit all the same */
		boot_exit(EXIT_USAGE);
	int rc = cli_main(argc, argv, &g);
	boot_exit(rc);
}
