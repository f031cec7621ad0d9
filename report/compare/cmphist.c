/*
 * cmphist.c: compare --history (judge.h): a row of the new night judged
 * against the baseline's last nights (cmpnight.h). Each night's figure
 * is its statistic (hmean for rates, else the mean; a latency
 * percentile's from that night's merged histograms) on logs, with its
 * samples' variance of the mean; the new night's likewise with its
 * standard error. The row's baseline figure is the nights' geometric
 * mean, its spread (+- x%) theirs, n the baseline's samples; the q is of
 * the one-sided p. A row needs CMP_MIN_NIGHTS nights that have it.
 */
#include "config.h"
#include "judge.h"
#include "cmpprobe.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmp_night_of(const struct cmp_cfg *c, const struct res_pcase *rc)
{
	size_t i;

	for (i = 0; i < c->nnights; i++)
		if (rc->doc >= c->nights[i].docs &&
		    rc->doc < c->nights[i].docs + c->nights[i].ndocs)
			return (int)i;
	return -1;
}

/* One night's figure (log), its variance of the mean (NAN from one
 * sample), from values x[0..n); -EDOM for a value <= 0 (no log). */
static int night_fig(const double *x, size_t n, int rate, double *m, double *w)
{
	double *l = malloc((n ? n : 1) * sizeof(*l)), sd, v;
	size_t i;

	if (!l)
		abort();
	for (i = 0; i < n; i++)
		if (!(x[i] > 0))
			break;
	v = i == n ? (rate ? stats_hmean(x, n) : stats_mean(x, n)) : NAN;
	for (i = 0; isfinite(v) && i < n; i++)
		l[i] = log(x[i]);
	if (isfinite(v) && n > 1)
		sd = stats_stddev(l, n);
	else
		sd = NAN;
	free(l);
	if (!(v > 0))
		return -EDOM;
	*m = log(v);
	*w = n > 1 ? sd * sd / (double)n : NAN;
	return 0;
}

/* A night's cases of key k (the base side), into cs; their count. */
static size_t night_cases(const struct cmp_cfg *c, const struct ckey *k,
			  int night, struct res_pcase **cs)
{
	size_t i, n = 0;

	for (i = 0; i < k->n[0]; i++)
		if (cmp_night_of(c, k->c[0][i]) == night)
			cs[n++] = k->c[0][i];
	return n;
}

/* A latency percentile: a night's figure from its merged histograms
 * when the night kept them (else its samples' statistic, in m). */
static void night_merged(const struct cmp_cfg *c, const struct ckey *k,
			 const char *metric, int night, double *m)
{
	struct res_pcase **cs = calloc(k->n[0] + 1, sizeof(*cs));
	double v;

	if (!cs)
		abort();
	v = cmp_cases_percentile(cs, night_cases(c, k, night, cs), metric);
	if (v > 0)
		*m = log(v);
	free(cs);
}

int cmp_nights_figures(const struct cmp_cfg *c, const struct ckey *k,
		       const char *metric, int rate, const struct kfig *f,
		       double *m, double *w, int *which)
{
	double *x = malloc((f->n ? f->n : 1) * sizeof(*x));
	size_t i, j, nx, k_ = 0;
	int e = 0;

	if (!x)
		abort();
	for (i = 0; i < c->nnights && !e; i++) {
		for (j = nx = 0; j < f->n; j++)
			if (f->night[j] == (int)i)
				x[nx++] = f->x[j];
		if (!nx)
			continue;
		e = night_fig(x, nx, rate, &m[k_], &w[k_]);
		if (!e && !isnan(cmp_metric_percentile(metric)))
			night_merged(c, k, metric, (int)i, &m[k_]);
		if (which)
			which[k_] = (int)i;
		k_++;
	}
	free(x);
	return e ? e : (int)k_;
}

/* The new night's figure (log) and standard error; -EDOM. */
static int new_fig(const struct ckey *k, const char *metric, int rate,
		   const struct kfig *f, double *x, double *se)
{
	double w, v;

	if (night_fig(f->x, f->n, rate, x, &w))
		return -EDOM;
	*se = isfinite(w) ? sqrt(w) : 0;
	v = cmp_merged_percentile(k, 1, metric);
	if (v > 0)
		*x = log(v);
	return 0;
}

