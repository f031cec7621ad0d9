/*
 * rcv.c: the receiving side (-r). Per sample: accept the data connection
 * (or the UDP start datagram), receive with the chosen method until EOF
 * (or the end datagrams), close, then wait briefly for the transmitter's
 * hello on the same port and answer with this side's report. A plain
 * ttcp transmitter sends no hello: the run ends after one sample and says
 * so. The transmitter's hello says whether another sample follows.
 */
#include "config.h"
#include "clock.h"
#include "log.h"
#include "peerrep.h"
#include "sig.h"
#include "sock.h"
#include "ttcp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define UDP_IDLE_MS 2000	/* no datagram this long: the end was lost */
#define UDP_BUF 65536		/* receive buffer for datagrams */

struct rcv {
	const struct cfg *c;
	struct res_doc *d;
	const struct xfer_ops *ops;
	struct meterset ms;
	int lfd;		/* TCP listener (data and the exchange) */
	int ufd;		/* UDP socket (-u) */
	char me[256], boot[40];
	char peer[64];		/* the transmitter, for messages */
};

/* Wait for a connection; 0 when ms passed (ms 0 = forever). */
static int accept_within(struct rcv *r, int ms, const char *phase)
{
	int fd, w;

	do {
		w = sock_wait(r->lfd, POLLIN, ms);
		if (sig_stop)
			return -1;
	} while (w == -EINTR);
	if (w == 0)
		return 0;
	fd = accept(r->lfd, NULL, NULL);
	if (fd < 0)
		die_errno("accept (phase: %s)", phase);
	sock_peer_name(fd, r->peer, sizeof(r->peer));
	return fd;
}

static int tcp_sample(struct rcv *r, int first, struct sample *s)
{
	const struct cfg *c = r->c;
	char err[512];
	struct xfer *x;
	double t0;
	int64_t n;
	int fd;

	fd = accept_within(r, first ? c->wait_ms : c->timeout_ms, "data");
	if (fd <= 0) {
		if (sig_stop)
			return -1;
		die("no transmitter connected within %d ms (phase: accept)",
		    first ? c->wait_ms : c->timeout_ms);
	}
	fprintf(ttcp_out, "ttcp-r: accept from %s\n", r->peer);
	ttcp_socket_opts(c, fd, 0);
	x = xfer_open(r->ops, fd, NULL, c->buflen, err, sizeof(err));
	if (!x)
		die("%s", err);
	if ((c->align || c->offset) &&
	    xfer_set_rbuf_align(x, c->align, c->offset))
		die("-A/-O: out of memory");
	x->timeout_ms = c->timeout_ms;
	x->verify = c->verify;
	x->touch = c->touch;
	if (c->cpu)
		meterset_start(&r->ms);
	t0 = clock_now();
	n = xfer_recv_stream(x, 0, 0, &sig_stop);
	s->elapsed_s = clock_now() - t0;
	if (c->cpu)
		s->ncpu = meterset_stop(&r->ms, s->cpu);
	if (n < 0)
		die("transmitter %s (phase: data, after %llu bytes): %s",
		    r->peer, (unsigned long long)x->bytes, x->err);
	s->bytes = (uint64_t)n;
	s->calls = x->calls;
	s->counters = xfer_counters_json(x);
	s->zc_copied_pct = xfer_zc_copied_pct(x);
	xfer_zc_warning(x, s->zc_warn, sizeof(s->zc_warn));
	s->bad_bytes = x->bad_bytes;
	s->verified = c->verify && r->ops->sees_bytes;
	xfer_close(x);
	close(fd); /* the transmitter's clock stops at this EOF */
	return 0;
}

