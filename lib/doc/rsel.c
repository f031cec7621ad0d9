/*
 * rsel.c: choosing cases out of loaded result documents, grouping them
 * into table rows in a stable order, and summarizing a metric over the
 * cases of a row (rsel.h).
 */
#include "config.h"
#include "rsel.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *res_case_key(const struct res_pcase *c, const char *key, char *buf,
		     size_t len)
{
	const char *v;

	if (!strcmp(key, "label"))
		return c->doc->label;
	if (!strcmp(key, "tool"))
		return c->doc->tool;
	v = res_param_str(c->params, key, buf, len);
	return v ? v : "-";
}

static int where_match(const struct res_pcase *c, const char *w)
{
	const char *eq = strchr(w, '=');
	char key[128], buf[256];
	const char *v;

	if (!eq || (size_t)(eq - w) >= sizeof(key))
		return 0;
	memcpy(key, w, (size_t)(eq - w));
	key[eq - w] = 0;
	v = res_case_key(c, key, buf, sizeof(buf));
	return !strcmp(v, eq + 1);
}

static int case_ok(const struct res_pcase *c, const struct res_filter *f)
{
	size_t i;

	if (f->tool && strcmp(c->doc->tool, f->tool))
		return 0;
	for (i = 0; i < f->nwhere; i++)
		if (!where_match(c, f->where[i]))
			return 0;
	for (i = 0; f->need_params && f->need_params[i]; i++)
		if (!json_object_get(c->params, f->need_params[i]))
			return 0;
	for (i = 0; f->need_metrics && f->need_metrics[i]; i++)
		if (!res_case_has(c->kase, f->need_metrics[i]))
			return 0;
	return 1;
}

void res_sel_build(const struct res_pool *s, const struct res_filter *f,
	       struct res_sel *out)
{
	size_t i, j;
	json_t *k;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < s->ndocs; i++) {
		json_array_foreach(json_object_get(s->docs[i].root, "cases"), j,
				   k)
		{
			struct res_pcase c = {&s->docs[i], k,
					  json_object_get(k, "params")};

			if (!case_ok(&c, f))
				continue;
			out->v = res_grow(out->v, &out->cap, out->n, sizeof(c));
			out->v[out->n++] = c;
		}
	}
}

void res_sel_free(struct res_sel *sel)
{
	free(sel->v);
	memset(sel, 0, sizeof(*sel));
}

static int in_list(const char *const *l, const char *s)
{
	for (; l && *l; l++)
		if (!strcmp(*l, s))
			return 1;
	return 0;
}

size_t res_sel_varying(const struct res_sel *sel, const char *const *exclude,
		   const char **out, size_t max)
{
	size_t i, j, n = 0;
	const char *name;
	json_t *v;

	for (i = 0; i < sel->n; i++) {
		json_object_foreach(sel->v[i].params, name, v)
		{
			char a[256], b[256];
			const char *first;
			int differs = 0, k;

			if (in_list(exclude, name))
				continue;
			for (k = 0; k < (int)n; k++)
				if (!strcmp(out[k], name))
					break;
			if (k < (int)n || n == max)
				continue;
			first = res_case_key(&sel->v[0], name, a, sizeof(a));
			for (j = 1; j < sel->n && !differs; j++)
				differs = strcmp(first,
						 res_case_key(&sel->v[j], name, b,
							  sizeof(b))) != 0;
			if (differs)
				out[n++] = name;
		}
	}
	return n;
}

int res_sel_labels_vary(const struct res_sel *sel)
{
	size_t i;

	for (i = 1; i < sel->n; i++)
		if (strcmp(sel->v[i].doc->label, sel->v[0].doc->label))
			return 1;
	return 0;
}

static int is_number(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return *s && !*end && isfinite(*v);
}

/* Rank of every distinct value of key k: numeric order when all values
 * are numbers, else order of first appearance. */
static void rank_key(struct res_groups *g, size_t k)
{
	int numeric = 1;
	size_t i, j;
	double v;

	for (i = 0; i < g->n && numeric; i++)
		numeric = is_number(g->g[i].vals[k], &v);
	for (i = 0; i < g->n; i++) {
		if (numeric) {
			is_number(g->g[i].vals[k], &g->g[i].rank[k]);
			continue;
		}
		for (j = 0; j <= i; j++)
			if (!strcmp(g->g[j].vals[k], g->g[i].vals[k]))
				break;
		g->g[i].rank[k] = (double)j;
	}
}

static size_t cmp_nkeys;

static int cmp_group(const void *a, const void *b)
{
	const struct res_group *x = a, *y = b;
	size_t k;

	for (k = 0; k < cmp_nkeys; k++) {
		if (x->rank[k] < y->rank[k])
			return -1;
		if (x->rank[k] > y->rank[k])
			return 1;
	}
	return 0;
}

void res_grp_build(const struct res_sel *sel, const char *const *keys, size_t nkeys,
	       struct res_groups *out)
{
	size_t i, j, k;