/* The row's figures from the test: the baseline is the nights'. */
static void history_figures(const struct cmp_cfg *c, struct crow *r, double x)
{
	r->hist = 1;
	r->have_t = 1;
	r->v[0] = exp(r->night.mean);
	r->v[1] = exp(x);
	r->cov[0] = r->night.spread;
	r->change = expm1(r->t.diff) * 100;
	r->mde = 100 * cmp_night_detectable(&r->night, c->o.alpha, 0.9,
					    c->o.threshold / 100);
}

/* The figures adjusted for the box probe (cmpprobe.h) into g, when every
 * sample has one and --no-probe is not given (r->probe_b the slope; the
 * adjusted values, to free, returned), else f's own (NULL). A
 * percentile's figure is its merged histograms': not adjusted. */
static double *probe_figures(const struct cmp_cfg *c, struct crow *r,
			  const struct kfig f[2], struct kfig g[2])
{
	double *a = malloc((f[0].n + f[1].n + 1) * sizeof(*a));

	if (!a)
		abort();
	g[0] = f[0];
	g[1] = f[1];
	r->probe_b = NAN;
	if (c->o.no_probe || !isnan(cmp_metric_percentile(r->metric)) ||
	    cmp_probe_adjust(f[0].x, f[0].probe, f[0].n, f[1].x, f[1].probe,
			     f[1].n, a, a + f[0].n, &r->probe_b)) {
		free(a);
		return NULL;
	}
	g[0].x = a;
	g[1].x = a + f[0].n;
	return a;
}

void cmp_history_row(const struct cmp_cfg *c, const struct ckey *k,
		     struct crow *r, int rate, const struct kfig f0[2])
{
	double *m = calloc(c->nnights + 1, sizeof(*m) * 2), *w, x, se;
	struct kfig f[2];
	double *own;
	int nk, e;

	if (!m)
		abort();
	own = probe_figures(c, r, f0, f);
	w = m + c->nnights + 1;
	nk = cmp_nights_figures(c, k, r->metric, rate, &f[0], m, w, NULL);
	if (nk < 0 || new_fig(k, r->metric, rate, &f[1], &x, &se))
		r->note = "not judged: a figure <= 0 (no log)";
	else if (nk < CMP_MIN_NIGHTS) {
		snprintf(r->text, sizeof(r->text),
			 "not judged: %d night%s of history, %d needed", nk,
			 nk == 1 ? "" : "s", CMP_MIN_NIGHTS);
		r->note = r->text;
	} else if ((long)f[1].n < c->o.min_n)
		r->note = "too few samples: not judged";
	else if ((e = cmp_night_test(m, w, (size_t)nk, x, se, f[1].n, 0.95,
				     &r->t, &r->night)) == -ERANGE) {
		snprintf(r->text, sizeof(r->text),
			 "not judged: the night test failed: GSL: %s",
			 r->t.err);
		r->note = r->text;
		r->failed = 1;
	} else if (e) {
		r->note = "not judged: a figure is not finite";
	} else if (r->night.spread * 100 > c->o.max_cov) {
		r->note = "baseline too noisy: not judged";
	} else {
		history_figures(c, r, x);
	}
	free(own);
	free(m);
}

const char *cmp_history_words(const struct cmp_cfg *c)
{
	static char b[960];

	snprintf(b, sizeof(b),
		 "history: each row against the baseline's %d nights (those "
		 "that have it: \"k nights\"): its figure the nights' "
		 "geometric mean, +- their spread (the sd of their log "
		 "figures); the new night's figure with its own standard "
		 "error; p one-sided, of a t on logs against the prediction "
		 "of a new night (the spread between nights beyond their "
		 "samples' noise, the new night's error, the mean's), df = "
		 "k - 1 or fewer; then Benjamini-Hochberg%s",
		 c->o.npaths - 1,
		 c->o.no_probe
			 ? ""
			 : "; where every sample carries a box probe "
			   "(--probe), its figures first adjusted for it: "
			   "x (P/p)^b, b the slope of log x on log p over "
			   "the baseline's samples, P their probes' "
			   "geometric mean");
	return b;
}
