/*
 * rr_out.c: what request/response adds to ttcp-sf's output: the
 * transactions line and the latency percentiles (from the sample's
 * histogram, lib/core/hist), CPU per transaction on both ends, and the
 * result sample's figures: trans_per_s, lat_*_us, sd_*_us_per_tx, and
 * the histogram itself so runs can be pooled later (results/SCHEMA.md).
 */
#include "config.h"
#include "hist.h"
#include "log.h"
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
	return s->elapsed_s > 0 ? (double)s->trans / s->elapsed_s : 0;
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

void rr_out_lines(const char *side, const struct sample *s)
{
	size_t i;

	fprintf(ttcp_out,
		"ttcp-%s: %s %u,%u bytes: %llu transactions in %.2f real seconds = %.1f trans/sec +++\n",
		side, rr_name(s->rr_kind), s->rr_req, s->rr_resp,
		(unsigned long long)s->trans, s->elapsed_s, tps(s));
	if (s->rr_kind == RR_UDP)
		fprintf(ttcp_out,
			"ttcp-%s: %llu requests lost%s, %llu late answers\n",
			side, (unsigned long long)s->rr_lost,
			*side == 't' ? " (no answer in time)"
				     : " (never arrived here)",
			(unsigned long long)s->rr_late);
	if (!s->lat || !s->lat->count)
		return;
	fprintf(ttcp_out, "ttcp-%s: latency us: mean %.1f", side,
		hist_mean(s->lat) / 1e3);
	for (i = 0; i < NPCT; i++)
		fprintf(ttcp_out, " %s %.1f", pcts[i].label,
			(double)hist_percentile(s->lat, pcts[i].p) / 1e3);
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
 * none.
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
	v = cs[prim].busy_pct / 100.0 * cs[prim].ncpu * cs[prim].elapsed_s *
	    1e6 / (double)trans;
	snprintf(name, sizeof(name), "%ssd_%s_us_per_tx",
		 metered && !meter_is_primary(&cs[prim]) ? "metered_" : "",
		 side);
	res_metric(d, name, "us/trans", RES_LOWER, 0);
	res_sample_set(j, name, v);
	return v;
}

static void put_cpu(struct res_doc *d, json_t *j, const char *side,
		    const struct sample *s, const struct ctl_report *rep,
		    int same_box)
{
	double l, r = NAN;

	l = per_tx(d, j, "local", s->cpu.local, s->cpu.nlocal, s->trans,
		   s->metered);
	if (rep)
		r = per_tx(d, j, "remote", rep->cpu, rep->ncpu, rep->trans,
			   s->metered);
	if (same_box && isfinite(l))
		fprintf(ttcp_out,
			"ttcp-%s: cpu per transaction: box %.2f us (both ends on this box)\n",
			side, l);
	else if (rep)
		fprintf(ttcp_out,
			"ttcp-%s: cpu per transaction: local %.2f us, remote %.2f us\n",
			side, l, r);
	else if (isfinite(l))
		fprintf(ttcp_out,
			"ttcp-%s: cpu per transaction: local %.2f us\n", side,
			l);
}

void rr_out_sample(struct res_doc *d, const struct cfg *c, json_t *j,
		   const struct sample *s, const struct ctl_report *rep,
		   int same_box)
{
	size_t i;

	res_sample_set(j, "trans_per_s", tps(s));
	json_object_set_new(j, "transactions",
			    json_integer((json_int_t)s->trans));
	if (s->rr_kind == RR_UDP)
		json_object_set_new(j, "rr_lost",
				    json_integer((json_int_t)s->rr_lost));
	if (s->cpu.nlocal || (rep && rep->ncpu))
		put_cpu(d, j, c->trans ? "t" : "r", s, rep, same_box);
	if (!s->lat)
		return;
	json_object_set_new(j, "latency_hist", hist_to_json(s->lat, "ns"));
	if (!s->lat->count)
		return;
	res_sample_set(j, "lat_mean_us", hist_mean(s->lat) / 1e3);
	for (i = 0; i < NPCT; i++)
		res_sample_set(j, pcts[i].name,
			       (double)hist_percentile(s->lat, pcts[i].p) /
				       1e3);
}

void rr_out_params(json_t *params, const struct cfg *c, const struct sample *s)
{
	json_object_set_new(params, "workload",
			    json_string(rr_name(s->rr_kind)));
	json_object_set_new(params, "size", json_integer(s->rr_req));
	json_object_set_new(params, "resp_size", json_integer(s->rr_resp));
	if (c->trans)
		json_object_set_new(params, "burst", json_integer(c->burst));
}

void rr_out_summary(const struct cfg *c, double median, int n, int paired)
{
	fprintf(ttcp_out, "ttcp-sf: %s %u,%u -> %s: %.1f trans/s%s%s\n",
		rr_name(c->udp ? RR_UDP : c->rr), c->rr_req, c->rr_resp,
		c->host, median, n > 1 ? " (median)" : "",
		paired ? ", unmetered runs; soak CPU from the metered runs"
		       : "");
}

/* The receiver's counts against ours (ctl.c brought them). */
void rr_check_report(const struct cfg *c, const struct sample *s,
		     const struct ctl_report *rep)
{
	uint64_t sent = s->trans + s->rr_lost;

	if (s->rr_kind != RR_UDP && rep->trans != s->trans)
		die("receiver %s:%d answered %llu transactions, %llu here (phase: report)",
		    c->host, c->port, (unsigned long long)rep->trans,
		    (unsigned long long)s->trans);
	if (s->rr_kind == RR_UDP &&
	    (rep->trans > sent || rep->trans < s->trans))
		die("receiver %s:%d answered %llu requests; %llu sent, %llu answers came (phase: report)",
		    c->host, c->port, (unsigned long long)rep->trans,
		    (unsigned long long)sent, (unsigned long long)s->trans);
	fprintf(ttcp_out, "ttcp-t: receiver answered %llu of %llu requests\n",
		(unsigned long long)rep->trans, (unsigned long long)sent);
}

void rr_sample_free(struct sample *s)
{
	if (s->lat)
		hist_free(s->lat);
	free(s->lat);
	s->lat = NULL;
}
