/*
 * report.h: what zcbreport's parts share: selecting cases from loaded
 * documents, grouping them into rows, summarizing a metric over a group,
 * and the subcommands (table, compare, plot).
 */
#ifndef ZCB_REPORT_H
#define ZCB_REPORT_H

#include "resload.h"
#include "table.h"

#include <jansson.h>
#include <stddef.h>

#define RPT_MAX_KEYS  16 /* key columns of a table */
#define RPT_MAX_WHERE 16 /* --where filters */

struct rcase {
	const struct rl_doc *doc; /* the document it came from */
	json_t *kase;		  /* the case object (borrowed) */
	json_t *params;		  /* its params (borrowed) */
};

struct rsel {
	struct rcase *v; /* selected cases, in document order */
	size_t n, cap;
};

/* What to select: a tool (NULL = any), PARAM=VALUE filters, params
 * and metrics every case must have (NULL-terminated lists or NULL). */
struct rfilter {
	const char *tool;
	const char *const *where; /* "op=read" */
	size_t nwhere;
	const char *const *need_params;
	const char *const *need_metrics;
};

void sel_build(const struct rl_set *s, const struct rfilter *f,
	       struct rsel *out);
void sel_free(struct rsel *sel);
/* Params whose values differ between the selected cases, except those
 * in exclude (NULL-terminated); returns the count put in out[]. */
size_t sel_varying(const struct rsel *sel, const char *const *exclude,
		   const char **out, size_t max);
/* Whether the cases carry more than one label. */
int sel_labels_vary(const struct rsel *sel);
/* Case key value: "label", "tool" or a param (text, "-" if absent). */
const char *case_key(const struct rcase *c, const char *key, char *buf,
		     size_t len);

struct rgroup {
	char **vals;	      /* key values as text (owned) */
	struct rcase **cases; /* the cases of this row */
	size_t n, cap;
	double *rank; /* sort ranks per key */
};

struct rgroups {
	size_t nkeys;
	const char *keys[RPT_MAX_KEYS];
	struct rgroup *g; /* sorted: labels in order of appearance,
			   * numbers ascending */
	size_t n, cap;
};

void grp_build(const struct rsel *sel, const char *const *keys, size_t nkeys,
	       struct rgroups *out);
void grp_free(struct rgroups *g);

/* ST_AUTO (the default): the harmonic mean for a rate metric (pooled
 * bytes over pooled time, as DESIGN.md and the tools' own tables use),
 * the arithmetic mean otherwise. */
enum stat_kind { ST_AUTO, ST_MEAN, ST_MEDIAN, ST_HMEAN };

struct cellv {
	double v;  /* the statistic */
	double sd; /* standard deviation (NAN if n < 2) */
	size_t n;  /* samples behind it */
	int ok;	   /* 0: no value */
};

/* A metric over cases: one case uses its summary (transcribed figures
 * live there), several pool their samples. Cases without the metric, or
 * not matching param=value (when param is not NULL), are left out. */
void cell_value(struct rcase *const *cs, size_t n, const char *metric,
		enum stat_kind st, const char *param, const char *value,
		struct cellv *out);
int parse_stat(const char *s, enum stat_kind *st);
/* The statistic's name for a note or title; with c and metric, ST_AUTO
 * says which it became ("hmean" or "mean"). */
const char *stat_name(const struct rcase *c, const char *metric,
		      enum stat_kind st);
int parse_format(const char *s, enum tbl_fmt *f);
/* The first usable CPU meter of a case's samples for a side ("local",
 * "remote"...), or NULL. */
const char *case_meter(json_t *kase, const char *side);

/* Load every path into s; names each refused file on stderr (escaped),
 * warns of wrong summaries, and says what was skipped with -v. */
void load_inputs(struct rl_set *s, char *const *paths, int n);

/* Print the host facts that differ between two selections (hostdiff.c). */
void print_host_diff(const struct rsel *base, const struct rsel *new);

int cmd_table(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);

/* Layouts (layouts.c). */
struct layout_opts {
	enum tbl_fmt fmt;
	enum stat_kind stat;
	const char *const *where;
	size_t nwhere;
	int all; /* "--layout all": skip quietly with a note */
};
/* Print a named layout; 0 printed, 1 nothing to print (note written),
 * -1 unknown name. */
int layout_print(const char *name, const struct rl_set *s,
		 const struct layout_opts *o);
/* The layout names, NULL-terminated. */
extern const char *const layout_names[];

struct grid_opts {
	const char *tool;
	const char *rows[RPT_MAX_KEYS]; /* row keys; none = label + varying */
	size_t nrows;
	const char *cols;	 /* param whose values become columns */
	const char *metrics[32]; /* metrics; none = all */
	size_t nmetrics;
	int show_sd; /* append +- stddev */
};
int grid_print(const struct rl_set *s, const struct layout_opts *o,
	       const struct grid_opts *g);

#endif
