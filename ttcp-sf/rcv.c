/*
 * rcv.c: the receiving side (-r). Per sample: accept the data connection
 * (or the UDP start datagram), receive with the chosen method until EOF
 * (or the end datagrams), close, then wait briefly for the transmitter's
 * hello on the same port and answer with this side's report. A plain
 * ttcp transmitter sends no hello: the run ends after one sample and says
 * so. The transmitter's hello says whether another sample follows.
 *
 * Who may connect is rcv_accept.c's (strays never cost a sample); the
 * UDP stream is rcv_udp.c's.
 */
#include "config.h"
#include "clock.h"
#include "log.h"
#include "peerrep.h"
#include "dir.h"
#include "flows.h"
#include "ival.h"
#include "mode.h"
#include "quiet.h"
#include "rcv.h"
#include "rr.h"
#include "udp.h"
#include "sig.h"
#include "sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>


/* Paired runs: park or wake this box's soakers for the next run before
 * the transmitter can start it (it waits for our report, or our close
 * after its next frame). */
static void next_kind(struct rcv *r, int more, int soak_next)
{
	char err[512];

	if (more && soak_next >= 0 &&
	    cpuwin_metered(&r->w, soak_next, err, sizeof(err)))
		log_warn("next run (%s): %s",
			 soak_next ? "metered" : "unmetered", err);
}

/*
 * A deciding hello's next frame, after our report: whether another run
 * follows (into h) and whether this sample is made again (*nx). A
 * transmitter that sends none within --report-timeout ends the run.
 */
static void await_next(struct rcv *r, int fd, struct ctl_hello *h,
		       struct ctl_next *nx)
{
	char err[512];
	size_t got;
	json_t *j;
	int e;

	e = ctl_recv_frame(fd, r->c->report_ms, &j, &got, err, sizeof(err));
	if (!e) {
		e = ctl_next_parse(j, nx, err, sizeof(err));
		json_decref(j);
	}
	if (e) {
		log_warn("transmitter %s (phase: next): %s", r->peer, err);
		memset(nx, 0, sizeof(*nx));
		nx->soak_next = -1;
	}
	h->more = nx->more;
	h->soak_next = nx->soak_next;
}

/*
 * The exchange: 1 with *h filled (report sent), 0 when no hello came
 * (why says so). A deciding hello's next frame comes after the report
 * (*nx; else it is zero).
 */
static int exchange(struct rcv *r, struct sample *s, struct ctl_hello *h,
		    struct ctl_next *nx, int *same, char *why, size_t wlen)
{
	const struct cfg *c = r->c;
	struct ctl_report rep;
	json_t *j;
	int fd, e, i;

	memset(nx, 0, sizeof(*nx));
	fd = rcv_await_hello(r, h, why, wlen);
	if (fd < 0)
		return 0;
	*same = !strcmp(h->boot_id, r->boot) && !strcmp(h->hostname, r->me);
	/* a transmitter on this box is the run's */
	if (!strcmp(h->boot_id, r->boot) && isfinite(h->self_cpu_s))
		quiet_add_run_s(&s->cpu.quiet, h->self_cpu_s);
	if (!h->decide)
		next_kind(r, h->more, h->soak_next);
	memset(&rep, 0, sizeof(rep));
	snprintf(rep.recv_method, sizeof(rep.recv_method), "%s",
		 r->ops->name);
	snprintf(rep.hostname, sizeof(rep.hostname), "%s", r->me);
	snprintf(rep.boot_id, sizeof(rep.boot_id), "%s", r->boot);
	rep.bytes = s->bytes + s->omit_bytes; /* all of them: --omit too */
	rep.omit_bytes = s->omit_bytes;
	rep.omit_s = s->omit_s;
	rep.calls = s->calls;
	rep.bad_bytes = s->bad_bytes;
	rep.verified = s->verified;
	rep.elapsed_s = s->elapsed_s;
	rep.lost = s->lost;
	rep.dgrams = s->dgrams;
	rep.zc_copied_pct = s->zc_copied_pct;
	rep.self_cpu_s = quiet_self_cpu_s(&s->cpu.quiet);
	for (i = 0; ttcp_parts[i]; i++)
		if (s->part[i] && ttcp_parts[i]->counts)
			ttcp_parts[i]->counts(NULL, &rep, s);
	j = ctl_report_build(&rep, s->cpu.local,
			     c->com.cpu ? s->cpu.nlocal : 0);
	e = peerrep_send(fd, j, c->report_ms);
	json_decref(j);
	if (e)
		log_warn("transmitter %s (phase: report): sending: %s", r->peer,
			 strerror(-e));
	if (!e && h->decide) {
		await_next(r, fd, h, nx);
		next_kind(r, h->more, h->soak_next);
	}
	close(fd); /* after a next frame: its ack */
	return 1;
}

