/*
 * cmpplanh.c: zcbreport plan --history NIGHT...: what the nightly's
 * verdict can find on this box, from the nights it made, and what it
 * would take to find --change with --power. For each case and each of
 * its tool's primary metrics (but one that is another's under a second
 * name, as compare --judge primary folds it: cmp_key_alias), the nights'
 * figures (as compare --history makes them: a night's hmean or mean on
 * logs, with its runs' variance of the mean) give one run's noise (the
 * runs' variance on logs, pooled over the nights) and the drift between
 * nights beyond it (the nights' variance less the mean variance their
 * runs explain). A nightly of r runs a night judged against h nights
 * then finds the change cmp_night_plan gives (cmpnight.h). A row says
 * what it finds now (the nights' median runs, the nights given as its
 * history), then the runs a night that find --change with that history,
 * or, when the drift alone forbids it, the nights of history and runs a
 * night that would (up to PLANH_MAX_NIGHTS), or that none would. With
 * --rounds R (each night's rounds of the suite), runs become rounds.
 */
#include "config.h"
#include "cmpnights.h"
#include "esc.h"
#include "log.h"
#include "primary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLANH_MAX_NIGHTS 60	/* the longest history searched */
#define PLANH_MAX_RUNS 100000	/* the most runs a night searched */

/* A row's noise: one run's and the drift between nights (variances on
 * logs), the nights and their median runs. */
struct noise {
	double run_var, between2;
	size_t nights, runs;
};

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* The noise of key k's metric over the nights; 0, or -1 when it cannot
 * be told (fewer than CMP_MIN_NIGHTS nights, a value <= 0, no night of
 * two runs or more). */
static int row_noise(const struct cmp_cfg *c, const struct ckey *k,
		     const char *metric, int rate, struct noise *ns)
{
	size_t nn = c->nnights + 1, i, j, two = 0, *runs;
	double *m = calloc(nn * 2, sizeof(*m)), *w = m + nn, wsum = 0;
	int *which = calloc(nn, sizeof(*which)), n, e = 0;
	struct kfig f = {0};

	runs = calloc(nn, sizeof(*runs));
	if (!m || !which || !runs)
		abort();
	cmp_key_night_values(c, k, metric, &f);
	n = cmp_nights_figures(c, k, metric, rate, &f, m, w, which);
	if (n < CMP_MIN_NIGHTS)
		e = -1;
	for (i = 0; !e && i < (size_t)n; i++) {
		for (j = 0; j < f.n; j++)
			runs[i] += f.night[j] == which[i];
		if (isfinite(w[i])) { /* its runs' variance: w x runs */
			wsum += w[i];
			ns->run_var = (ns->run_var * (double)two +
				       w[i] * (double)runs[i]) /
				      (double)(two + 1);
			two++;
		}
	}
	if (!e && !two)
		e = -1;
	if (!e) {
		ns->nights = (size_t)n;
		ns->between2 = fmax(0, stats_stddev(m, (size_t)n) *
					       stats_stddev(m, (size_t)n) -
					       wsum / (double)two);
		qsort(runs, (size_t)n, sizeof(*runs), cmp_size);
		ns->runs = runs[(size_t)n / 2];
	}
	free(f.x);
	free(f.night);
	free(f.probe);
	free(m);
	free(which);
	free(runs);
	return e;
}

/* What r runs a night with h nights of history find (a fraction). */
static double finds(const struct cmp_cfg *c, const struct noise *ns, double r,
		    size_t h)
{
	return cmp_night_plan(ns->between2, ns->run_var, r, h, c->o.alpha,
			      c->o.power, c->o.threshold / 100);
}

/* The fewest runs a night (from 1) that find the change with h nights;
 * 0 when none up to PLANH_MAX_RUNS does. */
static size_t runs_for(const struct cmp_cfg *c, const struct noise *ns,
		       size_t h)
{
	size_t r;

	for (r = 1; r <= PLANH_MAX_RUNS; r += r < 100 ? 1 : r / 20)
		if (finds(c, ns, (double)r, h) <= c->o.change / 100)
			return r;
	return 0;
}

/* "N runs a night" or, with --rounds, "(M rounds)" after it. */
static void say_runs(const struct cmp_cfg *c, const struct noise *ns,
		     size_t r, char *b, size_t len)
{
	double per = c->o.rounds > 0 ? (double)ns->runs / (double)c->o.rounds
				     : 0;
	long rounds = per > 0 ? (long)ceil((double)r / per) : 0;

	if (rounds)
		snprintf(b, len, "%zu runs a night (%ld round%s)", r, rounds,
			 rounds == 1 ? "" : "s");
	else
		snprintf(b, len, "%zu runs a night", r);
}

