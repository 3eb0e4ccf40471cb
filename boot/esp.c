/* Files on the volume the image was loaded from (the ESP), under
 * \bareperf\. Paths use '/' in the shared code and '\' here. */
#include "efi.h"
#include "../lib/plat.h"
#include "../lib/str.h"

#define ESP_DIR      L"\\bareperf"
#define ESP_PATH_MAX 256

static EFI_FILE_HANDLE root;

void esp_init(void)
{
	if (boot_loaded_image)
		root = LibOpenRoot(boot_loaded_image->DeviceHandle);
}

/* "a/b.txt" -> L"\bareperf\a\b.txt"; also creates the folders. */
static int esp_path(const char *path, CHAR16 *out, size_t cap)
{
	size_t n = 0;
	const CHAR16 *dir = ESP_DIR;
	while (dir[n] && n < cap - 1) {
		out[n] = dir[n];
		n++;
	}
	if (n + 1 + bp_strlen(path) >= cap)
		return -1;
	out[n++] = L'\\';
	for (const char *p = path; *p; p++) {
		if (*p == '/') {
			out[n] = 0;	/* create each parent folder on the way */
			EFI_FILE_HANDLE d;
			if (uefi_call_wrapper(root->Open, 5, root, &d, out,
					      EFI_FILE_MODE_CREATE | EFI_FILE_MODE_READ |
					      EFI_FILE_MODE_WRITE, EFI_FILE_DIRECTORY) == EFI_SUCCESS)
				uefi_call_wrapper(d->Close, 1, d);
			out[n++] = L'\\';
		} else {
			out[n++] = (CHAR16)(u8)*p;
		}
	}
	out[n] = 0;
	return 0;
}

static int ensure_dir(void)
{
	EFI_FILE_HANDLE d;
	if (!root)
		return -1;
	if (uefi_call_wrapper(root->Open, 5, root, &d, ESP_DIR,
			      EFI_FILE_MODE_CREATE | EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE,
			      EFI_FILE_DIRECTORY) != EFI_SUCCESS)
		return -1;
	uefi_call_wrapper(d->Close, 1, d);
	return 0;
}

static EFI_FILE_HANDLE open_file(const char *path, bool create)
{
	CHAR16 wpath[ESP_PATH_MAX];
	EFI_FILE_HANDLE f;
	if (ensure_dir() || esp_path(path, wpath, ESP_PATH_MAX))
		return NULL;
	UINT64 mode = EFI_FILE_MODE_READ | (create ? EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE : 0);
	if (uefi_call_wrapper(root->Open, 5, root, &f, wpath, mode, 0) != EFI_SUCCESS)
		return NULL;
	return f;
}

static int write_all(EFI_FILE_HANDLE f, const void *data, size_t len)
{
	UINTN n = len;
	EFI_STATUS st = uefi_call_wrapper(f->Write, 3, f, &n, (void *)data);
	return st == EFI_SUCCESS && n == len ? 0 : -1;
}

int plat_file_write(const char *path, const void *data, size_t len)
{
	EFI_FILE_HANDLE f = open_file(path, true);
	if (!f)
		return -1;
	/* Truncate: UEFI has no O_TRUNC, so delete and create again. */
	uefi_call_wrapper(f->Delete, 1, f);
	f = open_file(path, true);
	if (!f)
		return -1;
	int rc = write_all(f, data, len);
	if (uefi_call_wrapper(f->Close, 1, f) != EFI_SUCCESS)
		rc = -1;
	return rc;
}

int plat_file_append(const char *path, const void *data, size_t len)
{
	EFI_FILE_HANDLE f = open_file(path, true);
	if (!f)
		return -1;
	uefi_call_wrapper(f->SetPosition, 2, f, 0xFFFFFFFFFFFFFFFFULL);	/* end of file */
	int rc = write_all(f, data, len);
	if (uefi_call_wrapper(f->Close, 1, f) != EFI_SUCCESS)
		rc = -1;
	return rc;
}

long plat_file_read(const char *path, void *buf, size_t cap)
{
	EFI_FILE_HANDLE f = open_file(path, false);
	if (!f)
		return -1;
	UINTN n = cap;
	EFI_STATUS st = uefi_call_wrapper(f->Read, 3, f, &n, buf);
	uefi_call_wrapper(f->Close, 1, f);
	return st == EFI_SUCCESS ? (long)n : -1;
}