static void udp_sample(struct rcv *r, int first, struct sample *s)
{
	const struct cfg *c = r->c;
	unsigned char *b = malloc(UDP_BUF);
	double t0 = 0, last = 0;
	int64_t expect = -1;
	uint32_t m, seq, maxseq = 0;
	int going = 0, ours = 0, w;
	ssize_t n;

	if (!b)
		abort();
	for (;;) {
		w = sock_wait(r->ufd, POLLIN,
			      going ? UDP_IDLE_MS :
				      (first ? c->wait_ms : c->timeout_ms));
		if (sig_stop || w == -EINTR) {
			if (sig_stop)
				break;
			continue;
		}
		if (w == 0) {
			if (!going)
				die("no UDP datagram within %d ms (phase: start)",
				    first ? c->wait_ms : c->timeout_ms);
			log_warn("no end datagram: stopped after %d ms without data",
				 UDP_IDLE_MS);
			res_warn(r->d, "UDP: the end datagrams were lost; ended after %d ms idle",
				 UDP_IDLE_MS);
			break;
		}
		n = recv(r->ufd, b, UDP_BUF, 0);
		s->calls++;
		if (n < 0)
			die_errno("UDP receive (phase: data)");
		if (n <= 4 && going) { /* end */
			last = clock_now();
			if (n == 4 && ours) {
				memcpy(&m, b, 4);
				expect = ntohl(m);
			}
			break;
		}
		if (!going) { /* start datagram, or data if the start was lost */
			going = 1;
			t0 = clock_now();
			if (c->cpu)
				meterset_start(&r->ms);
			if (n <= 4)
				continue;
		}
		last = clock_now();
		s->bytes += (uint64_t)n;
		s->dgrams++;
		if (n >= TTCP_UDP_HDR) {
			memcpy(&m, b, 4);
			if (ntohl(m) == TTCP_UDP_MAGIC) {
				ours = 1;
				memcpy(&seq, b + 4, 4);
				seq = ntohl(seq);
				if (seq > maxseq)
					maxseq = seq;
			}
		}
	}
	free(b);
	s->elapsed_s = going ? last - t0 : 0;
	if (c->cpu && going)
		s->ncpu = meterset_stop(&r->ms, s->cpu);
	if (ours && expect < 0 && s->dgrams)
		expect = (int64_t)maxseq + 1;
	s->lost = -1;
	if (ours && expect >= 0)
		s->lost = expect > (int64_t)s->dgrams ?
				  expect - (int64_t)s->dgrams :
				  0;
	s->zc_copied_pct = NAN;
	if (s->lost >= 0)
		fprintf(ttcp_out, "ttcp-r: %llu datagrams, %lld lost (sequence numbers)\n",
			(unsigned long long)s->dgrams, (long long)s->lost);
	else
		fprintf(ttcp_out, "ttcp-r: %llu datagrams (plain ttcp sender: losses unknown)\n",
			(unsigned long long)s->dgrams);
}

/*
 * The exchange: 1 with *h filled (report sent), 0 when no hello came.
 * A hello that does not parse is fatal (a lying peer).
 */
static int exchange(struct rcv *r, const struct sample *s,
		    struct ctl_hello *h, int *same)
{
	const struct cfg *c = r->c;
	struct ctl_report rep;
	char err[512];
	json_t *j;
	int fd, e;

	fd = accept_within(r, c->report_ms, "report");
	if (fd <= 0)
		return 0;
	e = peerrep_recv(fd, &j, c->report_ms, err, sizeof(err));
	if (e) {
		close(fd);
		if (e == -EINVAL)
			die("transmitter %s (phase: report): %s", r->peer, err);
		log_warn("transmitter %s (phase: report): %s", r->peer, err);
		return 0;
	}
	e = ctl_hello_parse(j, h, err, sizeof(err));
	json_decref(j);
	if (e) {
		close(fd);
		die("transmitter %s (phase: report): %s", r->peer, err);
	}
	*same = !strcmp(h->boot_id, r->boot) && !strcmp(h->hostname, r->me);
	/* paired runs: park or wake this box's soakers for the next run
	 * before the transmitter can start it (it waits for our report) */
	if (h->more && h->soak_next >= 0 && c->cpu &&
	    meterset_metered(&r->ms, h->soak_next, err, sizeof(err)))
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
	j = ctl_report_build(&rep, s->cpu, c->cpu ? s->ncpu : 0);
	e = peerrep_send(fd, j, c->report_ms);
	json_decref(j);
	close(fd);
	if (e)
		log_warn("transmitter %s (phase: report): sending: %s", r->peer,
			 strerror(-e));
	return 1;
}

