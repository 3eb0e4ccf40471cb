/* Leaving the image: undo everything we changed (LIFO), tell QEMU the
 * status when asked to, and return an EFI status to the firmware. */
#include "efi.h"
#include "mp.h"
#include "../cmd/cli.h"
#include "../lib/out.h"
#include "../lib/plat.h"

#define UNDO_MAX 64
#define QEMU_DEBUG_EXIT_PORT 0xF4	/* -device isa-debug-exit,iobase=0xf4 */

struct undo {
	undo_fn fn;
	void *ctx;
};
static struct undo undo_stack[UNDO_MAX];
static int undo_count;
static bool qemu_exit;

int boot_on_exit(undo_fn fn, void *ctx)
{
	for (int i = 0; i < undo_count; i++)
		if (undo_stack[i].fn == fn && undo_stack[i].ctx == ctx)
			return 0;	/* a command that opens the same thing per run */
	if (undo_count == UNDO_MAX)
		return -1;
	undo_stack[undo_count++] = (struct undo){ fn, ctx };
	return 0;
}

void boot_on_exit_forget(const void *ctx, size_t len)
{
	const u8 *lo = ctx, *hi = lo + len;
	int kept = 0;
	for (int i = 0; i < undo_count; i++) {
		const u8 *c = undo_stack[i].ctx;
		if (c < lo || c >= hi)
			undo_stack[kept++] = undo_stack[i];
	}
	undo_count = kept;
}

void boot_run_undo(void)
{
	while (undo_count > 0) {
		struct undo u = undo_stack[--undo_count];
		u.fn(u.ctx);
	}
}

void boot_set_qemu_exit(bool on) { qemu_exit = on; }

static EFI_STATUS efi_status_of(int status)
{
	switch (status) {
	case EXIT_OK: return EFI_SUCCESS;
	case EXIT_USAGE: return EFI_INVALID_PARAMETER;
	case EXIT_NO_PMU: return EFI_UNSUPPORTED;
	default: return EFI_ABORTED;
	}
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
	if (qemu_exit)	/* QEMU exits with (status << 1) | 1 */
		outb(QEMU_DEBUG_EXIT_PORT, (u8)status);
	uefi_call_wrapper(BS->Exit, 4, boot_image, efi_status_of(status), 0, NULL);
	for (;;)
		__asm__ volatile("hlt");
}

void plat_abort(const char *why)
{
	err_printf("bareperf: aborted: %s\n", why);
	boot_exit(EXIT_FAILURE_STATUS);
}
