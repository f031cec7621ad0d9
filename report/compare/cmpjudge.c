/*
 * cmpjudge.c: zcbreport compare's judging (judge.h): the cases of a
 * baseline and a kernel matched by tool and params (without the --split
 * param) and the meter that paired them (a profiled case is its own key)
 * into keys, each side's worst perturbation of a key, the metrics
 * compared (--metric, else every metric of the baseline, rates first;
 * one whose unit differs between the sides is refused), and a row per
 * key and metric that both sides have (cmprow.c). The verdicts come
 * after, over every kernel's rows at once (cmpverd.c).
 */
#include "config.h"
#include "esc.h"
#include "judge.h"
#include "log.h"
#include "primary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The case key: the tool, the params without the split param, and the
 * meter that paired its runs when that keeps them apart (profile: such
 * runs never pool with soak-paired ones, res_case_pairing). */
static void case_key_text(const struct res_pcase *rc, const char *skip, char *key,
			  size_t klen)
{
	const char *by = res_case_pairing(rc->kase);
	json_t *p = rc->params;
	char *d;

	if (skip && json_object_get(p, skip)) {
		p = json_deep_copy(p);
		json_object_del(p, skip);
	} else {
		json_incref(p);
	}
	d = json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS);
	snprintf(key, klen, "%s|%s|%s", rc->doc->tool, d ? d : "",
		 by ? by : "");
	free(d);
	json_decref(p);
}

/* A key's readable name: the tool and its params but the split one,
 * then "(paired by profile)" when its pairing is part of the key. */
static char *case_title(const struct res_pcase *rc, const char *skip)
{
	const char *by = res_case_pairing(rc->kase), *k;
	char name[512], buf[256], *d;
	json_t *v;

	snprintf(name, sizeof(name), "%s", rc->doc->tool);
	json_object_foreach(rc->params, k, v)
	{
		if (skip && !strcmp(k, skip))
			continue;
		snprintf(name + strlen(name), sizeof(name) - strlen(name),
			 " %s=%s", k,
			 res_param_str(rc->params, k, buf, sizeof(buf)));
	}
	if (by)
		snprintf(name + strlen(name), sizeof(name) - strlen(name),
			 " (paired by %s)", by);
	d = strdup(name);
	if (!d)
		abort();
	return d;
}

/* Put a case under its key (a new key when it has none yet). */
static void add_case(struct cmp_state *st, struct res_pcase *rc, int side,
		     const char *skip)
{
	char key[2048];
	json_t *ix;
	struct ckey *k;

	case_key_text(rc, skip, key, sizeof(key));
	ix = json_object_get(st->index, key);
	if (!ix) {
		st->keys = res_grow(st->keys, &st->capkeys, st->nkeys,
				   sizeof(*st->keys));
		k = &st->keys[st->nkeys];
		memset(k, 0, sizeof(*k));
		k->name = case_title(rc, skip);
		json_object_set_new(st->index, key,
				    json_integer((json_int_t)st->nkeys++));
	} else {
		k = &st->keys[json_integer_value(ix)];
	}
	k->c[side] = res_grow(k->c[side], &k->cap[side], k->n[side],
			     sizeof(*k->c[side]));
	k->c[side][k->n[side]++] = rc;
}

static int metric_rank(const char *m)
{
	static const char *const first[] = {"throughput_MBps", "msgs_per_s",
					    "ops_per_s", NULL};
	int i;

	for (i = 0; first[i]; i++)
		if (!strcmp(first[i], m))
			return i;
	return i;
}

static int cmp_metric(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int rx = metric_rank(x), ry = metric_rank(y);

	return rx != ry ? rx - ry : strcmp(x, y);
}

/* Metrics to compare: --metric, else every metric of the set. */
static size_t metric_list(const struct cmp_cfg *c, const struct res_pool *s,
			  const char **out, size_t max)
{
	const char *name;
	json_t *v;
	size_t n = 0;

	if (c->o.nmetrics) {
		memcpy(out, c->o.metrics, c->o.nmetrics * sizeof(*out));
		return c->o.nmetrics;
	}
	json_object_foreach(s->units, name, v) if (n < max) out[n++] = name;
	qsort(out, n, sizeof(*out), cmp_metric);
	return n;
}

