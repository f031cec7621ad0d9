/*
 * cmpnight.c: a new night against the prediction interval of the
 * baseline's nights (cmpnight.h): the nights as blocks, their spread the
 * noise, the new night's samples its measurement error.
 */
#include "config.h"
#include "cmpnight.h"
#include "stats.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void night_reset(struct cmp_result *r, struct cmp_night *n)
{
	memset(r, 0, sizeof(*r));
	memset(n, 0, sizeof(*n));
	r->stat = r->df = r->p = r->diff = NAN;
	r->diff_lo = r->diff_hi = r->ratio = r->ratio_lo = r->ratio_hi = NAN;
	r->on_logs = 1;
	stats_gsl_clear();
}

/* The mean of the nights' own variances of the mean (0 when none is
 * known); -EDOM for one that is not finite or negative. */
static int within(const double *w, size_t k, double *mean)
{
	size_t i, n = 0;
	double s = 0;

	*mean = 0;
	for (i = 0; w && i < k; i++) {
		if (isnan(w[i]))
			continue;
		if (!isfinite(w[i]) || w[i] < 0)
			return -EDOM;
		s += w[i];
		n++;
	}
	if (n)
		*mean = s / (double)n;
	return 0;
}

/* t, its one-sided p in the direction of the change, and the interval. */
static void night_finish(struct cmp_result *r, const struct cmp_night *n,
			 double level)
{
	double q;

	if (n->sd > 0) {
		r->stat = r->diff / n->sd;
		r->p = gsl_cdf_tdist_Q(fabs(r->stat), r->df);
	} else {
		/* constant nights and a constant new night */
		r->stat = r->diff == 0 ? 0 : copysign(INFINITY, r->diff);
		r->p = r->diff == 0 ? 1.0 : 0.0;
	}
	q = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, r->df);
	r->diff_lo = r->diff - q * n->sd;
	r->diff_hi = r->diff + q * n->sd;
	r->ratio = exp(r->diff);
	r->ratio_lo = exp(r->diff_lo);
	r->ratio_hi = exp(r->diff_hi);
}

/* The degrees of freedom: k - 1, or fewer (Welch-Satterthwaite) where
 * the new night's own error, known from nx samples, weighs most. */
static double night_df(const struct cmp_night *n, double s2, size_t nx)
{
	double a = n->between * n->between + s2 / (double)n->k;
	double b = n->se * n->se, k1 = (double)n->k - 1, df;

	if (nx < 2 || !(b > 0))
		return k1;
	df = (a + b) * (a + b) / (a * a / k1 + b * b / (double)(nx - 1));
	return fmin(k1, df);
}

int cmp_night_test(const double *m, const double *w, size_t k, double x,
		   double se, size_t nx, double level, struct cmp_result *r,
		   struct cmp_night *n)
{
	double wbar, s2;
	size_t i;
	int e;

	night_reset(r, n);
	n->k = k;
	r->n1 = k;
	r->n2 = 1;
	if (k < CMP_MIN_NIGHTS)
		return -EINVAL;
	for (i = 0; i < k; i++)
		if (!isfinite(m[i]))
			return -EDOM;
	if (!isfinite(x) || !isfinite(se) || se < 0)
		return -EDOM;
	e = within(w, k, &wbar);
	if (e)
		return e;
	n->mean = stats_mean(m, k);
	n->spread = stats_stddev(m, k);
	s2 = n->spread * n->spread;
	n->between = sqrt(fmax(0, s2 - wbar));
	n->se = se;
	n->sd = sqrt(n->between * n->between + se * se + s2 / (double)k);
	r->diff = x - n->mean;
	r->df = n->df = night_df(n, s2, nx);
	night_finish(r, n, level);
	if (stats_gsl_error()) {
		snprintf(r->err, sizeof(r->err), "%s", stats_gsl_error());
		return -ERANGE;
	}
	return 0;
}

double cmp_night_detectable(const struct cmp_night *n, double alpha,
			    double power, double floor)
{
	double df = n->df, tp, l;

	stats_gsl_clear();
	if (n->k < CMP_MIN_NIGHTS || !isfinite(n->sd) || !(df > 0))
		return NAN;
	tp = gsl_cdf_tdist_Pinv(power, df);
	l = (gsl_cdf_tdist_Pinv(1.0 - alpha, df) + tp) * n->sd;
	if (floor > 0 && log1p(floor) + tp * n->sd > l)
		l = log1p(floor) + tp * n->sd;
	return stats_gsl_error() ? NAN : expm1(l);
}

double cmp_night_plan(double between2, double run_var, double r, size_t h,
		      double alpha, double power, double floor)
{
	struct cmp_night n = {.k = h, .df = (double)h - 1};
	double v = between2 + run_var / r;

	if (h < CMP_MIN_NIGHTS || !(r >= 1) || !(between2 >= 0) ||
	    !(run_var >= 0) || !isfinite(v))
		return NAN;
	n.sd = sqrt(v * (1 + 1 / (double)h));
	return cmp_night_detectable(&n, alpha, power, floor);
}
