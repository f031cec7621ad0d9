/*
 * plot.c: zcbreport plot: a metric against the size param that varies
 * (log2 x axis), or the client count; one line per label/method, error
 * bars of the spread; or (--ratio) the ratio B/A of two values of a key
 * with its 95% interval band (plotdata.c). Drawn by gnuplot (gnuplot.c)
 * as a PNG (pngcairo, else png) and as ASCII (dumb terminal, 72 columns,
 * the legend under the plot) for a plain-text mail; titles, axes and
 * legends in words with units (plotwords.c), the kernel and host in a
 * subtitle, a log y axis when the data spans decades. Nothing varies,
 * or no line has two points: nothing is drawn (exit 3).
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

/* plot_file: nothing to plot is an answer, not an error to print */
static int quiet;
#define say(...)                                                               \
	do {                                                                   \
		if (!quiet)                                                    \
			log_err(__VA_ARGS__);                                  \
	} while (0)

#define PNG_TERM "pngcairo size 960,640 noenhanced font 'sans,10'"

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
static const char *only_tool(const struct res_sel *sel)
{
	size_t i;

	for (i = 1; i < sel->n; i++)
		if (strcmp(sel->v[i].doc->tool, sel->v[0].doc->tool))
			return NULL;
	return sel->n ? sel->v[0].doc->tool : NULL;
}

/* Whether param p takes two or more positive values in sel. */
static int varies(const struct res_sel *sel, const char *p)
{
	double first = NAN, v;
	size_t i;

	for (i = 0; i < sel->n; i++) {
		v = res_param_num(sel->v[i].params, p);
		if (!(v > 0))
			continue;
		if (isnan(first))
			first = v;
		else if (v != first)
			return 1;
	}
	return 0;
}

/* The x axis: the first of the size params (then the client count)
 * that varies; NULL when none does (nothing to plot). */
static const char *default_x(const struct res_sel *sel)
{
	static const char *const xs[] = {
		"size",		  "iosize",  "rsize", "wsize",
		"bytes_per_loop", "clients", "users", NULL};
	int k;

	for (k = 0; xs[k]; k++)
		if (varies(sel, xs[k]))
			return xs[k];
	return NULL;
}

/* The op every case shares ("read"), else NULL. */
static const char *shared_op(const struct res_sel *sel)
{
	const char *op = NULL, *o;
	size_t i;

	for (i = 0; i < sel->n; i++) {
		o = json_string_value(json_object_get(sel->v[i].params, "op"));
		if (!o || (op && strcmp(op, o)))
			return NULL;
		op = o;
	}
	return op;
}

/* "kernel 6.18 on host h", or "kernels 6.1, 6.2 on hosts a, b". */
static void kernels_hosts(const struct res_sel *sel, char *buf, size_t len)
{
	json_t *k = json_object(), *h = json_object(), *host, *v;
	const char *name, *what[2] = {"kernel_release", "hostname"};
	size_t i, n;
	int w;

	for (i = 0; i < sel->n; i++) {
		host = json_object_get(sel->v[i].doc->root, "host");
		for (w = 0; w < 2; w++) {
			name = json_string_value(
				json_object_get(host, what[w]));
			if (name && *name)
				json_object_set_new(w ? h : k, name,
						    json_true());
		}
	}
	buf[0] = 0;
	for (w = 0; w < 2; w++) {
		json_t *set = w ? h : k;

		if (!json_object_size(set))
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s%s ",
			 w ? " on " : "", w ? "host" : "kernel",
			 json_object_size(set) > 1 ? "s" : "");
		n = 0;
		json_object_foreach(set, name, v) if (n++ < 3)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 n > 1 ? ", " : "", name);
		if (n > 3)
			snprintf(buf + strlen(buf), len - strlen(buf),
				 " and %zu more", n - 3);
	}
	json_decref(k);
	json_decref(h);
}

/* The words of the plot: title, subtitle (statistic, runs, meter,
 * kernel and host), axes; and whether y spans decades. */
static void plot_words(const struct ropts *c, const struct res_pool *s,
		       const struct res_sel *sel, const char *x,
		       struct plot_data *pd)
{
	const char *meter = NULL, *side = "local", *kind = "", *ax;
	char runs[64], metric[256], kh[300], xw[128];
	unsigned kinds = 0;
	size_t r;

