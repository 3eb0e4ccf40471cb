/* Files on the volume the image was loaded from (the ESP), under
 * \bareperf\. Names take '/' or '\' (lib/path.h); the firmware gets '\'.
 * Only a write creates folders, so a read-only volume still reads. */
#include "efi.h"
#include "../lib/fmt.h"
#include "../lib/memfs.h"
#include "../lib/out.h"
#include "../lib/path.h"
#include "../lib/plat.h"
#include "../lib/str.h"

#define ESP_DIR      L"\\bareperf"
#define ESP_PATH_MAX 256

static EFI_FILE_HANDLE root;
static char file_error[192];	/* plat_file_error() */

int plat_file_check(const char *name, bool write, char *why, size_t cap)
{
	return path_check(name, write, false, "\\bareperf\\", why, cap);
}

const char *plat_file_error(void)
{
	return file_error;
}

/* The name's refusal, as plat_file_error() tells it: 0 when it may be used. */
static int refused(const char *path, bool write)
{
	char why[160];
	if (!plat_file_check(path, write, why, sizeof(why)))
		return 0;
	bp_snprintf(file_error, sizeof(file_error), "%s", why);
	return -1;
}

void esp_init(void)
{
	if (boot_loaded_image)
		root = LibOpenRoot(boot_loaded_image->DeviceHandle);
}

/* ---- the output folder in memory -------------------------------------
 * A boot device without a file system (PXE or HTTP boot) has nowhere to
 * write: the files live in memory (lib/memfs.h) until the run ends, said
 * once, and go off the machine over the serial line. */
static bool in_memory(void)
{
	return !root;
}

bool plat_files_in_memory(void)
{
	return in_memory();
}

static struct memfs_file *mem_open(const char *path, bool create)
{
	static bool said;
	struct memfs_file *m;
	if (refused(path, create))
		return NULL;
	m = create ? memfs_create(path) : memfs_find(path);
	if (!m)
		bp_snprintf(file_error, sizeof(file_error), "%s", memfs_error());
	if (m && create && !said) {
		said = true;
		out_printf("[ bareperf: the boot device has no file system (a network boot): files "
			   "are kept in memory until the run ends; -o serial or `bareperf send` "
			   "brings them back ]\n");
	}
	return m;
}

static int mem_result(int rc)
{
	if (rc < 0)
		bp_snprintf(file_error, sizeof(file_error), "%s", memfs_error());
	return rc;
}

void esp_release_memory(void)
{
	memfs_reset();
}

/* The firmware's status by its name in the UEFI spec, with what it means
 * for a file where that is not plain (EDK2's FAT driver). */
static void status_error(const char *what, EFI_STATUS st)
{
	static const struct { EFI_STATUS st; const char *name; } names[] = {
		{ EFI_NOT_FOUND, "EFI_NOT_FOUND: no such file or folder" },
		{ EFI_WRITE_PROTECTED, "EFI_WRITE_PROTECTED: the volume is read-only" },
		{ EFI_ACCESS_DENIED, "EFI_ACCESS_DENIED: a read-only file, or a file where a "
				     "folder is needed" },
		{ EFI_VOLUME_FULL, "EFI_VOLUME_FULL: the volume is full" },
		{ EFI_VOLUME_CORRUPTED, "EFI_VOLUME_CORRUPTED" },
		{ EFI_NO_MEDIA, "EFI_NO_MEDIA" },
		{ EFI_MEDIA_CHANGED, "EFI_MEDIA_CHANGED" },
		{ EFI_DEVICE_ERROR, "EFI_DEVICE_ERROR" },
		{ EFI_OUT_OF_RESOURCES, "EFI_OUT_OF_RESOURCES" },
		{ EFI_INVALID_PARAMETER, "EFI_INVALID_PARAMETER: a name FAT does not take" },
		{ EFI_UNSUPPORTED, "EFI_UNSUPPORTED" },
		{ EFI_BUFFER_TOO_SMALL, "EFI_BUFFER_TOO_SMALL" },
		{ EFI_WARN_DELETE_FAILURE, "EFI_WARN_DELETE_FAILURE: closed, not deleted" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].st == st) {
			bp_snprintf(file_error, sizeof(file_error), "%s%s", what, names[i].name);
			return;
		}
	bp_snprintf(file_error, sizeof(file_error), "%sEFI_STATUS 0x%llx", what,
		    (unsigned long long)st);
}

/* SIZE_OF_EFI_FILE_INFO, as a constant expression */
#define FILE_INFO_HEAD __builtin_offsetof(EFI_FILE_INFO, FileName)
/* An EFI_FILE_INFO with room for the longest name. */
union file_info {
	EFI_FILE_INFO info;
	u8 bytes[FILE_INFO_HEAD + ESP_PATH_MAX * sizeof(CHAR16)];
};

