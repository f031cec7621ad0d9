/*
 * ctl.c: the end-of-run exchange of ttcp-sf. After the data connection is
 * done, the transmitter connects again to the receiver's port and sends a
 * hello (its method, bytes sent, host and boot id); the receiver answers
 * with its report (CPU samples, bytes seen, pattern check). Both travel
 * as lib/wire/peerrep frames; this file reads them whole within one
 * deadline, and builds and checks the JSON inside. Every field from the
 * wire is checked for type and range before use; every string is
 * escaped (lib/core/esc) as it is read, and a method must be one of
 * lib/xfer's, so no printer shows a peer's bytes raw.
 */
#include "config.h"
#include "clock.h"
#include "cpujson.h"
#include "esc.h"
#include "ttcp.h"
#include "hostinfo.h"
#include "peerrep.h"
#include "sig.h"
#include "sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CTL_HELLO "ttcp-sf-hello/1"
#define CTL_REPORT "ttcp-sf-report/1"
#define CTL_MAX_BYTES (1ull << 62)	/* any count beyond this is a lie */
#define CTL_MAX_FLOWS 1024		/* -P at most (flows.h) */

void ctl_self(char *host, size_t hlen, char *boot, size_t blen)
{
	if (gethostname(host, hlen))
		snprintf(host, hlen, "?");
	host[hlen - 1] = '\0';
	if (host_read_file("", "/proc/sys/kernel/random/boot_id", boot,
			   blen) < 0)
		snprintf(boot, blen, "?");
}

/* Read into b[*have, want) until whole, EOF or the deadline: 0 whole,
 * -ETIMEDOUT, -EPIPE (closed), -EINTR (a signal), or -errno. */
static int read_until(int fd, uint8_t *b, size_t *have, size_t want,
		      double deadline)
{
	ssize_t n;
	int left;

	while (*have < want) {
		left = (int)((deadline - clock_now()) * 1000);
		if (left <= 0 || sock_wait(fd, POLLIN, left) == 0)
			return -ETIMEDOUT;
		n = read(fd, b + *have, want - *have);
		if (n == 0)
			return -EPIPE;
		if (n < 0 && errno == EINTR && !sig_stop)
			continue;
		if (n < 0)
			return -errno;
		*have += (size_t)n;
	}
	return 0;
}

int ctl_recv_frame(int fd, int ms, json_t **out, size_t *got, char *err,
		   size_t len)
{
	double deadline = clock_now() + ms / 1000.0;
	uint8_t hdr[PEERREP_HDR], *b = hdr;
	size_t used, want = PEERREP_HDR;
	uint32_t be;
	int r, d;

	*got = 0;
	*out = NULL;
	r = read_until(fd, hdr, got, want, deadline);
	if (!r) {
		d = peerrep_decode(hdr, want, &used, out, err, len);
		if (d < 0)
			return d;
		memcpy(&be, hdr + 4, 4);
		want += ntohl(be);
		b = malloc(want);
		if (!b)
			abort();
		memcpy(b, hdr, PEERREP_HDR);
		r = read_until(fd, b, got, want, deadline);
	}
	if (!r && peerrep_decode(b, want, &used, out, err, len) != 1)
		r = -EINVAL;
	else if (r && !*got)
		snprintf(err, len, "%s", r == -ETIMEDOUT ? "nothing came" :
					 r == -EPIPE	 ? "closed at once" :
							   strerror(-r));
	else if (r)
		snprintf(err, len, "%s mid-frame after %zu of %zu bytes",
			 r == -ETIMEDOUT ? "stalled" :
			 r == -EPIPE	 ? "closed" :
					   strerror(-r),
			 *got, want);
	if (r == -ETIMEDOUT)
		snprintf(err + strlen(err), len - strlen(err),
			 " within %d ms", ms);
	if (b != hdr)
		free(b);
	return r;
}

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

/* -P: the per-flow counts as a JSON array. */
static void put_flows(json_t *j, const uint64_t *c, int n)
{
	json_t *a;
	int i;

	if (!n)
		return;
	a = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)c[i]));
	json_object_set_new(j, "flow_counts", a);
}

