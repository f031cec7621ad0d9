/*
 * flows_side.c: -P on both sides (flows.h): the transmitter connects N
 * flows (each opened with its setup frame naming the count and its
 * index), the receiver accepts the rest of them once the first came, and
 * both run the epoll engine (flows.c); then the per-flow counts, their
 * sum and Jain's fairness index, printed and stored.
 */
#include "config.h"
#include "clock.h"
#include "dir.h"
#include "flows.h"
#include "hist.h"
#include "ival.h"
#include "log.h"
#include "rate.h"
#include "tcp.h"
#include "rcv.h"
#include "rr.h"
#include "sig.h"
#include "xmit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define FLOW_LINES 16 /* more flows: min, median, max instead */

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p)
		die("out of memory (-P)");
	return p;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double flows_jain(const double *x, int n)
{
	double sum = 0, sq = 0;
	int i;

	for (i = 0; i < n; i++) {
		sum += x[i];
		sq += x[i] * x[i];
	}
	return sq > 0 ? sum * sum / (n * sq) : NAN;
}

/* The sample's figures from a finished run. */
static void fill(const struct flows *fs, struct sample *s)
{
	struct rr_part *rp = rr_of(s);
	struct flows_part *fp;
	double end = fs->t0, t0 = 0;
	int i;

	for (i = 0; i < fs->n; i++) /* receiving: from the first byte */
		if (fs->f[i].start > 0 && (!t0 || fs->f[i].start < t0))
			t0 = fs->f[i].start;
	if (!t0)
		t0 = fs->t0;

	fp = sample_add(s, &flows_part);
	fp->n = fs->n;
	fp->count = xcalloc((size_t)fs->n, sizeof(uint64_t));
	fp->secs = xcalloc((size_t)fs->n, sizeof(double));
	for (i = 0; i < fs->n; i++) {
		const struct flow *f = &fs->f[i];
		int rr = fs->kind == FL_RR || fs->kind == FL_RRS;

		fp->count[i] = rr ? f->trans : f->bytes;
		fp->secs[i] = f->end - (f->start > 0 ? f->start : fs->t0);
		s->bytes += rr ? f->trans * fs->req : f->bytes;
		if (rp)
			rp->trans += f->trans;
		s->calls += f->x ? f->x->calls : f->trans;
		if (f->end > end)
			end = f->end;
		if (f->x && f->x->verify) {
			s->bad_bytes += f->x->bad_bytes;
			s->verified = !!(f->x->ops->flags & XFER_SEES_BYTES);
		}
	}
	s->elapsed_s = end - t0;
	s->zc_copied_pct = NAN;
	s->lost = -1;
}

/* flows.c: flow i of the sample is done: its last TCP facts. */
static void flow_closing(void *arg, int i)
{
	tcp_done(arg, i);
}

/* The run; rate: the bytes/s its senders are held at (0: unpaced). */
static void run(struct flows *fs, struct cpuwin *w, struct sample *s,
		const char *who, double rate)
{
	int *fds = xcalloc((size_t)fs->n, sizeof(int)), r, i;
	struct pace_keep pk;
	char err[512];

	for (i = 0; i < fs->n; i++)
		fds[i] = fs->f[i].fd;
	cpuwin_start(w, NULL, 0);
	if (fs->deadline_ns)
		fs->deadline_ns += clock_ns();
	if (fs->hard_ns)
		fs->hard_ns += clock_ns();
	tcp_watch(s, fds, fs->n);
	fs->closing = flow_closing;
	fs->closing_arg = s;
	ival_watch(ttcp_iv, &fs->progress);
	rate_keep(&pk, fs->kind == FL_TX ? rate : 0, fds, fs->n,
		  &fs->progress);
	r = flows_run(fs, err, sizeof(err));
	rate_keep_stop(&pk);
	free(fds);
	ival_watch(ttcp_iv, NULL);
	if (r)
		die("%s: %s", who, err);
	cpuwin_stop(w, &s->cpu, NULL, 0);
	fill(fs, s);
}

/*
 * Copy methods read the source into its buffer before each send: with
 * --threads, each thread gets a copy of the source with a buffer of its
 * own (the file and its map are shared, read only).
 */
static struct xfer_source *thread_sources(const struct cfg *c,
					  struct xfer_source *src)
{
	struct xfer_source *v = xcalloc((size_t)c->threads, sizeof(*v));
	void *p;
	int k;

	for (k = 0; k < c->threads; k++) {
		v[k] = *src;
		if (src->hot || k == 0)
			continue;
		if (posix_memalign(&p, 4096, src->buflen + src->offset))
			die("out of memory (--threads %d)", c->threads);
		v[k].buf = (char *)p + src->offset;
	}
	return v;
}

