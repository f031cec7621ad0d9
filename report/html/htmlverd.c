/*
 * htmlverd.c: zcbreport html's verdict table and samples (htmlverd.h).
 * The N-kernel compare's rows (cmprows.c), regressions on top, then
 * improvements, then the rest in the compare's order; a flagged
 * verdict links to the samples it was judged from, listed below.
 */
#include "config.h"
#include "cmpprint.h"
#include "htmlesc.h"
#include "htmlverd.h"
#include "judge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A row's place: 0 a regression in some kernel, 1 an improvement, 2
 * judged, 3 not judged anywhere (the verdicts' order, the unjudged
 * together). */
static int row_rank(const struct mrow *r, size_t nk)
{
	int best = CV_UNJUDGED, v;
	size_t k;

	for (k = 0; k < nk; k++) {
		if (!r->cell[k])
			continue;
		v = (int)cmp_verdict(r->cell[k]);
		best = v < best ? v : best;
	}
	return best;
}

static void cell(FILE *f, size_t i, size_t k, const struct crow *r)
{
	char b[64];

	if (!r) {
		fprintf(f, "<td colspan=\"4\" class=\"absent\">not in this "
			   "kernel</td>");
		return;
	}
	fmt_auto(b, sizeof(b), r->v[1]);
	fprintf(f, "<td class=\"num\">%s</td><td class=\"num\">", b);
	if (isfinite(r->change))
		fprintf(f, "%+.2f%%",
			fabs(r->change) < 0.005 ? 0.0 : r->change);
	fprintf(f, "</td><td class=\"num\">");
	if (isfinite(r->t.ratio_lo))
		fprintf(f, "%.3f [%.3f, %.3f]", r->t.ratio, r->t.ratio_lo,
			r->t.ratio_hi);
	else if (isfinite(r->t.ratio))
		fprintf(f, "%.3f", r->t.ratio);
	fprintf(f, "</td><td class=\"verdict\">");
	if (r->flag)
		fprintf(f, "<a href=\"#s-%zu-%zu\">REGRESSION</a>", i, k);
	else if (cmp_verdict(r) == CV_SAME && isfinite(r->mde))
		fprintf(f, "none &gt; %.1f%%", r->mde);
	else
		html_text(f, cmp_verdict_word(r));
	if (r->summ)
		fprintf(f, " <span title=\"judged from published summaries: "
			   "n, mean, sd\">(s)</span>");
	fprintf(f, "</td>");
}

static void head(FILE *f, const struct cmp_multi *m)
{
	size_t k;

	fprintf(f, "<thead><tr><th rowspan=\"2\">metric</th>"
		   "<th rowspan=\"2\">case</th><th>");
	html_text(f, m->base);
	fprintf(f, "</th>");
	for (k = 0; k < m->nk; k++) {
		fprintf(f, "<th colspan=\"4\">");
		html_text(f, m->labels[k]);
		fprintf(f, "</th>");
	}
	fprintf(f, "</tr>\n<tr><th>baseline</th>");
	for (k = 0; k < m->nk; k++)
		fprintf(f, "<th>value</th><th>change</th>"
			   "<th>ratio [95%% CI]</th><th>verdict</th>");
	fprintf(f, "</tr></thead>\n");
}

static void row(FILE *f, const struct cmp_multi *m, const struct mrow *r,
		size_t i)
{
	static const char *const cls[] = {"regression", "improved", "judged",
					  "unjudged"};
	const struct crow *b = cmp_first_cell(r, m->nk);
	char v[64];
	size_t k;

	fmt_auto(v, sizeof(v), b->v[0]);
	fprintf(f, "<tr id=\"v-%zu\" class=\"%s\"><td>", i,
		cls[row_rank(r, m->nk)]);
	html_text(f, r->metric);
	fprintf(f, " (");
	html_text(f, res_pool_unit(m->s, r->metric));
	fprintf(f, ")</td><td>");
	html_text(f, r->name);
	fprintf(f, "</td><td class=\"num\">%s", v);
	if (isfinite(b->cov[0]))
		fprintf(f, " &plusmn; %.1f%%", b->cov[0] * 100);
	fprintf(f, "</td>");
	for (k = 0; k < m->nk; k++)
		cell(f, i, k, r->cell[k]);
	fprintf(f, "</tr>\n");
}

void html_verdicts(FILE *f, const struct cmp_cfg *c, const struct cmp_multi *m,
		   size_t *flagged)
{
	size_t n, i, k, judged = 0;
	struct mrow *r = cmp_multi_rows(m, &n);
	int rank;

	*flagged = 0;
	for (k = 0; k < m->nk; k++) {
		*flagged += m->st[k].flagged;
		judged += m->st[k].judged;
	}
	fprintf(f, "<p class=\"summary\">");
	html_textf(f,
		   "%s against %zu kernel%s: %zu rows, %zu judged, %zu "
		   "regression%s flagged (alpha %g after Benjamini-Hochberg "
		   "over the %zu tests of the table, threshold %g%%).",
		   m->base, m->nk, m->nk == 1 ? "" : "s", n, judged, *flagged,
		   *flagged == 1 ? "" : "s", c->o.alpha, judged,
		   c->o.threshold);
	fprintf(f, "</p>\n<table id=\"verdict-table\" class=\"verdicts\">\n");
	head(f, m);
	fprintf(f, "<tbody>\n");
	for (rank = 0; rank < 4; rank++)
		for (i = 0; i < n; i++)
			if (row_rank(&r[i], m->nk) == rank)
				row(f, m, &r[i], i);
	fprintf(f, "</tbody></table>\n");
	free(r);
}

/* One side's sample values of a row's metric, or its summary. */
static void side_values(FILE *f, const struct crow *r, const struct ckey *k,
			int side, const char *label)
{
	double *x = NULL;
	size_t n = 0, cap = 0, i;
	char b[64];

	for (i = 0; i < k->n[side]; i++)
		res_case_values(k->c[side][i]->kase, r->metric, &x, &n, &cap);
	fprintf(f, "<p><b>");
	html_text(f, label);
	fprintf(f, "</b>: ");
	if (r->summ)
		fprintf(f, "published summary: n = %zu, mean %.6g, sd %.6g; ",
			r->n[side], r->v[side], r->sd[side]);
	fprintf(f, "%zu sample%s:", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		fmt_auto(b, sizeof(b), x[i]);
		fprintf(f, " %s", b);
	}
	fprintf(f, "</p>\n");
	free(x);
}

void html_samples(FILE *f, const struct cmp_multi *m)
{
	size_t n, i, k, any = 0;
	struct mrow *r = cmp_multi_rows(m, &n);

	for (i = 0; i < n; i++)
		for (k = 0; k < m->nk; k++) {
			const struct crow *c = r[i].cell[k];

			if (!c || !c->flag)
				continue;
			if (!any++)
				fprintf(f, "<h2 id=\"samples\">Samples of the "
					   "flagged rows</h2>\n");
			fprintf(f,
				"<div class=\"samples\" id=\"s-%zu-%zu\">"
				"<h3>",
				i, k);
			html_textf(f, "%s, %s: %s against %s", r[i].metric,
				   r[i].name, m->labels[k], m->base);
			fprintf(f,
				" <a href=\"#v-%zu\">(back to the "
				"verdict)</a></h3>\n",
				i);
			side_values(f, c, &m->st[k].keys[c->key], 0, m->base);
			side_values(f, c, &m->st[k].keys[c->key], 1,
				    m->labels[k]);
			fprintf(f, "</div>\n");
		}
	free(r);
}
