/*
 * ropts.c: zcbreport's option table, its parser and its usage (see
 * ropts.h). Every option is one line of the table below; getopt's tables
 * and the usage text of a subcommand are made from the lines it takes.
 */
#include "config.h"
#include "cli.h"
#include "layout.h"
#include "log.h"
#include "ropts.h"

#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define T   RC_TABLE
#define C   RC_COMPARE
#define P   RC_PLOT
#define H   RC_HTML
#define N   RC_PLAN
#define R   RC_TREND
#define ALL (T | C | P | H | N | R)

/* What an option's value is, and how it is stored. */
enum ro_kind {
	RO_STR,	   /* const char *: the argument */
	RO_LIST,   /* K[,K]: into a const char *[max], count at cnt */
	RO_WHERE,  /* PARAM=VALUE, repeatable */
	RO_STAT,   /* auto, mean, median, hmean */
	RO_FORMAT, /* text, markdown, csv */
	RO_CFORMAT, /* compare: text, markdown, csv, json (an int) */
	RO_JUDGE,  /* compare: all, primary (an int) */
	RO_MW,	   /* compare: require, off (an int) */
	RO_ERRORS, /* sd, ci95, none */
	RO_DOUBLE, /* a number in [lo, hi] */
	RO_LONG,   /* a whole number in [lo, hi] */
	RO_SET,	   /* int: 1 */
	RO_CLEAR,  /* int: 0 */
};

struct ropt {
	unsigned cmds;	   /* RC_* that take it */
	int letter;	   /* short option, or 0 */
	const char *name;  /* long option */
	const char *arg;   /* the value's name in the usage; NULL: none */
	enum ro_kind kind; /* its value */
	size_t off, cnt;   /* where it goes (cnt: RO_LIST's count) */
	double lo, hi;	   /* RO_DOUBLE, RO_LONG: range; RO_LIST: max */
	const char *help;  /* one line, or lines split by \n */
};

#define F(f) offsetof(struct ropts, f)

