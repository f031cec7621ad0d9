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
	/* Pocock's boundary: Jennison and Turnbull, Group Sequential
	 * Methods (2000), table 2.1 (two-sided 0.05, whose upper half is
	 * one-sided 0.025 to the table's digits): K 2 2.178, 3 2.289,
	 * 4 2.361, 5 2.413, 10 2.555, 20 2.672; two-sided 0.10 (one-sided
	 * 0.05): 2 1.875, 3 1.992, 5 2.122 */
	{
		const int k[] = { 2, 3, 4, 5, 10, 20 };
		const double z025[] = { 2.178, 2.289, 2.361, 2.413, 2.555, 2.672 };
		unsigned long long rs = 88172645463325252ULL;
		long cross = 0, n = 200000;

		for (int i = 0; i < 6; i++)
			T_NEAR(stats_pocock_z(0.025, k[i]), z025[i], 0.0015);
		T_NEAR(stats_pocock_z(0.05, 2), 1.875, 0.0015);
		T_NEAR(stats_pocock_z(0.05, 3), 1.992, 0.0015);
		T_NEAR(stats_pocock_z(0.05, 5), 2.122, 0.0015);
		T_NEAR(stats_pocock_level(0.05, 1), 0.05, 1e-12);
		T_NEAR(stats_pocock_level(0.05, 3), 0.0232, 0.0002);
		T_CHECK(isnan(stats_pocock_level(0.05, 0)));
		T_CHECK(isnan(stats_pocock_level(0.05, STATS_POCOCK_MAX + 1)));
		T_CHECK(isnan(stats_pocock_level(0.5, 3)));
		T_CHECK(isnan(stats_pocock_level(0, 3)));
		/* what it promises, by simulation: 3 looks at growing sums
		 * of normal draws, each at the level, cross 5% of the time
		 * (200000 walks: sd 0.05%) where each at 0.05 crosses more */
		double z = stats_pocock_z(0.05, 3);
		long naive = 0;

		for (long w = 0; w < n; w++) {
			double sum = 0;
			int hit = 0, hitn = 0;

			for (int j = 1; j <= 3; j++) {
				double u1, u2;

				rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
				u1 = ((double)(rs >> 11) + 1) / 9007199254740993.0;
				rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
				u2 = (double)(rs >> 11) / 9007199254740992.0;
				sum += sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
				hit |= sum / sqrt(j) >= z;
				hitn |= sum / sqrt(j) >= 1.6448536;
			}
			cross += hit;
			naive += hitn;
		}
		T_NEAR((double)cross / (double)n, 0.05, 0.002);
		T_CHECK((double)naive / (double)n > 0.09);
	}
	return t_done();
}
