/* test_cmpnight.c: report/compare/cmpnight: a new night against the
 * prediction interval of the baseline's nights, with canned numbers. */
#include "config.h"
#include "cmpnight.h"
#include "stats.h"
#include "t.h"

#include <errno.h>

/* logs of figures, into l[] */
static void logs(const double *v, size_t n, double *l)
{
	size_t i;

	for (i = 0; i < n; i++)
		l[i] = log(v[i]);
}

/* By hand: nights -2..2 (S^2 = 2.5), no within-night error known, the
 * new night exact: sd^2 = 2.5 + 2.5 / 5 = 3, df 4; x = t(.975, 4) sd
 * gives the one-sided p 0.025. With w 0.5 and e 0.5: between^2 = 2,
 * sd^2 = 2 + 0.25 + 0.5. */
static void by_hand(void)
{
	const double m[] = {-2, -1, 0, 1, 2}, w[] = {0.5, 0.5, 0.5, 0.5, 0.5};
	struct cmp_result r;
	struct cmp_night n;

	T_CHECK(cmp_night_test(m, NULL, 5, 2.776445 * sqrt(3), 0, 1, 0.95, &r,
			       &n) == 0);
	T_NEAR(n.mean, 0, 1e-12);
	T_NEAR(n.spread, sqrt(2.5), 1e-12);
	T_NEAR(n.sd, sqrt(3), 1e-12);
	T_NEAR(r.df, 4, 0);
	T_NEAR(r.stat, 2.776445, 1e-9);
	T_NEAR(r.p, 0.025, 1e-6);
	T_NEAR(log(r.ratio_lo), 0, 1e-5); /* its 95% interval touches 1 */
	T_NEAR(r.ratio, exp(2.776445 * sqrt(3)), 1e-6);
	T_CHECK(cmp_night_test(m, w, 5, -1, 0.5, 1000, 0.95, &r, &n) == 0);
	T_NEAR(n.between, sqrt(2), 1e-12);
	T_NEAR(n.sd, sqrt(2.75), 1e-12);
	T_NEAR(r.df, 4, 0); /* Satterthwaite (4.84) above k - 1 */
	T_NEAR(r.stat, -1 / sqrt(2.75), 1e-12);
	/* the new night's error weighs most and has 2 df: fewer than 4 */
	T_CHECK(cmp_night_test(m, NULL, 5, -1, 3, 3, 0.95, &r, &n) == 0);
	T_CHECK(r.df < 4 && r.df >= 2);
	/* at least 3 nights; finite figures */
	T_CHECK(cmp_night_test(m, NULL, 2, 0, 0, 3, 0.95, &r, &n) == -EINVAL);
	T_CHECK(cmp_night_test(m, NULL, 5, NAN, 0, 3, 0.95, &r, &n) == -EDOM);
	T_CHECK(cmp_night_test(m, NULL, 5, 0, -1, 3, 0.95, &r, &n) == -EDOM);
}

/* Five nights that drift 2-3% between them, each measured to 0.5%: a
 * new night 3% below their mean is inside their spread, not flagged;
 * 10% below (nights that agree to 0.5%: 2% below) is outside. */
static void inside_outside(void)
{
	const double drift[] = {100, 104, 97, 102, 98};
	const double quiet[] = {100, 100.5, 99.5, 100.2, 99.8};
	const double w[] = {2.5e-5, 2.5e-5, 2.5e-5, 2.5e-5, 2.5e-5};
	double m[5];
	struct cmp_result r;
	struct cmp_night n;

	logs(drift, 5, m);
	T_CHECK(!cmp_night_test(m, w, 5, log(97.2), 0.005, 3, 0.95, &r, &n));
	T_CHECK(r.p > 0.1);
	T_NEAR(n.spread, 0.0283, 0.001);
	logs(quiet, 5, m);
	T_CHECK(!cmp_night_test(m, w, 5, log(90), 0.005, 3, 0.95, &r, &n));
	T_CHECK(r.p < 0.001 && r.diff < 0);
	T_CHECK(!cmp_night_test(m, w, 5, log(98), 0.005, 3, 0.95, &r, &n));
	T_CHECK(r.p < 0.05 && r.diff < 0);
	/* what it could have flagged: at least the threshold, and more
	 * than the nights' spread */
	T_CHECK(cmp_night_detectable(&n, 0.05, 0.9, 0.02) >= 0.02);
	logs(drift, 5, m);
	cmp_night_test(m, w, 5, log(97.2), 0.005, 3, 0.95, &r, &n);
	T_CHECK(cmp_night_detectable(&n, 0.05, 0.9, 0.02) > n.spread);
}

/* Within-night noise alone never makes a flag: nights that agree
 * exactly and a new night one of its own standard errors away; a new
 * night far noisier than the nights, at their mean; and, over 20000
 * draws of nights and a new night of 3 samples each from one
 * distribution (no drift, 5% noise), flags at most as often as alpha. */