static void thread_sources_free(const struct cfg *c, struct xfer_source *v)
{
	int k;

	for (k = 1; k < c->threads; k++)
		if (!v[k].hot)
			free(v[k].buf - v[k].offset);
	free(v);
}

/* -t: a flow's method: the send method from src, or with -R (src
 * NULL) the receive method, checking the pattern with -V. */
static struct xfer *open_x(const struct cfg *c, int fd, struct xfer_source *src)
{
	char err[512];
	struct xfer *x =
		xfer_open(c->ops, fd, src, c->buflen, err, sizeof(err));

	if (!x)
		die("%s", err);
	x->timeout_ms = c->timeout_ms;
	x->verify = !src && c->verify;
	x->touch = c->touch;
	return x;
}

/* -t -P: N connections, each with its setup, then the run. */
static void flows_xmit(struct xmit *t, struct sample *s)
{
	const struct cfg *c = t->c;
	struct cpuwin *w = &t->w;
	struct xfer_source *src = &t->src;
	struct xfer_source *srcs =
		c->rr || c->reverse ? NULL : thread_sources(c, src);
	struct flows fs = {.kind = c->rr	? FL_RR
				   : c->reverse ? FL_RX
						: FL_TX,
			   .n = c->flows,
			   .threads = c->threads,
			   .timeout_ms = c->timeout_ms,
			   .unit = c->buflen,
			   .req = c->rr_req,
			   .resp = c->rr_resp};
	unsigned char b[RR_SETUP];
	char who[300];
	int i;

	snprintf(who, sizeof(who), "receiver %s:%d", c->host, c->port);
	fs.f = xcalloc((size_t)fs.n, sizeof(*fs.f));
	for (i = 0; i < fs.n; i++) {
		struct rr_setup su = {.kind = RR_TCP,
				      .req = c->rr_req,
				      .resp = c->rr_resp,
				      .flows = (uint16_t)fs.n,
				      .flow = (uint16_t)i};

		fs.f[i].fd = ttcp_connect(c, SOCK_STREAM);
		if (!c->rr) {
			if (!c->reverse) /* -R: the receiver paces */
				rate_pace_sock("t", fs.f[i].fd, c->rate,
					       c->rate_per_flow, fs.n);
			dir_send_setup(c, fs.f[i].fd, i);
			fs.f[i].x = open_x(c, fs.f[i].fd,
					   srcs ? &srcs[i % fs.threads] : NULL);
			continue;
		}
		rr_setup_put(b, &su);
		if (rr_write_full(fs.f[i].fd, b, RR_SETUP) != RR_SETUP)
			die("%s (phase: setup of flow %d): could not send it",
			    who, i + 1);
	}
	fs.want = c->duration > 0 ? 0
		  : c->rr	  ? (uint64_t)c->nbuf
				  : (uint64_t)c->buflen * c->nbuf;
	fs.deadline_ns = c->reverse ? 0 : (uint64_t)(c->duration * 1e9);
	if (c->duration > 0) /* what the receiver may keep us */
		fs.hard_ns = (uint64_t)((c->duration + ttcp_grace(c)) * 1e9);
	if (c->reverse)
		dir_add(s, 1);
	if (c->rr)
		fs.lat = rr_add(s, RR_TCP, c->rr_req, c->rr_resp, 1)->lat;
	run(&fs, w, s, who,
	    rate_sample_target(c->rate, c->rate_per_flow, c->flows));
	for (i = 0; i < fs.n; i++)
		if (fs.f[i].x)
			xfer_close(fs.f[i].x);
	free(fs.f);
	if (s->verified)
		fprintf(ttcp_out,
			"ttcp-t: pattern check: %llu of %llu bytes wrong\n",
			(unsigned long long)s->bad_bytes,
			(unsigned long long)s->bytes);
	if (s->bad_bytes)
		die("%s sent %llu bytes not matching the pattern", who,
		    (unsigned long long)s->bad_bytes);
	if (srcs)
		thread_sources_free(c, srcs);
}

void flows_raise_fds(int n)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)n + 64;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < need) {
		rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
		setrlimit(RLIMIT_NOFILE, &rl); /* else accept says EMFILE */
	}
}

