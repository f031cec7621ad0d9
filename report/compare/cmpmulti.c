/*
 * cmpmulti.c: zcbreport compare BASE A B C...: a baseline against any
 * number of kernels in one table, as mmtests' compare-kernels shows
 * them: a row per case and metric (a section per metric), the
 * baseline's figure, then a column group per kernel with its figure,
 * its change, its ratio to the baseline with the 95% interval and its
 * verdict. Each kernel is judged against the baseline as a two-sided
 * compare is (cmpjudge.c), and Benjamini-Hochberg runs over every test
 * of the table at once. Also the layout of --format markdown and csv
 * for two sides.
 */
#include "config.h"
#include "compare.h"
#include "esc.h"
#include "log.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The row of (metric, name), added when new. */
static struct mrow *row_of(json_t *ix, struct mrow **rows, size_t *n,
			   size_t *cap, const char *metric, const char *name)
{
	char key[1024];
	json_t *v;

	snprintf(key, sizeof(key), "%s\x1f%s", metric, name);
	v = json_object_get(ix, key);
	if (v)
		return &(*rows)[json_integer_value(v)];
	*rows = rl_grow(*rows, cap, *n, sizeof(**rows));
	memset(&(*rows)[*n], 0, sizeof(**rows));
	(*rows)[*n].metric = metric;
	(*rows)[*n].name = name;
	json_object_set_new(ix, key, json_integer((json_int_t)*n));
	return &(*rows)[(*n)++];
}

/* Every state's rows of one metric. */
static void metric_rows(const struct cmp_multi *m, const char *metric,
			json_t *ix, struct mrow **rows, size_t *n, size_t *cap)
{
	size_t k, i;

	for (k = 0; k < m->nk; k++)
		for (i = 0; i < m->st[k].nrows; i++) {
			const struct crow *r = &m->st[k].rows[i];

			if (!strcmp(r->metric, metric))
				row_of(ix, rows, n, cap, metric,
				       m->st[k].keys[r->key].name)
					->cell[k] = r;
		}
}

struct mrow *cmp_multi_rows(const struct cmp_multi *m, size_t *n)
{
	json_t *ix = json_object(), *seen = json_object();
	struct mrow *rows = NULL;
	size_t cap = 0, k, j;

