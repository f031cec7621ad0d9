/*
 * cmprow.c: a key's rows (judge.h): per compared metric, each side's
 * statistic (hmean for rates) and coefficient of variation, Welch's
 * t-test on log values and Mann-Whitney U as a second opinion
 * (--paired: paired t on log ratios and Wilcoxon signed-rank), and the
 * smallest change the row could have flagged. A figure of runs with
 * soakers on is never judged against one of runs without: such a row
 * says why it is not comparable. A row whose cases carry published
 * summaries (n, mean, sd) is judged by Welch from those (cmpsumm.c). A
 * rate row with a value <= 0 has no harmonic mean and is never judged;
 * a row whose test GSL refused is not judged either, and its note names
 * the test and GSL's words (cmpstats.h).
 */
#include "config.h"
#include "judge.h"
#include "primary.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int all_positive(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(x[i] > 0))
			return 0;
	return 1;
}

/* The statistic of one side: hmean for rates (NAN when a sample is
 * <= 0: a rate's mean is then undefined, never the arithmetic one),
 * else the mean. */
static double side_stat(const double *x, size_t n, int rate)
{
	return rate ? stats_hmean(x, n) : stats_mean(x, n);
}

/* The row is not judged: a GSL function refused what a test (what)
 * gave it; the note names the test and GSL's words. */
static void row_failed(struct crow *r, const char *what, const char *err)
{
	snprintf(r->text, sizeof(r->text), "not judged: %s failed: GSL: %s",
		 what, err);
	r->note = r->text;
	r->have_t = r->have_u = 0;
	r->failed = 1;
}

/* The tests of a row of samples (not of published summaries). */
static void row_tests(const struct cmp_cfg *c, struct crow *r, const double *x,
		      size_t nx, const double *y, size_t ny)
{
	int logs = all_positive(x, nx) && all_positive(y, ny), et, eu = 0;
	size_t np = nx < ny ? nx : ny;

	int rank = c->o.mw != CMW_OFF; /* the rank test runs */

	if (c->o.paired) {
		et = cmp_paired_t(x, y, np, logs, 0.95, &r->t);
		rank &= np >= 5;
		if (rank)
			eu = cmp_signed_rank(x, y, np, &r->u);
	} else {
		et = cmp_welch(x, nx, y, ny, logs, 0.95, &r->t);
		rank &= nx >= 5 && ny >= 5;
		if (rank)
			eu = cmp_mann_whitney(x, nx, y, ny, &r->u);
	}
	r->have_u = rank && !eu;
	r->have_t = !et;
	if (et == -EDOM)
		r->note = "not judged: a mean or variance is not finite";
	else if (et == -ERANGE)
		row_failed(r,
			   c->o.paired ? "the paired t-test" : "Welch's t-test",
			   r->t.err);
	else if (eu == -ERANGE)
		row_failed(r,
			   c->o.paired ? "the signed-rank test"
				       : "Mann-Whitney U",
			   r->u.err);
	if (!logs && r->v[0] != 0)
		r->t.ratio = r->v[1] / r->v[0];
}

/* Whether a rate row has a value <= 0 on a side (a sample, or a
 * published mean): then it has no harmonic mean and is not judged. */
static int rate_nonpositive(const struct crow *r, const double *x, size_t nx,
			    const double *y, size_t ny)
{
	if (r->summ)
		return !(r->v[0] > 0) || !(r->v[1] > 0);
	return !all_positive(x, nx) || !all_positive(y, ny);
}

/* The smallest change, percent, a judged row could have flagged. */
static void row_detectable(const struct cmp_cfg *c, struct crow *r)
{
	double need =
		fmax(c->o.threshold, isfinite(r->cov[0]) ? r->cov[0] * 100 : 0);

	r->mde = 100 * cmp_detectable(r->cov[0], r->n[0], r->cov[1], r->n[1],
				      c->o.alpha, 0.9, need / 100);
	if (stats_gsl_error())
		row_failed(r, "the detectable change", stats_gsl_error());
}

static void judge_row(const struct cmp_cfg *c, struct crow *r, int rate,
		      const double *x, size_t nx, const double *y, size_t ny)
{
	int e;

	if ((long)r->n[0] < c->o.min_n || (long)r->n[1] < c->o.min_n) {
		r->note = "too few samples: not judged";
		return;
	}
	if (rate && rate_nonpositive(r, x, nx, y, ny)) {
		r->note = "not judged: a rate <= 0 (no harmonic mean)";
		return;
	}
	if (r->cov[0] * 100 > c->o.max_cov) {
		r->note = "baseline too noisy: not judged";
		return;
	}
	if (r->summ) {
		/* no runs to pair or rank: Welch on the published figures */
		e = cmp_welch_summary(r->v[0], r->sd[0], r->n[0], r->v[1],
				      r->sd[1], r->n[1], 0.95, &r->t);
		r->have_t = !e;
		if (e == -EDOM)
			r->note = "not judged: a mean or deviation is not "
				  "finite";
		else if (e == -ERANGE)
			row_failed(r, "Welch's t-test", r->t.err);
	} else {
		row_tests(c, r, x, nx, y, ny);
	}
	if (r->have_t)
		row_detectable(c, r);
}


