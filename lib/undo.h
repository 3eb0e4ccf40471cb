/* A LIFO list of how to put machine state back (exit hooks): the image's
 * (boot/exit.c) and the host twin's (host/plat_host.c) plat_on_exit keep
 * one each. */
#ifndef BP_UNDO_H
#define BP_UNDO_H
#include "types.h"

struct undo_entry {
	void (*fn)(void *ctx);
	void *ctx;
};

struct undo_list {
	struct undo_entry *entry;	/* caller's storage, max entries */
	int count, max;
};

/* Adds fn(ctx) unless it is there already (a command that opens the same
 * thing per run keeps its first place). Returns -1 when full. */
int undo_add(struct undo_list *l, void (*fn)(void *ctx), void *ctx);
/* Drops the entries whose ctx lies in [ctx, ctx + len): memory about to
 * be freed, whose owner already undid what they would. */
void undo_forget(struct undo_list *l, const void *ctx, size_t len);
/* Runs and removes every entry, last added first. */
void undo_run(struct undo_list *l);

#endif