	*n = 0;
	for (k = 0; k < m->nk; k++)
		for (j = 0; j < m->st[k].nmetrics; j++) {
			const char *metric = m->st[k].metrics[j];

			if (json_object_get(seen, metric))
				continue;
			json_object_set_new(seen, metric, json_true());
			metric_rows(m, metric, ix, &rows, n, &cap);
		}
	json_decref(ix);
	json_decref(seen);
	return rows;
}

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
		int better = rl_better(m->s, rows[i].metric);

		if (!last || strcmp(last, rows[i].metric))
			tbl_section(t, "%s (%s, %s is better)", rows[i].metric,
				    esc_text(eu, sizeof(eu),
					     rl_unit(m->s, rows[i].metric)),
				    better > 0	 ? "higher"
				    : better < 0 ? "lower"
						 : "?");
		last = rows[i].metric;
		row = tbl_add_row(t);
		tbl_set(t, row, 0, "%s",
			rl_is_rate(m->s, f->metric) && !f->summ ? "Hmean"
								: "Amean");
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
		   size_t *flagged, size_t *failed, size_t *summ)
{
	size_t k, i;

	*rows = *judged = *flagged = *failed = *summ = 0;
	for (k = 0; k < m->nk; k++) {
		*rows += m->st[k].nrows;
		*judged += m->st[k].judged;
		*flagged += m->st[k].flagged;
		*failed += m->st[k].failed;
		for (i = 0; i < m->st[k].nrows; i++)
			*summ += m->st[k].rows[i].summ;
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

void cmp_multi_print(const struct cmp_cfg *c, const struct cmp_multi *m,
		     enum tbl_fmt fmt, size_t nbad)
{
	size_t n, k, rows, judged, flagged, failed, summ;
	struct mrow *r = cmp_multi_rows(m, &n);
	struct tbl *t = multi_table(m, r, n);
	char line[2048];

	totals(m, &rows, &judged, &flagged, &failed, &summ);
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
	multi_perturbations(m, fmt);
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

/* Column labels: each side's label (its path when its labels vary);
 * one shared by two columns (nights of one kernel) gets its path's
 * last part: "6.18@20261130T030000Z". */
static void multi_labels(const struct cmp_cfg *c, const struct rsel *sel,
			 size_t n, char (*lab)[256])
{
	char dup[CMP_MAX_KERNELS + 1] = {0};
	size_t i, j;

	for (i = 0; i < n; i++)
		snprintf(lab[i], sizeof(lab[i]), "%s",
			 !sel_labels_vary(&sel[i]) ? sel[i].v[0].doc->label
						   : c->o.paths[i]);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			dup[i] |= j != i && !strcmp(lab[j], lab[i]);
	for (i = 0; i < n; i++) {
		const char *p = c->o.paths[i], *e = p + strlen(p), *b;
		size_t l = strlen(lab[i]);

		if (!dup[i])
			continue;
		while (e > p + 1 && e[-1] == '/')
			e--;
		for (b = e; b > p && b[-1] != '/'; b--)
			;
		snprintf(lab[i] + l, sizeof(lab[i]) - l, "@%.*s", (int)(e - b),
			 b);
	}
}

/* Load every input; 0, or 2 when one has no usable cases. */
static int multi_load(const struct cmp_cfg *c, struct cmp_inputs *in,
		      size_t *nbad)
{
	struct rfilter f = {.where = c->o.where, .nwhere = c->o.nwhere};
	char e[1024];
	size_t i;

	for (i = 0; i < in->n; i++) {
		load_inputs(&in->set[i], c->o.paths + i, 1);
		sel_build(&in->set[i], &f, &in->sel[i]);
		*nbad += in->set[i].nbad;
	}
	for (i = 0; i < in->n; i++)
		if (!in->sel[i].n) {
			log_err("nothing to compare: %s (%s) has no usable "
				"cases",
				esc_text(e, sizeof(e), c->o.paths[i]),
				i ? "a NEW" : "BASE");
			return 2;
		}
	multi_labels(c, in->sel, in->n, in->lab);
	for (i = 1; i < in->n; i++)
		in->labels[i - 1] = in->lab[i];
	return 0;
}

void cmp_inputs_close(struct cmp_inputs *in)
{
	size_t i;

	for (i = 0; i < in->njudged; i++)
		cmp_state_free(&in->st[i]);
	for (i = 0; i < in->n; i++) {
		sel_free(&in->sel[i]);
		rl_free(&in->set[i]);
	}
	free(in->set);
	free(in->sel);
	free(in->st);
	free(in->lab);
	free(in->labels);
	memset(in, 0, sizeof(*in));
}

int cmp_inputs_open(const struct cmp_cfg *c, struct cmp_inputs *in,
		    size_t *nbad)
{
	int r;

	memset(in, 0, sizeof(*in));
	in->n = (size_t)c->o.npaths;
	if (in->n - 1 > CMP_MAX_KERNELS)
		die_usage("at most %d kernels against a baseline",
			  CMP_MAX_KERNELS);
	in->set = calloc(in->n, sizeof(*in->set));
	in->sel = calloc(in->n, sizeof(*in->sel));
	in->st = calloc(in->n, sizeof(*in->st));
	in->lab = calloc(in->n, sizeof(*in->lab));
	in->labels = calloc(in->n, sizeof(*in->labels));
	if (!in->set || !in->sel || !in->st || !in->lab || !in->labels)
		abort();
	r = multi_load(c, in, nbad);
	if (r)
		cmp_inputs_close(in);
	return r;
}

void cmp_inputs_judge(const struct cmp_cfg *c, struct cmp_inputs *in,
		      struct cmp_multi *m, size_t *nbad)
{
	size_t k;

	for (k = 1; k < in->n; k++) {
		struct rsel pair[2] = {in->sel[0], in->sel[k]};

		cmp_judge_rows(c, &in->set[0], &in->set[k], pair,
			       &in->st[k - 1]);
		in->njudged = k;
		*nbad += in->st[k - 1].nbad;
	}
	cmp_verdicts(c, &in->set[0], in->st, in->n - 1);
	*m = (struct cmp_multi){.nk = in->n - 1,
				.st = in->st,
				.base = in->lab[0],
				.labels = in->labels,
				.s = &in->set[0]};
}

int cmd_compare_multi(struct cmp_cfg *c)
{
	struct cmp_inputs in;
	struct cmp_multi m;
	size_t k, nbad = 0, flagged = 0, failed = 0;
	int r;

	r = cmp_inputs_open(c, &in, &nbad);
	if (r)
		return r;
	for (k = 1; k < in.n && c->o.cfmt <= CF_MARKDOWN; k++) {
		printf("%s against %s:\n", in.labels[k - 1], in.lab[0]);
		print_host_diff(&in.sel[0], &in.sel[k]);
	}
	cmp_inputs_judge(c, &in, &m, &nbad);
	if (c->o.cfmt == CF_JSON)
		cmp_json_print(c, &m, nbad);
	else
		cmp_multi_print(c, &m, (enum tbl_fmt)c->o.cfmt, nbad);
	for (k = 0; k < m.nk; k++) {
		flagged += in.st[k].flagged;
		failed += in.st[k].failed;
	}
	cmp_inputs_close(&in);
	return flagged ? 1 : nbad || failed ? 2 : 0;
}
