/*
 * grid.c: zcbreport's generic table: rows by label and params, columns
 * by a param's values or by metrics, any statistic.
 */
#include "config.h"
#include "log.h"
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Add the keys of obj not yet in out[]. */
static size_t add_names(json_t *obj, const char **out, size_t n, size_t max)
{
	const char *name;
	json_t *v;
	size_t k;

	json_object_foreach(obj, name, v)
	{
		for (k = 0; k < n; k++)
			if (!strcmp(out[k], name))
				break;
		if (k == n && n < max)
			out[n++] = name;
	}
	return n;
}

/* Every metric of the selected cases, in order of appearance. */
static size_t all_metrics(const struct rsel *sel, const char **out, size_t max)
{
	size_t i, n = 0, j;
	json_t *s;

	for (i = 0; i < sel->n; i++) {
		n = add_names(json_object_get(sel->v[i].kase, "summary"), out,
			      n, max);
		json_array_foreach(json_object_get(sel->v[i].kase, "samples"),
				   j, s) n =
			add_names(json_object_get(s, "metrics"), out, n, max);
	}
	return n;
}

static const char *default_metric(const struct rsel *sel)
{
	static const char *const pref[] = {"throughput_MBps", "msgs_per_s",
					   "cpu_box_pct", NULL};
	const char *m[64];
	size_t n = all_metrics(sel, m, 64), i, k;

	for (k = 0; pref[k]; k++)
		for (i = 0; i < n; i++)
			if (!strcmp(m[i], pref[k]))
				return m[i];
	return n ? m[0] : NULL;
}

static void put_value(struct tbl *t, size_t row, size_t col,
		      const struct cellv *v, int show_sd)
{
	char a[64], b[64];

	fmt_auto(a, sizeof(a), v->ok ? v->v : NAN);
	if (show_sd && v->ok && isfinite(v->sd)) {
		fmt_auto(b, sizeof(b), v->sd);
		tbl_set(t, row, col, "%s +- %s", a, b);
	} else {
		tbl_set(t, row, col, "%s", a);
	}
}

/* Distinct values of param p over the cases, ordered as rows are. */
static size_t col_values(const struct rsel *sel, const char *p,
			 struct rgroups *cg)
{
	const char *keys[1] = {p};

	grp_build(sel, keys, 1, cg);
	return cg->n;
}

int grid_print(const struct rl_set *s, const struct layout_opts *o,
	       const struct grid_opts *go)
{
	struct rfilter f = {
		.tool = go->tool, .where = o->where, .nwhere = o->nwhere};
	const char *keys[RPT_MAX_KEYS], *metrics[64], *excl[2] = {go->cols};
	struct rgroups g, cg = {0};
	size_t nk = 0, nm, ncol, r, c;
	struct fnotes fn;
	struct rsel sel;
	struct tbl *t;
	char head[160];

	sel_build(s, &f, &sel);
	if (!sel.n) {
		log_err("no cases match the tool and --where filters");
		sel_free(&sel);
		return 1;
	}
	if (go->nrows) {
		memcpy(keys, go->rows, go->nrows * sizeof(*keys));
		nk = go->nrows;
	} else {
		keys[nk++] = "label";
		nk += sel_varying(&sel, excl, keys + nk, RPT_MAX_KEYS - nk);
	}
	if (go->nmetrics) {
		memcpy(metrics, go->metrics, go->nmetrics * sizeof(*metrics));
		nm = go->nmetrics;
	} else if (go->cols) {
		metrics[0] = default_metric(&sel);
		nm = metrics[0] != NULL;
	} else {
		nm = all_metrics(&sel, metrics, 64);
	}
	if (!nm) {
		log_err("the selected cases have no metrics");
		sel_free(&sel);
		return 1;
	}
	grp_build(&sel, keys, nk, &g);
	ncol = go->cols ? col_values(&sel, go->cols, &cg) : nm;
	t = tbl_new(nk + ncol);
	for (c = 0; c < nk; c++)
		tbl_col(t, c, keys[c], AL_LEFT);
	for (c = 0; c < ncol; c++) {
		if (go->cols)
			snprintf(head, sizeof(head), "%s=%s", go->cols,
				 cg.g[c].vals[0]);
		else if (*rl_unit(s, metrics[c]))
			snprintf(head, sizeof(head), "%s (%s)", metrics[c],
				 rl_unit(s, metrics[c]));
		else
			snprintf(head, sizeof(head), "%s", metrics[c]);
		tbl_col(t, nk + c, head, AL_RIGHT);
	}
	fn_init(&fn);
	for (r = 0; r < g.n; r++) {
		struct rcase **cs = g.g[r].cases;
		size_t row = tbl_add_row(t), n = g.g[r].n;
		struct cellv v;

		for (c = 0; c < nk; c++)
			tbl_set(t, row, c, "%s", g.g[r].vals[c]);
		for (c = 0; c < ncol; c++) {
			/* with --cols each cell is its own cases */
			const char *m = go->cols ? metrics[0] : metrics[c];
			const char *p = go->cols, *pv = NULL;

			if (go->cols)
				pv = cg.g[c].vals[0];
			cell_value(cs, n, m, o->stat, p, pv, &v);
			put_value(t, row, nk + c, &v, go->show_sd);
			if (go->cols)
				fn_cell(&fn, row, nk + c, cs, n, m, p, pv,
					FN_ANY);
			fn_source(&fn, m, cs, n, m, p, pv);
		}
		/* metrics as columns: one mark for the row, on its first key */
		if (!go->cols)
			fn_cell(&fn, row, 0, cs, n, NULL, NULL, NULL, FN_ANY);
	}
	if (go->cols) {
		snprintf(head, sizeof(head), "%s %s (%s)",
			 stat_name(sel.n ? &sel.v[0] : NULL, metrics[0],
				   o->stat),
			 metrics[0], rl_unit(s, metrics[0]));
		tbl_title(o->out, o->fmt, head, 0);
	}
	fn_marks(&fn, t);
	tbl_print(o->out, t, o->fmt);
	fn_footnotes(o->out, &fn, o->fmt);
	fn_sources(o->out, &fn, o->fmt);
	fn_free(&fn);
	tbl_free(t);
	grp_free(&g);
	grp_free(&cg);
	sel_free(&sel);
	return 0;
}
