/*
 * rcv_accept.c: who the receiver (-r) talks to on its listener: the
 * transmitter's data connection, and in the report window the connection
 * that brings its hello. Strays never cost a sample: a report-window
 * connection whose first frame is not our hello is logged and closed
 * while the window stays open; once a hello named the transmitter's
 * address, later data connections from elsewhere are turned away. A
 * data connection that closes without a byte is one too: after it the
 * wait for the sample ends within --report-timeout (struct rcv_wait).
 */
#include "config.h"
#include "clock.h"
#include "log.h"
#include "peerrep.h"
#include "rcv.h"
#include "sig.h"
#include "sock.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define RPT_CONNS     8	   /* report-window connections read at once */
#define RPT_HELLO_MAX 8192 /* a hello is far smaller than this */
#define STRAYS_LOGGED 5	   /* stray connections logged per window */

/* Same host (address only), for TCP connections of one transmitter. */
int rcv_same_host(const struct sockaddr_storage *a,
		     const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return 0;
	if (a->ss_family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)a)->sin_addr,
			       &((const struct sockaddr_in *)b)->sin_addr,
			       sizeof(struct in_addr));
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return 0;
}

/* Same address and port: one UDP socket of one sender. */
int rcv_same_sender(const struct sockaddr_storage *a,
		       const struct sockaddr_storage *b)
{
	if (!rcv_same_host(a, b))
		return 0;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_port ==
		       ((const struct sockaddr_in *)b)->sin_port;
	return ((const struct sockaddr_in6 *)a)->sin6_port ==
	       ((const struct sockaddr_in6 *)b)->sin6_port;
}

void rcv_stray(struct rcv *r, const char *peer, const char *phase,
	       const char *why)
{
	r->strays++;
	if (r->strays <= STRAYS_LOGGED)
		log_warn("connection from %s during the %s: %s; closed", peer,
			 phase, why);
	else if (r->strays == STRAYS_LOGGED + 1)
		log_warn("more stray connections: no longer logged");
}

/* Accept one connection, its address in *from; -1 on error (logged). */
static int accept_one(struct rcv *r, struct sockaddr_storage *from,
		      const char *phase)
{
	socklen_t alen = sizeof(*from);
	int fd = accept4(r->lfd, (struct sockaddr *)from, &alen, SOCK_CLOEXEC);

	if (fd < 0) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOMEM ||
		    errno == ENOBUFS)
			die_errno("accept (phase: %s)", phase);
		log_debug("accept (phase: %s): %s", phase, strerror(errno));
	}
	return fd;
}

void rcv_wait_init(struct rcv_wait *w, int ms, const char *what)
{
	w->ms = ms;
	w->what = what;
	w->deadline = ms ? clock_now() + ms / 1000.0 : 0;
	w->empty[0] = '\0';
}

void rcv_wait_empty(struct rcv *r, struct rcv_wait *w)
{
	double now = clock_now(), end = now + r->c->report_ms / 1000.0;

	rcv_stray(r, r->peer, "data accept", "closed without sending a byte");
	snprintf(w->empty, sizeof(w->empty), "%s", r->peer);
	if (w->deadline && w->deadline < end)
		end = w->deadline;
	w->deadline = end;
	w->ms = (int)((end - now) * 1000 + 0.5);
}

void rcv_wait_over(const struct rcv *r, const struct rcv_wait *w)
{
	if (w->empty[0])
		die("%s connected and closed without sending a byte, and no transmitter followed within %d ms (phase: data accept): a port probe, or a transmitter that vanished before its first byte",
		    w->empty, w->ms);
	if (w->what)
		die("no %s within %d ms (phase: accept, sample %d)", w->what,
		    w->ms, r->sample + 1);
	if (r->sample)
		die("no transmitter connected within %d ms for sample %d, which its hello announced (phase: accept)",
		    w->ms, r->sample + 1);
	die("no transmitter connected within %d ms (phase: accept)", w->ms);
}

/* Wait for the listener (tcp) or a datagram on the UDP socket (udp): 1
 * a connection waits, 2 a datagram, 0 the wait is over, -1 stopped. */
static int wait_either(struct rcv *r, int tcp, int udp, int left)
{
	struct pollfd p[2];
	int n = 0, w;

	if (tcp)
		p[n++] = (struct pollfd){.fd = r->lfd, .events = POLLIN};
	if (udp)
		p[n++] = (struct pollfd){.fd = r->ufd, .events = POLLIN};
	w = poll(p, (nfds_t)n, left ? left : -1);
	if (sig_stop)
		return -1;
	if (w < 0)
		return errno == EINTR ? 3 : 0; /* 3: again */
	if (!w)
		return 0;
	if (udp && (p[n - 1].revents & POLLIN))
		return 2;
	return 1;
}

int rcv_accept_any(struct rcv *r, const struct rcv_wait *wt, const char *phase,
		   unsigned what)
{
	int tcp = !!(what & RCV_TCP), udp = (what & RCV_UDP) && r->ufd >= 0;
	struct sockaddr_storage from;
	char peer[64];
	int fd, w, left;

	for (;;) {
		left = wt->deadline ?
			       (int)((wt->deadline - clock_now()) * 1000) : 0;
		if (wt->deadline && left <= 0)
			return 0;
		w = wait_either(r, tcp, udp, left);
		if (w == -1)
			return -1;
		if (w == 3)
			continue;
		if (w == 0)
			return 0;
		if (w == 2)
			return RCV_DGRAM;
		fd = accept_one(r, &from, phase);
		if (fd < 0)
			continue;
		sock_peer_name(fd, peer, sizeof(peer));
		if (r->tx_known && !rcv_same_host(&from, &r->tx)) {
			rcv_stray(r, peer, phase, "not the transmitter's host");
			close(fd);
			continue;
		}
		snprintf(r->peer, sizeof(r->peer), "%s", peer);
		return fd;
	}
}

