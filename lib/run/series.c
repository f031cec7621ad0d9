/*
 * series.c: the one run engine (series.h): which run comes next, what
 * the runs measured, and the judgements every tool used to make on its
 * own (pairs, --confidence, the perturbation).
 */
#include "config.h"
#include "series.h"
#include "cli.h"
#include "meter.h"
#include "quiet.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void series_cfg_cli(struct series_cfg *c, const struct cli_common *o)
{
	c->repeat = o->repeat;
	c->conf_level = o->conf_level;
	c->conf_width = o->conf_width;
	c->reruns = o->reruns;
	c->steal_max = o->steal_max;
	c->outside_max = o->outside_max;
	c->probe_ms = o->probe_ms;
}

int series_open(struct series *s, const struct series_cfg *c, char *err,
		size_t len)
{
	int i;

	memset(s, 0, sizeof(*s));
	if (c->ncells < 1 || c->repeat < 1 || c->reruns < 0) {
		snprintf(err, len, "series: %d cells, %d repeats, %d re-runs",
			 c->ncells, c->repeat, c->reruns);
		return -1;
	}
	if (c->probe_ms < 0 || c->probe_ms > PROBE_MS_MAX) {
		snprintf(err, len, "series: a probe of %g ms (0 to %d)",
			 c->probe_ms, PROBE_MS_MAX);
		return -1;
	}
	s->cfg = *c;
	if (!s->cfg.paired)
		s->cfg.paired_by = NULL;
	s->cell = calloc((size_t)c->ncells, sizeof(*s->cell));
	if (!s->cell)
		abort();
	for (i = 0; i < c->ncells; i++) {
		s->cell[i].res = calloc((size_t)c->repeat, sizeof(double));
		s->cell[i].met = calloc((size_t)c->repeat, sizeof(double));
		if (!s->cell[i].res || !s->cell[i].met)
			abort();
	}
	return 0;
}

void series_close(struct series *s)
{
	int i;

	for (i = 0; s->cell && i < s->cfg.ncells; i++) {
		free(s->cell[i].res);
		free(s->cell[i].met);
	}
	free(s->cell);
	memset(s, 0, sizeof(*s));
}

int series_planned(const struct series *s)
{
	return meter_runs(s->cfg.paired, s->cfg.repeat);
}

void series_pair_now(struct series *s, const char *by)
{
	if (s->cfg.paired || s->seq > 1)
		return;
	s->cfg.paired = 1;
	s->cfg.paired_by = by;
}

/* The cell made k-th in round rep. */
static int cell_at(const struct series_ops *ops, void *ctx,
		   const struct series *s, int rep, int k)
{
	int c = ops->order ? ops->order(ctx, rep, k) : k;

	return c >= 0 && c < s->cfg.ncells ? c : k;
}

/* A cell not done after position (rep, k) of the plan? */
static int more_planned(const struct series *s, const struct series_ops *ops,
			void *ctx, int rep, int k)
{
	int i;

	for (i = k + 1; i < s->cfg.ncells; i++)
		if (!s->cell[cell_at(ops, ctx, s, rep, i)].done)
			return 1;
	if (rep + 1 >= s->cfg.repeat)
		return 0;
	for (i = 0; i < s->cfg.ncells; i++)
		if (!s->cell[i].done)
			return 1;
	return 0;
}

/* Count a run's rate and judge its cell; 1 when it is to be made again. */
static int judge(struct series *s, struct series_cell *c,
		 const struct series_run *r, int outcome, double rate)
{
	if (outcome == SERIES_DISTURBED) {
		c->disturbed++;
		if (c->reruns < s->cfg.reruns) {
			c->reruns++;
			return 1;
		}
	}
	if (s->cfg.paired && r->metered) {
		if (c->nm < s->cfg.repeat)
			c->met[c->nm++] = rate;
		return 0;
	}
	if (c->n < s->cfg.repeat)
		c->res[c->n++] = rate;
	if (s->cfg.conf_level > 0 && c->n >= SERIES_CONF_MIN &&
	    stats_confidence_reached(c->res, (size_t)c->n, s->cfg.conf_level,
				     s->cfg.conf_width)) {
		c->reached = 1;
		c->done = 1;
	}
	if (c->n >= s->cfg.repeat)
		c->done = 1;
	return 0;
}

/* The kind of the run planned after this one (series_run.next_metered). */
static int next_kind(const struct series *s, int half, int later)
{
	if (s->cfg.paired && half == 0)
		return 0;
	return later ? s->cfg.paired : -1;
}

/* Result rep of one cell: a run, or paired its metered and unmetered
 * runs, each made again while disturbed. 1 stopped, -1 failed. */
