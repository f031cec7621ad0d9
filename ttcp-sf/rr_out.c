/*
 * rr_out.c: what request/response adds to ttcp-sf's output: the
 * transactions line and the latency percentiles (from the sample's
 * histogram, lib/core/hist), CPU per transaction on both ends, and the
 * result sample's figures: trans_per_s, lat_*_us, sd_*_us_per_tx, and
 * the histogram itself so runs can be pooled later (lib/doc/SCHEMA.md).
 */
#include "config.h"
#include "hist.h"
#include "log.h"
#include "rcv.h"
#include "rr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The percentiles every output gives, with their metric names. */
static const struct {
	double p;	   /* 0 = min, 100 = max */
	const char *name;  /* metric */
	const char *label; /* text */
} pcts[] = {
	{0, "lat_min_us", "min"},	{50, "lat_p50_us", "p50"},
	{90, "lat_p90_us", "p90"},	{99, "lat_p99_us", "p99"},
	{99.9, "lat_p999_us", "p99.9"}, {100, "lat_max_us", "max"},
};
#define NPCT (sizeof(pcts) / sizeof(pcts[0]))

static double tps(const struct sample *s)
{
	const struct rr_part *p = rr_of(s);

	return s->elapsed_s > 0 ? (double)p->trans / s->elapsed_s : 0;
}

static uint64_t rr_count(const struct sample *s)
{
	return rr_of(s)->trans;
}

static void hist_release(struct hist *h)
{
	if (h)
		hist_free(h);
	free(h);
}

struct rr_part *rr_add(struct sample *s, int kind, uint32_t req,
		       uint32_t resp, int lat)
{
	struct rr_part *p = sample_add(s, &rr_part);

	p->kind = kind;
	p->req = req;
	p->resp = resp;
	if (lat && !p->lat) {
		p->lat = calloc(1, sizeof(*p->lat));
		if (!p->lat || hist_init(p->lat))
			die("out of memory (latency histogram)");
	}
	return p;
}

void rr_sample_end(struct sample *s, uint64_t bytes, int udp)
{
	s->bytes = bytes;
	s->calls = rr_of(s)->trans;
	s->zc_copied_pct = NAN;
	s->lost = -1;
	if (udp)
		sample_add(s, &udp_part); /* its datagrams' keys */
}

void rr_out_header(const struct cfg *c)
{
	char n[48];

	if (c->duration > 0)
		snprintf(n, sizeof(n), "for %.1f s", c->duration);
	else
		snprintf(n, sizeof(n), "%ld transactions", c->nbuf);
	fprintf(ttcp_out,
		"ttcp-t: %s %u,%u bytes, %s, burst %d, port=%d  -> %s\n",
		rr_name(c->udp ? RR_UDP : c->rr), c->rr_req, c->rr_resp, n,
		c->burst, c->port, c->host);
}

static void rr_lines(const char *side, const struct cfg *c,
		     const struct sample *s)
{
	const struct rr_part *p = rr_of(s);
	size_t i;

	(void)c;
	fprintf(ttcp_out,
		"ttcp-%s: %s %u,%u bytes: %llu transactions in %.2f real seconds = %.1f trans/sec +++\n",
		side, rr_name(p->kind), p->req, p->resp,
		(unsigned long long)p->trans, s->elapsed_s, tps(s));
	if (p->kind == RR_UDP)
		fprintf(ttcp_out,
			"ttcp-%s: %llu requests lost%s, %llu late answers\n",
			side, (unsigned long long)p->lost,
			*side == 't' ? " (no answer in time)"
				     : " (never arrived here)",
			(unsigned long long)p->late);
	if (!p->lat || !p->lat->count)
		return;
	fprintf(ttcp_out, "ttcp-%s: latency us: mean %.1f", side,
		hist_mean(p->lat) / 1e3);
	for (i = 0; i < NPCT; i++)
		fprintf(ttcp_out, " %s %.1f", pcts[i].label,
			(double)hist_percentile(p->lat, pcts[i].p) / 1e3);
	fprintf(ttcp_out, "\n");
}

