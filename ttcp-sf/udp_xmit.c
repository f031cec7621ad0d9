/*
 * udp_xmit.c: the transmitting side's UDP stream (-t -u), in ttcp's
 * framing: a 4-byte start datagram, data datagrams that begin with
 * "ZCBU" and a sequence number (the receiver counts losses by them), and
 * 4 end datagrams holding the count sent.
 */
#include "config.h"
#include "ctr.h"
#include "clock.h"
#include "ival.h"
#include "log.h"
#include "pace.h"
#include "sig.h"
#include "rr.h"
#include "ttcp.h"
#include "udp.h"
#include "xmit.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* One datagram; ENOBUFS waits a little as ttcp did. */
static void udp_send(const struct cfg *c, int fd, const void *b, size_t n,
		     struct sample *s)
{
	for (;;) {
		ssize_t r = send(fd, b, n, 0);

		s->calls++;
		if (r == (ssize_t)n)
			return;
		if (r < 0 && (errno == ENOBUFS || errno == EINTR) &&
		    !sig_stop) {
			usleep(1000);
			continue;
		}
		die("receiver %s:%d (phase: UDP data): %s", c->host, c->port,
		    r < 0 ? strerror(errno) : "short datagram");
	}
}

static void udp_fill(const struct cfg *c, struct xfer_source *src, uint64_t seq)
{
	size_t pay = c->buflen - TTCP_UDP_HDR, got = 0;
	uint64_t off = seq * pay % src->size;
	char *p = src->buf + TTCP_UDP_HDR;
	uint32_t be[2] = {htonl(TTCP_UDP_MAGIC), htonl((uint32_t)seq)};
	ssize_t r;

	while (!c->hot && got < pay) {
		r = pread(src->fd, p + got, pay - got, (off_t)off);
		if (r <= 0)
			die("reading the source %s: %s", src->path,
			    r < 0 ? strerror(errno) : "end of file");
		got += (size_t)r;
		off = (off + (uint64_t)r) % src->size;
	}
	memcpy(src->buf, be, sizeof(be));
}

static void udp_xmit(struct xmit *t, struct sample *s)
{
	const struct cfg *c = t->c;
	struct cpuwin *w = &t->w;
	struct xfer_source *src = &t->src;
	uint64_t seq, n = c->duration > 0 ? UINT64_MAX : (uint64_t)c->nbuf;
	double t0, deadline = 0;
	struct pace pc;
	uint32_t cnt;
	int fd, i;

	fd = ttcp_connect(c, SOCK_DGRAM);
	cpuwin_start(w, NULL, 0);
	udp_send(c, fd, "ZCBS", 4, s); /* ttcp's start datagram */
	t0 = clock_now();
	if (c->duration > 0)
		deadline = t0 + c->duration;
	/* --rate: the kernel paces UDP only under fq: a token bucket */
	pace_init(&pc, c->rate, pace_burst(c->rate, c->buflen), t0);
	ival_watch(ttcp_iv, &s->bytes);
	for (seq = 0; seq < n && !sig_stop; seq++) {
		if (c->rate > 0 && pace_wait(&pc, c->buflen, &sig_stop))
			break;
		if (deadline > 0 && clock_now() >= deadline)
			break;
		udp_fill(c, src, seq);
		udp_send(c, fd, src->buf, c->buflen, s);
		ctr_add(&s->bytes, c->buflen);
	}
	ival_watch(ttcp_iv, NULL);
	s->dgrams = seq;
	s->elapsed_s = clock_now() - t0;
	cnt = htonl((uint32_t)seq);
	for (i = 0; i < 4; i++) { /* ttcp's end datagrams, paced */
		usleep(5000);
		udp_send(c, fd, &cnt, 4, s);
	}
	s->calls -= 5;
	cpuwin_stop(w, &s->cpu, NULL, 0);
	s->lost = -1;
	s->zc_copied_pct = NAN;
	sample_add(s, &udp_part);
	close(fd);
}

static int udp_xmit_match(const struct cfg *c)
{
	return c->udp;
}

static int udp_rcv_match(const struct cfg *c, const struct rcv_open *o)
{
	(void)c;
	return o->udp && !o->rr;
}

const struct ttcp_mode ttcp_udp_mode = {
	"udp", udp_xmit_match, udp_rcv_match,
	xmit_open_source, udp_xmit, udp_rcv_sample, 0};

/* UDP's part: the datagrams each side counted (common figures of the
 * hello and the report), in the document and checked. */
static void udp_doc(struct res_doc *d, const struct cfg *c, json_t *j,
		    const struct sample *s, const struct ctl_report *rep,
		    int same_box)
{
	json_t *r = json_object_get(j, "remote");

	(void)d, (void)c, (void)same_box;
	json_object_set_new(j, "datagrams",
			    json_integer((json_int_t)s->dgrams));
	json_object_set_new(j, "lost", s->lost >= 0 ? json_integer(s->lost) :
						      json_null());
	if (!rep || !r)
		return;
	json_object_set_new(r, "datagrams",
			    json_integer((json_int_t)rep->dgrams));
	json_object_set_new(r, "lost", rep->lost >= 0 ?
					       json_integer(rep->lost) :
					       json_null());
}

/* UDP_RR counts transactions, not datagrams: its rr part checks them. */
static void udp_check_report(const struct cfg *c, const struct sample *s,
			     const struct ctl_report *rep)
{
	(void)c;
	if (rr_of(s))
		return;
	fprintf(ttcp_out, "ttcp-t: receiver got %llu of %llu datagrams (%lld lost)\n",
		(unsigned long long)rep->dgrams,
		(unsigned long long)s->dgrams, (long long)rep->lost);
}

/* The case is UDP's: a receiver that followed it was not started -u. */
static void udp_params(json_t *params, const struct cfg *c,
		       const struct sample *s)
{
	(void)c, (void)s;
	json_object_set_new(params, "proto", json_string("udp"));
}

const struct ttcp_part udp_part = {
	.name = "udp", .params = udp_params, .doc = udp_doc,
	.check_report = udp_check_report};