static int one_result(struct series *s, const struct series_ops *ops,
		      void *ctx, int rep, int k, char *err, size_t len)
{
	int cell = cell_at(ops, ctx, s, rep, k), half, again = 0, o, more;
	struct series_cell *c = &s->cell[cell];
	struct series_run r;
	double rate;

	for (half = 0; half < (s->cfg.paired ? 2 : 1); half++) {
		do {
			if (s->cfg.stop && *s->cfg.stop)
				return 1;
			memset(&r, 0, sizeof(r));
			r.cell = cell;
			r.rep = rep;
			r.run = c->runs;
			r.seq = s->seq;
			r.paired = s->cfg.paired;
			r.metered = s->cfg.paired && half == 0;
			r.rerun = c->runs > 0 && again;
			r.reruns_left = s->cfg.reruns - c->reruns;
			r.paired_by = s->cfg.paired_by;
			r.next_metered = next_kind(
				s, half, more_planned(s, ops, ctx, rep, k));
			/* before the soakers wake: the probe times the box,
			 * not the meter */
			if (s->cfg.probe_ms > 0 &&
			    probe_run(s->cfg.probe_ms, &s->probe, err, len))
				return -1;
			if (ops->prepare && ops->prepare(ctx, &r, err, len))
				return -1;
			rate = NAN;
			o = ops->run(ctx, &r, &rate, err, len);
			c->runs++;
			s->seq++;
			if (o == SERIES_FAILED)
				return -1;
			/* run 0 may have found the runs paired (zcc) */
			r.paired = s->cfg.paired;
			r.metered = s->cfg.paired && half == 0;
			r.paired_by = s->cfg.paired_by;
			again = judge(s, c, &r, o, rate);
			r.again = again;
			if (again) /* the same run next */
				r.next_metered = r.metered;
			more = again || (s->cfg.paired && half == 0) ||
			       more_planned(s, ops, ctx, rep, k);
			if (s->cfg.stop && *s->cfg.stop)
				more = 0;
			if (ops->done && ops->done(ctx, &r, more, err, len))
				return -1;
		} while (again);
	}
	return 0;
}

int series_run(struct series *s, const struct series_ops *ops, void *ctx,
	       char *err, size_t len)
{
	int rep, k, r;

	for (rep = 0; rep < s->cfg.repeat; rep++)
		for (k = 0; k < s->cfg.ncells; k++) {
			if (s->cell[cell_at(ops, ctx, s, rep, k)].done)
				continue;
			r = one_result(s, ops, ctx, rep, k, err, len);
			if (r) {
				s->stopped = 1;
				s->failed = r < 0;
				return r < 0 ? -1 : 0;
			}
		}
	return 0;
}

int series_quiet(const struct series *s, const struct series_run *r,
		 const struct quiet_sample *q, char *why, size_t len)
{
	char what[200];

	if (!quiet_disturbed(q, s->cfg.steal_max, s->cfg.outside_max, what,
			     sizeof(what))) {
		if (len)
			why[0] = '\0';
		return SERIES_OK;
	}
	if (r->reruns_left > 0)
		snprintf(why, len, "%s: made again", what);
	else
		snprintf(why, len, "%s: no re-runs left (--reruns %d), it stands",
			 what, s->cfg.reruns);
	return SERIES_DISTURBED;
}

void series_quiet_doc(const struct series *s, const struct series_run *r,
		      const struct quiet_sample *q, int outcome,
		      json_t *sample)
{
	json_object_set_new(sample, "quiet", quiet_json(q));
	if (s->cfg.probe_ms > 0 && s->probe.ncpu > 0)
		json_object_set_new(sample, "probe", probe_json(&s->probe));
	if (outcome == SERIES_DISTURBED)
		json_object_set_new(sample, "disturbed",
				    quiet_disturbed_json(q, s->cfg.steal_max,
							 s->cfg.outside_max,
							 r->reruns_left > 0));
}

const double *series_results(const struct series *s, int cell, int *n)
{
	*n = s->cell[cell].n;
	return s->cell[cell].res;
}

const double *series_metered(const struct series *s, int cell, int *n)
{
	*n = s->cell[cell].nm;
	return s->cell[cell].met;
}

int series_perturbation(const struct series *s, int cell,
			struct stats_ratio *r)
{
	const struct series_cell *c = &s->cell[cell];
	int n = c->nm < c->n ? c->nm : c->n;

	memset(r, 0, sizeof(*r));
	if (!s->cfg.paired || n < 1)
		return -1;
	stats_ratio_paired(c->met, c->res, (size_t)n, r);
	return r->n ? 0 : -1;
}

const char *series_perturbation_note(const struct series *s, int cell,
				     char *buf, size_t len)
{
	struct stats_ratio r;

	buf[0] = '\0';
	if (!series_perturbation(s, cell, &r))
		meter_perturbation_by(buf, len, s->cfg.paired_by, &r);
	return buf;
}

int series_confidence(const struct series *s, int cell, double *hw)
{
	const struct series_cell *c = &s->cell[cell];
	double m;

	*hw = NAN;
	if (s->cfg.conf_level <= 0)
		return -1;
	if (c->n >= 2) {
		m = stats_mean(c->res, (size_t)c->n);
		*hw = stats_ci_halfwidth(c->res, (size_t)c->n,
					 s->cfg.conf_level / 100) *
		      100.0 / m;
	}
	return c->reached;
}

double series_median(const struct series *s, int cell)
{
	const struct series_cell *c = &s->cell[cell];

	return c->n ? stats_median(c->res, (size_t)c->n) : NAN;
}