int rcv_accept_data(struct rcv *r, const struct rcv_wait *w,
		    const char *phase)
{
	return rcv_accept_any(r, w, phase, RCV_TCP);
}

/* A report-window connection, read until its first frame is whole. */
struct cand {
	int fd;
	char peer[64];
	struct sockaddr_storage from;
	uint8_t buf[RPT_HELLO_MAX];
	size_t len;
};

static void cand_drop(struct rcv *r, struct cand *v, int *n, int i,
		      const char *why)
{
	rcv_stray(r, v[i].peer, "report window", why);
	close(v[i].fd);
	v[i] = v[--*n];
}

/*
 * Read what candidate i sent. 1: its first frame is our hello (*h
 * filled); 0: more to come; -1: it was dropped as a stray.
 */
static int cand_read(struct rcv *r, struct cand *v, int *n, int i,
		     struct ctl_hello *h)
{
	char err[512], why[600];
	size_t used;
	ssize_t k;
	json_t *j;
	int d;

	k = read(v[i].fd, v[i].buf + v[i].len, sizeof(v[i].buf) - v[i].len);
	if (k < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (k <= 0) {
		cand_drop(r, v, n, i,
			  k < 0 ? strerror(errno)
				: "closed before a ttcp-sf hello");
		return -1;
	}
	v[i].len += (size_t)k;
	d = peerrep_decode(v[i].buf, v[i].len, &used, &j, err, sizeof(err));
	if (d == 0 && v[i].len == sizeof(v[i].buf))
		snprintf(err, sizeof(err), "a frame larger than any hello");
	if (d == 0 && v[i].len < sizeof(v[i].buf))
		return 0;
	if (d == 1) {
		d = ctl_hello_parse(j, h, err, sizeof(err)) ? -1 : 1;
		json_decref(j);
		if (d == 1)
			return 1;
	}
	snprintf(why, sizeof(why), "not a ttcp-sf hello (%s)", err);
	cand_drop(r, v, n, i, why);
	return -1;
}

/* The hello that came at the data accept (rcv.c), taken. */
static int stashed_hello(struct rcv *r, struct ctl_hello *h)
{
	socklen_t alen = sizeof(r->tx);
	int fd = r->hello_fd;

	*h = r->hello;
	r->hello_fd = -1;
	if (!getpeername(fd, (struct sockaddr *)&r->tx, &alen))
		r->tx_known = 1;
	return fd;
}

/* No hello came: why (naming one that stalled mid-frame). */
static void no_hello(const struct rcv *r, const struct cand *v, int n,
		     char *why, size_t len)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i].len && !memcmp(v[i].buf, PEERREP_MAGIC,
					v[i].len < 4 ? v[i].len : 4)) {
			snprintf(why, len, "the hello from %s stalled mid-frame after %zu bytes within %d ms (phase: report)",
				 v[i].peer, v[i].len, r->c->report_ms);
			return;
		}
	snprintf(why, len, "transmitter sent no hello within %d ms (plain ttcp, or it died): its figures are unknown (phase: report)",
		 r->c->report_ms);
}

/*
 * The report window: the first connection whose first frame is our hello
 * is the transmitter's; others are logged and closed, and the window
 * (report_ms) stays open for the real one. Returns its fd with *h
 * filled, or -1 when no hello came (why says so).
 */
int rcv_await_hello(struct rcv *r, struct ctl_hello *h, char *why,
		    size_t len)
{
	double deadline = clock_now() + r->c->report_ms / 1000.0;
	struct pollfd p[RPT_CONNS + 1];
	struct cand *v;
	int n = 0, i, w, left, fd = -1;

	if (r->hello_fd >= 0)
		return stashed_hello(r, h);
	v = calloc(RPT_CONNS, sizeof(*v));
	if (!v)
		abort();
	while (fd < 0 && !sig_stop) {
		left = (int)((deadline - clock_now()) * 1000);
		if (left <= 0)
			break;
		p[0] = (struct pollfd){.fd = r->lfd, .events = POLLIN};
		for (i = 0; i < n; i++)
			p[i + 1] = (struct pollfd){.fd = v[i].fd,
						   .events = POLLIN};
		w = poll(p, (nfds_t)n + 1, left);
		if (w <= 0)
			continue;
		for (i = n - 1; i >= 0 && fd < 0; i--)
			if (p[i + 1].revents &&
			    cand_read(r, v, &n, i, h) == 1) {
				fd = v[i].fd;
				snprintf(r->peer, sizeof(r->peer), "%s",
					 v[i].peer);
				r->tx = v[i].from;
				r->tx_known = 1;
				v[i] = v[--n];
			}
		if (fd >= 0 || !(p[0].revents & POLLIN))
			continue;
		if (n == RPT_CONNS) /* the oldest has had its chance */
			cand_drop(r, v, &n, 0, "too many connections at once");
		v[n].len = 0;
		v[n].fd = accept_one(r, &v[n].from, "report window");
		if (v[n].fd < 0)
			continue;
		sock_set_nonblock(v[n].fd, 1);
		sock_peer_name(v[n].fd, v[n].peer, sizeof(v[n].peer));
		n++;
	}
	if (fd < 0)
		no_hello(r, v, n, why, len);
	for (i = 0; i < n; i++)
		close(v[i].fd);
	free(v);
	if (fd >= 0)
		sock_set_nonblock(fd, 0);
	return fd;
}