/* Count a sample's metric m against the metric it may be an alias of:
 * the same within CMP_ALIAS_TOL of the larger (a meter's copy is the
 * same number; one box's two ends read the box over windows a handshake
 * apart: 0.07-0.24% apart here, where two hosts' ends differ by their
 * work), or for reciprocals (a service demand and its CPU-normalised
 * rate) their product within CMP_ALIAS_TOL of alias_k. */
#define CMP_ALIAS_TOL 0.005
static void alias_check(const struct cmp_state *st, json_t *mo, size_t m,
			struct kfig *f)
{
	json_t *a = json_object_get(mo, st->metrics[m]), *b;
	double x, y;

	if (st->alias[m] < 0 || !json_is_number(a))
		return;
	b = json_object_get(mo, st->metrics[st->alias[m]]);
	if (!json_is_number(b))
		return;
	x = json_number_value(a);
	y = json_number_value(b);
	if (st->alias_k[m] > 0) {
		x *= y;
		y = st->alias_k[m];
	}
	if (fabs(x - y) <= CMP_ALIAS_TOL * fmax(fabs(x), fabs(y)))
		f->same++;
	else
		f->differ++;
}

int cmp_key_alias(const struct cmp_state *st, const struct ckey *k, size_t m)
{
	struct kfig f = {0};
	size_t i, j;
	json_t *s;

	for (i = 0; i < k->n[0]; i++)
		json_array_foreach(json_object_get(k->c[0][i]->kase, "samples"),
				   j, s)
			alias_check(st, json_object_get(s, "metrics"), m, &f);
	return f.same && !f.differ;
}

/*
 * A key's figures of every compared metric (st->metrics) on one side,
 * in one pass over each case: its sample values (res_case_values), the
 * runs behind them (res_case_runs), whether its summary covers more runs
 * than its samples (cmp_summary_row decides). A large compare has
 * thousands of cases a key, each read once here, not once a metric.
 */
static void key_figures(const struct cmp_cfg *c, const struct cmp_state *st,
			const struct ckey *k, int side, struct kfig *f)
{
	size_t i, j, m;
	json_t *s, *v;

	for (i = 0; i < k->n[side]; i++) {
		int night = side || !c->nnights
				    ? -1
				    : cmp_night_of(c, k->c[side][i]);
		json_t *kase = k->c[side][i]->kase;
		json_t *samples = json_object_get(kase, "samples");
		json_t *sum = json_object_get(kase, "summary");

		json_array_foreach(samples, j, s)
		{
			json_t *mo = json_object_get(s, "metrics");
			unsigned run = res_sample_run(s);
			json_t *pj = json_object_get(
				json_object_get(s, "probe"), "Mops");
			double probe = json_is_number(pj)
					       ? json_number_value(pj)
					       : NAN;

			if (run == RUN_DISTURBED) /* made again: no result */
				continue;
			for (m = 0; m < st->nmetrics; m++) {
				alias_check(st, mo, m, &f[m]);
				v = json_object_get(mo, st->metrics[m]);
				if (!json_is_number(v))
					continue;
				f[m].runs |= run;
				if (!isfinite(json_number_value(v)))
					continue;
				f[m].x = res_grow(f[m].x, &f[m].cap, f[m].n,
						 sizeof(*f[m].x));
				if (night >= 0) {
					f[m].night = res_grow(
						f[m].night, &f[m].ncap, f[m].n,
						sizeof(*f[m].night));
					f[m].night[f[m].n] = night;
				}
				f[m].probe = res_grow(f[m].probe, &f[m].pcap,
						     f[m].n,
						     sizeof(*f[m].probe));
				f[m].probe[f[m].n] = probe;
				f[m].x[f[m].n++] = json_number_value(v);
			}
		}
		for (m = 0; m < st->nmetrics; m++) {
			v = json_object_get(
				json_object_get(sum, st->metrics[m]), "n");
			f[m].pub |= json_is_integer(v) &&
				    (size_t)json_integer_value(v) >
					    json_array_size(samples);
		}
	}
}

#define RUNS_SOAKED   (RUN_METERED | RUN_SOAKED)
#define RUNS_UNSOAKED (RUN_UNMETERED | RUN_PLAIN)

