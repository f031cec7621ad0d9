/*
 * cmptext.c: zcbreport compare's two sides as text (cmpprint.h): the
 * host facts that differ between them, then per metric one table in
 * mmtests' layout (Hmean  case  value (  +x.xx%), the baseline
 * at 0.00%) with lkp's +- stddev%, the q and p values, the ratio with
 * its 95% interval and the verdict; a case whose soak meter slowed it
 * (perturbation outside 0.95-1.05) says so on its rows and in a block
 * under the tables; then the counts and one closing line.
 */
#include "config.h"
#include "cmpprint.h"
#include "esc.h"
#include "judge.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* p-values: 4 decimals, small ones as 1.2e-05. */
static void fmt_p(char *b, size_t l, double p)
{
	if (p < 0.0001)
		snprintf(b, l, "%.1e", p);
	else
		snprintf(b, l, "%.4f", p);
}

static void fmt_pct_paren(char *b, size_t l, double v, int base)
{
	char in[32];

	if (base)
		snprintf(in, sizeof(in), "0.00%%");
	else if (isfinite(v))
		snprintf(in, sizeof(in), "%+.2f%%", v);
	else
		snprintf(in, sizeof(in), "-");
	snprintf(b, l, "(%8s)", in);
}

/* " soak base 0.32x, new 0.98x" on a row of a perturbed case ("profile"
 * when the profiler was the metered runs' meter), else "". */
static void pert_words(char *b, size_t l, const struct ckey *k)
{
	int side;

	b[0] = 0;
	if (!cmp_key_perturbed(k))
		return;
	snprintf(b, l, " %s", cmp_pert_meter(k));
	for (side = 0; side < 2; side++) {
		if (!k->npert[side])
			continue;
		snprintf(b + strlen(b), l - strlen(b), "%s %s %.2fx%s",
			 side && k->npert[0] ? "," : "", side ? "new" : "base",
			 k->pert[side].ratio,
			 k->npert[side] > 1 ? " (worst)" : "");
	}
}

/* A row's last cell: why not judged or the verdict (else the smallest
 * change it could have flagged), the counts, soak and summaries. */
static void row_note(struct tbl *t, size_t row, const struct crow *r,
		     const struct ckey *k)
{
	char pw[96], n[64];

	pert_words(pw, sizeof(pw), k);
	if (r->summ)
		snprintf(pw + strlen(pw), sizeof(pw) - strlen(pw),
			 " from summaries");
	if (r->hist)
		snprintf(n, sizeof(n), "%zu nights, n=%zu/%zu", r->night.k,
			 r->n[0], r->n[1]);
	else
		snprintf(n, sizeof(n), "n=%zu/%zu", r->n[0], r->n[1]);
	if (r->why[0] || r->note)
		tbl_set(t, row, 11, "%s (%s)%s", r->why[0] ? r->why : r->note,
			n, pw);
	else if (r->have_t && isfinite(r->mde))
		tbl_set(t, row, 11, "no change > %.1f%% (%s)%s", r->mde, n,
			pw);
	else
		tbl_set(t, row, 11, "(%s)%s", n, pw);
}

/* The q and p cell: "q (t p/U p)", "... (t p/n<5)", "... (t p/off)";
 * against the nights "q (p/5 nights)". */
static void qp_cell(const struct cmp_cfg *c, struct tbl *t, size_t row,
		    const struct crow *r)
{
	char q[32], p1[32], p2[32];

	fmt_p(q, sizeof(q), r->q);
	fmt_p(p1, sizeof(p1), r->t.p);
	snprintf(p2, sizeof(p2), "%s", c->o.mw == CMW_OFF ? "off" : "n<5");
	if (r->have_u)
		fmt_p(p2, sizeof(p2), r->u.p);
	else if (r->summ)
		snprintf(p2, sizeof(p2), "summary");
	else if (r->hist)
		snprintf(p2, sizeof(p2), "%zu nights", r->night.k);
	tbl_set(t, row, 9, "%s (%s/%s)", q, p1, p2);
}

