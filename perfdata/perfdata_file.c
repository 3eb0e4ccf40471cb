/* A perf.data sink over a streaming platform file (lib/plat.h): the writer
 * appends records and rewrites the header in place. */
#include "perfdata_file.h"

static int file_append(void *ctx, const void *data, size_t len)
{
	return plat_file_append_to(ctx, data, len);
}

static int file_write_at(void *ctx, u64 offset, const void *data, size_t len)
{
	return plat_file_write_at(ctx, offset, data, len);
}

static int file_truncate(void *ctx, u64 size)
{
	return plat_file_truncate(ctx, size);
}

void perfdata_file_sink_init(struct perfdata_sink *sink, struct plat_file *f)
{
	sink->append = file_append;
	sink->write_at = file_write_at;
	sink->truncate = file_truncate;
	sink->ctx = f;
}
