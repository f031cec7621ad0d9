/*
 * dir.c: -R and --bidir (dir.h): the setup frame that opens such a data
 * connection, the receiver's peek at every data connection, and the run
 * itself on both sides: one thread sends while the other receives
 * (--bidir), each with lib/xfer's stream loops. Each direction's rate is
 * timed where its bytes arrive: at EOF on the receiving end.
 */
#include "config.h"
#include "clock.h"
#include "dir.h"
#include "flows.h"
#include "ival.h"
#include "log.h"
#include "peerrep.h"
#include "rate.h"
#include "tcp.h"
#include "rcv.h"
#include "sig.h"
#include "sock.h"
#include "xmit.h"
#include "units.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define DIR_SRC	 (32ull << 20) /* the sending receiver's temp source */

void dir_send_setup(const struct cfg *c, int fd, int flow)
{
	struct dir_setup st = {
		.reverse = c->reverse,
		.bidir = c->bidir,
		.buflen = c->buflen,
		.nbuf = c->duration > 0 ? 0 : (uint64_t)c->nbuf,
		.duration = c->duration,
		.hot = c->hot,
		.flows = c->flows,
		.flow = flow,
		.rate = c->rate,
		.rate_per_flow = c->rate_per_flow,
	};
	json_t *j = dir_setup_build(&st);
	int r = peerrep_send(fd, j, c->timeout_ms);

	json_decref(j);
	if (r)
		die("receiver %s:%d (phase: setup): %s", c->host, c->port,
		    strerror(-r));
}

/* One connection's run: what it sends and what it receives. */
struct run {
	int fd;
	struct xfer *tx, *rx; /* either may be NULL (not both) */
	uint64_t total;	      /* tx: bytes, 0 = until the deadline */
	double duration;      /* tx: seconds, 0 = by total */
	double t0, tx_end, rx_end;
	int64_t sent, got; /* or -errno */
	const uint64_t *main_ctr; /* -i: the main direction's count */
	uint64_t rx_max;	  /* rx: bytes at most (0 = until EOF) */
	struct bound *bound;	  /* -t: --duration's hard stop */
	const struct cfg *c;	  /* -t: for its message */
};

static void *sender(void *p)
{
	struct run *u = p;

	u->sent = xfer_send_stream(u->tx, 0, u->total,
				   u->duration > 0 ? u->t0 + u->duration : 0,
				   &sig_stop);
	shutdown(u->fd, SHUT_WR);
	u->tx_end = clock_now();
	return NULL;
}

/* A sender that receives nothing: until the peer closes (it has read
 * everything), so the time is end to end. */
static void drain(struct run *u, int timeout_ms)
{
	char b[256];
	ssize_t n;

	for (;;) {
		if (sock_wait(u->fd, POLLIN, timeout_ms) <= 0 || sig_stop)
			break;
		n = read(u->fd, b, sizeof(b));
		if (n == 0 || (n < 0 && errno != EINTR))
			break;
	}
	u->rx_end = clock_now();
}

/* Send and receive at once (one thread each) or one of them. */
static void run(struct run *u, const char *who, int timeout_ms)
{
	int threaded = u->tx && u->rx;
	pthread_t th;

	if (u->rx && !u->tx) /* -R: the clock starts with the first bytes */
		sock_wait(u->fd, POLLIN, timeout_ms);
	u->t0 = clock_now();
	ival_watch(ttcp_iv, u->main_ctr);
	if (threaded && pthread_create(&th, NULL, sender, u))
		die("%s: cannot start the sending thread", who);
	if (!threaded && u->tx)
		sender(u);
	if (u->rx) {
		u->got = xfer_recv_stream(u->rx, u->rx_max, 0, &sig_stop);
		u->rx_end = clock_now();
	} else {
		drain(u, timeout_ms);
	}
	if (threaded)
		pthread_join(th, NULL);
	ival_watch(ttcp_iv, NULL);
	bound_check(u->bound, u->c, u->tx ? "data" : "data, receiving");
	if (u->tx && u->sent < 0)
		die("%s (phase: data, sending, after %llu bytes): %s", who,
		    (unsigned long long)u->tx->bytes, u->tx->err);
	if (u->rx && u->got < 0)
		die("%s (phase: data, receiving, after %llu bytes): %s", who,
		    (unsigned long long)u->rx->bytes, u->rx->err);
}

