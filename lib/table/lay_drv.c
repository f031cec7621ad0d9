/*
 * lay_drv.c: the seed layouts' one driver (lay_int.h). It picks a
 * table's cases, groups them into the seed's rows, builds the table with
 * the seed's columns (params that vary beyond the seed's keys become
 * extra key columns, so a fresh run's table never hides a difference),
 * lets the table's row function fill each row group, and prints it with
 * its marks, footnotes and notes.
 */
#include "config.h"
#include "lay_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The table's cases, with the options' --where filters. */
static void select_cases(const struct res_pool *s, const struct lay_table *t,
			 const struct layout_opts *o, struct res_sel *out)
{
	const char *w[RPT_MAX_WHERE + 1];
	struct res_filter f = {.tool = t->tool,
			    .where = w,
			    .need_params = t->need,
			    .need_metrics = t->need_metrics};

	if (o->nwhere)
		memcpy(w, o->where, o->nwhere * sizeof(*w));
	f.nwhere = o->nwhere;
	if (t->where)
		w[f.nwhere++] = t->where;
	res_sel_build(s, &f, out);
}

/* Whether param p has one value for each combination of keys[0..nk):
 * then it needs no column (nfsbench's iosize follows rsize). */
static int tied(const struct res_sel *sel, const char **keys, size_t nk,
		const char *p)
{
	json_t *seen = json_object();
	char buf[256], combo[1024];
	size_t i, k;
	int ok = 1;

	for (i = 0; i < sel->n && ok; i++) {
		const char *v;
		json_t *had;

		combo[0] = 0;
		for (k = 0; k < nk; k++)
			snprintf(combo + strlen(combo),
				 sizeof(combo) - strlen(combo), "%s\x1f",
				 res_case_key(&sel->v[i], keys[k], buf,
					  sizeof(buf)));
		v = res_case_key(&sel->v[i], p, buf, sizeof(buf));
		had = json_object_get(seen, combo);
		if (!had)
			json_object_set_new(seen, combo, json_string(v));
		else
			ok = !strcmp(json_string_value(had), v);
	}
	json_decref(seen);
	return ok;
}

/* Keys: fixed ones, then label when it varies and is not fixed, then
 * every other varying param not excluded and not tied to the fixed
 * keys. Returns the count. */
static size_t make_keys(const struct res_sel *sel, const struct lay_table *t,
			const char **keys)
{
	const char *const *fixed = t->fixed;
	const char *extra[RPT_MAX_KEYS];
	size_t n = 0, m, i;

	for (; fixed && *fixed; fixed++)
		keys[n++] = *fixed;
	if (t->label_if_varies && res_sel_labels_vary(sel))
		keys[n++] = "label";
	m = res_sel_varying(sel, t->excl, extra, RPT_MAX_KEYS - n);
	for (i = 0; i < m; i++)
		if (!tied(sel, keys, n, extra[i]))
			keys[n++] = extra[i];
	return n;
}

const char *lay_common_param(const struct lay *l, const char *p, char *buf,
			     size_t len)
{
	const struct res_sel *sel = &l->sel;
	char b1[256], b2[256];
	size_t i;

	if (!sel->n || !json_object_get(sel->v[0].params, p))
		return NULL;
	snprintf(buf, len, "%s", res_case_key(&sel->v[0], p, b1, sizeof(b1)));
	for (i = 1; i < sel->n; i++)
		if (strcmp(buf, res_case_key(&sel->v[i], p, b2, sizeof(b2))))
			return NULL;
	return buf;
}

int lay_any_metric(const struct lay *l, const char *metric)
{
	size_t i;

	for (i = 0; i < l->sel.n; i++)
		if (res_case_has(l->sel.v[i].kase, metric))
			return 1;
	return 0;
}

/* Whether a selected case has param p with one of values ("a|b"). */
static int any_value(const struct lay *l, const char *p, const char *values)
{
	size_t i, n;
	char buf[256];

	for (i = 0; i < l->sel.n; i++) {
		const char *v = res_case_key(&l->sel.v[i], p, buf, sizeof(buf));
		const char *at = strstr(values, v);

		n = strlen(v);
		if (n && at && (at == values || at[-1] == '|') &&
		    (at[n] == '|' || !at[n]))
			return 1;
	}
	return 0;
}

static int col_shown(const struct lay *l, const struct lay_col *c)
{
	if (c->if_metric && !lay_any_metric(l, c->if_metric))
		return 0;
	if (c->if_param && !any_value(l, c->if_param, c->if_values))
		return 0;
	return !c->shown || c->shown(l, c);
}

