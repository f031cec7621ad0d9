/*
 * stream.c: the stream mode (mode.h), ttcp's own: -t connects, sends
 * with the chosen method from the shared source, half-closes and waits
 * until the receiver has read everything (so the time is end to end);
 * -r receives with its method until EOF and closes. Nothing opens the
 * connection but the data, so either end works against a plain ttcp.
 */
#include "config.h"
#include "clock.h"
#include "ival.h"
#include "log.h"
#include "rate.h"
#include "tcp.h"
#include "rcv.h"
#include "sig.h"
#include "sock.h"
#include "xmit.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* After SHUT_WR: wait until the receiver closes (it has read it all). */
static void drain(const struct cfg *c, int fd)
{
	char b[256];
	ssize_t r;

	for (;;) {
		r = sock_wait(fd, POLLIN, c->timeout_ms);
		if (r == 0)
			die("receiver %s:%d did not finish reading within %d ms (phase: end of data)",
			    c->host, c->port, c->timeout_ms);
		r = read(fd, b, sizeof(b));
		if (r == 0)
			return;
		if (r < 0 && errno != EINTR)
			die("receiver %s:%d at the end of data: %s", c->host,
			    c->port, strerror(errno));
		if (sig_stop)
			return;
	}
}


/*
 * -t --omit: the stream's first T sent but not measured (s->omit_*),
 * then the CPU window opens and *t0 moves there. -n's count is not
 * lengthened: one that is sent before T ends the sample short.
 */
static void xmit_omit(struct xmit *t, struct xfer *x, struct sample *s,
		      uint64_t total, double *t0)
{
	const struct cfg *c = t->c;
	int64_t n = xfer_send_stream(x, 0, total, *t0 + c->com.omit,
				     &sig_stop);

	if (n < 0)
		die("receiver %s:%d (phase: data, the omitted part, after %llu bytes): %s",
		    c->host, c->port, (unsigned long long)x->bytes, x->err);
	if (total && (uint64_t)n >= total && !sig_stop)
		die("--omit %g s: the sample's %llu bytes went in %.3f s, before its measured part began (more -n, or a shorter --omit)",
		    c->com.omit, (unsigned long long)total, clock_now() - *t0);
	s->omit_bytes = (uint64_t)n;
	s->omit_calls = x->calls;
	s->omit_s = clock_now() - *t0;
	cpuwin_start(&t->w, NULL, 0);
	*t0 = clock_now();
}

/* -t: one sample of a stream: connect, send, half-close, drain. */
static void stream_xmit(struct xmit *t, struct sample *s)
{
	const struct cfg *c = t->c;
	uint64_t total = c->duration > 0 ? 0 : (uint64_t)c->buflen * c->nbuf;
	double t0, deadline = 0;
	struct pace_keep pk;
	struct bound *b;
	char err[512];
	struct xfer *x;
	int64_t n;
	int fd;

	fd = ttcp_connect(c, SOCK_STREAM);
	rate_pace_sock("t", fd, c->rate, 0, 1);
	x = xfer_open(t->ops, fd, &t->src, c->buflen, err, sizeof(err));
	if (!x)
		die("%s", err);
	x->timeout_ms = c->timeout_ms;
	if (c->com.omit <= 0)
		cpuwin_start(&t->w, NULL, 0);
	tcp_watch(s, &fd, 1);
	/* the keeper holds the whole stream at the target, --omit's part
	 * too: it counts every byte since the connection */
	rate_keep(&pk, c->rate, &fd, 1, &x->bytes);
	ival_watch(ttcp_iv, &x->bytes);
	t0 = clock_now();
	if (c->com.omit > 0)
		xmit_omit(t, x, s, total, &t0);
	if (c->duration > 0)
		deadline = t0 + c->duration;
	b = bound_start(c, t0, fd); /* a receiver that stops reading */
	n = xfer_send_stream(x, s->omit_bytes,
			     total ? total - s->omit_bytes : 0, deadline,
			     &sig_stop);
	rate_keep_stop(&pk);
	if (n < 0) {
		bound_check(b, c, "data");
		die("receiver %s:%d (phase: data, after %llu bytes): %s",
		    c->host, c->port, (unsigned long long)x->bytes, x->err);
	}
	ival_watch(ttcp_iv, NULL);
	shutdown(fd, SHUT_WR);
	drain(c, fd);
	bound_check(b, c, "end of data");
	bound_stop(b);
	s->elapsed_s = clock_now() - t0;
	cpuwin_stop(&t->w, &s->cpu, NULL, 0);
	tcp_done(s, 0);
	s->bytes = (uint64_t)n;
	s->calls = x->calls - s->omit_calls;
	s->counters = xfer_counters_json(x);
	s->zc_copied_pct = xfer_zc_copied_pct(x);
	xfer_zc_warning(x, s->zc_warn, sizeof(s->zc_warn));
	t->zc_completions += x->zc_completions;
	t->zc_copied += x->zc_copied;
	xfer_close(x);
	close(fd);
}

