/* Other images: the firmware's loaded images as mappings, UEFI applications
 * run under measurement, and firmware work to measure (connecting every
 * controller, a boot service in a loop). lib/plat.h documents the calls. */
#include "efi.h"
#include "../lib/fmt.h"
#include "../perfdata/pecoff.h"
#include "../lib/plat.h"
#include "../lib/str.h"

#define APP_PATH_MAX    256
#define APP_OPTIONS_MAX 1024	/* UCS-2 characters */

struct plat_app {
	EFI_HANDLE handle;
	CHAR16 *options;	/* LoadOptions: ours until the app is gone */
};

/* UCS-2 to ASCII, '?' for what ASCII lacks. */
static void narrow(const CHAR16 *w, char *out, size_t cap)
{
	size_t n = 0;
	for (; w && *w && n + 1 < cap; w++)
		out[n++] = *w < 0x80 ? (char)*w : '?';
	out[n] = 0;
}

static void status_text(EFI_STATUS st, char *out, size_t cap)
{
	CHAR16 w[64];
	StatusToString(w, st);
	narrow(w, out, cap);
}

/* ---- the loaded images ------------------------------------------------ */

/* The GUID of a firmware-volume file node in a device path, or NULL. */
static EFI_GUID *fv_file_guid(EFI_DEVICE_PATH *dp)
{
	for (; dp && !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp))
		if (DevicePathType(dp) == MEDIA_DEVICE_PATH &&
		    DevicePathSubType(dp) == MEDIA_PIWG_FW_FILE_DP)
			return &((MEDIA_FW_VOL_FILEPATH_DEVICE_PATH *)dp)->FvFileName;
	return NULL;
}

/* EFI_FIRMWARE_VOLUME2_PROTOCOL (PI spec vol. 3), which GNU-EFI lacks:
 * only ReadSection is typed. */
#define FV2_PROTOCOL_GUID \
	{ 0x220e73b6, 0x6bdb, 0x4413, { 0x84, 0x05, 0xb9, 0x74, 0xb1, 0x08, 0x61, 0x9a } }
#define FV_SECTION_USER_INTERFACE 0x15	/* the file's name, UCS-2 */
struct fv2_protocol {
	void *get_attributes, *set_attributes, *read_file;
	EFI_STATUS (EFIAPI *read_section)(struct fv2_protocol *self, EFI_GUID *file, UINT8 type,
					  UINTN instance, VOID **buf, UINTN *size, UINT32 *auth);
};

/* A name for an image that has no file anywhere. perf 6.1 runs addr2line
 * on the path of every mapping it found no file for (its srcline, which
 * then dies of SIGPIPE) except names that start with '['; hotspot 1.3.0's
 * perfparser leaves any name that starts with '[' and holds a ']' without
 * a binary name ("??"). "[firmware/NAME" passes both: each shows NAME, the
 * part after the last '/', as it shows any file's basename. */
#define FIRMWARE_NAME_PREFIX "[firmware/"

/* A driver from a firmware volume (no debug directory in most release
 * builds, Debian's OVMF included) by the name in its file's
 * USER_INTERFACE section, as EDK2 prints it ("PciBusDxe" becomes
 * "[firmware/PciBusDxe.efi"), else by its file GUID in the UEFI device
 * path text form, "[firmware/FvFile(D6A2CB7F-6A18-4E2F-B43B-9920A733700A)"
 * (an EDK2 build's Build/.../FV/Guid.xref names the module of each GUID). */
