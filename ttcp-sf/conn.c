/*
 * conn.c: ttcp-sf's connections: the transmitter's data socket to the
 * receiver, the socket options both sides set (-b, -D, --cc, the
 * timeouts), a frame read whole within one deadline, and the receiver's
 * peek at what a data connection opens with (a setup frame, a hello, or
 * a classic stream that never loses a byte to the look).
 */
#include "config.h"
#include "clock.h"
#include "hostinfo.h"
#include "log.h"
#include "peerrep.h"
#include "sig.h"
#include "sock.h"
#include "ttcp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SO_BUSY_POLL
#define SO_BUSY_POLL 46
#endif

/* What the kernel holds for the latency options on fd, one line. */
static void say(const struct cfg *c, int fd)
{
	int bp = 0, nd = 0, ck = 0;
	socklen_t l = sizeof(int);

	getsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &bp, &l);
	l = sizeof(int);
	if (!c->udp)
		getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &nd, &l);
	l = sizeof(int);
	if (!c->udp)
		getsockopt(fd, IPPROTO_TCP, TCP_CORK, &ck, &l);
	fprintf(ttcp_out, "ttcp-%c: socket: SO_BUSY_POLL %d us, TCP_NODELAY %s, TCP_CORK %s\n",
		c->trans ? 't' : 'r', bp, nd ? "on" : "off",
		ck ? "on" : "off");
}

void ttcp_socket_opts(const struct cfg *c, int fd, int sending)
{
	static int said;
	const char *cc = c->cc;
	int one = 1, type = 0;
	socklen_t tl = sizeof(type);

	if (c->sockbuf &&
	    sock_set_bufs(fd, sending ? c->sockbuf : 0,
			  sending ? 0 : c->sockbuf))
		log_warn("-b %d: %s", c->sockbuf, strerror(errno));
	sock_set_timeout(fd, c->timeout_ms);
	if (c->busy_poll && setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL,
				       &c->busy_poll, sizeof(c->busy_poll)))
		log_warn("--busy-poll %d: SO_BUSY_POLL: %s", c->busy_poll,
			 strerror(errno));
	/* a receiver opens UDP without -u: the socket says what it is */
	if (c->udp || (!getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) &&
		       type == SOCK_DGRAM)) {
		if (!said++ && c->busy_poll)
			say(c, fd);
		return;
	}
	if (c->nodelay && sock_set_nodelay(fd, 1))
		log_warn("-D: TCP_NODELAY: %s", strerror(errno));
	if (c->cork && sending &&
	    setsockopt(fd, IPPROTO_TCP, TCP_CORK, &one, sizeof(one)))
		log_warn("--cork: TCP_CORK: %s", strerror(errno));
	if (!cc && sock_cc_available("cubic"))
		cc = "cubic"; /* BBR caps loopback at ~3 GB/s */
	if (cc && sock_set_cc(fd, cc))
		log_warn("--cc %s: could not set it on the socket", cc);
	if (!said++ && (c->busy_poll || c->nodelay || c->cork))
		say(c, fd);
}


int ttcp_connect(const struct cfg *c, int type)
{
	char err[512];
	int fd;

	if (sig_stop) /* a connection now would carry nothing */
		out_interrupted("t", "connect", NULL);
	fd = sock_connect(c->host, c->port, type, c->timeout_ms, err,
			  sizeof(err));
	if (fd < 0)
		die("receiver %s:%d (phase: connect): %s", c->host, c->port,
		    err);
	ttcp_socket_opts(c, fd, 1);
	return fd;
}


/* Read into b[*have, want) until whole, EOF or the deadline: 0 whole,
 * -ETIMEDOUT, -EPIPE (closed), -EINTR (a signal), or -errno. */
static int read_until(int fd, uint8_t *b, size_t *have, size_t want,
		      double deadline)
{
	ssize_t n;
	int left;

	while (*have < want) {
		left = (int)((deadline - clock_now()) * 1000);
		if (left <= 0 || sock_wait(fd, POLLIN, left) == 0)
			return -ETIMEDOUT;
		n = read(fd, b + *have, want - *have);
		if (n == 0)
			return -EPIPE;
		if (n < 0 && errno == EINTR && !sig_stop)
			continue;
		if (n < 0)
			return -errno;
		*have += (size_t)n;
	}
	return 0;
}

int ctl_recv_frame(int fd, int ms, json_t **out, size_t *got, char *err,
		   size_t len)
{
	double deadline = clock_now() + ms / 1000.0;
	uint8_t hdr[PEERREP_HDR], *b = hdr;
	size_t used, want = PEERREP_HDR;
	uint32_t be;
	int r, d;

	*got = 0;
	*out = NULL;
	r = read_until(fd, hdr, got, want, deadline);
	if (!r) {
		d = peerrep_decode(hdr, want, &used, out, err, len);
		if (d < 0)
			return d;
		memcpy(&be, hdr + 4, 4);
		want += ntohl(be);
		b = malloc(want);
		if (!b)
			abort();
		memcpy(b, hdr, PEERREP_HDR);
		r = read_until(fd, b, got, want, deadline);
	}
	if (!r && peerrep_decode(b, want, &used, out, err, len) != 1)
		r = -EINVAL;
	else if (r && !*got)
		snprintf(err, len, "%s", r == -ETIMEDOUT ? "nothing came" :
					 r == -EPIPE	 ? "closed at once" :
							   strerror(-r));
	else if (r)
		snprintf(err, len, "%s mid-frame after %zu of %zu bytes",
			 r == -ETIMEDOUT ? "stalled" :
			 r == -EPIPE	 ? "closed" :
					   strerror(-r),
			 *got, want);
	if (r == -ETIMEDOUT)
		snprintf(err + strlen(err), len - strlen(err),
			 " within %d ms", ms);
	if (b != hdr)
		free(b);
	return r;
}

