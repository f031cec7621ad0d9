/* cmpnights.c: nights given a path each (cmpnights.h). */
#include "config.h"
#include "cmpnights.h"
#include "log.h"

#include <stdlib.h>

int cmp_nights_open(struct cmp_cfg *c, const char *cmd, struct cmp_nights *ns)
{
	struct res_filter f = {.where = c->o.where, .nwhere = c->o.nwhere};
	struct res_sel one;
	size_t i, j, bad = 0, n = (size_t)c->o.npaths;

	*ns = (struct cmp_nights){0};
	ns->set = calloc(n ? n : 1, sizeof(*ns->set));
	if (!ns->set)
		abort();
	for (i = 0; i < n; i++) {
		load_inputs(&ns->set[i], c->o.paths + i, 1);
		bad += ns->set[i].nbad;
		res_sel_build(&ns->set[i], &f, &one);
		for (j = 0; j < one.n; j++) {
			ns->all.v = res_grow(ns->all.v, &ns->all.cap,
					     ns->all.n, sizeof(*ns->all.v));
			ns->all.v[ns->all.n++] = one.v[j];
		}
		res_sel_free(&one);
	}
	c->nights = ns->set;
	c->nnights = n;
	if (!ns->all.n) {
		log_err("%s: no usable cases in the nights given", cmd);
		return 2;
	}
	{
		const struct res_sel sel[2] = {ns->all, {0}};

		cmp_judge_rows(c, &ns->set[n - 1], &ns->set[n - 1], sel,
			       &ns->st);
	}
	ns->keyed = 1;
	return bad ? 2 : 0;
}

void cmp_nights_close(struct cmp_cfg *c, struct cmp_nights *ns)
{
	size_t i;

	if (ns->keyed)
		cmp_state_free(&ns->st);
	res_sel_free(&ns->all);
	for (i = 0; ns->set && i < c->nnights; i++)
		res_pool_free(&ns->set[i]);
	free(ns->set);
	*ns = (struct cmp_nights){0};
}

void cmp_key_night_values(const struct cmp_cfg *c, const struct ckey *k,
			  const char *metric, struct kfig *f)
{
	size_t i, j, n0;
	int night;

	for (i = 0; i < k->n[0]; i++) {
		night = cmp_night_of(c, k->c[0][i]);
		n0 = f->n;
		res_case_values(k->c[0][i]->kase, metric, &f->x, &f->n,
				&f->cap);
		for (j = n0; j < f->n; j++) {
			f->night = res_grow(f->night, &f->ncap, j,
					    sizeof(*f->night));
			f->night[j] = night;
		}
	}
}