static bool fv_file_name(EFI_LOADED_IMAGE *li, char *out, size_t cap)
{
	static EFI_GUID fv2_guid = FV2_PROTOCOL_GUID;
	struct fv2_protocol *fv;
	EFI_GUID *g = fv_file_guid(li->FilePath);
	VOID *buf = NULL;
	UINTN size = 0;
	UINT32 auth;
	if (!g)
		return false;
	if (li->DeviceHandle &&
	    uefi_call_wrapper(BS->HandleProtocol, 3, li->DeviceHandle, &fv2_guid, (void **)&fv) == EFI_SUCCESS &&
	    uefi_call_wrapper(fv->read_section, 7, fv, g, FV_SECTION_USER_INTERFACE, 0, &buf, &size,
			      &auth) == EFI_SUCCESS && buf) {
		char name[PLAT_IMAGE_NAME_MAX - sizeof(FIRMWARE_NAME_PREFIX ".efi")];
		narrow(buf, name, sizeof(name));
		FreePool(buf);
		if (name[0]) {
			bp_snprintf(out, cap, FIRMWARE_NAME_PREFIX "%s.efi", name);
			return true;
		}
	}
	bp_snprintf(out, cap, FIRMWARE_NAME_PREFIX "FvFile(%08X-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X)",
		    g->Data1, g->Data2, g->Data3, g->Data4[0], g->Data4[1], g->Data4[2],
		    g->Data4[3], g->Data4[4], g->Data4[5], g->Data4[6], g->Data4[7]);
	return true;
}

/* The debug directory's path, else the firmware file's name, else the
 * device path as text, else a name that says where it is. */
static void image_name(EFI_LOADED_IMAGE *li, char *out, size_t cap)
{
	if (pecoff_debug_name(li->ImageBase, li->ImageSize, out, cap) || fv_file_name(li, out, cap))
		return;
	CHAR16 *text = li->FilePath ? DevicePathToStr(li->FilePath) : NULL;
	if (text && text[0]) {
		char ascii[PLAT_IMAGE_NAME_MAX];
		narrow(text, ascii, sizeof(ascii));
		pecoff_path_for_perf(ascii, out, cap);
	} else {
		bp_snprintf(out, cap, FIRMWARE_NAME_PREFIX "image@0x%llx",
			    (unsigned long long)(UINTN)li->ImageBase);
	}
	if (text)
		FreePool(text);
}

int plat_foreach_image(plat_image_fn fn, void *ctx)
{
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;
	int seen = 0;
	if (uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &LoadedImageProtocol,
			      NULL, &count, &handles) != EFI_SUCCESS)
		return -1;
	for (UINTN i = 0; i < count; i++) {
		EFI_LOADED_IMAGE *li;
		if (uefi_call_wrapper(BS->HandleProtocol, 3, handles[i], &LoadedImageProtocol,
				      (void **)&li) != EFI_SUCCESS || !li->ImageBase ||
		    !li->ImageSize || (u64)(UINTN)li->ImageBase == plat_image_base())
			continue;
		struct plat_image_info info = {
			.base = (u64)(UINTN)li->ImageBase, .size = li->ImageSize, .pgoff = 0,
		};
		image_name(li, info.name, sizeof(info.name));
		fn(&info, ctx);
		seen++;
	}
	FreePool(handles);
	return seen;
}

/* ---- applications ------------------------------------------------------ */

static void to_wide_path(const char *path, CHAR16 *out, size_t cap)
{
	size_t n = 0;
	if (path[0] != '\\' && path[0] != '/')
		out[n++] = L'\\';
	for (const char *p = path; *p && n + 1 < cap; p++)
		out[n++] = *p == '/' ? L'\\' : (CHAR16)(u8)*p;
	out[n] = 0;
}

/* "NAME ARG ..." as the shell builds it; arguments with spaces quoted. */
static CHAR16 *build_options(const char *path, int argc, char **argv, UINTN *bytes)
{
	CHAR16 *o = AllocateZeroPool(APP_OPTIONS_MAX * sizeof(CHAR16));
	size_t n = 0;
	if (!o)
		return NULL;
	for (int i = -1; i < argc; i++) {
		const char *a = i < 0 ? path : argv[i];
		bool quote = bp_strchr(a, ' ') != NULL;
		size_t need = bp_strlen(a) + 4;
		if (n + need >= APP_OPTIONS_MAX) {
			FreePool(o);
			return NULL;
		}
		if (i >= 0)
			o[n++] = L' ';
		if (quote)
			o[n++] = L'"';
		for (; *a; a++)
			o[n++] = (CHAR16)(u8)*a;
		if (quote)
			o[n++] = L'"';
	}
	o[n] = 0;
	*bytes = (n + 1) * sizeof(CHAR16);
	return o;
}

