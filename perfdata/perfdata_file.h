/* perf.data into a file that grows as the run goes (lib/plat.h streaming
 * files): perfdata_flush() then plat_file_sync() makes everything so far
 * survive a reset. Must run where file I/O is allowed (TPL_CALLBACK or
 * lower in the image). */
#ifndef BP_PERFDATA_FILE_H
#define BP_PERFDATA_FILE_H
#include "perfdata.h"
#include "../lib/plat.h"

/* A sink that appends to f and rewrites with plat_file_write_at. f stays
 * the caller's: close it after perfdata_finish/perfdata_close. */
void perfdata_file_sink_init(struct perfdata_sink *sink, struct plat_file *f);

#endif
