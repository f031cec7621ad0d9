/*
 * conn.c: one zcs connection: header words read with plain read(2) and
 * fed to the lib/wire/zcwire decoder, file bytes consumed by the receive
 * method, the answer to our clients' hello and their CPU report. The
 * socket is non-blocking; both the event loop and a --fork child drive
 * conn_service() when it is readable.
 */
#include "config.h"
#include "cpujson.h"
#include "conn.h"

#include "clock.h"
#include "log.h"
#include "peerrep.h"
#include "sock.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CONN_BUDGET   64   /* reads per call before yielding */
#define CONN_WRITE_MS 5000 /* longest wait to write an answer */

struct conn {
	int fd; /* the client's socket (owned) */
	const struct cfg *cfg;
	struct slot *slot;  /* figures (maybe shared with the parent) */
	struct zcw_dec dec; /* where in the stream we are */
	struct xfer *x;	    /* the receive method on fd */
	double t_last;	    /* monotonic time of the last byte */
	int told;	    /* CS_HELLO was returned for the hello */
	double t_accept;    /* when the connection came */
	int hdr_done;	    /* the first file header is complete */
	double win_t0;	    /* start of the --min-rate period */
	uint64_t win_bytes; /* bytes received before it */
	int answered;	    /* the hello has been answered */
	int asks_cpu;	    /* 1: a CPU report is owed at the end */
	struct zcw_run run; /* the run the hello announced */
};

struct conn *conn_new(const struct cfg *cfg, int fd, struct slot *s, char *err,
		      size_t len)
{
	struct conn *c = calloc(1, sizeof(*c));

	if (!c)
		abort();
	c->fd = fd;
	c->cfg = cfg;
	c->slot = s;
	c->t_last = clock_now();
	c->t_accept = c->win_t0 = c->t_last;
	zcw_dec_init(&c->dec, &cfg->lim, 1);
	sock_set_nonblock(fd, 1);
	if (cfg->com.rcvbuf || cfg->com.sndbuf)
		sock_set_bufs(fd, cfg->com.sndbuf, cfg->com.rcvbuf);
	c->x = xfer_open(cfg->ops, fd, NULL, cfg->unit, err, len);
	if (!c->x) {
		free(c);
		return NULL;
	}
	return c;
}

int conn_fd(const struct conn *c)
{
	return c->fd;
}

int conn_asks_cpu(const struct conn *c)
{
	return c->asks_cpu;
}

int conn_wants_cpu(const struct conn *c)
{
	return c->dec.hello && (c->dec.flags & ZCW_F_CPU);
}

const struct zcw_run *conn_run(const struct conn *c)
{
	return &c->run;
}

double conn_last(const struct conn *c)
{
	return c->t_last;
}

void conn_free(struct conn *c)
{
	if (!c)
		return;
	xfer_close(c->x);
	close(c->fd);
	free(c);
}

/* Copy the decoder's counts to the slot the parent reads. */
static void publish(struct conn *c)
{
	struct slot *s = c->slot;

	__atomic_store_n(&s->payload, c->dec.payload_bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&s->header, c->dec.header_bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&s->files, c->dec.files_done, __ATOMIC_RELAXED);
	s->loops = c->dec.nloops;
	s->hello = c->dec.hello;
}

static enum conn_step fail(struct conn *c, int result, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum conn_step fail(struct conn *c, int result, const char *fmt, ...)
{
	va_list ap;

	publish(c);
	c->slot->result = result;
	va_start(ap, fmt);
	vsnprintf(c->slot->err, sizeof(c->slot->err), fmt, ap);
	va_end(ap);
	return CS_FAIL;
}

/* "file 3 of loop 2" for messages about where a stream broke. */
static const char *where(const struct conn *c, char *buf, size_t len)
{
	const struct zcw_dec *d = &c->dec;

	if (d->state == ZCW_S_NLOOPS || d->state == ZCW_S_HELLO)
		snprintf(buf, len, "before the first loop");
	else if (d->state == ZCW_S_NFILES)
		snprintf(buf, len, "at loop %u of %u", d->loop + 1, d->nloops);
	else
		snprintf(buf, len, "at file %u of %u, loop %u of %u",
			 d->file + 1, d->nfiles, d->loop + 1, d->nloops);
	return buf;
}

static enum conn_step closed_early(struct conn *c)
{
	char w[96];

	if (c->dec.state == ZCW_S_PAYLOAD)
		return fail(
			c, CR_SHORT,
			"closed in the middle of a file (%u of %u bytes, %s)",
			c->dec.flen - c->dec.left, c->dec.flen,
			where(c, w, sizeof(w)));
	if (!c->dec.header_bytes)
		return fail(c, CR_SHORT, "closed before sending anything");
	return fail(c, CR_SHORT, "closed while the %s was due (%s)",
		    zcw_dec_phase(&c->dec), where(c, w, sizeof(w)));
}

/* Answer a hello: the same three words with what we grant, then a
 * peerrep frame that says who we are. */
enum conn_step conn_answer(struct conn *c, int cpu, int soak)
{
	uint8_t b[ZCW_HELLO_LEN];
	uint32_t grant = c->dec.flags & ZCW_F_KNOWN;
	json_t *about;
	int r;

	if (!cpu)
		grant &= ~ZCW_F_CPU;
	if ((grant & ZCW_F_RUN) && soak)
		grant |= ZCW_F_SOAK; /* the client's runs go in pairs */
	zcw_hello_encode(b, grant);
	c->answered = 1;
	if (sock_write_full(c->fd, b, sizeof(b), CONN_WRITE_MS) !=
	    (ssize_t)sizeof(b))
		return fail(c, CR_ERROR, "cannot answer the hello");
	about = zcs_about(c->cfg);
	r = peerrep_send(c->fd, about, CONN_WRITE_MS);
	json_decref(about);
	if (r)
		return fail(c, CR_ERROR, "cannot answer the hello: %s",
			    strerror(-r));
	c->asks_cpu = !!(grant & ZCW_F_CPU);
	publish(c);
	return CS_HELLO;
}

/* Header words: read no more than the decoder needs, so file bytes are
 * left to the receive method. 1 progress, 0 would block, or a step. */
static int read_header(struct conn *c, enum conn_step *step)
{
	uint8_t b[8];
	size_t need = zcw_dec_need(&c->dec);
	ssize_t n;

	n = read(c->fd, b, need);
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		*step = fail(c, CR_ERROR, "read: %s", strerror(errno));
		return -1;
	}
	if (n == 0) {
		*step = closed_early(c);
		return -1;
	}
	if (zcw_dec_header(&c->dec, b, (size_t)n) < 0) {
		*step = fail(c, CR_REFUSED, "%s", c->dec.err);
		return -1;
	}
	return 1;
}

