/*
 * cmpstats.c: significance tests for comparing two sets of runs: Welch's
 * t-test, Mann-Whitney U, paired t, Wilcoxon signed-rank and
 * Benjamini-Hochberg. The rank tests follow R's wilcox.test: exact
 * distributions for small tie-free samples, else the normal
 * approximation with tie and continuity correction.
 */
#include "config.h"
#include "cmpstats.h"
#include "stats.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXACT_MAX 50 /* exact rank distributions below this size */

static void result_reset(struct cmp_result *r)
{
	memset(r, 0, sizeof(*r));
	r->stat = r->df = r->p = r->diff = NAN;
	r->diff_lo = r->diff_hi = r->ratio = r->ratio_lo = r->ratio_hi = NAN;
}

/* A test's start: a fresh result, GSL's guard on, no error recorded. */
static void result_init(struct cmp_result *r)
{
	result_reset(r);
	stats_gsl_clear();
}

/* A test's end: 0, or -ERANGE with what GSL refused since result_init. */
static int gsl_verdict(struct cmp_result *r)
{
	const char *e = stats_gsl_error();

	if (!e)
		return 0;
	snprintf(r->err, sizeof(r->err), "%s", e);
	return -ERANGE;
}

/* Copy x, log-transformed when asked; NULL and *err = -EDOM on x <= 0. */
static double *prepare(const double *x, size_t n, int on_logs, int *err)
{
	double *c = malloc((n ? n : 1) * sizeof(*c));
	size_t i;

	if (!c)
		abort();
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]) || (on_logs && !(x[i] > 0))) {
			free(c);
			*err = -EDOM;
			return NULL;
		}
		c[i] = on_logs ? log(x[i]) : x[i];
	}
	return c;
}

static double t_two_sided(double t, double df)
{
	return 2.0 * gsl_cdf_tdist_Q(fabs(t), df);
}

/* Fill t, p and the interval from a difference and its standard error. */
static void t_finish(struct cmp_result *r, double diff, double se, double df,
		     double level)
{
	double q;

	r->diff = diff;
	r->df = df;
	if (se > 0) {
		r->stat = diff / se;
		r->p = t_two_sided(r->stat, df);
	} else {
		/* constant data: equal means are no change, others are */
		r->stat = diff == 0 ? 0 : copysign(INFINITY, diff);
		r->p = diff == 0 ? 1.0 : 0.0;
	}
	q = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, df);
	r->diff_lo = diff - q * se;
	r->diff_hi = diff + q * se;
	if (r->on_logs) {
		r->ratio = exp(diff);
		r->ratio_lo = exp(r->diff_lo);
		r->ratio_hi = exp(r->diff_hi);
	}
}

