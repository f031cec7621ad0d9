/* stats.c: means, spread, percentiles and t intervals; GSL's errors
 * recorded, not fatal. */
#include "config.h"
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
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

/*
 * The chance that a standard random walk's looks S_j / sqrt(j), j = 1..k,
 * all stay below c: the density of S_j on the paths that have not
 * crossed, carried from look to look by convolution with the normal
 * increment. One grid of step POC_H from -POC_LO * sqrt(k) serves every
 * look (the kernel is then one table); each look's density lives on the
 * grid points below its boundary c * sqrt(j) and on the boundary itself,
 * integrated by trapezoids (the last one partial).
 */
#define POC_H  0.02
#define POC_LO 9.0
#define POC_W  450 /* the kernel's half width in steps: 9 sd */
struct poc {
	double lo;     /* the grid's first point */
	double *f;     /* the density at the grid points below the boundary */
	size_t n;      /* how many */
	double fb, xb; /* at the boundary */
};

static double poc_phi(double d)
{
	return exp(-d * d / 2) / sqrt(2 * M_PI);
}

/* the next look's density at x: the last look's, convolved; ker: the
 * normal density at multiples of POC_H; x the grid's point i, or (i
 * SIZE_MAX) any point */
static double poc_next(const struct poc *p, double x, size_t i,
		       const double *ker)
{
	double xl = p->lo + (double)(p->n - 1) * POC_H, w = p->xb - xl, v = 0;

	size_t u0 = i != SIZE_MAX && i > POC_W ? i - POC_W : 0;

	for (size_t u = u0; u + 1 < p->n; u++) {
		double k;

		if (i != SIZE_MAX) {
			size_t d = u > i ? u - i : i - u;

			if (d > POC_W)
				break;
			k = ker[d];
		} else {
			k = poc_phi(x - (p->lo + (double)u * POC_H));
		}
		v += (u == 0 ? 0.5 : 1.0) * POC_H * p->f[u] * k;
	}
	/* the last grid point ends one full and one partial trapezoid */
	v += (POC_H + w) / 2 * p->f[p->n - 1] * poc_phi(x - xl);
	return v + w / 2 * p->fb * poc_phi(x - p->xb);
}

static double pocock_stay(double c, int k)
{
	struct poc p = {.lo = -POC_LO * sqrt((double)k)};
	size_t nmax = (size_t)((c * sqrt((double)k) - p.lo) / POC_H) + 2;
	double *g = calloc(nmax, sizeof(*g)), ker[POC_W + 1], mass = NAN;

	p.f = calloc(nmax, sizeof(*p.f));
	if (!p.f || !g)
		goto out;
	for (int d = 0; d <= POC_W; d++)
		ker[d] = poc_phi(d * POC_H);
	for (int j = 1; j <= k; j++) {
		double hi = c * sqrt((double)j), fb;
		size_t m = (size_t)floor((hi - p.lo) / POC_H) + 1;

		if (p.lo + (double)(m - 1) * POC_H >= hi)
			m--; /* the boundary is a point of its own */
		for (size_t i = 0; i < m; i++)
			g[i] = j == 1 ? poc_phi(p.lo + (double)i * POC_H)
				      : poc_next(&p, p.lo + (double)i * POC_H,
						 i, ker);
		fb = j == 1 ? poc_phi(hi) : poc_next(&p, hi, SIZE_MAX, ker);
		memcpy(p.f, g, m * sizeof(*g));
		p.n = m;
		p.fb = fb;
		p.xb = hi;
	}
	mass = 0;
	for (size_t i = 0; i < p.n; i++)
		mass += (i == 0 || i == p.n - 1 ? 0.5 : 1.0) * POC_H * p.f[i];
	mass += (p.xb - (p.lo + (double)(p.n - 1) * POC_H)) / 2 *
		(p.f[p.n - 1] + p.fb);
out:
	free(p.f);
	free(g);
	return mass;
}

double stats_pocock_z(double alpha, int k)
{
	double lo, hi;

	if (!(alpha > 0 && alpha < 0.5) || k < 1 || k > STATS_POCOCK_MAX)
		return NAN;
	lo = gsl_cdf_ugaussian_Qinv(alpha);
	if (k == 1)
		return lo;
	/* the boundary lies between one look's and Bonferroni's */
	hi = gsl_cdf_ugaussian_Qinv(alpha / k);
	for (int i = 0; i < 40 && hi - lo > 1e-5; i++) {
		double mid = (lo + hi) / 2, stay = pocock_stay(mid, k);

		if (isnan(stay))
			return NAN;
		if (1 - stay > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double stats_pocock_level(double alpha, int k)
{
	double z = stats_pocock_z(alpha, k);

	return isnan(z) ? NAN : gsl_cdf_ugaussian_Q(z);
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
