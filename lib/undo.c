#include "undo.h"

int undo_add(struct undo_list *l, void (*fn)(void *ctx), void *ctx)
{
	for (int i = 0; i < l->count; i++)
		if (l->entry[i].fn == fn && l->entry[i].ctx == ctx)
			return 0;
	if (l->count == l->max)
		return -1;
	l->entry[l->count++] = (struct undo_entry){ fn, ctx };
	return 0;
}

void undo_forget(struct undo_list *l, const void *ctx, size_t len)
{
	const u8 *lo = ctx, *hi = lo + len;
	int kept = 0;
	for (int i = 0; i < l->count; i++) {
		const u8 *c = l->entry[i].ctx;
		if (c < lo || c >= hi)
			l->entry[kept++] = l->entry[i];
	}
	l->count = kept;
}

void undo_run(struct undo_list *l)
{
	while (l->count > 0) {
		struct undo_entry u = l->entry[--l->count];
		u.fn(u.ctx);
	}
}