/* Welch from each side's mean, variance and count (the t on means). */
static void welch_core(double ma, double va, size_t na, double mb, double vb,
		       size_t nb, double level, struct cmp_result *r)
{
	double sa = va / (double)na, sb = vb / (double)nb, df;

	if (sa + sb > 0)
		df = (sa + sb) * (sa + sb) /
		     (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	else
		df = (double)(na + nb - 2);
	t_finish(r, mb - ma, sqrt(sa + sb), df, level);
}

int cmp_welch(const double *a, size_t na, const double *b, size_t nb,
	      int on_logs, double level, struct cmp_result *r)
{
	double *x, *y, ma, mb, va, vb;
	int err = 0;

	result_init(r);
	r->n1 = na;
	r->n2 = nb;
	r->on_logs = on_logs;
	if (na < 2 || nb < 2)
		return -EINVAL;
	x = prepare(a, na, on_logs, &err);
	y = x ? prepare(b, nb, on_logs, &err) : NULL;
	if (!y) {
		free(x);
		return err;
	}
	ma = stats_mean(x, na);
	mb = stats_mean(y, nb);
	va = stats_stddev(x, na);
	vb = stats_stddev(y, nb);
	free(x);
	free(y);
	va *= va;
	vb *= vb;
	if (!isfinite(ma) || !isfinite(mb) || !isfinite(va) || !isfinite(vb))
		return -EDOM;
	welch_core(ma, va, na, mb, vb, nb, level, r);
	return gsl_verdict(r);
}

int cmp_welch_summary(double ma, double sda, size_t na, double mb, double sdb,
		      size_t nb, double level, struct cmp_result *r)
{
	struct cmp_result l;
	double ca, cb;

	result_init(r);
	r->n1 = na;
	r->n2 = nb;
	if (na < 2 || nb < 2)
		return -EINVAL;
	if (!isfinite(ma) || !isfinite(mb) || !(sda >= 0) || !(sdb >= 0) ||
	    !isfinite(sda) || !isfinite(sdb))
		return -EDOM;
	welch_core(ma, sda * sda, na, mb, sdb * sdb, nb, level, r);
	if (!(ma > 0) || !(mb > 0))
		return gsl_verdict(r);
	/* the ratio's interval on logs, by the delta method:
	 * var(log mean) ~ (sd / mean)^2 / n */
	result_reset(&l);
	l.on_logs = 1;
	ca = sda / ma;
	cb = sdb / mb;
	welch_core(log(ma), ca * ca, na, log(mb), cb * cb, nb, level, &l);
	r->ratio = mb / ma;
	r->ratio_lo = l.ratio_lo;
	r->ratio_hi = l.ratio_hi;
	return gsl_verdict(r);
}

int cmp_paired_t(const double *a, const double *b, size_t n, int on_logs,
		 double level, struct cmp_result *r)
{
	double *d;
	size_t i;

	result_init(r);
	r->n1 = r->n2 = n;
	r->on_logs = on_logs;
	if (n < 2)
		return -EINVAL;
	d = malloc(n * sizeof(*d));
	if (!d)
		abort();
	for (i = 0; i < n; i++) {
		if (!isfinite(a[i]) || !isfinite(b[i]) ||
		    (on_logs && !(a[i] > 0 && b[i] > 0))) {
			free(d);
			return -EDOM;
		}
		d[i] = on_logs ? log(b[i] / a[i]) : b[i] - a[i];
	}
	t_finish(r, stats_mean(d, n), stats_stddev(d, n) / sqrt((double)n),
		 (double)(n - 1), level);
	free(d);
	return gsl_verdict(r);
}

struct ranked {
	double v;    /* the value */
	size_t from; /* index in the input */
};

static int cmp_ranked(const void *p, const void *q)
{
	const struct ranked *x = p, *y = q;

	return x->v < y->v ? -1 : x->v > y->v;
}

/*
 * Average ranks (1-based) of v[0..n) into rank[]; returns the tie term
 * sum(t^3 - t) over groups of t equal values.
 */
static double rank_values(const double *v, size_t n, double *rank)
{
	struct ranked *s = malloc((n ? n : 1) * sizeof(*s));
	double ties = 0;
	size_t i, j, k;

	if (!s)
		abort();
	for (i = 0; i < n; i++) {
		s[i].v = v[i];
		s[i].from = i;
	}
	qsort(s, n, sizeof(*s), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && s[j].v == s[i].v; j++)
			;
		t = (double)(j - i);
		for (k = i; k < j; k++)
			rank[s[k].from] = ((double)i + 1 + (double)j) / 2.0;
		ties += t * t * t - t;
	}
	free(s);
	return ties;
}

/* Counts over 0..top made a cumulative distribution, in place. */
static double *to_cdf(double *f, size_t top)
{
	double total = 0;
	size_t k;

	for (k = 0; k <= top; k++) {
		total += f[k];
		f[k] = total;
	}
	for (k = 0; k <= top; k++)
		f[k] /= total;
	return f;
}

/*
 * Exact null distribution of U for sizes m, n: the coefficients of the
 * Gaussian binomial [m+n choose m](q) = prod_{i=1..m} (1-q^(n+i))/(1-q^i).
 * Returns P(U <= u) for u = 0..mn in a new array.
 */
static double *mw_cdf(size_t m, size_t n)
{
	size_t top = m * n, i, k;
	double *f = calloc(top + 1, sizeof(*f));

	if (!f)
		abort();
	f[0] = 1;
	for (i = 1; i <= m; i++) {
		/* multiply by (1 - q^(n+i)) from the top down */
		for (k = top; k >= n + i; k--)
			f[k] -= f[k - (n + i)];
		/* divide by (1 - q^i): running sum with stride i */
		for (k = i; k <= top; k++)
			f[k] += f[k - i];
	}
	return to_cdf(f, top);
}

/* Exact distribution of V for n ranks: prod_{i=1..n} (1 + q^i). */
static double *sr_cdf(size_t n)
{
	size_t top = n * (n + 1) / 2, i, k;
	double *f = calloc(top + 1, sizeof(*f));

	if (!f)
		abort();
	f[0] = 1;
	for (i = 1; i <= n; i++)
		for (k = top; k >= i; k--)
			f[k] += f[k - i];
	return to_cdf(f, top);
}

/* R's two-sided exact p from a cdf over 0..top, statistic s. */
static double exact_p(const double *cdf, size_t top, double s)
{
	double p;
	long u = lround(s);

	if (s > (double)top / 2.0)
		p = 1.0 - (u - 1 >= 0 ? cdf[u - 1] : 0.0); /* P(S >= s) */
	else
		p = cdf[u];
	return fmin(1.0, 2.0 * p);
}

