/*
 * cmpin.c: the one loader of compare and html (cmpin.h). A path a
 * side, each loaded (load.c) and its cases chosen by --where; with
 * --split P=A,B every path into one set, the base the cases with P=A,
 * the kernel those with P=B, matched on the rest. A side with no usable
 * case ends the compare (exit 2), named. Then each side's label, and
 * every kernel judged against the base (judge.h) with the verdicts over
 * all of them at once.
 */
#include "config.h"
#include "cmpin.h"
#include "esc.h"
#include "judge.h"
#include "log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Both sides from one set: base the cases with P=A, new with P=B. */
static void split_sides(const struct cmp_cfg *c, const struct res_pool *s,
			struct res_sel *sel)
{
	const char *w[RPT_MAX_WHERE + 1];
	struct res_filter f = {.where = w};
	char wa[256], wb[256];
	int side;

	memcpy(w, c->o.where, c->o.nwhere * sizeof(*w));
	snprintf(wa, sizeof(wa), "%s=%s", c->split_param, c->split_a);
	snprintf(wb, sizeof(wb), "%s=%s", c->split_param, c->split_b);
	for (side = 0; side < 2; side++) {
		w[c->o.nwhere] = side ? wb : wa;
		f.nwhere = c->o.nwhere + 1;
		res_sel_build(s, &f, &sel[side]);
	}
}

/* Column labels of N sides: each side's label (its path when its labels
 * vary); one shared by two columns (nights of one kernel) gets its
 * path's last part: "6.18@20261130T030000Z". */
static void path_labels(const struct cmp_cfg *c, const struct res_sel *sel,
			size_t n, char (*lab)[256])
{
	char dup[CMP_MAX_KERNELS + 1] = {0};
	size_t i, j;

	for (i = 0; i < n; i++)
		snprintf(lab[i], sizeof(lab[i]), "%s",
			 !res_sel_labels_vary(&sel[i]) ? sel[i].v[0].doc->label
						       : c->o.paths[i]);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			dup[i] |= j != i && !strcmp(lab[j], lab[i]);
	for (i = 0; i < n; i++) {
		const char *p = c->o.paths[i], *e = p + strlen(p), *b;
		size_t l = strlen(lab[i]);

		if (!dup[i])
			continue;
		while (e > p + 1 && e[-1] == '/')
			e--;
		for (b = e; b > p && b[-1] != '/'; b--)
			;
		snprintf(lab[i] + l, sizeof(lab[i]) - l, "@%.*s", (int)(e - b),
			 b);
	}
}

/* Each side's name: --split's "P=A" and "P=B"; two sides' labels
 * ("base" and "new" when a side's vary); else path_labels. */
static void name_sides(const struct cmp_cfg *c, struct cmp_inputs *in)
{
	static const char *const two[] = {"base", "new"};
	size_t i;

	if (c->split_param) {
		snprintf(in->split[0], sizeof(in->split[0]), "%s=%s",
			 c->split_param, c->split_a);
		snprintf(in->split[1], sizeof(in->split[1]), "%s=%s",
			 c->split_param, c->split_b);
		in->name[0] = in->split[0];
		in->name[1] = in->split[1];
		return;
	}
	if (in->two) {
		for (i = 0; i < 2; i++)
			in->name[i] = res_sel_labels_vary(&in->sel[i])
					      ? two[i]
					      : in->sel[i].v[0].doc->label;
		return;
	}
	path_labels(c, in->sel, in->n, in->lab);
	for (i = 0; i < in->n; i++)
		in->name[i] = in->lab[i];
}

/* A side without a usable case: named as its compare names it. */
static void say_empty(const struct cmp_cfg *c, const struct cmp_inputs *in,
		      size_t i)
{
	char e[1024];

	if (in->two)
		log_err("nothing to compare: %s has no usable cases",
			i ? "NEW" : "BASE");
	else
		log_err("nothing to compare: %s (%s) has no usable cases",
			esc_text(e, sizeof(e), c->o.paths[i]),
			i ? "a NEW" : "BASE");
}

/* --history: a set per path; the base side every night's cases (a
 * night each its own set, so cmp_night_of knows it), the new the last
 * path's; named "LABEL (k nights)" and the new night's label. */
static void load_history(const struct cmp_cfg *c, struct cmp_inputs *in,
			 size_t *nbad)
{
	struct res_filter f = {.where = c->o.where, .nwhere = c->o.nwhere};
	struct res_sel one;
	size_t i, j;

	for (i = 0; i < in->nsets; i++) {
		load_inputs(&in->set[i], c->o.paths + i, 1);
		*nbad += in->set[i].nbad;
		res_sel_build(&in->set[i], &f,
			      i + 1 < in->nsets ? &one : &in->sel[1]);
		for (j = 0; i + 1 < in->nsets && j < one.n; j++) {
			in->sel[0].v =
				res_grow(in->sel[0].v, &in->sel[0].cap,
					 in->sel[0].n, sizeof(*in->sel[0].v));
			in->sel[0].v[in->sel[0].n++] = one.v[j];
		}
		if (i + 1 < in->nsets)
			res_sel_free(&one);
	}
}