int *flows_accept(struct rcv *r, int fd, const struct dir_setup *st)
{
	int *fds = xcalloc((size_t)st->flows, sizeof(int)), i, got = 1, d;
	struct dir_setup o;
	struct rcv_wait w;
	char why[300];

	flows_raise_fds(st->flows);
	for (i = 0; i < st->flows; i++)
		fds[i] = -1;
	fds[st->flow] = fd;
	while (got < st->flows) {
		rcv_wait_init(&w, r->c->timeout_ms, "connection for the next flow");
		fd = rcv_accept_data(r, &w, "flow accept");
		if (fd <= 0)
			die("%d of %d flows connected within %d ms (phase: flow accept)",
			    got, st->flows, r->c->timeout_ms);
		ttcp_socket_opts(r->c, fd, 0);
		d = ttcp_peek_open(fd, r->c->timeout_ms, &o, NULL, NULL, why,
				   sizeof(why));
		if (d < 0)
			die("transmitter %s: flow %d of %d: %s (phase: flow accept)",
			    r->peer, got + 1, st->flows, why);
		if (d != OPEN_SETUP || o.flows != st->flows || fds[o.flow] >= 0 ||
		    o.reverse != st->reverse || o.bidir)
			die("transmitter %s: flow %d of %d came without its setup, or twice (phase: flow accept)",
			    r->peer, got + 1, st->flows);
		fds[o.flow] = fd;
		got++;
	}
	return fds;
}

/* -r -P with -R: each flow sends from this side's temp pattern file. */
static void rcv_senders(struct rcv *r, struct flows *fs,
			const struct dir_setup *st, struct xfer_source **srcs)
{
	const struct xfer_ops *w = xfer_find("write", XFER_SEND);
	char err[512];
	int i;

	*srcs = thread_sources(r->c, dir_rcv_source(r, st->buflen, st->hot));
	fs->unit = st->buflen;
	fs->want = st->duration > 0 ? 0 : st->buflen * st->nbuf;
	fs->deadline_ns = (uint64_t)(st->duration * 1e9);
	for (i = 0; i < fs->n; i++) {
		fs->f[i].x =
			xfer_open(w, fs->f[i].fd, &(*srcs)[i % fs->threads],
				  st->buflen, err, sizeof(err));
		if (!fs->f[i].x)
			die("%s", err);
		fs->f[i].x->timeout_ms = r->c->timeout_ms;
		rate_pace_sock("r", fs->f[i].fd, st->rate, st->rate_per_flow,
			       fs->n);
	}
}

void flows_rcv_sample(struct rcv *r, int *fds, int n, enum flow_kind kind,
		      uint32_t req, uint32_t resp, const struct dir_setup *st,
		      struct sample *s)
{
	const struct cfg *c = r->c;
	struct xfer_source *srcs = NULL;
	struct flows fs = {.kind = kind,
			   .n = n,
			   .threads = c->threads,
			   .timeout_ms = c->timeout_ms,
			   .unit = c->buflen,
			   .req = req,
			   .resp = resp};
	char err[512], who[100];
	int i;

	snprintf(who, sizeof(who), "transmitter %s", r->peer);
	fprintf(ttcp_out, "ttcp-r: -P %d: %d flows from %s\n", n, n, r->peer);
	fs.f = xcalloc((size_t)n, sizeof(*fs.f));
	for (i = 0; i < n; i++) {
		fs.f[i].fd = fds[i];
		if (kind != FL_RX)
			continue;
		fs.f[i].x = xfer_open(r->ops, fds[i], NULL, c->buflen, err,
				      sizeof(err));
		if (!fs.f[i].x)
			die("%s", err);
		fs.f[i].x->timeout_ms = c->timeout_ms;
		fs.f[i].x->verify = c->verify;
		fs.f[i].x->touch = c->touch;
	}
	if (kind == FL_TX)
		rcv_senders(r, &fs, st, &srcs);
	if (kind == FL_RRS)
		rr_add(s, RR_TCP, req, resp, 0);
	run(&fs, &r->w, s, who,
	    st ? rate_sample_target(st->rate, st->rate_per_flow, n) : 0);
	for (i = 0; i < n; i++)
		if (fs.f[i].x)
			xfer_close(fs.f[i].x);
	if (srcs)
		thread_sources_free(c, srcs);
	if (kind == FL_TX) /* -R */
		dir_add(s, 1);
	if (st && st->rate > 0)
		rate_add(s, rate_sample_target(st->rate, st->rate_per_flow, n),
			 PACED_KERNEL);
	free(fs.f);
	free(fds);
}

/* Per-flow lines, the sum and Jain's fairness index. */
static void flows_lines(const char *side, const struct cfg *c,
			const struct sample *s)
{
	const struct flows_part *fp = flows_of(s);
	int n = fp->n, trans = rr_of(s) != NULL, i;
	double *r = xcalloc((size_t)n, sizeof(double));
	double *sorted = xcalloc((size_t)n, sizeof(double)), sum = 0;
	const char *unit = trans ? "trans/s" : "MB/s";
	char w[160];

	(void)c;
	for (i = 0; i < n; i++) {
		r[i] = fp->secs[i] > 0 ? (double)fp->count[i] / fp->secs[i] : 0;
		if (!trans)
			r[i] /= 1e6;
		sum += r[i];
		if (n <= FLOW_LINES)
			fprintf(ttcp_out,
				"ttcp-%s: flow %d: %llu %s in %.2f s = %.1f %s%s\n",
				side, i + 1,
				(unsigned long long)fp->count[i],
				trans ? "transactions" : "bytes",
				fp->secs[i], r[i], unit,
				tcp_flow_words(s, i, w, sizeof(w)));
	}
	memcpy(sorted, r, (size_t)n * sizeof(double));
	qsort(sorted, (size_t)n, sizeof(double), cmp_double);
	fprintf(ttcp_out,
		"ttcp-%s: %d flows: sum %.1f %s, per flow min %.1f median %.1f max %.1f, Jain's fairness %.3f\n",
		side, n, sum, unit, sorted[0], sorted[n / 2], sorted[n - 1],
		flows_jain(r, n));
	free(r);
	free(sorted);
}

