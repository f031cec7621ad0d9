/*
 * compare.c: zcbreport compare: a baseline against one kernel or more
 * (BASE NEW [NEW...], or one set split by --split PARAM=A,B), per case
 * and metric. One pipeline for any number of kernels: the inputs
 * loaded, named and judged (cmpin.c), then one printer (cmpprint.h)
 * picked by the one format switch below. Two-sided compare is the
 * N-kernel one with one kernel; its text is mmtests' layout with lkp's
 * +- stddev%, the host facts that differ above the tables. Exit 1 when
 * a regression is flagged, 2 on bad input or when a row's computation
 * failed (GSL refused it; the row says so), else 0.
 */
#include "config.h"
#include "cmpin.h"
#include "cmpprint.h"
#include "log.h"
#include "stats.h"

#include <gsl/gsl_cdf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --split PARAM=A,B taken apart, and the number of inputs. */
static void compare_checks(struct cmp_cfg *c)
{
	char *split = c->o.split, *eq, *comma;

	/* --looks K: each look at Pocock's level for K looks at --alpha;
	 * --history's p is one-sided, Welch's and Mann-Whitney's two-sided
	 * (alpha / 2 a side) */
	c->o.alpha_all = c->o.alpha;
	if (c->o.looks > 1) {
		int k = (int)c->o.looks;

		c->o.looks_z = stats_pocock_z(
			c->o.history ? c->o.alpha_all : c->o.alpha_all / 2, k);
		c->o.alpha = gsl_cdf_ugaussian_Q(c->o.looks_z) *
			     (c->o.history ? 1 : 2);
		if (!(c->o.alpha > 0))
			die_usage("--looks %ld: no Pocock level for --alpha "
				  "%g",
				  c->o.looks, c->o.alpha_all);
	}
	if (c->o.history) {
		if (split || c->o.paired)
			die_usage("compare --history: not with --%s",
				  split ? "split" : "paired");
		if (c->o.npaths - 1 < CMP_MIN_NIGHTS)
			die_usage("compare --history: %d night%s of the "
				  "baseline given; at least %d are needed, "
				  "then NEW",
				  c->o.npaths > 0 ? c->o.npaths - 1 : 0,
				  c->o.npaths == 2 ? "" : "s", CMP_MIN_NIGHTS);
		return;
	}
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

/*
 * The one format switch: --format json is the table's JSON document;
 * text against one kernel (two paths, or --split) mmtests' two-sided
 * layout; text against more, markdown and csv the N-kernel table.
 */
static const struct cmp_printer *printer(const struct cmp_cfg *c)
{
	static const struct cmp_printer text = {1, cmp_text_hosts,
						cmp_text_print},
					table = {0, cmp_table_hosts,
						 cmp_table_print},
					json = {0, NULL, cmp_json_print};
	int kernels = c->split_param || c->o.history ? 1 : c->o.npaths - 1;

	if (c->o.cfmt == CF_JSON)
		return &json;
	return c->o.cfmt == CF_TEXT && kernels == 1 ? &text : &table;
}

/* 1 a regression flagged, 2 bad input or a row that failed, else 0. */
static int exit_status(const struct cmp_multi *m, size_t nbad)
{
	size_t k, flagged = 0, failed = 0;

	for (k = 0; k < m->nk; k++) {
		flagged += m->st[k].flagged;
		failed += m->st[k].failed;
	}
	return flagged ? 1 : nbad || failed ? 2 : 0;
}

/* Thousands of parsed documents or keys: exit() returns their memory
 * far faster than freeing them node by node (a quarter of the run).
 * Under ASan they are freed, so that it sees every leak. */
static int exit_unfreed(const struct cmp_inputs *in)
{
#ifdef __SANITIZE_ADDRESS__
	return 0;
#else
	size_t k, keys = 0;

	for (k = 0; k < in->njudged; k++)
		keys += in->st[k].nkeys;
	return keys > 1000 || in->set[0].ndocs > 1000;
#endif
}

int cmd_compare(const struct rcmd *self, int argc, char **argv)
{
	struct cmp_cfg c = {.o = {CMP_DEFAULT_OPTS}};
	const struct cmp_printer *p;
	struct cmp_inputs in;
	struct cmp_multi m;
	size_t nbad = 0;
	int r;

	ropt_parse(self, argc, argv, &c.o);
	compare_checks(&c);
	p = printer(&c);
	r = cmp_inputs_open(&c, p->two, &in, &nbad);
	if (r)
		return r;
	/* the two sides of --split are one set's: no host differs */
	if (p->hosts && !c.split_param)
		p->hosts(&c, in.sel, in.name, in.n);
	cmp_inputs_judge(&c, &in, &m, &nbad);
	p->print(&c, &m, nbad);
	r = exit_status(&m, nbad);
	if (exit_unfreed(&in))
		exit(r);
	cmp_inputs_close(&in);
	return r;
}
