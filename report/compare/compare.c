/*
 * compare.c: zcbreport compare: two sets of runs (BASE and NEW, or one
 * set split by --split PARAM=A,B), per case and metric, judged
 * (cmpjudge.c) and printed (cmpprint.c) in mmtests' layout with lkp's
 * +- stddev%. Above the tables, the host facts that differ between the
 * sides. More than one NEW, or --format other than text: one table of
 * every kernel against the baseline (cmpmulti.c, cmpjson.c). Exit 1
 * when a regression is flagged, 2 on bad input or when a row's
 * computation failed (GSL refused it; the row says so), else 0.
 */
#include "config.h"
#include "compare.h"
#include "log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --split PARAM=A,B taken apart, and the number of inputs. */
static void compare_checks(struct cmp_cfg *c)
{
	char *split = c->o.split, *eq, *comma;

	if (!split) {
		if (c->o.npaths < 2)
			die_usage("compare: give BASE and NEW (files or "
				  "directories; more NEW for an N-kernel "
				  "table), or --split");
		return;
	}
	eq = strchr(split, '=');
	comma = eq ? strchr(eq, ',') : NULL;
	if (!eq || !comma || eq == split || comma == eq + 1 || !comma[1] ||
	    strchr(comma + 1, ','))
		die_usage("--split: \"%s\" is not PARAM=A,B", split);
	*eq = *comma = 0;
	c->split_param = split;
	c->split_a = eq + 1;
	c->split_b = comma + 1;
	if (c->o.npaths < 1)
		die_usage("compare --split: no result files given");
}

static const char *side_label(const struct rsel *sel, const char *dflt)
{
	if (!sel->n || sel_labels_vary(sel))
		return dflt;
	return sel->v[0].doc->label;
}

/* Both sides from one set: base the cases with P=A, new with P=B. */
static void split_sides(const struct cmp_cfg *c, const struct rl_set *s,
			struct rsel *sel)
{
	const char *w[RPT_MAX_WHERE + 1];
	struct rfilter f = {.where = w};
	char wa[256], wb[256];
	int side;

	memcpy(w, c->o.where, c->o.nwhere * sizeof(*w));
	snprintf(wa, sizeof(wa), "%s=%s", c->split_param, c->split_a);
	snprintf(wb, sizeof(wb), "%s=%s", c->split_param, c->split_b);
	for (side = 0; side < 2; side++) {
		w[c->o.nwhere] = side ? wb : wa;
		f.nwhere = c->o.nwhere + 1;
		sel_build(s, &f, &sel[side]);
	}
}

/* Load the inputs into set[0] (and set[1] without --split) and pick
 * each side's cases; returns how many sets were loaded. */
static int load_sides(const struct cmp_cfg *c, struct rl_set *set,
		      struct rsel *sel)
{
	struct rfilter f = {.where = c->o.where, .nwhere = c->o.nwhere};
	int side;

	if (c->split_param) {
		load_inputs(&set[0], c->o.paths, c->o.npaths);
		split_sides(c, &set[0], sel);
		return 1;
	}
	for (side = 0; side < 2; side++) {
		load_inputs(&set[side], c->o.paths + side, 1);
		sel_build(&set[side], &f, &sel[side]);
	}
	return 2;
}

/* --split in markdown, csv or json: the N-kernel layout, one kernel. */
static void split_print(const struct cmp_cfg *c, const struct rl_set *s,
			struct cmp_state *st, const char *la, const char *lb,
			size_t nbad)
{
	struct cmp_multi m = {
		.nk = 1, .st = st, .base = la, .labels = &lb, .s = s};

	if (c->o.cfmt == CF_JSON)
		cmp_json_print(c, &m, nbad);
	else
		cmp_multi_print(c, &m, (enum tbl_fmt)c->o.cfmt, nbad);
}

int cmd_compare(const struct rcmd *self, int argc, char **argv)
{
	struct cmp_cfg c = {.o = {CMP_DEFAULT_OPTS}};
	struct cmp_state st;
	struct rl_set set[2];
	struct rsel sel[2];
	const char *la, *lb;
	char sa[300], sb[300];
	size_t nbad;
	int side, nsets, r;

	ropt_parse(self, argc, argv, &c.o);
	compare_checks(&c);
	if (!c.split_param && (c.o.npaths > 2 || c.o.cfmt != CF_TEXT))
		return cmd_compare_multi(&c);
	nsets = load_sides(&c, set, sel);
	nbad = set[0].nbad + (nsets > 1 ? set[1].nbad : 0);
	if (!sel[0].n || !sel[1].n) {
		log_err("nothing to compare: %s has no usable cases",
			!sel[0].n ? "BASE" : "NEW");
		r = 2;
		goto out;
	}
	if (c.split_param) {
		snprintf(sa, sizeof(sa), "%s=%s", c.split_param, c.split_a);
		snprintf(sb, sizeof(sb), "%s=%s", c.split_param, c.split_b);
		la = sa;
		lb = sb;
	} else {
		la = side_label(&sel[0], "base");
		lb = side_label(&sel[1], "new");
		print_host_diff(&sel[0], &sel[1]);
	}
	/* units agree within each set; the new set's must match the base */
	cmp_judge(&c, &set[0], &set[nsets - 1], sel, &st);
	nbad += st.nbad;
	if (c.o.cfmt == CF_TEXT)
		cmp_print(&c, &set[0], &st, la, lb, nbad);
	else
		split_print(&c, &set[0], &st, la, lb, nbad);
	r = st.flagged ? 1 : nbad || st.failed ? 2 : 0;
#ifndef __SANITIZE_ADDRESS__
	/* thousands of parsed documents: exit() returns their memory far
	 * faster than freeing them node by node (a quarter of the run) */
	if (st.nkeys > 1000 || set[0].ndocs > 1000)
		exit(r);
#endif
	cmp_state_free(&st);
out:
	for (side = 0; side < 2; side++)
		sel_free(&sel[side]);
	for (side = 0; side < nsets; side++)
		rl_free(&set[side]);
	return r;
}