/* The sample's quiet figures, and the transmitter's mark when it makes
 * it again (its figures and limits: it judged). */
static void quiet_doc(json_t *j, const struct sample *s,
		      const struct ctl_next *nx)
{
	struct quiet_sample q = s->cpu.quiet;

	json_object_set_new(j, "quiet", quiet_json(&q));
	if (!nx->rerun)
		return;
	q.ok = 1;
	q.steal_pct = nx->steal_pct;
	q.outside_pct = nx->outside_pct;
	json_object_set_new(j, "disturbed",
			    quiet_disturbed_json(&q, nx->steal_max,
						 nx->outside_max, 1));
}

/* A hello at the data accept after a connection closed empty: that
 * was the sample, of no bytes; the exchange takes the hello. */
static int empty_sample(struct rcv *r, int fd, struct sample *s)
{
	r->hello_fd = fd;
	s->bytes = 0;
	s->calls = 0;
	s->zc_copied_pct = NAN;
	s->verified = r->c->verify && (r->ops->flags & XFER_SEES_BYTES);
	return 0;
}

/*
 * The datagram waiting on the UDP socket, peeked (it stays queued for
 * the mode): 1 when it opens a sample (o filled: UDP_RR's setup, or a
 * UDP stream's start: ttcp-sf's start datagram or data; with -u any
 * datagram, as a plain ttcp's start marker may be anything short), 0
 * when it was dropped (an earlier sample's end datagrams, a stray).
 */
static int dgram_open(struct rcv *r, struct rcv_open *o)
{
	const struct cfg *c = r->c;
	unsigned char b[RR_SETUP];
	uint32_t m = 0;
	ssize_t n = recv(r->ufd, b, sizeof(b), MSG_PEEK | MSG_TRUNC);

	if (n < 0)
		return 0; /* gone (an ICMP error, say): wait again */
	o->fd = -1;
	o->udp = 1;
	if (n == RR_SETUP && !rr_setup_get(b, &o->su, NULL, 0) &&
	    o->su.kind == RR_UDP) {
		o->rr = 1;
		return 1;
	}
	if (n >= TTCP_UDP_HDR)
		memcpy(&m, b, 4);
	if (!c->rr && (c->udp || (n == 4 && !memcmp(b, "ZCBS", 4)) ||
		       ntohl(m) == TTCP_UDP_MAGIC))
		return 1;
	log_debug("a datagram of %zd bytes that opens no sample%s: dropped",
		  n, c->rr ? " (this receiver takes UDP_RR only)" : "");
	recv(r->ufd, b, sizeof(b), 0);
	return 0;
}

/* Options only limit what the receiver takes (--rr, --crr: request/
 * response only): a sample it refuses ends the run, naming it. */
static void check_limits(const struct rcv *r, const struct rcv_open *o)
{
	if (r->c->rr && !o->rr)
		die("transmitter %s sent no --rr setup frame (phase: setup): this receiver answers request/response only (--rr); without --rr it follows any mode",
		    r->peer);
}

/* A data connection just accepted: what it opens with, peeked. 1 with
 * o filled, 0 when it closed without a byte (the wait shortened), or
 * 2 when it brought the hello of a sample that sent nothing. */
static int conn_open(struct rcv *r, struct rcv_wait *w, struct rcv_open *o)
{
	const struct cfg *c = r->c;
	char err[512];
	int d;

	fprintf(ttcp_out, "ttcp-r: accept from %s\n", r->peer);
	fflush(ttcp_out);
	ttcp_socket_opts(c, o->fd, 0);
	d = ttcp_peek_open(o->fd, c->timeout_ms, &o->st, &o->su,
			   w->empty[0] ? &r->hello : NULL, err, sizeof(err));
	if (d < 0)
		die("transmitter %s: %s (phase: setup)", r->peer, err);
	if (d == OPEN_HELLO)
		return 2;
	if (d == OPEN_EMPTY) {
		close(o->fd);
		rcv_wait_empty(r, w); /* a port probe, or a transmitter
				       * gone before a byte */
		return 0;
	}
	o->setup = d == OPEN_SETUP;
	o->rr = d == OPEN_RR;
	return 1;
}

/*
 * A sample: a data connection accepted within the wait (unless -u) or
 * a datagram on the UDP socket (when it is open), what it opens with
 * peeked, and made by the mode it asks for (stream, -R/--bidir, -P,
 * --rr/--crr, UDP, UDP_RR). A connection that closes without a byte is
 * not the sample: accept again, the wait shortened. 0 or -1 when
 * stopped.
 */