static const struct ropt ropts[] = {
	{T, 'l', "layout", "NAME", RO_STR, F(layout), 0, 0, 0,
	 "a seed layout, or all:"},
	{T | P, 't', "tool", "TOOL", RO_STR, F(tool), 0, 0, 0,
	 "only this tool's documents (grid; plot: needed\n"
	 "when several)"},
	{T, 'r', "rows", "K[,K]", RO_LIST, F(rows), F(nrows), 0, RPT_MAX_KEYS,
	 "row keys: label, tool or params (grid)"},
	{T, 'c', "cols", "PARAM", RO_STR, F(cols), 0, 0, 0,
	 "a param whose values become columns"},
	{T | C | H | R, 'm', "metric", "M[,M]", RO_LIST, F(metrics), F(nmetrics),
	 0, RPT_MAX_METRICS, "metrics (table: default all, one with --cols)"},
	{C | H | N, 't', "threshold", "PCT", RO_DOUBLE, F(threshold), 0, 0, 1000,
	 "smallest change flagged (default 2)"},
	{C | H | N, 'a', "alpha", "A", RO_DOUBLE, F(alpha), 0, 1e-9, 0.5,
	 "significance after Benjamini-Hochberg (default 0.05)"},
	{C, 0, "looks", "K", RO_LONG, F(looks), 0, 1, 20,
	 "one of K planned looks at a growing night (the\n"
	 "nightly's confirmation rounds): each at Pocock's\n"
	 "level, so that the K flag a row wrongly at most\n"
	 "--alpha of the time (default 1: alpha itself)"},
	{R, 'a', "alpha", "A", RO_DOUBLE, F(alpha), 0, 1e-9, 0.5,
	 "a change point's permutation p below this (default\n"
	 "0.01)"},
	{R, 0, "judge", "J", RO_JUDGE, F(judge), 0, 0, 0,
	 "primary (default): each tool's short list; all:\n"
	 "every metric"},
	{C | H, 0, "max-cov", "PCT", RO_DOUBLE, F(max_cov), 0, 0, 1e6,
	 "baseline noisier than this is not judged (default 25)"},
	{C | H, 0, "min-n", "N", RO_LONG, F(min_n), 0, 2, 1000000,
	 "fewer samples a side is not judged (default 3)"},
	{C | H, 0, "judge", "J", RO_JUDGE, F(judge), 0, 0, 0,
	 "all (default): every metric; primary: each tool's\n"
	 "short list, the rest as context (zcbreport(1))"},
	{C | H, 0, "mann-whitney", "M", RO_MW, F(mw), 0, 0, 0,
	 "require (default): a flag needs U's p < alpha too\n"
	 "(5 samples a side); off: Welch's q alone"},
	{C, 0, "history", NULL, RO_SET, F(history), 0, 0, 0,
	 "the paths are the baseline's nights (3 or more,\n"
	 "oldest first), then NEW: judged against their spread"},
	{N, 0, "history", NULL, RO_SET, F(history), 0, 0, 0,
	 "the paths are the nightly's nights (3 or more, oldest\n"
	 "first): what its verdict finds against them, and the\n"
	 "runs a night and nights of history the change needs"},
	{C, 0, "no-probe", NULL, RO_SET, F(no_probe), 0, 0, 0,
	 "--history: judge the figures as measured, not\n"
	 "adjusted for the samples' box probe (--probe)"},
	{C, 'p', "paired", NULL, RO_SET, F(paired), 0, 0, 0,
	 "runs interleaved: pair samples by order"},
	{C, 's', "split", "P=A,B", RO_STR, F(split), 0, 0, 0,
	 "base = cases with P=A, new = P=B, matched on the rest"},
	{N, 'c', "change", "PCT", RO_DOUBLE, F(change), 0, 0.01, 1000,
	 "the change to find (default 5)"},
	{N, 'p', "power", "P", RO_DOUBLE, F(power), 0, 0.5, 0.9999,
	 "the chance to find it (default 0.9)"},
	{N, 'r', "rounds", "R", RO_LONG, F(rounds), 0, 1, 100000,
	 "the baseline's rounds: say how many rounds"},
	{N, 0, "cap", "N", RO_LONG, F(cap), 0, 1, 100000,
	 "most rounds (default 20)"},
	{H, 'o', "output", "FILE", RO_STR, F(out), 0, 0, 0,
	 "the page to write (default report.html)"},
	{P, 'o', "output", "PREFIX", RO_STR, F(out), 0, 0, 0,
	 "write PREFIX.png and PREFIX.txt (default zcbplot)"},
	{P, 'x', "x", "PARAM", RO_STR, F(x), 0, 0, 0,
	 "x axis (default size, iosize or rsize), log2 scale"},
	{P, 'y', "metric", "M", RO_STR, F(metric), 0, 0, 0,
	 "y axis (default throughput_MBps)"},
	{P, 'l', "lines", "K[,K]", RO_LIST, F(lines), F(nlines), 0,
	 RPT_MAX_KEYS - 1,
	 "one line per value of these keys (default: label\n"
	 "and the params that vary besides x)"},
	{P, 'e', "errors", "E", RO_ERRORS, F(err), 0, 0, 0,
	 "sd (default), ci95 or none"},
	{T | P, 's', "stat", "S", RO_STAT, F(stat), 0, 0, 0,
	 "auto (default: hmean for rates, else mean),\n"
	 "mean, median or hmean"},
	{ALL, 'w', "where", "P=V", RO_WHERE, F(where), F(nwhere), 0,
	 RPT_MAX_WHERE, "only cases whose param P is V (repeatable)"},
	{T, 0, "sd", NULL, RO_SET, F(show_sd), 0, 0, 0,
	 "append +- standard deviation (grid)"},
	{T, 'f', "format", "F", RO_FORMAT, F(fmt), 0, 0, 0,
	 "text (default), markdown or csv"},
	{C, 'f', "format", "F", RO_CFORMAT, F(cfmt), 0, 0, 0,
	 "text (default), markdown, csv or json; not text:\n"
	 "the one-table layout of an N-kernel compare"},
	{P, 0, "title", "T", RO_STR, F(title), 0, 0, 0, "the plot's title"},
	{P, 'p', "print", NULL, RO_SET, F(print), 0, 0, 0,
	 "print the ASCII plot to stdout"},
	{P, 0, "no-png", NULL, RO_CLEAR, F(png), 0, 0, 0,
	 "the ASCII plot only"},
	{P, 'r', "ratio", "K=A,B", RO_STR, F(ratio), 0, 0, 0,
	 "plot B/A of key K (a param or label) with its\n"
	 "95% interval: method=write,sendfile"},
	{P, 0, "script", NULL, RO_SET, F(script), 0, 0, 0,
	 "keep the gnuplot script and data: PREFIX.gp, .dat"},
};
#define NROPTS (sizeof(ropts) / sizeof(ropts[0]))

