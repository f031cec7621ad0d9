/*
 * udp_rcv.c: the receiving side's UDP stream (-r -u), in ttcp's framing:
 * a start datagram of 4 bytes or less, data, and short end datagrams;
 * ttcp-sf's data carries "ZCBU" and a sequence number, so losses are
 * counted. Datagrams from anyone but the sender of the data, and short
 * ones that are not its end marker, are counted and ignored.
 */
#include "config.h"
#include "ctr.h"
#include "clock.h"
#include "ival.h"
#include "log.h"
#include "rcv.h"
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

#define UDP_IDLE_MS 2000	/* no datagram this long: the end was lost */
#define UDP_BUF 65536		/* receive buffer for datagrams */

/* UDP: where a sample is, and who sends it. */
struct udp_state {
	struct sockaddr_storage start; /* sender of the start marker */
	struct sockaddr_storage src;   /* sender of the data */
	int started;		       /* a start marker (or data) came */
	int have_src;		       /* data came: src is set */
	int ours;		       /* data carries TTCP_UDP_MAGIC */
	uint32_t maxseq;	       /* highest sequence number seen */
	int64_t end_count;	       /* ours: the count in the end marker */
	double t0, last;	       /* start, last data (or end) */
	long strays;		       /* datagrams ignored */
};

/* (Re)start the sample's clock and meters at now. */
static void udp_begin(struct rcv *r, struct udp_state *u, double now)
{
	struct cpuwin_sample junk;

	if (u->started)
		cpuwin_stop(&r->w, &junk, NULL, 0);
	cpuwin_start(&r->w, NULL, 0);
	u->started = 1;
	u->t0 = now;
}

/*
 * One datagram of n bytes from `from`. Returns 1 when it ends the
 * sample. Before data, a datagram of 4 bytes or less is a start marker
 * (the last one from a new sender restarts the clock); the first data
 * datagram fixes the sender. After that only the sender counts, and only
 * its end marker ends the sample: for ttcp-sf (data with our magic) 4
 * bytes holding a count no lower than the sequence numbers seen, for a
 * plain ttcp any short datagram.
 */
static int udp_one(struct rcv *r, struct udp_state *u, struct sample *s,
		   const unsigned char *b, ssize_t n,
		   const struct sockaddr_storage *from, double now)
{
	uint32_t m, seq;

	if (!u->have_src) {
		if (n <= 4) {
			if (u->started && rcv_same_sender(from, &u->start))
				return 0; /* a repeated start marker */
			if (u->started)
				u->strays++; /* the earlier one was not it */
			udp_begin(r, u, now);
			u->start = *from;
			return 0;
		}
		if (!u->started || !rcv_same_sender(from, &u->start)) {
			if (u->started)
				u->strays++;
			udp_begin(r, u, now); /* start lost, or a stray's */
		}
		u->src = *from;
		u->have_src = 1;
		ival_watch(ttcp_iv, &s->bytes); /* -i: from the first data */
	} else if (!rcv_same_sender(from, &u->src)) {
		u->strays++;
		return 0;
	}
	if (n <= 4) {
		if (u->ours) {
			if (n != 4)
				goto not_end;
			memcpy(&m, b, 4);
			if (ntohl(m) <= u->maxseq)
				goto not_end;
			u->end_count = ntohl(m);
		}
		u->last = now;
		return 1;
	}
	u->last = now;
	ctr_add(&s->bytes, (uint64_t)n);
	s->dgrams++;
	if (n >= TTCP_UDP_HDR) {
		memcpy(&m, b, 4);
		if (ntohl(m) == TTCP_UDP_MAGIC) {
			u->ours = 1;
			memcpy(&seq, b + 4, 4);
			seq = ntohl(seq);
			if (seq > u->maxseq)
				u->maxseq = seq;
		}
	}
	return 0;
not_end:
	u->strays++;
	return 0;
}

int udp_rcv_sample(struct rcv *r, const struct rcv_open *o, struct sample *s)
{
	const struct cfg *c = r->c;
	int first = r->sample == 0;
	unsigned char *b = malloc(UDP_BUF);
	struct udp_state u;
	struct sockaddr_storage from;
	socklen_t alen;
	int64_t expect = -1;
	int w, start_ms = first ? c->wait_ms : c->timeout_ms;
	ssize_t n;

	(void)o;
	if (!b)
		abort();
	memset(&u, 0, sizeof(u));
	u.end_count = -1;
	for (;;) {
		/* before data, the start timeout; then the idle limit */
		w = sock_wait(r->ufd, POLLIN,
			      u.have_src ? UDP_IDLE_MS : start_ms);
		if (sig_stop)
			break;
		if (w == -EINTR)
			continue;
		if (w == 0) {
			if (!u.have_src)
				die("no UDP data within %d ms (phase: start)",
				    start_ms);
			log_warn("no end datagram: stopped after %d ms without data",
				 UDP_IDLE_MS);
			res_warn(r->d, "UDP: the end datagrams were lost; ended after %d ms idle",
				 UDP_IDLE_MS);
			break;
		}
		alen = sizeof(from);
		n = recvfrom(r->ufd, b, UDP_BUF, 0, (struct sockaddr *)&from,
			     &alen);
		s->calls++;
		if (n < 0)
			die_errno("UDP receive (phase: data)");
		if (udp_one(r, &u, s, b, n, &from, clock_now()))
			break;
	}
	free(b);
	ival_watch(ttcp_iv, NULL);
	s->elapsed_s = u.have_src ? u.last - u.t0 : 0;
	if (u.started)
		cpuwin_stop(&r->w, &s->cpu, NULL, 0);
	expect = u.end_count;
	if (u.ours && expect < 0 && s->dgrams)
		expect = (int64_t)u.maxseq + 1;
	s->lost = -1;
	if (u.ours && expect >= 0)
		s->lost = expect > (int64_t)s->dgrams ?
				  expect - (int64_t)s->dgrams :
				  0;
	s->zc_copied_pct = NAN;
	if (u.strays) {
		log_warn(
			"UDP: %ld stray datagram%s ignored (not from the sender of the data, or not its end marker)",
			u.strays, u.strays == 1 ? "" : "s");
		res_warn(r->d, "UDP: %ld stray datagram%s ignored", u.strays,
			 u.strays == 1 ? "" : "s");
	}
	if (s->lost >= 0)
		fprintf(ttcp_out, "ttcp-r: %llu datagrams, %lld lost (sequence numbers)\n",
			(unsigned long long)s->dgrams, (long long)s->lost);
	else
		fprintf(ttcp_out, "ttcp-r: %llu datagrams (plain ttcp sender: losses unknown)\n",
			(unsigned long long)s->dgrams);
	sample_add(s, &udp_part);
	return 0;
}
