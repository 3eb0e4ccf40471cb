/* The output folder in memory (memfs.h): a small table of files, each one
 * block of pages that doubles when a write runs past it. */
#include "memfs.h"
#include "fmt.h"
#include "plat.h"
#include "str.h"

#define PAGE 4096u

struct memfs_file {
	char name[MEMFS_NAME_MAX];
	u8 *data;
	u64 size, pages;
	bool used;
};

static struct memfs_file files[MEMFS_MAX_FILES];
static char error[160];

const char *memfs_error(void) { return error; }

static char fold(char c)
{
	if (c == '/')
		return '\\';
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool same_name(const char *a, const char *b)
{
	for (; *a && fold(*a) == fold(*b); a++, b++)
		;
	return fold(*a) == fold(*b);
}

struct memfs_file *memfs_find(const char *name)
{
	for (int i = 0; i < MEMFS_MAX_FILES; i++)
		if (files[i].used && same_name(files[i].name, name))
			return &files[i];
	bp_snprintf(error, sizeof(error), "no such file (the output folder is in memory)");
	return NULL;
}

struct memfs_file *memfs_create(const char *name)
{
	struct memfs_file *f = memfs_find(name);
	if (f) {
		f->size = 0;
		return f;
	}
	if (bp_strlen(name) >= MEMFS_NAME_MAX) {
		bp_snprintf(error, sizeof(error), "the name is longer than %u characters",
			    MEMFS_NAME_MAX - 1);
		return NULL;
	}
	for (int i = 0; i < MEMFS_MAX_FILES; i++) {
		if (files[i].used)
			continue;
		f = &files[i];
		*f = (struct memfs_file){ .used = true };
		bp_strlcpy(f->name, name, sizeof(f->name));
		return f;
	}
	bp_snprintf(error, sizeof(error), "the output folder in memory holds %u files already",
		    MEMFS_MAX_FILES);
	return NULL;
}

/* Room for size bytes: the pages doubled until they hold it. */
static int reserve(struct memfs_file *f, u64 size)
{
	u64 pages = f->pages ? f->pages : 1;
	while (pages * PAGE < size)
		pages *= 2;
	if (pages == f->pages)
		return 0;
	u8 *data = plat_alloc_pages((size_t)pages);
	if (!data) {
		bp_snprintf(error, sizeof(error), "out of memory: %llu KiB more were needed for "
			    "%s, with %llu KiB held by the files in memory",
			    (unsigned long long)(pages * PAGE / 1024), f->name,
			    (unsigned long long)(memfs_bytes() / 1024));
		return -1;
	}
	if (f->data) {
		bp_memcpy(data, f->data, (size_t)f->size);
		plat_free_pages(f->data, (size_t)f->pages);
	}
	f->data = data;
	f->pages = pages;
	return 0;
}

int memfs_write_at(struct memfs_file *f, u64 off, const void *data, size_t len)
{
	if (off > f->size) {
		bp_snprintf(error, sizeof(error), "a write past the end of %s", f->name);
		return -1;
	}
	if (reserve(f, off + len))
		return -1;
	bp_memcpy(f->data + off, data, len);
	if (off + len > f->size)
		f->size = off + len;
	return 0;
}

int memfs_truncate(struct memfs_file *f, u64 size)
{
	if (size > f->size)
		return -1;
	f->size = size;
	return 0;
}

long memfs_read_at(const struct memfs_file *f, u64 off, void *buf, size_t len)
{
	if (off >= f->size)
		return 0;
	size_t n = (size_t)MIN((u64)len, f->size - off);
	bp_memcpy(buf, f->data + off, n);
	return (long)n;
}

u64 memfs_size(const struct memfs_file *f) { return f->size; }

static void drop(struct memfs_file *f)
{
	if (f->data)
		plat_free_pages(f->data, (size_t)f->pages);
	*f = (struct memfs_file){ 0 };
}

int memfs_delete(const char *name)
{
	struct memfs_file *f = memfs_find(name);
	if (!f)
		return -1;
	drop(f);
	return 0;
}

int memfs_rename(const char *from, const char *to)
{
	struct memfs_file *f = memfs_find(from), *old = memfs_find(to);
	if (!f)
		return -1;
	if (bp_strlen(to) >= MEMFS_NAME_MAX) {
		bp_snprintf(error, sizeof(error), "the name is longer than %u characters",
			    MEMFS_NAME_MAX - 1);
		return -1;
	}
	if (old && old != f)
		drop(old);
	bp_strlcpy(f->name, to, sizeof(f->name));
	return 0;
}

u64 memfs_bytes(void)
{
	u64 sum = 0;
	for (int i = 0; i < MEMFS_MAX_FILES; i++)
		sum += files[i].used ? files[i].pages * PAGE : 0;
	return sum;
}

void memfs_reset(void)
{
	for (int i = 0; i < MEMFS_MAX_FILES; i++)
		if (files[i].used)
			drop(&files[i]);
}