static void print_metric(const struct cmp_cfg *c, const struct res_pool *s,
			 const struct cmp_state *st, const char *metric,
			 const char *la, const char *lb)
{
	struct tbl *t = tbl_new(12);
	size_t i, row;
	int better = res_pool_better(s, metric), any = 0;
	char b[128];

	tbl_col(t, 2, la, AL_RIGHT);
	tbl_col(t, 5, lb, AL_RIGHT);
	tbl_col(t, 9,
		c->o.history  ? "q (p/nights)"
		: c->o.paired ? "q (t/signed-rank p)"
			      : "q (t/U p)",
		AL_LEFT);
	tbl_col(t, 10, "ratio [95% CI]", AL_LEFT);
	for (i = 0; i < st->nrows; i++) {
		const struct crow *r = &st->rows[i];
		int side;

		if (strcmp(r->metric, metric))
			continue;
		any = 1;
		row = tbl_add_row(t);
		tbl_set(t, row, 0, "%s", cmp_stat_word(s, r));
		tbl_set(t, row, 1, "%s", st->keys[r->key].name);
		for (side = 0; side < 2; side++) {
			fmt_auto(b, sizeof(b), r->v[side]);
			tbl_set(t, row, 2 + 3 * side, "%s", b);
			if (isfinite(r->cov[side]) && isfinite(r->v[side]))
				tbl_set(t, row, 3 + 3 * side,
					r->cov[side] < 1000 ? "+- %.1f%%"
							    : "+- %.3g%%",
					r->cov[side] * 100);
			else
				tbl_set(t, row, 3 + 3 * side, "+- -");
			fmt_pct_paren(b, sizeof(b), r->change, !side);
			tbl_set(t, row, 4 + 3 * side, "%s", b);
		}
		tbl_set(t, row, 8, "%s", r->flag ? "*" : "");
		if (r->have_t)
			qp_cell(c, t, row, r);
		if (isfinite(r->t.ratio_lo))
			tbl_set(t, row, 10, "%.3f [%.3f, %.3f]", r->t.ratio,
				r->t.ratio_lo, r->t.ratio_hi);
		else if (isfinite(r->t.ratio))
			tbl_set(t, row, 10, "%.3f", r->t.ratio);
		row_note(t, row, r, &st->keys[r->key]);
	}
	if (any) {
		char em[256], eu[256];

		printf("%s (%s, %s is better)\n",
		       esc_text(em, sizeof(em), metric),
		       esc_text(eu, sizeof(eu), res_pool_unit(s, metric)),
		       better > 0   ? "higher"
		       : better < 0 ? "lower"
				    : "?");
		tbl_print(stdout, t, FMT_TEXT);
		printf("\n");
	}
	tbl_free(t);
}

/* What "from summaries" on a row means, when a row has it; what Hist
 * means. */
static void summ_note(const struct cmp_state *st)
{
	size_t i, n = 0, merged = 0;

	for (i = 0; i < st->nrows; i++) {
		n += st->rows[i].summ && st->rows[i].have_t;
		merged += st->rows[i].merged;
	}
	if (merged)
		printf("%s\n", cmp_merged_words(merged));
	if (n)
		printf("%zu row%s judged from summaries: Welch's t-test on the "
		       "published n, mean and standard deviation (no samples "
		       "to rank; the mean, not the hmean)\n",
		       n, n == 1 ? "" : "s");
}

void cmp_text_hosts(const struct cmp_cfg *c, const struct res_sel *sel,
		    const char *const *name, size_t n)
{
	print_host_diff(&sel[0], &sel[1]);
}

/* A line of the block under the tables (cmp_explain). */
static void print_line(void *ctx, const char *line)
{
	int *n = ctx;

	(*n)++;
	printf("%s\n", line);
}

void cmp_text_print(const struct cmp_cfg *c, const struct cmp_multi *m,
		    size_t nbad)
{
	const struct res_pool *s = m->s;
	const struct cmp_state *st = &m->st[0];
	const char *la = m->base, *lb = m->labels[0], *jw;
	char el[2][1024];
	size_t i;
	int said = 0;

	for (i = 0; i < st->nmetrics; i++)
		print_metric(c, s, st, st->metrics[i], la, lb);
	cmp_perturbations((const struct cmp_state *const[]){st}, NULL, 1,
			  NULL, NULL);
	cmp_explain(m, print_line, &said);
	if (said)
		printf("\n");
	if (st->incomparable)
		printf("%zu row%s not comparable: figures of runs with soakers "
		       "on against runs without (not judged)\n",
		       st->incomparable, st->incomparable == 1 ? "" : "s");
	summ_note(st);
	if (st->judged > st->flagged)
		printf("\"no change > x%%\": not significant, and x%% is the "
		       "smallest change the row could have flagged (90%% "
		       "power at alpha %g, the threshold, the baseline's "
		       "noise)\n",
		       c->o.alpha);
	if (st->only[0] || st->only[1])
		printf("cases only in base: %zu, only in new: %zu\n",
		       st->only[0], st->only[1]);
	jw = cmp_judge_words(c, st->context, st->aliases);
	if (jw)
		printf("%s\n", jw);
	if (c->o.history)
		printf("%s\n", cmp_history_words(c));
	if (cmp_looks_words(c))
		printf("%s\n", cmp_looks_words(c));
	printf("zcbreport compare: %s -> %s: %zu rows, %zu judged, %zu "
	       "regression%s flagged (alpha %g after Benjamini-Hochberg, "
	       "threshold %g%%)%s%s\n",
	       esc_text(el[0], sizeof(el[0]), la),
	       esc_text(el[1], sizeof(el[1]), lb), st->nrows, st->judged,
	       st->flagged, st->flagged == 1 ? "" : "s", c->o.alpha,
	       c->o.threshold, cmp_failed_words(st->failed),
	       nbad ? "; some input was refused (see stderr)" : "");
}
