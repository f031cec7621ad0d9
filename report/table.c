/*
 * table.c: zcbreport table: the seed layouts of the table room
 * (lib/table/layout.h), the same the tools print their own tables with,
 * or any grid of the set (grid.c).
 */
#include "config.h"
#include "log.h"
#include "report.h"
#include "ropts.h"

#include <stdio.h>
#include <string.h>

/* table: what its options allow together. */
static void table_checks(const struct ropts *c)
{
	if (!c->npaths)
		die_usage("table: no result files or directories given");
	if (c->layout &&
	    (c->nrows || c->cols || c->tool || c->nmetrics || c->show_sd))
		die_usage("--layout: not with --rows, --cols, --tool, --metric "
			  "or --sd (a layout fixes them)");
	if (c->cols && c->nmetrics > 1)
		die_usage("--cols: takes exactly one --metric");
}

/* A layout, or a grid of the set; 0 printed. */
static int print_tables(const struct ropts *c, const struct res_pool *s)
{
	struct layout_opts lo = {.out = stdout,
				 .fmt = c->fmt,
				 .stat = c->stat,
				 .where = c->where,
				 .nwhere = c->nwhere};
	struct grid_opts g = {.tool = c->tool,
			      .nrows = c->nrows,
			      .cols = c->cols,
			      .nmetrics = c->nmetrics,
			      .show_sd = c->show_sd};
	int r;

	if (!c->layout) {
		memcpy(g.rows, c->rows, sizeof(g.rows));
		memcpy(g.metrics, c->metrics, sizeof(g.metrics));
		return grid_print(s, &lo, &g);
	}
	lo.all = !strcmp(c->layout, "all");
	r = layout_print(c->layout, s, &lo);
	if (r < 0)
		die_usage("--layout: no layout named \"%s\" (see --help)",
			  c->layout);
	if (r > 0 && !lo.all)
		log_err("layout %s: no %s results with its params and metrics "
			"in the input",
			c->layout, layout_tool(c->layout));
	return r;
}

int cmd_table(const struct rcmd *self, int argc, char **argv)
{
	struct ropts c = {.fmt = FMT_TEXT, .stat = ST_AUTO};
	struct res_pool s;
	int r;

	ropt_parse(self, argc, argv, &c);
	table_checks(&c);
	load_inputs(&s, c.paths, c.npaths);
	if (!s.ndocs) {
		log_err("no usable result documents (%zu refused)", s.nbad);
		res_pool_free(&s);
		return 2;
	}
	r = print_tables(&c, &s);
	log_verbose("%zu documents read, %zu refused", s.ndocs, s.nbad);
	res_pool_free(&s);
	return r ? 2 : 0;
}