/* Wait until fd holds want bytes (or EOF, or ms passed): poll with
 * SO_RCVLOWAT, so no busy wait. */
static void wait_for(int fd, int want, int ms)
{
	int one = 1;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &want, sizeof(want)))
		return;
	sock_wait(fd, POLLIN, ms);
	setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &one, sizeof(one));
}

/* The frame that begins fd, read whole, as a setup or a hello. */
static int take_frame(int fd, int timeout_ms, struct dir_setup *st,
		      struct ctl_hello *h, char *why, size_t len)
{
	const char *type;
	char err[256];
	size_t got;
	json_t *j;
	int r;

	r = ctl_recv_frame(fd, timeout_ms, &j, &got, err, sizeof(err));
	if (r) {
		snprintf(why, len, "setup frame: %s", err);
		return -1;
	}
	type = json_string_value(json_object_get(j, "type"));
	if (type && !strcmp(type, DIR_SETUP_TYPE)) {
		r = dir_setup_parse(j, st, err, sizeof(err)) ? -1 : OPEN_SETUP;
		if (r < 0)
			snprintf(why, len, "setup frame: %s", err);
	} else if (h && !ctl_hello_parse(j, h, err, sizeof(err))) {
		r = OPEN_HELLO;
	} else {
		snprintf(why, len, "a frame of type \"%.40s\" where a setup frame (or data) belongs",
			 type ? type : "(none)");
		r = -1;
	}
	json_decref(j);
	return r;
}

/* --rr's setup frame, whole within timeout_ms: OPEN_RR, or -1 with why
 * (su NULL: not expected here). Its magic shares "ZCBR" with a frame's,
 * but no frame is as long as "R1" would make it. */
static int take_rr(int fd, int timeout_ms, struct rr_setup *su, char *why,
		   size_t len)
{
	unsigned char b[RR_SETUP];
	char e[128];
	ssize_t k;

	if (!su) {
		snprintf(why, len, "an --rr setup frame where a stream's setup frame belongs");
		return -1;
	}
	wait_for(fd, RR_SETUP, timeout_ms);
	k = recv(fd, b, sizeof(b), MSG_WAITALL | MSG_DONTWAIT);
	if (k != RR_SETUP) {
		snprintf(why, len, "--rr setup frame: %zd of %d bytes within %d ms",
			 k < 0 ? 0 : k, RR_SETUP, timeout_ms);
		return -1;
	}
	if (rr_setup_get(b, su, e, sizeof(e))) {
		snprintf(why, len, "--rr setup frame: %s", e);
		return -1;
	}
	return OPEN_RR;
}

/* Whether the first k bytes of b could begin what want begins with. */
static int may_be(const unsigned char *b, ssize_t k, const char *want)
{
	size_t n = strlen(want);

	return k > 0 && !memcmp(b, want, (size_t)k < n ? (size_t)k : n);
}

int ttcp_peek_open(int fd, int timeout_ms, struct dir_setup *st,
		   struct rr_setup *su, struct ctl_hello *h, char *why,
		   size_t len)
{
	unsigned char b[PEERREP_HDR];
	uint32_t be, n;
	ssize_t k;

	if (sock_wait(fd, POLLIN, timeout_ms) <= 0)
		return OPEN_STREAM; /* the stream's own wait says what happened */
	k = recv(fd, b, sizeof(b), MSG_PEEK);
	if (k == 0)
		return OPEN_EMPTY;
	if (k > 0 && k < PEERREP_HDR && may_be(b, k, PEERREP_MAGIC)) {
		wait_for(fd, PEERREP_HDR, timeout_ms); /* the rest of a header */
		k = recv(fd, b, sizeof(b), MSG_PEEK);
	}
	if (k >= (ssize_t)strlen(RR_MAGIC) && !memcmp(b, RR_MAGIC, strlen(RR_MAGIC)))
		return take_rr(fd, timeout_ms, su, why, len);
	if (k < PEERREP_HDR || memcmp(b, PEERREP_MAGIC, 4))
		return OPEN_STREAM; /* a classic stream, or closed at once */
	memcpy(&be, b + 4, 4);
	n = ntohl(be);
	if (n == 0 || n > PEERREP_MAX)
		return OPEN_STREAM; /* the magic by chance: no frame is that */
	return take_frame(fd, timeout_ms, st, h, why, len);
}