	memset(out, 0, sizeof(*out));
	if (nkeys > RPT_MAX_KEYS)
		nkeys = RPT_MAX_KEYS;
	out->nkeys = nkeys;
	for (k = 0; k < nkeys; k++)
		out->keys[k] = keys[k];
	for (i = 0; i < sel->n; i++) {
		char buf[RPT_MAX_KEYS][256];
		const char *v[RPT_MAX_KEYS];
		struct res_group *g = NULL;

		for (k = 0; k < nkeys; k++)
			v[k] = res_case_key(&sel->v[i], keys[k], buf[k],
					sizeof(buf[k]));
		for (j = 0; j < out->n && !g; j++) {
			for (k = 0; k < nkeys; k++)
				if (strcmp(out->g[j].vals[k], v[k]))
					break;
			if (k == nkeys)
				g = &out->g[j];
		}
		if (!g) {
			out->g = res_grow(out->g, &out->cap, out->n, sizeof(*g));
			g = &out->g[out->n++];
			memset(g, 0, sizeof(*g));
			g->vals = calloc(nkeys + 1, sizeof(char *));
			g->rank = calloc(nkeys + 1, sizeof(double));
			if (!g->vals || !g->rank)
				abort();
			for (k = 0; k < nkeys; k++) {
				g->vals[k] = strdup(v[k]);
				if (!g->vals[k])
					abort();
			}
		}
		g->cases = res_grow(g->cases, &g->cap, g->n, sizeof(*g->cases));
		g->cases[g->n++] = &sel->v[i];
	}
	for (k = 0; k < nkeys; k++)
		rank_key(out, k);
	cmp_nkeys = nkeys;
	if (out->n > 1)
		qsort(out->g, out->n, sizeof(*out->g), cmp_group);
}

void res_grp_free(struct res_groups *g)
{
	size_t i, k;

	for (i = 0; i < g->n; i++) {
		for (k = 0; k < g->nkeys; k++)
			free(g->g[i].vals[k]);
		free(g->g[i].vals);
		free(g->g[i].rank);
		free(g->g[i].cases);
	}
	free(g->g);
	memset(g, 0, sizeof(*g));
}

static const char *stat_field(enum stat_kind st)
{
	return st == ST_MEDIAN ? "median" : st == ST_HMEAN ? "hmean" : "mean";
}

/* Is metric a rate in the document the case came from? */
static int is_rate(const struct res_pcase *c, const char *metric)
{
	json_t *m = json_object_get(json_object_get(c->doc->root, "metrics"),
				    metric);

	return json_is_true(json_object_get(m, "rate"));
}

/* ST_AUTO made concrete for one metric of these cases. */
static enum stat_kind resolve(struct res_pcase *const *cs, size_t n,
			      const char *metric, enum stat_kind st)
{
	if (st != ST_AUTO)
		return st;
	return n && is_rate(cs[0], metric) ? ST_HMEAN : ST_MEAN;
}

/* One case: its summary, when it has the statistic asked for (a
 * measured one's undefined hmean is left to the samples to explain). */
static int from_summary(const struct res_pcase *c, const char *metric,
			enum stat_kind st, struct cellv *out)
{
	json_t *sum =
		json_object_get(json_object_get(c->kase, "summary"), metric);
	json_t *v = json_object_get(sum, stat_field(st));
	json_t *sd = json_object_get(sum, "stddev");

	/* a transcribed summary has the published mean only */
	if (!json_is_number(v) && st == ST_HMEAN && c->doc->transcribed)
		v = json_object_get(sum, "mean");
	if (!json_is_number(v))
		return 0;
	if (st == ST_HMEAN && !(json_number_value(v) > 0)) {
		out->nonpos = 1; /* a published rate <= 0 */
		return 1;
	}
	out->v = json_number_value(v);
	out->n = (size_t)json_integer_value(json_object_get(sum, "n"));
	out->sd =
		json_is_number(sd) && out->n > 1 ? json_number_value(sd) : NAN;
	out->ok = 1;
	return 1;
}

size_t res_cell_cases(struct res_pcase *const *cs, size_t n, const char *metric,
		  const char *param, const char *value, struct res_pcase **out)
{
	size_t i, m = 0;
	char buf[256];

	for (i = 0; i < n; i++) {
		if (param &&
		    strcmp(res_case_key(cs[i], param, buf, sizeof(buf)), value))
			continue;
		if (metric && !res_case_has(cs[i]->kase, metric))
			continue;
		if (out)
			out[m] = cs[i];
		m++;
	}
	return m;
}

void res_cell_value(struct res_pcase *const *cs, size_t n, const char *metric,
		enum stat_kind st, const char *param, const char *value,
		struct cellv *out)
{
	struct res_pcase **use = calloc(n + 1, sizeof(*use));
	struct stats_summary s;
	size_t i, m, nx = 0, cap = 0;
	double *x = NULL;

	if (!use)
		abort();
	memset(out, 0, sizeof(*out));
	out->v = out->sd = NAN;
	st = resolve(cs, n, metric, st);
	m = res_cell_cases(cs, n, metric, param, value, use);
	if (m == 1 && from_summary(use[0], metric, st, out)) {
		free(use);
		return;
	}
	for (i = 0; i < m; i++)
		res_case_values(use[i]->kase, metric, &x, &nx, &cap);
	if (nx) {
		stats_summarize(x, nx, &s);
		out->v = st == ST_MEDIAN  ? s.median
			 : st == ST_HMEAN ? s.hmean
					  : s.mean;
		out->sd = nx > 1 ? s.stddev : NAN;
		out->n = nx;
		out->ok = isfinite(out->v);
		out->nonpos = st == ST_HMEAN && !out->ok;
	}
	free(x);
	free(use);
}

const char *res_stat_name(const struct res_pcase *c, const char *metric,
		      enum stat_kind st)
{
	if (st == ST_AUTO && !(c && metric))
		return "mean, hmean for rates,";
	if (st == ST_AUTO)
		st = is_rate(c, metric) ? ST_HMEAN : ST_MEAN;
	return stat_field(st);
}

const char *res_case_meter(json_t *kase, const char *side)
{
	json_t *s, *m;
	size_t i, j;

	json_array_foreach(json_object_get(kase, "samples"), i, s)
	{
		json_array_foreach(
			json_object_get(json_object_get(s, "cpu"), side), j, m)
		{
			if (json_is_true(json_object_get(m, "ok")))
				return json_string_value(
					json_object_get(m, "meter"));
		}
	}
	return NULL;
}
