/* lib/plat.h's timer callback and exit hooks in the image. */
#include "efi.h"
#include "../lib/plat.h"

static EFI_EVENT timer_event;
static plat_timer_fn timer_fn;
static void *timer_ctx;

static VOID EFIAPI on_timer(EFI_EVENT ev, VOID *ctx)
{
	if (timer_fn)
		timer_fn(timer_ctx);
}

static void undo_timer(void *ctx) { plat_timer_stop(); }

int plat_timer_start(u32 period_ms, plat_timer_fn fn, void *ctx)
{
	if (timer_event)
		return -1;
	timer_fn = fn;
	timer_ctx = ctx;
	if (uefi_call_wrapper(BS->CreateEvent, 5, EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK,
			      on_timer, NULL, &timer_event) != EFI_SUCCESS)
		return -1;
	/* UEFI timer periods are in 100 ns units. */
	if (uefi_call_wrapper(BS->SetTimer, 3, timer_event, TimerPeriodic,
			      (UINT64)period_ms * 10000) != EFI_SUCCESS) {
		uefi_call_wrapper(BS->CloseEvent, 1, timer_event);
		timer_event = NULL;
		return -1;
	}
	static bool registered;
	if (!registered)
		registered = boot_on_exit(undo_timer, NULL) == 0;
	return 0;
}

void plat_timer_stop(void)
{
	if (!timer_event)
		return;
	uefi_call_wrapper(BS->SetTimer, 3, timer_event, TimerCancel, 0);
	uefi_call_wrapper(BS->CloseEvent, 1, timer_event);
	timer_event = NULL;
	timer_fn = NULL;
}

int plat_on_exit(void (*fn)(void *ctx), void *ctx)
{
	return boot_on_exit(fn, ctx);
}

void plat_on_exit_forget(const void *ctx, size_t len)
{
	boot_on_exit_forget(ctx, len);
}
