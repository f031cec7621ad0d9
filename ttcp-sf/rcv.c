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
#include "rcv.h"
#include "rr.h"
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

static int tcp_sample(struct rcv *r, int first, struct sample *s)
{
	const struct cfg *c = r->c;
	struct rcv_wait w;
	struct dir_setup st;
	char err[512];
	struct xfer *x;
	double t0;
	int64_t n;
	int fd, d;

	rcv_wait_init(&w, first ? c->wait_ms : c->timeout_ms, NULL);
	for (;;) {
		fd = rcv_accept_data(r, &w, "data accept");
		if (fd <= 0) {
			if (sig_stop)
				return -1;
			rcv_wait_over(r, &w);
		}
		fprintf(ttcp_out, "ttcp-r: accept from %s\n", r->peer);
		fflush(ttcp_out);
		ttcp_socket_opts(c, fd, 0);
		d = dir_peek(fd, c->timeout_ms, &st, w.empty[0] ? &r->hello : NULL,
			     err, sizeof(err));
		if (d < 0)
			die("transmitter %s: %s (phase: setup)", r->peer, err);
		if (d == DIR_HELLO)
			return empty_sample(r, fd, s);
		if (d == DIR_SETUP) { /* -R, -P... */
			if (st.flows > 1)
				flows_rcv_sample(r, flows_accept(r, fd, &st),
						 st.flows,
						 st.reverse ? FL_TX : FL_RX, 0,
						 0, &st, s);
			else
				dir_rcv_sample(r, fd, &st, s);
			close(fd);
			return 0;
		}
		x = xfer_open(r->ops, fd, NULL, c->buflen, err, sizeof(err));
		if (!x)
			die("%s", err);
		if ((c->align || c->offset) &&
		    xfer_set_rbuf_align(x, c->align, c->offset))
			die("-A/-O: out of memory");
		x->timeout_ms = c->timeout_ms;
		x->verify = c->verify;
		x->touch = c->touch;
		cpuwin_start(&r->w, NULL, 0);
		ival_watch(ttcp_iv, &x->bytes);
		t0 = clock_now();
		n = xfer_recv_stream(x, 0, 0, &sig_stop);
		ival_watch(ttcp_iv, NULL);
		s->elapsed_s = clock_now() - t0;
		cpuwin_stop(&r->w, &s->cpu, NULL, 0);
		if (n != 0 || sig_stop)
			break;
		/* a port probe, or a transmitter gone before a byte */
		rcv_wait_empty(r, &w);
		xfer_close(x);
		close(fd);
	}
	if (n < 0)
		die("transmitter %s (phase: data, after %llu bytes): %s",
		    r->peer, (unsigned long long)x->bytes, x->err);
	s->bytes = (uint64_t)n;
	s->calls = x->calls;
	s->counters = xfer_counters_json(x);
	s->zc_copied_pct = xfer_zc_copied_pct(x);
	xfer_zc_warning(x, s->zc_warn, sizeof(s->zc_warn));
	s->bad_bytes = x->bad_bytes;
	s->verified = c->verify && (r->ops->flags & XFER_SEES_BYTES);
	xfer_close(x);
	close(fd); /* the transmitter's clock stops at this EOF */
	return 0;
}


/*
 * The exchange: 1 with *h filled (report sent), 0 when no hello came
 * (why says so).
 */
static int exchange(struct rcv *r, const struct sample *s,
		    struct ctl_hello *h, int *same, char *why, size_t wlen)
{
	const struct cfg *c = r->c;
	struct ctl_report rep;
	char err[512];
	json_t *j;
	int fd, e;

	fd = rcv_await_hello(r, h, why, wlen);
	if (fd < 0)
		return 0;
	*same = !strcmp(h->boot_id, r->boot) && !strcmp(h->hostname, r->me);
	/* paired runs: park or wake this box's soakers for the next run
	 * before the transmitter can start it (it waits for our report) */
	if (h->more && h->soak_next >= 0 &&
	    cpuwin_metered(&r->w, h->soak_next, err, sizeof(err)))
		log_warn("next run (%s): %s",
			 h->soak_next ? "metered" : "unmetered", err);
	memset(&rep, 0, sizeof(rep));
	snprintf(rep.recv_method, sizeof(rep.recv_method), "%s",
		 r->ops->name);
	snprintf(rep.hostname, sizeof(rep.hostname), "%s", r->me);
	snprintf(rep.boot_id, sizeof(rep.boot_id), "%s", r->boot);
	rep.bytes = s->bytes;
	rep.calls = s->calls;
	rep.bad_bytes = s->bad_bytes;
	rep.verified = s->verified;
	rep.elapsed_s = s->elapsed_s;
	rep.lost = s->lost;
	rep.dgrams = s->dgrams;
	rep.zc_copied_pct = s->zc_copied_pct;
	rep.trans = s->trans;
	rep.rr_lost = s->rr_lost;
	rep.rev_bytes = s->rev_bytes;
	rep.rev_elapsed_s = s->rev_elapsed_s;
	rep.nflows = s->nflows;
	rep.flow_count = s->flow_count;
	j = ctl_report_build(&rep, s->cpu.local,
			     c->com.cpu ? s->cpu.nlocal : 0);
	e = peerrep_send(fd, j, c->report_ms);
	json_decref(j);
	close(fd);
	if (e)
		log_warn("transmitter %s (phase: report): sending: %s", r->peer,
			 strerror(-e));
	return 1;
}

