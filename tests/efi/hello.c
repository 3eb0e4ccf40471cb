/* A small UEFI application that bareperf profiles in the tests (`record --
 * \bareperf\hello.efi [MILLIONS] [STATUS]`): it spends about three quarters
 * of its loop in hello_hot and one quarter in hello_cold, prints what it
 * was given, and returns EFIERR(STATUS) when STATUS is not 0 (e.g. 21 is
 * EFI_ABORTED), so the recorder's report of the exit status can be
 * checked. Built with GNU-EFI and the image's flags (Makefile); its own
 * ELF, build/tests/hello.elf, carries the symbols perf reads. */
#include <efi.h>
#include <efilib.h>

static volatile UINT64 hello_sink;

/* The same arithmetic in both, so time follows the iteration counts. */
__attribute__((noinline, noclone)) static UINT64 hello_hot(UINT64 n)
{
	UINT64 x = n | 1;
	for (UINT64 i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline, noclone)) static UINT64 hello_cold(UINT64 n)
{
	UINT64 x = n | 3;
	for (UINT64 i = 0; i < n; i++) {
		x = x * 2862933555777941757ULL + 3037000493ULL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

/* The next space-separated decimal number of the UCS-2 options after *p,
 * or def when there is none. */
static UINT64 next_number(const CHAR16 **p, const CHAR16 *end, UINT64 def)
{
	const CHAR16 *s = *p;
	UINT64 v = 0;
	BOOLEAN any = FALSE;
	while (s < end && *s == L' ')
		s++;
	while (s < end && *s >= L'0' && *s <= L'9') {
		v = v * 10 + (UINT64)(*s - L'0');
		any = TRUE;
		s++;
	}
	while (s < end && *s && *s != L' ')
		s++;	/* the rest of a word that is not a number */
	*p = s;
	return any ? v : def;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE *li = NULL;
	const CHAR16 *opt = L"", *end;

	InitializeLib(image, systab);
	uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&li);
	if (li && li->LoadOptions && li->LoadOptionsSize >= 2)
		opt = li->LoadOptions;
	end = opt + (li && li->LoadOptions ? li->LoadOptionsSize / 2 : 0);
	/* The first word is the program's own name, as the shell passes it. */
	next_number(&opt, end, 0);
	UINT64 millions = next_number(&opt, end, 20);
	UINT64 status = next_number(&opt, end, 0);
	Print(L"hello: options '%s', %lu million iterations, status %lu\n",
	      li && li->LoadOptions ? (CHAR16 *)li->LoadOptions : L"", millions, status);

	for (UINT64 m = 0; m < millions; m++) {
		hello_sink += hello_hot(750000);
		hello_sink += hello_cold(250000);
	}
	return status ? EFIERR(status) : EFI_SUCCESS;
}