	if (!strncmp(c->metric, "cpu_remote", 10))
		side = "remote";
	for (r = 0; r < sel->n; r++) {
		if (!meter)
			meter = res_case_meter(sel->v[r].kase, side);
		kinds |= res_case_runs(sel->v[r].kase, c->metric);
	}
	/* paired runs: which of the pair the figures are */
	if (kinds == RUN_UNMETERED)
		kind = "unmetered ";
	else if (kinds == RUN_METERED)
		kind = "metered ";
	if (pd->nmin == pd->nmax)
		snprintf(runs, sizeof(runs), "%zu %srun%s", pd->nmin, kind,
			 pd->nmin == 1 ? "" : "s");
	else
		snprintf(runs, sizeof(runs), "%zu-%zu %sruns", pd->nmin,
			 pd->nmax, kind);
	ax = pw_axis(x, sel->v[0].doc->tool);
	snprintf(xw, sizeof(xw), "%.*s", (int)strcspn(ax, "("), ax);
	if (xw[0] && xw[strlen(xw) - 1] == ' ')
		xw[strlen(xw) - 1] = 0;
	/* "by buffer size", but "by IO size" */
	if (xw[0] >= 'A' && xw[0] <= 'Z' && xw[1] >= 'a' && xw[1] <= 'z')
		xw[0] |= 0x20;
	pw_metric(c->metric, shared_op(sel), metric, sizeof(metric));
	kernels_hosts(sel, kh, sizeof(kh));
	snprintf(pd->xlabel, sizeof(pd->xlabel), "%s", ax);
	pd->logx = pw_size_param(x);
	if (pd->ratio) {
		snprintf(pd->title, sizeof(pd->title), "%s: %s, %s / %s, by %s",
			 sel->v[0].doc->tool, metric, c->ratio_b, c->ratio_a,
			 xw);
		snprintf(pd->ylabel, sizeof(pd->ylabel), "%s ratio, %s / %s",
			 metric, c->ratio_b, c->ratio_a);
		snprintf(pd->subtitle, sizeof(pd->subtitle),
			 "means of %s%s, %s%s%s", runs,
			 pd->transcribed ? " (transcribed)" : "",
			 pd->no_interval ? "single runs have no interval"
					 : "band: 95% interval",
			 kh[0] ? "; " : "", kh);
		return;
	}
	snprintf(pd->title, sizeof(pd->title), "%s: %s by %s",
		 sel->v[0].doc->tool, metric, xw);
	pw_metric_label(c->metric, shared_op(sel), res_pool_unit(s, c->metric),
			pd->ylabel, sizeof(pd->ylabel));
	snprintf(pd->subtitle, sizeof(pd->subtitle),
		 "%s of %s%s, meter %s%s%s%s",
		 res_stat_name(&sel->v[0], c->metric, c->stat), runs,
		 c->err == ERR_SD     ? " +- sd"
		 : c->err == ERR_CI95 ? " +- ci95"
				      : "",
		 meter ? meter : "none",
		 pd->transcribed ? " (transcribed)" : "", kh[0] ? "; " : "",
		 kh);
	/* a sweep over decades: a log axis, else the small sizes sit on 0 */
	pd->logy = pd->ymin > 0 && pd->ymax / pd->ymin >= 30;
}

/* Only the cases with a place on the x axis: the others would split
 * the lines by params they alone vary. */
static void keep_on_axis(struct res_sel *sel, const char *x)
{
	size_t i, k = 0;

	for (i = 0; i < sel->n; i++)
		if (res_param_num(sel->v[i].params, x) > 0)
			sel->v[k++] = sel->v[i];
	sel->n = k;
}

/* The cases to plot and the x param: 0, 2 (bad input) or 3 (nothing
 * to plot), said why. */
static int plot_select(const struct ropts *c, const struct res_pool *s,
		       struct res_sel *sel, const char **x)
{
	const char *need[2] = {c->metric, NULL};
	struct res_filter f = {.tool = c->tool,
			    .where = c->where,
			    .nwhere = c->nwhere,
			    .need_metrics = need};
	char em[256], et[256];

