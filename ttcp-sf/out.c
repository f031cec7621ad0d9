/*
 * out.c: what ttcp-sf prints and records for a sample: the CPU block per
 * meter for local and remote (once when both ends are one box), the
 * one-line local/remote CPU and service demand, and the result sample.
 */
#include "config.h"
#include "ttcp.h"

#include <math.h>
#include <string.h>

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
	const struct cpu_sample *l = first_ok(s->cpu, s->ncpu), *r = NULL;
	double bytes = (double)s->bytes;
	int i;

	if (!c->cpu)
		return;
	if (rep)
		r = first_ok(rep->cpu, rep->ncpu);
	if (same_box) {
		fprintf(ttcp_out, "ttcp-%s: both ends on this box (%s): its CPU, once\n",
			side, rep ? rep->hostname : "same host name and boot id");
		meter_print(ttcp_out, "box", s->cpu, s->ncpu, bytes);
		/* process meters of the other end are its own, not the box */
		for (i = 0; rep && i < rep->ncpu; i++)
			if (rep->cpu[i].ok && !strcmp(rep->cpu[i].scope, "process"))
				meter_print(ttcp_out, "remote", &rep->cpu[i], 1,
					    bytes);
	} else {
		meter_print(ttcp_out, "local", s->cpu, s->ncpu, bytes);
		if (rep)
			meter_print(ttcp_out, "remote", rep->cpu, rep->ncpu,
				    (double)rep->bytes);
		else
			fprintf(ttcp_out, "  cpu remote unknown: %s\n", why_none);
	}
	if (!l) {
		fprintf(ttcp_out, "ttcp-%s: no usable CPU meter\n", side);
		return;
	}
	if (same_box)
		fprintf(ttcp_out, "ttcp-%s: cpu box %.1f%%, sd %.3f us/KB (%s; both ends on this box)\n",
			side, l->busy_pct, meter_service_demand(l, bytes),
			l->meter);
	else if (r)
		fprintf(ttcp_out, "ttcp-%s: cpu local %.1f%% remote %.1f%%, sd local %.3f remote %.3f us/KB (%s/%s)\n",
			side, l->busy_pct, r->busy_pct,
			meter_service_demand(l, bytes),
			meter_service_demand(r, (double)rep->bytes), l->meter,
			r->meter);
	else
		fprintf(ttcp_out, "ttcp-%s: cpu local %.1f%%, sd local %.3f us/KB (%s); remote: %s\n",
			side, l->busy_pct, meter_service_demand(l, bytes),
			l->meter, why_none);
}

json_t *out_sample(struct res_doc *d, const struct cfg *c,
		   const struct sample *s, const struct ctl_report *rep,
		   int same_box)
{
	json_t *j = json_object();
	double mbps = s->elapsed_s > 0 ? (double)s->bytes / s->elapsed_s / 1e6 :
					 0;

	res_sample_set(j, "throughput_MBps", mbps);
	res_sample_set(j, "elapsed_s", s->elapsed_s);
	json_object_set_new(j, "bytes", json_integer((json_int_t)s->bytes));
	json_object_set_new(j, "calls", json_integer((json_int_t)s->calls));
	json_object_set_new(j, "elapsed_s", json_real(s->elapsed_s));
	json_object_set_new(j, "same_box", json_boolean(same_box));
	if (s->counters)
		json_object_set(j, "counters", s->counters);
	if (isfinite(s->zc_copied_pct)) {
		res_metric(d, "zc_copied_pct", "%", RES_LOWER, 0);
		res_sample_set(j, "zc_copied_pct", s->zc_copied_pct);
	}
	if (c->udp) {
		json_object_set_new(j, "datagrams",
				    json_integer((json_int_t)s->dgrams));
		json_object_set_new(j, "lost", s->lost >= 0 ?
					       json_integer(s->lost) :
					       json_null());
	}
	if (c->cpu) {
		meter_add_metrics(d, j, "local", s->cpu, s->ncpu,
				  (double)s->bytes, s->metered);
		meter_add_raw(j, "local", s->cpu, s->ncpu);
		if (rep) {
			meter_add_metrics(d, j, "remote", rep->cpu, rep->ncpu,
					  (double)rep->bytes, s->metered);
			meter_add_raw(j, "remote", rep->cpu, rep->ncpu);
		}
	}
	if (rep) {
		json_t *r = json_pack("{s:s, s:I, s:I, s:I, s:b, s:f}",
				      "recv_method", rep->recv_method, "bytes",
				      (json_int_t)rep->bytes, "calls",
				      (json_int_t)rep->calls, "bad_bytes",
				      (json_int_t)rep->bad_bytes, "verified",
				      rep->verified, "elapsed_s",
				      rep->elapsed_s);

		if (c->udp) {
			json_object_set_new(r, "datagrams",
					    json_integer((json_int_t)rep->dgrams));
			json_object_set_new(r, "lost",
					    rep->lost >= 0 ?
						    json_integer(rep->lost) :
						    json_null());
		}
		json_object_set_new(j, "remote", r);
	}
	return j;
}