void rr_out_metrics(struct res_doc *d)
{
	size_t i;

	res_metric(d, "trans_per_s", "trans/s", RES_HIGHER, 1);
	res_metric(d, "lat_mean_us", "us", RES_LOWER, 0);
	for (i = 0; i < NPCT; i++)
		res_metric(d, pcts[i].name, "us", RES_LOWER, 0);
}

/*
 * CPU microseconds per transaction of a side's primary meter (chosen as
 * meter_add_metrics does: meter_primary, soak when the side has it, else
 * the first usable one with a load). A figure of a slowed run not made by
 * the primary meter itself is stored as metered_...; NAN when there is
 * none. Its inverse goes beside it: trans_per_cpu_s_<side>.
 */
static double per_tx(struct res_doc *d, json_t *j, const char *side,
		     const struct cpu_sample *cs, int n, uint64_t trans,
		     int metered)
{
	int prim = meter_primary(cs, n);
	char name[64];
	double v;

	if (prim < 0 || !trans)
		return NAN;
	v = meter_cpu_s(&cs[prim]) * 1e6 / (double)trans; /* NAN: unseen */
	snprintf(name, sizeof(name), "%ssd_%s_us_per_tx",
		 metered && !meter_is_primary(&cs[prim]) ? "metered_" : "",
		 side);
	res_metric(d, name, "us/trans", RES_LOWER, 0);
	res_sample_set(j, name, v);
	/* and its inverse, transactions per CPU-second */
	meter_put_per_cpu(d, j, side, cs, n, "trans", "trans/CPU-s",
			  (double)trans, metered);
	return v;
}

/* A figure or "not measured" (its meter's line above says why). */
static const char *us_or_not(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.2f us", v);
	else
		snprintf(buf, len, "not measured");
	return buf;
}

static void put_cpu(struct res_doc *d, json_t *j, const char *side,
		    const struct sample *s, const struct ctl_report *rep,
		    int same_box)
{
	double l, r = NAN;
	char a[32], b[32];

	l = per_tx(d, j, "local", s->cpu.local, s->cpu.nlocal, rr_of(s)->trans,
		   s->metered);
	if (rep)
		r = per_tx(d, j, "remote", rep->cpu, rep->ncpu, rep->trans,
			   s->metered);
	if (same_box && (isfinite(l) || !isfinite(r)))
		fprintf(ttcp_out,
			"ttcp-%s: cpu per transaction: box %s (both ends on this box)\n",
			side, us_or_not(a, sizeof(a), l));
	else if (same_box)
		fprintf(ttcp_out,
			"ttcp-%s: cpu per transaction: box %s (both ends on this box; the peer's window)\n",
			side, us_or_not(a, sizeof(a), r));
	else if (rep)
		fprintf(ttcp_out,
			"ttcp-%s: cpu per transaction: local %s, remote %s\n",
			side, us_or_not(a, sizeof(a), l),
			us_or_not(b, sizeof(b), r));
	else
		fprintf(ttcp_out, "ttcp-%s: cpu per transaction: local %s\n",
			side, us_or_not(a, sizeof(a), l));
}

static void rr_doc(struct res_doc *d, const struct cfg *c, json_t *j,
		   const struct sample *s, const struct ctl_report *rep,
		   int same_box)
{
	const struct rr_part *p = rr_of(s);
	size_t i;

	rr_out_metrics(d); /* a receiver that followed --rr: declared now */
	res_sample_set(j, "trans_per_s", tps(s));
	json_object_set_new(j, "transactions",
			    json_integer((json_int_t)p->trans));
	if (p->kind == RR_UDP)
		json_object_set_new(j, "rr_lost",
				    json_integer((json_int_t)p->lost));
	if (s->cpu.nlocal || (rep && rep->ncpu))
		put_cpu(d, j, c->trans ? "t" : "r", s, rep, same_box);
	if (!p->lat)
		return;
	json_object_set_new(j, "latency_hist", hist_to_json(p->lat, "ns"));
	if (!p->lat->count)
		return;
	res_sample_set(j, "lat_mean_us", hist_mean(p->lat) / 1e3);
	for (i = 0; i < NPCT; i++)
		res_sample_set(j, pcts[i].name,
			       (double)hist_percentile(p->lat, pcts[i].p) /
				       1e3);
}

