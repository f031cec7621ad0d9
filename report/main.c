/*
 * zcbreport: turns zcbench result documents into the tables of the seed
 * mails, compares sets of runs with significance tests (nightly
 * regressions), plots them with gnuplot and writes the nightly page. It
 * reads result files only and measures nothing.
 *
 * Its subcommands are one table below: each row's name, arguments and
 * help make zcbreport's usage and its errors; its synopsis, footer and
 * option bit make the command's own usage and options (ropts.c); its
 * function runs it.
 */
#include "config.h"
#include "log.h"
#include "report.h"
#include "ropts.h"
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct rcmd cmds[] = {
	{"table", "[options] PATH...", "tables (seed layouts or a grid)",
	 RC_TABLE, "usage: zcbreport table [options] PATH...\n", "", cmd_table},
	{"compare", "[options] BASE NEW", "two sets of runs, with significance",
	 RC_COMPARE,
	 "usage: zcbreport compare [options] BASE NEW [NEW...]\n"
	 "       zcbreport compare --split PARAM=A,B [options] PATH...\n"
	 "       zcbreport compare --history [options] NIGHT... NEW\n",
	 "Exit: 1 a regression flagged, 2 bad input, else 0.\n", cmd_compare},
	{"plot", "[options] PATH...", "PNG and ASCII plots (gnuplot)", RC_PLOT,
	 "usage: zcbreport plot [options] PATH...\n",
	 "gnuplot: $GNUPLOT, else the configured one, else PATH.\n", cmd_plot},
	{"html", "[options] [BASE] PATH... -o FILE", "the nightly page", RC_HTML,
	 "usage: zcbreport html [options] [BASE] PATH... -o FILE\n",
	 "One self-contained page: verdicts (the first PATH is the\n"
	 "baseline of the others), seed tables, plots, hosts.\n",
	 cmd_html},
	{"plan", "[options] BASE", "runs needed to find a 5% change", RC_PLAN,
	 "usage: zcbreport plan [options] BASE\n"
	 "       zcbreport plan [options] --history NIGHT NIGHT NIGHT...\n",
	 "The runs each case of BASE needs to find the change; with\n"
	 "--history, what the nightly finds against its nights and what\n"
	 "it would need.\n", cmd_plan},
	{"trend", "[options] NIGHT...", "where each metric shifted", RC_TREND,
	 "usage: zcbreport trend [options] NIGHT...\n",
	 "The nights oldest first; change points by E-divisive means.\n",
	 cmd_trend},
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static void usage_main(FILE *f)
{
	size_t i;

	fprintf(f, "usage: zcbreport COMMAND [options] ...\n");
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "  %-7s %-18s  %s\n", cmds[i].name, cmds[i].args,
			cmds[i].help);
	fprintf(f, "PATH is a result document or a directory (every *.json "
		   "under it).\n"
		   "zcbreport COMMAND -h shows a command's options; man "
		   "zcbreport.\n");
}

/* "table, compare, plot, html, plan, trend" */
static const char *names(void)
{
	static char b[256];
	size_t i;

	for (i = 0; i < NCMDS; i++)
		snprintf(b + strlen(b), sizeof(b) - strlen(b), "%s%s",
			 i ? ", " : "", cmds[i].name);
	return b;
}

int main(int argc, char **argv)
{
	const char *cmd;
	size_t i;

	log_init(argv[0]);
	/* GSL's errors recorded, never its abort: a figure it refuses
	 * becomes a row or cell that says so (stats.h) */
	stats_gsl_clear();
	if (argc < 2)
		die_usage("no command (%s); see --help", names());
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		usage_main(stdout);
		return 0;
	}
	argv[1] = argv[0];
	for (i = 0; i < NCMDS; i++)
		if (!strcmp(cmd, cmds[i].name))
			return cmds[i].run(&cmds[i], argc - 1, argv + 1);
	die_usage("unknown command \"%s\" (%s)", cmd, names());
}
