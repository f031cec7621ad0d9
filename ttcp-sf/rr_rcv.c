/*
 * rr_rcv.c: the receiver's side of request/response (rr.h), run by any
 * -r whose sample opened with --rr's setup frame (rcv.c took it from the
 * data connection, or peeked it on the UDP socket): it answers what the
 * frame asks (TCP_RR on one connection, TCP_CRR a connection per
 * transaction, UDP_RR on the UDP socket) and counts the transactions,
 * so both ends' counts meet in the end-of-run exchange. A transmitter that vanishes mid-request, or
 * goes quiet past --timeout, ends the run with one line, never a hang.
 */
#include "config.h"
#include "ctr.h"
#include "clock.h"
#include "flows.h"
#include "ival.h"
#include "log.h"
#include "rcv.h"
#include "rr.h"
#include "tcp.h"
#include "udp.h"
#include "sig.h"
#include "sock.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define UDP_BUF 65536 /* larger than any datagram */

struct rrs {
	struct rcv *r;
	struct sample *s;
	struct rr_part *p;	/* s's request/response part */
	struct rr_setup su; /* as the first setup said */
	unsigned char *req, *resp;
};

static void __attribute__((noreturn))
fault(const struct rrs *x, const char *phase, ssize_t n, size_t want)
{
	unsigned long long t = (unsigned long long)x->p->trans + 1;

	if (n == -ETIMEDOUT)
		die("transmitter %s (phase: %s, transaction %llu): nothing within %d ms",
		    x->r->peer, phase, t, x->r->c->timeout_ms);
	if (n < 0)
		die("transmitter %s (phase: %s, transaction %llu): %s",
		    x->r->peer, phase, t, strerror((int)-n));
	die("transmitter %s closed the connection mid-transaction (phase: %s, transaction %llu: %zd of %zu bytes)",
	    x->r->peer, phase, t, n, want);
}

/*
 * The next connection and its setup frame within the wait w: its fd, 0
 * when it was a stray (closed without a byte: the wait is shortened),
 * -1 when stopped. Dies when the wait is over, or it sent something
 * else.
 */
static int next_conn(struct rrs *x, struct rcv_wait *w, struct rr_setup *su)
{
	unsigned char b[RR_SETUP];
	char why[128];
	ssize_t n;
	int fd = rcv_accept_data(x->r, w, "data accept");

	if (fd <= 0) {
		if (sig_stop)
			return -1;
		rcv_wait_over(x->r, w);
	}
	ttcp_socket_opts(x->r->c, fd, 0);
	n = rr_read_full(fd, b, RR_SETUP);
	if (n == 0) {
		rcv_wait_empty(x->r, w);
		close(fd);
		return 0;
	}
	if (n < 0)
		fault(x, "setup", n, RR_SETUP);
	if (n < RR_SETUP || memcmp(b, RR_MAGIC, 6))
		die("transmitter %s sent no --rr setup frame for its next connection (phase: setup)",
		    x->r->peer);
	if (rr_setup_get(b, su, why, sizeof(why)))
		die("transmitter %s: --rr setup frame: %s (phase: setup)",
		    x->r->peer, why);
	if (su->kind == RR_UDP || su->kind == RR_UDP_END)
		die("transmitter %s sent a UDP_RR setup over TCP (phase: setup): run both ends with -u, or neither",
		    x->r->peer);
	return fd;
}

static void buffers(struct rrs *x)
{
	if (!x->req)
		x->req = malloc(x->su.req > UDP_BUF ? x->su.req : UDP_BUF);
	x->resp = calloc(1, x->su.resp);
	if (!x->req || !x->resp)
		die("out of memory (--rr-size %u,%u)", x->su.req, x->su.resp);
}

/* One request read and answered; 0 at EOF between transactions. */
static int answer(struct rrs *x, int fd)
{
	ssize_t n = rr_read_full(fd, x->req, x->su.req);

	if (n == 0)
		return 0;
	if (n != (ssize_t)x->su.req)
		fault(x, "request", n, x->su.req);
	n = rr_write_full(fd, x->resp, x->su.resp);
	if (n != (ssize_t)x->su.resp)
		fault(x, "response", n, x->su.resp);
	ctr_add(&x->p->trans, 1);
	return 1;
}

/* The next connection of the sample and its setup, within --timeout
 * (what: what it is, for the message when none comes; a stray does not
 * count): its fd, or -1 when stopped. */
