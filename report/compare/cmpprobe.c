/* cmpprobe.c: a history row's figures adjusted for the box's probe
 * (cmpprobe.h). */
#include "config.h"
#include "cmpprobe.h"

#include <math.h>
#include <string.h>

/* Every value and probe positive and finite? */
static int loggable(const double *x, const double *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(x[i] > 0) || !isfinite(x[i]) || !p || !(p[i] > 0) ||
		    !isfinite(p[i]))
			return 0;
	return 1;
}

int cmp_probe_adjust(const double *x0, const double *p0, size_t n0,
		     const double *x1, const double *p1, size_t n1,
		     double *a0, double *a1, double *b)
{
	double mx = 0, mp = 0, sxy = 0, spp = 0, slope;
	size_t i;

	memcpy(a0, x0, n0 * sizeof(*a0));
	memcpy(a1, x1, n1 * sizeof(*a1));
	*b = NAN;
	if (n0 < CMP_PROBE_MIN || !loggable(x0, p0, n0) ||
	    !loggable(x1, p1, n1))
		return 1;
	for (i = 0; i < n0; i++) {
		mx += log(x0[i]);
		mp += log(p0[i]);
	}
	mx /= (double)n0;
	mp /= (double)n0;
	for (i = 0; i < n0; i++) {
		double dp = log(p0[i]) - mp;

		sxy += dp * (log(x0[i]) - mx);
		spp += dp * dp;
	}
	/* probes equal to a part in a million: nothing to fit */
	if (!(spp > 1e-12 * (double)n0))
		return 1;
	slope = sxy / spp;
	for (i = 0; i < n0; i++)
		a0[i] = exp(log(x0[i]) - slope * (log(p0[i]) - mp));
	for (i = 0; i < n1; i++)
		a1[i] = exp(log(x1[i]) - slope * (log(p1[i]) - mp));
	*b = slope;
	return 0;
}
