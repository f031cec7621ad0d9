/*
 * conn.c: ttcp-sf's connections: the transmitter's data socket to the
 * receiver, the socket options both sides set (-b, -D, --cc, the
 * timeouts), a frame read whole within one deadline, and who this side
 * is (host name and boot id, for same-box detection).
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
	int one = 1;

	if (c->sockbuf &&
	    sock_set_bufs(fd, sending ? c->sockbuf : 0,
			  sending ? 0 : c->sockbuf))
		log_warn("-b %d: %s", c->sockbuf, strerror(errno));
	sock_set_timeout(fd, c->timeout_ms);
	if (c->busy_poll && setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL,
				       &c->busy_poll, sizeof(c->busy_poll)))
		log_warn("--busy-poll %d: SO_BUSY_POLL: %s", c->busy_poll,
			 strerror(errno));
	if (c->udp) {
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

void ttcp_cpu_open(const struct cfg *c, struct cpuwin *w)
{
	struct cpuwin_cfg wc = {
		.local = c->com.cpu,
		.local_list = c->com.cpu_list,
		.peer_side = "remote",
	};
	char err[512];

	if (cpuwin_open(w, &wc, err, sizeof(err)))
		die("%s", err);
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

void ctl_self(char *host, size_t hlen, char *boot, size_t blen)
{
	if (gethostname(host, hlen))
		snprintf(host, hlen, "?");
	host[hlen - 1] = '\0';
	if (host_read_file("", "/proc/sys/kernel/random/boot_id", boot,
			   blen) < 0)
		snprintf(boot, blen, "?");
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

