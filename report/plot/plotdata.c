/*
 * plotdata.c: zcbreport plot's data blocks. A sweep: a metric against
 * x, a line per label and per param that varies besides x (the legend
 * in words, plotwords.c). A ratio: B/A of two values of a key (a param
 * or the label: sendfile/write, ZC/No ZC, kernel B/A) at each x, with
 * its 95% interval (Welch from each side's n, mean and sd, published
 * summaries included; cmpsumm.c, cmpstats.c). A line of one point is
 * not drawn.
 */
#include "config.h"
#include "judge.h"
#include "plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether param p has one value per value of x (total_bytes with
 * iosize): such a param names no line of its own. */
static int tied_to(const struct res_sel *sel, const char *x, const char *p)
{
	char a[256], b[256], c[256], d[256];
	size_t i, j;

	for (i = 0; i < sel->n; i++)
		for (j = i + 1; j < sel->n; j++)
			if (!strcmp(res_case_key(&sel->v[i], x, a, sizeof(a)),
				    res_case_key(&sel->v[j], x, b, sizeof(b))) &&
			    strcmp(res_case_key(&sel->v[i], p, c, sizeof(c)),
				   res_case_key(&sel->v[j], p, d, sizeof(d))))
				return 0;
	return 1;
}

/* The keys naming the lines (--lines, else the label and the params
 * that vary besides x and skip, and do not follow x), then x. */
static size_t line_keys(const struct ropts *c, const struct res_sel *sel,
			const char *x, const char *skip, const char **keys)
{
	const char *excl[3] = {x, skip, NULL};
	size_t nk = 0, i, k;

	if (c->nlines) {
		for (i = 0; i < c->nlines; i++)
			if (!skip || strcmp(c->lines[i], skip))
				keys[nk++] = c->lines[i];
	} else {
		size_t first = 1;

		if (skip && !strcmp(skip, "label"))
			first = 0;
		else
			keys[nk++] = "label";
		nk += res_sel_varying(sel, excl, keys + nk, RPT_MAX_KEYS - 2 - nk);
		/* a param that follows x, or says what a kept one says
		 * (rsize with iosize), names no line of its own */
		for (i = k = first; i < nk; i++) {
			size_t j;
			int dup = tied_to(sel, x, keys[i]);

			for (j = first; j < k && !dup; j++)
				dup = tied_to(sel, keys[j], keys[i]) &&
				      tied_to(sel, keys[i], keys[j]);
			if (!dup)
				keys[k++] = keys[i];
		}
		nk = k;
	}
	keys[nk++] = x;
	return nk;
}

/* One line being written: its points held until it has two. */
struct sbuf {
	FILE *m;
	char *text;
	size_t size, npoints, nmin, nmax;
	int transcribed;
	double ymin, ymax;
	char name[256];
};

static void sb_open(struct sbuf *b, const char *name)
{
	memset(b, 0, sizeof(*b));
	b->m = open_memstream(&b->text, &b->size);
	if (!b->m)
		abort();
	b->nmin = (size_t)-1;
	b->ymin = INFINITY;
	b->ymax = -INFINITY;
	snprintf(b->name, sizeof(b->name), "%s", name);
}

static void sb_point(struct sbuf *b, size_t n, int transcribed, double y)
{
	b->npoints++;
	b->nmin = n < b->nmin ? n : b->nmin;
	b->nmax = n > b->nmax ? n : b->nmax;
	b->transcribed |= transcribed;
	if (y > 0) {
		b->ymin = fmin(b->ymin, y);
		b->ymax = fmax(b->ymax, y);
	}
}

/* A line of two points or more into f and pd; else dropped. */
static void sb_flush(struct sbuf *b, FILE *f, struct plot_data *pd)
{
	if (!b->m)
		return;
	fclose(b->m);
	if (b->npoints >= 2 && pd->nseries < PLOT_MAX_SERIES) {
		fprintf(f, "%s%s", pd->nseries ? "\n\n" : "", b->text);
		snprintf(pd->series[pd->nseries++], 256, "%s", b->name);
		pd->nmin = b->nmin < pd->nmin ? b->nmin : pd->nmin;
		pd->nmax = b->nmax > pd->nmax ? b->nmax : pd->nmax;
		pd->transcribed |= b->transcribed;
		pd->ymin = fmin(pd->ymin, b->ymin);
		pd->ymax = fmax(pd->ymax, b->ymax);
	}
	free(b->text);
	memset(b, 0, sizeof(*b));
}

/* A group's line name in words: "6.18, sendfile, 48 clients". */
static void series_name(const char *const *keys, size_t nk, char **vals,
			char *buf, size_t len)
{
	char w[256];
	size_t k;

	buf[0] = 0;
	for (k = 0; k < nk; k++) {
		pw_legend(keys[k], vals[k], w, sizeof(w));
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 k ? ", " : "", w);
	}
}

static double error_bar(const struct ropts *c, const struct cellv *v)
{
	double e = NAN;

	if (v->n > 1 && isfinite(v->sd))
		e = c->err == ERR_SD ? v->sd
		    : c->err == ERR_CI95
			    ? stats_t_quantile(0.95, (double)v->n - 1) * v->sd /
				      sqrt((double)v->n)
			    : 0;
	return isfinite(e) ? e : 0;
}

