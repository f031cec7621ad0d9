/*
 * frame.c: the frames of ttcp-sf's two sides (frame.h): the setup frames
 * that open a data connection and the end-of-run exchange. Each is
 * built here and decoded here, every field checked for type and range
 * before use, every string escaped (lib/core/esc) as it is read, and a
 * method one of lib/xfer's, so no printer shows a peer's bytes raw.
 */
#include "config.h"
#include "cpujson.h"
#include "esc.h"
#include "frame.h"
#include "hostinfo.h"
#include "xfer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CTL_HELLO "ttcp-sf-hello/1"
#define CTL_REPORT "ttcp-sf-report/1"
#define CTL_NEXT "ttcp-sf-next/1"
#define CTL_MAX_BYTES (1ull << 62)	/* any count beyond this is a lie */

/* -R, --bidir and -P's setup frame */

const char *dir_name(int reverse, int bidir)
{
	return bidir ? "bidir" : reverse ? "reverse" : "forward";
}

json_t *dir_setup_build(const struct dir_setup *st)
{
	json_t *j = json_pack(
		"{s:s, s:s, s:I, s:I, s:f, s:i, s:i}", "type", DIR_SETUP_TYPE,
		"direction", dir_name(st->reverse, st->bidir), "buflen",
		(json_int_t)st->buflen, "nbuf", (json_int_t)st->nbuf,
		"duration", st->duration, "flows", st->flows, "flow",
		st->flow);

	if (st->hot) /* -R --hot: the receiver sends a cache-hot buffer */
		json_object_set_new(j, "hot", json_true());
	if (st->rate > 0) { /* --rate: older receivers never see it */
		json_object_set_new(j, "rate", json_real(st->rate));
		if (st->rate_per_flow)
			json_object_set_new(j, "rate_per_flow", json_true());
	}
	return j;
}

const char *rate_pacer_name(int pacer)
{
	return pacer == PACED_KERNEL ? "kernel"
	       : pacer == PACED_APP  ? "ttcp-sf"
				     : NULL;
}

int rate_pacer_of(const char *name)
{
	if (!strcmp(name, "kernel"))
		return PACED_KERNEL;
	if (!strcmp(name, "ttcp-sf"))
		return PACED_APP;
	return -1;
}

/* An optional rate field (bytes/s): absent 0, else in (0, TTCP_RATE_MAX]. */
static int get_rate(json_t *j, double *out, char *why, size_t len)
{
	json_t *v = json_object_get(j, "rate");

	*out = 0;
	if (!v)
		return 0;
	if (!json_is_number(v) || !(json_number_value(v) > 0) ||
	    json_number_value(v) > TTCP_RATE_MAX) {
		snprintf(why, len, "field \"rate\" not a rate (bytes/s above 0, at most %.3g)",
			 TTCP_RATE_MAX);
		return -EINVAL;
	}
	*out = json_number_value(v);
	return 0;
}

/* Field k of j, an integer in [lo, hi] (absent: def, when def >= lo). */
static int get_int(json_t *j, const char *k, int64_t lo, int64_t hi,
		   int64_t def, int64_t *out, char *why, size_t len)
{
	json_t *v = json_object_get(j, k);

	if (!v && def >= lo) {
		*out = def;
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < lo ||
	    json_integer_value(v) > hi) {
		snprintf(why, len, "field \"%s\" %s (%lld to %lld)", k,
			 json_is_integer(v) ? "out of range" :
					      "missing or not an integer",
			 (long long)lo, (long long)hi);
		return -EINVAL;
	}
	*out = json_integer_value(v);
	return 0;
}