/* Head of a key column: the seed's names for the seed's keys. */
static const char *key_head(const char *key)
{
	static const struct {
		const char *key, *head;
	} names[] = {{"label", "Kernel"},
		     {"iosize", "IO SIZE"},
		     {"total_bytes", "TOTAL SIZE"},
		     {NULL, NULL}};
	int i;

	for (i = 0; names[i].key; i++)
		if (!strcmp(names[i].key, key))
			return names[i].head;
	return key;
}

/* The table: key columns (when the keys are columns), then the value
 * columns that are shown. */
static void make_table(struct lay *l)
{
	const struct lay_col *cols = l->t->cols;
	size_t nkc = l->t->key_cols ? l->nk : 0, n = nkc, k, c;

	for (c = 0; c < LAY_MAX_COLS; c++)
		l->at[c] = -1;
	for (c = 0; cols[c].head && c < LAY_MAX_COLS; c++)
		l->at[c] = col_shown(l, &cols[c]) ? (int)n++ : -1;
	l->tb = tbl_new(n);
	for (k = 0; k < nkc; k++)
		tbl_col(l->tb, k, key_head(l->keys[k]),
			k < l->t->key_left ? AL_LEFT : AL_RIGHT);
	for (c = 0; cols[c].head && c < LAY_MAX_COLS; c++)
		if (l->at[c] >= 0)
			tbl_col(l->tb, (size_t)l->at[c], cols[c].head,
				cols[c].al);
}

int lay_shown(const struct lay *l, size_t c)
{
	return c < LAY_MAX_COLS && l->at[c] >= 0;
}

void lay_set(struct lay *l, size_t row, size_t c, const char *text)
{
	if (lay_shown(l, c))
		tbl_set(l->tb, row, (size_t)l->at[c], "%s", text);
}

void lay_mark(struct lay *l, size_t row, size_t c, struct res_pcase *const *cs,
	      size_t n, const char *metric, const char *param,
	      const char *value, unsigned flags)
{
	if (lay_shown(l, c))
		fn_cell(&l->fn, row, (size_t)l->at[c], cs, n, metric, param,
			value, flags);
}

void lay_figure(char *buf, size_t len, struct lay *l, struct res_pcase *const *cs,
		size_t n, const char *metric, const char *param,
		const char *value, lay_fmt f)
{
	struct cellv v;

	res_cell_value(cs, n, metric, l->o->stat, param, value, &v);
	f(buf, len, v.ok ? v.v : NAN);
	fn_value(&l->fn, &v, metric);
}

/* TOTAL SIZE of a timed run (total_bytes 0): the bytes a result run of
 * the row moved, on average. */
static double moved_bytes(const struct res_group *g)
{
	double sum = 0;
	size_t i, j, n = 0;
	json_t *s;

	for (i = 0; i < g->n; i++)
		json_array_foreach(
			json_object_get(g->cases[i]->kase, "samples"), j, s)
		{
			json_t *b = json_object_get(s, "bytes");
			unsigned run = res_sample_run(s);

			if (run == RUN_METERED || run == RUN_DISTURBED ||
			    !json_is_number(b))
				continue;
			sum += json_number_value(b);
			n++;
		}
	return n ? sum / (double)n : 0;
}

size_t lay_row(struct lay *l, const struct res_group *g)
{
	size_t row = tbl_add_row(l->tb), k;
	char b[64];

	for (k = 0; l->t->key_cols && k < l->nk; k++) {
		const char *v = g->vals[k];

		if (strcmp(l->keys[k], "total_bytes") || v[0] == '-') {
			tbl_set(l->tb, row, k, "%s", v);
			continue;
		}
		fmt_bin_size(b, sizeof(b),
			     strcmp(v, "0") ? strtod(v, NULL) : moved_bytes(g));
		tbl_set(l->tb, row, k, "%s", b);
	}
	return row;
}

void lay_qualifier(char *b, size_t len, const struct lay *l,
		   const struct res_group *g, size_t from)
{
	size_t k;

	b[0] = 0;
	for (k = from; k < l->nk; k++)
		snprintf(b + strlen(b), len - strlen(b), "%s%s=%s",
			 k == from ? " (" : " ", l->keys[k], g->vals[k]);
	if (l->nk > from)
		strncat(b, ")", len - strlen(b) - 1);
}

/* The runs (per cell with colparam) of a row, into nmin and nmax; the
 * first CPU meter of side into *meter. 0 when every case is
 * transcribed. A paired case counts its unmetered runs, those its
 * rates come from. */
