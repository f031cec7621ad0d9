/*
 * plot.h: zcbreport plot's parts: plot.c picks the cases and the x
 * axis and runs the rest; plotdata.c turns the cases into data blocks
 * (a sweep, or the ratio of two values of a key with its 95% interval)
 * and plotwords.c says it in words with units; gnuplot.c writes the
 * script for one terminal, runs gnuplot on it (bounded in time, ended
 * on a signal) and tidies the ASCII plot for a mail.
 */
#ifndef ZCB_PLOT_H
#define ZCB_PLOT_H

#include "ropts.h"
#include "rsel.h"

#include <stddef.h>
#include <stdio.h>

#define PLOT_MAX_SERIES 64

struct plot_data {
	char title[512];    /* "ttcp-sf: throughput by I/O size" */
	char subtitle[512]; /* statistic, runs, meter, kernel and host */
	char xlabel[128], ylabel[400];
	int logx, logy;	 /* log2 x (sizes), log10 y (spans decades) */
	int ratio;	 /* y is a ratio with its interval (columns 3, 4) */
	size_t nseries;
	char series[PLOT_MAX_SERIES][256]; /* line titles */
	/* what the points drew on */
	size_t nmin, nmax; /* runs per point */
	int transcribed;
	int no_interval; /* a ratio of single runs: no band */
	double ymin, ymax; /* positive y values */
};

/* The data blocks (one per series of at least two points) into f;
 * fills pd. 0, or -1 when no series has two points. */
int pd_sweep(const struct ropts *c, const struct res_sel *sel, const char *x,
	     FILE *f, struct plot_data *pd);
/* The same for the ratio B/A of c->ratio_key's values A and B. */
int pd_ratio(const struct ropts *c, const struct res_sel *sel, const char *x,
	     FILE *f, struct plot_data *pd);

/* Words (plotwords.c). A metric as a phrase, op (or NULL) in front of
 * throughput: "Read throughput"; with its unit: "Read throughput
 * (MB/s)", "CPU load, local (% of all CPUs)". */
void pw_metric(const char *metric, const char *op, char *buf, size_t len);
void pw_metric_label(const char *metric, const char *op, const char *unit,
		     char *buf, size_t len);
/* A param as an axis: "IO size (bytes)"; whether it is a size (log2). */
const char *pw_axis(const char *param, const char *tool);
int pw_size_param(const char *param);
/* A key's value in a legend: "48 clients", "IO size 4096", "sendfile". */
void pw_legend(const char *key, const char *value, char *buf, size_t len);

/* One plot of s (c: tool, metric, x or ratio) with gnuplot terminal
 * term into path, its title into title (plot.c, for zcbreport html):
 * 0; 1 gnuplot failed; 2 no such cases; 3 nothing to plot; quiet. */
int plot_file(const struct ropts *c, const struct res_pool *s, const char *term,
	      const char *path, char *title, size_t tlen);

/* Write a script drawing the data file (in dir) for terminal term into
 * output, and run gnuplot on it; 0, or -1 (-v says why). */
int gp_render(const struct ropts *c, const struct plot_data *pd,
	      const char *dir, const char *data, const char *term,
	      const char *output);
/* The script alone (what gp_render runs), for --script. */
void gp_write_script(FILE *f, const struct ropts *c,
		     const struct plot_data *pd, const char *data,
		     const char *term, const char *output);
/* The same into the file path (made or emptied), or die naming it. */
void gp_script_file(const char *path, const struct ropts *c,
		    const struct plot_data *pd, const char *data,
		    const char *term, const char *output);
/* The dumb terminal's output made fit for a mail; 0 or -1. */
int gp_tidy_ascii(const char *path);
/* A file to stdout. */
void gp_print_file(const char *path);

#endif
