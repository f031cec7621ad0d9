/*
 * report.h: what zcbreport's parts share beyond the table room
 * (lib/table: documents, cases, tables, footnotes and the seed
 * layouts): loading the inputs, the host diff, the generic grid and
 * the subcommands.
 */
#ifndef ZCB_REPORT_H
#define ZCB_REPORT_H

#include "fnotes.h"
#include "layout.h"
#include "paired.h"
#include "resload.h"
#include "rsel.h"
#include "tbl.h"

#include <jansson.h>
#include <stddef.h>

/* Load every path into s; names each refused file on stderr (escaped),
 * warns of wrong summaries, and says what was skipped with -v
 * (load.c). */
void load_inputs(struct res_pool *s, char *const *paths, int n);

/* Print the host facts that differ between two selections (hostdiff.c). */
void print_host_diff(const struct res_sel *base, const struct res_sel *new);
/* The same facts one by one: fact(ctx, name, base's values, new's) for
 * each that differs (all escaped); the facts unknown on both sides into
 * unknown (ulen 0: not wanted). Returns how many differ. */
size_t host_diff_each(const struct res_sel *base, const struct res_sel *new,
		      void (*fact)(void *ctx, const char *name, const char *a,
				   const char *b),
		      void *ctx, char *unknown, size_t ulen);

/* The subcommands (main.c's table): each parses its options with its
 * row of the table (ropts.h), runs and returns the exit status. */
struct rcmd;
int cmd_table(const struct rcmd *self, int argc, char **argv);
int cmd_compare(const struct rcmd *self, int argc, char **argv);
int cmd_plot(const struct rcmd *self, int argc, char **argv);
int cmd_html(const struct rcmd *self, int argc, char **argv);
int cmd_plan(const struct rcmd *self, int argc, char **argv);
int cmd_trend(const struct rcmd *self, int argc, char **argv);

struct grid_opts {
	const char *tool;
	const char *rows[RPT_MAX_KEYS]; /* row keys; none = label + varying */
	size_t nrows;
	const char *cols;	 /* param whose values become columns */
	const char *metrics[32]; /* metrics; none = all */
	size_t nmetrics;
	int show_sd; /* append +- stddev */
};
int grid_print(const struct res_pool *s, const struct layout_opts *o,
	       const struct grid_opts *g);

#endif
