#include "pecoff.h"
#include "../lib/str.h"

static u32 rd16(const u8 *p) { return (u32)p[0] | (u32)p[1] << 8; }
static u32 rd32(const u8 *p) { return rd16(p) | rd16(p + 2) << 16; }

/* True when [off, off + len) lies inside the image. */
static bool inside(u64 size, u64 off, u64 len)
{
	return off <= size && len <= size - off;
}

/* The debug data directory (RVA and size), or false. */
static bool debug_dir(const u8 *img, u64 size, u32 *rva, u32 *len)
{
	if (!inside(size, 0, PE_DOS_LFANEW + 4) || rd16(img) != PE_DOS_MAGIC)
		return false;
	u32 pe = rd32(img + PE_DOS_LFANEW);
	if (!inside(size, pe, 4 + PE_COFF_HEADER_SIZE + 2) || rd32(img + pe) != PE_SIGNATURE)
		return false;
	u32 opt = pe + 4 + PE_COFF_HEADER_SIZE;
	u32 opt_size = rd16(img + pe + 4 + 16);	/* SizeOfOptionalHeader */
	u32 magic = rd16(img + opt);
	/* NumberOfRvaAndSizes and the directories follow the fixed part,
	 * which is 4 bytes longer in PE32 (BaseOfData) and has 8-byte
	 * stack/heap fields in PE32+. */
	u32 count_at = magic == PE_OPT_MAGIC_PE32PLUS ? 108 : magic == PE_OPT_MAGIC_PE32 ? 92 : 0;
	if (!count_at || opt_size < count_at + 4 || !inside(size, opt, opt_size))
		return false;
	u32 ndirs = rd32(img + opt + count_at);
	u32 dir = opt + count_at + 4 + 8 * PE_DIR_DEBUG;
	if (ndirs <= PE_DIR_DEBUG || dir + 8 > opt + opt_size)
		return false;
	*rva = rd32(img + dir);
	*len = rd32(img + dir + 4);
	return *rva && *len;
}

/* The path in a CodeView record at rva (len bytes), or NULL. */
static const char *codeview_path(const u8 *img, u64 size, u32 rva, u32 len, size_t *plen)
{
	u32 skip;
	if (!inside(size, rva, len) || len < 4)
		return NULL;
	switch (rd32(img + rva)) {
	case PE_CV_RSDS: skip = PE_CV_RSDS_PATH; break;
	case PE_CV_NB10: skip = PE_CV_NB10_PATH; break;
	default: return NULL;
	}
	if (len <= skip)
		return NULL;
	const char *path = (const char *)img + rva + skip;
	size_t n = 0;
	while (n < len - skip && path[n])
		n++;
	*plen = n;
	return n ? path : NULL;
}

bool pecoff_debug_name(const void *base, u64 size, char *out, size_t cap)
{
	const u8 *img = base;
	u32 rva, len;
	if (!img || !cap || !debug_dir(img, size, &rva, &len) || !inside(size, rva, len))
		return false;
	for (u32 off = 0; off + PE_DEBUG_ENTRY_SIZE <= len; off += PE_DEBUG_ENTRY_SIZE) {
		const u8 *e = img + rva + off;
		if (rd32(e + 12) != PE_DEBUG_TYPE_CODEVIEW)
			continue;
		size_t n;
		const char *path = codeview_path(img, size, rd32(e + 20), rd32(e + 16), &n);
		if (!path)
			continue;
		char tmp[512];
		n = MIN(n, sizeof(tmp) - 1);
		bp_memcpy(tmp, path, n);
		tmp[n] = 0;
		pecoff_path_for_perf(tmp, out, cap);
		return true;
	}
	return false;
}

void pecoff_path_for_perf(const char *in, char *out, size_t cap)
{
	size_t n = 0;
	if (!cap)
		return;
	if (in[0] != '/' && in[0] != '\\' && n + 1 < cap)
		out[n++] = '/';
	for (const char *p = in; *p && n + 1 < cap; p++)
		out[n++] = *p == '\\' ? '/' : *p;
	out[n] = 0;
}

