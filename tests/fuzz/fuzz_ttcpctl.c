/*
 * fuzz_ttcpctl.c: every frame ttcp-sf's sides send each other, through
 * its one decoder (ttcp-sf/frame.c): the transmitter's hello, the
 * receiver's report, the next frame after a deciding hello's report and
 * the -R/--bidir/-P setup frame (each a lib/wire/peerrep frame), and
 * --rr's 20-byte setup frame.
 * Input: [mode][split][frames].
 *   mode 0: the frames decoded from one buffer.
 *   mode 1: both ends' socket path: a peer sends the frames in chunks;
 *           each is received with peerrep_recv; a hello is answered with
 *           a report as the receiver does (ctl_report_build, peerrep_send).
 *   mode 2: the buffer as --rr setup frames, 20 bytes each.
 * Every peerrep frame is parsed as a hello, a report, a next and a setup;
 * what parses must come back unchanged through build, encode, decode and
 * parse again (what one end accepts, the other end's encoder can say),
 * and a refusal must say why.
 */
#include "config.h"
#include "fz.h"
#include "peerrep.h"
#include "ttcp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FRAMES 32

/* obj (stolen) through the wire format and back. */
static json_t *wire(json_t *obj)
{
	char err[256];
	uint8_t *b;
	size_t n, used;
	json_t *j = NULL;

	n = peerrep_encode(obj, &b);
	json_decref(obj);
	if (peerrep_decode(b, n, &used, &j, err, sizeof(err)) != 1 || used != n)
		__builtin_trap(); /* our own frame does not decode */
	free(b);
	return j;
}