/* One option's usage line(s): "  -l, --layout NAME     help". */
static void usage_line(const struct ropt *r, FILE *f)
{
	char left[64];
	const char *h = r->help, *nl;
	size_t i;

	snprintf(left, sizeof(left), "  %c%c%s--%s%s%s", r->letter ? '-' : ' ',
		 r->letter ? r->letter : ' ', r->letter ? ", " : "  ", r->name,
		 r->arg ? " " : "", r->arg ? r->arg : "");
	fprintf(f, "%-24s", left);
	while ((nl = strchr(h, '\n'))) {
		fprintf(f, "%.*s\n%24s", (int)(nl - h), h, "");
		h = nl + 1;
	}
	fputs(h, f);
	if (r->kind == RO_STR && !strcmp(r->name, "layout"))
		for (i = 0; layout_name(i); i++)
			fprintf(f, " %s", layout_name(i));
	fputc('\n', f);
}

void ropt_usage(const struct rcmd *cmd, FILE *f)
{
	size_t i;

	fputs(cmd->synopsis, f);
	for (i = 0; i < NROPTS; i++)
		if (ropts[i].cmds & cmd->opts)
			usage_line(&ropts[i], f);
	fprintf(f, "%-24s%s\n%s", "  -v / -q", "more / fewer diagnostics",
		cmd->footer);
}

/* getopt's tables for a subcommand's options. */
static void tables(unsigned cmd, char *shorts, size_t slen, struct option *lo)
{
	size_t i, n = 0;

	snprintf(shorts, slen, "hvq");
	for (i = 0; i < NROPTS; i++) {
		const struct ropt *r = &ropts[i];
		char l[3] = {(char)r->letter, r->arg ? ':' : 0, 0};

		if (!(r->cmds & cmd))
			continue;
		if (r->letter)
			strncat(shorts, l, slen - strlen(shorts) - 1);
		lo[n++] = (struct option){
			r->name, r->arg ? required_argument : no_argument, NULL,
			r->letter ? r->letter : 256 + (int)i};
	}
	lo[n++] = (struct option){"help", no_argument, NULL, 'h'};
	lo[n] = (struct option){NULL, 0, NULL, 0};
}

/* Split a comma list in place into out[]; returns the count. */
static size_t split_list(char *s, const char **out, size_t max, const char *opt)
{
	size_t n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(s, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == max)
			die_usage("--%s: at most %zu entries", opt, max);
		out[n++] = tok;
	}
	if (!n)
		die_usage("--%s: empty list", opt);
	return n;
}

/* One of the words, as its index into the value (an enum); dies. */
static void word(const char *opt, const char *arg, const char *const *w, int *v)
{
	int i;

	for (i = 0; w[i]; i++)
		if (!strcmp(arg, w[i])) {
			*v = i;
			return;
		}
	die_usage("--%s: \"%s\" is not %s", opt, arg, w[i + 1]);
}

