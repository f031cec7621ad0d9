/*
 * plot.c: zcbreport plot: a metric against a size param (log2 x axis),
 * one line per label/method, error bars of the spread, drawn by gnuplot
 * (gnuplot.c) as a PNG (pngcairo, else png) and as ASCII (dumb terminal,
 * 72x20) for a plain-text mail. The title names the meter and the run
 * count.
 *
 * gnuplot never outlives us: from the temporary directory on, INT, TERM
 * and HUP (unless ignored at start, as nohup does) end the gnuplot
 * running, remove what it was writing and the temporary files, and exit
 * 128 + the signal.
 */
#include "config.h"
#include "esc.h"
#include "log.h"
#include "plot.h"
#include "report.h"
#include "sig.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* plot: what its options allow together. */
static void plot_checks(const struct ropts *c)
{
	if (!c->npaths)
		die_usage("plot: no result files or directories given");
	if (!*c->out)
		die_usage("--output: empty prefix");
	if (esc_needed(c->out))
		die_usage("--output: the prefix holds control characters or "
			  "is not UTF-8");
}

/* The one tool of the selection, or NULL when there are several. */
static const char *only_tool(const struct rsel *sel)
{
	size_t i;

	for (i = 1; i < sel->n; i++)
		if (strcmp(sel->v[i].doc->tool, sel->v[0].doc->tool))
			return NULL;
	return sel->n ? sel->v[0].doc->tool : NULL;
}

static const char *default_x(const struct rsel *sel)
{
	static const char *const xs[] = {"size",  "iosize",	    "rsize",
					 "wsize", "bytes_per_loop", "clients",
					 NULL};
	size_t i;
	int k;

	for (k = 0; xs[k]; k++)
		for (i = 0; i < sel->n; i++)
			if (json_is_number(
				    json_object_get(sel->v[i].params, xs[k])))
				return xs[k];
	return NULL;
}

/* Whether param p has one value per value of x (total_bytes with
 * iosize): such a param names no line of its own. */
static int tied_to(const struct rsel *sel, const char *x, const char *p)
{
	char a[256], b[256], c[256], d[256];
	size_t i, j;

	for (i = 0; i < sel->n; i++)
		for (j = i + 1; j < sel->n; j++)
			if (!strcmp(case_key(&sel->v[i], x, a, sizeof(a)),
				    case_key(&sel->v[j], x, b, sizeof(b))) &&
			    strcmp(case_key(&sel->v[i], p, c, sizeof(c)),
				   case_key(&sel->v[j], p, d, sizeof(d))))
				return 0;
	return 1;
}

static size_t drop_tied(const struct rsel *sel, const char *x,
			const char **keys, size_t nk)
{
	size_t i, k = 1;

	for (i = 1; i < nk; i++)
		if (!tied_to(sel, x, keys[i]))
			keys[k++] = keys[i];
	return k;
}

/* The keys naming the lines (--lines, else the label and the params
 * that vary besides x and do not follow it), then x; the count. */
static size_t line_keys(const struct ropts *c, const struct rsel *sel,
			const char *x, const char **keys)
{
	const char *excl[3] = {x, NULL, NULL};
	size_t nk = 0;

	if (c->nlines) {
		memcpy(keys, c->lines, c->nlines * sizeof(*keys));
		nk = c->nlines;
	} else {
		keys[nk++] = "label";
		nk += sel_varying(sel, excl, keys + nk, RPT_MAX_KEYS - 1 - nk);
		nk = drop_tied(sel, x, keys, nk);
	}
	keys[nk++] = x;
	return nk;
}

/* The error bar of a point, as --errors asks. */
static double error_bar(const struct ropts *c, const struct cellv *v)
{
	double e = NAN;

	if (v->n > 1 && isfinite(v->sd))
		e = c->err == ERR_SD ? v->sd
		    : c->err == ERR_CI95
			    ? stats_t_quantile(0.95, (double)v->n - 1) * v->sd /
				      sqrt((double)v->n)
			    : 0;
	return isfinite(e) ? e : 0;
}

