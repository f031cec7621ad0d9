/* test_cmpprobe: report/compare/cmpprobe.c, a history row adjusted for
 * the samples' box probe: the slope it fits, what the adjustment does to
 * a drift the probe explains and to a loss it does not, and every case
 * where it must leave the figures alone. */
#include "config.h"
#include "cmpprobe.h"
#include "t.h"

#include <math.h>

#define N0 12
#define N1 4

/* the baseline drifts with the box: x = 1000 p^0.5 */
static void drift(double *x, double *p, size_t n, double loss)
{
	size_t i;

	for (i = 0; i < n; i++) {
		p[i] = 600 + 25 * (double)((i * 7) % 11);
		x[i] = 1000 * sqrt(p[i]) * (1 - loss);
	}
}

static void test_fit(void)
{
	double x0[N0], p0[N0], x1[N1], p1[N1], a0[N0], a1[N1], b;
	size_t i;

	drift(x0, p0, N0, 0);
	drift(x1, p1, N1, 0.05);
	p1[0] = 300; /* the new night on a box half as fast */
	x1[0] = 1000 * sqrt(300) * 0.95;
	T_CHECK(cmp_probe_adjust(x0, p0, N0, x1, p1, N1, a0, a1, &b) == 0);
	T_NEAR(b, 0.5, 1e-9);
	/* the drift is gone from the baseline: every figure the same */
	for (i = 1; i < N0; i++)
		T_NEAR(a0[i] / a0[0], 1, 1e-9);
	/* the loss stays whole, whatever the new night's box speed */
	for (i = 0; i < N1; i++)
		T_NEAR(a1[i] / a0[0], 0.95, 1e-9);
}

static void test_unexplained(void)
{
	double x0[N0], p0[N0], x1[N1], p1[N1], a0[N0], a1[N1], b;
	size_t i;

	/* a figure the probe does not move: slope 0, figures as they were */
	drift(x0, p0, N0, 0);
	drift(x1, p1, N1, 0);
	for (i = 0; i < N0; i++)
		x0[i] = 50;
	for (i = 0; i < N1; i++)
		x1[i] = 40;
	T_CHECK(cmp_probe_adjust(x0, p0, N0, x1, p1, N1, a0, a1, &b) == 0);
	T_NEAR(b, 0, 1e-12);
	T_NEAR(a0[3], 50, 1e-9);
	T_NEAR(a1[2], 40, 1e-9);
}

/* left alone: figures copied, slope NAN, 1 */
static void left(const double *x0, const double *p0, size_t n0,
		 const double *x1, const double *p1, size_t n1)
{
	double a0[N0], a1[N1], b = 0;
	size_t i;

	T_CHECK(cmp_probe_adjust(x0, p0, n0, x1, p1, n1, a0, a1, &b) == 1);
	T_CHECK(isnan(b));
	for (i = 0; i < n0; i++)
		T_CHECK(a0[i] == x0[i]);
	for (i = 0; i < n1; i++)
		T_CHECK(a1[i] == x1[i]);
}

static void test_left_alone(void)
{
	double x0[N0], p0[N0], x1[N1], p1[N1], q[N0];
	size_t i;

	drift(x0, p0, N0, 0);
	drift(x1, p1, N1, 0);
	left(x0, NULL, N0, x1, p1, N1);		/* no probes */
	left(x0, p0, N0, x1, NULL, N1);
	left(x0, p0, CMP_PROBE_MIN - 1, x1, p1, N1); /* too few */
	p1[2] = NAN;				/* one sample without */
	left(x0, p0, N0, x1, p1, N1);
	p1[2] = 700;
	x0[4] = 0;				/* no log */
	left(x0, p0, N0, x1, p1, N1);
	x0[4] = 900;
	for (i = 0; i < N0; i++)		/* probes that do not vary */
		q[i] = 777;
	left(x0, q, N0, x1, p1, N1);
	p0[1] = -5;
	left(x0, p0, N0, x1, p1, N1);
}

int main(void)
{
	test_fit();
	test_unexplained();
	test_left_alone();
	printf("test_cmpprobe: %d checks, %d failed\n", t_checks, t_failures);
	return t_failures ? 1 : 0;
}
