/*
 * test_cmpstats.c: report/compare/cmpstats against R's published
 * outputs. The sleep data (Cushny and Peebles, R's datasets::sleep) and
 * the wilcox.test examples of R's own manual page; hand-worked values
 * for the rest.
 */
#include "config.h"
#include "cmpstats.h"
#include "stats.h"
#include "t.h"

#include <errno.h>

static const double g1[] = {0.7, -1.6, -0.2, -1.2, -0.1,
			    3.4, 3.7,  0.8,  0.0,  2.0};
static const double g2[] = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};

static void test_welch(void)
{
	struct cmp_result r;
	const double a[] = {1, 2, 4}, b[] = {2, 4, 8};
	const double c[] = {3, 3, 3}, neg[] = {1, -1, 2};

	/* R: t.test(extra ~ group, data = sleep): t = -1.8608,
	 * df = 17.776, p-value = 0.07939,
	 * 95 percent CI: -3.3654832  0.2054832 */
	T_CHECK(cmp_welch(g2, 10, g1, 10, 0, 0.95, &r) == 0);
	T_NEAR(r.stat, -1.8608, 1e-4);
	T_NEAR(r.df, 17.776, 1e-3);
	T_NEAR(r.p, 0.07939, 1e-5);
	T_NEAR(r.diff, -1.58, 1e-12);
	T_NEAR(r.diff_lo, -3.3654832, 1e-6);
	T_NEAR(r.diff_hi, 0.2054832, 1e-6);
	T_CHECK(isnan(r.ratio));

	/* On logs: log b = log a + ln 2, equal spread ((ln 2)^2 each):
	 * t = 1 / sqrt(2/3), df = 4, ratio exactly 2 */
	T_CHECK(cmp_welch(a, 3, b, 3, 1, 0.95, &r) == 0);
	T_NEAR(r.stat, 1.0 / sqrt(2.0 / 3.0), 1e-12);
	T_NEAR(r.df, 4, 1e-9);
	T_NEAR(r.ratio, 2.0, 1e-12);
	T_CHECK(r.ratio_lo < 1 && r.ratio_hi > 2);
	/* two-sided p of t = 1.224745 on 4 df (tables: 0.2879) */
	T_NEAR(r.p, 0.2879, 1e-4);

	/* constant and equal: no change; constant and different: p 0 */
	T_CHECK(cmp_welch(c, 3, c, 3, 1, 0.95, &r) == 0);
	T_NEAR(r.p, 1.0, 0);
	T_CHECK(cmp_welch(c, 3, a + 1, 2, 0, 0.95, &r) == 0);
	T_CHECK(cmp_welch(c, 1, c, 3, 0, 0.95, &r) == -EINVAL);
	T_CHECK(cmp_welch(c, 3, neg, 3, 1, 0.95, &r) == -EDOM);
}

/* Welch from summaries: R's sleep data as published (group 1: mean
 * 0.75, sd 1.789010; group 2: mean 2.33, sd 2.002249; n = 10 each)
 * gives R's t.test on the samples; seed 004's two kernels (n = 50)
 * give t = -16.16. */
static void test_welch_summary(void)
{
	struct cmp_result r;

	T_CHECK(cmp_welch_summary(2.33, 2.002249, 10, 0.75, 1.789010, 10, 0.95,
				  &r) == 0);
	T_NEAR(r.stat, -1.8608, 1e-4);
	T_NEAR(r.df, 17.776, 1e-3);
	T_NEAR(r.p, 0.07939, 1e-5);
	T_NEAR(r.diff_lo, -3.3654832, 1e-5);
	T_NEAR(r.diff_hi, 0.2054832, 1e-5);
	T_NEAR(r.ratio, 0.75 / 2.33, 1e-12);
	T_CHECK(r.ratio_lo < r.ratio && r.ratio < r.ratio_hi);

	/* 2.4.4pre2 -> pre3: 247565.41 +- 9455.05 -> 218249.04 +- 8672.89 */
	T_CHECK(cmp_welch_summary(247565.408163, 9455.05252, 50, 218249.040816,
				  8672.886637, 50, 0.95, &r) == 0);
	T_NEAR(r.stat, -16.157, 1e-3);
	T_CHECK(r.df > 97 && r.df < 98);
	T_CHECK(r.p < 1e-20);
	T_NEAR(r.ratio, 0.88158, 1e-5);
	T_CHECK(r.ratio_lo > 0.86 && r.ratio_hi < 0.90);

	T_CHECK(cmp_welch_summary(1, 1, 1, 2, 1, 5, 0.95, &r) == -EINVAL);
	T_CHECK(cmp_welch_summary(1, NAN, 5, 2, 1, 5, 0.95, &r) == -EDOM);
	/* a mean <= 0: the test, but no ratio */
	T_CHECK(cmp_welch_summary(-1, 1, 5, 2, 1, 5, 0.95, &r) == 0);
	T_CHECK(isfinite(r.p) && isnan(r.ratio));
}

