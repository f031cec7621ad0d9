/*
 * cmpsumm.c: zcbreport compare on published summaries. A transcribed
 * seed (or any other tool's published table) carries n, a mean and a
 * standard deviation over runs its samples do not list (seed 004: 50
 * runs, one sample standing for their mean). Such a row is judged by
 * Welch's t-test from those figures (cmp_welch_summary), and says so.
 */
#include "config.h"
#include "judge.h"

#include <math.h>
#include <stdlib.h>

/* A case's n, mean and sd: its summary when that covers more runs than
 * its samples (published figures), else its samples. 0: none. */
static int case_fig(json_t *kase, const char *metric, double *n, double *m,
		    double *sd, int *published)
{
	json_t *sum = json_object_get(json_object_get(kase, "summary"), metric);
	json_t *jn = json_object_get(sum, "n");
	json_t *jm = json_object_get(sum, "mean");
	json_t *js = json_object_get(sum, "stddev");
	double *x = NULL;
	size_t nx = 0, cap = 0;

	res_case_values(kase, metric, &x, &nx, &cap);
	*published = json_is_integer(jn) && json_is_number(jm) &&
		     json_is_number(js) && json_integer_value(jn) >= 2 &&
		     (size_t)json_integer_value(jn) > nx;
	if (*published) {
		*n = (double)json_integer_value(jn);
		*m = json_number_value(jm);
		*sd = json_number_value(js);
	} else if (nx) {
		*n = (double)nx;
		*m = stats_mean(x, nx);
		*sd = nx > 1 ? stats_stddev(x, nx) : 0;
	}
	free(x);
	return *published || nx;
}

int cmp_cases_fig(struct res_pcase *const *cs, size_t ncs, const char *metric,
		  double *n, double *mean, double *sd)
{
	double tot = 0, m = 0, m2 = 0, cn = 0, cm = 0, csd = 0, d;
	size_t i;
	int pub, any = 0;

	/* Chan's pooling of (n, mean, sum of squares), case by case */
	for (i = 0; i < ncs; i++) {
		if (!case_fig(cs[i]->kase, metric, &cn, &cm, &csd, &pub))
			continue;
		any |= pub;
		d = cm - m;
		m += d * cn / (tot + cn);
		m2 += (cn - 1) * csd * csd + d * d * tot * cn / (tot + cn);
		tot += cn;
	}
	if (tot < 1)
		return -1;
	*n = tot;
	*mean = m;
	*sd = tot > 1 ? sqrt(m2 / (tot - 1)) : NAN;
	return any;
}

int cmp_summary_row(const struct ckey *k, const char *metric, struct crow *r)
{
	double n[2], m[2], sd[2];
	int side, pub = 0, p;

	for (side = 0; side < 2; side++) {
		p = cmp_cases_fig(k->c[side], k->n[side], metric, &n[side],
				  &m[side], &sd[side]);
		if (p < 0)
			return 0;
		pub |= p;
	}
	if (!pub)
		return 0;
	r->summ = 1;
	for (side = 0; side < 2; side++) {
		r->n[side] = (size_t)n[side];
		r->v[side] = m[side];
		r->sd[side] = sd[side];
		r->cov[side] = m[side] != 0 ? sd[side] / fabs(m[side]) : NAN;
	}
	r->change = m[0] != 0 ? (m[1] - m[0]) / fabs(m[0]) * 100 : NAN;
	return 1;
}
