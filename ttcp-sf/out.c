/*
 * out.c: what both sides of ttcp-sf print and record: the result
 * document and its config, ttcp's rate lines, a case's params, the CPU
 * block per meter for local and remote (once when both ends are one
 * box), the one-line local/remote CPU and service demand, and the
 * result sample; and the calls of each part's hooks (mode.h) for what
 * --rr, -P, -R/--bidir and -u add to each.
 */
#include "config.h"
#include "dir.h"
#include "mode.h"
#include "rr.h"
#include "udp.h"
#include "sig.h"
#include "ttcp.h"
#include "units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


static json_t *cfg_json(const struct cfg *c)
{
	return json_pack("{s:s, s:I, s:I, s:i, s:s, s:i, s:i, s:I, s:I, s:b, s:b, s:s, s:s?, s:b, s:f, s:i, s:i, s:b}",
			 "side", c->trans ? "transmit" : "receive", "buflen",
			 (json_int_t)c->buflen, "nbuf", (json_int_t)c->nbuf,
			 "port", c->port, "proto", c->udp ? "udp" : "tcp",
			 "sockbuf", c->sockbuf, "nodelay", c->nodelay, "align",
			 (json_int_t)c->align, "offset",
			 (json_int_t)c->offset, "touch", c->touch, "cpu",
			 c->com.cpu, "method", c->ops->name, "file", c->file,
			 "hot", c->hot, "duration_s", c->duration, "affinity",
			 c->affinity, "repeat", c->com.repeat, "verify",
			 c->verify);
}

/* What the additions add to the config block. */
static json_t *cfg_more(const struct cfg *c)
{
	json_t *j = cfg_json(c);

	json_object_set_new(j, "busy_poll_us", json_integer(c->busy_poll));
	json_object_set_new(j, "cork", json_boolean(c->cork));
	json_object_set_new(j, "flows", json_integer(c->flows));
	json_object_set_new(j, "threads", json_integer(c->threads));
	json_object_set_new(j, "interval_s", json_real(c->com.interval));
	json_object_set_new(j, "omit_s", json_real(c->com.omit));
	json_object_set_new(j, "reruns", json_integer(c->com.reruns));
	json_object_set_new(j, "disturbance",
			    json_pack("[ff]", c->com.steal_max,
				      c->com.outside_max));
	json_object_set_new(j, "direction",
			    json_string(dir_name(c->reverse, c->bidir)));
	if (c->rate > 0) { /* --rate, in bits/s as given */
		json_object_set_new(j, "rate_bps", json_real(c->rate * 8));
		json_object_set_new(j, "rate_per_flow",
				    json_boolean(c->rate_per_flow));
	}
	if (c->rr)
		json_object_set_new(j, "rr",
				    json_pack("{s:s, s:i, s:i, s:i}", "workload",
					      rr_name(c->udp ? RR_UDP : c->rr),
					      "req", (int)c->rr_req, "resp",
					      (int)c->rr_resp, "burst", c->burst));
	return j;
}

struct res_doc *out_doc(const struct cfg *c, int argc, char **argv)
{
	struct res_doc *d = cli_result_doc(&c->com, "ttcp-sf", argc, argv);

	ttcp_out = c->com.json_stdout || c->com.json_stream ? stderr : stdout;
	side_doc(d);
	res_set(d, "config", cfg_more(c));
	res_metric(d, "throughput_MBps", "MB/s", RES_HIGHER, 1);
	res_metric(d, "elapsed_s", "s", RES_LOWER, 0);
	if (c->rr)
		rr_out_metrics(d);
	return d;
}

void out_rate(const char *side, const struct cfg *c, const struct sample *s)
{
	const char *label;
	double v = units_rate((double)s->bytes, s->elapsed_s, c->fmt, &label);
	double t = s->elapsed_s > 0 ? s->elapsed_s : 1e-9;

	fprintf(ttcp_out, "ttcp-%s: %llu bytes in %.2f real seconds = %.2f %s/sec +++\n",
		side, (unsigned long long)s->bytes, s->elapsed_s, v, label);
	fprintf(ttcp_out, "ttcp-%s: %llu I/O calls, msec/call = %.2f, calls/sec = %.2f\n",
		side, (unsigned long long)s->calls,
		s->calls ? 1000.0 * t / (double)s->calls : 0.0,
		(double)s->calls / t);
}

