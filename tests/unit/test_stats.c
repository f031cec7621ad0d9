/* test_stats.c: lib/core/stats against published and hand-checked values. */
#include "config.h"
#include "stats.h"
#include "t.h"

int main(void)
{
	/* The classic example set: mean 5, population sd 2, sample sd
	 * sqrt(32/7) = 2.138089935. */
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	const double q[] = { 1, 2, 3, 4 };
	const double one[] = { 42 };
	struct stats_summary s;

	T_NEAR(stats_mean(x, 8), 5.0, 1e-12);
	T_NEAR(stats_stddev(x, 8), 2.138089935, 1e-9);
	T_NEAR(stats_median(x, 8), 4.5, 1e-12);
	/* 8 / (1/2 + 3/4 + 2/5 + 1/7 + 1/9) */
	T_NEAR(stats_hmean(x, 8), 8.0 / (0.5 + 0.75 + 0.4 + 1.0 / 7 + 1.0 / 9),
	       1e-12);
	/* R: quantile(1:4, c(.25,.9), type=7) = 1.75 3.7 */
	T_NEAR(stats_percentile(q, 4, 25), 1.75, 1e-12);
	T_NEAR(stats_percentile(q, 4, 90), 3.7, 1e-12);
	T_NEAR(stats_percentile(q, 4, 0), 1, 0);
	T_NEAR(stats_percentile(q, 4, 100), 4, 0);
	/* Student t tables: t(.975, 4) = 2.776445, t(.975, 10) = 2.228139,
	 * t(.975, 7) = 2.364624, t(.995, 30) = 2.749996 */
	T_NEAR(stats_t_quantile(0.95, 4), 2.776445, 1e-6);
	T_NEAR(stats_t_quantile(0.95, 10), 2.228139, 1e-6);
	T_NEAR(stats_t_quantile(0.99, 30), 2.749996, 1e-6);
	T_CHECK(isnan(stats_t_quantile(0.95, 0)));

	stats_summarize(x, 8, &s);
	T_CHECK(s.n == 8);
	T_NEAR(s.min, 2, 0);
	T_NEAR(s.max, 9, 0);
	T_NEAR(s.cov, 2.138089935 / 5, 1e-9);
	T_NEAR(s.ci95_lo, 5 - 2.364624 * 2.138089935 / sqrt(8), 1e-5);
	T_NEAR(s.ci95_hi, 5 + 2.364624 * 2.138089935 / sqrt(8), 1e-5);

	stats_summarize(one, 1, &s);
	T_CHECK(s.n == 1 && s.mean == 42 && s.stddev == 0);
	T_CHECK(isnan(s.ci95_lo));
	stats_summarize(NULL, 0, &s);
	T_CHECK(s.n == 0 && isnan(s.mean));

	/* harmonic mean undefined with a zero */
	{
		const double z[] = { 1, 0, 2 };

		T_CHECK(isnan(stats_hmean(z, 3)));
	}
	/* netperf -I 95,5: interval width within 5% of the mean */
	{
		const double tight[] = { 100, 100.5, 99.5, 100.2, 99.8 };
		const double loose[] = { 100, 150, 50, 120, 80 };

		T_CHECK(stats_confidence_reached(tight, 5, 95, 5));
		T_CHECK(!stats_confidence_reached(loose, 5, 95, 5));
		T_CHECK(!stats_confidence_reached(tight, 1, 95, 5));
	}
	/* paired ratios: geometric mean, t interval on logs, bad pairs out */
	{
		const double num[] = { 50, 60, 0 }, den[] = { 100, 100, 100 };
		struct stats_ratio r;
		double m = (log(0.5) + log(0.6)) / 2,
		       sd = fabs(log(0.5) - log(0.6)) / sqrt(2);

		stats_ratio_paired(num, den, 3, &r);
		T_CHECK(r.n == 2);
		T_NEAR(r.ratio, sqrt(0.3), 1e-12);
		T_NEAR(r.min, 0.5, 1e-12);
		T_NEAR(r.max, 0.6, 1e-12);
		T_NEAR(r.lo, exp(m - 12.7062047 * sd / sqrt(2)), 1e-6);
		T_NEAR(r.hi, exp(m + 12.7062047 * sd / sqrt(2)), 1e-4);
		stats_ratio_paired(num, den, 1, &r);
		T_CHECK(r.n == 1 && isnan(r.lo) && isnan(r.hi));
		T_NEAR(r.ratio, 0.5, 1e-12);
		stats_ratio_paired(num + 2, den, 1, &r);
		T_CHECK(r.n == 0 && isnan(r.ratio));
	}
	return t_done();
}
