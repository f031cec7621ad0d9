/* stats.h: summaries of repeated measurements (GSL for distributions). */
#ifndef ZCB_STATS_H
#define ZCB_STATS_H

#include <stddef.h>

struct stats_summary {
	size_t n;		/* samples */
	double mean;		/* arithmetic mean */
	double hmean;		/* harmonic mean (NAN if any x <= 0) */
	double stddev;		/* sample standard deviation (n - 1) */
	double cov;		/* stddev / mean (NAN if mean == 0) */
	double min, median, max;
	double ci95_lo, ci95_hi; /* Student-t 95% interval of the mean */
};

double stats_mean(const double *x, size_t n);
double stats_hmean(const double *x, size_t n);
double stats_stddev(const double *x, size_t n);
/* p in [0, 100], linear interpolation between order statistics (R type 7). */
double stats_percentile(const double *x, size_t n, double p);
double stats_median(const double *x, size_t n);
/* Two-sided Student-t quantile t_{1-alpha/2, df}, e.g. (0.95, 4) = 2.776. */
double stats_t_quantile(double level, double df);
/* Half width of the level-confidence interval of the mean. */
double stats_ci_halfwidth(const double *x, size_t n, double level);
void stats_summarize(const double *x, size_t n, struct stats_summary *s);

/*
 * The ratio of paired measurements num[i] / den[i] (e.g. a metered run
 * over its unmetered partner): the geometric mean of the per-pair
 * ratios, and a Student-t 95% interval on their logs (NAN with fewer
 * than 2 pairs). Pairs with a value <= 0 are skipped.
 */
struct stats_ratio {
	size_t n;	/* pairs used */
	double ratio;	/* geometric mean of num/den */
	double lo, hi;	/* 95% interval */
	double min, max; /* of the per-pair ratios */
};
void stats_ratio_paired(const double *num, const double *den, size_t n,
			struct stats_ratio *r);

/*
 * netperf -I semantics: with `level` (e.g. 95) and `width` (e.g. 5, in
 * percent), the interval is tight enough when its whole width is within
 * width% of the mean (i.e. +- width/2 %). Returns 1 when reached.
 */
int stats_confidence_reached(const double *x, size_t n, double level,
			     double width_pct);

/*
 * Pocock's constant boundary for a test repeated at K planned looks at
 * growing data (a group-sequential design, equal increments between the
 * looks): the one-sided level each look is tested at so that the K looks
 * together reject a true null with probability alpha. K = 1 is alpha
 * itself; K = 3 at 0.05 is 0.0232 (c 1.992). Computed by numerical
 * integration of the random walk of the looks' statistics that has not
 * yet crossed (Armitage, McPherson and Rowe 1969) and a bisection on the
 * boundary; K is 1..STATS_POCOCK_MAX (NAN outside it or alpha not in
 * (0, 0.5)).
 */
#define STATS_POCOCK_MAX 20
double stats_pocock_level(double alpha, int k);
/* the boundary itself: the z each look must pass (the level's quantile) */
double stats_pocock_z(double alpha, int k);

/*
 * GSL's errors. GSL's own handler prints "Default GSL error handler
 * invoked." and aborts the program, for an argument it refuses (a
 * distribution's degrees of freedom that are NAN or infinite). The
 * guard records the error instead, in the calling thread, and lets the
 * GSL function return its error value (NAN): the computation at hand
 * then finds it and says what went wrong.
 *
 * stats_gsl_clear() installs the guard (once per process; a program may
 * call it at its start so that no GSL call ever aborts it) and forgets
 * the calling thread's error: call it before a computation and
 * stats_gsl_error() after. That is NULL when GSL refused nothing, else
 * its first refusal since the clear, as "x too large to extract fraction
 * part (gamma.c:1249)" (valid until the thread's next clear).
 */
void stats_gsl_clear(void);
const char *stats_gsl_error(void);

#endif