static int any_transcribed(const struct res_group *g)
{
	size_t k;

	for (k = 0; k < g->n; k++)
		if (g->cases[k]->doc->transcribed)
			return 1;
	return 0;
}

static void pd_init(struct plot_data *pd)
{
	pd->nmin = (size_t)-1;
	pd->ymin = INFINITY;
	pd->ymax = -INFINITY;
}

int pd_sweep(const struct ropts *c, const struct res_sel *sel, const char *x,
	     FILE *f, struct plot_data *pd)
{
	const char *keys[RPT_MAX_KEYS];
	size_t nk = line_keys(c, sel, x, NULL, keys), r;
	struct sbuf b = {0};
	struct res_groups g;
	char cur[1024];

	pd_init(pd);
	res_grp_build(sel, keys, nk, &g);
	for (r = 0; r < g.n; r++) {
		struct cellv v;
		double xv = strtod(g.g[r].vals[nk - 1], NULL);

		res_cell_value(g.g[r].cases, g.g[r].n, c->metric, c->stat, NULL,
			   NULL, &v);
		if (!v.ok || !(xv > 0))
			continue;
		series_name(keys, nk - 1, g.g[r].vals, cur, sizeof(cur));
		if (!b.m || strcmp(cur, b.name)) {
			sb_flush(&b, f, pd);
			sb_open(&b, cur);
		}
		fprintf(b.m, "%.17g %.17g %.17g\n", xv, v.v, error_bar(c, &v));
		sb_point(&b, v.n, any_transcribed(&g.g[r]), v.v);
	}
	sb_flush(&b, f, pd);
	res_grp_free(&g);
	return pd->nseries ? 0 : -1;
}

/* One x of a ratio line: B/A with its interval; 0, or -1 (a side
 * lacks the metric or a positive mean). */
static int ratio_point(const struct ropts *c, const struct res_group *g,
		       double *out, size_t *n, struct plot_data *pd)
{
	struct res_pcase **side[2];
	size_t ns[2] = {0, 0}, k;
	double cnt[2], m[2], sd[2];
	struct cmp_result r;
	char buf[256];
	int s;

	side[0] = malloc((g->n + 1) * sizeof(*side[0]));
	side[1] = malloc((g->n + 1) * sizeof(*side[1]));
	if (!side[0] || !side[1])
		abort();
	for (k = 0; k < g->n; k++) {
		const char *v =
			res_case_key(g->cases[k], c->ratio_key, buf, sizeof(buf));

		s = !strcmp(v, c->ratio_a)   ? 0
		    : !strcmp(v, c->ratio_b) ? 1
					     : -1;
		if (s >= 0)
			side[s][ns[s]++] = g->cases[k];
	}
	for (s = 0; s < 2; s++)
		if (cmp_cases_fig(side[s], ns[s], c->metric, &cnt[s], &m[s],
				  &sd[s]) < 0 ||
		    !(m[s] > 0))
			break;
	free(side[0]);
	free(side[1]);
	if (s < 2)
		return -1;
	out[0] = out[1] = out[2] = m[1] / m[0];
	*n = (size_t)fmin(cnt[0], cnt[1]);
	if (!cmp_welch_summary(m[0], sd[0], (size_t)cnt[0], m[1], sd[1],
			       (size_t)cnt[1], 0.95, &r) &&
	    isfinite(r.ratio_lo)) {
		out[1] = r.ratio_lo;
		out[2] = r.ratio_hi;
	} else {
		pd->no_interval = 1;
	}
	return 0;
}

int pd_ratio(const struct ropts *c, const struct res_sel *sel, const char *x,
	     FILE *f, struct plot_data *pd)
{
	const char *keys[RPT_MAX_KEYS];
	size_t nk = line_keys(c, sel, x, c->ratio_key, keys), r, n;
	struct sbuf b = {0};
	struct res_groups g;
	char cur[1024];
	double q[3];

	pd_init(pd);
	pd->ratio = 1;
	res_grp_build(sel, keys, nk, &g);
	for (r = 0; r < g.n; r++) {
		double xv = strtod(g.g[r].vals[nk - 1], NULL);

		if (!(xv > 0) || ratio_point(c, &g.g[r], q, &n, pd))
			continue;
		series_name(keys, nk - 1, g.g[r].vals, cur, sizeof(cur));
		if (!cur[0])
			snprintf(cur, sizeof(cur), "%s / %s", c->ratio_b,
				 c->ratio_a);
		if (!b.m || strcmp(cur, b.name)) {
			sb_flush(&b, f, pd);
			sb_open(&b, cur);
		}
		fprintf(b.m, "%.17g %.17g %.17g %.17g\n", xv, q[0], q[1], q[2]);
		sb_point(&b, n, any_transcribed(&g.g[r]), q[0]);
	}
	sb_flush(&b, f, pd);
	res_grp_free(&g);
	return pd->nseries ? 0 : -1;
}