static int one_sample(struct rcv *r, int idx)
{
	const struct cfg *c = r->c;
	char why[200] = "transmitter sent no hello (plain ttcp, or it died): its figures are unknown";
	struct ctl_hello h;
	struct sample s;
	int have = 0, same = 0, more = 0;
	json_t *kase, *j;

	memset(&s, 0, sizeof(s));
	memset(&h, 0, sizeof(h));
	if (c->udp)
		udp_sample(r, idx == 0, &s);
	else if (tcp_sample(r, idx == 0, &s))
		return 0;
	ttcp_print_rate("r", c, &s);
	if (s.zc_warn[0])
		fprintf(ttcp_out, "ttcp-r: %s\n", s.zc_warn);
	if (s.verified)
		fprintf(ttcp_out, "ttcp-r: pattern check: %llu of %llu bytes wrong\n",
			(unsigned long long)s.bad_bytes,
			(unsigned long long)s.bytes);
	else if (c->verify)
		fprintf(ttcp_out, "ttcp-r: -V: %s does not see the bytes; the count is checked%s\n",
			r->ops->name, c->report ? " against the hello" : "");
	if (c->report && !sig_stop)
		have = exchange(r, &s, &h, &same);
	if (have) {
		more = h.more;
		s.paired = h.soak >= 0;
		s.metered = h.soak == 1;
		s.pair = h.sample / 2;
		if (!c->udp && h.bytes != s.bytes)
			die("transmitter %s sent %llu bytes, %llu arrived (phase: data)",
			    r->peer, (unsigned long long)h.bytes,
			    (unsigned long long)s.bytes);
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
	kase = res_case(r->d, ttcp_params(have ? h.method : "unknown",
					  r->ops->name, c, "receive",
					  have ? h.source : "unknown"));
	j = out_sample(r->d, c, &s, NULL, same);
	if (s.paired)
		res_sample_pair(r->d, j, s.pair, s.metered);
	res_sample(kase, j);
	json_decref(s.counters);
	fprintf(ttcp_out, "ttcp-sf: %s <- %s %s: %.1f MB/s%s\n", r->ops->name,
		have ? h.method : "?", c->udp ? "udp" : "tcp",
		s.elapsed_s > 0 ? (double)s.bytes / s.elapsed_s / 1e6 : 0.0,
		same ? " (same box)" : "");
	return more;
}

int do_receive(const struct cfg *c, struct res_doc *d)
{
	struct rcv r = { .c = c, .d = d, .ufd = -1 };
	const char *bind = c->bind ? c->bind : "*";
	char err[512], why[256];
	int i, port = 0;

	r.ops = xfer_find(c->method, XFER_RECV);
	if (xfer_probe(r.ops, why, sizeof(why)))
		die("-m %s cannot run here: %s", r.ops->name, why);
	ctl_self(r.me, sizeof(r.me), r.boot, sizeof(r.boot));
	r.lfd = sock_listen(bind, c->port, SOCK_STREAM, 8, &port, err,
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
	if (c->cpu) {
		if (meterset_open(&r.ms, c->cpu_list, NULL, err, sizeof(err)))
			die("--cpu: %s", err);
		fprintf(ttcp_out, "ttcp-r: CPU meters: %s\n",
			meterset_names(&r.ms, why, sizeof(why)));
	}
	fflush(ttcp_out);
	for (i = 0; i < TTCP_MAX_SAMPLES && !sig_stop; i++)
		if (!one_sample(&r, i))
			break;
	if (c->cpu)
		meterset_close(&r.ms);
	close(r.lfd);
	if (r.ufd >= 0)
		close(r.ufd);
	return 0;
}