static int read_payload(struct conn *c, enum conn_step *step)
{
	uint32_t want = zcw_dec_want(&c->dec);
	ssize_t n;

	n = c->x->ops->recv(c->x, want < c->cfg->unit ? want : c->cfg->unit);
	/* a non-blocking socket with nothing to read: the methods report
	 * EAGAIN as a timeout (they never wait on their own here) */
	if (n == -EAGAIN || n == -ETIMEDOUT || n == -EINTR)
		return 0;
	if (n < 0) {
		*step = fail(c, CR_ERROR, "%s", c->x->err);
		return -1;
	}
	if (n == 0) {
		*step = closed_early(c);
		return -1;
	}
	if ((size_t)n > want) { /* a method that took more than asked */
		*step = fail(c, CR_ERROR, "%s consumed %zd bytes, %u asked",
			     c->x->ops->name, n, want);
		return -1;
	}
	zcw_dec_payload(&c->dec, (uint32_t)n);
	return 1;
}

enum conn_step conn_service(struct conn *c)
{
	enum conn_step step = CS_MORE;
	int i, r = 0;

	for (i = 0; i < CONN_BUDGET; i++) {
		if (zcw_dec_done(&c->dec))
			break;
		if (zcw_dec_want(&c->dec))
			r = read_payload(c, &step);
		else
			r = read_header(c, &step);
		if (r < 0)
			return step;
		if (r == 0)
			break;
		c->t_last = clock_now();
		if (!c->hdr_done &&
		    (zcw_dec_want(&c->dec) || c->dec.files_done ||
		     zcw_dec_done(&c->dec)))
			c->hdr_done = 1;
		if (c->dec.hello && !c->told) {
			/* the caller parks soakers first, then answers */
			c->told = 1;
			zcw_run_parse(c->dec.flags, &c->run);
			publish(c);
			return CS_HELLO;
		}
	}
	publish(c);
	if (zcw_dec_done(&c->dec)) {
		c->slot->result = CR_OK;
		return CS_DONE;
	}
	return CS_MORE;
}

enum conn_step conn_check(struct conn *c, double now)
{
	const struct cfg *cfg = c->cfg;
	uint64_t got = c->dec.payload_bytes + c->dec.header_bytes;
	double period = cfg->idle_timeout > 1 ? cfg->idle_timeout : 1;
	char w[96];

	if (now - c->t_last > cfg->idle_timeout)
		return fail(c, CR_TIMEOUT,
			    "no byte for %.0f s (--idle-timeout)",
			    now - c->t_last);
	if (cfg->header_timeout > 0 && !c->hdr_done &&
	    now - c->t_accept > cfg->header_timeout)
		return fail(
			c, CR_TIMEOUT,
			"%llu header bytes in %.0f s, %s (--header-timeout)",
			(unsigned long long)c->dec.header_bytes,
			now - c->t_accept, where(c, w, sizeof(w)));
	if (now - c->win_t0 < period)
		return CS_MORE;
	if (cfg->min_rate > 0 &&
	    (double)(got - c->win_bytes) < cfg->min_rate * (now - c->win_t0))
		return fail(
			c, CR_TIMEOUT,
			"%llu bytes in %.0f s, below --min-rate %.0f bytes/s",
			(unsigned long long)(got - c->win_bytes),
			now - c->win_t0, cfg->min_rate);
	c->win_t0 = now;
	c->win_bytes = got;
	return CS_MORE;
}

int conn_send_report(struct conn *c, const struct cpu_sample *s, int n,
		     double window_s, int nconns, double cpu_s)
{
	json_t *rep = cpujson_report(s, n);
	int r;

	json_object_set_new(
		rep, "zcs",
		json_pack("{s:I, s:I, s:I, s:f, s:i, s:s}", "payload_bytes",
			  (json_int_t)c->dec.payload_bytes, "header_bytes",
			  (json_int_t)c->dec.header_bytes, "files",
			  (json_int_t)c->dec.files_done, "window_s", window_s,
			  "connections", nconns, "recv_method",
			  c->x->ops->name));
	if (cpu_s >= 0)
		json_object_set_new(json_object_get(rep, "zcs"), "self_cpu_s",
				    json_real(cpu_s));
	r = peerrep_send(c->fd, rep, CONN_WRITE_MS);
	json_decref(rep);
	if (!r)
		c->slot->cpu_sent = 1;
	return r;
}