/* Each side's worst perturbation over a key's cases. */
static void key_perturbation(struct ckey *k)
{
	struct stats_ratio r;
	size_t i;
	int side;

	for (side = 0; side < 2; side++)
		for (i = 0; i < k->n[side]; i++) {
			if (res_read_perturbation(k->c[side][i]->kase, &r))
				continue;
			if (!k->npert[side]++ ||
			    fabs(log(r.ratio)) > fabs(log(k->pert[side].ratio))) {
				k->pert[side] = r;
				k->pert_by[side] =
					res_case_paired_by(k->c[side][i]->kase);
			}
		}
}

/* With --judge primary, the metric each compared one may be an alias of
 * (its name without a meter's: cpu_box_procstat_pct, cpu_box_pct; a
 * service demand's CPU-normalised rate; a remote figure's local one:
 * res_metric_alias_of) and how; the samples decide (cmprow.c). */
static void metric_aliases(const struct cmp_cfg *c, struct cmp_state *st)
{
	char b[256];
	const char *a;
	size_t i, j;

	for (i = 0; i < st->nmetrics; i++) {
		st->alias[i] = -1;
		a = c->o.judge == CJ_PRIMARY
			    ? res_metric_alias_of(st->metrics[i], b, sizeof(b))
			    : NULL;
		for (j = 0; a && j < st->nmetrics; j++)
			if (!strcmp(st->metrics[j], a))
				st->alias[i] = (int)j;
		st->alias_k[i] = a ? res_metric_alias_k(st->metrics[i]) : 0;
	}
}

/* Metrics of base that new has in the same unit (or not at all); a
 * metric in another unit is named on stderr and counted in st->nbad. */
static void shared_metrics(const struct cmp_cfg *c, const struct res_pool *base,
			   const struct res_pool *new, struct cmp_state *st)
{
	size_t nm = metric_list(c, base, st->metrics, 256), i, k;

	for (i = k = 0; i < nm; i++) {
		const char *ua = res_pool_unit(base, st->metrics[i]);
		const char *ub = res_pool_unit(new, st->metrics[i]);

		if (*ua && *ub && strcmp(ua, ub)) {
			char em[256], ea[256], eb[256];

			log_err("metric %s is in %s in BASE but in %s in NEW: "
				"not compared",
				esc_text(em, sizeof(em), st->metrics[i]),
				esc_text(ea, sizeof(ea), ua),
				esc_text(eb, sizeof(eb), ub));
			st->nbad++;
			continue;
		}
		st->metrics[k++] = st->metrics[i];
	}
	st->nmetrics = k;
	metric_aliases(c, st);
}

void cmp_judge_rows(const struct cmp_cfg *c, const struct res_pool *base,
		    const struct res_pool *new, const struct res_sel sel[2],
		    struct cmp_state *st)
{
	size_t i, k;
	int side;

	memset(st, 0, sizeof(*st));
	st->index = json_object();
	for (side = 0; side < 2; side++)
		for (i = 0; i < sel[side].n; i++)
			add_case(st, &sel[side].v[i], side, c->split_param);
	shared_metrics(c, base, new, st);
	for (k = 0; k < st->nkeys; k++) {
		key_perturbation(&st->keys[k]);
		for (side = 0; side < 2; side++)
			st->only[side] += !st->keys[k].n[1 - side];
		if (st->keys[k].n[0] && st->keys[k].n[1])
			cmp_key_rows(c, base, st, k);
	}
}

void cmp_state_free(struct cmp_state *st)
{
	size_t k;

	for (k = 0; k < st->nkeys; k++) {
		free(st->keys[k].name);
		free(st->keys[k].c[0]);
		free(st->keys[k].c[1]);
	}
	free(st->keys);
	free(st->rows);
	json_decref(st->index);
	memset(st, 0, sizeof(*st));
}