/* The setup's fields, checked; 0 or -EINVAL with why. */
int dir_setup_parse(json_t *j, struct dir_setup *st, char *why, size_t len)
{
	const char *dir = json_string_value(json_object_get(j, "direction"));
	json_t *d = json_object_get(j, "duration");
	int64_t buflen, nbuf, flows, flow;

	memset(st, 0, sizeof(*st));
	if (!dir || (strcmp(dir, "forward") && strcmp(dir, "reverse") &&
		     strcmp(dir, "bidir"))) {
		snprintf(why, len, "field \"direction\" not forward, reverse or bidir");
		return -EINVAL;
	}
	if (get_int(j, "buflen", 1, 64 << 20, 0, &buflen, why, len) ||
	    get_int(j, "nbuf", 0, 1ll << 40, -1, &nbuf, why, len) ||
	    get_int(j, "flows", 1, TTCP_FLOWS_MAX, 1, &flows, why, len) ||
	    get_int(j, "flow", 0, flows - 1, 0, &flow, why, len))
		return -EINVAL;
	st->duration = json_is_number(d) ? json_number_value(d) : -1;
	if (!(st->duration >= 0 && st->duration <= 86400)) {
		snprintf(why, len, "field \"duration\" missing or out of range (0 to 86400 s)");
		return -EINVAL;
	}
	st->reverse = !strcmp(dir, "reverse");
	st->bidir = !strcmp(dir, "bidir");
	st->buflen = (uint64_t)buflen;
	st->nbuf = (uint64_t)nbuf;
	st->flows = (int)flows;
	st->flow = (int)flow;
	st->hot = json_is_true(json_object_get(j, "hot"));
	if (get_rate(j, &st->rate, why, len))
		return -EINVAL;
	st->rate_per_flow = st->rate > 0 &&
			    json_is_true(json_object_get(j, "rate_per_flow"));
	if (!(st->reverse || st->bidir || st->flows > 1)) {
		snprintf(why, len, "a forward stream of one flow needs no setup");
		return -EINVAL;
	}
	if (!st->nbuf && st->duration <= 0) {
		snprintf(why, len, "neither \"nbuf\" nor \"duration\"");
		return -EINVAL;
	}
	return 0;
}

/* --rr's setup frame */

void rr_setup_put(unsigned char *b, const struct rr_setup *s)
{
	uint32_t req = htonl(s->req), resp = htonl(s->resp);

	memcpy(b, RR_MAGIC, 6);
	b[6] = (unsigned char)s->kind;
	b[7] = 0;
	memcpy(b + 8, &req, 4);
	memcpy(b + 12, &resp, 4);
	b[16] = (unsigned char)(s->flows >> 8);
	b[17] = (unsigned char)s->flows;
	b[18] = (unsigned char)(s->flow >> 8);
	b[19] = (unsigned char)s->flow;
}

/* -EINVAL, saying why (when asked). */
static int __attribute__((format(printf, 3, 4)))
bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int rr_setup_get(const unsigned char *b, struct rr_setup *s, char *why,
		 size_t len)
{
	uint32_t req, resp, max;

	if (memcmp(b, RR_MAGIC, 6))
		return bad(why, len, "no --rr setup frame");
	if (b[7] || b[6] < RR_TCP || b[6] > RR_UDP_END)
		return bad(why, len, "kind %u.%u unknown (1 to %d)", b[6], b[7],
			   RR_UDP_END);
	memcpy(&req, b + 8, 4);
	memcpy(&resp, b + 12, 4);
	s->kind = b[6];
	s->req = ntohl(req);
	s->resp = ntohl(resp);
	s->flows = (uint16_t)(b[16] << 8 | b[17]);
	s->flow = (uint16_t)(b[18] << 8 | b[19]);
	if (!s->flows || s->flows > TTCP_FLOWS_MAX)
		return bad(why, len, "%u flows out of range (1 to %d)",
			   s->flows, TTCP_FLOWS_MAX);
	if (s->flow >= s->flows)
		return bad(why, len, "flow %u of %u", s->flow + 1, s->flows);
	if (s->flows > 1 && s->kind != RR_TCP)
		return bad(why, len, "%u flows of %s (-P is TCP_RR's only)",
			   s->flows, rr_name(s->kind));
	if (s->kind == RR_CRR_END || s->kind == RR_UDP_END)
		return 0;
	max = s->kind == RR_UDP ? RR_UDP_MAX : RR_MAX_SIZE;
	if (!s->req || s->req > max)
		return bad(why, len, "request size %u out of range (1 to %u%s)",
			   s->req, max, s->kind == RR_UDP ? ", a datagram" : "");
	if (!s->resp || s->resp > max)
		return bad(why, len, "response size %u out of range (1 to %u%s)",
			   s->resp, max, s->kind == RR_UDP ? ", a datagram" : "");
	return 0;
}

const char *rr_name(int kind)
{
	switch (kind) {
	case RR_TCP:
		return "tcp_rr";
	case RR_CRR:
	case RR_CRR_END:
		return "tcp_crr";
	case RR_UDP:
	case RR_UDP_END:
		return "udp_rr";
	}
	return "?";
}