static int next_one(struct rrs *x, const char *what, struct rr_setup *su)
{
	struct rcv_wait w;
	int fd;

	rcv_wait_init(&w, x->r->c->timeout_ms, what);
	do
		fd = next_conn(x, &w, su);
	while (fd == 0);
	return fd;
}

/* TCP_CRR: answer on fd, close, and take the next connection until the
 * transmitter's end frame. */
static int crr(struct rrs *x, int fd)
{
	struct rr_setup su;

	for (;;) {
		if (!answer(x, fd))
			fault(x, "request", 0, x->su.req);
		tcp_conn(x->s, fd);
		close(fd);
		fd = next_one(x, "connection for the next --crr transaction",
			      &su);
		if (fd < 0)
			return -1;
		if (su.kind == RR_CRR_END)
			break;
		if (su.kind != RR_CRR || su.req != x->su.req ||
		    su.resp != x->su.resp)
			die("transmitter %s changed the --rr setup mid-sample (phase: setup, transaction %llu)",
			    x->r->peer, (unsigned long long)x->p->trans + 1);
	}
	close(fd);
	return 0;
}

/* -P: the other flows' connections, then the epoll engine (flows.c). */
static int rr_flows(struct rrs *x, int fd)
{
	int n = x->su.flows, got = 1, i, f, *fds = calloc((size_t)n, sizeof(int));
	struct rr_setup su;

	if (!fds)
		die("out of memory (-P %d)", n);
	flows_raise_fds(n);
	for (i = 0; i < n; i++)
		fds[i] = -1;
	fds[x->su.flow] = fd;
	while (got < n) {
		f = next_one(x, "connection for the next flow", &su);
		if (f < 0)
			return -1;
		if (su.kind != RR_TCP || su.flows != n || fds[su.flow] >= 0 ||
		    su.req != x->su.req || su.resp != x->su.resp)
			die("transmitter %s: flow %d of %d has another setup, or came twice (phase: flow accept)",
			    x->r->peer, got + 1, n);
		fds[su.flow] = f;
		got++;
	}
	flows_rcv_sample(x->r, fds, n, FL_RRS, x->su.req, x->su.resp, NULL,
			 x->s);
	return 0;
}

/* TCP_RR or TCP_CRR on the connection that opened with su (rcv.c took
 * the frame). */
static int tcp_serve(struct rrs *x, int fd, const struct rr_setup *su)
{
	double t0;
	int r = 0;

	x->su = *su;
	if (su->kind == RR_UDP || su->kind == RR_UDP_END)
		die("transmitter %s sent a UDP_RR setup over TCP (phase: setup)",
		    x->r->peer);
	if (x->su.kind == RR_CRR_END)
		die("transmitter %s ended a sample it never began (phase: setup)",
		    x->r->peer);
	fprintf(ttcp_out,
		"ttcp-r: %s from %s: %u-byte requests, %u-byte responses\n",
		rr_name(x->su.kind), x->r->peer, x->su.req, x->su.resp);
	fflush(ttcp_out);
	if (x->su.flows > 1)
		return rr_flows(x, fd);
	buffers(x);
	cpuwin_start(&x->r->w, NULL, 0);
	ival_watch(ttcp_iv, &x->p->trans);
	t0 = clock_now();
	if (x->su.kind == RR_CRR) {
		r = crr(x, fd);
	} else {
		tcp_watch(x->s, &fd, 1);
		while (!sig_stop && answer(x, fd))
			;
		tcp_done(x->s, 0);
		close(fd); /* the transmitter's clock stops at this EOF */
	}
	x->s->elapsed_s = clock_now() - t0;
	ival_watch(ttcp_iv, NULL);
	cpuwin_stop(&x->r->w, &x->s->cpu, NULL, 0);
	return r;
}

/* UDP_RR: where the sample is. */
struct udp_rr {
	struct sockaddr_storage src; /* the transmitter, from its setup */
	int have_src;
	int64_t sent; /* its end datagram's count, -1 = none */
	long strays;  /* datagrams not its, or of a wrong size */
	double t0;
};

/* A 16-byte frame: the setup (starts the sample; resent ones are echoed
 * again) or the end. 1 when it ended the sample. */
