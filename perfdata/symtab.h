/* The image's own function symbols, embedded at build time, so the image
 * can name the function at an IP without any file (`bareperf report` on
 * the device). The table is generated from the linked ELF by
 * tools/gen-symtab and linked in a second pass (tools/symtab-link), which
 * checks that no function moved between the passes. The host twin and the
 * unit tests carry a table of their own, built the same way.
 *
 * Addresses are link addresses, i.e. relative to plat_image_base():
 *   name = symtab_lookup(ip - plat_image_base(), &offset);
 * Entries are compact (u32 fields, names in one pool, no pointers, so the
 * table needs no relocations) and sorted by address. */
#ifndef BP_SYMTAB_H
#define BP_SYMTAB_H
#include "../lib/types.h"

/* The ELF with the image's symbols, as the MMAP2 of a recording names it
 * (perhaps with a folder): `report` resolves such mappings through this
 * table. */
#define SYMTAB_IMAGE_ELF "bareperf.elf"

struct symtab_header {
	u32 count;
	/* The executable PT_LOAD of the ELF: perf's MMAP2 for the image has
	 * pgoff = text_offset and maps file offsets, so a recorded IP is at
	 * link address ip - mmap.start + mmap.pgoff + text_vaddr - text_offset. */
	u64 text_vaddr, text_offset, text_size;
};

struct symtab_entry {
	u32 addr;	/* link address */
	u32 size;	/* bytes; 0: covers nothing */
	u32 name;	/* offset of the NUL-terminated name in symtab_names */
};

/* In a section of its own that linker.ld places at the end of .data, after
 * all code; hidden, so it changes no dynamic symbol table. */
#define SYMTAB_SECTION __attribute__((section(".bp_symtab"), visibility("hidden"), used))

extern const struct symtab_header symtab_header __attribute__((visibility("hidden")));
extern const struct symtab_entry symtab_entries[] __attribute__((visibility("hidden")));
extern const char symtab_names[] __attribute__((visibility("hidden")));

/* The function containing link address rel_addr and the offset into it
 * (if offset is not NULL), or NULL if no symbol covers the address. */
const char *symtab_lookup(u64 rel_addr, u64 *offset);
/* Number of symbols in the table (0 in a first-pass link). */
u32 symtab_count(void);
/* Link address of a byte at offset file_off of the ELF's executable
 * segment (what a perf MMAP2's pgoff counts in); false if outside it. */
bool symtab_file_to_link(u64 file_off, u64 *link);

#endif
