/*
 * zcbreport: turns zcbench result documents into the tables of the seed
 * mails, compares two sets of runs with significance tests (nightly
 * regressions), and plots them with gnuplot. It reads result files only
 * and measures nothing.
 *
 *   zcbreport table   [options] PATH...     seed layouts or any grid
 *   zcbreport compare [options] BASE NEW    kernel A against kernel B
 *   zcbreport plot    [options] PATH...     PNG and ASCII plots
 */
#include "config.h"
#include "esc.h"
#include "log.h"
#include "report.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table_cfg {
	const char *layout;		  /* named layout or NULL: a grid */
	struct layout_opts lo;		  /* format, statistic, filters */
	struct grid_opts grid;		  /* --rows/--cols/--metric */
	const char *where[RPT_MAX_WHERE]; /* --where PARAM=VALUE */
	char **paths;			  /* inputs */
	int npaths;
};

static void usage_main(FILE *f)
{
	fprintf(f,
		"usage: zcbreport COMMAND [options] ...\n"
		"  table   [options] PATH...   tables (seed layouts or a grid)\n"
		"  compare [options] BASE NEW  two sets of runs, with "
		"significance\n"
		"  plot    [options] PATH...   PNG and ASCII plots (gnuplot)\n"
		"PATH is a result document or a directory (every *.json "
		"under it).\n"
		"zcbreport COMMAND -h shows a command's options; man "
		"zcbreport.\n");
}

static void usage_table(void)
{
	size_t i;

	printf("usage: zcbreport table [options] PATH...\n"
	       "  -l, --layout NAME     a seed layout, or all:");
	for (i = 0; layout_name(i); i++)
		printf(" %s", layout_name(i));
	printf("\n"
	       "  -t, --tool TOOL       only this tool's documents (grid)\n"
	       "  -r, --rows K[,K]      row keys: label, tool or params "
	       "(grid)\n"
	       "  -c, --cols PARAM      a param whose values become columns\n"
	       "  -m, --metric M[,M]    metrics (default: all; one with "
	       "--cols)\n"
	       "  -s, --stat S          auto (default: hmean for rates, else mean),\n"
	       "                        mean, median or hmean\n"
	       "  -w, --where P=V       only cases whose param P is V "
	       "(repeatable)\n"
	       "      --sd              append +- standard deviation (grid)\n"
	       "  -f, --format F        text (default), markdown or csv\n"
	       "  -v / -q               more / fewer diagnostics\n");
}

/* Split a comma list in place into out[]; returns the count. */
static size_t split_list(char *s, const char **out, size_t max, const char *opt)
{
	size_t n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(s, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == max)
			die_usage("%s: at most %zu entries", opt, max);
		out[n++] = tok;
	}
	if (!n)
		die_usage("%s: empty list", opt);
	return n;
}

int parse_format(const char *s, enum tbl_fmt *f)
{
	if (!strcmp(s, "text"))
		*f = FMT_TEXT;
	else if (!strcmp(s, "markdown") || !strcmp(s, "md"))
		*f = FMT_MARKDOWN;
	else if (!strcmp(s, "csv"))
		*f = FMT_CSV;
	else
		return -1;
	return 0;
}

void load_inputs(struct rl_set *s, char *const *paths, int n)
{
	char p[1024], w[2048];
	int i;
	size_t b;

	rl_init(s);
	for (i = 0; i < n; i++)
		rl_add_path(s, paths[i]);
	rl_finish(s);
	for (b = 0; b < s->nbad; b++)
		log_err("%s: %s", esc_text(p, sizeof(p), s->bad[b].path),
			esc_text(w, sizeof(w), s->bad[b].why));
	for (b = 0; b < s->nwarned; b++)
		log_warn("%s: %s", esc_text(p, sizeof(p), s->warned[b].path),
			 esc_text(w, sizeof(w), s->warned[b].why));
	for (b = 0; b < s->nskipped; b++)
		log_verbose("%s: skipped, %s",
			    esc_text(p, sizeof(p), s->skipped[b].path),
			    esc_text(w, sizeof(w), s->skipped[b].why));
}