/* What the points drew on: runs per point and transcribed figures. */
struct plot_runs {
	size_t nmin, nmax;
	int transcribed;
};

/* Write the data blocks (one per series); fills pd and pr. 0 or -1. */
static int write_points(const struct ropts *c, const struct rsel *sel,
			const char *x, FILE *f, struct plot_data *pd,
			struct plot_runs *pr)
{
	const char *keys[RPT_MAX_KEYS];
	size_t nk = line_keys(c, sel, x, keys), r, k;
	char prev[1024] = "", cur[1024];
	struct rgroups g;

	grp_build(sel, keys, nk, &g);
	for (r = 0; r < g.n; r++) {
		struct cellv v;
		double xv = strtod(g.g[r].vals[nk - 1], NULL);

		cell_value(g.g[r].cases, g.g[r].n, c->metric, c->stat, NULL,
			   NULL, &v);
		if (!v.ok || !(xv > 0))
			continue;
		cur[0] = 0;
		for (k = 0; k + 1 < nk; k++)
			snprintf(cur + strlen(cur), sizeof(cur) - strlen(cur),
				 "%s%s", k ? " " : "", g.g[r].vals[k]);
		if (strcmp(cur, prev)) {
			if (pd->nseries == 64)
				break;
			if (pd->nseries)
				fprintf(f, "\n\n");
			snprintf(pd->series[pd->nseries++], 256, "%s", cur);
			snprintf(prev, sizeof(prev), "%s", cur);
		}
		fprintf(f, "%.17g %.17g %.17g\n", xv, v.v, error_bar(c, &v));
		pr->nmin = v.n < pr->nmin ? v.n : pr->nmin;
		pr->nmax = v.n > pr->nmax ? v.n : pr->nmax;
		for (k = 0; k < g.g[r].n; k++)
			pr->transcribed |= g.g[r].cases[k]->doc->transcribed;
	}
	grp_free(&g);
	return pd->nseries ? 0 : -1;
}

/* The title: tool, metric, statistic, runs (which of a pair), error
 * bars, meter; and the y label. */
static void plot_title(const struct ropts *c, const struct rl_set *s,
		       const struct rsel *sel, const struct plot_runs *pr,
		       struct plot_data *pd)
{
	const char *meter = NULL, *side = "local", *kind = "";
	unsigned kinds = 0;
	char runs[64];
	size_t r;

	if (!strncmp(c->metric, "cpu_remote", 10))
		side = "remote";
	for (r = 0; r < sel->n; r++) {
		if (!meter)
			meter = case_meter(sel->v[r].kase, side);
		kinds |= case_runs(sel->v[r].kase, c->metric);
	}
	/* paired runs: which of the pair the figures are */
	if (kinds == RUN_UNMETERED)
		kind = "unmetered ";
	else if (kinds == RUN_METERED)
		kind = "metered ";
	if (pr->nmin == pr->nmax)
		snprintf(runs, sizeof(runs), "%zu %srun%s", pr->nmin, kind,
			 pr->nmin == 1 ? "" : "s");
	else
		snprintf(runs, sizeof(runs), "%zu-%zu %sruns", pr->nmin,
			 pr->nmax, kind);
	snprintf(pd->title, sizeof(pd->title), "%s %s: %s of %s%s, meter %s%s",
		 sel->v[0].doc->tool, c->metric,
		 stat_name(&sel->v[0], c->metric, c->stat), runs,
		 c->err == ERR_SD     ? " +- sd"
		 : c->err == ERR_CI95 ? " +- ci95"
				      : "",
		 meter ? meter : "none",
		 pr->transcribed ? " (transcribed)" : "");
	snprintf(pd->ylabel, sizeof(pd->ylabel), "%s (%s)", c->metric,
		 rl_unit(s, c->metric));
}

/* The cases to plot and the x param: 0, or 2 (said why). */
static int plot_select(const struct ropts *c, const struct rl_set *s,
		       struct rsel *sel, const char **x)
{
	const char *need[2] = {c->metric, NULL};
	struct rfilter f = {.tool = c->tool,
			    .where = c->where,
			    .nwhere = c->nwhere,
			    .need_metrics = need};