static bool is_folder(EFI_FILE_HANDLE h)
{
	union file_info buf;
	UINTN size = sizeof(buf);
	return uefi_call_wrapper(h->GetInfo, 4, h, &GenericFileInfo, &size, &buf) == EFI_SUCCESS &&
	       (buf.info.Attribute & EFI_FILE_DIRECTORY);
}

/* "a/b.txt" or "a\b.txt" -> L"\bareperf\a\b.txt"; to write (create),
 * also creates the folders, and then returns the status of one that
 * cannot be created. Reading creates nothing: a read-only volume reads. */
static EFI_STATUS esp_path(const char *path, CHAR16 *out, size_t cap, bool create)
{
	size_t n = 0;
	const CHAR16 *dir = ESP_DIR;
	while (dir[n] && n < cap - 1) {
		out[n] = dir[n];
		n++;
	}
	if (n + 1 + bp_strlen(path) >= cap) {
		bp_snprintf(file_error, sizeof(file_error), "the name is longer than %u characters",
			    (unsigned)(cap - n - 2));
		return EFI_INVALID_PARAMETER;
	}
	out[n++] = L'\\';
	for (const char *p = path; *p; p++) {
		if (path_is_sep(*p) && !create) {
			out[n++] = L'\\';
		} else if (path_is_sep(*p)) {
			out[n] = 0;	/* create each parent folder on the way */
			EFI_FILE_HANDLE d;
			EFI_STATUS st = uefi_call_wrapper(root->Open, 5, root, &d, out,
							  EFI_FILE_MODE_CREATE | EFI_FILE_MODE_READ |
							  EFI_FILE_MODE_WRITE, EFI_FILE_DIRECTORY);
			char what[ESP_PATH_MAX + 32];
			bp_snprintf(what, sizeof(what), "cannot create the folder \\bareperf\\%.*s: ",
				    (int)(p - path), path);
			if (st != EFI_SUCCESS) {
				status_error(what, st);
				return st;
			}
			/* FAT opens a file of that name as it is: no folder */
			bool file = !is_folder(d);
			uefi_call_wrapper(d->Close, 1, d);
			if (file) {
				bp_snprintf(file_error, sizeof(file_error), "%sa file of that name is there",
					    what);
				return EFI_ACCESS_DENIED;
			}
			out[n++] = L'\\';
		} else {
			out[n++] = (CHAR16)(u8)*p;
		}
	}
	out[n] = 0;
	return EFI_SUCCESS;
}

static int ensure_dir(void)
{
	EFI_FILE_HANDLE d;
	EFI_STATUS st = uefi_call_wrapper(root->Open, 5, root, &d, ESP_DIR,
					  EFI_FILE_MODE_CREATE | EFI_FILE_MODE_READ |
					  EFI_FILE_MODE_WRITE, EFI_FILE_DIRECTORY);
	if (st != EFI_SUCCESS) {
		status_error("", st);	/* a read-only volume: EFI_WRITE_PROTECTED */
		return -1;
	}
	uefi_call_wrapper(d->Close, 1, d);
	return 0;
}

#define MODE_RW (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE)

static EFI_FILE_HANDLE open_mode(const char *path, UINT64 mode)
{
	CHAR16 wpath[ESP_PATH_MAX];
	EFI_FILE_HANDLE f;
	EFI_STATUS st;
	bool write = mode & EFI_FILE_MODE_WRITE;
	if (!root) {
		bp_snprintf(file_error, sizeof(file_error), "the boot volume has no file system");
		return NULL;
	}
	if (refused(path, write) || (write && ensure_dir()) ||
	    esp_path(path, wpath, ESP_PATH_MAX, write) != EFI_SUCCESS)
		return NULL;
	if ((st = uefi_call_wrapper(root->Open, 5, root, &f, wpath, mode, 0)) != EFI_SUCCESS) {
		status_error("", st);
		return NULL;
	}
	return f;
}

static EFI_FILE_HANDLE open_file(const char *path, bool create)
{
	return open_mode(path, create ? MODE_RW | EFI_FILE_MODE_CREATE : EFI_FILE_MODE_READ);
}

/* UEFI 2.x, EFI_FILE_PROTOCOL.SetInfo: an EFI_FILE_INFO with another
 * FileName renames the file; EDK2's FAT driver (FatSetFileInfo) takes a
 * name starting with '\' from the volume root and refuses one that
 * exists, so `to` is deleted first. The other fields are written back as
 * GetInfo gave them, which changes nothing else. */