static void parse_table_opts(int argc, char **argv, struct table_cfg *c)
{
	static const struct option opts[] = {
		{"layout", required_argument, NULL, 'l'},
		{"tool", required_argument, NULL, 't'},
		{"rows", required_argument, NULL, 'r'},
		{"cols", required_argument, NULL, 'c'},
		{"metric", required_argument, NULL, 'm'},
		{"stat", required_argument, NULL, 's'},
		{"where", required_argument, NULL, 'w'},
		{"sd", no_argument, NULL, 'S'},
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int o;

	while ((o = getopt_long(argc, argv, "l:t:r:c:m:s:w:f:hvq", opts,
				NULL)) != -1) {
		switch (o) {
		case 'l':
			c->layout = optarg;
			break;
		case 't':
			c->grid.tool = optarg;
			break;
		case 'r':
			c->grid.nrows = split_list(optarg, c->grid.rows,
						   RPT_MAX_KEYS, "--rows");
			break;
		case 'c':
			c->grid.cols = optarg;
			break;
		case 'm':
			c->grid.nmetrics = split_list(optarg, c->grid.metrics,
						      32, "--metric");
			break;
		case 's':
			if (parse_stat(optarg, &c->lo.stat))
				die_usage("--stat: \"%s\" is not auto, mean, median "
					  "or hmean",
					  optarg);
			break;
		case 'w':
			if (!strchr(optarg, '=') ||
			    c->lo.nwhere == RPT_MAX_WHERE)
				die_usage("--where: \"%s\" is not PARAM=VALUE "
					  "(at most %d)",
					  optarg, RPT_MAX_WHERE);
			c->where[c->lo.nwhere++] = optarg;
			break;
		case 'S':
			c->grid.show_sd = 1;
			break;
		case 'f':
			if (parse_format(optarg, &c->lo.fmt))
				die_usage("--format: \"%s\" is not text, "
					  "markdown or csv",
					  optarg);
			break;
		case 'h':
			usage_table();
			exit(0);
		case 'v':
			log_level++;
			break;
		case 'q':
			log_level = LOG_QUIET;
			break;
		default:
			die_usage("see zcbreport table --help");
		}
	}
	c->paths = argv + optind;
	c->npaths = argc - optind;
	c->lo.where = c->where;
	if (!c->npaths)
		die_usage("table: no result files or directories given");
	if (c->layout && (c->grid.nrows || c->grid.cols || c->grid.tool ||
			  c->grid.nmetrics || c->grid.show_sd))
		die_usage("--layout: not with --rows, --cols, --tool, --metric "
			  "or --sd (a layout fixes them)");
	if (c->grid.cols && c->grid.nmetrics > 1)
		die_usage("--cols: takes exactly one --metric");
}

int cmd_table(int argc, char **argv)
{
	struct table_cfg c = {
		.lo = {.out = stdout, .fmt = FMT_TEXT, .stat = ST_AUTO}};
	struct rl_set s;
	int r;

	parse_table_opts(argc, argv, &c);
	load_inputs(&s, c.paths, c.npaths);
	if (!s.ndocs) {
		log_err("no usable result documents (%zu refused)", s.nbad);
		rl_free(&s);
		return 2;
	}
	if (c.layout) {
		c.lo.all = !strcmp(c.layout, "all");
		r = layout_print(c.layout, &s, &c.lo);
		if (r < 0)
			die_usage("--layout: no layout named \"%s\" (see "
				  "--help)",
				  c.layout);
		if (r > 0 && !c.lo.all)
			log_err("layout %s: no %s results with its params and "
				"metrics in the input",
				c.layout, layout_tool(c.layout));
	} else {
		r = grid_print(&s, &c.lo, &c.grid);
	}
	log_verbose("%zu documents read, %zu refused", s.ndocs, s.nbad);
	rl_free(&s);
	return r ? 2 : 0;
}

int main(int argc, char **argv)
{
	const char *cmd;

	log_init(argv[0]);
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
	die_usage("unknown command \"%s\" (table, compare, plot)", cmd);
}