/* The row's "needed" words; returns 1 when no plan finds the change. */
static int needed(const struct cmp_cfg *c, const struct noise *ns, char *b,
		  size_t len)
{
	char rw[80];
	size_t r = runs_for(c, ns, ns->nights), h;

	if (r) {
		say_runs(c, ns, r, rw, sizeof(rw));
		snprintf(b, len, "%s with these %zu nights", rw, ns->nights);
		return 0;
	}
	for (h = ns->nights + 1; h <= PLANH_MAX_NIGHTS; h++) {
		r = runs_for(c, ns, h);
		if (r) {
			say_runs(c, ns, r, rw, sizeof(rw));
			snprintf(b, len,
				 "%zu nights of history and %s: the drift "
				 "between nights (%.1f%%) is too large for %zu",
				 h, rw, 100 * sqrt(ns->between2), ns->nights);
			return 0;
		}
	}
	snprintf(b, len,
		 "never: with %d nights and any runs the drift between "
		 "nights (%.1f%%) allows no less than %.1f%%",
		 PLANH_MAX_NIGHTS, 100 * sqrt(ns->between2),
		 100 * finds(c, ns, PLANH_MAX_RUNS, PLANH_MAX_NIGHTS));
	return 1;
}

/* One key's rows: a primary metric each; counts into *rows, *never. */
static void plan_key(const struct cmp_cfg *c, const struct cmp_nights *nt,
		     const struct ckey *k, struct tbl *t, size_t *rows,
		     size_t *never)
{
	const struct res_pool *s = &nt->set[c->nnights - 1];
	struct noise ns;
	char b[300];
	size_t m, row;

	for (m = 0; m < nt->st.nmetrics; m++) {
		const char *metric = nt->st.metrics[m];

		if (!res_metric_primary(k->c[0][0]->doc->tool, metric) ||
		    cmp_key_alias(&nt->st, k, m))
			continue;
		memset(&ns, 0, sizeof(ns));
		if (row_noise(c, k, metric, res_pool_is_rate(s, metric), &ns))
			continue;
		row = tbl_add_row(t);
		tbl_set(t, row, 0, "%s", k->name);
		tbl_set(t, row, 1, "%s", metric);
		tbl_set(t, row, 2, "%zu", ns.nights);
		tbl_set(t, row, 3, "%zu", ns.runs);
		tbl_set(t, row, 4, "%.1f%%", 100 * sqrt(ns.run_var));
		tbl_set(t, row, 5, "%.1f%%", 100 * sqrt(ns.between2));
		tbl_set(t, row, 6, "%.1f%%",
			100 * finds(c, &ns, (double)ns.runs, ns.nights));
		*never += (size_t)needed(c, &ns, b, sizeof(b));
		tbl_set(t, row, 7, "%s", b);
		(*rows)++;
	}
}

int cmp_plan_history(struct cmp_cfg *c)
{
	struct cmp_nights nt;
	struct tbl *t;
	size_t k, rows = 0, never = 0;
	int r;

	if (c->o.npaths < CMP_MIN_NIGHTS)
		die_usage("plan --history: give %d nights or more, oldest "
			  "first (files or directories)",
			  CMP_MIN_NIGHTS);
	c->o.judge = CJ_PRIMARY; /* a figure under two names is one row */
	r = cmp_nights_open(c, "plan --history", &nt);
	if (!nt.keyed) {
		cmp_nights_close(c, &nt);
		return 2;
	}
	t = tbl_new(8);
	tbl_col(t, 0, "case", AL_LEFT);
	tbl_col(t, 1, "metric", AL_LEFT);
	tbl_col(t, 2, "nights", AL_RIGHT);
	tbl_col(t, 3, "runs", AL_RIGHT);
	tbl_col(t, 4, "one run", AL_RIGHT);
	tbl_col(t, 5, "drift", AL_RIGHT);
	tbl_col(t, 6, "finds now", AL_RIGHT);
	tbl_col(t, 7, "to find the change", AL_LEFT);
	printf("the nightly against its nights: a %g%% change at %g%% power "
	       "(alpha %g, one-sided; changes above %g%%)\n",
	       c->o.change, c->o.power * 100, c->o.alpha, c->o.threshold);
	for (k = 0; k < nt.st.nkeys; k++)
		plan_key(c, &nt, &nt.st.keys[k], t, &rows, &never);
	tbl_print(stdout, t, FMT_TEXT);
	printf("one run: a run's noise (sd on logs); drift: the sd of the "
	       "nights' figures beyond what their runs explain; runs: the "
	       "nights' median; finds now: the smallest change found with "
	       "these runs a night against these nights (compare "
	       "--history's test)\n");
	printf("zcbreport plan --history: %zu row%s over %zu nights", rows,
	       rows == 1 ? "" : "s", c->nnights);
	if (never)
		printf("; %zu row%s where no plan finds the change", never,
		       never == 1 ? "" : "s");
	printf("\n");
	tbl_free(t);
	cmp_plan_lags(&nt);
	cmp_nights_close(c, &nt);
	if (!rows)
		log_err("plan --history: no primary metric with %d nights and "
			"two runs in a night",
			CMP_MIN_NIGHTS);
	return r ? r : rows ? 0 : 2;
}
