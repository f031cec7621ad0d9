/*
 * sockopt.c: the socket options both sides of ttcp-sf set on their data
 * sockets: -b, the progress timeout, --busy-poll, and for TCP -D
 * (--nodelay), --cork and --cc. The first data socket's latency options
 * are read back from the kernel and printed once, so the run shows what
 * took effect, not what was asked.
 */
#include "config.h"
#include "log.h"
#include "sock.h"
#include "ttcp.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>

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
