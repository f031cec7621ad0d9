/*
 * sockopt.c: the socket options both sides of ttcp-sf set on their data
 * sockets: -b, the progress timeout, and for TCP -D and --cc.
 */
#include "config.h"
#include "log.h"
#include "sock.h"
#include "ttcp.h"

#include <errno.h>
#include <string.h>

void ttcp_socket_opts(const struct cfg *c, int fd, int sending)
{
	const char *cc = c->cc;

	if (c->sockbuf &&
	    sock_set_bufs(fd, sending ? c->sockbuf : 0,
			  sending ? 0 : c->sockbuf))
		log_warn("-b %d: %s", c->sockbuf, strerror(errno));
	sock_set_timeout(fd, c->timeout_ms);
	if (c->udp)
		return;
	if (c->nodelay && sock_set_nodelay(fd, 1))
		log_warn("-D: TCP_NODELAY: %s", strerror(errno));
	if (!cc && sock_cc_available("cubic"))
		cc = "cubic"; /* BBR caps loopback at ~3 GB/s */
	if (cc && sock_set_cc(fd, cc))
		log_warn("--cc %s: could not set it on the socket", cc);
}
