/*
 * cmpplan.c: zcbreport plan BASE: how many runs a nightly needs on a
 * noisy box. For each case of the baseline, the noise of its main rate
 * (throughput, messages or operations per second: the coefficient of
 * variation of its samples) gives the number of runs a side at which a
 * --change (default 5%) change is found with --power (default 90%) by
 * compare's test at --alpha (cmp_detectable); with --rounds R (the
 * baseline's rounds of the suite), the rounds that make, up to --cap.
 */
#include "config.h"
#include "judge.h"
#include "esc.h"
#include "log.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_MAX_N 100000

/* The main rate of a set: the first of these it has. */
static const char *main_rate(const struct res_pool *s)
{
	static const char *const m[] = {"throughput_MBps", "msgs_per_s",
					"ops_per_s", "trans_per_s", NULL};
	int i;

	for (i = 0; m[i]; i++)
		if (json_object_get(s->units, m[i]))
			return m[i];
	return NULL;
}

/* Runs a side for a change at power; 0 when no number of runs does
 * (compare flags only changes above the threshold and the noise). */
static size_t needed(const struct cmp_cfg *c, double cv)
{
	double floor = fmax(c->o.threshold, cv * 100) / 100;
	size_t n;

	if (floor >= c->o.change / 100)
		return 0;
	for (n = 2; n <= PLAN_MAX_N; n += n < 50 ? 1 : n / 10)
		if (cmp_detectable(cv, n, cv, n, c->o.alpha, c->o.power,
				   floor) <= c->o.change / 100)
			return n;
	return 0;
}

/* A case of the baseline, its samples pooled over every document (a
 * nightly run has one per round). */
struct pcase {
	char name[512];
	double *x;
	size_t n, cap;
};

/* The cases of sel by tool and params, their values of metric. */
static struct pcase *pool(const struct res_sel *sel, const char *metric,
			  size_t *np)
{
	json_t *ix = json_object(), *v;
	struct pcase *pc = NULL;
	size_t cap = 0, i;
	char key[2048], buf[256];
	const char *k;

	*np = 0;
	for (i = 0; i < sel->n; i++) {
		const struct res_pcase *rc = &sel->v[i];
		char *d = json_dumps(rc->params, JSON_COMPACT | JSON_SORT_KEYS);
		struct pcase *p;

		snprintf(key, sizeof(key), "%s|%s", rc->doc->tool, d ? d : "");
		free(d);
		v = json_object_get(ix, key);
		if (v) {
			p = &pc[json_integer_value(v)];
		} else {
			pc = res_grow(pc, &cap, *np, sizeof(*pc));
			p = &pc[*np];
			memset(p, 0, sizeof(*p));
			snprintf(p->name, sizeof(p->name), "%s", rc->doc->tool);
			json_object_foreach(rc->params, k, v) snprintf(
				p->name + strlen(p->name),
				sizeof(p->name) - strlen(p->name), " %s=%s", k,
				res_param_str(rc->params, k, buf, sizeof(buf)));
			json_object_set_new(ix, key,
					    json_integer((json_int_t)(*np)++));
		}
		res_case_values(rc->kase, metric, &p->x, &p->n, &p->cap);
	}
	json_decref(ix);
	return pc;
}

/* One case: its line; the rounds it needs (0: beyond the cap, -1: no
 * noise to judge, -2: never, the change is within its noise). */
static long plan_case(const struct cmp_cfg *c, const struct pcase *p,
		      struct tbl *t)
{
	size_t need, row = tbl_add_row(t);
	double cv, per_round;
	long rounds = 0;

	tbl_set(t, row, 0, "%s", p->name);
	tbl_set(t, row, 1, "%zu", p->n);
	if (p->n < 2) {
		tbl_set(t, row, 3, "fewer than 2 runs: no noise to judge");
		return -1;
	}
	cv = stats_stddev(p->x, p->n) / fabs(stats_mean(p->x, p->n));
	need = needed(c, cv);
	tbl_set(t, row, 2, "%.1f%%", cv * 100);
	per_round = c->o.rounds > 0 ? (double)p->n / (double)c->o.rounds : 1;
	if (need)
		rounds = (long)ceil((double)need / per_round);
	if (!need && fmax(c->o.threshold, cv * 100) >= c->o.change) {
		tbl_set(t, row, 3,
			"never: compare flags changes above %.1f%% only "
			"(the threshold or this noise)",
			fmax(c->o.threshold, cv * 100));
		return -2;
	}
	if (!need || rounds > c->o.cap) {
		tbl_set(t, row, 3,
			"more than %s runs: beyond the cap of %ld "
			"rounds",
			need ? "the" : "100000", c->o.cap);
		return 0;
	}
	tbl_set(t, row, 3, "%zu runs a side (%ld round%s)", need, rounds,
		rounds == 1 ? "" : "s");
	return rounds;
}

int cmd_plan(const struct rcmd *self, int argc, char **argv)
{
	struct cmp_cfg c = {
		.o = {CMP_DEFAULT_OPTS, .change = 5, .power = 0.9, .cap = 20}};
	struct res_filter f = {0};
	struct res_pool s;
	struct res_sel sel;
	struct tbl *t = tbl_new(4);
	struct pcase *pc;
	long most = 1, r;
	size_t i, np, over = 0, never = 0;
	const char *metric;
	char em[256];

	ropt_parse(self, argc, argv, &c.o);
	if (c.o.history) {
		tbl_free(t);
		return cmp_plan_history(&c);
	}
	if (c.o.npaths < 1)
		die_usage("plan: give the baseline (files or directories)");
	f.where = c.o.where;
	f.nwhere = c.o.nwhere;
	load_inputs(&s, c.o.paths, c.o.npaths);
	res_sel_build(&s, &f, &sel);
	metric = main_rate(&s);
	if (!sel.n || !metric) {
		log_err("plan: no cases with a rate in the baseline");
		tbl_free(t);
		res_sel_free(&sel);
		res_pool_free(&s);
		return 2;
	}
	printf("%s: runs for a %g%% change at %g%% power (alpha %g)\n",
	       esc_text(em, sizeof(em), metric), c.o.change, c.o.power * 100,
	       c.o.alpha);
	tbl_col(t, 0, "case", AL_LEFT);
	tbl_col(t, 1, "runs", AL_RIGHT);
	tbl_col(t, 2, "noise (cov)", AL_RIGHT);
	tbl_col(t, 3, "needed", AL_LEFT);
	pc = pool(&sel, metric, &np);
	for (i = 0; i < np; i++) {
		r = plan_case(&c, &pc[i], t);
		over += !r;
		never += r == -2;
		most = r > most ? r : most;
		free(pc[i].x);
	}
	free(pc);
	tbl_print(stdout, t, FMT_TEXT);
	if (over)
		most = c.o.cap;
	printf("zcbreport plan: %ld round%s (cap %ld)%s", most,
	       most == 1 ? "" : "s", c.o.cap,
	       over ? "; some cases need more than the cap" : "");
	if (never)
		printf("; %zu case%s noisier than the change: no number of "
		       "rounds finds it",
		       never, never == 1 ? "" : "s");
	printf("\n");
	tbl_free(t);
	res_sel_free(&sel);
	res_pool_free(&s);
	return 0;
}
