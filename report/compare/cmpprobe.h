/*
 * cmpprobe.h: a history row's figures adjusted for the box's speed
 * (lib/run/probe.h; issue 26). Each sample may carry a probe, a fixed
 * user-space loop timed just before it: a slower box slows both it and
 * the tools, a kernel regression on an I/O path only the tools. Where
 * every sample of the row, baseline nights and new night, has one:
 *
 *   b     = cov(log x, log p) / var(log p)  over the baseline's samples
 *                                           (pooled: the drift between
 *                                           nights is what it is to
 *                                           explain)
 *   x'    = x * (P / p)^b                   every sample, both sides; P
 *                                           the geometric mean of the
 *                                           baseline's probes
 *
 * and the row is judged on x' as on x (cmphist.c). A ratio (b = 1)
 * would be wrong: on this 2-CPU VM chatbench's msg/s moved half as much
 * as the probe (b = 0.52 over 150 interleaved pairs; the ratio's
 * spread was larger than the rate's own). With b fitted per row, a
 * metric the probe does not explain gets b near 0 and keeps its figures.
 * Nothing here prints.
 */
#ifndef ZCB_CMPPROBE_H
#define ZCB_CMPPROBE_H

#include <stddef.h>

#define CMP_PROBE_MIN 8 /* baseline samples with probes a slope needs */

/*
 * x0[n0] with probes p0 (the baseline's), x1[n1] with p1 (the new
 * night's): on success 0, *b the slope, and a0, a1 (n0, n1 each) the
 * adjusted values. 1 when the row cannot be adjusted (a sample without
 * a probe or with a value <= 0, fewer than CMP_PROBE_MIN baseline
 * samples, probes that do not vary): a0, a1 then hold x0, x1 and *b is
 * NAN.
 */
int cmp_probe_adjust(const double *x0, const double *p0, size_t n0,
		     const double *x1, const double *p1, size_t n1,
		     double *a0, double *a1, double *b);

#endif
