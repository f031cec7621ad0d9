/*
 * rsel.h: cases chosen out of loaded result documents (resload.h),
 * grouped into table rows in a stable order, and a metric summarized
 * over the cases of a row or a cell. What every table of the table
 * room (layouts, zcbreport's grid and compare) starts from.
 */
#ifndef ZCB_RSEL_H
#define ZCB_RSEL_H

#include "resload.h"

#include <jansson.h>
#include <stddef.h>

#define RPT_MAX_KEYS  16 /* key columns of a table */
#define RPT_MAX_WHERE 16 /* --where filters */

struct res_pcase {
	const struct res_pdoc *doc; /* the document it came from */
	json_t *kase;		  /* the case object (borrowed) */
	json_t *params;		  /* its params (borrowed) */
};

struct res_sel {
	struct res_pcase *v; /* selected cases, in document order */
	size_t n, cap;
};

/* What to select: a tool (NULL = any), PARAM=VALUE filters, params
 * and metrics every case must have (NULL-terminated lists or NULL). */
struct res_filter {
	const char *tool;
	const char *const *where; /* "op=read" */
	size_t nwhere;
	const char *const *need_params;
	const char *const *need_metrics;
};

void res_sel_build(const struct res_pool *s, const struct res_filter *f,
	       struct res_sel *out);
void res_sel_free(struct res_sel *sel);
/* Params whose values differ between the selected cases, except those
 * in exclude (NULL-terminated); returns the count put in out[]. */
size_t res_sel_varying(const struct res_sel *sel, const char *const *exclude,
		   const char **out, size_t max);
/* Whether the cases carry more than one label. */
int res_sel_labels_vary(const struct res_sel *sel);
/* Case key value: "label", "tool" or a param (text, "-" if absent). */
const char *res_case_key(const struct res_pcase *c, const char *key, char *buf,
		     size_t len);

struct res_group {
	char **vals;	      /* key values as text (owned) */
	struct res_pcase **cases; /* the cases of this row */
	size_t n, cap;
	double *rank; /* sort ranks per key */
};

struct res_groups {
	size_t nkeys;
	const char *keys[RPT_MAX_KEYS];
	struct res_group *g; /* sorted: labels in order of appearance,
			   * numbers ascending */
	size_t n, cap;
};

void res_grp_build(const struct res_sel *sel, const char *const *keys, size_t nkeys,
	       struct res_groups *out);
void res_grp_free(struct res_groups *g);

/* ST_AUTO (the default): the harmonic mean for a rate metric (pooled
 * bytes over pooled time, as the tools' own tables use),
 * the arithmetic mean otherwise. */
enum stat_kind { ST_AUTO, ST_MEAN, ST_MEDIAN, ST_HMEAN };

struct cellv {
	double v;  /* the statistic */
	double sd; /* standard deviation (NAN if n < 2) */
	size_t n;  /* samples behind it */
	int ok;	   /* 0: no value */
	int nonpos; /* no value: a harmonic mean over a sample (or a
		     * published mean) <= 0, which a rate cannot be */
};

/* A metric over cases: one case uses its summary (transcribed figures
 * live there), several pool their samples. Cases without the metric, or
 * not matching param=value (when param is not NULL), are left out. A
 * harmonic mean over a value <= 0 is no value (nonpos set), never the
 * arithmetic mean. */
void res_cell_value(struct res_pcase *const *cs, size_t n, const char *metric,
		enum stat_kind st, const char *param, const char *value,
		struct cellv *out);
/* The cases res_cell_value uses for a cell, into out (room for n; may be
 * NULL); returns their count. metric NULL: every case (param = value). */
size_t res_cell_cases(struct res_pcase *const *cs, size_t n, const char *metric,
		  const char *param, const char *value, struct res_pcase **out);
/* The statistic's name for a note or title; with c and metric, ST_AUTO
 * says which it became ("hmean" or "mean"). */
const char *res_stat_name(const struct res_pcase *c, const char *metric,
		      enum stat_kind st);
/* The first usable CPU meter of a case's samples for a side ("local",
 * "remote"...), or NULL. */
const char *res_case_meter(json_t *kase, const char *side);

#endif