/* The end-of-run exchange */

/* A string field, escaped: a peer's control bytes never reach a
 * terminal. It must fit len escaped. */
static int get_str(json_t *j, const char *k, char *buf, size_t len,
		   int required, char *err, size_t elen)
{
	json_t *v = json_object_get(j, k);
	const char *s = json_string_value(v);
	char *e;

	if (!v && !required) {
		buf[0] = '\0';
		return 0;
	}
	e = s ? esc_dup(s) : NULL;
	if (!e || strlen(e) >= len) {
		free(e);
		snprintf(err, elen, "field \"%s\" missing or not a short string",
			 k);
		return -EINVAL;
	}
	memcpy(buf, e, strlen(e) + 1);
	free(e);
	return 0;
}

/* The box a hello or a report names: its hostname and boot_id. */
static int get_box(json_t *j, char *hostname, char *boot_id, char *err,
		   size_t len)
{
	if (get_str(j, "hostname", hostname, CTL_HOSTNAME_LEN, 1, err, len) ||
	    get_str(j, "boot_id", boot_id, CTL_BOOT_ID_LEN, 1, err, len))
		return -EINVAL;
	return 0;
}

/* A method field (read by get_str, so escaped): one of lib/xfer's
 * table, of either direction (-R swaps them). */
static int check_method(const char *k, const char *m, char *err,
			size_t elen)
{
	if (xfer_find(m, XFER_SEND) || xfer_find(m, XFER_RECV))
		return 0;
	snprintf(err, elen, "field \"%s\": \"%s\" is not a transfer method",
		 k, m);
	return -EINVAL;
}

static int get_u64(json_t *j, const char *k, uint64_t *out, int required,
		   char *err, size_t elen)
{
	json_t *v = json_object_get(j, k);

	if (!v && !required) {
		*out = 0;
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (uint64_t)json_integer_value(v) > CTL_MAX_BYTES) {
		snprintf(err, elen, "field \"%s\" missing or out of range", k);
		return -EINVAL;
	}
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* A per-flow array field k of n entries (none: no key), each entry
 * (size bytes apart from base) made by one. */
static void put_per_flow(json_t *j, const char *k, const void *base,
			 size_t size, int n, json_t *(*one)(const void *e))
{
	json_t *a;
	int i;

	if (!n)
		return;
	a = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(a, one((const char *)base + i * size));
	json_object_set_new(j, k, a);
}

static json_t *count_json(const void *e)
{
	return json_integer((json_int_t)*(const uint64_t *)e);
}

/* -P: the per-flow counts as a JSON array. */
static void put_flows(json_t *j, const uint64_t *c, int n)
{
	put_per_flow(j, "flow_counts", c, sizeof(*c), n, count_json);
}

/*
 * An optional per-flow array field k back: 1 to TTCP_FLOWS_MAX entries,
 * each read by one(v, dst, why) into *out (malloc'd, size bytes an
 * entry); *n its length. 0, or -EINVAL with err naming the field and
 * the entry (what: the entries' name).
 */
static int get_per_flow(json_t *j, const char *k, const char *what,
			size_t size,
			int (*one)(json_t *v, void *dst, char *why, size_t len),
			void **out, int *n, char *err, size_t len)
{
	json_t *a = json_object_get(j, k), *v;
	char why[200];
	size_t i;

	*out = NULL;
	*n = 0;
	if (!a)
		return 0;
	if (!json_is_array(a) || !json_array_size(a) ||
	    json_array_size(a) > TTCP_FLOWS_MAX) {
		snprintf(err, len, "field \"%s\" not an array of 1 to %d %s", k,
			 TTCP_FLOWS_MAX, what);
		return -EINVAL;
	}
	*out = calloc(json_array_size(a), size);
	if (!*out)
		return -ENOMEM;
	json_array_foreach(a, i, v) {
		if (one(v, (char *)*out + i * size, why, sizeof(why))) {
			snprintf(err, len, "field \"%s\": flow %zu: %s", k, i + 1,
				 why);
			free(*out);
			*out = NULL;
			return -EINVAL;
		}
	}
	*n = (int)json_array_size(a);
	return 0;
}

/* A flow's count: an integer of at least 0. */
static int one_count(json_t *v, void *dst, char *why, size_t len)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		snprintf(why, len, "not a count");
		return -EINVAL;
	}
	*(uint64_t *)dst = (uint64_t)json_integer_value(v);
	return 0;
}

