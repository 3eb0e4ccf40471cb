/* http://HOST[:PORT]/PATH (url.h). */
#include "url.h"
#include "fmt.h"
#include "str.h"

bool url_is_url(const char *text)
{
	const char *p = text;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
		p++;
	return p > text && p[0] == ':' && p[1] == '/' && p[2] == '/';
}

static bool blank_or_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7F)
			return true;
	return false;
}

/* ":PORT" at p (after the host), into *port; returns the rest or NULL. */
static const char *take_port(const char *p, u16 *port)
{
	u32 v = 0;
	*port = 80;
	if (*p != ':')
		return p;
	p++;
	if (*p < '0' || *p > '9')
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((v = v * 10 + (u32)(*p - '0')) > 65535)
			return NULL;
	*port = (u16)v;
	return v ? p : NULL;
}

int url_parse(const char *text, struct url *u, char *why, size_t cap)
{
	static const char scheme[] = "http://";
	const char *p = text + sizeof(scheme) - 1;
	if (bp_strncmp(text, scheme, sizeof(scheme) - 1) != 0) {
		bp_snprintf(why, cap, "only http:// URLs are taken%s",
			    bp_strncmp(text, "https://", 8) == 0 ?
				    " (https needs the firmware's TLS and certificates)" : "");
		return -1;
	}
	if (blank_or_control(text)) {
		bp_snprintf(why, cap, "a URL holds no blanks or control characters");
		return -1;
	}
	size_t n = 0;
	while (p[n] && p[n] != ':' && p[n] != '/')
		n++;
	if (n == 0 || n >= sizeof(u->host)) {
		bp_snprintf(why, cap, n ? "the host name is too long" : "no host after http://");
		return -1;
	}
	bp_memcpy(u->host, p, n);
	u->host[n] = 0;
	if (!(p = take_port(p + n, &u->port))) {
		bp_snprintf(why, cap, "the port is not a number from 1 to 65535");
		return -1;
	}
	if (*p != '/' || !p[1]) {
		bp_snprintf(why, cap, "no path to send to after the host (http://HOST[:PORT]/PATH)");
		return -1;
	}
	u->path = p;
	return 0;
}

const char *url_file_name(const struct url *u, const char *fallback)
{
	const char *name = u->path;
	for (const char *p = u->path; *p; p++)
		if (*p == '/')
			name = p + 1;
	return *name ? name : fallback;
}
