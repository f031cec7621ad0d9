/*
 * edivisive.c: E-divisive means change points (edivisive.h). The sums of
 * distances over any block of the series come from one prefix-sum table
 * of |z_i - z_j|, so a segment's best split over tau and kappa costs
 * O(n^2), and so does each permutation.
 */
#include "config.h"
#include "edivisive.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ediv {
	size_t n;
	double *s;   /* (n+1)^2 prefix sums of |z_i - z_j| */
	size_t *cut; /* the segments' bounds: 0, points..., n */
	size_t ncut;
	uint64_t rng; /* xorshift64* state */
	const struct ediv_cfg *cfg;
};

struct split {
	size_t at; /* tau, or 0 for none */
	double q;
};

/* The prefix sums of |z_i - z_j| into e->s. */
static void prefix(struct ediv *e, const double *z)
{
	size_t n = e->n, w = n + 1, i, j;

	memset(e->s, 0, w * w * sizeof(*e->s));
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			e->s[(i + 1) * w + j + 1] =
				fabs(z[i] - z[j]) + e->s[i * w + j + 1] +
				e->s[(i + 1) * w + j] - e->s[i * w + j];
}

/* The sum of |z_i - z_j| over i in [r0, r1), j in [c0, c1). */
static double block(const struct ediv *e, size_t r0, size_t r1, size_t c0,
		    size_t c1)
{
	size_t w = e->n + 1;

	return e->s[r1 * w + c1] - e->s[r0 * w + c1] - e->s[r1 * w + c0] +
	       e->s[r0 * w + c0];
}

/* Q of X = [a, tau), Y = [tau, kappa). */
static double qhat(const struct ediv *e, size_t a, size_t tau, size_t kappa)
{
	double m = (double)(tau - a), n = (double)(kappa - tau);
	double cross = block(e, a, tau, tau, kappa);
	double wx = block(e, a, tau, a, tau) / 2; /* over i < k */
	double wy = block(e, tau, kappa, tau, kappa) / 2;
	double d = 2 * cross / (m * n) - wx / (m * (m - 1) / 2) -
		   wy / (n * (n - 1) / 2);

	return m * n / (m + n) * d;
}

/* The best split of segment [a, b), over tau and kappa. */
static struct split best_in(const struct ediv *e, size_t a, size_t b)
{
	size_t min = e->cfg->min_size, tau, kappa;
	struct split s = {0, -INFINITY};
	double q;

	for (tau = a + min; tau + min <= b; tau++)
		for (kappa = tau + min; kappa <= b; kappa++) {
			q = qhat(e, a, tau, kappa);
			if (q > s.q) {
				s.q = q;
				s.at = tau;
			}
		}
	return s;
}

/* The best split over every current segment. */
static struct split best(const struct ediv *e)
{
	struct split s = {0, -INFINITY}, c;
	size_t i;

	for (i = 0; i + 1 < e->ncut; i++) {
		c = best_in(e, e->cut[i], e->cut[i + 1]);
		if (c.at && c.q > s.q)
			s = c;
	}
	return s;
}

static uint64_t next(struct ediv *e)
{
	e->rng ^= e->rng >> 12;
	e->rng ^= e->rng << 25;
	e->rng ^= e->rng >> 27;
	return e->rng * 2685821657736338717ull;
}

/* z shuffled within each segment, into y. */
static void shuffle(struct ediv *e, const double *z, double *y)
{
	size_t i, j, k;
	double t;

	memcpy(y, z, e->n * sizeof(*y));
	for (i = 0; i + 1 < e->ncut; i++)
		for (j = e->cut[i + 1] - 1; j > e->cut[i]; j--) {
			k = e->cut[i] + next(e) % (j - e->cut[i] + 1);
			t = y[j];
			y[j] = y[k];
			y[k] = t;
		}
}

/* The permutation p of a candidate q; e->s is the series' again after. */
static double perm_p(struct ediv *e, const double *z, double *y, double q)
{
	unsigned r, above = 0;

	for (r = 0; r < e->cfg->perms; r++) {
		shuffle(e, z, y);
		prefix(e, y);
		above += best(e).q >= q;
	}
	prefix(e, z);
	return (1.0 + above) / (e->cfg->perms + 1.0);
}

/* Put a new bound in e->cut, in order. */
static void add_cut(struct ediv *e, size_t at)
{
	size_t i = e->ncut++;

	while (i > 0 && e->cut[i - 1] > at) {
		e->cut[i] = e->cut[i - 1];
		i--;
	}
	e->cut[i] = at;
}

static int cmp_point(const void *a, const void *b)
{
	const struct ediv_point *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

int ediv_points(const double *z, size_t n, const struct ediv_cfg *cfg,
		struct ediv_point *out, size_t max)
{
	struct ediv e = {.n = n,
			 .cfg = cfg,
			 .rng = cfg->seed ? cfg->seed : 0x9e3779b97f4a7c15ull};
	size_t i, k = 0;
	struct split s;
	double *y, p;

	for (i = 0; i < n; i++)
		if (!isfinite(z[i]))
			return -EINVAL;
	if (cfg->min_size < 2 || n < 2 * cfg->min_size)
		return 0;
	e.s = malloc((n + 1) * (n + 1) * sizeof(*e.s));
	e.cut = malloc((n + 2) * sizeof(*e.cut));
	y = malloc(n * sizeof(*y));
	if (!e.s || !e.cut || !y) {
		free(e.s);
		free(e.cut);
		free(y);
		return -ENOMEM;
	}
	e.cut[0] = 0;
	e.cut[1] = n;
	e.ncut = 2;
	prefix(&e, z);
	while (k < max && (s = best(&e)).at) {
		p = perm_p(&e, z, y, s.q);
		if (!(p < cfg->alpha))
			break;
		out[k++] = (struct ediv_point){s.at, s.q, p};
		add_cut(&e, s.at);
	}
	qsort(out, k, sizeof(*out), cmp_point);
	free(e.s);
	free(e.cut);
	free(y);
	return (int)k;
}