/* A flow's TCP facts (lib/core/tcpinfo's checks). */
static int one_tcp(json_t *v, void *dst, char *why, size_t len)
{
	return tcpinfo_from_json(v, dst, why, len);
}

/* The per-flow counts back (optional); *out malloc'd. */
static int get_flows(json_t *j, uint64_t **out, int *n, char *err,
		     size_t len)
{
	return get_per_flow(j, "flow_counts", "counts", sizeof(**out),
			    one_count, (void **)out, n, err, len);
}

int ctl_flows_match(const uint64_t *a, int na, const uint64_t *b, int nb,
		    char *why, size_t len)
{
	int i;

	if (na != nb) {
		snprintf(why, len, "%d flows here, %d there", na, nb);
		return 0;
	}
	for (i = 0; i < na; i++)
		if (a[i] != b[i]) {
			snprintf(why, len, "flow %d: %llu here, %llu there",
				 i + 1, (unsigned long long)a[i],
				 (unsigned long long)b[i]);
			return 0;
		}
	return 1;
}

/* --omit's seconds and the sender's own CPU, when there are. */
static void put_quiet(json_t *j, double omit_s, double self_cpu_s)
{
	if (omit_s > 0)
		json_object_set_new(j, "omit_s", json_real(omit_s));
	if (isfinite(self_cpu_s) && self_cpu_s >= 0)
		json_object_set_new(j, "self_cpu_s", json_real(self_cpu_s));
}

/* Field k, a number in [lo, hi] when there (absent: def). */
static int get_num(json_t *j, const char *k, double lo, double hi,
		   double def, double *out, char *err, size_t elen)
{
	json_t *v = json_object_get(j, k);

	*out = def;
	if (!v)
		return 0;
	if (!json_is_number(v) || !(json_number_value(v) >= lo) ||
	    !(json_number_value(v) <= hi)) {
		snprintf(err, elen, "field \"%s\" not a number in %g..%g", k,
			 lo, hi);
		return -EINVAL;
	}
	*out = json_number_value(v);
	return 0;
}

/* The sender's --omit and own CPU (optional). */
static int get_quiet(json_t *j, double *omit_s, double *self_cpu_s,
		     char *err, size_t len)
{
	return get_num(j, "omit_s", 0, 3600, 0, omit_s, err, len) ||
			       get_num(j, "self_cpu_s", 0, 1e7, NAN, self_cpu_s,
				       err, len)
		       ? -EINVAL
		       : 0;
}

void ctl_hello_free(struct ctl_hello *h)
{
	free(h->flow_count);
	h->flow_count = NULL;
}

json_t *ctl_hello_build(const struct ctl_hello *h)
{
	json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:i, s:b}",
			 "type", CTL_HELLO, "method", h->method, "source",
			 h->source, "proto", h->proto, "hostname",
			 h->hostname, "boot_id", h->boot_id, "buflen",
			 (json_int_t)h->buflen, "bytes",
			 (json_int_t)h->bytes, "dgrams",
			 (json_int_t)h->dgrams, "sample", h->sample, "more",
			 h->more);

	if (h->rr_kind) { /* --rr only: older peers never see it */
		json_object_set_new(j, "rr", json_integer(h->rr_kind));
		json_object_set_new(j, "transactions",
				    json_integer((json_int_t)h->trans));
	}
	if (h->dir) { /* -R, --bidir only */
		json_object_set_new(j, "dir", json_integer(h->dir));
		json_object_set_new(j, "rev_bytes",
				    json_integer((json_int_t)h->rev_bytes));
	}
	put_flows(j, h->flow_count, h->nflows);
	if (h->soak >= 0) { /* paired runs only: older peers never see it */
		json_object_set_new(j, "soak", json_boolean(h->soak));
		json_object_set_new(j, "soak_next", json_boolean(h->soak_next));
		json_object_set_new(j, "pair", json_integer(h->pair));
	}
	if (h->rate > 0) { /* --rate only */
		json_object_set_new(j, "rate", json_real(h->rate));
		json_object_set_new(j, "paced_by",
				    json_string(rate_pacer_name(h->paced_by)));
	}
	put_quiet(j, h->omit_s, h->self_cpu_s);
	if (h->decide)
		json_object_set_new(j, "decide", json_true());
	return j;
}

