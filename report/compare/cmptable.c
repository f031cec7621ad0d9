/*
 * cmptable.c: the N-kernel table (cmpprint.h) of zcbreport compare BASE
 * A B C..., and of --format markdown and csv for two sides: a baseline
 * against any number of kernels in one table, as mmtests'
 * compare-kernels shows them: a row per case and metric (a section per
 * metric), the baseline's figure, then a column group per kernel with
 * its figure, its change, its ratio to the baseline with the 95%
 * interval and its verdict (judge.h). Under it, in the table's format,
 * what the columns mean, the perturbations, a count per kernel and the
 * closing line. Above it (text and markdown), each kernel's host facts
 * that differ from the baseline's.
 */
#include "config.h"
#include "cmpprint.h"
#include "esc.h"
#include "judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void kernel_cells(struct tbl *t, size_t row, size_t col,
			 const struct crow *r)
{
	char b[64];

	if (!r) {
		tbl_set(t, row, col, "-");
		tbl_set(t, row, col + 3, "not in this kernel");
		return;
	}
	fmt_auto(b, sizeof(b), r->v[1]);
	tbl_set(t, row, col, "%s", b);
	if (isfinite(r->change))
		tbl_set(t, row, col + 1, "(%+.2f%%)",
			fabs(r->change) < 0.005 ? 0.0 : r->change);
	if (isfinite(r->t.ratio_lo))
		tbl_set(t, row, col + 2, "%.3f [%.3f, %.3f]", r->t.ratio,
			r->t.ratio_lo, r->t.ratio_hi);
	else if (isfinite(r->t.ratio))
		tbl_set(t, row, col + 2, "%.3f", r->t.ratio);
	if (cmp_verdict(r) == CV_SAME && isfinite(r->mde))
		tbl_set(t, row, col + 3, "none > %.1f%%%s", r->mde,
			r->summ ? " (s)" : "");
	else
		tbl_set(t, row, col + 3, "%s%s", cmp_verdict_word(r),
			r->summ ? " (s)" : "");
}

static struct tbl *multi_table(const struct cmp_multi *m,
			       const struct mrow *rows, size_t n)
{
	struct tbl *t = tbl_new(4 + 4 * m->nk);
	const char *last = NULL;
	size_t i, k, row;
	char b[64], eu[128];

	tbl_col(t, 1, "case", AL_LEFT);
	tbl_col(t, 2, m->base, AL_RIGHT);
	for (k = 0; k < m->nk; k++) {
		tbl_col(t, 4 + 4 * k, m->labels[k], AL_RIGHT);
		tbl_col(t, 5 + 4 * k, "", AL_RIGHT);
		tbl_col(t, 6 + 4 * k, "ratio [95% CI]", AL_LEFT);
		tbl_col(t, 7 + 4 * k, "verdict", AL_LEFT);
	}
	for (i = 0; i < n; i++) {
		const struct crow *f = cmp_first_cell(&rows[i], m->nk);
		int better = res_pool_better(m->s, rows[i].metric);

		if (!last || strcmp(last, rows[i].metric))
			tbl_section(t, "%s (%s, %s is better)", rows[i].metric,
				    esc_text(eu, sizeof(eu),
					     res_pool_unit(m->s, rows[i].metric)),
				    better > 0	 ? "higher"
				    : better < 0 ? "lower"
						 : "?");
		last = rows[i].metric;
		row = tbl_add_row(t);
		tbl_set(t, row, 0, "%s", cmp_stat_word(m->s, f));
		tbl_set(t, row, 1, "%s", rows[i].name);
		fmt_auto(b, sizeof(b), f->v[0]);
		tbl_set(t, row, 2, "%s", b);
		if (isfinite(f->cov[0]))
			tbl_set(t, row, 3, "+- %.1f%%", f->cov[0] * 100);
		for (k = 0; k < m->nk; k++)
			kernel_cells(t, row, 4 + 4 * k, rows[i].cell[k]);
	}
	return t;
}

/* Counts over every kernel: rows, judged, flagged, failed, from
 * summaries. */
static void totals(const struct cmp_multi *m, size_t *rows, size_t *judged,
		   size_t *flagged, size_t *failed, size_t *summ,
		   size_t *merged)
{
	size_t k, i;

	*rows = *judged = *flagged = *failed = *summ = *merged = 0;
	for (k = 0; k < m->nk; k++) {
		*rows += m->st[k].nrows;
		*judged += m->st[k].judged;
		*flagged += m->st[k].flagged;
		*failed += m->st[k].failed;
		for (i = 0; i < m->st[k].nrows; i++) {
			*summ += m->st[k].rows[i].summ;
			*merged += m->st[k].rows[i].merged;
		}
	}
}