json_t *out_params(const char *method, const char *recv_method,
		   const struct cfg *c, const char *role, const char *source)
{
	return json_pack("{s:s, s:s, s:I, s:s, s:s, s:s}", "method", method,
			 "recv_method", recv_method, "size",
			 (json_int_t)c->buflen, "proto", c->udp ? "udp" : "tcp",
			 "role", role, "source", source);
}

void out_meters(const char *side, const struct cpuwin *w,
		struct res_doc *d, int pairs)
{
	const struct meterset *ms = &w->ms;
	const char *by = pairs ? cpuwin_paired_by(w) : NULL;
	char names[256];
	int i;

	fprintf(ttcp_out, "ttcp-%s: CPU meters: %s%s%s\n", side,
		meterset_names(ms, names, sizeof(names)), by ? "; " : "",
		by ? meter_pairs_words(by) : "");
	for (i = 0; i < ms->n; i++) {
		if (ms->m[i])
			continue;
		fprintf(ttcp_out, "ttcp-%s: %s unavailable, the run goes on without it: %s\n",
			side, ms->name[i], ms->why[i]);
		res_warn(d, "CPU meter %s unavailable: %s", ms->name[i],
			 ms->why[i]);
	}
}

static const struct cpu_sample *first_ok(const struct cpu_sample *s, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (s[i].ok)
			return &s[i];
	return NULL;
}

void out_cpu(const char *side, const struct cfg *c, const struct sample *s,
	     const struct ctl_report *rep, int same_box, const char *why_none)
{
	const struct cpu_sample *l = first_ok(s->cpu.local, s->cpu.nlocal);
	const struct cpu_sample *r = NULL;
	int trans = sample_trans_part(s) != NULL;
	double bytes = trans ? 0 : (double)s->bytes; /* --rr: per tx */
	char lsd[32], rsd[32];
	int i;

	if (!c->com.cpu)
		return;
	if (rep)
		r = first_ok(rep->cpu, rep->ncpu);
	if (same_box) {
		fprintf(ttcp_out, "ttcp-%s: both ends on this box (%s): its CPU, once\n",
			side, rep ? rep->hostname : "same host name and boot id");
		meter_print(ttcp_out, "box", s->cpu.local, s->cpu.nlocal,
			    bytes);
		/* process meters of the other end are its own, not the box */
		for (i = 0; rep && i < rep->ncpu; i++)
			if (rep->cpu[i].ok && !strcmp(rep->cpu[i].scope, "process"))
				meter_print(ttcp_out, "remote", &rep->cpu[i], 1,
					    bytes);
	} else {
		meter_print(ttcp_out, "local", s->cpu.local, s->cpu.nlocal,
			    bytes);
		if (rep)
			meter_print(ttcp_out, "remote", rep->cpu, rep->ncpu,
				    bytes > 0 ? (double)(rep->bytes -
							 rep->omit_bytes)
					      : 0);
		else
			fprintf(ttcp_out, "  cpu remote unknown: %s\n", why_none);
	}
	if (!l) {
		fprintf(ttcp_out, "ttcp-%s: no usable CPU meter\n", side);
		return;
	}
	if (trans)
		return; /* rr_out.c: CPU per transaction */
	meter_sd_text(lsd, sizeof(lsd), meter_service_demand(l, bytes));
	if (same_box)
		fprintf(ttcp_out, "ttcp-%s: cpu box %.1f%%, sd %s us/KB (%s; both ends on this box)\n",
			side, l->busy_pct, lsd, l->meter);
	else if (r)
		fprintf(ttcp_out, "ttcp-%s: cpu local %.1f%% remote %.1f%%, sd local %s remote %s us/KB (%s/%s)\n",
			side, l->busy_pct, r->busy_pct, lsd,
			meter_sd_text(rsd, sizeof(rsd),
				      meter_service_demand(
					      r, (double)(rep->bytes -
							  rep->omit_bytes))),
			l->meter, r->meter);
	else
		fprintf(ttcp_out, "ttcp-%s: cpu local %.1f%%, sd local %s us/KB (%s); remote: %s\n",
			side, l->busy_pct, lsd, l->meter, why_none);
}