static int conn_sample(struct rcv *r, int first, struct sample *s)
{
	const struct cfg *c = r->c;
	const struct ttcp_mode *m;
	struct rcv_open o;
	struct rcv_wait w;
	int k;

	rcv_wait_init(&w, first ? c->wait_ms : c->timeout_ms, NULL);
	for (;;) {
		memset(&o, 0, sizeof(o));
		k = rcv_accept_any(r, &w, "data accept",
				   c->udp ? RCV_UDP : RCV_TCP | RCV_UDP);
		if (k == RCV_DGRAM) {
			if (!dgram_open(r, &o))
				continue;
		} else if (k <= 0) {
			if (sig_stop)
				return -1;
			if (c->udp)
				die("no UDP data within %d ms (phase: start)",
				    w.ms);
			rcv_wait_over(r, &w);
		} else {
			o.fd = k;
			k = conn_open(r, &w, &o);
			if (k == 2)
				return empty_sample(r, o.fd, s);
			if (!k)
				continue;
		}
		check_limits(r, &o);
		m = ttcp_rcv_mode(c, &o);
		ttcp_ival_unit(m->trans);
		k = m->rcv(r, &o, s);
		if (k != 1)
			return k;
		rcv_wait_empty(r, &w); /* a stream closed without a byte */
	}
}

/* One sample of what comes, -i's reporter around; -1 when stopped. */
static int run_sample(struct rcv *r, int idx, struct sample *s)
{
	const struct cfg *c = r->c;
	int stop;

	ttcp_ival_start(c, "r", idx, c->rr != 0);
	stop = conn_sample(r, idx == 0, s);
	s->intervals = ttcp_ival_stop(sample_count(s));
	return stop;
}

/* The transmitter's counts (its hello) against this side's: the bytes
 * (UDP loses some by design), then each part's own. */
static void check_hello(const struct rcv *r, const struct ctl_hello *h,
			const struct sample *s)
{
	int i, rev = sample_reverse(s);

	if (!sample_part(s, &udp_part) && !sample_part(s, &rr_part) &&
	    h->bytes != s->bytes + s->omit_bytes)
		die("transmitter %s %s %llu bytes, %llu %s here (phase: data)",
		    r->peer, rev ? "received" : "sent",
		    (unsigned long long)h->bytes,
		    (unsigned long long)(s->bytes + s->omit_bytes),
		    rev ? "sent" : "arrived");

	for (i = 0; ttcp_parts[i]; i++)
		if (s->part[i] && ttcp_parts[i]->check_hello)
			ttcp_parts[i]->check_hello(r, h, s);
}

/* What the hello brings to the sample (a forward stream's --rate): the
 * parts it adds, and their lines. */
static void from_hello(const struct cfg *c, struct sample *s,
		       const struct ctl_hello *h)
{
	int i;

	for (i = 0; ttcp_parts[i]; i++) {
		if (s->part[i] || !ttcp_parts[i]->hello)
			continue;
		ttcp_parts[i]->hello(s, h);
		if (s->part[i] && ttcp_parts[i]->lines)
			ttcp_parts[i]->lines("r", c, s);
	}
}

/* Both ends leave out the same first seconds (--omit, as the hello
 * says the transmitter's); else once, a line and a warning. */
static void check_omit(struct rcv *r, const struct ctl_hello *h)
{
	double mine = r->c->com.omit;

	if (r->omit_told || fabs(h->omit_s - mine) <= 1e-9)
		return;
	r->omit_told = 1;
	fprintf(ttcp_out, "ttcp-r: the transmitter leaves out the first %g s, this side %g s: their windows differ (give both ends the same --omit)\n",
		h->omit_s, mine);
	res_warn(r->d, "the transmitter leaves out the first %g s, the receiver %g s: their windows differ (give both ends the same --omit)",
		 h->omit_s, mine);
}

/* The receiver's one-line summary of a sample: a part's own, else the
 * stream's. */
static void closing_line(const struct rcv *r, const struct sample *s,
			 const char *method, int same)
{
	int i;

	for (i = 0; ttcp_parts[i]; i++)
		if (s->part[i] && ttcp_parts[i]->closing) {
			ttcp_parts[i]->closing(r, s, method, same);
			return;
		}
	out_closing(r->ops->name, method, r->c, s, same);
}

