/*
 * cmpstats.h: two-sample and paired significance tests for comparing
 * runs (zcbreport compare): Welch's t-test (on log values for ratios),
 * Mann-Whitney U, the paired t-test and Wilcoxon signed-rank test, and
 * Benjamini-Hochberg adjustment. Distribution functions come from GSL.
 * All p-values are two-sided. Nothing here prints.
 */
#ifndef ZCB_CMPSTATS_H
#define ZCB_CMPSTATS_H

#include <stddef.h>

struct cmp_result {
	size_t n1, n2;		   /* samples used (paired: n1 = n2 = pairs) */
	double stat;		   /* t, or U / V for the rank tests */
	double df;		   /* degrees of freedom (t tests), else NAN */
	double p;		   /* two-sided p-value, NAN when undefined */
	double diff;		   /* t tests: mean(b) - mean(a) (of logs when
				    * on logs); paired: mean of b_i - a_i */
	double diff_lo, diff_hi;   /* level interval of diff */
	double ratio;		   /* on logs: exp(diff), the ratio b / a */
	double ratio_lo, ratio_hi; /* its interval, NAN when not on logs */
	int exact;		   /* rank tests: exact distribution used */
	int on_logs;		   /* values were log-transformed */
	char err[160];		   /* -ERANGE: what GSL refused, else "" */
};

/*
 * Every test below returns -ERANGE, with r->err saying what GSL said
 * ("x too large to extract fraction part (gamma.c:1249)"), when a GSL
 * function refused its arguments (stats_gsl_clear(): the guard that
 * keeps GSL from aborting the program); r's figures are then not to be
 * used.
 */

/*
 * Welch's unequal-variance t-test of b against a. With on_logs the test
 * runs on log values (every value must be > 0, else -EDOM) and ratio is
 * the ratio of geometric means b/a with its `level` interval (e.g. 0.95).
 * -EINVAL when a side has fewer than 2 values, -EDOM also when a side's
 * mean or variance is not finite (values so large they overflow).
 * R: t.test(b, a).
 */
int cmp_welch(const double *a, size_t na, const double *b, size_t nb,
	      int on_logs, double level, struct cmp_result *r);

/*
 * Welch's t-test from published summaries: each side's mean, sample
 * standard deviation and count (R: the t.test of two samples with those
 * figures). The test is on the means (not on logs); when both means are
 * > 0, ratio is mb / ma with a `level` interval by the delta method on
 * logs ((sd / mean)^2 / n per side, Welch's df). -EINVAL when n < 2 on
 * a side, -EDOM for a figure that is not finite.
 */
int cmp_welch_summary(double ma, double sda, size_t na, double mb, double sdb,
		      size_t nb, double level, struct cmp_result *r);

/*
 * Mann-Whitney U (Wilcoxon rank-sum) test, two-sided. stat is
 * U = W of R's wilcox.test(b, a): the count of pairs with b > a (ties
 * count 1/2). Exact distribution when both sides have < 50 values and
 * there are no ties, as R does; otherwise the normal approximation with
 * tie and continuity correction. -EINVAL when a side is empty.
 */
int cmp_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		     struct cmp_result *r);

/*
 * Paired t-test on b_i against a_i, i < n. With on_logs, on log(b_i/a_i)
 * and ratio is the geometric mean ratio with its interval. -EINVAL when
 * n < 2, -EDOM for a value <= 0 on logs. R: t.test(b, a, paired=TRUE).
 */
int cmp_paired_t(const double *a, const double *b, size_t n, int on_logs,
		 double level, struct cmp_result *r);

/*
 * Wilcoxon signed-rank test of b_i - a_i (zero differences dropped),
 * stat is V, the sum of ranks of positive differences. Exact when fewer
 * than 50 non-zero differences and no ties, else the normal
 * approximation with tie and continuity correction, as R does.
 */
int cmp_signed_rank(const double *a, const double *b, size_t n,
		    struct cmp_result *r);

/*
 * The smallest relative change (0.05 = 5%) that compare flags with the
 * given power (e.g. 0.9), for two sides of na and nb runs whose
 * coefficients of variation are cva and cvb (the sd of the logs,
 * nearly), when a flag needs both Welch's test on logs significant at
 * alpha and the observed change above floor (compare's threshold and
 * the baseline's own noise): on logs, the larger of (t(1 - alpha/2) +
 * t(power)) x se and log(1 + floor) + t(power) x se, on Welch's df.
 * NAN when a side has < 2 runs, or when GSL refused (stats_gsl_error()
 * then says what it said).
 */
double cmp_detectable(double cva, size_t na, double cvb, size_t nb,
		      double alpha, double power, double floor);

/*
 * Benjamini-Hochberg adjusted p-values (R: p.adjust(p, "BH")). NAN
 * entries are left out of the count and stay NAN. q may equal p.
 */
void cmp_bh_adjust(const double *p, size_t n, double *q);

#endif