int plat_file_rename(const char *from, const char *to)
{
	static union file_info buf;
	CHAR16 wto[ESP_PATH_MAX];
	EFI_FILE_HANDLE f, old;
	if (in_memory())
		return refused(to, true) || refused(from, true) ? -1 : mem_result(memfs_rename(from, to));
	if (refused(to, true) || !(f = open_mode(from, MODE_RW)))
		return -1;
	UINTN size = sizeof(buf);
	EFI_STATUS st = esp_path(to, wto, ESP_PATH_MAX, true);
	if (st == EFI_SUCCESS &&
	    (st = uefi_call_wrapper(f->GetInfo, 4, f, &GenericFileInfo, &size, &buf)) != EFI_SUCCESS)
		status_error("", st);
	if (st != EFI_SUCCESS) {
		uefi_call_wrapper(f->Close, 1, f);
		return -1;
	}
	if ((old = open_mode(to, MODE_RW)) != NULL)
		uefi_call_wrapper(old->Delete, 1, old);	/* closes it too */
	size_t n = 0;
	while (wto[n])
		n++;
	bp_memcpy(buf.info.FileName, wto, (n + 1) * sizeof(CHAR16));
	buf.info.Size = FILE_INFO_HEAD + (n + 1) * sizeof(CHAR16);
	st = uefi_call_wrapper(f->SetInfo, 4, f, &GenericFileInfo, buf.info.Size, &buf);
	uefi_call_wrapper(f->Close, 1, f);
	if (st != EFI_SUCCESS)
		status_error("", st);
	return st == EFI_SUCCESS ? 0 : -1;
}

int plat_file_delete(const char *path)
{
	if (in_memory())
		return refused(path, true) ? -1 : mem_result(memfs_delete(path));
	EFI_FILE_HANDLE f = open_mode(path, MODE_RW);
	if (!f)
		return -1;
	/* Delete closes the handle, and warns when it could not delete */
	EFI_STATUS st = uefi_call_wrapper(f->Delete, 1, f);
	if (st != EFI_SUCCESS) {
		status_error("", st);
		return -1;
	}
	return 0;
}

static int write_all(EFI_FILE_HANDLE f, const void *data, size_t len)
{
	UINTN n = len;
	EFI_STATUS st = uefi_call_wrapper(f->Write, 3, f, &n, (void *)data);
	if (st != EFI_SUCCESS)
		status_error("", st);
	else if (n != len)
		bp_snprintf(file_error, sizeof(file_error), "wrote %llu of %llu bytes",
			    (unsigned long long)n, (unsigned long long)len);
	return st == EFI_SUCCESS && n == len ? 0 : -1;
}

int plat_file_write(const char *path, const void *data, size_t len)
{
	if (in_memory()) {
		struct memfs_file *m = mem_open(path, true);
		return m ? mem_result(memfs_write_at(m, 0, data, len)) : -1;
	}
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
	if (in_memory()) {
		struct memfs_file *m = memfs_find(path);
		if (!m && !(m = mem_open(path, true)))
			return -1;
		return mem_result(memfs_write_at(m, memfs_size(m), data, len));
	}
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
	if (in_memory()) {
		struct memfs_file *m = mem_open(path, false);
		return m ? memfs_read_at(m, 0, buf, cap) : -1;
	}
	EFI_FILE_HANDLE f = open_file(path, false);
	if (!f)
		return -1;
	UINTN n = cap;
	EFI_STATUS st = uefi_call_wrapper(f->Read, 3, f, &n, buf);
	uefi_call_wrapper(f->Close, 1, f);
	return st == EFI_SUCCESS ? (long)n : -1;
}

/* ---- streaming files --------------------------------------------------
 * One EFI_FILE_PROTOCOL handle per file. EFI_FILE_PROTOCOL has no append
 * mode and no pwrite, so the file keeps its end: appends write there and
 * write_at returns there with SetPosition. All of this must run at
 * TPL_APPLICATION or TPL_CALLBACK (see lib/plat.h). */
struct plat_file {
	EFI_FILE_HANDLE h;
	struct memfs_file *m;	/* instead of h, for the folder in memory */
	u64 end;	/* bytes in the file = where appends go */
};

static struct plat_file *wrap(EFI_FILE_HANDLE h, u64 end)
{
	struct plat_file *f = plat_alloc(sizeof(*f));
	if (!f) {
		uefi_call_wrapper(h->Close, 1, h);
		return NULL;
	}
	f->h = h;
	f->m = NULL;
	f->end = end;
	return f;
}

static struct plat_file *wrap_memory(struct memfs_file *m)
{
	struct plat_file *f = m ? plat_alloc(sizeof(*f)) : NULL;
	if (f)
		*f = (struct plat_file){ .m = m, .end = memfs_size(m) };
	return f;
}