/* An optional boolean: -1 when absent, else 0/1; -EINVAL when another
 * type. */
static int get_tri(json_t *j, const char *k, int *out, char *err,
		   size_t elen)
{
	json_t *v = json_object_get(j, k);

	*out = -1;
	if (!v)
		return 0;
	if (!json_is_boolean(v)) {
		snprintf(err, elen, "field \"%s\" is not a boolean", k);
		return -EINVAL;
	}
	*out = json_is_true(v);
	return 0;
}

/* A frame of the type want: else -EINVAL, err saying not_obj when it is
 * no object, what was wrong with its "type" field, or else not_it. */
static int get_type(json_t *j, const char *want, const char *not_it,
		    const char *not_obj, char *err, size_t len)
{
	char type[32];

	if (!json_is_object(j)) {
		snprintf(err, len, "%s", not_obj);
		return -EINVAL;
	}
	if (get_str(j, "type", type, sizeof(type), 1, err, len) ||
	    strcmp(type, want)) {
		if (!err[0])
			snprintf(err, len, "%s", not_it);
		return -EINVAL;
	}
	return 0;
}

/* "more", the boolean a hello and a next frame must carry: another
 * sample follows. */
static int get_more(json_t *j, int *more, char *err, size_t elen)
{
	json_t *v = json_object_get(j, "more");

	if (!json_is_boolean(v)) {
		snprintf(err, elen, "field \"more\" missing or not a boolean");
		return -EINVAL;
	}
	*more = json_is_true(v);
	return 0;
}

/* The hello's --rate: its target and who paced it, both or neither. */
static int get_hello_rate(json_t *j, struct ctl_hello *h, char *err,
			  size_t len)
{
	char by[16];

	if (get_rate(j, &h->rate, err, len))
		return -EINVAL;
	if (!h->rate)
		return 0;
	if (get_str(j, "paced_by", by, sizeof(by), 1, err, len))
		return -EINVAL;
	h->paced_by = rate_pacer_of(by);
	if (h->paced_by <= PACED_NONE) {
		snprintf(err, len, "field \"paced_by\": \"%s\" is not kernel or ttcp-sf",
			 by);
		return -EINVAL;
	}
	return 0;
}

int ctl_hello_parse(json_t *j, struct ctl_hello *h, char *err, size_t len)
{
	uint64_t v;

	memset(h, 0, sizeof(*h));
	if (get_type(j, CTL_HELLO, "not a ttcp-sf hello",
		     "hello is not an object", err, len) ||
	    get_str(j, "method", h->method, sizeof(h->method), 1, err, len) ||
	    check_method("method", h->method, err, len) ||
	    get_str(j, "source", h->source, sizeof(h->source), 1, err, len) ||
	    get_str(j, "proto", h->proto, sizeof(h->proto), 1, err, len) ||
	    get_box(j, h->hostname, h->boot_id, err, len) ||
	    get_u64(j, "buflen", &h->buflen, 1, err, len) ||
	    get_u64(j, "bytes", &h->bytes, 1, err, len) ||
	    get_u64(j, "dgrams", &h->dgrams, 0, err, len) ||
	    get_u64(j, "sample", &v, 1, err, len))
		return -EINVAL;
	if (v >= TTCP_MAX_SAMPLES) {
		snprintf(err, len, "sample %llu beyond %d",
			 (unsigned long long)v, TTCP_MAX_SAMPLES);
		return -EINVAL;
	}
	h->sample = (int)v;
	if (get_more(j, &h->more, err, len) ||
	    get_tri(j, "soak", &h->soak, err, len) ||
	    get_tri(j, "soak_next", &h->soak_next, err, len) ||
	    get_u64(j, "rr", &v, 0, err, len) ||
	    get_u64(j, "transactions", &h->trans, 0, err, len) ||
	    get_u64(j, "rev_bytes", &h->rev_bytes, 0, err, len))
		return -EINVAL;
	if (v > 5) {
		snprintf(err, len, "field \"rr\" out of range");
		return -EINVAL;
	}
	h->rr_kind = (int)v;
	if (get_u64(j, "dir", &v, 0, err, len))
		return -EINVAL;
	if (v > 2) {
		snprintf(err, len, "field \"dir\" out of range");
		return -EINVAL;
	}
	h->dir = (int)v;
	if (get_hello_rate(j, h, err, len))
		return -EINVAL;
	if (get_tri(j, "decide", &h->decide, err, len) ||
	    get_quiet(j, &h->omit_s, &h->self_cpu_s, err, len) ||
	    get_u64(j, "pair", &v, 0, err, len))
		return -EINVAL;
	h->decide = h->decide == 1;
	h->pair = json_object_get(j, "pair") ? (int)v : h->sample / 2;
	if (h->pair > h->sample) {
		snprintf(err, len, "field \"pair\" beyond the sample");
		return -EINVAL;
	}
	return get_flows(j, &h->flow_count, &h->nflows, err, len) ? -EINVAL :
								    0;
}

