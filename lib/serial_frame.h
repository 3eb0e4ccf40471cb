/* A file sent as text lines over a serial console, which a saved console
 * log gives back byte for byte (tools/serial-extract). Each line is one
 * frame and ends with '|', so a reader can join a frame that a log
 * wrapped at 80 columns and tell a frame cut short from a whole one:
 *
 *   BPSEND1 begin size=N chunks=M chunk=C name=NAME|
 *   BPS1 SEQ XXXXXXXX BASE64|        one per chunk of C bytes (the last shorter)
 *   BPSEND1 end size=N chunks=M crc32=XXXXXXXX name=NAME|
 *
 * SEQ counts chunks from 0 in decimal; a chunk's CRC-32 covers SEQ (4
 * bytes, little-endian) and then its bytes, so a chunk whose number was
 * damaged is named corrupt instead of landing in the wrong place. The
 * end line carries the whole file's CRC-32 (IEEE 802.3, as zlib and gzip
 * compute it), known once every chunk was read. Chunk lines hold only [A-Za-z0-9+/=] after their
 * header, so a firmware line that lands inside a wrapped frame (it has a
 * blank or other characters) is told apart. */
#ifndef BP_SERIAL_FRAME_H
#define BP_SERIAL_FRAME_H
#include "types.h"

#define SERIAL_FRAME_CHUNK 180	/* bytes per chunk: a 240-character base64 run */
/* Longest line, its "\n" and NUL included, with a name of up to 255. */
#define SERIAL_FRAME_LINE_MAX 400

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32()): start with 0. */
u32 crc32_update(u32 crc, const void *data, size_t len);

/* Each writes one line with its "\n" into out and returns its length, or
 * 0 when cap is too small (SERIAL_FRAME_LINE_MAX always is enough). */
size_t serial_frame_begin(char *out, size_t cap, const char *name, u64 size);
size_t serial_frame_chunk(char *out, size_t cap, u32 seq, const void *data, size_t len);
size_t serial_frame_end(char *out, size_t cap, const char *name, u64 size, u32 crc);

/* Chunks a file of size bytes takes (an empty file still has none). */
u32 serial_frame_chunks(u64 size);

#endif