/* The size of an open file: the position SetPosition(-1) moves to. */
static long handle_size(EFI_FILE_HANDLE h)
{
	UINT64 pos = 0;
	if (uefi_call_wrapper(h->SetPosition, 2, h, 0xFFFFFFFFFFFFFFFFULL) != EFI_SUCCESS ||
	    uefi_call_wrapper(h->GetPosition, 2, h, &pos) != EFI_SUCCESS)
		return -1;
	return (long)pos;
}

struct plat_file *plat_file_create(const char *path)
{
	if (in_memory())
		return wrap_memory(mem_open(path, true));
	EFI_FILE_HANDLE h = open_file(path, true);
	if (!h)
		return NULL;
	/* Truncate: UEFI has no O_TRUNC, so delete and create again. */
	uefi_call_wrapper(h->Delete, 1, h);
	h = open_file(path, true);
	return h ? wrap(h, 0) : NULL;
}

struct plat_file *plat_file_open_read(const char *path)
{
	if (in_memory())
		return wrap_memory(mem_open(path, false));
	EFI_FILE_HANDLE h = open_file(path, false);
	long size;
	if (!h)
		return NULL;
	size = handle_size(h);
	if (size < 0) {
		uefi_call_wrapper(h->Close, 1, h);
		return NULL;
	}
	return wrap(h, (u64)size);
}

long plat_file_size(const char *path)
{
	if (in_memory()) {
		struct memfs_file *m = mem_open(path, false);
		return m ? (long)memfs_size(m) : -1;
	}
	EFI_FILE_HANDLE h = open_file(path, false);
	long size;
	if (!h)
		return -1;
	size = handle_size(h);
	uefi_call_wrapper(h->Close, 1, h);
	return size;
}

int plat_file_append_to(struct plat_file *f, const void *data, size_t len)
{
	if (f->m)
		return mem_result(memfs_write_at(f->m, memfs_size(f->m), data, len));
	if (uefi_call_wrapper(f->h->SetPosition, 2, f->h, f->end) != EFI_SUCCESS ||
	    write_all(f->h, data, len))
		return -1;
	f->end += len;
	return 0;
}

int plat_file_write_at(struct plat_file *f, u64 off, const void *data, size_t len)
{
	int rc;
	if (f->m)
		return mem_result(memfs_write_at(f->m, off, data, len));
	if (off > f->end)
		return -1;
	if (uefi_call_wrapper(f->h->SetPosition, 2, f->h, off) != EFI_SUCCESS)
		return -1;
	rc = write_all(f->h, data, len);
	if (off + len > f->end)
		f->end = off + len;
	/* Back to the end, as the sink contract asks. */
	if (uefi_call_wrapper(f->h->SetPosition, 2, f->h, f->end) != EFI_SUCCESS)
		rc = -1;
	return rc;
}

/* UEFI 2.x, EFI_FILE_PROTOCOL.SetInfo: an EFI_FILE_INFO whose FileSize
 * differs truncates or extends the file; the name and the other fields go
 * back as GetInfo gave them, which changes nothing else. */
int plat_file_truncate(struct plat_file *f, u64 size)
{
	static union file_info buf;
	UINTN len = sizeof(buf);
	if (f->m)
		return memfs_truncate(f->m, size);
	if (size > f->end ||
	    uefi_call_wrapper(f->h->GetInfo, 4, f->h, &GenericFileInfo, &len, &buf) != EFI_SUCCESS)
		return -1;
	buf.info.FileSize = size;
	if (uefi_call_wrapper(f->h->SetInfo, 4, f->h, &GenericFileInfo, buf.info.Size, &buf) !=
	    EFI_SUCCESS)
		return -1;
	f->end = size;
	return 0;
}

long plat_file_read_at(struct plat_file *f, u64 off, void *buf, size_t len)
{
	UINTN n = len;
	if (f->m)
		return memfs_read_at(f->m, off, buf, len);
	if (off >= f->end)
		return 0;
	if (uefi_call_wrapper(f->h->SetPosition, 2, f->h, off) != EFI_SUCCESS ||
	    uefi_call_wrapper(f->h->Read, 3, f->h, &n, buf) != EFI_SUCCESS)
		return -1;
	return (long)n;
}

int plat_file_sync(struct plat_file *f)
{
	if (f->m)
		return 0;	/* nothing to push: memory is the medium */
	return uefi_call_wrapper(f->h->Flush, 1, f->h) == EFI_SUCCESS ? 0 : -1;
}

int plat_file_close(struct plat_file *f)
{
	int rc;
	if (!f)
		return 0;
	rc = f->m || uefi_call_wrapper(f->h->Close, 1, f->h) == EFI_SUCCESS ? 0 : -1;
	plat_free(f);
	return rc;
}
