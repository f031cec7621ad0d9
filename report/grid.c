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
static size_t all_metrics(const struct res_sel *sel, const char **out, size_t max)
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

static const char *default_metric(const struct res_sel *sel)
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
static size_t col_values(const struct res_sel *sel, const char *p,
			 struct res_groups *cg)
{
	const char *keys[1] = {p};

	res_grp_build(sel, keys, 1, cg);
	return cg->n;
}

/* The grid being built: its keys, metrics or column values, table. */
struct grid {
	const struct grid_opts *go;
	const struct layout_opts *o;
	struct res_sel sel;
	const char *keys[RPT_MAX_KEYS], *metrics[64];
	size_t nk, nm, ncol;
	struct res_groups g, cg; /* rows; values of --cols */
	struct tbl *t;
	struct fnotes fn;
};

/* Row keys and metrics (or the values of --cols); 0, or 1 (said why). */
static int grid_plan(struct grid *gr)
{
	const struct grid_opts *go = gr->go;
	const char *excl[2] = {go->cols};

	if (go->nrows) {
		memcpy(gr->keys, go->rows, go->nrows * sizeof(*gr->keys));
		gr->nk = go->nrows;
	} else {
		gr->keys[gr->nk++] = "label";
		gr->nk += res_sel_varying(&gr->sel, excl, gr->keys + gr->nk,
				      RPT_MAX_KEYS - gr->nk);
	}
	if (go->nmetrics) {
		memcpy(gr->metrics, go->metrics,
		       go->nmetrics * sizeof(*gr->metrics));
		gr->nm = go->nmetrics;
	} else if (go->cols) {
		gr->metrics[0] = default_metric(&gr->sel);
		gr->nm = gr->metrics[0] != NULL;
	} else {
		gr->nm = all_metrics(&gr->sel, gr->metrics, 64);
	}
	if (!gr->nm) {
		log_err("the selected cases have no metrics");
		return 1;
	}
	res_grp_build(&gr->sel, gr->keys, gr->nk, &gr->g);
	gr->ncol = go->cols ? col_values(&gr->sel, go->cols, &gr->cg) : gr->nm;
	return 0;
}

/* The table and its headings. */
static void grid_table(const struct res_pool *s, struct grid *gr)
{
	const struct grid_opts *go = gr->go;
	char head[160];
	size_t c;

	gr->t = tbl_new(gr->nk + gr->ncol);
	for (c = 0; c < gr->nk; c++)
		tbl_col(gr->t, c, gr->keys[c], AL_LEFT);
	for (c = 0; c < gr->ncol; c++) {
		if (go->cols)
			snprintf(head, sizeof(head), "%s=%s", go->cols,
				 gr->cg.g[c].vals[0]);
		else if (*res_pool_unit(s, gr->metrics[c]))
			snprintf(head, sizeof(head), "%s (%s)", gr->metrics[c],
				 res_pool_unit(s, gr->metrics[c]));
		else
			snprintf(head, sizeof(head), "%s", gr->metrics[c]);
		tbl_col(gr->t, gr->nk + c, head, AL_RIGHT);
	}
}

/* One row: keys, a cell per column, marks and sources. */
static void grid_row(struct grid *gr, const struct res_group *rg)
{
	const struct grid_opts *go = gr->go;
	struct res_pcase **cs = rg->cases;
	size_t row = tbl_add_row(gr->t), n = rg->n, c;
	struct cellv v;

	for (c = 0; c < gr->nk; c++)
		tbl_set(gr->t, row, c, "%s", rg->vals[c]);
	for (c = 0; c < gr->ncol; c++) {
		/* with --cols each cell is its own cases */
		const char *m = go->cols ? gr->metrics[0] : gr->metrics[c];
		const char *p = go->cols, *pv = NULL;

		if (go->cols)
			pv = gr->cg.g[c].vals[0];
		res_cell_value(cs, n, m, gr->o->stat, p, pv, &v);
		put_value(gr->t, row, gr->nk + c, &v, go->show_sd);
		fn_value(&gr->fn, &v, m);
		if (go->cols)
			fn_cell(&gr->fn, row, gr->nk + c, cs, n, m, p, pv,
				FN_ANY);
		fn_source(&gr->fn, m, cs, n, m, p, pv);
	}
	/* metrics as columns: one mark for the row, on its first key */
	if (!go->cols)
		fn_cell(&gr->fn, row, 0, cs, n, NULL, NULL, NULL, FN_ANY);
}

int grid_print(const struct res_pool *s, const struct layout_opts *o,
	       const struct grid_opts *go)
{
	struct res_filter f = {
		.tool = go->tool, .where = o->where, .nwhere = o->nwhere};
	struct grid gr = {.go = go, .o = o};
	char head[160];
	size_t r;

	res_sel_build(s, &f, &gr.sel);
	if (!gr.sel.n) {
		log_err("no cases match the tool and --where filters");
		res_sel_free(&gr.sel);
		return 1;
	}
	if (grid_plan(&gr)) {
		res_sel_free(&gr.sel);
		return 1;
	}
	grid_table(s, &gr);
	fn_init(&gr.fn);
	for (r = 0; r < gr.g.n; r++)
		grid_row(&gr, &gr.g.g[r]);
	if (go->cols) {
		snprintf(head, sizeof(head), "%s %s (%s)",
			 res_stat_name(&gr.sel.v[0], gr.metrics[0], o->stat),
			 gr.metrics[0], res_pool_unit(s, gr.metrics[0]));
		tbl_title(o->out, o->fmt, head, 0);
	}
	fn_marks(&gr.fn, gr.t);
	tbl_print(o->out, gr.t, o->fmt);
	fn_footnotes(o->out, &gr.fn, o->fmt);
	fn_sources(o->out, &gr.fn, o->fmt);
	fn_free(&gr.fn);
	tbl_free(gr.t);
	res_grp_free(&gr.g);
	res_grp_free(&gr.cg);
	res_sel_free(&gr.sel);
	return 0;
}
