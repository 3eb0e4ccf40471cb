/* Leaving the image: undo everything we changed (LIFO), tell QEMU the
 * status when asked to, and return an EFI status to the firmware. */
#include "efi.h"
#include "mp.h"
#include "../cmd/cli.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/undo.h"

#define UNDO_MAX 64
#define QEMU_DEBUG_EXIT_PORT 0xF4	/* -device isa-debug-exit,iobase=0xf4 */

static struct undo_entry undo_entries[UNDO_MAX];
static struct undo_list undo_stack = { undo_entries, 0, UNDO_MAX };
static bool qemu_exit;
static unsigned then_action;	/* enum cli_then */

int boot_on_exit(undo_fn fn, void *ctx)
{
	return undo_add(&undo_stack, fn, ctx);
}

void boot_on_exit_forget(const void *ctx, size_t len)
{
	undo_forget(&undo_stack, ctx, len);
}

void boot_run_undo(void)
{
	undo_run(&undo_stack);
}

void boot_set_qemu_exit(bool on) { qemu_exit = on; }
void boot_set_then(unsigned action) { then_action = action; }

static EFI_STATUS efi_status_of(int status)
{
	switch (status) {
	case EXIT_OK: return EFI_SUCCESS;
	case EXIT_USAGE: return EFI_INVALID_PARAMETER;
	case EXIT_NO_PMU: return EFI_UNSUPPORTED;
	default: return EFI_ABORTED;
	}
}

/* --then reset|poweroff: ResetSystem (UEFI spec, "Miscellaneous Runtime
 * Services"), with the exit status as its ResetStatus; the line before it
 * is the last the console log has of the run. */
static void reset_if_asked(int status)
{
	EFI_RESET_TYPE type = then_action == CLI_THEN_RESET ? EfiResetCold : EfiResetShutdown;
	if (then_action == CLI_THEN_EXIT)
		return;
	out_printf("[ bareperf: exit status %d; --then %s ]\n", status, cli_then_words[then_action]);
	uefi_call_wrapper(RT->ResetSystem, 4, type, efi_status_of(status), 0, NULL);
}

void boot_hand_over(void)
{
	boot_run_undo();
	mp_release();
	console_save_transcript();
}

void boot_exit(int status)
{
	boot_hand_over();
	/* Not in boot_hand_over: an ExitBootServices notification may not
	 * free memory (UEFI spec, EFI_BOOT_SERVICES.ExitBootServices()). */
	esp_release_memory();
	if (qemu_exit)	/* QEMU exits with (status << 1) | 1 */
		outb(QEMU_DEBUG_EXIT_PORT, (u8)status);
	reset_if_asked(status);
	uefi_call_wrapper(BS->Exit, 4, boot_image, efi_status_of(status), 0, NULL);
	for (;;)
		__asm__ volatile("hlt");
}

void plat_abort(const char *why)
{
	err_printf("bareperf: aborted: %s\n", why);
	boot_exit(EXIT_FAILURE_STATUS);
}