static double normal_p(double z, double sigma)
{
	double c = z > 0 ? 0.5 : (z < 0 ? -0.5 : 0);

	if (!(sigma > 0))
		return z == 0 ? 1.0 : NAN;
	z = (z - c) / sigma;
	return 2.0 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z));
}

int cmp_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		     struct cmp_result *r)
{
	size_t n = na + nb, i;
	double *v, *rank, ties, w = 0, m1 = (double)na, m2 = (double)nb;

	result_init(r);
	r->n1 = na;
	r->n2 = nb;
	if (!na || !nb)
		return -EINVAL;
	v = malloc(n * sizeof(*v));
	rank = malloc(n * sizeof(*rank));
	if (!v || !rank)
		abort();
	memcpy(v, b, nb * sizeof(*v));
	memcpy(v + nb, a, na * sizeof(*v));
	ties = rank_values(v, n, rank);
	for (i = 0; i < nb; i++)
		w += rank[i];
	r->stat = w - m2 * (m2 + 1) / 2.0;
	if (na < EXACT_MAX && nb < EXACT_MAX && ties == 0) {
		double *cdf = mw_cdf(nb, na);

		r->p = exact_p(cdf, na * nb, r->stat);
		r->exact = 1;
		free(cdf);
	} else {
		double sigma = sqrt(
			m1 * m2 / 12.0 *
			((m1 + m2 + 1) - ties / ((m1 + m2) * (m1 + m2 - 1))));

		r->p = normal_p(r->stat - m1 * m2 / 2.0, sigma);
	}
	free(v);
	free(rank);
	return gsl_verdict(r);
}

int cmp_signed_rank(const double *a, const double *b, size_t n,
		    struct cmp_result *r)
{
	double *d = malloc((n ? n : 1) * sizeof(*d)), *rank, ties, v = 0, m;
	size_t i, k = 0;

	result_init(r);
	r->n1 = r->n2 = n;
	if (!d)
		abort();
	for (i = 0; i < n; i++)
		if (b[i] - a[i] != 0)
			d[k++] = b[i] - a[i];
	if (!k) {
		free(d);
		return -EINVAL;
	}
	rank = malloc(k * sizeof(*rank));
	if (!rank)
		abort();
	for (i = 0; i < k; i++)
		rank[i] = fabs(d[i]);
	ties = rank_values(rank, k, rank);
	for (i = 0; i < k; i++)
		if (d[i] > 0)
			v += rank[i];
	r->stat = v;
	m = (double)k;
	if (k < EXACT_MAX && ties == 0 && k == n) {
		double *cdf = sr_cdf(k);

		r->p = exact_p(cdf, k * (k + 1) / 2, v);
		r->exact = 1;
		free(cdf);
	} else {
		r->p = normal_p(
			v - m * (m + 1) / 4.0,
			sqrt(m * (m + 1) * (2 * m + 1) / 24.0 - ties / 48.0));
	}
	free(d);
	free(rank);
	return gsl_verdict(r);
}

struct pidx {
	double p; /* p-value */
	size_t i; /* its index in the input */
};

static int cmp_pidx(const void *x, const void *y)
{
	const struct pidx *a = x, *b = y;

	return a->p < b->p ? -1 : a->p > b->p;
}

void cmp_bh_adjust(const double *p, size_t n, double *q)
{
	struct pidx *s = malloc((n ? n : 1) * sizeof(*s));
	size_t m = 0, i, k;
	double run = 1.0;

	if (!s)
		abort();
	for (i = 0; i < n; i++)
		if (!isnan(p[i])) {
			s[m].p = p[i];
			s[m++].i = i;
		}
	qsort(s, m, sizeof(*s), cmp_pidx);
	for (i = 0; i < n; i++)
		if (isnan(p[i]))
			q[i] = NAN;
	for (k = m; k-- > 0;) {
		double v = s[k].p * (double)m / (double)(k + 1);

		run = fmin(run, v);
		q[s[k].i] = fmin(run, 1.0);
	}
	free(s);
}

double cmp_detectable(double cva, size_t na, double cvb, size_t nb,
		      double alpha, double power, double floor)
{
	double sa, sb, df, se, tp, l;

	stats_gsl_clear();
	if (na < 2 || nb < 2 || !isfinite(cva) || !isfinite(cvb))
		return NAN;
	sa = cva * cva / (double)na;
	sb = cvb * cvb / (double)nb;
	se = sqrt(sa + sb);
	if (!(se > 0))
		return floor > 0 ? floor : 0;
	df = (sa + sb) * (sa + sb) /
	     (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	tp = gsl_cdf_tdist_Pinv(power, df);
	l = (gsl_cdf_tdist_Pinv(1.0 - alpha / 2.0, df) + tp) * se;
	if (floor > 0 && log1p(floor) + tp * se > l)
		l = log1p(floor) + tp * se;
	return stats_gsl_error() ? NAN : expm1(l);
}
