/*
 * edivisive.h: change points of a series by E-divisive means (Matteson
 * and James, "A Nonparametric Approach for Multiple Change Point
 * Analysis of Multivariate Data", JASA 2014; the method of MongoDB's CI
 * and of Hunter), for zcbreport trend over a metric's nightly figures.
 *
 * With the energy distance of exponent alpha = 1, the divergence of X
 * (m values) and Y (n values) is
 *
 *   E = 2/(mn) sum |x - y| - 1/C(m,2) sum_{i<k} |x_i - x_k|
 *                          - 1/C(n,2) sum_{j<k} |y_j - y_k|
 *
 * and a split's statistic is Q = mn/(m+n) E. In a segment [a, b) the
 * candidate is the split tau with X = [a, tau) and Y = [tau, kappa)
 * that maximises Q over tau and kappa (the paper's; MongoDB and Hunter
 * fix kappa = b), each side at least min_size long. Divisively: the
 * best candidate over the current segments is tested by permutation
 * (each segment's values shuffled within it, the best Q found again,
 * perms times; p = (1 + #{Q_perm >= Q}) / (perms + 1)); a significant
 * one (p < alpha) splits its segment and the search goes on, the
 * first that is not ends it. The shuffles draw from a fixed seed: the
 * same series gives the same answer. Nothing here prints.
 */
#ifndef ZCB_EDIVISIVE_H
#define ZCB_EDIVISIVE_H

#include <stddef.h>
#include <stdint.h>

struct ediv_point {
	size_t at; /* the first index of the new segment */
	double q;  /* its statistic */
	double p;  /* its permutation p-value */
};

struct ediv_cfg {
	size_t min_size; /* values a side at least (>= 2) */
	double alpha;	 /* significance of a change point */
	unsigned perms;	 /* permutations of a test */
	uint64_t seed;	 /* the shuffles' seed (0: a fixed default) */
};

/*
 * The change points of z[0..n) into out (room for max), sorted by
 * index; their count. 0 for a series too short to split (n < 2 min_size).
 * -EINVAL for a value that is not finite, -ENOMEM.
 */
int ediv_points(const double *z, size_t n, const struct ediv_cfg *cfg,
		struct ediv_point *out, size_t max);

#endif