static void within_noise(void)
{
	const double same[] = {0.1, 0.1, 0.1, 0.1, 0.1};
	double m[10], w[10], x[3], sd, xm = 0, se = 0;
	struct cmp_result r;
	struct cmp_night n;
	int t, i, j, flags = 0;

	T_CHECK(!cmp_night_test(same, NULL, 5, 0.1 - 0.05, 0.05, 3, 0.95, &r,
				&n));
	T_CHECK(r.p > 0.1);
	T_CHECK(!cmp_night_test(same, NULL, 5, 0.1, 0.3, 3, 0.95, &r, &n));
	T_CHECK(r.p >= 0.5);
	for (t = 0; t < 20000; t++) {
		for (i = 0; i <= 10; i++) {
			for (j = 0; j < 3; j++)
				x[j] = 0.05 * t_gauss();
			sd = stats_stddev(x, 3);
			if (i < 10) {
				m[i] = stats_mean(x, 3);
				w[i] = sd * sd / 3;
			} else {
				xm = stats_mean(x, 3);
				se = sd / sqrt(3);
			}
		}
		T_ASSERT(!cmp_night_test(m, w, 10, xm, se, 3, 0.95, &r, &n));
		flags += r.p < 0.05 && r.diff < 0;
	}
	/* 5% +- 0.15% (one standard error of the count) */
	T_CHECK(flags < 20000 * 0.055);
	T_CHECK(flags > 20000 * 0.03);
}

/* One night of r runs: each run's log value mu + drift + noise, the
 * night's figure (the mean of the logs) and its variance of the mean. */
static void one_night(double mu, double between, double run, int r,
		      double *m, double *w)
{
	double x[64], d = between * t_gauss();
	int j;

	for (j = 0; j < r; j++)
		x[j] = mu + d + run * t_gauss();
	*m = stats_mean(x, (size_t)r);
	*w = stats_stddev(x, (size_t)r) * stats_stddev(x, (size_t)r) / r;
}

/* The plan by hand, then held against the test it plans for: nights
 * that drift (2% between them) with noisy runs (8% each), 16 runs a
 * night and 5 nights of history: the plan says which change is found 9
 * times in 10, and a new night that slow is flagged by cmp_night_test
 * about that often (drawn 4000 times), half of a change that size much
 * less often. */
static void plan(void)
{
	const double B = 0.02, R = 0.08;
	double m[5], w[5], x, e, d;
	struct cmp_result r;
	struct cmp_night n;
	int t, i, hit = 0, half = 0;

	/* sd = sqrt((0.0004 + 0.0064 / 16) x 1.2), (t(.95, 4) + t(.9, 4)) sd */
	d = cmp_night_plan(B * B, R * R, 16, 5, 0.05, 0.9, 0.02);
	T_NEAR(d, expm1((2.131847 + 1.533206) * sqrt(0.0008 * 1.2)), 1e-5);
	T_CHECK(isnan(cmp_night_plan(B * B, R * R, 16, 2, 0.05, 0.9, 0)));
	T_CHECK(isnan(cmp_night_plan(-1, R * R, 16, 5, 0.05, 0.9, 0)));
	T_CHECK(isnan(cmp_night_plan(B * B, R * R, 0, 5, 0.05, 0.9, 0)));
	/* more runs a night buy less and less: the drift stays */
	T_CHECK(cmp_night_plan(B * B, R * R, 64, 5, 0.05, 0.9, 0) < d);
	T_CHECK(cmp_night_plan(B * B, R * R, 1e9, 5, 0.05, 0.9, 0) >
		expm1((2.131847 + 1.533206) * B * sqrt(1.2)) - 1e-9);
	/* a floor above the noise decides */
	T_NEAR(cmp_night_plan(0, 0, 1, 5, 0.05, 0.9, 0.02), 0.02, 1e-12);
	for (t = 0; t < 4000; t++) {
		for (i = 0; i < 5; i++)
			one_night(0, B, R, 16, &m[i], &w[i]);
		one_night(log1p(-d / (1 + d)), B, R, 16, &x, &e);
		T_ASSERT(!cmp_night_test(m, w, 5, x, sqrt(e), 16, 0.95, &r,
					 &n));
		hit += r.p < 0.05;
		one_night(log1p(-d / (1 + d) / 2), B, R, 16, &x, &e);
		T_ASSERT(!cmp_night_test(m, w, 5, x, sqrt(e), 16, 0.95, &r,
					 &n));
		half += r.p < 0.05;
	}
	/* 90%: the sample variance of 5 nights makes it a little less or
	 * more; 4000 draws give about +-0.5% */
	T_CHECK(hit > 4000 * 0.85 && hit < 4000 * 0.95);
	T_CHECK(half < 4000 * 0.6);
	printf("# plan: the planned change flagged in %d of 4000, half of it in %d\n", hit, half);
}

int main(void)
{
	by_hand();
	inside_outside();
	within_noise();
	plan();
	return t_done();
}
