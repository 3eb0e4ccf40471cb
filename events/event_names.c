/* Event names: unpacking the front-coded dictionary of events/events.h.
 *
 * Every name of every model is stored once, sorted, each as the count of
 * characters it shares with the previous name and the rest: about a third
 * of their plain size. The first ev_name() unpacks them all into one
 * allocation (plain strings and their offsets), which stays for the
 * image's life, so the pointers ev_name() returns stay valid too. */
#include "events.h"
#include "../lib/plat.h"
#include "../lib/str.h"

static char *name_pool;		/* every name, NUL-terminated, in order */
static u32 *name_off;		/* offset of name i in name_pool */

void event_name_unpack(u32 i, char *out, size_t len)
{
	const char *p = event_name_pack + event_name_block[i / EVENT_NAME_BLOCK];
	for (u32 k = i - i % EVENT_NAME_BLOCK;; k++) {
		size_t shared = (u8)*p++;
		size_t j = shared;
		while (*p && j + 1 < len)
			out[j++] = *p++;
		out[j] = '\0';
		p++;		/* the NUL */
		if (k == i)
			return;
	}
}

/* All names in one pass: each shares its prefix with the one before it,
 * which sits just behind it in the pool. */
static bool unpack_all(void)
{
	char *pool = plat_alloc(event_name_bytes);
	u32 *off = plat_alloc(event_name_count * sizeof(*off));
	if (!pool || !off) {
		plat_free(pool);
		plat_free(off);
		return false;
	}
	const char *p = event_name_pack;
	u32 at = 0, prev = 0;
	for (u32 i = 0; i < event_name_count; i++) {
		size_t shared = (u8)*p++;
		bp_memcpy(pool + at, pool + prev, shared);
		size_t rest = bp_strlen(p);
		bp_memcpy(pool + at + shared, p, rest + 1);
		p += rest + 1;
		off[i] = at;
		prev = at;
		at += (u32)(shared + rest + 1);
	}
	name_pool = pool;
	name_off = off;
	return true;
}

const char *ev_name(const struct ev_entry *e)
{
	static bool tried;
	if (!name_pool && !tried)
		tried = !unpack_all();
	if (name_pool)
		return name_pool + name_off[e->name];
	/* No memory for the whole dictionary: this name alone, in one of a
	 * few buffers used in turn (enough for a comparison or a line). */
	static char slot[8][128];
	static unsigned next;
	char *out = slot[next++ % 8];
	event_name_unpack(e->name, out, sizeof(slot[0]));
	return out;
}