/* The case key of a request/response case: workload, sizes, burst. */
static void rr_params(json_t *params, const struct cfg *c,
		      const struct sample *s)
{
	const struct rr_part *p = rr_of(s);

	json_object_set_new(params, "workload", json_string(rr_name(p->kind)));
	json_object_set_new(params, "size", json_integer(p->req));
	json_object_set_new(params, "resp_size", json_integer(p->resp));
	if (c->trans)
		json_object_set_new(params, "burst", json_integer(c->burst));
}

void rr_out_summary(const struct cfg *c, double median, int n,
		    const char *by)
{
	fprintf(ttcp_out, "ttcp-sf: %s %u,%u -> %s: %.1f trans/s%s%s%s%s\n",
		rr_name(c->udp ? RR_UDP : c->rr), c->rr_req, c->rr_resp,
		c->host, median, n > 1 ? " (median)" : "",
		by ? ", unmetered runs; " : "",
		by ? meter_words_of(by)->from : "",
		by ? " from the metered runs" : "");
}

/* The receiver's counts against ours (the report brought them). */
static void rr_check_report(const struct cfg *c, const struct sample *s,
			    const struct ctl_report *rep)
{
	const struct rr_part *p = rr_of(s);
	uint64_t sent = p->trans + p->lost;

	if (p->kind != RR_UDP && rep->trans != p->trans)
		die("receiver %s:%d answered %llu transactions, %llu here (phase: report)",
		    c->host, c->port, (unsigned long long)rep->trans,
		    (unsigned long long)p->trans);
	if (p->kind == RR_UDP &&
	    (rep->trans > sent || rep->trans < p->trans))
		die("receiver %s:%d answered %llu requests; %llu sent, %llu answers came (phase: report)",
		    c->host, c->port, (unsigned long long)rep->trans,
		    (unsigned long long)sent, (unsigned long long)p->trans);
	fprintf(ttcp_out, "ttcp-t: receiver answered %llu of %llu requests\n",
		(unsigned long long)rep->trans, (unsigned long long)sent);
}

/* The transmitter's count against ours (UDP_RR: lost requests never
 * came, so the counts differ by design). */
static void rr_check_hello(const struct rcv *r, const struct ctl_hello *h,
			   const struct sample *s)
{
	const struct rr_part *p = rr_of(s);

	if (p->kind != RR_UDP && h->trans != p->trans)
		die("transmitter %s counted %llu transactions, %llu answered here (phase: report)",
		    r->peer, (unsigned long long)h->trans,
		    (unsigned long long)p->trans);
}

/* The transactions, and the kind (-t) or the requests lost (-r). */
static void rr_counts(struct ctl_hello *h, struct ctl_report *rep,
		      const struct sample *s)
{
	const struct rr_part *p = rr_of(s);

	if (h)
		h->rr_kind = p->kind, h->trans = p->trans;
	else
		rep->trans = p->trans, rep->rr_lost = p->lost;
}

static void rr_closing(const struct rcv *r, const struct sample *s,
		       const char *method, int same)
{
	(void)method;
	fprintf(ttcp_out, "ttcp-sf: %s <- %s: %.1f trans/s%s\n",
		rr_name(rr_of(s)->kind), r->peer, tps(s),
		same ? " (same box)" : "");
}

static void rr_free(void *data)
{
	hist_release(((struct rr_part *)data)->lat);
}

const struct ttcp_part rr_part = {
	.name = "rr", .size = sizeof(struct rr_part), .counts_trans = 1,
	.lines = rr_lines, .count = rr_count, .params = rr_params,
	.doc = rr_doc, .counts = rr_counts,
	.check_report = rr_check_report, .check_hello = rr_check_hello,
	.closing = rr_closing, .free = rr_free};
