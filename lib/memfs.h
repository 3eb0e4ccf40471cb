/* An output folder in memory, for a boot device without a file system
 * (a network boot): the files a run writes live until it ends, and go
 * off the machine over the serial line (cmd/send.h). Names compare as FAT
 * compares them: '/' and '\' alike, letters without case. Memory comes
 * from plat_alloc_pages and grows by doubling. */
#ifndef BP_MEMFS_H
#define BP_MEMFS_H
#include "types.h"

#define MEMFS_MAX_FILES 32
#define MEMFS_NAME_MAX  256

struct memfs_file;

/* The file named so, or NULL (memfs_error: "no such file"). */
struct memfs_file *memfs_find(const char *name);
/* Creates the file, or empties one of that name; NULL when the table is
 * full or memory is missing (memfs_error says which). */
struct memfs_file *memfs_create(const char *name);
/* Writes at off (at most the size: no holes), growing the file. 0 or -1. */
int memfs_write_at(struct memfs_file *f, u64 off, const void *data, size_t len);
/* Cuts to size (at most the size). 0 or -1. */
int memfs_truncate(struct memfs_file *f, u64 size);
/* Up to len bytes at off; 0 at the end. */
long memfs_read_at(const struct memfs_file *f, u64 off, void *buf, size_t len);
u64 memfs_size(const struct memfs_file *f);
/* Renames, replacing `to`; deletes. 0 or -1 (no such file). */
int memfs_rename(const char *from, const char *to);
int memfs_delete(const char *name);
/* Bytes held by every file, for the message that memory ran out. */
u64 memfs_bytes(void);
const char *memfs_error(void);
/* Frees every file (the host tests start afresh). */
void memfs_reset(void);

#endif