static struct xfer *open_x(const struct xfer_ops *ops, int fd,
			   struct xfer_source *src, size_t unit,
			   const struct cfg *c)
{
	char err[512];
	struct xfer *x = xfer_open(ops, fd, src, unit, err, sizeof(err));

	if (!x)
		die("%s", err);
	x->timeout_ms = c->timeout_ms;
	x->touch = c->touch;
	if (!src) {
		x->verify = c->verify;
		if ((c->align || c->offset) &&
		    xfer_set_rbuf_align(x, c->align, c->offset))
			die("-A/-O: out of memory");
	}
	return x;
}

/* The sample's figures from a run: the main direction's (what -R
 * receives, what --bidir sends from -t) and the other one's. */
static void fill(struct sample *s, const struct run *u, struct xfer *main,
		 int main_is_rx, int bidir)
{
	struct dir_part *p;

	s->bytes = (uint64_t)(main_is_rx ? u->got : u->sent);
	s->elapsed_s = (main_is_rx || !bidir ? u->rx_end : u->tx_end) - u->t0;
	s->calls = main->calls;
	s->counters = xfer_counters_json(main);
	s->zc_copied_pct = u->tx ? xfer_zc_copied_pct(u->tx) : NAN;
	if (u->tx)
		xfer_zc_warning(u->tx, s->zc_warn, sizeof(s->zc_warn));
	if (u->rx) {
		s->bad_bytes = u->rx->bad_bytes;
		s->verified =
			u->rx->verify && (u->rx->ops->flags & XFER_SEES_BYTES);
	}
	p = dir_add(s, bidir ? 2 : 1);
	if (bidir) {
		p->rev_bytes = (uint64_t)(main_is_rx ? u->sent : u->got);
		p->rev_elapsed_s = (main_is_rx ? u->tx_end : u->rx_end) - u->t0;
		rate_other_way(s, p->rev_bytes, p->rev_elapsed_s);
	}
}

/* -t: one sample of -R or --bidir (--bidir sends from the source). */
static void dir_xmit(struct xmit *t, struct sample *s)
{
	const struct cfg *c = t->c;
	struct cpuwin *w = &t->w;
	struct xfer_source *src = &t->src;
	struct run u = {
		.total = c->duration > 0 ? 0 : (uint64_t)c->buflen * c->nbuf,
		.duration = c->duration};
	struct pace_keep pk;
	char who[300];

	snprintf(who, sizeof(who), "receiver %s:%d", c->host, c->port);
	u.fd = ttcp_connect(c, SOCK_STREAM);
	if (c->bidir) /* -R: the receiver paces what it sends */
		rate_pace_sock("t", u.fd, c->rate, 0, 1);
	dir_send_setup(c, u.fd, 0);
	/* the receiver sends as the setup says: more is an overrun */
	u.bound = bound_start(c, clock_now(), u.fd);
	u.rx_max = u.total ? u.total + 1 : 0;
	u.c = c;
	if (c->bidir)
		u.tx = open_x(c->ops, u.fd, src, c->buflen, c);
	u.rx = open_x(c->bidir ? xfer_find("read", XFER_RECV) : c->ops, u.fd,
		      NULL, c->buflen, c);
	u.main_ctr = c->bidir ? &u.tx->bytes : &u.rx->bytes;
	cpuwin_start(w, NULL, 0);
	rate_keep(&pk, c->bidir ? c->rate : 0, &u.fd, 1,
		  c->bidir ? &u.tx->bytes : NULL);
	tcp_watch(s, &u.fd, 1);
	run(&u, who, c->timeout_ms);
	rate_keep_stop(&pk);
	bound_stop(u.bound);
	cpuwin_stop(w, &s->cpu, NULL, 0);
	tcp_done(s, 0);
	fill(s, &u, c->bidir ? u.tx : u.rx, !c->bidir, c->bidir);
	if (u.rx_max && u.got > (int64_t)u.total)
		die("receiver %s:%d sent more than the %llu bytes asked (phase: data, receiving): connection cut",
		    c->host, c->port, (unsigned long long)u.total);
	if (!c->duration && !sig_stop && u.got != (int64_t)u.total)
		die("receiver %s:%d sent %lld of %llu bytes (phase: data, receiving)%s",
		    c->host, c->port, (long long)u.got,
		    (unsigned long long)u.total,
		    u.got ? "" : ": is it ttcp-sf? (a plain ttcp cannot send)");
	if (s->verified)
		fprintf(ttcp_out,
			"ttcp-t: pattern check: %llu of %llu bytes wrong\n",
			(unsigned long long)s->bad_bytes,
			(unsigned long long)(c->bidir ? dir_part_of(s)->rev_bytes
						      : s->bytes));
	if (s->bad_bytes)
		die("receiver %s:%d sent %llu bytes not matching the pattern",
		    c->host, c->port, (unsigned long long)s->bad_bytes);
	if (u.tx)
		xfer_close(u.tx);
	xfer_close(u.rx);
	close(u.fd);
}