static int one_sample(struct rcv *r, int idx)
{
	const struct cfg *c = r->c;
	char why[300] = "transmitter sent no hello (plain ttcp, or it died): its figures are unknown";
	struct ctl_hello h;
	struct ctl_next nx = {0};
	struct sample s;
	int have = 0, same = 0, more = 0;
	json_t *kase, *j;

	memset(&s, 0, sizeof(s));
	memset(&h, 0, sizeof(h));
	r->sample = idx;
	if (run_sample(r, idx, &s))
		return 0;
	out_lines("r", c, &s);
	if (s.zc_warn[0])
		fprintf(ttcp_out, "ttcp-r: %s\n", s.zc_warn);
	if (s.verified)
		fprintf(ttcp_out, "ttcp-r: pattern check: %llu of %llu bytes wrong\n",
			(unsigned long long)s.bad_bytes,
			(unsigned long long)s.bytes);
	else if (c->verify && !sample_reverse(&s))
		fprintf(ttcp_out, "ttcp-r: -V: %s does not see the bytes; the count is checked%s\n",
			r->ops->name, c->report ? " against the hello" : "");
	if (c->report && !sig_stop)
		have = exchange(r, &s, &h, &nx, &same, why, sizeof(why));
	else if (c->report) /* Ctrl-C: no exchange */
		snprintf(why, sizeof(why), "no report: interrupted by a signal");
	if (have) {
		more = h.more;
		s.paired = h.soak >= 0;
		s.metered = h.soak == 1;
		s.pair = h.pair;
		check_hello(r, &h, &s);
		from_hello(c, &s, &h);
		check_omit(r, &h);
	} else {
		if (c->report)
			fprintf(ttcp_out, "ttcp-r: %s\n", why);
		if (c->report && idx == 0)
			res_warn(r->d, "%s", why);
		if (c->require_peer)
			die("%s (--require-peer)", why);
	}
	if (s.bad_bytes)
		die("transmitter %s: %llu bytes did not match the pattern",
		    r->peer, (unsigned long long)s.bad_bytes);
	out_cpu("r", c, &s, NULL, same,
		have ? "the transmitter holds its own figures" : why);
	if (sample_reverse(&s)) /* -R: this side sent with write */
		j = out_params("write", have ? h.method : "unknown", c,
			       "receive", "file");
	else
		j = out_params(have ? h.method : "unknown", r->ops->name, c,
			       "receive", have ? h.source : "unknown");
	out_params_more(j, c, &s);
	kase = res_case(r->d, j);
	j = out_sample(r->d, c, &s, NULL, same);
	out_sample_more(r->d, c, j, &s, NULL, same);
	quiet_doc(j, &s, &nx);
	if (s.paired)
		res_sample_pair(r->d, j, s.pair, s.metered);
	res_sample(kase, j);
	ctl_hello_free(&h);
	closing_line(r, &s, have ? h.method : "?", same);
	sample_free(&s);
	return more;
}

int do_receive(const struct cfg *c, struct res_doc *d)
{
	struct rcv r = { .c = c, .d = d, .ufd = -1, .hello_fd = -1 };
	const char *bind = c->bind ? c->bind : "*";
	char err[512], why[256];
	int i, port = 0;

	r.ops = c->ops;
	if (xfer_probe(r.ops, why, sizeof(why)))
		die("-m %s cannot run here: %s", r.ops->name, why);
	ctl_self(r.me, sizeof(r.me), r.boot, sizeof(r.boot));
	r.lfd = sock_listen(bind, c->port, SOCK_STREAM, TTCP_FLOWS_MAX, &port, err,
			    sizeof(err));
	if (r.lfd < 0)
		die("listen on %s:%d: %s", bind, c->port, err);
	/* UDP on the same port: -u's, and a plain receiver's too, so it
	 * follows a UDP stream or UDP_RR (a port UDP cannot have is then
	 * a warning: it follows the TCP modes) */
	r.ufd = sock_listen(bind, port, SOCK_DGRAM, 0, NULL, err, sizeof(err));
	if (r.ufd < 0 && c->udp)
		die("UDP %s:%d: %s", bind, c->port, err);
	if (r.ufd < 0)
		log_warn("UDP %s:%d: %s: this receiver follows TCP only", bind,
			 port, err);
	else
		ttcp_socket_opts(c, r.ufd, 0);
	/* -p 0 picks a free port (tests): the line says which */
	fprintf(ttcp_out, "ttcp-r: buflen=%zu, nbuf=%ld, align=%zu/%zu, port=%d  %s  method %s\n",
		c->buflen, c->nbuf, c->align, c->offset, port,
		c->udp ? "udp" : r.ufd >= 0 ? "tcp+udp" : "tcp", r.ops->name);
	ttcp_cpu_open(c, &r.w);
	if (c->com.cpu) /* the transmitter says whether runs are paired */
		out_meters("r", &r.w, d, 0);
	fflush(ttcp_out);
	for (i = 0; i < TTCP_MAX_SAMPLES && !sig_stop; i++)
		if (!one_sample(&r, i))
			break;
	cpuwin_close(&r.w);
	if (r.have_src)
		xfer_source_close(&r.src);
	close(r.lfd);
	if (r.ufd >= 0)
		close(r.ufd);
	return 0;
}
