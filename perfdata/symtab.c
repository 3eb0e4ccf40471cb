/* Lookups in the embedded symbol table: see symtab.h. */
#include "symtab.h"

u32 symtab_count(void)
{
	return symtab_header.count;
}

const char *symtab_lookup(u64 rel_addr, u64 *offset)
{
	u32 lo = 0, hi = symtab_header.count;
	const struct symtab_entry *e;

	/* Last entry whose address is <= rel_addr. */
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		if (symtab_entries[mid].addr <= rel_addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	e = &symtab_entries[lo - 1];
	if (rel_addr - e->addr >= e->size)
		return NULL;
	if (offset)
		*offset = rel_addr - e->addr;
	return symtab_names + e->name;
}

bool symtab_file_to_link(u64 file_off, u64 *link)
{
	u64 rel = file_off - symtab_header.text_offset;
	if (file_off < symtab_header.text_offset || rel >= symtab_header.text_size)
		return false;
	*link = symtab_header.text_vaddr + rel;
	return true;
}