	res_sel_build(s, &f, sel);
	if (!sel->n) {
		/* --tool may come from a document (scripts/main.d) */
		say("no cases with metric %s%s%s",
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
		say("nothing to plot for %s: no size or client count "
		    "varies (name an axis with --x)",
		    esc_text(et, sizeof(et), sel->v[0].doc->tool));
		return 3;
	}
	keep_on_axis(sel, *x);
	if (!sel->n) {
		say("nothing to plot for %s: no case has a positive %s",
		    esc_text(et, sizeof(et), c->tool ? c->tool : ""), *x);
		return 3;
	}
	return 0;
}

/* --script: the PNG's script and its data beside the plots, the
 * script naming the data and the image by their base names. */
static void keep_script(const struct ropts *c, const struct plot_data *pd,
			const char *data)
{
	char gp[4200], dat[4200], png[4200], cmd[64];
	const char *base = strrchr(c->out, '/');
	FILE *f, *in;
	size_t n;

	base = base ? base + 1 : c->out;
	snprintf(gp, sizeof(gp), "%s.gp", c->out);
	snprintf(dat, sizeof(dat), "%s.dat", base);
	snprintf(png, sizeof(png), "%s.png", base);
	gp_script_file(gp, c, pd, dat, PNG_TERM, png);
	snprintf(dat, sizeof(dat), "%s.dat", c->out);
	in = fopen(data, "r");
	f = fopen(dat, "w");
	if (!in || !f)
		die_errno("cannot write %s", dat);
	while ((n = fread(cmd, 1, sizeof(cmd), in)))
		fwrite(cmd, 1, n, f);
	fclose(in);
	if (fclose(f))
		die_errno("cannot write %s", dat);
}

/* Both plots from the data file in dir: 0, 1 (gnuplot failed), or
 * 128 + a signal. */
static int draw(const struct ropts *c, const struct plot_data *pd,
		const char *dir, const char *data)
{
	char png[4200], txt[4200], dumb[64];
	int r = 0;

	snprintf(png, sizeof(png), "%s.png", c->out);
	snprintf(txt, sizeof(txt), "%s.txt", c->out);
	/* 20 lines of plot, the legend under it a line per series */
	snprintf(dumb, sizeof(dumb), "dumb size 72,%zu", 22 + pd->nseries);
	if (c->png && gp_render(c, pd, dir, data, PNG_TERM, png) &&
	    gp_render(c, pd, dir, data, "png size 960,640 noenhanced", png)) {
		if (!sig_stop)
			log_err("gnuplot could not write %s (pngcairo and png "
				"failed; -v says why)",
				png);
		r = 1;
	}
	if (gp_render(c, pd, dir, data, dumb, txt) || gp_tidy_ascii(txt)) {
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
	if (!r && c->script)
		keep_script(c, pd, data);
	if (!r && c->print)
		gp_print_file(txt);
	if (!r)
		printf("zcbreport plot: %s%s%s (%zu line%s)\n",
		       c->png ? png : "", c->png ? " and " : "", txt,
		       pd->nseries, pd->nseries == 1 ? "" : "s");
	return r;
}

/* Where a plot goes: draw()'s PNG and text (term NULL), or one file. */
struct plot_to {
	const char *term, *path;
	char *title; /* the plot's title (plot_file) */
	size_t tlen;
};

/* The data into a temporary directory, the plots, the directory gone. */
static int plot(const struct ropts *c, const struct res_pool *s,
		const struct res_sel *sel, const char *x, const struct plot_to *to)
{
	char dir[] = "/tmp/zcbplot.XXXXXX", data[4200], et[256];
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
	r = c->ratio ? pd_ratio(c, sel, x, df, &pd)
		     : pd_sweep(c, sel, x, df, &pd);
	fclose(df);
	if (r) {
		say("nothing to plot for %s: no line has two points with "
		    "a positive %s%s",
		    esc_text(et, sizeof(et), sel->v[0].doc->tool), x,
		    c->ratio ? " and both sides of the ratio" : "");
		r = 3;
	} else {
		plot_words(c, s, sel, x, &pd);
		if (!to->term)
			r = draw(c, &pd, dir, data);
		else if (gp_render(c, &pd, dir, data, to->term, to->path))
			r = sig_stop ? sig_exit_status() : 1;
		if (to->title)
			snprintf(to->title, to->tlen, "%s", pd.title);
	}
	unlink(data);
	snprintf(data, sizeof(data), "%s/plot.gp", dir);
	unlink(data);
	rmdir(dir);
	return r;
}

/* --ratio KEY=A,B taken apart. */
static void ratio_checks(struct ropts *c)
{
	char *eq, *comma;

	if (!c->ratio)
		return;
	eq = strchr(c->ratio, '=');
	comma = eq ? strchr(eq, ',') : NULL;
	if (!eq || !comma || eq == c->ratio || comma == eq + 1 || !comma[1] ||
	    strchr(comma + 1, ','))
		die_usage("--ratio: \"%s\" is not KEY=A,B", c->ratio);
	*eq = *comma = 0;
	c->ratio_key = c->ratio;
	c->ratio_a = eq + 1;
	c->ratio_b = comma + 1;
	if (esc_needed(c->ratio_a) || esc_needed(c->ratio_b))
		die_usage("--ratio: control characters in a value");
}

int cmd_plot(const struct rcmd *self, int argc, char **argv)
{
	struct ropts c = {.out = "zcbplot",
			  .metric = "throughput_MBps",
			  .err = ERR_SD,
			  .stat = ST_AUTO,
			  .png = 1};
	struct res_pool s;
	struct res_sel sel;
	const char *x;
	int r;

	ropt_parse(self, argc, argv, &c);
	plot_checks(&c);
	ratio_checks(&c);
	load_inputs(&s, c.paths, c.npaths);
	r = plot_select(&c, &s, &sel, &x);
	if (!r)
		r = plot(&c, &s, &sel, x, &(struct plot_to){0});
	res_sel_free(&sel);
	res_pool_free(&s);
	return r;
}

int plot_file(const struct ropts *c, const struct res_pool *s, const char *term,
	      const char *path, char *title, size_t tlen)
{
	struct plot_to to = {term, path, title, tlen};
	int level = log_level, r;
	struct res_sel sel;
	const char *x;

	/* nothing to plot is an answer here, not an error */
	log_level = LOG_QUIET;
	quiet = 1;
	r = plot_select(c, s, &sel, &x);
	if (!r)
		r = plot(c, s, &sel, x, &to);
	quiet = 0;
	log_level = level;
	res_sel_free(&sel);
	return r;
}