static int row_runs(const struct res_group *g, const char *side,
		    const char *colparam, size_t *nmin, size_t *nmax,
		    const char **meter)
{
	char key[8][64], buf[64];
	size_t cnt[8], i, j;
	int measured = 0, nkey = 0;

	for (i = 0; i < g->n; i++) {
		const struct res_pcase *c = g->cases[i];
		const char *k =
			colparam ? res_case_key(c, colparam, buf, sizeof(buf)) : "";

		if (c->doc->transcribed)
			continue;
		measured = 1;
		for (j = 0; j < (size_t)nkey && strcmp(key[j], k); j++)
			;
		if (j == (size_t)nkey) {
			if (nkey == 8)
				continue;
			snprintf(key[nkey], sizeof(key[0]), "%s", k);
			cnt[nkey++] = 0;
		}
		cnt[j] += res_case_result_runs(c->kase);
		if (!*meter && side)
			*meter = res_case_meter(c->kase, side);
	}
	for (j = 0; j < (size_t)nkey; j++) {
		*nmin = cnt[j] < *nmin ? cnt[j] : *nmin;
		*nmax = cnt[j] > *nmax ? cnt[j] : *nmax;
	}
	return measured;
}

/* "(mean of 3 runs per row; CPU by meter procstat)" below measured
 * tables; nothing under transcribed ones. */
static void measured_note(const struct lay *l)
{
	const char *meter = NULL, *side = l->t->side;
	const char *st = res_stat_name(NULL, NULL, l->o->stat);
	const char *per = l->t->colparam ? "cell" : "row";
	size_t r, nmin = (size_t)-1, nmax = 0;
	char line[256];
	int measured = 0;

	for (r = 0; r < l->g.n; r++)
		measured |= row_runs(&l->g.g[r], side, l->t->colparam, &nmin,
				     &nmax, &meter);
	if (!measured)
		return;
	if (nmin == nmax)
		snprintf(line, sizeof(line), "(%s of %zu run%s per %s", st,
			 nmin, nmin == 1 ? "" : "s", per);
	else
		snprintf(line, sizeof(line), "(%s of %zu-%zu runs per %s", st,
			 nmin, nmax, per);
	if (side)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "; CPU by meter %s", meter ? meter : "(none usable)");
	strncat(line, ")", sizeof(line) - strlen(line) - 1);
	fn_note(l->o->out, l->o->fmt, line);
}

/* The rate every case was taken at (--rate: params' "rate"), said in
 * the title: " at 1Gbit/s"; nothing when the cases ran as fast as they
 * went (or at several rates: then rate is a key column). */
static void title_rate(const struct lay *l, char *title, size_t len)
{
	char buf[64];
	const char *r = lay_common_param(l, "rate", buf, sizeof(buf));

	if (r && *r && strcmp(r, "-"))
		snprintf(title + strlen(title), len - strlen(title), " at %s",
			 r);
}

/* The title, the table with its marks, then what goes under it: the
 * footnotes, the measured-runs note and where paired figures came
 * from. */
static void print_table(struct lay *l, int sep)
{
	const struct layout_opts *o = l->o;
	char title[256];

	if (sep)
		fputc('\n', o->out);
	if (l->t->title_fn || l->t->title) {
		if (l->t->title_fn)
			l->t->title_fn(l, title, sizeof(title));
		else
			snprintf(title, sizeof(title), "%s", l->t->title);
		title_rate(l, title, sizeof(title));
		tbl_title(o->out, o->fmt, title, l->t->underline);
	}
	fn_marks(&l->fn, l->tb);
	tbl_print(o->out, l->tb, o->fmt);
	fn_footnotes(o->out, &l->fn, o->fmt);
	measured_note(l);
	fn_sources(o->out, &l->fn, o->fmt);
}

int lay_table_print(const struct lay_table *t, const struct res_pool *s,
		    const struct layout_opts *o, int sep)
{
	struct layout_opts mo = *o;
	struct lay l = {.t = t, .o = o};
	size_t r;

	if (t->mean && o->stat == ST_AUTO) {
		mo.stat = ST_MEAN;
		l.o = &mo;
	}

	select_cases(s, t, o, &l.sel);
	if (!l.sel.n) {
		res_sel_free(&l.sel);
		return 1;
	}
	l.nk = make_keys(&l.sel, t, l.keys);
	res_grp_build(&l.sel, l.keys, l.nk, &l.g);
	make_table(&l);
	fn_init(&l.fn);
	for (r = 0; r < l.g.n; r++)
		t->row(&l, &l.g.g[r]);
	print_table(&l, sep);
	fn_free(&l.fn);
	tbl_free(l.tb);
	res_grp_free(&l.g);
	res_sel_free(&l.sel);
	return 0;
}
