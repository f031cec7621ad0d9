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
 * summary: lib/core/result.c picks the rate from it). 1 when the stored one
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

/*
 * One case of rl_check_summaries(): -1 (a transcription contradicted), 1
 * (a measured summary was wrong), else 0; why (may be NULL, len 0)
 * says where.
 */
static int check_case(json_t *kase, size_t idx, json_t *metrics,
		      int transcribed, char *why, size_t len)
{
	/* the figures tables read; stddev first, as one sample has none */
	static const char *const measured[] = {"stddev", "n",	   "mean",
					       "hmean",	 "median", NULL};
	static const char *const published[] = {"mean", "hmean", NULL};
	json_t *sum = json_object_get(kase, "summary");
	json_t *carried = carried_metrics(kase), *v;
	const char *name;
	char w[512];
	int r = 0;

	json_object_foreach(carried, name, v)
	{
		int rate = json_is_true(json_object_get(
			json_object_get(metrics, name), "rate"));
		json_t *old = json_object_get(sum, name), *fresh;
		double *x = NULL;
		size_t n = 0, cap = 0;

		rl_case_values(kase, name, &x, &n, &cap);
		fresh = res_summary_json(x, n, transcribed || rate);
		free(x);
		if (transcribed) {
			r = n &&
			    contradiction(old, fresh, published, w, sizeof(w));
			json_decref(fresh);
			if (r) {
				snprintf(why, len,
					 "transcribed figures contradict the "
					 "samples: cases[%zu] %s %s",
					 idx, name, w);
				break;
			}
			continue;
		}
		if (!r && contradiction(old, fresh, measured + (n < 2), w,
					sizeof(w))) {
			snprintf(why, len, "cases[%zu] %s %s", idx, name, w);
			r = 1;
		}
		json_object_set_new(sum, name, fresh);
	}
	/* a measured summary has no figure without samples */
	json_object_foreach(metrics, name, v)
	{
		if (transcribed || !json_object_get(sum, name) ||
		    json_object_get(carried, name))
			continue;
		if (!r)
			snprintf(why, len,
				 "cases[%zu] %s has a summary and no samples",
				 idx, name);
		r = 1;
		json_object_del(sum, name);
	}
	json_decref(carried);
	/* the marks follow the samples too */
	if (!transcribed && perturbation_moved(kase, metrics, w, sizeof(w)) &&
	    !r) {
		snprintf(why, len, "cases[%zu] perturbation %s", idx, w);
		r = 1;
	}
	return transcribed ? -r : r;
}

int rl_check_summaries(json_t *root, char *why, size_t len)
{
	int transcribed = json_is_true(json_object_get(root, "transcribed"));
	json_t *metrics = json_object_get(root, "metrics"), *c;
	size_t i;
	int r = 0, k;

	json_array_foreach(json_object_get(root, "cases"), i, c)
	{
		k = check_case(c, i, metrics, transcribed, r ? NULL : why,
			       r ? 0 : len);
		if (k < 0)
			return -1;
		r |= k;
	}
	return r;
}
