/*
 * result_summary.c: what a result document says about its samples: each
 * case's summary of every metric (n, mean, hmean of rates, stddev, cov,
 * min, median, max, ci95), computed when the document is written, over
 * the samples that count (never a disturbed run made again: paired.h);
 * and paired runs: a metered sample's rates kept apart as metered_*, and
 * each case's perturbation, the metered over the unmetered rate.
 */
#include "config.h"
#include "paired.h"
#include "result.h"
#include "result_int.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *res_summary_json(const double *x, size_t n, int is_rate)
{
	struct stats_summary s;
	json_t *o = json_object(), *ci = json_array();

	/* set by set, not json_pack: a large compare makes one per case
	 * and metric of every document it loads */
	stats_summarize(x, n, &s);
	json_object_set_new_nocheck(o, "n", json_integer((json_int_t)s.n));
	json_object_set_new_nocheck(o, "mean", num_or_null(s.mean));
	json_object_set_new_nocheck(o, "stddev", num_or_null(s.stddev));
	json_object_set_new_nocheck(o, "cov", num_or_null(s.cov));
	json_object_set_new_nocheck(o, "min", num_or_null(s.min));
	json_object_set_new_nocheck(o, "median", num_or_null(s.median));
	json_object_set_new_nocheck(o, "max", num_or_null(s.max));
	json_array_append_new(ci, num_or_null(s.ci95_lo));
	json_array_append_new(ci, num_or_null(s.ci95_hi));
	json_object_set_new_nocheck(o, "ci95", ci);
	if (is_rate)
		json_object_set_new_nocheck(o, "hmean", num_or_null(s.hmean));
	return o;
}

/* A figure the meters named already (meter_add_metrics): their CPU,
 * service demand, profile, CPU-normalised rates (<what>_per_cpu_s_<side>),
 * or one set aside as metered_. */
static int meter_named(const char *name)
{
	return !strncmp(name, "cpu_", 4) || !strncmp(name, "sd_", 3) ||
	       !strncmp(name, "prof_", 5) || /* the profiled run's */
	       !strncmp(name, "metered_", 8) || strstr(name, "_per_cpu_s_");
}

void res_sample_pair(struct res_doc *d, json_t *sample, int pair, int metered)
{
	json_t *m = json_object_get(sample, "metrics"), *v, *def;
	json_t *defs = json_object_get(d->root, "metrics"), *moved;
	const char *name;
	char full[160];
	void *tmp;

	json_object_set_new(sample, "pair", json_integer(pair));
	json_object_set_new(sample, "soak", json_boolean(metered));
	if (!metered || !m)
		return;
	moved = json_object();
	json_object_foreach_safe(m, tmp, name, v)
	{
		if (meter_named(name))
			continue;
		snprintf(full, sizeof(full), "metered_%s", name);
		json_object_set(moved, full, v);
		def = json_object_get(defs, name);
		if (def && !json_object_get(defs, full))
			json_object_set_new(defs, full, json_deep_copy(def));
		json_object_del(m, name);
	}
	json_object_update(m, moved);
	json_decref(moved);
}

/* The rate a case's perturbation is judged on: the first of these, else
 * the first rate metric (by name) that both kinds of run carry. */
static const char *perturb_metric(json_t *summary, json_t *metrics)
{
	static const char *const pref[] = {"throughput_MBps", "ops_per_s",
					   "msgs_per_s", "trans_per_s", NULL};
	char buf[160]; /* not static: documents are judged on threads */
	const char *name, *best = NULL;
	json_t *v;
	int i;

	for (i = 0; pref[i]; i++) {
		snprintf(buf, sizeof(buf), "metered_%s", pref[i]);
		if (json_object_get(summary, pref[i]) &&
		    json_object_get(summary, buf))
			return pref[i];
	}
	json_object_foreach(summary, name, v)
	{
		json_t *def = json_object_get(metrics, name);

		snprintf(buf, sizeof(buf), "metered_%s", name);
		if (json_is_true(json_object_get(def, "rate")) &&
		    json_object_get(summary, buf) &&
		    (!best || strcmp(name, best) < 0))
			best = name;
	}
	return best;
}

