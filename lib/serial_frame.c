/* Frames of a file sent over a serial console (serial_frame.h). */
#include "serial_frame.h"
#include "fmt.h"
#include "str.h"

u32 crc32_update(u32 crc, const void *data, size_t len)
{
	const u8 *p = data;
	crc = ~crc;
	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		for (int bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

u32 serial_frame_chunks(u64 size)
{
	return (u32)((size + SERIAL_FRAME_CHUNK - 1) / SERIAL_FRAME_CHUNK);
}

/* RFC 4648 base64 of len bytes into out (4 characters per 3 bytes, '='
 * padded); returns the characters written. */
static size_t base64(char *out, const u8 *in, size_t len)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t n = 0;
	for (size_t i = 0; i < len; i += 3) {
		u32 v = (u32)in[i] << 16;
		if (i + 1 < len)
			v |= (u32)in[i + 1] << 8;
		if (i + 2 < len)
			v |= in[i + 2];
		out[n++] = alphabet[(v >> 18) & 63];
		out[n++] = alphabet[(v >> 12) & 63];
		out[n++] = i + 1 < len ? alphabet[(v >> 6) & 63] : '=';
		out[n++] = i + 2 < len ? alphabet[v & 63] : '=';
	}
	return n;
}

/* bp_snprintf's count, or 0 when the line did not fit. */
static size_t fitted(int n, size_t cap)
{
	return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

size_t serial_frame_begin(char *out, size_t cap, const char *name, u64 size)
{
	return fitted(bp_snprintf(out, cap, "BPSEND1 begin size=%llu chunks=%u chunk=%u name=%s|\n",
				  (unsigned long long)size, serial_frame_chunks(size),
				  SERIAL_FRAME_CHUNK, name), cap);
}

size_t serial_frame_end(char *out, size_t cap, const char *name, u64 size, u32 crc)
{
	return fitted(bp_snprintf(out, cap, "BPSEND1 end size=%llu chunks=%u crc32=%08x name=%s|\n",
				  (unsigned long long)size, serial_frame_chunks(size), crc, name),
		      cap);
}

size_t serial_frame_chunk(char *out, size_t cap, u32 seq, const void *data, size_t len)
{
	u8 seq_le[4] = { (u8)seq, (u8)(seq >> 8), (u8)(seq >> 16), (u8)(seq >> 24) };
	u32 crc = crc32_update(crc32_update(0, seq_le, 4), data, len);
	if (len > SERIAL_FRAME_CHUNK)
		return 0;
	size_t n = fitted(bp_snprintf(out, cap, "BPS1 %u %08x ", seq, crc), cap);
	size_t body = (len + 2) / 3 * 4;
	if (!n || n + body + 3 > cap)
		return 0;
	n += base64(out + n, data, len);
	out[n++] = '|';
	out[n++] = '\n';
	out[n] = 0;
	return n;
}
