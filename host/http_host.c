/* plat_http_put for the host twin: HTTP/1.1 PUT over a POSIX socket, with
 * the same steps (and failures) as the image's (boot/net_http.c). */
#include "../lib/plat.h"
#include "../lib/url.h"
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define HTTP_TIMEOUT_S 30

static int connect_to(const struct url *u, char *why, size_t cap)
{
	char port[8];
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *ai;
	snprintf(port, sizeof(port), "%u", u->port);
	int rc = getaddrinfo(u->host, port, &hints, &ai);
	if (rc) {
		snprintf(why, cap, "resolving %s: %s", u->host, gai_strerror(rc));
		return -1;
	}
	int fd = socket(ai->ai_family, ai->ai_socktype, 0);
	struct timeval tv = { .tv_sec = HTTP_TIMEOUT_S };
	if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
		snprintf(why, cap, "connecting to %s:%u: %s", u->host, u->port, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd;
}

static int send_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The status line: "HTTP/1.x NNN reason". */
static int read_status(int fd, const struct url *u, char *why, size_t cap)
{
	char line[256];
	size_t n = 0;
	while (n + 1 < sizeof(line)) {
		ssize_t got = recv(fd, line + n, 1, 0);
		if (got <= 0)
			break;
		if (line[n] == '\n')
			break;
		n++;
	}
	line[n] = 0;
	if (n && line[n - 1] == '\r')
		line[n - 1] = 0;
	int status;
	if (n == 0 || sscanf(line, "HTTP/%*d.%*d %d", &status) != 1) {
		snprintf(why, cap, "%s:%u closed the connection without an HTTP answer", u->host,
			 u->port);
		return -1;
	}
	if (status < 200 || status > 299) {
		const char *reason = strchr(strchr(line, ' ') + 1, ' ');
		snprintf(why, cap, "the server answered %d%s", status, reason ? reason : "");
		return -1;
	}
	return 0;
}

int plat_http_put(const struct url *u, const char *url_text, const void *data, size_t len,
		  char *why, size_t cap)
{
	char head[URL_MAX + URL_HOST_MAX + 256];
	(void)url_text;
	int fd = connect_to(u, why, cap);
	if (fd < 0)
		return -1;
	int n = snprintf(head, sizeof(head), "PUT %s HTTP/1.1\r\nHost: %s:%u\r\n"
			 "User-Agent: bareperf\r\nContent-Type: application/octet-stream\r\n"
			 "Content-Length: %zu\r\nConnection: close\r\n\r\n", u->path, u->host,
			 u->port, len);
	int rc = -1;
	if (send_all(fd, head, (size_t)n) || send_all(fd, data, len))
		snprintf(why, cap, "sending to %s:%u: %s", u->host, u->port,
			 errno == EPIPE || errno == ECONNRESET ? "the server closed the connection"
							       : strerror(errno));
	else
		rc = read_status(fd, u, why, cap);
	close(fd);
	return rc;
}