/* An option whose value is one of a few words, into its field. */
static void take_word(const struct ropt *r, const char *arg, char *field)
{
	static const char *const stats[] = {
		"auto",	 "mean", "median",
		"hmean", NULL,	 "auto, mean, median or hmean"};
	static const char *const fmts[] = {"text", "markdown", "csv", NULL,
					   "text, markdown or csv"};
	static const char *const errs[] = {"sd", "ci95", "none", NULL,
					   "sd, ci95 or none"};
	static const char *const cfmts[] = {
		"text", "markdown", "csv", "json", NULL,
		"text, markdown, csv or json"};
	static const char *const judges[] = {"all", "primary", NULL,
					     "all or primary"};
	static const char *const mws[] = {"require", "off", NULL,
					  "require or off"};
	int v = 0;

	if ((r->kind == RO_FORMAT || r->kind == RO_CFORMAT) &&
	    !strcmp(arg, "md"))
		arg = "markdown";
	word(r->name, arg,
	     r->kind == RO_STAT	     ? stats
	     : r->kind == RO_FORMAT  ? fmts
	     : r->kind == RO_ERRORS  ? errs
	     : r->kind == RO_CFORMAT ? cfmts
	     : r->kind == RO_JUDGE   ? judges
				     : mws,
	     &v);
	if (r->kind == RO_STAT)
		*(enum stat_kind *)field = (enum stat_kind)v;
	else if (r->kind == RO_FORMAT)
		*(enum tbl_fmt *)field = (enum tbl_fmt)v;
	else if (r->kind == RO_ERRORS)
		*(enum err_kind *)field = (enum err_kind)v;
	else
		*(int *)field = v;
}

static void take(const struct ropt *r, char *arg, struct ropts *o)
{
	char *field = (char *)o + r->off;
	size_t *cnt = (size_t *)((char *)o + r->cnt);

	switch (r->kind) {
	case RO_STR:
		*(const char **)field = arg;
		break;
	case RO_LIST:
		*cnt = split_list(arg, (const char **)field, (size_t)r->hi,
				  r->name);
		break;
	case RO_WHERE:
		if (!strchr(arg, '=') || *cnt == (size_t)r->hi)
			die_usage("--where: \"%s\" is not PARAM=VALUE (at "
				  "most %d)",
				  arg, RPT_MAX_WHERE);
		((const char **)field)[(*cnt)++] = arg;
		break;
	case RO_STAT:
	case RO_FORMAT:
	case RO_ERRORS:
	case RO_CFORMAT:
	case RO_JUDGE:
	case RO_MW:
		take_word(r, arg, field);
		break;
	case RO_DOUBLE:
	case RO_LONG: {
		char opt[32];

		snprintf(opt, sizeof(opt), "--%s", r->name);
		if (r->kind == RO_DOUBLE)
			*(double *)field = cli_double(opt, arg, r->lo, r->hi);
		else
			*(long *)field =
				cli_long(opt, arg, (long)r->lo, (long)r->hi);
		break;
	}
	case RO_SET:
	case RO_CLEAR:
		*(int *)field = r->kind == RO_SET;
		break;
	}
}

void ropt_parse(const struct rcmd *cmd, int argc, char **argv,
		struct ropts *o)
{
	struct option lo[NROPTS + 2];
	char shorts[128];
	size_t i;
	int c;

	tables(cmd->opts, shorts, sizeof(shorts), lo);
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		if (c == 'h') {
			ropt_usage(cmd, stdout);
			exit(0);
		} else if (c == 'v') {
			log_level++;
			continue;
		} else if (c == 'q') {
			log_level = LOG_QUIET;
			continue;
		}
		for (i = 0; i < NROPTS; i++)
			if ((ropts[i].cmds & cmd->opts) &&
			    (ropts[i].letter ? ropts[i].letter
					     : 256 + (int)i) == c)
				break;
		if (i == NROPTS)
			die_usage("see zcbreport %s --help", cmd->name);
		take(&ropts[i], optarg, o);
	}
	o->paths = argv + optind;
	o->npaths = argc - optind;
}
