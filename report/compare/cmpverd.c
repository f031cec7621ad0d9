/*
 * cmpverd.c: the verdicts of a compare and their words (judge.h).
 * Benjamini-Hochberg runs over every row of the table at once (every
 * kernel's), and a row is flagged only when significant (its q, and its
 * rank test where it has one), larger than max(threshold, the
 * baseline's own noise) and in the metric's bad direction; the same in
 * the good direction is an improvement. The words are the judging's:
 * every printer says a verdict as cmp_verdict_word does.
 */
#include "config.h"
#include "judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A judged row's verdict from its q (set before). */
static void row_verdict(const struct cmp_cfg *c, const struct res_pool *s,
			struct crow *r)
{
	int better = res_pool_better(s, r->metric);
	double need = fmax(c->o.threshold,
			   isfinite(r->cov[0]) ? r->cov[0] * 100 : 0);
	int sig, big, bad;

	if (!r->have_t)
		return;
	sig = r->q < c->o.alpha && (!r->have_u || r->u.p < c->o.alpha);
	big = fabs(r->change) > need;
	bad = better > 0 ? r->change < 0 : r->change > 0;
	if (sig && big && bad) {
		r->flag = 1;
		r->note = "REGRESSION";
	} else if (sig && big) {
		r->improved = 1;
		r->note = "improved";
	}
}

void cmp_verdicts(const struct cmp_cfg *c, const struct res_pool *s,
		  struct cmp_state *st, size_t nst)
{
	size_t i, k, n = 0, j = 0;
	double *p;

	for (k = 0; k < nst; k++)
		n += st[k].nrows;
	p = calloc(n + 1, sizeof(*p));
	if (!p)
		abort();
	for (k = 0; k < nst; k++)
		for (i = 0; i < st[k].nrows; i++)
			p[j++] = st[k].rows[i].have_t ? st[k].rows[i].t.p : NAN;
	cmp_bh_adjust(p, n, p);
	for (k = j = 0; k < nst; k++) {
		st[k].flagged = st[k].judged = st[k].failed = 0;
		for (i = 0; i < st[k].nrows; i++) {
			struct crow *r = &st[k].rows[i];

			r->q = p[j++];
			row_verdict(c, s, r);
			st[k].flagged += r->flag;
			st[k].judged += r->have_t;
			st[k].failed += r->failed;
		}
	}
	free(p);
}

enum cmp_verdict cmp_verdict(const struct crow *r)
{
	if (r->why[0])
		return CV_INCOMPARABLE;
	if (r->flag)
		return CV_REGRESSION;
	if (r->improved)
		return CV_IMPROVED;
	return r->have_t ? CV_SAME : CV_UNJUDGED;
}

const char *cmp_verdict_word(const struct crow *r)
{
	switch (cmp_verdict(r)) {
	case CV_REGRESSION:
		return "REGRESSION";
	case CV_IMPROVED:
		return "improved";
	case CV_SAME:
		return "-";
	case CV_INCOMPARABLE:
		return "not comparable";
	case CV_UNJUDGED:
		break;
	}
	return r->note ? r->note : "not judged";
}

const char *cmp_failed_words(size_t failed)
{
	static char b[96];

	if (!failed)
		return "";
	snprintf(b, sizeof(b), "; %zu row%s not judged: a computation failed",
		 failed, failed == 1 ? "" : "s");
	return b;
}

const char *cmp_judge_words(const struct cmp_cfg *c, size_t context,
			    size_t aliases)
{
	static char b[512];

	b[0] = 0;
	if (c->o.judge == CJ_PRIMARY)
		snprintf(b, sizeof(b),
			 "judged: each tool's primary metrics (--judge "
			 "primary; zcbreport(1) lists them); %zu row%s of "
			 "context, not judged%s",
			 context, context == 1 ? "" : "s",
			 aliases ? "; rows of a figure under a second name "
				   "left out (cpu_box_procstat_pct where it is "
				   "cpu_box_pct)"
				 : "");
	if (c->o.mw == CMW_OFF)
		snprintf(b + strlen(b), sizeof(b) - strlen(b),
			 "%sthe rank test is off (--mann-whitney off): a "
			 "flag needs Welch's q alone",
			 b[0] ? "; " : "");
	return b[0] ? b : NULL;
}

const char *cmp_looks_words(const struct cmp_cfg *c)
{
	static char b[400];
	int k = (int)c->o.looks;

	if (k <= 1)
		return NULL;
	snprintf(b, sizeof(b),
		 "looks: this judging is one of %d planned looks at the "
		 "night as its rounds grow (the nightly's confirmation); "
		 "alpha %g over all of them is spent as Pocock's constant "
		 "boundary: each look at alpha %.4g (%s z %.3f), where %d "
		 "looks at %g each would flag a true null up to %d times as "
		 "often",
		 k, c->o.alpha_all, c->o.alpha,
		 c->o.history ? "one-sided" : "two-sided", c->o.looks_z, k,
		 c->o.alpha_all, k);
	return b;
}