struct plat_app *plat_app_load(const char *path, int argc, char **argv,
			       struct plat_image_info *info, char *err, size_t errlen)
{
	CHAR16 wpath[APP_PATH_MAX];
	char why[64];
	EFI_HANDLE h = NULL;
	EFI_LOADED_IMAGE *li;

	if (bp_strlen(path) + 2 > APP_PATH_MAX) {
		bp_snprintf(err, errlen, "%s: path longer than %d characters", path, APP_PATH_MAX - 2);
		return NULL;
	}
	to_wide_path(path, wpath, APP_PATH_MAX);
	/* The file on the volume we were loaded from. */
	EFI_DEVICE_PATH *dp = FileDevicePath(boot_loaded_image->DeviceHandle, wpath);
	if (!dp) {
		bp_snprintf(err, errlen, "%s: cannot build its device path", path);
		return NULL;
	}
	EFI_STATUS st = uefi_call_wrapper(BS->LoadImage, 6, FALSE, boot_image, dp, NULL, 0, &h);
	FreePool(dp);
	if (st != EFI_SUCCESS) {
		status_text(st, why, sizeof(why));
		bp_snprintf(err, errlen, "cannot load %s from the boot volume: %s", path, why);
		return NULL;
	}
	struct plat_app *app = AllocateZeroPool(sizeof(*app));
	UINTN bytes = 0;
	CHAR16 *opts = build_options(path, argc, argv, &bytes);
	if (!app || !opts ||
	    uefi_call_wrapper(BS->HandleProtocol, 3, h, &LoadedImageProtocol, (void **)&li) != EFI_SUCCESS) {
		bp_snprintf(err, errlen, "%s: %s", path, opts ? "no loaded-image protocol on it"
							     : "arguments too long or out of memory");
		uefi_call_wrapper(BS->UnloadImage, 1, h);
		if (app)
			FreePool(app);
		if (opts)
			FreePool(opts);
		return NULL;
	}
	li->LoadOptions = opts;
	li->LoadOptionsSize = (UINT32)bytes;
	app->handle = h;
	app->options = opts;
	*info = (struct plat_image_info){ .base = (u64)(UINTN)li->ImageBase, .size = li->ImageSize };
	if (!pecoff_debug_name(li->ImageBase, li->ImageSize, info->name, sizeof(info->name)))
		pecoff_path_for_perf(path, info->name, sizeof(info->name));
	return app;
}

int plat_app_run(struct plat_app *app, u64 *status, char *what, size_t whatlen)
{
	UINTN exit_size = 0;
	CHAR16 *exit_data = NULL;
	EFI_STATUS st = uefi_call_wrapper(BS->StartImage, 3, app->handle, &exit_size, &exit_data);
	/* An application that returns is unloaded by StartImage itself. */
	*status = st;
	status_text(st, what, whatlen);
	if (exit_data && exit_size >= 2) {
		char text[128];
		size_t n = bp_strlen(what);
		narrow(exit_data, text, sizeof(text));
		if (text[0])
			bp_snprintf(what + n, whatlen - n, " (\"%s\")", text);
	}
	if (exit_data)
		FreePool(exit_data);
	FreePool(app->options);
	FreePool(app);
	return 0;
}

void plat_app_unload(struct plat_app *app)
{
	if (!app)
		return;
	uefi_call_wrapper(BS->UnloadImage, 1, app->handle);
	FreePool(app->options);
	FreePool(app);
}