/* The smallest change found with 90% power: cv 5%, 10 runs a side,
 * alpha 0.05: (t(0.975, 18) 2.1009 + t(0.9, 18) 1.3304) x 0.05 x
 * sqrt(0.2) = 0.07673 on logs, exp - 1 = 7.975%. More runs, smaller.
 * With a floor (the change must also be seen above 5%): log(1.05) +
 * 1.3304 x 0.02236 = 0.07854, exp - 1 = 8.17%. */
static void test_detectable(void)
{
	double d = cmp_detectable(0.05, 10, 0.05, 10, 0.05, 0.9, 0);

	T_NEAR(d, exp(3.4313 * 0.05 * sqrt(0.2)) - 1, 2e-4);
	T_CHECK(cmp_detectable(0.05, 40, 0.05, 40, 0.05, 0.9, 0) < d / 1.9);
	T_NEAR(cmp_detectable(0.05, 10, 0.05, 10, 0.05, 0.9, 0.05),
	       exp(log(1.05) + 1.3304 * 0.05 * sqrt(0.2)) - 1, 2e-4);
	/* many runs: the floor is what is left */
	T_NEAR(cmp_detectable(0.05, 100000, 0.05, 100000, 0.05, 0.9, 0.05),
	       0.05, 1e-3);
	T_CHECK(isnan(cmp_detectable(0.05, 1, 0.05, 10, 0.05, 0.9, 0)));
	T_NEAR(cmp_detectable(0, 5, 0, 5, 0.05, 0.9, 0.02), 0.02, 0);
}

static void test_paired(void)
{
	struct cmp_result r;

	/* R: with(sleep, t.test(extra[group == 1], extra[group == 2],
	 * paired = TRUE)): t = -4.0621, df = 9, p-value = 0.002833,
	 * 95 percent CI: -2.4598858 -0.7001142 */
	T_CHECK(cmp_paired_t(g2, g1, 10, 0, 0.95, &r) == 0);
	T_NEAR(r.stat, -4.0621, 1e-4);
	T_NEAR(r.df, 9, 0);
	T_NEAR(r.p, 0.002833, 1e-6);
	T_NEAR(r.diff_lo, -2.4598858, 1e-6);
	T_NEAR(r.diff_hi, -0.7001142, 1e-6);
	T_CHECK(cmp_paired_t(g2, g1, 1, 0, 0.95, &r) == -EINVAL);
	T_CHECK(cmp_paired_t(g2, g1, 10, 1, 0.95, &r) == -EDOM);
}

/* Brute force: P(U >= u) over all C(15,5) rank assignments. */
static double brute_upper(int nx, int ny, double u)
{
	int n = nx + ny, mask, hits = 0, total = 0;

	for (mask = 0; mask < 1 << n; mask++) {
		int bits = __builtin_popcount((unsigned)mask), i, sum = 0;

		if (bits != nx)
			continue;
		for (i = 0; i < n; i++)
			if (mask & (1 << i))
				sum += i + 1;
		total++;
		hits += sum - nx * (nx + 1) / 2 >= u;
	}
	return (double)hits / total;
}

static void test_mann_whitney(void)
{
	/* R ?wilcox.test: wilcox.test(x, y, alternative = "g"):
	 * W = 35, p-value = 0.1272 (exact); two-sided twice that. */
	const double x[] = {0.80, 0.83, 1.89, 1.04, 1.45,
			    1.38, 1.91, 1.64, 0.73, 1.46};
	const double y[] = {1.15, 0.88, 0.90, 0.74, 1.21};
	const double lo[] = {1, 2, 3, 4, 5}, hi[] = {6, 7, 8, 9, 10};
	struct cmp_result r;

	T_CHECK(cmp_mann_whitney(y, 5, x, 10, &r) == 0);
	T_NEAR(r.stat, 35, 0);
	T_CHECK(r.exact);
	T_NEAR(r.p, 0.2544, 1e-4);
	T_NEAR(r.p, 2 * brute_upper(10, 5, 35), 1e-12);

	/* R: wilcox.test(extra ~ group, data = sleep): W = 25.5,
	 * p-value = 0.06933 (ties: normal approximation) */
	T_CHECK(cmp_mann_whitney(g2, 10, g1, 10, &r) == 0);
	T_NEAR(r.stat, 25.5, 0);
	T_CHECK(!r.exact);
	T_NEAR(r.p, 0.06933, 1e-5);

	/* complete separation, 5 against 5: exact p = 2 / C(10,5) */
	T_CHECK(cmp_mann_whitney(lo, 5, hi, 5, &r) == 0);
	T_NEAR(r.stat, 25, 0);
	T_NEAR(r.p, 2.0 / 252, 1e-12);
	T_CHECK(cmp_mann_whitney(hi, 5, lo, 5, &r) == 0);
	T_NEAR(r.stat, 0, 0);
	T_NEAR(r.p, 2.0 / 252, 1e-12);
	T_CHECK(cmp_mann_whitney(lo, 0, hi, 5, &r) == -EINVAL);
}