/* The sample's per-flow figures and fairness_jain. */
static void flows_doc(struct res_doc *d, const struct cfg *c, json_t *j,
		      const struct sample *s, const struct ctl_report *rep,
		      int same_box)
{
	const struct flows_part *fp = flows_of(s);
	double *r = xcalloc((size_t)fp->n, sizeof(double));
	json_t *a = json_array();
	int i, trans = rr_of(s) != NULL;

	(void)c, (void)rep, (void)same_box;
	for (i = 0; i < fp->n; i++) {
		r[i] = fp->secs[i] > 0 ? (double)fp->count[i] / fp->secs[i] : 0;
		json_array_append_new(
			a, json_pack("{s:I, s:f}",
				     trans ? "transactions" : "bytes",
				     (json_int_t)fp->count[i], "elapsed_s",
				     fp->secs[i]));
	}
	json_object_set_new(j, "flows", a);
	res_metric(d, "fairness_jain", "", RES_HIGHER, 0);
	res_sample_set(j, "fairness_jain", flows_jain(r, fp->n));
	free(r);
}

static void flows_params(json_t *params, const struct cfg *c,
			 const struct sample *s)
{
	(void)c;
	json_object_set_new(params, "flows", json_integer(flows_of(s)->n));
}

/* The per-flow counts, either way. */
static void flows_counts(struct ctl_hello *h, struct ctl_report *rep,
			 const struct sample *s)
{
	const struct flows_part *fp = flows_of(s);

	if (h)
		h->nflows = fp->n, h->flow_count = fp->count;
	else
		rep->nflows = fp->n, rep->flow_count = fp->count;
}

static void flows_check_report(const struct cfg *c, const struct sample *s,
			       const struct ctl_report *rep)
{
	const struct flows_part *fp = flows_of(s);
	char why[128];

	if (!ctl_flows_match(fp->count, fp->n, rep->flow_count, rep->nflows,
			     why, sizeof(why)))
		die("receiver %s:%d: per-flow counts differ: %s (phase: report)",
		    c->host, c->port, why);
}

static void flows_check_hello(const struct rcv *r, const struct ctl_hello *h,
			      const struct sample *s)
{
	const struct flows_part *fp = flows_of(s);
	char why[128];

	if (!ctl_flows_match(h->flow_count, h->nflows, fp->count, fp->n, why,
			     sizeof(why)))
		die("transmitter %s: per-flow counts differ: %s (phase: report)",
		    r->peer, why);
}

static void flows_free(void *data)
{
	struct flows_part *fp = data;

	free(fp->count);
	free(fp->secs);
}

const struct ttcp_part flows_part = {
	.name = "flows", .size = sizeof(struct flows_part),
	.lines = flows_lines, .params = flows_params, .doc = flows_doc,
	.counts = flows_counts,
	.check_report = flows_check_report, .check_hello = flows_check_hello,
	.free = flows_free};

/* -r: a -P stream (or -P -R) whose first connection and setup came. */
static int flows_rcv(struct rcv *r, const struct rcv_open *o, struct sample *s)
{
	flows_rcv_sample(r, flows_accept(r, o->fd, &o->st), o->st.flows,
			 o->st.reverse ? FL_TX : FL_RX, 0, 0, &o->st, s);
	return 0;
}

static int flows_xmit_match(const struct cfg *c)
{
	return c->flows > 1;
}

static int flows_rcv_match(const struct cfg *c, const struct rcv_open *o)
{
	(void)c;
	return o->setup && o->st.flows > 1;
}

/* What the flows carry opens as it does on one connection. */
static void flows_xmit_open(struct xmit *t)
{
	if (t->c->rr)
		ttcp_rr_mode.xmit_open(t);
	else
		ttcp_dir_mode.xmit_open(t);
}

const struct ttcp_mode ttcp_flows_mode = {
	"flows", flows_xmit_match, flows_rcv_match,
	flows_xmit_open, flows_xmit, flows_rcv, 0};