/* ---- firmware work ------------------------------------------------------- */

static EFI_HANDLE *all_handles(UINTN *count)
{
	EFI_HANDLE *h = NULL;
	if (uefi_call_wrapper(BS->LocateHandleBuffer, 5, AllHandles, NULL, NULL, count, &h) != EFI_SUCCESS)
		return NULL;
	return h;
}

long plat_connect_all(char *err, size_t errlen)
{
	UINTN count = 0;
	EFI_HANDLE *h = all_handles(&count);
	if (!h) {
		bp_snprintf(err, errlen, "LocateHandleBuffer(AllHandles) failed");
		return -1;
	}
	/* Most handles are no controllers: NOT_FOUND is the common answer. */
	for (UINTN i = 0; i < count; i++)
		uefi_call_wrapper(BS->ConnectController, 4, h[i], NULL, NULL, TRUE);
	FreePool(h);
	return (long)count;
}

/* Each loop returns 0, -1 when its first call failed (nothing ran) or -2
 * when a later one did (plat_boot_service_loop). */
#define LOOP_FAILED(i) ((i) ? -2 : -1)

static int loop_pages(u64 loops)
{
	for (u64 i = 0; i < loops; i++) {
		EFI_PHYSICAL_ADDRESS a = 0;
		if (uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiBootServicesData,
				      1, &a) != EFI_SUCCESS)
			return LOOP_FAILED(i);
		uefi_call_wrapper(BS->FreePages, 2, a, 1);
	}
	return 0;
}

static int loop_locate(u64 loops)
{
	for (u64 i = 0; i < loops; i++) {
		UINTN n;
		EFI_HANDLE *h = all_handles(&n);
		if (!h)
			return LOOP_FAILED(i);
		FreePool(h);
	}
	return 0;
}

static int loop_connect(u64 loops)
{
	UINTN n;
	EFI_HANDLE *h = all_handles(&n);
	if (!h || !n)
		return -1;
	for (u64 i = 0; i < loops; i++)
		uefi_call_wrapper(BS->ConnectController, 4, h[i % n], NULL, NULL, FALSE);
	FreePool(h);
	return 0;
}

static int loop_variable(u64 loops)
{
	static EFI_GUID global = EFI_GLOBAL_VARIABLE;
	u8 buf[512];
	for (u64 i = 0; i < loops; i++) {
		UINTN size = sizeof(buf);
		EFI_STATUS st = uefi_call_wrapper(RT->GetVariable, 5, L"BootOrder", &global,
						  NULL, &size, buf);
		if (st != EFI_SUCCESS && st != EFI_NOT_FOUND)
			return LOOP_FAILED(i);
	}
	return 0;
}

static const struct { const char *name; int (*run)(u64); } services[] = {
	{ "AllocatePages", loop_pages }, { "FreePages", loop_pages },
	{ "LocateHandleBuffer", loop_locate }, { "ConnectController", loop_connect },
	{ "GetVariable", loop_variable },
};

bool plat_boot_service_known(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(services); i++)
		if (bp_strcasecmp(name, services[i].name) == 0)
			return true;
	return false;
}

int plat_boot_service_loop(const char *name, u64 loops, char *err, size_t errlen)
{
	for (size_t i = 0; i < ARRAY_SIZE(services); i++) {
		if (bp_strcasecmp(name, services[i].name) != 0)
			continue;
		int rc = services[i].run(loops);
		if (rc == 0)
			return 0;
		bp_snprintf(err, errlen, "boot service %s failed%s", services[i].name,
			    rc == -1 ? " at its first call" : "");
		return rc;
	}
	bp_snprintf(err, errlen, "unknown boot service '%s' (known: %s)", name, PLAT_BOOT_SERVICES);
	return -1;
}

const char *plat_unmapped_name(void) { return "[firmware]"; }
