/* http://HOST[:PORT]/PATH, the one URL form bareperf sends files to
 * (record -o URL). Plain C: the image and the host twin parse alike. */
#ifndef BP_URL_H
#define BP_URL_H
#include "types.h"

#define URL_MAX      512
#define URL_HOST_MAX 256

struct url {
	char host[URL_HOST_MAX];	/* a name or a dotted IPv4 address */
	u16 port;			/* 80 when not given */
	const char *path;		/* into the parsed text: "/..." */
};

/* Whether text asks for a URL at all (it starts with a scheme "xxx://"). */
bool url_is_url(const char *text);
/* Parses text (which must outlive u). 0, or -1 with why: a scheme other
 * than http (https: the firmware's TLS needs certificates bareperf does
 * not set up), no host, a bad port, no path, a blank or control
 * character. */
int url_parse(const char *text, struct url *u, char *why, size_t cap);
/* The file name the recording gets in the output folder: PATH's last
 * component, or fallback when PATH ends in '/'. */
const char *url_file_name(const struct url *u, const char *fallback);

#endif
