/* stats.c: means, spread, percentiles and t intervals; GSL's errors
 * recorded, not fatal. */
#include "config.h"
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The calling thread's first GSL error since its last clear ("" none). */
static __thread char gsl_err[160];

static void gsl_record(const char *reason, const char *file, int line,
		       int gsl_errno)
{
	(void)gsl_errno;
	if (!gsl_err[0])
		snprintf(gsl_err, sizeof(gsl_err), "%s (%s:%d)",
			 reason ? reason : "error", file ? file : "?", line);
}

static void gsl_install(void)
{
	gsl_set_error_handler(gsl_record);
}

void stats_gsl_clear(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, gsl_install);
	gsl_err[0] = '\0';
}

const char *stats_gsl_error(void)
{
	return gsl_err[0] ? gsl_err : NULL;
}

double stats_mean(const double *x, size_t n)
{
	double s = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double stats_hmean(const double *x, size_t n)
{
	double s = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		s += 1.0 / x[i];
	}
	return (double)n / s;
}

double stats_stddev(const double *x, size_t n)
{
	double m, s = 0;
	size_t i;

	if (n < 2)
		return n ? 0.0 : NAN;
	m = stats_mean(x, n);
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return sqrt(s / (double)(n - 1));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double *sorted_copy(const double *x, size_t n)
{
	double *c = malloc(n * sizeof(*c));

	if (!c)
		abort();
	memcpy(c, x, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	return c;
}

static double pct_sorted(const double *c, size_t n, double p)
{
	double h, lo;
	size_t i;

	if (p <= 0)
		return c[0];
	if (p >= 100)
		return c[n - 1];
	h = (double)(n - 1) * p / 100.0;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return c[n - 1];
	return c[i] + (h - lo) * (c[i + 1] - c[i]);
}

double stats_percentile(const double *x, size_t n, double p)
{
	double *c, v;

	if (!n)
		return NAN;
	c = sorted_copy(x, n);
	v = pct_sorted(c, n, p);
	free(c);
	return v;
}

double stats_median(const double *x, size_t n)
{
	return stats_percentile(x, n, 50);
}

double stats_t_quantile(double level, double df)
{
	if (df < 1)
		return NAN;
	return gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, df);
}

double stats_ci_halfwidth(const double *x, size_t n, double level)
{
	if (n < 2)
		return NAN;
	return stats_t_quantile(level, (double)(n - 1)) * stats_stddev(x, n) /
	       sqrt((double)n);
}

void stats_summarize(const double *x, size_t n, struct stats_summary *s)
{
	double *c, h;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n) {
		s->mean = s->hmean = s->stddev = s->cov = NAN;
		s->min = s->median = s->max = s->ci95_lo = s->ci95_hi = NAN;
		return;
	}
	c = sorted_copy(x, n);
	s->mean = stats_mean(x, n);
	s->hmean = stats_hmean(x, n);
	s->stddev = stats_stddev(x, n);
	s->cov = s->mean != 0 ? s->stddev / fabs(s->mean) : NAN;
	s->min = c[0];
	s->max = c[n - 1];
	s->median = pct_sorted(c, n, 50);
	h = stats_ci_halfwidth(x, n, 0.95);
	s->ci95_lo = n > 1 ? s->mean - h : NAN;
	s->ci95_hi = n > 1 ? s->mean + h : NAN;
	free(c);
}

void stats_ratio_paired(const double *num, const double *den, size_t n,
			struct stats_ratio *r)
{
	double *l = calloc(n + 1, sizeof(*l)), m, h;
	size_t i;

	if (!l)
		abort();
	memset(r, 0, sizeof(*r));
	r->min = INFINITY;
	for (i = 0; i < n; i++) {
		if (!(num[i] > 0) || !(den[i] > 0))
			continue;
		l[r->n++] = log(num[i] / den[i]);
		r->min = fmin(r->min, num[i] / den[i]);
		r->max = fmax(r->max, num[i] / den[i]);
	}
	r->ratio = r->lo = r->hi = NAN;
	if (r->n) {
		m = stats_mean(l, r->n);
		h = stats_ci_halfwidth(l, r->n, 0.95);
		r->ratio = exp(m);
		if (r->n > 1) {
			r->lo = exp(m - h);
			r->hi = exp(m + h);
		}
	} else {
		r->min = r->max = NAN;
	}
	free(l);
}

int stats_confidence_reached(const double *x, size_t n, double level,
			     double width_pct)
{
	double m, h;

	if (n < 2)
		return 0;
	m = stats_mean(x, n);
	h = stats_ci_halfwidth(x, n, level / 100.0);
	if (!(m != 0) || !isfinite(h))
		return 0;
	return 2 * h / fabs(m) * 100.0 <= width_pct;
}