/* One sample of what comes, -i's reporter around; -1 when stopped. */
static int run_sample(struct rcv *r, int idx, struct sample *s)
{
	const struct cfg *c = r->c;
	int stop = 0;

	ttcp_ival_start(c, "r", idx, c->rr != 0);
	if (c->rr)
		stop = rr_rcv_sample(r, idx == 0, s);
	else if (c->udp)
		rcv_udp_sample(r, idx == 0, s);
	else
		stop = tcp_sample(r, idx == 0, s);
	s->intervals = ttcp_ival_stop(c->rr ? s->trans : s->bytes);
	return stop;
}

/* The transmitter's counts (its hello) against this side's. */
static void check_hello(const struct rcv *r, const struct ctl_hello *h,
			const struct sample *s)
{
	const struct cfg *c = r->c;
	char why[128];

	if (!c->udp && h->bytes != s->bytes)
		die("transmitter %s %s %llu bytes, %llu %s here (phase: data)",
		    r->peer, s->dir == 1 ? "received" : "sent",
		    (unsigned long long)h->bytes,
		    (unsigned long long)s->bytes,
		    s->dir == 1 ? "sent" : "arrived");
	if (s->dir == 2 && h->rev_bytes != s->rev_bytes)
		die("this side sent %llu bytes, %llu reached transmitter %s (phase: data)",
		    (unsigned long long)s->rev_bytes,
		    (unsigned long long)h->rev_bytes, r->peer);
	if (s->nflows && !ctl_flows_match(h->flow_count, h->nflows,
					  s->flow_count, s->nflows, why,
					  sizeof(why)))
		die("transmitter %s: per-flow counts differ: %s (phase: report)",
		    r->peer, why);
	if (c->rr && s->rr_kind != RR_UDP && h->trans != s->trans)
		die("transmitter %s counted %llu transactions, %llu answered here (phase: report)",
		    r->peer, (unsigned long long)h->trans,
		    (unsigned long long)s->trans);
}

/* The receiver's one-line summary of a sample. */
static void closing_line(const struct rcv *r, const struct sample *s,
			 const char *method, int same)
{
	double el = s->elapsed_s > 0 ? s->elapsed_s : 0;

	if (r->c->rr)
		fprintf(ttcp_out, "ttcp-sf: %s <- %s: %.1f trans/s%s\n",
			rr_name(s->rr_kind), r->peer,
			el > 0 ? (double)s->trans / el : 0.0,
			same ? " (same box)" : "");
	else
		fprintf(ttcp_out, "ttcp-sf: %s %s %s %s: %.1f MB/s%s\n",
			s->dir == 1 ? "write" : r->ops->name,
			s->dir == 1 ? "->" : "<-", s->dir == 1 ? r->peer : method,
			s->dir == 1 ? "tcp (-R)" : r->c->udp ? "udp" : "tcp",
			el > 0 ? (double)s->bytes / el / 1e6 : 0.0,
			same ? " (same box)" : "");
}

static int one_sample(struct rcv *r, int idx)
{
	const struct cfg *c = r->c;
	char why[300] = "transmitter sent no hello (plain ttcp, or it died): its figures are unknown";
	struct ctl_hello h;
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
	else if (c->verify && s.dir != 1)
		fprintf(ttcp_out, "ttcp-r: -V: %s does not see the bytes; the count is checked%s\n",
			r->ops->name, c->report ? " against the hello" : "");
	if (c->report && !sig_stop)
		have = exchange(r, &s, &h, &same, why, sizeof(why));
	else if (c->report) /* Ctrl-C: no exchange */
		snprintf(why, sizeof(why), "no report: interrupted by a signal");
	if (have) {
		more = h.more;
		s.paired = h.soak >= 0;
		s.metered = h.soak == 1;
		s.pair = h.sample / 2;
		check_hello(r, &h, &s);
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
	if (s.dir == 1) /* -R: this side sent with write */
		j = out_params("write", have ? h.method : "unknown", c,
			       "receive", "file");
	else
		j = out_params(have ? h.method : "unknown", r->ops->name, c,
			       "receive", have ? h.source : "unknown");
	out_params_more(j, c, &s);
	kase = res_case(r->d, j);
	j = out_sample(r->d, c, &s, NULL, same);
	out_sample_more(r->d, c, j, &s, NULL, same);
	if (s.paired)
		res_sample_pair(r->d, j, s.pair, s.metered);
	res_sample(kase, j);
	json_decref(s.counters);
	flows_sample_free(&s);
	json_decref(s.intervals);
	ctl_hello_free(&h);
	closing_line(r, &s, have ? h.method : "?", same);
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
	if (c->udp) {
		r.ufd = sock_listen(bind, port, SOCK_DGRAM, 0, NULL, err,
				    sizeof(err));
		if (r.ufd < 0)
			die("UDP %s:%d: %s", bind, c->port, err);
		ttcp_socket_opts(c, r.ufd, 0);
	}
	/* -p 0 picks a free port (tests): the line says which */
	fprintf(ttcp_out, "ttcp-r: buflen=%zu, nbuf=%ld, align=%zu/%zu, port=%d  %s  method %s\n",
		c->buflen, c->nbuf, c->align, c->offset, port,
		c->udp ? "udp" : "tcp", r.ops->name);
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