static json_t *tcp_json(const void *e)
{
	return tcpinfo_json(e);
}

/* The flows' TCP facts as a JSON array (none: no key). */
static void put_tcp(json_t *j, const struct tcpinfo *t, int n)
{
	put_per_flow(j, "tcp", t, sizeof(*t), n, tcp_json);
}

/* And back (optional), each reading checked; *out malloc'd. */
static int get_tcp(json_t *j, struct tcpinfo **out, int *n, char *err,
		   size_t len)
{
	return get_per_flow(j, "tcp", "readings", sizeof(**out), one_tcp,
			    (void **)out, n, err, len);
}

json_t *ctl_report_build(const struct ctl_report *r,
			 const struct cpu_sample *cpu, int n)
{
	json_t *j = cpujson_report(cpu, n);

	json_object_set_new(j, "type", json_string(CTL_REPORT));
	json_object_set_new(j, "recv_method", json_string(r->recv_method));
	json_object_set_new(j, "hostname", json_string(r->hostname));
	json_object_set_new(j, "boot_id", json_string(r->boot_id));
	json_object_set_new(j, "bytes", json_integer((json_int_t)r->bytes));
	json_object_set_new(j, "calls", json_integer((json_int_t)r->calls));
	json_object_set_new(j, "bad_bytes",
			    json_integer((json_int_t)r->bad_bytes));
	json_object_set_new(j, "verified", json_boolean(r->verified));
	json_object_set_new(j, "elapsed_s", json_real(r->elapsed_s));
	json_object_set_new(j, "dgrams", json_integer((json_int_t)r->dgrams));
	json_object_set_new(j, "lost", r->lost >= 0 ?
				       json_integer((json_int_t)r->lost) :
				       json_null());
	json_object_set_new(j, "transactions",
			    json_integer((json_int_t)r->trans));
	json_object_set_new(j, "rr_lost", json_integer((json_int_t)r->rr_lost));
	json_object_set_new(j, "rev_bytes",
			    json_integer((json_int_t)r->rev_bytes));
	json_object_set_new(j, "rev_elapsed_s", json_real(r->rev_elapsed_s));
	put_flows(j, r->flow_count, r->nflows);
	put_tcp(j, r->tcp, r->ntcp);
	json_object_set_new(j, "zc_copied_pct",
			    isfinite(r->zc_copied_pct) ?
				    json_real(r->zc_copied_pct) :
				    json_null());
	put_quiet(j, r->omit_s, r->self_cpu_s);
	if (r->omit_s > 0)
		json_object_set_new(j, "omit_bytes",
				    json_integer((json_int_t)r->omit_bytes));
	return j;
}