struct xfer_source *dir_rcv_source(struct rcv *r, uint64_t buflen, int hot)
{
	char err[512];
	int e;

	if (r->have_src && (r->src.buflen != buflen || r->src.hot != hot)) {
		xfer_source_close(&r->src);
		r->have_src = 0;
	}
	e = r->have_src ? 0 :
		xfer_source_open(&r->src, NULL, DIR_SRC, buflen, r->c->align,
				 r->c->offset, hot, &sig_stop, err,
				 sizeof(err));
	if (e == -EINTR)
		out_interrupted("r", "making the source to send", err);
	if (e)
		die("%s", err);
	r->have_src = 1;
	return &r->src;
}

/* -r: one sample of a -R or --bidir connection whose setup came. */
static int dir_rcv(struct rcv *r, const struct rcv_open *o, struct sample *s)
{
	const struct dir_setup *st = &o->st;
	int fd = o->fd;
	const struct cfg *c = r->c;
	struct run u = {.fd = fd,
			.total = st->buflen * st->nbuf,
			.duration = st->duration};
	struct pace_keep pk;
	char who[100];

	snprintf(who, sizeof(who), "transmitter %s", r->peer);
	dir_rcv_source(r, st->buflen, st->hot);
	fprintf(ttcp_out,
		"ttcp-r: %s: this side sends (write, %llu-byte buffers of %s)%s\n",
		dir_name(st->reverse, st->bidir),
		(unsigned long long)st->buflen,
		st->hot ? "a cache-hot buffer" : "a temp pattern file",
		st->bidir ? " and receives" : "");
	rate_pace_sock("r", fd, st->rate, 0, 1);
	u.tx = open_x(xfer_find("write", XFER_SEND), fd, &r->src, st->buflen,
		      c);
	if (st->bidir)
		u.rx = open_x(r->ops, fd, NULL, c->buflen, c);
	u.main_ctr = st->bidir ? &u.rx->bytes : &u.tx->bytes;
	cpuwin_start(&r->w, NULL, 0);
	rate_keep(&pk, st->rate, &fd, 1, &u.tx->bytes);
	tcp_watch(s, &fd, 1);
	run(&u, who, c->timeout_ms);
	rate_keep_stop(&pk);
	cpuwin_stop(&r->w, &s->cpu, NULL, 0);
	tcp_done(s, 0);
	if (st->rate > 0) /* before fill, which gives it the other way */
		rate_add(s, st->rate, PACED_KERNEL);
	fill(s, &u, st->bidir ? u.rx : u.tx, st->bidir, st->bidir);
	xfer_close(u.tx);
	if (u.rx)
		xfer_close(u.rx);
	close(fd);
	return 0;
}

/* -t -R's first line: the receiver sends. */
static void dir_xmit_open(struct xmit *t)
{
	const struct cfg *c = t->c;

	if (!c->reverse) { /* --bidir sends too */
		xmit_open_source(t);
		return;
	}
	t->source = "file";
	fprintf(ttcp_out,
		"ttcp-t: buflen=%zu, nbuf=%ld, align=%zu/%zu, port=%d  tcp  <- %s (-R: it sends, method %s here)\n",
		c->buflen, c->nbuf, c->align, c->offset, c->port, c->host,
		c->ops->name);
}

static int dir_xmit_match(const struct cfg *c)
{
	return c->reverse || c->bidir;
}

static int dir_rcv_match(const struct cfg *c, const struct rcv_open *o)
{
	(void)c;
	return o->setup && o->st.flows <= 1;
}

const struct ttcp_mode ttcp_dir_mode = {
	"dir", dir_xmit_match, dir_rcv_match,
	dir_xmit_open, dir_xmit, dir_rcv, 0};

