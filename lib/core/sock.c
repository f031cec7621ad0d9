/* sock.c: socket set-up and timed whole reads and writes. */
#include "config.h"
#include "sock.h"
#include "hostinfo.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>

int sock_split_hostport(const char *s, char *host, size_t hlen, int *port,
			int def)
{
	const char *colon;
	char *end;
	long p;

	*port = def;
	if (!s || !*s)
		return -EINVAL;
	if (*s == '[') {
		const char *rb = strchr(s, ']');

		if (!rb || (size_t)(rb - s - 1) >= hlen)
			return -EINVAL;
		snprintf(host, hlen, "%.*s", (int)(rb - s - 1), s + 1);
		colon = rb[1] == ':' ? rb + 1 : NULL;
		if (rb[1] && !colon)
			return -EINVAL;
	} else {
		colon = strrchr(s, ':');
		if (colon && strchr(s, ':') != colon)
			colon = NULL; /* bare IPv6 address */
		if ((size_t)(colon ? colon - s : (long)strlen(s)) >= hlen)
			return -EINVAL;
		snprintf(host, hlen, "%.*s",
			 colon ? (int)(colon - s) : (int)strlen(s), s);
	}
	if (colon) {
		p = strtol(colon + 1, &end, 10);
		if (end == colon + 1 || *end || p < 0 || p > 65535)
			return -EINVAL;
		*port = (int)p;
	}
	return 0;
}

static int resolve(const char *host, int port, int type, int passive,
		   struct addrinfo **res, char *err, size_t len)
{
	struct addrinfo hints;
	char ps[16];
	int r;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = type;
	hints.ai_flags = passive ? AI_PASSIVE : 0;
	snprintf(ps, sizeof(ps), "%d", port);
	if (host && (!strcmp(host, "*") || !strcmp(host, "")))
		host = passive ? NULL : "127.0.0.1";
	r = getaddrinfo(host, ps, &hints, res);
	if (r) {
		snprintf(err, len, "cannot resolve %s: %s", host ? host : "*",
			 gai_strerror(r));
		return -EHOSTUNREACH;
	}
	return 0;
}

int sock_listen(const char *host, int port, int type, int backlog,
		int *bound, char *err, size_t len)
{
	struct addrinfo *res, *ai;
	int fd = -1, one = 1, r, e = 0;

	r = resolve(host ? host : "127.0.0.1", port, type, 1, &res, err, len);
	if (r)
		return r;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0) {
			e = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    (type != SOCK_STREAM || listen(fd, backlog) == 0))
			break;
		e = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		snprintf(err, len, "cannot listen on %s:%d: %s",
			 host ? host : "127.0.0.1", port, strerror(e));
		return -e;
	}
	if (bound) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);

		getsockname(fd, (struct sockaddr *)&ss, &sl);
		*bound = ntohs(ss.ss_family == AF_INET6 ?
				       ((struct sockaddr_in6 *)&ss)->sin6_port :
				       ((struct sockaddr_in *)&ss)->sin_port);
	}
	return fd;
}

int sock_wait(int fd, int events, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = (short)events };
	int r;

	r = poll(&p, 1, timeout_ms > 0 ? timeout_ms : -1);
	if (r < 0)
		return -errno;
	return r > 0;
}

int sock_connect(const char *host, int port, int type, int timeout_ms,
		 char *err, size_t len)
{
	struct addrinfo *res, *ai;
	int fd = -1, r, e = ECONNREFUSED;

	r = resolve(host, port, type, 0, &res, err, len);
	if (r)
		return r;
	for (ai = res; ai; ai = ai->ai_next) {
		socklen_t el = sizeof(e);

		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0) {
			e = errno;
			continue;
		}
		sock_set_nonblock(fd, 1);
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
			e = 0;
		} else if (errno == EINPROGRESS) {
			r = sock_wait(fd, POLLOUT, timeout_ms);
			if (r == 0)
				e = ETIMEDOUT;
			else if (r < 0)
				e = -r;
			else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el))
				e = errno;
		} else {
			e = errno;
		}
		if (!e) {
			sock_set_nonblock(fd, 0);
			break;
		}
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		snprintf(err, len, "cannot connect to %s:%d: %s", host, port,
			 strerror(e));
		return -e;
	}
	return fd;
}