json_t *out_sample(struct res_doc *d, const struct cfg *c,
		   const struct sample *s, const struct ctl_report *rep,
		   int same_box)
{
	json_t *j = json_object();
	double mbps = s->elapsed_s > 0 ? (double)s->bytes / s->elapsed_s / 1e6 :
					 0;

	if (!sample_trans_part(s)) /* --rr: trans_per_s (rr_out.c) */
		res_sample_set(j, "throughput_MBps", mbps);
	res_sample_set(j, "elapsed_s", s->elapsed_s);
	json_object_set_new(j, "bytes", json_integer((json_int_t)s->bytes));
	json_object_set_new(j, "calls", json_integer((json_int_t)s->calls));
	json_object_set_new(j, "elapsed_s", json_real(s->elapsed_s));
	json_object_set_new(j, "same_box", json_boolean(same_box));
	res_sample_omitted(j, s->omit_s, "bytes", s->omit_bytes);
	if (s->counters)
		json_object_set(j, "counters", s->counters);
	if (isfinite(s->zc_copied_pct)) {
		res_metric(d, "zc_copied_pct", "%", RES_LOWER, 0);
		res_sample_set(j, "zc_copied_pct", s->zc_copied_pct);
	}
	if (c->com.cpu) {
		int trans = sample_trans_part(s) != NULL; /* CPU per tx */

		struct cpuwin_sample cs = s->cpu;

		/* the run's kind as the pair has it (the receiver learns it
		 * from the hello) */
		cs.metered = s->metered;
		cs.peer_side = "remote";
		if (rep)
			cpuwin_peer_figures(&cs, rep->cpu, rep->ncpu);
		cpuwin_add_side(d, j, &cs, CPUWIN_LOCAL,
				trans ? 0 : (double)s->bytes);
		cpuwin_add_side(d, j, &cs, CPUWIN_PEER,
				trans || !rep ? 0
					      : (double)(rep->bytes -
							 rep->omit_bytes));
	}
	if (rep) {
		json_t *r = json_pack("{s:s, s:I, s:I, s:I, s:b, s:f}",
				      "recv_method", rep->recv_method, "bytes",
				      (json_int_t)(rep->bytes - rep->omit_bytes),
				      "calls",
				      (json_int_t)rep->calls, "bad_bytes",
				      (json_int_t)rep->bad_bytes, "verified",
				      rep->verified, "elapsed_s",
				      rep->elapsed_s);

		res_sample_omitted(r, rep->omit_s, "bytes", rep->omit_bytes);
		json_object_set_new(j, "remote", r);
	}
	return j;
}

void out_lines(const char *side, const struct cfg *c, const struct sample *s)
{
	const struct ttcp_part *t = sample_trans_part(s);
	int i;

	if (t) /* its transactions, not ttcp's bytes */
		t->lines(side, c, s);
	else
		out_rate(side, c, s);
	for (i = 0; ttcp_parts[i]; i++)
		if (s->part[i] && ttcp_parts[i] != t && ttcp_parts[i]->lines)
			ttcp_parts[i]->lines(side, c, s);
}

void out_closing(const char *recv_method, const char *method,
		 const struct cfg *c, const struct sample *s, int same)
{
	double el = s->elapsed_s > 0 ? s->elapsed_s : 0;

	fprintf(ttcp_out, "ttcp-sf: %s <- %s %s: %.1f MB/s%s\n", recv_method,
		method, sample_part(s, &udp_part) ? "udp" : "tcp",
		el > 0 ? (double)s->bytes / el / 1e6 : 0.0,
		same ? " (same box)" : "");
}

void out_params_more(json_t *params, const struct cfg *c,
		     const struct sample *s)
{
	int i;

	for (i = 0; ttcp_parts[i]; i++)
		if (s->part[i] && ttcp_parts[i]->params)
			ttcp_parts[i]->params(params, c, s);
}

void out_sample_more(struct res_doc *d, const struct cfg *c, json_t *j,
		     const struct sample *s, const struct ctl_report *rep,
		     int same_box)
{
	int i;

	for (i = 0; ttcp_parts[i]; i++)
		if (s->part[i] && ttcp_parts[i]->doc)
			ttcp_parts[i]->doc(d, c, j, s, rep, same_box);
	if (s->intervals)
		json_object_set(j, "intervals", s->intervals);
}