int ctl_report_parse(json_t *j, struct ctl_report *r, char *err, size_t len)
{
	json_t *v;
	int n;

	memset(r, 0, sizeof(*r));
	r->lost = -1;
	r->zc_copied_pct = NAN;
	if (get_type(j, CTL_REPORT, "not a ttcp-sf report",
		     "not a ttcp-sf report", err, len) ||
	    get_str(j, "recv_method", r->recv_method,
		    sizeof(r->recv_method), 1, err, len) ||
	    check_method("recv_method", r->recv_method, err, len) ||
	    get_box(j, r->hostname, r->boot_id, err, len) ||
	    get_u64(j, "bytes", &r->bytes, 1, err, len) ||
	    get_u64(j, "calls", &r->calls, 1, err, len) ||
	    get_u64(j, "bad_bytes", &r->bad_bytes, 1, err, len) ||
	    get_u64(j, "dgrams", &r->dgrams, 0, err, len) ||
	    get_u64(j, "transactions", &r->trans, 0, err, len) ||
	    get_u64(j, "rr_lost", &r->rr_lost, 0, err, len) ||
	    get_u64(j, "rev_bytes", &r->rev_bytes, 0, err, len))
		return -EINVAL;
	v = json_object_get(j, "rev_elapsed_s");
	r->rev_elapsed_s = json_is_number(v) ? json_number_value(v) : 0;
	if (!(r->rev_elapsed_s >= 0 && r->rev_elapsed_s < 1e7)) {
		snprintf(err, len, "field \"rev_elapsed_s\" out of range");
		return -EINVAL;
	}
	r->verified = json_is_true(json_object_get(j, "verified"));
	v = json_object_get(j, "elapsed_s");
	r->elapsed_s = json_is_number(v) ? json_number_value(v) : -1;
	if (!(r->elapsed_s >= 0 && r->elapsed_s < 1e7)) {
		snprintf(err, len, "field \"elapsed_s\" missing or out of range");
		return -EINVAL;
	}
	v = json_object_get(j, "lost");
	if (json_is_integer(v) && json_integer_value(v) >= 0)
		r->lost = json_integer_value(v);
	v = json_object_get(j, "zc_copied_pct");
	if (json_is_number(v) && json_number_value(v) >= 0 &&
	    json_number_value(v) <= 100)
		r->zc_copied_pct = json_number_value(v);
	n = cpujson_from_report(j, r->cpu, METER_MAX, err, len);
	if (n < 0)
		return n;
	r->ncpu = n;
	v = json_object_get(j, "host");
	if (!json_is_object(v)) {
		snprintf(err, len, "field \"host\" missing");
		return -EINVAL;
	}
	if (get_quiet(j, &r->omit_s, &r->self_cpu_s, err, len) ||
	    get_u64(j, "omit_bytes", &r->omit_bytes, 0, err, len))
		return -EINVAL;
	if (r->omit_bytes > r->bytes) {
		snprintf(err, len, "field \"omit_bytes\" beyond \"bytes\"");
		return -EINVAL;
	}
	if (get_flows(j, &r->flow_count, &r->nflows, err, len) ||
	    get_tcp(j, &r->tcp, &r->ntcp, err, len))
		return -EINVAL;
	r->host = json_incref(v);
	return 0;
}

json_t *ctl_next_build(const struct ctl_next *n)
{
	json_t *j = json_pack("{s:s, s:b, s:b}", "type", CTL_NEXT, "more",
			      n->more, "rerun", n->rerun);

	if (n->soak_next >= 0)
		json_object_set_new(j, "soak_next", json_boolean(n->soak_next));
	if (n->rerun) {
		json_object_set_new(j, "steal_pct", json_real(n->steal_pct));
		json_object_set_new(j, "outside_pct",
				    isfinite(n->outside_pct)
					    ? json_real(n->outside_pct)
					    : json_null());
		json_object_set_new(j, "steal_max", json_real(n->steal_max));
		json_object_set_new(j, "outside_max",
				    json_real(n->outside_max));
	}
	return j;
}

int ctl_next_parse(json_t *j, struct ctl_next *n, char *err, size_t len)
{
	memset(n, 0, sizeof(*n));
	n->outside_pct = NAN;
	if (get_type(j, CTL_NEXT, "not a ttcp-sf next frame",
		     "not a ttcp-sf next frame", err, len) ||
	    get_more(j, &n->more, err, len) ||
	    get_tri(j, "soak_next", &n->soak_next, err, len) ||
	    get_tri(j, "rerun", &n->rerun, err, len))
		return -EINVAL;
	n->rerun = n->rerun == 1;
	if (get_num(j, "steal_pct", 0, 100.5, 0, &n->steal_pct, err, len) ||
	    (!json_is_null(json_object_get(j, "outside_pct")) &&
	     get_num(j, "outside_pct", 0, 100.5, NAN, &n->outside_pct, err,
		     len)) ||
	    get_num(j, "steal_max", 0, 100, 0, &n->steal_max, err, len) ||
	    get_num(j, "outside_max", 0, 100, 0, &n->outside_max, err, len))
		return -EINVAL;
	return 0;
}

void ctl_report_free(struct ctl_report *r)
{
	json_decref(r->host);
	r->host = NULL;
	free(r->flow_count);
	r->flow_count = NULL;
	free(r->tcp);
	r->tcp = NULL;
	r->ntcp = 0;
}