/* --history's side names: "6.18 (5 nights)" (base when the nights'
 * labels vary), and the new night's label. */
static void name_history(struct cmp_inputs *in)
{
	const struct res_sel *b = &in->sel[0], *n = &in->sel[1];

	snprintf(in->lab[0], sizeof(in->lab[0]), "%s (%zu nights)",
		 res_sel_labels_vary(b) ? "base" : b->v[0].doc->label,
		 in->nsets - 1);
	snprintf(in->lab[1], sizeof(in->lab[1]), "%s",
		 res_sel_labels_vary(n) ? "new" : n->v[0].doc->label);
	in->name[0] = in->lab[0];
	in->name[1] = in->lab[1];
}

/* Load every input; 0, or 2 when a side has no usable cases. */
static int load(const struct cmp_cfg *c, struct cmp_inputs *in, size_t *nbad)
{
	struct res_filter f = {.where = c->o.where, .nwhere = c->o.nwhere};
	size_t i;

	if (c->o.history)
		load_history(c, in, nbad);
	if (c->split_param) {
		load_inputs(&in->set[0], c->o.paths, c->o.npaths);
		split_sides(c, &in->set[0], in->sel);
		*nbad += in->set[0].nbad;
	}
	for (i = 0; !c->split_param && !c->o.history && i < in->n; i++) {
		load_inputs(&in->set[i], c->o.paths + i, 1);
		res_sel_build(&in->set[i], &f, &in->sel[i]);
		*nbad += in->set[i].nbad;
	}
	for (i = 0; i < in->n; i++)
		if (!in->sel[i].n) {
			say_empty(c, in, i);
			return 2;
		}
	if (c->o.history)
		name_history(in);
	else
		name_sides(c, in);
	return 0;
}

void cmp_inputs_close(struct cmp_inputs *in)
{
	size_t i;

	for (i = 0; i < in->njudged; i++)
		cmp_state_free(&in->st[i]);
	for (i = 0; i < in->n; i++)
		res_sel_free(&in->sel[i]);
	for (i = 0; i < in->nsets; i++)
		res_pool_free(&in->set[i]);
	free(in->set);
	free(in->sel);
	free(in->st);
	free(in->name);
	free(in->lab);
	memset(in, 0, sizeof(*in));
}

int cmp_inputs_open(const struct cmp_cfg *c, int two, struct cmp_inputs *in,
		    size_t *nbad)
{
	int r;

	memset(in, 0, sizeof(*in));
	in->two = two || c->split_param || c->o.history;
	in->n = c->split_param || c->o.history ? 2 : (size_t)c->o.npaths;
	in->nsets = c->split_param ? 1 : (size_t)c->o.npaths;
	if (in->n - 1 > CMP_MAX_KERNELS)
		die_usage("at most %d kernels against a baseline",
			  CMP_MAX_KERNELS);
	in->set = calloc(in->nsets, sizeof(*in->set));
	in->sel = calloc(in->n, sizeof(*in->sel));
	in->st = calloc(in->n, sizeof(*in->st));
	in->name = calloc(in->n, sizeof(*in->name));
	in->lab = calloc(in->n, sizeof(*in->lab));
	if (!in->set || !in->sel || !in->st || !in->name || !in->lab)
		abort();
	r = load(c, in, nbad);
	if (r)
		cmp_inputs_close(in);
	return r;
}

/* The set whose units, directions and metrics the base side has: the
 * base's, or with --history the newest night's. */
static const struct res_pool *base_set(const struct cmp_cfg *c,
				       const struct cmp_inputs *in)
{
	return c->o.history ? &in->set[in->nsets - 2] : &in->set[0];
}

void cmp_inputs_judge(const struct cmp_cfg *c, struct cmp_inputs *in,
		      struct cmp_multi *m, size_t *nbad)
{
	struct cmp_cfg hc = *c; /* with --history, its nights */
	const struct res_pool *base = base_set(c, in);
	size_t k;

	if (c->o.history) {
		hc.nights = in->set;
		hc.nnights = in->nsets - 1;
	}
	for (k = 1; k < in->n; k++) {
		struct res_sel pair[2] = {in->sel[0], in->sel[k]};

		/* units agree within each set; a kernel's must match the
		 * base's (the one set of --split is both) */
		cmp_judge_rows(
			&hc, base,
			&in->set[in->nsets > 1 ? in->nsets - in->n + k : 0],
			pair, &in->st[k - 1]);
		in->njudged = k;
		*nbad += in->st[k - 1].nbad;
	}
	cmp_verdicts(c, base, in->st, in->n - 1);
	*m = (struct cmp_multi){.nk = in->n - 1,
				.st = in->st,
				.base = in->name[0],
				.labels = in->name + 1,
				.s = base};
}
