/*
 * plot.h: zcbreport plot's parts: plot.c turns the cases into data
 * blocks and a title (struct plot_data); gnuplot.c writes the script
 * for one terminal, runs gnuplot on it (bounded in time, ended on a
 * signal) and tidies the ASCII plot for a mail.
 */
#ifndef ZCB_PLOT_H
#define ZCB_PLOT_H

#include "ropts.h"

#include <stddef.h>

struct plot_data {
	char title[512];
	char ylabel[128];
	size_t nseries;
	char series[64][256]; /* line titles */
};

/* Write a script drawing the data file (in dir) for terminal term into
 * output, and run gnuplot on it; 0, or -1 (-v says why). */
int gp_render(const struct ropts *c, const struct plot_data *pd, const char *x,
	      const char *dir, const char *data, const char *term,
	      const char *output);
/* The dumb terminal's output made fit for a mail; 0 or -1. */
int gp_tidy_ascii(const char *path);
/* A file to stdout. */
void gp_print_file(const char *path);

#endif
