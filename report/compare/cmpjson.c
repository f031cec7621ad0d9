/*
 * cmpjson.c: zcbreport compare --format json (cmpprint.h): the N-kernel
 * table (cmptable.c) as one JSON document for scripts and the HTML report:
 * the baseline, the kernels, every row with the baseline's figures and
 * per kernel its figures, change, ratio with the 95% interval, the
 * tests' p and q, and the verdict. Numbers that are not finite are
 * null. Strings are the documents' own (JSON escapes them).
 */
#include "config.h"
#include "cmpprint.h"
#include "esc.h"
#include "judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A string for JSON: a label made of a path may not be UTF-8. */
static json_t *jstr(const char *s)
{
	json_t *j = json_string(s);
	char *e;

	if (j)
		return j;
	e = esc_dup(s);
	j = json_string(e);
	free(e);
	return j ? j : json_string("?");
}

static const char *test_name(const struct cmp_cfg *c, const struct crow *r)
{
	if (!r->have_t)
		return NULL;
	if (r->summ)
		return "welch-summary";
	if (c->o.paired)
		return r->t.on_logs ? "paired-t-log" : "paired-t";
	return r->t.on_logs ? "welch-log" : "welch";
}

static json_t *cell_json(const struct cmp_cfg *c, const char *label,
			 const struct crow *r)
{
	const char *test = test_name(c, r);
	json_t *o;

	o = json_pack("{s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
		      "s:s?, s:s, s:b, s:o}",
		      "label", jstr(label), "value", num(r->v[1]), "cov",
		      num(r->cov[1]), "n", (json_int_t)r->n[1], "change_pct",
		      num(r->change), "ratio", num(r->t.ratio), "ratio_lo",
		      num(r->t.ratio_lo), "ratio_hi", num(r->t.ratio_hi), "p",
		      num(r->have_t ? r->t.p : NAN), "q", num(r->q), "rank_p",
		      num(r->have_u ? r->u.p : NAN), "test", test, "verdict",
		      cmp_verdict_word(r), "from_summaries", r->summ,
		      "detectable_pct", num(r->have_t ? r->mde : NAN));
	if (r->merged)
		json_object_set_new(o, "merged_histograms", json_true());
	if (r->hist)
		json_object_set_new(
			o, "history",
			json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}", "nights",
				  (json_int_t)r->night.k, "spread_pct",
				  num(expm1(r->night.spread) * 100),
				  "between_pct",
				  num(expm1(r->night.between) * 100), "se_pct",
				  num(expm1(r->night.se) * 100), "t",
				  num(r->t.stat), "df", num(r->t.df)));
	if (r->hist && isfinite(r->probe_b))
		json_object_set_new(json_object_get(o, "history"),
				    "probe_slope", json_real(r->probe_b));
	return o;
}

static json_t *row_json(const struct cmp_cfg *c, const struct cmp_multi *m,
			const struct mrow *row)
{
	const struct crow *f = NULL;
	json_t *ks = json_array(), *o;
	int better = res_pool_better(m->s, row->metric);
	size_t k;

	for (k = 0; k < m->nk; k++) {
		const struct crow *r = row->cell[k];

		if (r && !f)
			f = r;
		json_array_append_new(ks, r ? cell_json(c, m->labels[k], r)
					    : json_null());
	}
	o = json_pack("{s:s, s:s, s:s, s:s, s:{s:o, s:o, s:I}, s:o}", "metric",
		      row->metric, "unit", res_pool_unit(m->s, row->metric),
		      "better",
		      better > 0   ? "higher"
		      : better < 0 ? "lower"
				   : "unknown",
		      "case", row->name, "base", "value", num(f->v[0]), "cov",
		      num(f->cov[0]), "n", (json_int_t)f->n[0], "kernels", ks);
	return o;
}

/* What was judged, when not every metric with both tests (the default
 * keeps the document as it was). */
static void judge_json(const struct cmp_cfg *c, const struct cmp_multi *m,
		       json_t *doc)
{
	size_t k, context = 0, aliases = 0;

	for (k = 0; k < m->nk; k++) {
		context += m->st[k].context;
		aliases += m->st[k].aliases;
	}
	if (c->o.judge == CJ_PRIMARY)
		json_object_update_new(
			doc, json_pack("{s:s, s:I, s:I}", "judge", "primary",
				       "context_rows", (json_int_t)context,
				       "alias_rows", (json_int_t)aliases));
	if (c->o.mw == CMW_OFF)
		json_object_set_new(doc, "mann_whitney", json_string("off"));
}

void cmp_json_print(const struct cmp_cfg *c, const struct cmp_multi *m,
		    size_t nbad)
{
	json_t *doc, *rows = json_array(), *labels = json_array();
	size_t n, i, judged = 0, flagged = 0, failed = 0;
	struct mrow *r = cmp_multi_rows(m, &n);

	for (i = 0; i < n; i++)
		json_array_append_new(rows, row_json(c, m, &r[i]));
	for (i = 0; i < m->nk; i++) {
		json_array_append_new(labels, jstr(m->labels[i]));
		judged += m->st[i].judged;
		flagged += m->st[i].flagged;
		failed += m->st[i].failed;
	}
	doc = json_pack("{s:s, s:o, s:o, s:f, s:f, s:I, s:f, s:I, s:I, s:I, "
			"s:I, s:o}",
			"schema", "zcbreport-compare/1", "base", jstr(m->base),
			"kernels", labels, "alpha", c->o.alpha, "alpha_all",
			c->o.alpha_all, "looks", (json_int_t)c->o.looks,
			"threshold_pct", c->o.threshold, "tests",
			(json_int_t)judged, "flagged", (json_int_t)flagged,
			"failed_rows", (json_int_t)failed, "refused_inputs",
			(json_int_t)nbad, "rows", rows);
	if (!doc)
		abort();
	judge_json(c, m, doc);
	json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_ENSURE_ASCII);
	printf("\n");
	json_decref(doc);
	free(r);
}