static const char *runs_desc(unsigned runs)
{
	if ((runs & RUNS_SOAKED) && (runs & RUNS_UNSOAKED))
		return "runs with and without soakers";
	if (runs == RUN_METERED)
		return "metered runs";
	if (runs == RUN_UNMETERED)
		return "unmetered runs";
	if (runs & RUNS_SOAKED)
		return "runs with soakers on (unpaired)";
	return "runs without soakers";
}

/*
 * A metered figure is never compared with an unmetered one: the runs
 * behind a row must all have had soakers on, or all off. Names keep a
 * paired case's apart (metered_*); this catches an unpaired soaked run
 * (an older document, cyclesoak -- CMD) against a paired or unmetered
 * one, and a side that pools both. 1 (why filled) when not comparable.
 */
static int incomparable(unsigned a, unsigned b, char *why, size_t len)
{
	int mixed = ((a & RUNS_SOAKED) && (a & RUNS_UNSOAKED)) ||
		    ((b & RUNS_SOAKED) && (b & RUNS_UNSOAKED));

	if (!mixed && !!(a & RUNS_SOAKED) == !!(b & RUNS_SOAKED))
		return 0;
	snprintf(why, len, "not comparable: base from %s, new from %s",
		 runs_desc(a), runs_desc(b));
	return 1;
}

/* A latency percentile whose runs kept their histograms on both sides:
 * the figure of each side is that of its merged histograms (cmpmerge.c). */
static void row_merged(const struct ckey *k, const char *metric,
		       struct crow *r)
{
	double m[2];
	int side;

	for (side = 0; side < 2; side++) {
		m[side] = cmp_merged_percentile(k, side, metric);
		if (!isfinite(m[side]))
			return;
	}
	r->v[0] = m[0];
	r->v[1] = m[1];
	r->merged = 1;
}

/* The row of a key and metric (f: each side's figures of it), unless a
 * side has no value. */
static void build_row(const struct cmp_cfg *c, const struct res_pool *s,
		      struct cmp_state *st, size_t ki, const char *metric,
		      const struct kfig f[2])
{
	struct ckey *k = &st->keys[ki];
	int side, rate = res_pool_is_rate(s, metric);
	struct crow *r;

	if (!f[0].n || !f[1].n)
		return;
	if (f[0].same + f[1].same && !f[0].differ && !f[1].differ) {
		st->aliases++; /* the row of the metric it is an alias of */
		return;
	}
	st->rows =
		res_grow(st->rows, &st->caprows, st->nrows, sizeof(*st->rows));
	r = &st->rows[st->nrows++];
	memset(r, 0, sizeof(*r));
	r->key = ki;
	r->metric = metric;
	r->q = NAN;
	for (side = 0; side < 2; side++) {
		double m = stats_mean(f[side].x, f[side].n);

		r->n[side] = f[side].n;
		r->v[side] = side_stat(f[side].x, f[side].n, rate);
		r->cov[side] =
			f[side].n > 1 && m != 0
				? stats_stddev(f[side].x, f[side].n) / fabs(m)
				: NAN;
	}
	row_merged(k, metric, r);
	r->change =
		r->v[0] != 0 ? (r->v[1] - r->v[0]) / fabs(r->v[0]) * 100 : NAN;
	if ((f[0].pub || f[1].pub) && !c->nnights)
		cmp_summary_row(k, metric, r);
	r->t.ratio = r->t.ratio_lo = r->t.ratio_hi = NAN;
	if (incomparable(f[0].runs, f[1].runs, r->why, sizeof(r->why))) {
		r->change = NAN;
		st->incomparable++;
	} else if (c->o.judge == CJ_PRIMARY &&
		   !res_metric_primary(k->c[0][0]->doc->tool, metric)) {
		r->context = 1;
		r->note = "context: not judged";
		st->context++;
	} else if (c->nnights) {
		cmp_history_row(c, k, r, rate, f);
	} else {
		judge_row(c, r, rate, f[0].x, f[0].n, f[1].x, f[1].n);
	}
}

void cmp_key_rows(const struct cmp_cfg *c, const struct res_pool *s,
		  struct cmp_state *st, size_t ki)
{
	struct kfig *f = calloc(2 * st->nmetrics + 2, sizeof(*f));
	size_t m;
	int side;

	if (!f)
		abort();
	for (side = 0; side < 2; side++)
		key_figures(c, st, &st->keys[ki], side,
			    f + side * st->nmetrics);
	for (m = 0; m < st->nmetrics; m++) {
		struct kfig two[2] = {f[m], f[st->nmetrics + m]};

		build_row(c, s, st, ki, st->metrics[m], two);
		free(two[0].x);
		free(two[1].x);
		free(two[0].night);
		free(two[0].probe);
		free(two[1].probe);
	}
	free(f);
}