/*
 * -r --omit: the stream's first T received but not measured (the
 * receiver's own T: nothing tells it the transmitter's before the
 * data), then the CPU window opens and *t0 moves there. 1 when the
 * stream ended before T (then there is no measured part), else 0.
 */
static int rcv_omit(struct rcv *r, struct xfer *x, struct sample *s,
		    double *t0)
{
	const struct cfg *c = r->c;
	double end = *t0 + c->com.omit;
	int64_t n = xfer_recv_stream(x, 0, end, &sig_stop);

	if (n < 0)
		die("transmitter %s (phase: data, the omitted part, after %llu bytes): %s",
		    r->peer, (unsigned long long)x->bytes, x->err);
	s->omit_bytes = (uint64_t)n;
	s->omit_calls = x->calls;
	s->omit_s = clock_now() - *t0;
	cpuwin_start(&r->w, NULL, 0);
	*t0 = clock_now();
	return *t0 < end; /* EOF (or a signal) came first */
}

/* -r: the stream on o->fd until EOF. 1 when it closed without a byte
 * (a port probe, or a transmitter gone before its first byte: not a
 * sample), 0 when it was the sample. */
static int stream_rcv(struct rcv *r, const struct rcv_open *o,
		      struct sample *s)
{
	const struct cfg *c = r->c;
	char err[512];
	struct xfer *x;
	double t0;
	int64_t n;
	int ended;

	x = xfer_open(r->ops, o->fd, NULL, c->buflen, err, sizeof(err));
	if (!x)
		die("%s", err);
	if ((c->align || c->offset) &&
	    xfer_set_rbuf_align(x, c->align, c->offset))
		die("-A/-O: out of memory");
	x->timeout_ms = c->timeout_ms;
	x->verify = c->verify;
	x->touch = c->touch;
	if (c->com.omit <= 0)
		cpuwin_start(&r->w, NULL, 0);
	tcp_watch(s, &o->fd, 1);
	ival_watch(ttcp_iv, &x->bytes);
	t0 = clock_now();
	ended = c->com.omit > 0 && rcv_omit(r, x, s, &t0);
	n = ended ? 0 : xfer_recv_stream(x, 0, 0, &sig_stop);
	ival_watch(ttcp_iv, NULL);
	s->elapsed_s = clock_now() - t0;
	cpuwin_stop(&r->w, &s->cpu, NULL, 0);
	tcp_done(s, 0);
	if (ended && s->omit_bytes)
		fprintf(ttcp_out, "ttcp-r: the stream ended %.3f s in, before --omit's %g s: no measured part\n",
			s->omit_s, c->com.omit);
	if (n == 0 && !s->omit_bytes && !sig_stop) {
		tcp_drop(s);
		xfer_close(x);
		close(o->fd);
		return 1;
	}
	if (n < 0)
		die("transmitter %s (phase: data, after %llu bytes): %s",
		    r->peer, (unsigned long long)x->bytes, x->err);
	s->bytes = (uint64_t)n;
	s->calls = x->calls - s->omit_calls;
	s->counters = xfer_counters_json(x);
	s->zc_copied_pct = xfer_zc_copied_pct(x);
	xfer_zc_warning(x, s->zc_warn, sizeof(s->zc_warn));
	s->bad_bytes = x->bad_bytes;
	s->verified = c->verify && (r->ops->flags & XFER_SEES_BYTES);
	xfer_close(x);
	close(o->fd); /* the transmitter's clock stops at this EOF */
	return 0;
}

static int stream_rcv_match(const struct cfg *c, const struct rcv_open *o)
{
	(void)c;
	return !o->setup && !o->rr && !o->udp;
}

const struct ttcp_mode ttcp_stream_mode = {
	"stream", NULL, stream_rcv_match,
	xmit_open_source, stream_xmit, stream_rcv, 0};