static int same_num(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

static void hello_round_trip(const struct ctl_hello *h)
{
	struct ctl_hello back;
	char err[256] = "";
	json_t *j = wire(ctl_hello_build(h));

	if (ctl_hello_parse(j, &back, err, sizeof(err)) ||
	    strcmp(back.method, h->method) || strcmp(back.source, h->source) ||
	    strcmp(back.proto, h->proto) ||
	    strcmp(back.hostname, h->hostname) ||
	    strcmp(back.boot_id, h->boot_id) || back.buflen != h->buflen ||
	    back.bytes != h->bytes || back.dgrams != h->dgrams ||
	    back.sample != h->sample || back.more != h->more ||
	    back.nflows != h->nflows || back.rate != h->rate ||
	    back.paced_by != h->paced_by || back.decide != h->decide ||
	    (h->soak >= 0 && back.pair != h->pair) ||
	    !same_num(back.omit_s, h->omit_s) ||
	    !same_num(back.self_cpu_s, h->self_cpu_s))
		__builtin_trap();
	ctl_hello_free(&back);
	json_decref(j);
}


static void report_round_trip(const struct ctl_report *r)
{
	struct ctl_report back;
	char err[256] = "";
	json_t *j = wire(ctl_report_build(r, r->cpu, r->ncpu));
	int i;

	if (ctl_report_parse(j, &back, err, sizeof(err)))
		__builtin_trap(); /* what we accepted, we cannot send */
	if (strcmp(back.recv_method, r->recv_method) ||
	    strcmp(back.hostname, r->hostname) ||
	    strcmp(back.boot_id, r->boot_id) || back.bytes != r->bytes ||
	    back.calls != r->calls || back.bad_bytes != r->bad_bytes ||
	    back.verified != r->verified || back.elapsed_s != r->elapsed_s ||
	    back.dgrams != r->dgrams || back.lost != r->lost ||
	    !same_num(back.zc_copied_pct, r->zc_copied_pct) ||
	    back.ncpu != r->ncpu || back.ntcp != r->ntcp ||
	    (r->ntcp &&
	     memcmp(back.tcp, r->tcp, (size_t)r->ntcp * sizeof(*r->tcp))) ||
	    !same_num(back.omit_s, r->omit_s) ||
	    back.omit_bytes != (r->omit_s > 0 ? r->omit_bytes : 0) ||
	    !same_num(back.self_cpu_s, r->self_cpu_s))
		__builtin_trap();
	for (i = 0; i < r->ncpu; i++)
		if (strcmp(back.cpu[i].meter, r->cpu[i].meter) ||
		    back.cpu[i].ok != r->cpu[i].ok ||
		    (r->cpu[i].ok &&
		     (back.cpu[i].busy_pct != r->cpu[i].busy_pct ||
		      back.cpu[i].ncpu != r->cpu[i].ncpu)))
			__builtin_trap();
	ctl_report_free(&back);
	json_decref(j);
}

static void next_round_trip(const struct ctl_next *n)
{
	struct ctl_next back;
	char err[256] = "";
	json_t *j = wire(ctl_next_build(n));

	if (ctl_next_parse(j, &back, err, sizeof(err)) ||
	    back.more != n->more || back.soak_next != n->soak_next ||
	    back.rerun != n->rerun ||
	    (n->rerun && (back.steal_pct != n->steal_pct ||
			  !same_num(back.outside_pct, n->outside_pct) ||
			  back.steal_max != n->steal_max ||
			  back.outside_max != n->outside_max)))
		__builtin_trap();
	json_decref(j);
}

static void setup_round_trip(const struct dir_setup *st)
{
	struct dir_setup back;
	char why[256] = "";
	json_t *j = wire(dir_setup_build(st));

	if (dir_setup_parse(j, &back, why, sizeof(why)) ||
	    back.reverse != st->reverse || back.bidir != st->bidir ||
	    back.buflen != st->buflen || back.nbuf != st->nbuf ||
	    back.duration != st->duration || back.hot != st->hot ||
	    back.flows != st->flows || back.flow != st->flow ||
	    back.rate != st->rate || back.rate_per_flow != st->rate_per_flow)
		__builtin_trap();
	json_decref(j);
}

/* --rr's setup frames, 20 bytes each: what decodes encodes the same. */
static void rr_setups(const uint8_t *data, size_t size)
{
	unsigned char again[RR_SETUP];
	struct rr_setup su;
	char why[256];
	size_t off;

	for (off = 0; off + RR_SETUP <= size; off += RR_SETUP) {
		memset(&su, 0, sizeof(su));
		why[0] = '\0';
		if (rr_setup_get(data + off, &su, why, sizeof(why))) {
			if (!why[0])
				__builtin_trap();
			continue;
		}
		rr_setup_put(again, &su);
		if (memcmp(again, data + off, RR_SETUP) &&
		    su.kind != RR_CRR_END && su.kind != RR_UDP_END)
			__builtin_trap();
		if (rr_setup_get(again, &su, NULL, 0))
			__builtin_trap();
	}
}

/* One frame: parse as all four; 1 when it was a hello. */
static int frame(json_t *j)
{
	struct ctl_report rep;
	struct dir_setup st;
	struct ctl_hello h;
	struct ctl_next nx;
	char err[256];
	int hello = 0;

	err[0] = '\0';
	if (!ctl_hello_parse(j, &h, err, sizeof(err))) {
		hello_round_trip(&h);
		ctl_hello_free(&h);
		hello = 1;
	} else if (!err[0]) {
		__builtin_trap(); /* refused without saying why */
	}
	err[0] = '\0';
	if (!ctl_report_parse(j, &rep, err, sizeof(err))) {
		report_round_trip(&rep);
		ctl_report_free(&rep);
	} else if (!err[0]) {
		__builtin_trap();
	}
	err[0] = '\0';
	if (!ctl_next_parse(j, &nx, err, sizeof(err)))
		next_round_trip(&nx);
	else if (!err[0])
		__builtin_trap();
	err[0] = '\0';
	if (!dir_setup_parse(j, &st, err, sizeof(err)))
		setup_round_trip(&st);
	else if (!err[0])
		__builtin_trap();
	return hello;
}

static void buffer(const uint8_t *data, size_t size)
{
	char err[256];
	size_t off = 0, used;
	json_t *j;
	int i;

	for (i = 0; i < MAX_FRAMES && off < size; i++) {
		if (peerrep_decode(data + off, size - off, &used, &j, err,
				   sizeof(err)) != 1)
			break;
		frame(j);
		json_decref(j);
		off += used;
	}
}

static void sockets(const uint8_t *data, size_t size, uint8_t split)
{
	struct ctl_report rep;
	struct fz_peer p;
	char err[256];
	json_t *j;
	int fd, i;

	if (fz_peer_pair(&p, data, size, split, &fd))
		return;
	memset(&rep, 0, sizeof(rep));
	snprintf(rep.recv_method, sizeof(rep.recv_method), "read");
	snprintf(rep.hostname, sizeof(rep.hostname), "fuzz");
	rep.lost = -1;
	rep.zc_copied_pct = NAN;
	for (i = 0; i < MAX_FRAMES; i++) {
		if (peerrep_recv(fd, &j, 2000, err, sizeof(err)))
			break;
		if (frame(j)) { /* the receiver answers a hello */
			json_t *r = ctl_report_build(&rep, NULL, 0);

			peerrep_send(fd, r, 2000);
			json_decref(r);
		}
		json_decref(j);
	}
	close(fd);
	fz_peer_end(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2 || size > 2 * PEERREP_MAX)
		return 0;
	if (data[0] & 2)
		rr_setups(data + 2, size - 2);
	else if (data[0] & 1)
		sockets(data + 2, size - 2, data[1]);
	else
		buffer(data + 2, size - 2);
	return 0;
}
