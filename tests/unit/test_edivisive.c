/* test_edivisive.c: report/compare/edivisive: E-divisive means on
 * synthetic nightly series: a step at night 7 of 15 is found at 7; no
 * step, none; two steps, both; the same series, the same answer. */
#include "config.h"
#include "edivisive.h"
#include "t.h"

#include <errno.h>

/* n nights of log figures: level lv[i] from night i on, noise sd */
static void series(double *z, size_t n, const size_t *from, const double *lv,
		   size_t nlv, double sd)
{
	size_t i, j;
	double l;

	for (i = 0; i < n; i++) {
		for (j = 0, l = 0; j < nlv; j++)
			if (i >= from[j])
				l = lv[j];
		z[i] = l + sd * t_gauss();
	}
}

int main(void)
{
	const struct ediv_cfg cfg = {
		.min_size = 3, .alpha = 0.01, .perms = 199};
	struct ediv_point p[8], q[8];
	double z[40];
	size_t from[2] = {0, 6}, two[3] = {0, 10, 25};
	double lv[2] = {0, log(0.9)}, lv3[3] = {0, log(0.9), log(0.95)};
	int n, trial, none = 0, found = 0;

	/* a 10% step at night 7 (index 6) of 15, nights 2% apart: at 7 */
	for (trial = 0; trial < 20; trial++) {
		series(z, 15, from, lv, 2, 0.02);
		n = ediv_points(z, 15, &cfg, p, 8);
		found += n == 1 && p[0].at == 6;
	}
	T_CHECK(found >= 19);
	series(z, 15, from, lv, 2, 0.02);
	n = ediv_points(z, 15, &cfg, p, 8);
	T_ASSERT(n == 1);
	T_CHECK(p[0].at == 6);
	T_CHECK(p[0].p <= 1.0 / 200 + 1e-12 && p[0].q > 0);
	/* the same series, the same answer */
	T_CHECK(ediv_points(z, 15, &cfg, q, 8) == 1 && q[0].at == p[0].at &&
		q[0].p == p[0].p);
	/* no step: nothing, in 19 of 20 series at least (alpha 0.01) */
	for (trial = 0; trial < 20; trial++) {
		series(z, 15, from, lv, 1, 0.02);
		none += ediv_points(z, 15, &cfg, p, 8) == 0;
	}
	T_CHECK(none >= 19);
	/* two steps (nights 11 and 26 of 40): both, in order */
	series(z, 40, two, lv3, 3, 0.01);
	n = ediv_points(z, 40, &cfg, p, 8);
	T_CHECK(n == 2 && p[0].at == 10 && p[1].at == 25);
	/* too short to split; a value that is not finite */
	T_CHECK(ediv_points(z, 5, &cfg, p, 8) == 0);
	z[3] = NAN;
	T_CHECK(ediv_points(z, 15, &cfg, p, 8) == -EINVAL);
	return t_done();
}
