/*
 * rr_xmit.c: the transmitter's side of request/response (rr.h). It
 * drives the transactions, times each one into the sample's histogram
 * (clock_ns from the request's first byte written to the response's last
 * byte read) and ends the sample; every fault ends with one line naming
 * the receiver, the phase and the transaction, never a hang: each wait
 * is bounded by --timeout (TCP) or --rr-timeout (a UDP answer; and
 * --timeout without any answer ends UDP_RR). A transaction is numbered
 * by the requests sent before it, lost ones too.
 */
#include "config.h"
#include "ctr.h"
#include "clock.h"
#include "hist.h"
#include "ival.h"
#include "log.h"
#include "rr.h"
#include "tcp.h"
#include "udp.h"
#include "xmit.h"
#include "sig.h"
#include "sock.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* What a sample's loop works with. */
struct rrx {
	const struct cfg *c;
	struct sample *s;
	struct rr_part *p;   /* s's request/response part */
	unsigned char *req;  /* setup frame + one request */
	unsigned char *resp; /* one response */
	uint64_t target;     /* transactions to do (UINT64_MAX: --duration) */
	uint64_t deadline;   /* clock_ns, 0 = none */
	struct bound *bound; /* --duration's hard stop (TCP) */
};

static void *xmalloc0(size_t n)
{
	void *p = calloc(1, n);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

/* "transaction N" of the one under way, and with losses how many were
 * answered and lost before it. */
static const char *which(const struct rrx *x, char *b, size_t len)
{
	const struct rr_part *p = x->p;

	snprintf(b, len, "transaction %llu",
		 (unsigned long long)(p->trans + p->lost + 1));
	if (p->lost)
		snprintf(b + strlen(b), len - strlen(b),
			 "; %llu answered, %llu lost before it",
			 (unsigned long long)p->trans,
			 (unsigned long long)p->lost);
	return b;
}

/* A step of the transaction under way failed with r (-errno, or a
 * short count). */
static void __attribute__((noreturn))
fault(const struct rrx *x, const char *phase, ssize_t r, size_t want)
{
	const struct cfg *c = x->c;
	uint64_t n = x->p->trans + x->p->lost + 1;
	char where[160], t[96];

	snprintf(where, sizeof(where), "%s, %s", phase, which(x, t, sizeof(t)));
	bound_check(x->bound, c, where);
	if (r == -EINTR && sig_stop)
		out_interrupted("t", where, NULL);
	if (r == -ETIMEDOUT)
		die("receiver %s:%d (phase: %s): no answer within %d ms%s",
		    c->host, c->port, where, c->timeout_ms,
		    n == 1 ? " (is it ttcp-sf -r, not limited to -u?)" : "");
	if (r < 0)
		die("receiver %s:%d (phase: %s): %s", c->host, c->port, where,
		    strerror((int)-r));
	die("receiver %s:%d closed the connection mid-transaction (phase: %s, transaction %llu: %zd of %zu bytes)",
	    c->host, c->port, phase, (unsigned long long)n, r, want);
}

/* Another transaction? -n counts requests sent: answered or lost. */
static int more(const struct rrx *x, uint64_t now)
{
	return x->p->trans + x->p->lost < x->target && !sig_stop &&
	       (!x->deadline || now < x->deadline);
}

/* After our half-close, the receiver's close: it has seen every request. */
static void rr_drain(const struct rrx *x, int fd)
{
	char b[256];
	ssize_t r = rr_read_full(fd, b, sizeof(b));

	if (r < 0)
		fault(x, "end of transactions", r, 0);
	bound_check(x->bound, x->c, "end of transactions");
	if (r > 0)
		die("receiver %s:%d sent %zd bytes nobody asked for (phase: end of transactions)",
		    x->c->host, x->c->port, r);
}

/* TCP_RR, one transaction at a time. */
static void tcp_one(struct rrx *x, int fd)
{
	const struct cfg *c = x->c;
	unsigned char *out = x->req;
	size_t olen = RR_SETUP + c->rr_req;
	uint64_t t0 = clock_ns(), t1;
	ssize_t r;

	while (more(x, t0)) {
		r = rr_write_full(fd, out, olen);
		if (r != (ssize_t)olen)
			fault(x, "request", r, olen);
		r = rr_read_full(fd, x->resp, c->rr_resp);
		if (r != (ssize_t)c->rr_resp)
			fault(x, "response", r, c->rr_resp);
		t1 = clock_ns();
		hist_add(x->p->lat, t1 - t0);
		ctr_add(&x->p->trans, 1);
		t0 = t1;
		out = x->req + RR_SETUP;
		olen = c->rr_req;
	}
}

/* --burst: the state of the requests in flight. */
struct flight {
	uint64_t *ts;	 /* start of request i at ts[i % burst] */
	uint64_t sent;	 /* requests written whole */
	size_t off, len; /* the one being written: done, whole */
	uint64_t pend;	 /* response bytes of the oldest so far */
};

/* Write what the socket takes of the current request (or a new one). */
static void burst_send(struct rrx *x, struct flight *f, int fd)
{
	const unsigned char *p = f->sent ? x->req + RR_SETUP : x->req;
	ssize_t r;

	if (!f->off) {
		f->len = f->sent ? x->c->rr_req : RR_SETUP + x->c->rr_req;
		f->ts[f->sent % (uint64_t)x->c->burst] = clock_ns();
	}
	r = send(fd, p + f->off, f->len - f->off, MSG_NOSIGNAL);
	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (r <= 0)
		fault(x, "request", r < 0 ? -errno : 0, f->len);
	f->off += (size_t)r;
	if (f->off == f->len) {
		f->off = 0;
		f->sent++;
	}
}

/* Read what came; every whole response completes the oldest request. */
static void burst_recv(struct rrx *x, struct flight *f, int fd)
{
	const struct cfg *c = x->c;
	ssize_t r = read(fd, x->resp, c->rr_resp < 65536 ? 65536 : c->rr_resp);
	uint64_t now = clock_ns();

	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (r <= 0)
		fault(x, "response", r < 0 ? -errno : (ssize_t)f->pend,
		      c->rr_resp);
	f->pend += (uint64_t)r;
	while (f->pend >= c->rr_resp) {
		if (x->p->trans >= f->sent)
			die("receiver %s:%d answered a request not yet sent (phase: response, transaction %llu)",
			    c->host, c->port,
			    (unsigned long long)x->p->trans + 1);
		f->pend -= c->rr_resp;
		hist_add(x->p->lat,
			 now - f->ts[x->p->trans % (uint64_t)c->burst]);
		ctr_add(&x->p->trans, 1);
	}
}

/* TCP_RR with up to --burst transactions in flight (netperf -b). */
static void tcp_burst(struct rrx *x, int fd)
{
	const struct cfg *c = x->c;
	struct flight f = {.ts = xmalloc0(sizeof(uint64_t) * c->burst)};
	struct pollfd p = {.fd = fd};
	int open = 1, w;

	sock_set_nonblock(fd, 1);
	while (!sig_stop) {
		if (open && !f.off &&
		    (f.sent >= x->target ||
		     (x->deadline && clock_ns() >= x->deadline)))
			open = 0; /* no new requests */
		if (!open && x->p->trans == f.sent)
			break;
		p.events = POLLIN;
		if (f.off ||
		    (open && f.sent - x->p->trans < (uint64_t)c->burst))
			p.events |= POLLOUT;
		w = poll(&p, 1, c->timeout_ms);
		if (w == 0)
			fault(x, "response", -ETIMEDOUT, c->rr_resp);
		if (w < 0)
			continue; /* EINTR: sig_stop decides */
		if (p.revents & POLLOUT)
			burst_send(x, &f, fd);
		if (p.revents & (POLLIN | POLLERR | POLLHUP))
			burst_recv(x, &f, fd);
	}
	free(f.ts);
	sock_set_nonblock(fd, 0);
}

static void tcp_rr(struct rrx *x)
{
	int fd = ttcp_connect(x->c, SOCK_STREAM);

	tcp_watch(x->s, &fd, 1);
	bound_fd(x->bound, fd);
	if (x->c->burst > 1)
		tcp_burst(x, fd);
	else
		tcp_one(x, fd);
	shutdown(fd, SHUT_WR);
	rr_drain(x, fd);
	bound_fd(x->bound, -1);
	tcp_done(x->s, 0);
	close(fd);
}

/* TCP_CRR: connect, request, response, close, per transaction; a last
 * connection says the sample is over. */
static void tcp_crr(struct rrx *x)
{
	const struct cfg *c = x->c;
	struct rr_setup end = {.kind = RR_CRR_END, .flows = 1};
	size_t olen = RR_SETUP + c->rr_req;
	uint64_t t0 = clock_ns(), t1;
	ssize_t r;
	int fd;

	while (more(x, t0)) {
		fd = ttcp_connect(c, SOCK_STREAM);
		bound_fd(x->bound, fd);
		r = rr_write_full(fd, x->req, olen);
		if (r != (ssize_t)olen)
			fault(x, "request", r, olen);
		r = rr_read_full(fd, x->resp, c->rr_resp);
		if (r != (ssize_t)c->rr_resp)
			fault(x, "response", r, c->rr_resp);
		bound_fd(x->bound, -1);
		tcp_conn(x->s, fd);
		close(fd);
		t1 = clock_ns();
		hist_add(x->p->lat, t1 - t0);
		ctr_add(&x->p->trans, 1);
		t0 = t1;
	}
	if (sig_stop) /* no end frame: the receiver's --timeout ends it */
		return;
	fd = ttcp_connect(c, SOCK_STREAM);
	bound_fd(x->bound, fd);
	rr_setup_put(x->req, &end);
	r = rr_write_full(fd, x->req, RR_SETUP);
	if (r != RR_SETUP)
		fault(x, "end of transactions", r, RR_SETUP);
	rr_drain(x, fd);
	bound_fd(x->bound, -1);
	close(fd);
}

#define UDP_RESEND_MS 200 /* setup and end datagrams: resent this often */

/* Send the 16-byte frame b until the receiver echoes it. */
static void udp_handshake(struct rrx *x, int fd, const unsigned char *b,
			  const char *phase)
{
	const struct cfg *c = x->c;
	uint64_t deadline = clock_ns() + (uint64_t)c->timeout_ms * 1000000;
	ssize_t n;

	while (!sig_stop) {
		if (send(fd, b, RR_SETUP, 0) < 0 && errno != ENOBUFS &&
		    errno != ECONNREFUSED)
			die("receiver %s:%d (phase: UDP %s): %s", c->host,
			    c->port, phase, strerror(errno));
		if (sock_wait(fd, POLLIN, UDP_RESEND_MS) > 0) {
			n = recv(fd, x->resp, RR_UDP_MAX + 1, 0);
			if (n == RR_SETUP && !memcmp(x->resp, b, RR_SETUP))
				return;
		}
		if (clock_ns() >= deadline)
			die("receiver %s:%d (phase: UDP %s): no answer within %d ms (is it ttcp-sf -r, its UDP port open?)",
			    c->host, c->port, phase, c->timeout_ms);
	}
}

/* Wait for the answer stamped like the request: 1, or 0 when
 * --rr-timeout passed (the transaction is lost). */
static int udp_answer(struct rrx *x, int fd, uint64_t t0, size_t k)
{
	const struct cfg *c = x->c;
	uint64_t limit = t0 + (uint64_t)c->rr_timeout_ms * 1000000, now;
	char t[96];
	ssize_t n;
	int w;

	for (;;) {
		now = clock_ns();
		if (now >= limit || sig_stop)
			return 0;
		w = sock_wait(fd, POLLIN, (int)((limit - now) / 1000000) + 1);
		if (w <= 0)
			continue;
		n = recv(fd, x->resp, RR_UDP_MAX + 1, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			fault(x, "UDP response", -errno, c->rr_resp);
		if (n == RR_SETUP && !memcmp(x->resp, RR_MAGIC, 6))
			continue; /* a late echo of the setup */
		if (n != (ssize_t)c->rr_resp)
			die("receiver %s:%d (phase: UDP response, %s): %zd bytes, expected %u",
			    c->host, c->port, which(x, t, sizeof(t)), n,
			    c->rr_resp);
		if (rr_stamp_get(x->resp, k) ==
		    rr_stamp_get(x->req + RR_SETUP, k))
			return 1;
		x->p->late++; /* the answer to a request given up */
	}
}

/* A UDP request went unanswered: counted; --timeout without any
 * answer (since the setup's, or the last one) ends the run. */
static void udp_lost(struct rrx *x, uint64_t last)
{
	const struct cfg *c = x->c;
	char t[96];

	if (c->timeout_ms &&
	    clock_ns() - last >= (uint64_t)c->timeout_ms * 1000000)
		die("receiver %s:%d (phase: UDP response, %s): no answer within %d ms (--timeout)",
		    c->host, c->port, which(x, t, sizeof(t)), c->timeout_ms);
	x->p->lost++;
}

/* UDP_RR: a lost request or answer costs --rr-timeout and is counted. */
static void udp_rr(struct rrx *x)
{
	const struct cfg *c = x->c;
	struct rr_setup su = {
		.kind = RR_UDP, .req = c->rr_req, .resp = c->rr_resp, .flows = 1};
	size_t k = c->rr_req < c->rr_resp ? c->rr_req : c->rr_resp;
	uint64_t seq, t0, last;
	int fd;

	fd = ttcp_connect(c, SOCK_DGRAM);
	rr_setup_put(x->req, &su);
	udp_handshake(x, fd, x->req, "setup");
	last = clock_ns(); /* the setup's answer */
	for (seq = 0; more(x, t0 = clock_ns()); seq++) {
		rr_stamp_put(x->req + RR_SETUP, k, seq);
		while (send(fd, x->req + RR_SETUP, c->rr_req, 0) < 0)
			if ((errno != ENOBUFS && errno != EINTR) || sig_stop)
				fault(x, "UDP request", -errno, c->rr_req);
		if (udp_answer(x, fd, t0, k)) {
			last = clock_ns();
			hist_add(x->p->lat, last - t0);
			ctr_add(&x->p->trans, 1);
		} else if (!sig_stop) {
			udp_lost(x, last);
		}
	}
	if (!sig_stop && !x->p->trans && x->p->lost)
		die("receiver %s:%d answered none of the %llu requests (phase: UDP response, each lost after --rr-timeout %d ms)",
		    c->host, c->port, (unsigned long long)x->p->lost,
		    c->rr_timeout_ms);
	su = (struct rr_setup){.kind = RR_UDP_END, .req = (uint32_t)seq,
			       .flows = 1};
	rr_setup_put(x->req, &su);
	udp_handshake(x, fd, x->req, "end");
	close(fd);
}

/* -t: one sample, as the options say. */
static void rr_xmit(struct xmit *t, struct sample *s)
{
	const struct cfg *c = t->c;
	struct rr_setup su = {.kind = c->rr == RR_CRR ? RR_CRR : RR_TCP,
			      .req = c->rr_req,
			      .resp = c->rr_resp,
			      .flows = 1};
	size_t rsz = c->rr_resp > 65536 ? c->rr_resp : 65536; /* > any dgram */
	struct rrx x = {.c = c, .s = s};
	uint64_t t0;

	x.p = rr_add(s, c->udp ? RR_UDP : su.kind, c->rr_req, c->rr_resp, 1);
	x.req = xmalloc0(RR_SETUP + c->rr_req);
	x.resp = xmalloc0(rsz);
	rr_setup_put(x.req, &su);
	x.target = c->duration > 0 ? UINT64_MAX : (uint64_t)c->nbuf;
	cpuwin_start(&t->w, NULL, 0);
	t0 = clock_ns();
	ival_watch(ttcp_iv, &x.p->trans);
	if (c->duration > 0)
		x.deadline = t0 + (uint64_t)(c->duration * 1e9);
	if (!c->udp) /* UDP: every wait is bounded by --rr-timeout */
		x.bound = bound_start(c, clock_now(), -1);
	if (c->udp)
		udp_rr(&x);
	else if (c->rr == RR_CRR)
		tcp_crr(&x);
	else
		tcp_rr(&x);
	bound_stop(x.bound);
	s->elapsed_s = (double)(clock_ns() - t0) / 1e9;
	ival_watch(ttcp_iv, NULL);
	cpuwin_stop(&t->w, &s->cpu, NULL, 0);
	rr_sample_end(s, (x.p->trans + x.p->lost) * c->rr_req, c->udp);
	free(x.req);
	free(x.resp);
}

static int rr_xmit_match(const struct cfg *c)
{
	return c->rr != 0;
}

static int rr_rcv_match(const struct cfg *c, const struct rcv_open *o)
{
	(void)c;
	return o->rr;
}

static void rr_xmit_open(struct xmit *t)
{
	rr_out_header(t->c);
}

const struct ttcp_mode ttcp_rr_mode = {
	"rr", rr_xmit_match, rr_rcv_match,
	rr_xmit_open, rr_xmit, rr_rcv_sample, 1};
