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
/* The cases cell_value uses for a cell, into out (room for n; may be
 * NULL); returns their count. metric NULL: every case (param = value). */
size_t cell_cases(struct rcase *const *cs, size_t n, const char *metric,
		  const char *param, const char *value, struct rcase **out);
int parse_stat(const char *s, enum stat_kind *st);
/* The statistic's name for a note or title; with c and metric, ST_AUTO
 * says which it became ("hmean" or "mean"). */
const char *stat_name(const struct rcase *c, const char *metric,
		      enum stat_kind st);
int parse_format(const char *s, enum tbl_fmt *f);
/* The first usable CPU meter of a case's samples for a side ("local",
 * "remote"...), or NULL. */
const char *case_meter(json_t *kase, const char *side);

/*
 * Paired runs (paired.c; lib/cpu/meter.h, results/SCHEMA.md "Paired runs").
 * With the soak meter a case runs in pairs: a metered run (soakers on)
 * and an unmetered one; its figures are named by the run they describe,
 * and the case carries its perturbation (metered rate / unmetered rate).
 * The report marks every cell whose case ran perturbed (outside
 * 0.95-1.05) or with soakers on but unpaired (an older document,
 * `cyclesoak -- CMD`: its rate is a slowed one), footnotes it under the
 * table, and says which runs each kind of figure came from.
 */
#define RUN_METERED   1u /* a pair's metered run (soakers on) */
#define RUN_UNMETERED 2u /* a pair's unmetered run (soakers parked) */
#define RUN_SOAKED    4u /* unpaired, with soakers on (soak ok) */
#define RUN_PLAIN     8u /* unpaired, no soakers */
#define RUN_PAIRED    (RUN_METERED | RUN_UNMETERED)

/* What kind of run a sample was. */
unsigned sample_run(json_t *sample);
/* The kinds (RUN_* bits) of a case's samples carrying metric (NULL:
 * every sample). */
unsigned case_runs(json_t *kase, const char *metric);
/* Samples of a case that give its results: the unmetered ones of a
 * paired case, every one of an unpaired case. */
size_t case_result_runs(json_t *kase);
struct stats_ratio;
/* A case's perturbation into r; 0 when it has one, else -1. */
int case_perturbation(json_t *kase, struct stats_ratio *r);

#define FN_MAX_SRC 64 /* kinds of figure a table names */

struct fn_mark {
	size_t row, col; /* the cell marked */
	size_t note;	 /* its footnote */
};

struct fn_src {
	const char *what; /* "rates", "CPU", a metric */
	unsigned runs;	  /* RUN_* bits behind it */
};

/* The footnotes of one table, and where its figures come from. */
struct fnotes {
	char **text; /* distinct footnotes, in order of first mark */
	size_t n, cap;
	struct fn_mark *mark; /* cells marked */
	size_t nmark, capmark;
	struct fn_src src[FN_MAX_SRC];
	size_t nsrc;
};

void fn_init(struct fnotes *f);
void fn_free(struct fnotes *f);
#define FN_PERTURBED 1u /* mark a cell whose cases ran perturbed */
#define FN_SOAKED    2u /* mark a cell whose cases soaked unpaired */
#define FN_ANY	     (FN_PERTURBED | FN_SOAKED)
/*
 * Cell (row, col) shows metric over the cases of cs[0..n) that
 * cell_value picks (param = value when param is not NULL; metric NULL:
 * the row's cases, for a mark on the row): mark it when one of them ran
 * perturbed or soaked unpaired, as flags (FN_*) ask. A cell pooling
 * several cases says so in its footnote, with each case's ratio and the
 * worst in full. Returns 1 when marked.
 *
 * Where the marks go: a perturbation is about the soak CPU of the
 * metered runs, so it marks the CPU cells (the rate, from the unmetered
 * runs, when a table shows no CPU); an unpaired soaked run slowed every
 * figure of it, so it marks rate and CPU cells.
 */
int fn_cell(struct fnotes *f, size_t row, size_t col, struct rcase *const *cs,
	    size_t n, const char *metric, const char *param, const char *value,
	    unsigned flags);
/* The figures called `what` (kept, not copied) show metric of these
 * cases: remember which runs they came from, for fn_sources(). */
void fn_source(struct fnotes *f, const char *what, struct rcase *const *cs,
	       size_t n, const char *metric, const char *param,
	       const char *value);
/* Put the marks into t: "*" when the table has one footnote, else
 * "*1", "*2"... */
void fn_marks(const struct fnotes *f, struct tbl *t);
/* A line under a table, in fmt's form (Markdown: a paragraph of its
 * own, after a blank line, so it does not become a row). */
void fn_note(enum tbl_fmt fmt, const char *text);
/* The footnotes, each after its mark. */
void fn_footnotes(const struct fnotes *f, enum tbl_fmt fmt);
/* When paired cases are in the table: which runs each kind of figure
 * came from ("(paired runs: rates from the unmetered runs; CPU from the
 * metered runs of the same pairs)"). */
void fn_sources(const struct fnotes *f, enum tbl_fmt fmt);

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