static int unix_addr(const char *path, struct sockaddr_un *sa,
		     socklen_t *sl)
{
	size_t n = strlen(path);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (n >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	memcpy(sa->sun_path, path, n);
	if (path[0] == '@')
		sa->sun_path[0] = '\0';
	*sl = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n +
			  (path[0] == '@' ? 0 : 1));
	return 0;
}

/* A unix stream socket at path: listening (serve 1) or connected. */
static int unix_sock(const char *path, int serve, char *err, size_t len)
{
	struct sockaddr_un sa;
	socklen_t sl;
	int fd, e;

	if (unix_addr(path, &sa, &sl)) {
		snprintf(err, len, "unix socket path too long: %s", path);
		return -ENAMETOOLONG;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    (serve ? bind(fd, (struct sockaddr *)&sa, sl) || listen(fd, 64)
		   : connect(fd, (struct sockaddr *)&sa, sl))) {
		e = errno;
		snprintf(err, len, "cannot %s %s: %s",
			 serve ? "listen on" : "connect to", path, strerror(e));
		if (fd >= 0)
			close(fd);
		return -e;
	}
	return fd;
}

int sock_listen_unix(const char *path, char *err, size_t len)
{
	return unix_sock(path, 1, err, len);
}

int sock_connect_unix(const char *path, char *err, size_t len)
{
	return unix_sock(path, 0, err, len);
}

int sock_set_nonblock(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -errno;
	fl = on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
	return fcntl(fd, F_SETFL, fl) ? -errno : 0;
}

int sock_set_bufs(int fd, int sndbuf, int rcvbuf)
{
	if (sndbuf > 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)))
		return -errno;
	if (rcvbuf > 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)))
		return -errno;
	return 0;
}

int sock_set_nodelay(int fd, int on)
{
	return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) ?
		       -errno :
		       0;
}

int sock_set_cc(int fd, const char *cc)
{
	return setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, strlen(cc)) ?
		       -errno :
		       0;
}

int sock_cc_available(const char *cc)
{
	char buf[512], *tok, *save = NULL;

	if (host_read_file(
		    "", "/proc/sys/net/ipv4/tcp_available_congestion_control",
		    buf, sizeof(buf)) <= 0)
		return 0;
	for (tok = strtok_r(buf, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save))
		if (!strcmp(tok, cc))
			return 1;
	return 0;
}

int sock_set_timeout(int fd, int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000,
			      .tv_usec = (ms % 1000) * 1000 };

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return -errno;
	return 0;
}

/* send(2) without SIGPIPE; write(2) where fd is not a socket. */
static ssize_t send_some(int fd, const char *buf, size_t len)
{
	ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

	if (n < 0 && errno == ENOTSOCK)
		n = write(fd, buf, len);
	return n;
}

/* All len bytes in (out 0) or out (1), each wait at most timeout_ms
 * (<= 0: no limit): the bytes done (fewer in: EOF), or -errno. */
static ssize_t sock_full(int fd, char *buf, size_t len, int timeout_ms,
			 int out)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n;

		if (timeout_ms > 0) {
			int r = sock_wait(fd, out ? POLLOUT : POLLIN,
					  timeout_ms);

			if (r == 0)
				return -ETIMEDOUT;
			if (r < 0)
				return r;
		}
		n = out ? send_some(fd, buf + done, len - done)
			: read(fd, buf + done, len - done);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		if (n == 0 && !out)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

ssize_t sock_read_full(int fd, void *buf, size_t len, int timeout_ms)
{
	return sock_full(fd, buf, len, timeout_ms, 0);
}

ssize_t sock_write_full(int fd, const void *buf, size_t len, int timeout_ms)
{
	return sock_full(fd, (char *)buf, len, timeout_ms, 1);
}

const char *sock_peer_name(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char h[INET6_ADDRSTRLEN] = "?";
	int port = 0;

	if (getpeername(fd, (struct sockaddr *)&ss, &sl) == 0) {
		if (ss.ss_family == AF_INET) {
			struct sockaddr_in *a = (struct sockaddr_in *)&ss;

			inet_ntop(AF_INET, &a->sin_addr, h, sizeof(h));
			port = ntohs(a->sin_port);
		} else if (ss.ss_family == AF_INET6) {
			struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

			inet_ntop(AF_INET6, &a->sin6_addr, h, sizeof(h));
			port = ntohs(a->sin6_port);
		} else if (ss.ss_family == AF_UNIX) {
			snprintf(buf, len, "unix");
			return buf;
		}
	}
	snprintf(buf, len, "%s:%d", h, port);
	return buf;
}