struct dir_part *dir_add(struct sample *s, int dir)
{
	struct dir_part *p = sample_add(s, &dir_part);

	p->dir = dir;
	return p;
}

static int dir_reverse(const struct sample *s)
{
	return dir_part_of(s)->dir == 1;
}

/* --bidir: the other direction's ttcp rate line. */
static void dir_lines(const char *side, const struct cfg *c,
		      const struct sample *s)
{
	const struct dir_part *p = dir_part_of(s);
	const char *label;
	double v;

	if (p->dir != 2)
		return;
	v = units_rate((double)p->rev_bytes, p->rev_elapsed_s, c->fmt, &label);
	fprintf(ttcp_out,
		"ttcp-%s: other way (%s): %llu bytes in %.2f real seconds = %.2f %s/sec +++\n",
		side, *side == 't' ? "received" : "sent",
		(unsigned long long)p->rev_bytes, p->rev_elapsed_s, v, label);
}

static void dir_params(json_t *params, const struct cfg *c,
		       const struct sample *s)
{
	const struct dir_part *p = dir_part_of(s);

	(void)c;
	if (p->dir)
		json_object_set_new(params, "direction",
				    json_string(dir_name(p->dir == 1,
							 p->dir == 2)));
}

/* --bidir: the other direction's rate and raw counts. */
static void dir_doc(struct res_doc *d, const struct cfg *c, json_t *j,
		    const struct sample *s, const struct ctl_report *rep,
		    int same_box)
{
	const struct dir_part *p = dir_part_of(s);

	(void)c, (void)rep, (void)same_box;
	if (p->dir != 2)
		return;
	res_metric(d, "rev_throughput_MBps", "MB/s", RES_HIGHER, 1);
	res_sample_set(j, "rev_throughput_MBps",
		       p->rev_elapsed_s > 0
			       ? (double)p->rev_bytes / p->rev_elapsed_s / 1e6
			       : 0);
	json_object_set_new(j, "rev_bytes",
			    json_integer((json_int_t)p->rev_bytes));
	json_object_set_new(j, "rev_elapsed_s", json_real(p->rev_elapsed_s));
}

/* The other way's bytes, and the direction (-t) or their time (-r). */
static void dir_counts(struct ctl_hello *h, struct ctl_report *rep,
		       const struct sample *s)
{
	const struct dir_part *p = dir_part_of(s);

	if (h)
		h->dir = p->dir, h->rev_bytes = p->rev_bytes;
	else
		rep->rev_bytes = p->rev_bytes,
		rep->rev_elapsed_s = p->rev_elapsed_s;
}

static void dir_check_report(const struct cfg *c, const struct sample *s,
			     const struct ctl_report *rep)
{
	const struct dir_part *p = dir_part_of(s);

	if (p->dir == 2 && rep->rev_bytes != p->rev_bytes)
		die("receiver %s:%d sent %llu bytes, %llu arrived (phase: report)",
		    c->host, c->port, (unsigned long long)rep->rev_bytes,
		    (unsigned long long)p->rev_bytes);
}

static void dir_check_hello(const struct rcv *r, const struct ctl_hello *h,
			    const struct sample *s)
{
	const struct dir_part *p = dir_part_of(s);

	if (p->dir == 2 && h->rev_bytes != p->rev_bytes)
		die("this side sent %llu bytes, %llu reached transmitter %s (phase: data)",
		    (unsigned long long)p->rev_bytes,
		    (unsigned long long)h->rev_bytes, r->peer);
}

/* -R: this side sent with write; the closing line says so. */
static void dir_closing(const struct rcv *r, const struct sample *s,
			const char *method, int same)
{
	double el = s->elapsed_s > 0 ? s->elapsed_s : 0;

	if (!dir_reverse(s)) {
		out_closing(r->ops->name, method, r->c, s, same);
		return;
	}
	fprintf(ttcp_out, "ttcp-sf: write -> %s tcp (-R): %.1f MB/s%s\n",
		r->peer, el > 0 ? (double)s->bytes / el / 1e6 : 0.0,
		same ? " (same box)" : "");
}

const struct ttcp_part dir_part = {
	.name = "dir", .size = sizeof(struct dir_part), .lines = dir_lines,
	.params = dir_params, .doc = dir_doc, .counts = dir_counts,
	.check_report = dir_check_report, .check_hello = dir_check_hello,
	.closing = dir_closing,
	.reverse = dir_reverse};
