/*
 * cmplag.c: zcbreport plan --history's second table, the drift by the
 * time between runs (a semivariogram). For each primary row (as
 * plan_key picks them), every run's figure (the mean log of its
 * samples, a case of a document) at its document's mid-point in time
 * (started, finished); every pair of runs binned by the time between
 * them; in each bin half the mean squared difference of the pairs' log
 * figures, shown as an sd: how far apart two runs that far apart in time
 * are. Flat over the lags: the runs' own noise and nothing more; rising:
 * the box's speed wanders on that time scale, and a night whose runs
 * span less than it carries one draw of that wander (spreading them
 * out averages it). A row whose pairs fill fewer than two bins is left
 * out (runs all at one time scale say nothing of it). The last column, the wander: sqrt(far^2 - near^2),
 * far the pairs LAG_FAR s apart or more pooled, near the first bin with
 * LAG_MIN_PAIRS pairs: the part of two distant runs' difference that
 * runs close together do not share.
 */
#include "config.h"
#include "cmpnights.h"
#include "primary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LAG_BINS      6
#define LAG_MIN_PAIRS 3 /* a bin with fewer pairs shows "-" */
#define LAG_FAR	      3 /* the bins from edge[LAG_FAR] on are "far" */
/* a bin b holds the pairs [edge[b], edge[b + 1]) s apart, the last open */
static const double edge[LAG_BINS] = {0, 10, 40, 160, 640, 2560};

struct lrun {
	double t, y; /* mid-point (s since the epoch), mean log figure */
};

/* An ISO 8601 UTC time ("2026-12-07T20:32:35Z", seconds may have a
 * fraction) as seconds since the epoch; -1 when it is not one. */
static double iso_time(const char *s)
{
	struct tm tm;
	double sec;
	int n = 0;

	memset(&tm, 0, sizeof(tm));
	if (!s ||
	    sscanf(s, "%4d-%2d-%2dT%2d:%2d:%lf%n", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &sec, &n) != 6 ||
	    s[n] != 'Z' || s[n + 1] || !(sec >= 0 && sec < 61))
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm) + sec;
}

/* A document's mid-point, or -1. */
static double doc_mid(const struct res_pdoc *d)
{
	double a = iso_time(
		       json_string_value(json_object_get(d->root, "started"))),
	       b = iso_time(
		       json_string_value(json_object_get(d->root, "finished")));

	return a < 0 || b < a ? -1 : (a + b) / 2;
}

/* Key k's runs of metric with a time and positive values into *out; their
 * count (the caller frees *out). */
static size_t key_runs(const struct ckey *k, const char *metric,
		       struct lrun **out)
{
	struct lrun *r = calloc(k->n[0] ? k->n[0] : 1, sizeof(*r));
	double *x = NULL;
	size_t i, j, n = 0, nx, cap = 0;

	if (!r)
		abort();
	for (i = 0; i < k->n[0]; i++) {
		double t = doc_mid(k->c[0][i]->doc), s = 0;

		nx = 0;
		res_case_values(k->c[0][i]->kase, metric, &x, &nx, &cap);
		for (j = 0; j < nx && x[j] > 0; j++)
			s += log(x[j]);
		if (t < 0 || !nx || j < nx)
			continue;
		r[n].t = t;
		r[n++].y = s / (double)nx;
	}
	free(x);
	*out = r;
	return n;
}

static int bin_of(double lag)
{
	int b = LAG_BINS - 1;

	while (b > 0 && lag < edge[b])
		b--;
	return b;
}

/* "4.6%": sqrt(far^2 - near^2) (0 when far is the smaller), "-" when
 * either has too few pairs (near: a bin below LAG_FAR). */