	sel_build(s, &f, sel);
	if (!sel->n) {
		char em[256], et[256];

		/* --tool may come from a document (scripts/main.d) */
		log_err("no cases with metric %s%s%s",
			esc_text(em, sizeof(em), c->metric),
			c->tool ? " from " : "",
			esc_text(et, sizeof(et), c->tool ? c->tool : ""));
		return 2;
	}
	if (!only_tool(sel))
		die_usage("plot: the input has several tools; choose one "
			  "with --tool");
	*x = c->x ? c->x : default_x(sel);
	if (!*x) {
		log_err("no size param to plot against; name one with --x");
		return 2;
	}
	return 0;
}

/* Both plots from the data file in dir: 0, 1 (gnuplot failed), or
 * 128 + a signal. */
static int draw(const struct ropts *c, const struct plot_data *pd,
		const char *x, const char *dir, const char *data)
{
	char png[4200], txt[4200];
	int r = 0;

	snprintf(png, sizeof(png), "%s.png", c->out);
	snprintf(txt, sizeof(txt), "%s.txt", c->out);
	if (c->png &&
	    gp_render(c, pd, x, dir, data,
		      "pngcairo size 960,600 noenhanced font 'sans,10'", png) &&
	    gp_render(c, pd, x, dir, data, "png size 960,600 noenhanced",
		      png)) {
		if (!sig_stop)
			log_err("gnuplot could not write %s (pngcairo and png "
				"failed; -v says why)",
				png);
		r = 1;
	}
	if (gp_render(c, pd, x, dir, data, "dumb size 72,20", txt) ||
	    gp_tidy_ascii(txt)) {
		if (!sig_stop)
			log_err("gnuplot could not write %s", txt);
		r = 1;
	}
	if (sig_stop) {
		log_err("stopped by signal %d: gnuplot ended, and the file it "
			"was writing removed",
			(int)sig_stop);
		return sig_exit_status();
	}
	if (!r && c->print)
		gp_print_file(txt);
	if (!r)
		printf("zcbreport plot: %s%s%s (%zu line%s)\n",
		       c->png ? png : "", c->png ? " and " : "", txt,
		       pd->nseries, pd->nseries == 1 ? "" : "s");
	return r;
}

/* The data into a temporary directory, the plots, the directory gone. */
static int plot(const struct ropts *c, const struct rl_set *s,
		const struct rsel *sel, const char *x)
{
	char dir[] = "/tmp/zcbplot.XXXXXX", data[4200];
	struct plot_runs pr = {(size_t)-1, 0, 0};
	struct plot_data pd = {0};
	FILE *df;
	int r;

	/* from here on a signal must not leave gnuplot or the files */
	sig_install();
	if (!mkdtemp(dir))
		die_errno("mkdtemp %s", dir);
	snprintf(data, sizeof(data), "%s/data", dir);
	df = fopen(data, "w");
	if (!df)
		die_errno("cannot write %s", data);
	r = write_points(c, sel, x, df, &pd, &pr);
	fclose(df);
	if (r) {
		log_err("no case has a positive %s and the metric %s", x,
			c->metric);
		r = 2;
	} else {
		plot_title(c, s, sel, &pr, &pd);
		r = draw(c, &pd, x, dir, data);
	}
	unlink(data);
	snprintf(data, sizeof(data), "%s/plot.gp", dir);
	unlink(data);
	rmdir(dir);
	return r;
}

int cmd_plot(int argc, char **argv)
{
	struct ropts c = {.out = "zcbplot",
			  .metric = "throughput_MBps",
			  .err = ERR_SD,
			  .stat = ST_AUTO,
			  .png = 1};
	struct rl_set s;
	struct rsel sel;
	const char *x;
	int r;

	ropt_parse(RC_PLOT, argc, argv, &c);
	plot_checks(&c);
	load_inputs(&s, c.paths, c.npaths);
	r = plot_select(&c, &s, &sel, &x);
	if (!r)
		r = plot(&c, &s, &sel, x);
	sel_free(&sel);
	rl_free(&s);
	return r;
}