static void test_signed_rank(void)
{
	/* R ?wilcox.test (depression data): paired, "greater":
	 * V = 40, p-value = 0.01953 (exact); two-sided 10/256 */
	const double x[] = {1.83, 0.50, 1.62, 2.48, 1.68,
			    1.88, 1.55, 3.06, 1.30};
	const double y[] = {0.878, 0.647, 0.598, 2.05, 1.06,
			    1.29,  1.06,  3.14,	 1.29};
	struct cmp_result r;

	T_CHECK(cmp_signed_rank(y, x, 9, &r) == 0);
	T_NEAR(r.stat, 40, 0);
	T_CHECK(r.exact);
	T_NEAR(r.p, 10.0 / 256, 1e-12);

	/* R: with(sleep, wilcox.test(extra[group == 1],
	 * extra[group == 2], paired = TRUE)): V = 0, p-value = 0.009091
	 * (a zero difference dropped, ties: normal approximation) */
	T_CHECK(cmp_signed_rank(g2, g1, 10, &r) == 0);
	T_NEAR(r.stat, 0, 0);
	T_CHECK(!r.exact);
	T_NEAR(r.p, 0.009091, 1e-6);
	T_CHECK(cmp_signed_rank(x, x, 9, &r) == -EINVAL);
}

static void test_bh(void)
{
	/* R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH")
	 * = 0.02 0.04 0.04 0.02 */
	const double p[] = {0.01, 0.04, 0.03, 0.005};
	const double pn[] = {0.01, NAN, 0.02};
	double q[4];

	cmp_bh_adjust(p, 4, q);
	T_NEAR(q[0], 0.02, 1e-12);
	T_NEAR(q[1], 0.04, 1e-12);
	T_NEAR(q[2], 0.04, 1e-12);
	T_NEAR(q[3], 0.02, 1e-12);
	/* NAN is not counted: p.adjust(c(0.01, NA, 0.02), "BH")
	 * = 0.02 NA 0.02 */
	cmp_bh_adjust(pn, 3, q);
	T_NEAR(q[0], 0.02, 1e-12);
	T_CHECK(isnan(q[1]));
	T_NEAR(q[2], 0.02, 1e-12);
}

/*
 * GSL refusing its arguments (degrees of freedom that overflow to NAN)
 * is an error of the test at hand, never an abort: -ERANGE and GSL's
 * words, and the next test starts clean. Before the guard, each of
 * these killed the program ("Default GSL error handler invoked.").
 */
static void test_gsl_errors(void)
{
	struct cmp_result r;
	const double huge[] = {1e308, 1e308, 1e308, 1e308, 1e308};
	const double neg[] = {-600, -610, -620, -630, -640};
	const double a[] = {1, 2, 4}, b[] = {2, 4, 8};

	/* sd 1e150 on n = 50: its variance over n squared overflows */
	T_CHECK(cmp_welch_summary(247565.4, 9400, 50, 218249, 1e150, 50, 0.95,
				  &r) == -ERANGE);
	T_CHECK(strstr(r.err, "(gamma.c:") != NULL);
	T_CHECK(cmp_welch(a, 3, b, 3, 1, 0.95, &r) == 0);
	T_STREQ(r.err, "");
	/* a mean that overflows is no input for a test */
	T_CHECK(cmp_welch(huge, 5, neg, 5, 0, 0.95, &r) == -EDOM);
	/* coefficients of variation whose squares overflow */
	T_CHECK(isnan(cmp_detectable(0.01, 5, 1e200, 5, 0.05, 0.9, 0.02)));
	T_CHECK(stats_gsl_error() != NULL);
	T_CHECK(!isnan(cmp_detectable(0.01, 5, 0.01, 5, 0.05, 0.9, 0.02)));
	T_CHECK(stats_gsl_error() == NULL);
}

int main(void)
{
	test_welch();
	test_welch_summary();
	test_detectable();
	test_paired();
	test_mann_whitney();
	test_signed_rank();
	test_bh();
	test_gsl_errors();
	return t_done();
}