/* The per-flow counts back (optional); *out malloc'd. */
static int get_flows(json_t *j, uint64_t **out, int *n, char *err,
		     size_t len)
{
	json_t *a = json_object_get(j, "flow_counts"), *v;
	size_t i;

	*out = NULL;
	*n = 0;
	if (!a)
		return 0;
	if (!json_is_array(a) || !json_array_size(a) ||
	    json_array_size(a) > CTL_MAX_FLOWS) {
		snprintf(err, len, "field \"flow_counts\" not an array of 1 to %d counts",
			 CTL_MAX_FLOWS);
		return -EINVAL;
	}
	*out = calloc(json_array_size(a), sizeof(uint64_t));
	if (!*out)
		return -ENOMEM;
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0) {
			snprintf(err, len, "field \"flow_counts\": entry %zu is not a count",
				 i);
			free(*out);
			*out = NULL;
			return -EINVAL;
		}
		(*out)[i] = (uint64_t)json_integer_value(v);
	}
	*n = (int)json_array_size(a);
	return 0;
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
	}
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

int ctl_hello_parse(json_t *j, struct ctl_hello *h, char *err, size_t len)
{
	char type[32];
	uint64_t v;
	json_t *m;

	memset(h, 0, sizeof(*h));
	if (!json_is_object(j) ||
	    get_str(j, "type", type, sizeof(type), 1, err, len) ||
	    strcmp(type, CTL_HELLO)) {
		if (json_is_object(j) && !err[0])
			snprintf(err, len, "not a ttcp-sf hello");
		else if (!json_is_object(j))
			snprintf(err, len, "hello is not an object");
		return -EINVAL;
	}
	if (get_str(j, "method", h->method, sizeof(h->method), 1, err, len) ||
	    check_method("method", h->method, err, len) ||
	    get_str(j, "source", h->source, sizeof(h->source), 1, err, len) ||
	    get_str(j, "proto", h->proto, sizeof(h->proto), 1, err, len) ||
	    get_str(j, "hostname", h->hostname, sizeof(h->hostname), 1, err,
		    len) ||
	    get_str(j, "boot_id", h->boot_id, sizeof(h->boot_id), 1, err,
		    len) ||
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
	m = json_object_get(j, "more");
	if (!json_is_boolean(m)) {
		snprintf(err, len, "field \"more\" missing or not a boolean");
		return -EINVAL;
	}
	h->more = json_is_true(m);
	if (get_tri(j, "soak", &h->soak, err, len) ||
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
	return get_flows(j, &h->flow_count, &h->nflows, err, len) ? -EINVAL :
								    0;
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
	json_object_set_new(j, "zc_copied_pct",
			    isfinite(r->zc_copied_pct) ?
				    json_real(r->zc_copied_pct) :
				    json_null());
	return j;
}

int ctl_report_parse(json_t *j, struct ctl_report *r, char *err, size_t len)
{
	char type[32];
	json_t *v;
	int n;

	memset(r, 0, sizeof(*r));
	r->lost = -1;
	r->zc_copied_pct = NAN;
	if (!json_is_object(j) ||
	    get_str(j, "type", type, sizeof(type), 1, err, len) ||
	    strcmp(type, CTL_REPORT)) {
		if (!err[0] || !json_is_object(j))
			snprintf(err, len, "not a ttcp-sf report");
		return -EINVAL;
	}
	if (get_str(j, "recv_method", r->recv_method,
		    sizeof(r->recv_method), 1, err, len) ||
	    check_method("recv_method", r->recv_method, err, len) ||
	    get_str(j, "hostname", r->hostname, sizeof(r->hostname), 1, err,
		    len) ||
	    get_str(j, "boot_id", r->boot_id, sizeof(r->boot_id), 1, err,
		    len) ||
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
	if (get_flows(j, &r->flow_count, &r->nflows, err, len))
		return -EINVAL;
	r->host = json_incref(v);
	return 0;
}

void ctl_report_free(struct ctl_report *r)
{
	json_decref(r->host);
	r->host = NULL;
	free(r->flow_count);
	r->flow_count = NULL;
}
