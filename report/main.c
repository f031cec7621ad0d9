/*
 * zcbreport: turns zcbench result documents into the tables of the seed
 * mails, compares two sets of runs with significance tests (nightly
 * regressions), and plots them with gnuplot. It reads result files only
 * and measures nothing.
 *
 *   zcbreport table   [options] PATH...     seed layouts or any grid
 *   zcbreport compare [options] BASE NEW    kernel A against kernel B
 *   zcbreport plot    [options] PATH...     PNG and ASCII plots
 *   zcbreport html    [BASE] PATH... -o F   one self-contained page
 *
 * The seed layouts are the table room's (lib/table/layout.h), the same
 * the tools print their own tables with; the options of the three
 * subcommands are one table (ropts.c).
 */
#include "config.h"
#include "html.h"
#include "log.h"
#include "report.h"
#include "ropts.h"
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage_main(FILE *f)
{
	fprintf(f,
		"usage: zcbreport COMMAND [options] ...\n"
		"  table   [options] PATH...   tables (seed layouts or a grid)\n"
		"  compare [options] BASE NEW  two sets of runs, with "
		"significance\n"
		"  plot    [options] PATH...   PNG and ASCII plots (gnuplot)\n"
		"  html    [options] [BASE] PATH... -o FILE  the nightly page\n"
		"  plan    [options] BASE      runs needed to find a 5%% change\n"
		"PATH is a result document or a directory (every *.json "
		"under it).\n"
		"zcbreport COMMAND -h shows a command's options; man "
		"zcbreport.\n");
}

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
static int print_tables(const struct ropts *c, const struct rl_set *s)
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

int cmd_table(int argc, char **argv)
{
	struct ropts c = {.fmt = FMT_TEXT, .stat = ST_AUTO};
	struct rl_set s;
	int r;

	ropt_parse(RC_TABLE, argc, argv, &c);
	table_checks(&c);
	load_inputs(&s, c.paths, c.npaths);
	if (!s.ndocs) {
		log_err("no usable result documents (%zu refused)", s.nbad);
		rl_free(&s);
		return 2;
	}
	r = print_tables(&c, &s);
	log_verbose("%zu documents read, %zu refused", s.ndocs, s.nbad);
	rl_free(&s);
	return r ? 2 : 0;
}

int main(int argc, char **argv)
{
	const char *cmd;

	log_init(argv[0]);
	/* GSL's errors recorded, never its abort: a figure it refuses
	 * becomes a row or cell that says so (stats.h) */
	stats_gsl_clear();
	if (argc < 2)
		die_usage("no command (table, compare, plot); see --help");
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		usage_main(stdout);
		return 0;
	}
	argv[1] = argv[0];
	if (!strcmp(cmd, "table"))
		return cmd_table(argc - 1, argv + 1);
	if (!strcmp(cmd, "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(cmd, "plot"))
		return cmd_plot(argc - 1, argv + 1);
	if (!strcmp(cmd, "html"))
		return cmd_html(argc - 1, argv + 1);
	if (!strcmp(cmd, "plan"))
		return cmd_plan(argc - 1, argv + 1);
	die_usage("unknown command \"%s\" (table, compare, plot, html, plan)", cmd);
}
