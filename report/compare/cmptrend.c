/*
 * cmptrend.c: zcbreport trend NIGHT...: where each metric's nightly
 * series shifted. The nights (oldest first, a path each) are matched into
 * compare's case keys (cmpjudge.c: tool, params, pairing); each key's
 * metric (each tool's primary ones unless --judge all or --metric) makes
 * a series of night figures, as compare --history makes them (a rate's
 * hmean, a percentile's merged histograms; on logs), and E-divisive means
 * (edivisive.h) names the nights where it shifted: the night each new
 * level starts, the levels before and after and the change, and the
 * permutation p. A series needs 3 nights on each side of a shift. Strings
 * of the documents and paths are escaped. Exit 0, 2 on bad input.
 */
#include "config.h"
#include "edivisive.h"
#include "esc.h"
#include "cmpnights.h"
#include "log.h"
#include "primary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TREND_SIDE  3	/* nights on each side of a shift at least */
#define TREND_PERMS 199 /* permutations of each test */
#define TREND_MAXCP 16	/* change points of one series */

struct trend {
	struct cmp_cfg c;      /* with the nights */
	struct cmp_nights ns;  /* the nights and their keys */
	size_t series, points; /* series searched, change points found */
	size_t few;	       /* series too short */
};

/* Night i's name: its label, "@" its path's last part. */
static const char *night_name(const struct trend *t, size_t i, char *b,
			      size_t l)
{
	const char *p = t->c.o.paths[i], *e = p + strlen(p), *s;
	char raw[512];

	while (e > p + 1 && e[-1] == '/')
		e--;
	for (s = e; s > p && s[-1] != '/'; s--)
		;
	snprintf(raw, sizeof(raw), "%s@%.*s",
		 t->ns.set[i].ndocs ? t->ns.set[i].docs[0].label : "?", (int)(e - s),
		 s);
	return esc_text(b, l, raw);
}

/* The geometric mean of z[a, b), as a figure. */
static double level(const double *z, size_t a, size_t b)
{
	double s = 0;
	size_t i;

	for (i = a; i < b; i++)
		s += z[i];
	return exp(s / (double)(b - a));
}

/* One change point's line. */
static void print_point(const struct trend *t, const struct ckey *k,
			const char *metric, const double *z, const int *which,
			size_t n, const struct ediv_point *cp, size_t np,
			size_t i)
{
	size_t a = i ? cp[i - 1].at : 0, b = cp[i].at;
	size_t e = i + 1 < np ? cp[i + 1].at : n;
	double before = level(z, a, b), after = level(z, b, e);
	int better = res_pool_better(&t->ns.set[t->c.nnights - 1], metric);
	char ek[1024], em[256], en[600], eu[128], vb[32], va[32];

	fmt_auto(vb, sizeof(vb), before);
	fmt_auto(va, sizeof(va), after);
	printf("%s  %s: shifted at night %d (%s): %s -> %s %s (%+.2f%%%s), "
	       "p %.3f\n",
	       esc_text(ek, sizeof(ek), k->name),
	       esc_text(em, sizeof(em), metric), which[b] + 1,
	       night_name(t, (size_t)which[b], en, sizeof(en)), vb, va,
	       esc_text(eu, sizeof(eu),
			res_pool_unit(&t->ns.set[t->c.nnights - 1], metric)),
	       (after / before - 1) * 100,
	       !better				  ? ""
	       : (after < before) == (better > 0) ? ", worse"
						  : ", better",
	       cp[i].p);
}

/* Search one series (a key and metric) and print its change points. */
static void trend_series(struct trend *t, const struct ckey *k,
			 const char *metric)
{
	const struct res_pool *s = &t->ns.set[t->c.nnights - 1];
	struct ediv_cfg ec = {TREND_SIDE, t->c.o.alpha, TREND_PERMS, 0};
	struct ediv_point cp[TREND_MAXCP];
	double *z = calloc(2 * t->c.nnights + 1, sizeof(*z));
	int *which = calloc(t->c.nnights + 1, sizeof(*which)), n, np, i;
	struct kfig f = {0};

	if (!z || !which)
		abort();
	cmp_key_night_values(&t->c, k, metric, &f);
	n = cmp_nights_figures(&t->c, k, metric, res_pool_is_rate(s, metric),
			       &f, z, z + t->c.nnights, which);
	np = n >= 2 * TREND_SIDE
		     ? ediv_points(z, (size_t)n, &ec, cp, TREND_MAXCP)
		     : 0;
	if (n > 0 && n < 2 * TREND_SIDE)
		t->few++;
	else if (n > 0)
		t->series++;
	for (i = 0; i < np; i++)
		print_point(t, k, metric, z, which, (size_t)n, cp, (size_t)np,
			    (size_t)i);
	t->points += np > 0 ? (size_t)np : 0;
	free(f.x);
	free(f.night);
	free(f.probe);
	free(z);
	free(which);
}

/* Every key's metrics that are searched: --metric's, else each tool's
 * primary ones but those that are another's under a second name
 * (cmp_key_alias; --judge all: every one). */
static void trend_keys(struct trend *t)
{
	size_t k, m;

	for (k = 0; k < t->ns.st.nkeys; k++) {
		const struct ckey *key = &t->ns.st.keys[k];

		for (m = 0; m < t->ns.st.nmetrics; m++)
			if (t->c.o.nmetrics || t->c.o.judge != CJ_PRIMARY ||
			    (res_metric_primary(key->c[0][0]->doc->tool,
						t->ns.st.metrics[m]) &&
			     !cmp_key_alias(&t->ns.st, key, m)))
				trend_series(t, key, t->ns.st.metrics[m]);
	}
}

int cmd_trend(const struct rcmd *self, int argc, char **argv)
{
	struct trend t = {.c = {.o = {.threshold = 2,
				      .alpha = 0.01,
				      .max_cov = 25,
				      .min_n = 3,
				      .judge = CJ_PRIMARY}}};
	int r;

	ropt_parse(self, argc, argv, &t.c.o);
	if (t.c.o.npaths < 1)
		die_usage("trend: give the nights, oldest first (files or "
			  "directories)");
	r = cmp_nights_open(&t.c, "trend", &t.ns);
	if (t.ns.keyed) {
		trend_keys(&t);
		printf("zcbreport trend: %zu change point%s in %zu series "
		       "over %zu nights (E-divisive means, %d permutations, "
		       "p < %g; %s); %zu series with fewer than %d nights "
		       "not searched\n",
		       t.points, t.points == 1 ? "" : "s", t.series,
		       t.c.nnights, TREND_PERMS, t.c.o.alpha,
		       t.c.o.nmetrics ? "--metric"
		       : t.c.o.judge == CJ_PRIMARY
			       ? "each tool's primary metrics"
			       : "every metric",
		       t.few, 2 * TREND_SIDE);
	}
	cmp_nights_close(&t.c, &t.ns);
	return r;
}