static const char *wander(const double *sum, const size_t *cnt, char *b,
			  size_t len)
{
	double fs = 0, near = -1, far;
	size_t fc = 0;
	int i;

	for (i = 0; i < LAG_FAR && near < 0; i++)
		if (cnt[i] >= LAG_MIN_PAIRS)
			near = sum[i] / (double)cnt[i];
	for (i = LAG_FAR; i < LAG_BINS; i++) {
		fs += sum[i];
		fc += cnt[i];
	}
	if (near < 0 || fc < LAG_MIN_PAIRS)
		return "-";
	far = fs / (double)fc;
	snprintf(b, len, "%.1f%%", 100 * sqrt(fmax(0, far - near)));
	return b;
}

/* One key's rows into t; the rows added. */
static size_t lag_key(const struct cmp_nights *nt, const struct ckey *k,
		      struct tbl *t)
{
	size_t m, i, j, n, row, added = 0;

	for (m = 0; m < nt->st.nmetrics; m++) {
		const char *metric = nt->st.metrics[m];
		double sum[LAG_BINS] = {0};
		size_t cnt[LAG_BINS] = {0};
		struct lrun *r;
		char w[32];

		if (!res_metric_primary(k->c[0][0]->doc->tool, metric) ||
		    cmp_key_alias(&nt->st, k, m))
			continue;
		n = key_runs(k, metric, &r);
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				int b = bin_of(fabs(r[j].t - r[i].t));
				double d = r[j].y - r[i].y;

				sum[b] += d * d / 2;
				cnt[b]++;
			}
		free(r);
		for (i = 0, j = 0; i < LAG_BINS; i++)
			j += cnt[i] >= LAG_MIN_PAIRS;
		if (j < 2) /* all its runs at one time scale: nothing to say */
			continue;
		row = tbl_add_row(t);
		tbl_set(t, row, 0, "%s", k->name);
		tbl_set(t, row, 1, "%s", metric);
		tbl_set(t, row, 2, "%zu", n);
		for (i = 0; i < LAG_BINS; i++) {
			if (cnt[i] < LAG_MIN_PAIRS)
				tbl_set(t, row, 3 + i, "-");
			else
				tbl_set(t, row, 3 + i, "%.1f%% (%zu)",
					100 * sqrt(sum[i] / (double)cnt[i]),
					cnt[i]);
		}
		tbl_set(t, row, 3 + LAG_BINS, "%s",
			wander(sum, cnt, w, sizeof(w)));
		added++;
	}
	return added;
}

void cmp_plan_lags(const struct cmp_nights *nt)
{
	static const char *head[LAG_BINS] = {"<10 s",	   "10-40 s",
					     "40-160 s",   "160-640 s",
					     "640-2560 s", ">2560 s"};
	struct tbl *t = tbl_new(4 + LAG_BINS);
	size_t k, rows = 0;
	int b;

	tbl_col(t, 0, "case", AL_LEFT);
	tbl_col(t, 1, "metric", AL_LEFT);
	tbl_col(t, 2, "runs", AL_RIGHT);
	for (b = 0; b < LAG_BINS; b++)
		tbl_col(t, 3 + (size_t)b, head[b], AL_RIGHT);
	tbl_col(t, 3 + LAG_BINS, "wander", AL_RIGHT);
	for (k = 0; k < nt->st.nkeys; k++)
		rows += lag_key(nt, &nt->st.keys[k], t);
	if (rows) {
		printf("\nthe drift by the time between runs: every pair of a "
		       "row's runs (a case of a document, at its document's "
		       "mid-point), binned by the time between them:\n");
		tbl_print(stdout, t, FMT_TEXT);
		printf("each bin: sqrt(mean of (log a - log b)^2 / 2) over its "
		       "pairs (how many in brackets; \"-\": fewer than %d), "
		       "the sd one run's figure would have if the pairs were "
		       "all there was; flat over the lags: the runs' own "
		       "noise; rising: the box's speed wanders on that time "
		       "scale, and a night whose runs span less carries one "
		       "draw of it; wander: sqrt(far^2 - near^2), far the "
		       "pairs %.0f s apart or more, near the first bin with "
		       "%d pairs\n",
		       LAG_MIN_PAIRS, edge[LAG_FAR], LAG_MIN_PAIRS);
	}
	tbl_free(t);
}