static double sample_metric(json_t *s, const char *name)
{
	json_t *v = json_object_get(json_object_get(s, "metrics"), name);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/*
 * perturbation: for each pair k with both runs, r_k = metered rate /
 * unmetered rate; the ratio is their geometric mean, the interval
 * Student-t on log r_k. None when the case has no complete pair.
 */
void res_case_perturbation(json_t *kase, json_t *metrics)
{
	json_t *samples = json_object_get(kase, "samples"), *a, *b;
	json_t *summary = json_object_get(kase, "summary");
	const char *metric = perturb_metric(summary, metrics);
	size_t ns = json_array_size(samples), i, j, n = 0;
	struct stats_ratio r;
	char mname[160];
	double *num, *den;

	json_object_del(kase, "perturbation");
	if (!metric)
		return;
	snprintf(mname, sizeof(mname), "metered_%s", metric);
	num = calloc(ns + 1, sizeof(*num));
	den = calloc(ns + 1, sizeof(*den));
	if (!num || !den)
		abort();
	json_array_foreach(samples, i, a)
	{
		json_t *pa = json_object_get(a, "pair");

		if (res_sample_run(a) != RUN_METERED || !json_is_integer(pa))
			continue;
		json_array_foreach(samples, j, b)
		{
			if (res_sample_run(b) != RUN_UNMETERED ||
			    !json_equal(json_object_get(b, "pair"), pa))
				continue;
			num[n] = sample_metric(a, mname);
			den[n++] = sample_metric(b, metric);
			break;
		}
	}
	stats_ratio_paired(num, den, n, &r);
	free(num);
	free(den);
	if (!r.n)
		return;
	json_object_set_new(
		kase, "perturbation",
		json_pack(
			"{s:s, s:o, s:[oo], s:I, s:o, s:o, s:s}", "metric",
			metric, "ratio", num_or_null(r.ratio), "ci95",
			num_or_null(r.lo), num_or_null(r.hi), "pairs",
			(json_int_t)r.n, "min", num_or_null(r.min), "max",
			num_or_null(r.max), "formula",
			"geometric mean over pairs of metered/unmetered; ci95: Student t on the log ratios"));
}

static void summarize_case(json_t *kase, json_t *metrics)
{
	json_t *samples = json_object_get(kase, "samples");
	json_t *summary = json_object(), *seen = json_object(), *s, *v;
	size_t nsamp = json_array_size(samples), i, j;
	const char *name;
	double *x = calloc(nsamp + 1, sizeof(*x));

	if (!x)
		abort();
	/* every metric any sample carries */
	json_array_foreach(samples, i, s)
	{
		json_object_foreach(json_object_get(s, "metrics"), name, v)
			json_object_set_new(seen, name, json_true());
	}
	json_object_foreach(seen, name, v)
	{
		size_t n = 0;
		json_t *def = json_object_get(metrics, name);

		json_array_foreach(samples, j, s)
		{
			json_t *m = json_object_get(
				json_object_get(s, "metrics"), name);

			if (json_is_number(m) && res_sample_counts(s))
				x[n++] = json_number_value(m);
		}
		json_object_set_new(
			summary, name,
			res_summary_json(
				x, n,
				json_is_true(json_object_get(def, "rate"))));
	}
	json_decref(seen);
	free(x);
	json_object_set_new(kase, "summary", summary);
}

void res_summarize(struct res_doc *d)
{
	json_t *cases = json_object_get(d->root, "cases"), *c;
	json_t *metrics = json_object_get(d->root, "metrics");
	size_t i;

	json_array_foreach(cases, i, c)
	{
		summarize_case(c, metrics);
		res_case_perturbation(c, metrics);
	}
}
