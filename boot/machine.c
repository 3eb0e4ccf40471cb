/* What perf.data's header says of the machine the image runs on: its
 * name (SMBIOS), memory (the UEFI memory map), wall-clock time (the
 * real-time clock) and the image's own GNU build-id. */
#include "efi.h"
#include "../lib/plat.h"
#include "../lib/str.h"

/* SMBIOS 3.x and 2.x entry points (DSP0134 5.2): where the structure
 * table is and how long it is. */
#define SMBIOS_TYPE_SYSTEM	1	/* System Information (DSP0134 7.2) */
#define SMBIOS_SYSTEM_PRODUCT	5	/* its Product Name string number */

static bool guid_equal(const EFI_GUID *a, const EFI_GUID *b)
{
	return bp_memcmp(a, b, sizeof(*a)) == 0;
}

static const u8 *smbios_table(u32 *len)
{
	EFI_GUID v3 = SMBIOS3_TABLE_GUID, v2 = SMBIOS_TABLE_GUID;
	for (UINTN i = 0; i < ST->NumberOfTableEntries; i++) {
		const EFI_CONFIGURATION_TABLE *t = &ST->ConfigurationTable[i];
		const u8 *ep = t->VendorTable;
		if (guid_equal(&t->VendorGuid, &v3)) {
			*len = *(const u32 *)(ep + 0x0C);
			return (const u8 *)(UINTN)*(const u64 *)(ep + 0x10);
		}
		if (guid_equal(&t->VendorGuid, &v2)) {
			*len = *(const u16 *)(ep + 0x16);
			return (const u8 *)(UINTN)*(const u32 *)(ep + 0x18);
		}
	}
	return NULL;
}

/* String number n (from 1) of the structure at s, whose formatted part is
 * s[1] bytes; the strings follow it, each NUL-ended, a double NUL last. */
static const char *smbios_string(const u8 *s, const u8 *end, u8 n)
{
	const char *p = (const char *)s + s[1];
	for (u8 i = 1; n && (const u8 *)p < end && *p; i++) {
		if (i == n)
			return p;
		p += bp_strlen(p) + 1;
	}
	return NULL;
}

/* The structure after s: past its strings' double NUL. */
static const u8 *smbios_next(const u8 *s, const u8 *end)
{
	const u8 *p = s + s[1];
	while (p + 1 < end && (p[0] || p[1]))
		p++;
	return p + 2;
}

void plat_hostname(char *out, size_t cap)
{
	u32 len = 0;
	const u8 *s = smbios_table(&len), *end = s + len;
	bp_strlcpy(out, "", cap);
	for (; s && s + 4 <= end && s[1] >= 4; s = smbios_next(s, end)) {
		if (s[0] != SMBIOS_TYPE_SYSTEM || s[1] <= SMBIOS_SYSTEM_PRODUCT)
			continue;
		const char *name = smbios_string(s, end, s[SMBIOS_SYSTEM_PRODUCT]);
		if (name)
			bp_strlcpy(out, name, cap);
		return;
	}
}

/* Every page the memory map describes as RAM (not MMIO or reserved). */
static bool is_ram(UINT32 type)
{
	return type == EfiLoaderCode || type == EfiLoaderData || type == EfiBootServicesCode ||
	       type == EfiBootServicesData || type == EfiRuntimeServicesCode ||
	       type == EfiRuntimeServicesData || type == EfiConventionalMemory ||
	       type == EfiACPIReclaimMemory || type == EfiACPIMemoryNVS;
}

static bool is_free(UINT32 type)
{
	return type == EfiConventionalMemory;
}

/* Pages of the memory map whose type `counts` takes, in KiB. */
static u64 memory_map_kb(bool (*counts)(UINT32 type))
{
	UINTN entries = 0, key, desc_size;
	UINT32 version;
	EFI_MEMORY_DESCRIPTOR *map = LibMemoryMap(&entries, &key, &desc_size, &version);
	u64 pages = 0;
	if (!map)
		return 0;
	for (UINTN i = 0; i < entries; i++) {
		const EFI_MEMORY_DESCRIPTOR *d = (const void *)((u8 *)map + i * desc_size);
		if (counts(d->Type))
			pages += d->NumberOfPages;
	}
	FreePool(map);
	return pages * 4;
}

u64 plat_memory_kb(void)
{
	return memory_map_kb(is_ram);
}

/* Free: EfiConventionalMemory, what AllocatePages can still give. */
u64 plat_free_memory_kb(void)
{
	return memory_map_kb(is_free);
}

/* Days from 1970-01-01 to y-m-d (the proleptic Gregorian calendar). */
static u64 days_since_epoch(u32 y, u32 m, u32 d)
{
	y -= m <= 2;
	u32 era = y / 400, yoe = y - era * 400;
	u32 doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	u32 doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (u64)era * 146097 + doe - 719468;
}

u64 plat_wallclock_ns(void)
{
	EFI_TIME t;
	if (uefi_call_wrapper(RT->GetTime, 2, &t, NULL) != EFI_SUCCESS || t.Year < 1970)
		return 0;
	/* Taken as UTC: the UEFI spec has defined TimeZone's sign both ways
	 * (UTC - TimeZone in 2.0, UTC + TimeZone later), and OVMF and most
	 * PCs leave it unspecified (an RTC kept in UTC or local time). */
	u64 secs = days_since_epoch(t.Year, t.Month, t.Day) * 86400 +
		   t.Hour * 3600u + t.Minute * 60u + t.Second;
	return secs * 1000000000ULL + t.Nanosecond;
}

/* The .note.gnu.build-id that linker.ld places in .data: an ELF note
 * (namesz, descsz, type NT_GNU_BUILD_ID, "GNU\0", the id). */
extern const u8 __bp_build_id_note[] __attribute__((visibility("hidden")));
extern const u8 __bp_build_id_note_end[] __attribute__((visibility("hidden")));
#define NT_GNU_BUILD_ID 3

u32 plat_image_build_id(u8 *out, u32 cap)
{
	const u32 *note = (const u32 *)__bp_build_id_note;
	if (__bp_build_id_note_end - __bp_build_id_note < 16 || note[2] != NT_GNU_BUILD_ID)
		return 0;
	u32 namesz = (note[0] + 3) & ~3u, descsz = note[1];
	if (descsz > cap || 12 + namesz + descsz > (u32)(__bp_build_id_note_end - __bp_build_id_note))
		return 0;
	bp_memcpy(out, __bp_build_id_note + 12 + namesz, descsz);
	return descsz;
}
