/*
 * cmpnight.h: a new night judged against the baseline's last nights
 * (zcbreport compare --history; issue 26). Samples within one night share
 * that night's conditions (the box's load, its cache and frequency
 * state), so pooling every night's samples as if independent makes the
 * drift between nights look like a regression. Here the night is the
 * unit: each contributes its figure (on logs), the nights' spread is the
 * baseline's noise, and the new night's own samples give its
 * measurement error.
 *
 * With the nights' log figures m_1..m_k (mean M, sample sd S), each
 * with its own samples' variance of the mean w_i, and the new night's
 * log figure x with its standard error e:
 *
 *   between^2 = max(0, S^2 - mean(w_i))   the drift between nights, less
 *                                         what their own noise explains
 *   sd^2      = between^2 + e^2 + S^2 / k  what x - M varies by when
 *                                         nothing changed: a new night's
 *                                         drift, its measurement error,
 *                                         and M's own error
 *   t         = (x - M) / sd,  df = k - 1
 *
 * or fewer df where e^2, known from the new night's few samples, weighs
 * most (Welch-Satterthwaite over the two parts of sd^2: S^2's k - 1 and
 * e^2's nx - 1): without that, twenty nights against a new night of
 * three samples flag 8% of unchanged nights at 5%, with it 5%.
 * the prediction interval of a new night, with the new night's error in
 * it (a night noisier than the history's is not a regression by its
 * noise). p is one-sided, in the direction of the change: the chance of
 * a change at least this large that way if nothing changed. k >= 3.
 * Distribution functions from GSL. Nothing here prints.
 */
#ifndef ZCB_CMPNIGHT_H
#define ZCB_CMPNIGHT_H

#include "cmpstats.h"

#include <stddef.h>

#define CMP_MIN_NIGHTS 3 /* nights of history a judgement needs */

struct cmp_night {
	size_t k;	/* nights */
	double mean;	/* M: the mean of the nights' log figures */
	double spread;	/* S: their sample standard deviation */
	double between; /* the between-night sd (>= 0) */
	double se;	/* e: the new night's standard error (log) */
	double sd;	/* sd of x - M when nothing changed */
	double df;	/* the t's degrees of freedom */
};

/*
 * The test of x (log; its standard error se, from nx samples) against
 * the k nights' log figures m[] (w[]: each one's variance of the mean,
 * NAN when a night had one sample; w NULL: none known). r gets t, df,
 * the one-sided p,
 * diff = x - M, and ratio exp(diff) with its `level` interval
 * (exp(diff -+ t(level) sd)); n the figures above. 0, -EINVAL when
 * k < CMP_MIN_NIGHTS, -EDOM for a figure that is not finite, -ERANGE
 * when GSL refused (r->err says what it said).
 */
int cmp_night_test(const double *m, const double *w, size_t k, double x,
		   double se, size_t nx, double level, struct cmp_result *r,
		   struct cmp_night *n);

/*
 * The smallest relative change (0.05 = 5%) the test flags with the given
 * power when a flag needs it significant at one-sided alpha and seen
 * above floor: on logs, the larger of (t(1 - alpha) + t(power)) x sd and
 * log(1 + floor) + t(power) x sd, on the test's df. NAN when GSL refused.
 */
double cmp_night_detectable(const struct cmp_night *n, double alpha,
			    double power, double floor);

/*
 * What a nightly of r runs a night, judged against h nights of history,
 * finds (zcbreport plan --history), from the noise its nights showed:
 * between2, the variance of a night's log figure beyond what its runs
 * explain, and run_var, one run's variance on logs. A night's figure
 * then varies by v = between2 + run_var / r, and the test above sees
 * sd = sqrt(v (1 + 1/h)) (the new night's v, the mean's v / h) on
 * h - 1 degrees of freedom: the smallest change found, as
 * cmp_night_detectable gives it. NAN for h < CMP_MIN_NIGHTS, r < 1 or a
 * variance that is negative or not finite.
 */
double cmp_night_plan(double between2, double run_var, double r, size_t h,
		      double alpha, double power, double floor);

#endif