/* A line of the perturbation block, as a note of the table's format. */
static void note_line(void *fmtp, const char *line)
{
	tbl_note(stdout, *(const enum tbl_fmt *)fmtp, line);
}

/* The perturbation block over every kernel (cmppert.c). */
static void multi_perturbations(const struct cmp_multi *m, enum tbl_fmt fmt)
{
	const struct cmp_state *st[CMP_MAX_KERNELS];
	size_t k;

	for (k = 0; k < m->nk && k < CMP_MAX_KERNELS; k++)
		st[k] = &m->st[k];
	cmp_perturbations(st, m->labels, k, note_line, &fmt);
}

/* What was judged (--judge primary, --mann-whitney off), as a note. */
static void judge_note(const struct cmp_cfg *c, const struct cmp_multi *m,
		       enum tbl_fmt fmt)
{
	size_t k, context = 0, aliases = 0;
	const char *w;

	for (k = 0; k < m->nk; k++) {
		context += m->st[k].context;
		aliases += m->st[k].aliases;
	}
	w = cmp_judge_words(c, context, aliases);
	if (w)
		tbl_note(stdout, fmt, w);
}

void cmp_table_hosts(const struct cmp_cfg *c, const struct res_sel *sel,
		     const char *const *name, size_t n)
{
	char ek[1024], eb[1024];
	size_t k;

	for (k = 1; k < n && c->o.cfmt <= CF_MARKDOWN; k++) {
		printf("%s against %s:\n", esc_text(ek, sizeof(ek), name[k]),
		       esc_text(eb, sizeof(eb), name[0]));
		print_host_diff(&sel[0], &sel[k]);
	}
}

void cmp_table_print(const struct cmp_cfg *c, const struct cmp_multi *m,
		     size_t nbad)
{
	enum tbl_fmt fmt = (enum tbl_fmt)c->o.cfmt;
	size_t n, k, rows, judged, flagged, failed, summ, merged;
	struct mrow *r = cmp_multi_rows(m, &n);
	struct tbl *t = multi_table(m, r, n);
	char line[2048];

	totals(m, &rows, &judged, &flagged, &failed, &summ, &merged);
	tbl_print(stdout, t, fmt);
	tbl_free(t);
	free(r);
	if (fmt != FMT_CSV)
		printf("\n");
	snprintf(line, sizeof(line),
		 "ratio: NEW/BASE with its 95%% interval; REGRESSION or "
		 "improved: q < %g after Benjamini-Hochberg over the %zu "
		 "tests of the table, a change above max(%g%%, the "
		 "baseline's spread); none > x%%: not significant, x%% the "
		 "smallest change the row could have flagged (90%% power)",
		 c->o.alpha, judged, c->o.threshold);
	tbl_note(stdout, fmt, line);
	if (summ)
		tbl_note(stdout, fmt,
			 "(s): judged from summaries: Welch's t-test on the "
			 "published n, mean and standard deviation");
	if (merged)
		tbl_note(stdout, fmt, cmp_merged_words(merged));
	multi_perturbations(m, fmt);
	if (fmt != FMT_CSV)
		cmp_explain(m, note_line, &fmt);
	judge_note(c, m, fmt);
	if (c->o.history)
		tbl_note(stdout, fmt, cmp_history_words(c));
	if (cmp_looks_words(c))
		tbl_note(stdout, fmt, cmp_looks_words(c));
	for (k = 0; k < m->nk; k++) {
		snprintf(line, sizeof(line),
			 "%s: %zu rows, %zu judged, %zu regression%s; cases "
			 "only in base: %zu, only here: %zu",
			 m->labels[k], m->st[k].nrows, m->st[k].judged,
			 m->st[k].flagged, m->st[k].flagged == 1 ? "" : "s",
			 m->st[k].only[0], m->st[k].only[1]);
		tbl_note(stdout, fmt, line);
	}
	snprintf(line, sizeof(line),
		 "zcbreport compare: %s against %zu kernel%s: %zu rows, %zu "
		 "judged, %zu regression%s flagged (alpha %g after "
		 "Benjamini-Hochberg, threshold %g%%)%s%s",
		 m->base, m->nk, m->nk == 1 ? "" : "s", rows, judged, flagged,
		 flagged == 1 ? "" : "s", c->o.alpha, c->o.threshold,
		 cmp_failed_words(failed),
		 nbad ? "; some input was refused (see stderr)" : "");
	tbl_note(stdout, fmt, line);
}
