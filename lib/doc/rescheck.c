/*
 * rescheck.c: a loaded document's summaries follow its samples
 * (resload.h): a measured document's summary of every metric its
 * samples carry is made again from them, and so is a paired case's
 * perturbation; a stored figure that disagreed is named. A
 * transcription keeps its published summary but must not contradict
 * its own samples.
 */
#include "config.h"
#include "res_int.h"
#include "result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RL_SAME 1e-9 /* relative difference two figures may have */

/* Whether stored (a number or null) is the figure v (NAN: none). */
static int same_figure(json_t *stored, double v)
{
	double x;

	if (json_is_null(stored))
		return !isfinite(v);
	if (!json_is_number(stored) || !isfinite(v))
		return 0;
	x = json_number_value(stored);
	return fabs(x - v) <= RL_SAME * fmax(fabs(x), fabs(v));
}

static double num(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static double figure(json_t *o, const char *field)
{
	return num(json_object_get(o, field));
}

/* The first figure of a stored summary that its samples' summary
 * (fresh) contradicts, described in why; 0 when none. A field the
 * stored summary lacks contradicts nothing. */
static int contradiction(json_t *stored, json_t *fresh, const char *const *f,
			 char *why, size_t len)
{
	json_t *sv;

	for (; *f; f++) {
		sv = json_object_get(stored, *f);
		if (!sv || !json_object_get(fresh, *f) ||
		    same_figure(sv, figure(fresh, *f)))
			continue;
		snprintf(why, len, "%s %.6g, the samples give %.6g", *f,
			 figure(stored, *f), figure(fresh, *f));
		return 1;
	}
	return 0;
}

/* The metrics any sample of a case carries, as a set. */
static json_t *carried_metrics(json_t *kase)
{
	json_t *set = json_object(), *smp, *v;
	const char *name;
	size_t j;

	json_array_foreach(json_object_get(kase, "samples"), j, smp)
	{
		json_object_foreach(json_object_get(smp, "metrics"), name, v)
			json_object_set_new(set, name, json_true());
	}
	return set;
}

/* A perturbation as text, for a warning. */
static void pert_text(char *b, size_t len, json_t *p)
{
	json_t *ci = json_object_get(p, "ci95");

	if (!p)
		snprintf(b, len, "none");
	else
		snprintf(b, len, "%.6g (%.6g-%.6g, %lld pairs)",
			 figure(p, "ratio"), num(json_array_get(ci, 0)),
			 num(json_array_get(ci, 1)),
			 (long long)json_integer_value(
				 json_object_get(p, "pairs")));
}

/*
 * The case's perturbation made again from its paired samples (after its
 * summary: lib/doc/result.c picks the rate from it). 1 when the stored one
 * said otherwise (ratio, interval or pairs; why, when not NULL, says
 * how), else 0.
 */
static int perturbation_moved(json_t *kase, json_t *metrics, char *why,
			      size_t len)
{
	json_t *old = json_incref(json_object_get(kase, "perturbation")), *p;
	char a[128], b[128];
	int moved;

	res_case_perturbation(kase, metrics);
	p = json_object_get(kase, "perturbation");
	moved = !old != !p;
	if (old && p) {
		json_t *oc = json_object_get(old, "ci95");
		json_t *pc = json_object_get(p, "ci95");

		moved = !same_figure(json_object_get(old, "ratio"),
				     figure(p, "ratio")) ||
			!same_figure(json_array_get(oc, 0),
				     num(json_array_get(pc, 0))) ||
			!same_figure(json_array_get(oc, 1),
				     num(json_array_get(pc, 1))) ||
			!json_equal(json_object_get(old, "pairs"),
				    json_object_get(p, "pairs"));
	}
	if (moved && why) {
		pert_text(a, sizeof(a), old);
		pert_text(b, sizeof(b), p);
		snprintf(why, len, "%s, the samples give %s", a, b);
	}
	json_decref(old);
	return moved;
}

/* What the check of a document found: a refusal (err) and what to warn
 * about (a wrong summary, a rate <= 0), the first of each. */
struct chk {
	char *err, *sum, *rate;
	size_t elen, slen, rlen;
	int refused, wrong, nonpos;
};

/* A metric's samples whose mean or spread is not a finite number
 * (values so large that their sum overflows): said in k->err. */
static int overflowed(struct chk *k, size_t idx, const char *name,
		      json_t *fresh, const double *x, size_t n)
{
	double top = 0;
	size_t i;

	if (!n || (json_is_number(json_object_get(fresh, "mean")) &&
		   (n < 2 || json_is_number(json_object_get(fresh, "stddev")))))
		return 0;
	for (i = 0; i < n; i++)
		top = fmax(top, fabs(x[i]));
	snprintf(k->err, k->elen,
		 "cases[%zu] %s: the samples' mean or standard deviation is "
		 "not a finite number (values up to %.6g overflow)",
		 idx, name, top);
	k->refused = 1;
	return 1;
}

/* A rate's samples <= 0: kept, but no harmonic mean (said in k->rate). */
static void nonpositive(struct chk *k, size_t idx, const char *name,
			const double *x, size_t n)
{
	size_t i, bad = 0;

	for (i = 0; i < n; i++)
		bad += !(x[i] > 0);
	if (!bad || k->nonpos++)
		return;
	snprintf(k->rate, k->rlen,
		 "cases[%zu] %s: %zu of %zu samples <= 0, which a rate "
		 "cannot be: it has no harmonic mean (shown as -, never "
		 "judged)",
		 idx, name, bad, n);
}

/*
 * One case of res_check_summaries(): k->refused when a transcription
 * contradicted its samples or a metric's figures are not finite, k->wrong
 * when a measured summary was wrong (recomputed), k->nonpos for a rate
 * <= 0; each says where in its buffer (the first found).
 */
static void check_case(json_t *kase, size_t idx, json_t *metrics,
		       int transcribed, struct chk *k)
{
	/* the figures tables read; stddev first, as one sample has none */
	static const char *const measured[] = {"stddev", "n",	   "mean",
					       "hmean",	 "median", NULL};
	static const char *const published[] = {"mean", "hmean", NULL};
	json_t *sum = json_object_get(kase, "summary");
	json_t *carried = carried_metrics(kase), *v;
	const char *name;
	char w[512];

	json_object_foreach(carried, name, v)
	{
		int rate = json_is_true(json_object_get(
			json_object_get(metrics, name), "rate"));
		json_t *old = json_object_get(sum, name), *fresh;
		double *x = NULL;
		size_t n = 0, cap = 0;
		int bad;

		res_case_values(kase, name, &x, &n, &cap);
		fresh = res_summary_json(x, n, transcribed || rate);
		bad = overflowed(k, idx, name, fresh, x, n);
		if (!bad && rate)
			nonpositive(k, idx, name, x, n);
		free(x);
		if (bad) {
			json_decref(fresh);
			break;
		}
		if (transcribed) {
			bad = n && contradiction(old, fresh, published, w,
						 sizeof(w));
			json_decref(fresh);
			if (bad) {
				snprintf(k->err, k->elen,
					 "transcribed figures contradict the "
					 "samples: cases[%zu] %s %s",
					 idx, name, w);
				k->refused = 1;
				break;
			}
			continue;
		}
		if (contradiction(old, fresh, measured + (n < 2), w,
				  sizeof(w)) &&
		    !k->wrong++)
			snprintf(k->sum, k->slen, "cases[%zu] %s %s", idx, name,
				 w);
		json_object_set_new(sum, name, fresh);
	}
	/* a measured summary has no figure without samples */
	json_object_foreach(metrics, name, v)
	{
		if (k->refused || transcribed || !json_object_get(sum, name) ||
		    json_object_get(carried, name))
			continue;
		if (!k->wrong++)
			snprintf(k->sum, k->slen,
				 "cases[%zu] %s has a summary and no samples",
				 idx, name);
		json_object_del(sum, name);
	}
	json_decref(carried);
	/* the marks follow the samples too */
	if (!k->refused && !transcribed &&
	    perturbation_moved(kase, metrics, w, sizeof(w)) && !k->wrong++)
		snprintf(k->sum, k->slen, "cases[%zu] perturbation %s", idx, w);
}

int res_check_summaries(json_t *root, char *err, size_t elen, char *warn,
		       size_t wlen)
{
	int transcribed = json_is_true(json_object_get(root, "transcribed"));
	json_t *metrics = json_object_get(root, "metrics"), *c;
	char sum[1024], rate[512];
	struct chk k = {.err = err,
			.sum = sum,
			.rate = rate,
			.elen = elen,
			.slen = sizeof(sum),
			.rlen = sizeof(rate)};
	size_t i;

	warn[0] = '\0';
	json_array_foreach(json_object_get(root, "cases"), i, c)
	{
		check_case(c, i, metrics, transcribed, &k);
		if (k.refused)
			return -1;
	}
	if (k.wrong)
		snprintf(warn, wlen,
			 "the stored summary disagrees with the samples, "
			 "which are used: %s%s",
			 sum, k.nonpos ? "; " : "");
	if (k.nonpos)
		snprintf(warn + strlen(warn), wlen - strlen(warn), "%s", rate);
	return k.wrong || k.nonpos;
}