static int udp_frame(struct rrs *x, struct udp_rr *u, const unsigned char *b,
		     const struct sockaddr_storage *from, socklen_t alen)
{
	struct rcv *r = x->r;
	char host[48], port[8] = "";
	struct rr_setup su;

	rr_setup_get(b, &su, NULL, 0);
	if (u->have_src && !rcv_same_sender(from, &u->src)) {
		u->strays++;
		return 0;
	}
	if (!u->have_src && su.kind != RR_UDP) {
		u->strays++; /* an old sample's resent end */
		return 0;
	}
	sendto(r->ufd, b, RR_SETUP, 0, (const struct sockaddr *)from, alen);
	if (su.kind == RR_UDP_END) {
		u->sent = su.req;
		return 1;
	}
	if (!u->have_src) {
		u->have_src = 1;
		u->src = *from;
		x->su = su;
		buffers(x);
		if (getnameinfo((const struct sockaddr *)from, alen, host,
				sizeof(host), port, sizeof(port),
				NI_NUMERICHOST | NI_NUMERICSERV))
			snprintf(host, sizeof(host), "?");
		snprintf(r->peer, sizeof(r->peer), "%s:%s", host, port);
		fprintf(ttcp_out,
			"ttcp-r: %s from %s: %u-byte requests, %u-byte responses\n",
			rr_name(su.kind), r->peer, su.req, su.resp);
		fflush(ttcp_out);
		cpuwin_start(&r->w, NULL, 0);
		u->t0 = clock_now();
	}
	return 0;
}

/* One datagram; 1 when it ended the sample. */
static int udp_one(struct rrs *x, struct udp_rr *u, ssize_t n,
		   const struct sockaddr_storage *from, socklen_t alen)
{
	size_t k = x->su.req < x->su.resp ? x->su.req : x->su.resp;
	struct rr_setup su;

	if (n == RR_SETUP && !rr_setup_get(x->req, &su, NULL, 0) &&
	    (su.kind == RR_UDP || su.kind == RR_UDP_END))
		return udp_frame(x, u, x->req, from, alen);
	if (!u->have_src || !rcv_same_sender(from, &u->src) ||
	    n != (ssize_t)x->su.req) {
		u->strays++;
		return 0;
	}
	memcpy(x->resp, x->req, k < 4 ? k : 4); /* the sequence stamp */
	if (sendto(x->r->ufd, x->resp, x->su.resp, 0,
		   (const struct sockaddr *)from, alen) < 0)
		log_debug("UDP response: %s", strerror(errno)); /* a loss */
	ctr_add(&x->p->trans, 1);
	return 0;
}

static int udp_serve(struct rrs *x, int first)
{
	const struct cfg *c = x->r->c;
	struct udp_rr u = {.sent = -1};
	struct sockaddr_storage from;
	socklen_t alen;
	ssize_t n;
	int w, ms;

	x->req = malloc(UDP_BUF);
	if (!x->req)
		die("out of memory");
	for (;;) {
		ms = u.have_src ? c->timeout_ms
		     : first	? c->wait_ms
				: c->timeout_ms;
		w = sock_wait(x->r->ufd, POLLIN, ms);
		if (sig_stop)
			return -1;
		if (w == -EINTR)
			continue;
		if (w == 0 && !u.have_src)
			die("no UDP --rr setup within %d ms (phase: start)",
			    ms);
		if (w == 0)
			die("transmitter %s went quiet for %d ms without its end datagram (phase: UDP requests, after %llu transactions)",
			    x->r->peer, ms, (unsigned long long)x->p->trans);
		alen = sizeof(from);
		n = recvfrom(x->r->ufd, x->req, UDP_BUF, 0,
			     (struct sockaddr *)&from, &alen);
		if (n < 0 && errno != EINTR)
			die_errno("UDP receive (phase: requests)");
		if (n >= 0 && udp_one(x, &u, n, &from, alen))
			break;
	}
	x->s->elapsed_s = clock_now() - u.t0;
	cpuwin_stop(&x->r->w, &x->s->cpu, NULL, 0);
	x->p->lost = (uint64_t)u.sent > x->p->trans
				? (uint64_t)u.sent - x->p->trans
				: 0;
	if (u.strays)
		res_warn(x->r->d, "UDP --rr: %ld stray datagram%s ignored",
			 u.strays, u.strays == 1 ? "" : "s");
	return 0;
}

int rr_rcv_sample(struct rcv *r, const struct rcv_open *o, struct sample *s)
{
	struct rrs x = {.r = r, .s = s};
	int first = r->sample == 0, ret;

	x.p = sample_add(s, &rr_part);
	ret = o->udp ? udp_serve(&x, first) : tcp_serve(&x, o->fd, &o->su);
	x.p->kind = x.su.kind;
	x.p->req = x.su.req;
	x.p->resp = x.su.resp;
	rr_sample_end(s, x.p->trans * x.su.req, o->udp);
	free(x.req);
	free(x.resp);
	return ret;
}
