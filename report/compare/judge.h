/*
 * judge.h: the judging of a compare, and its words. cmpjudge.c matches
 * the cases of a baseline and a kernel into keys and picks the metrics;
 * cmprow.c makes a key's rows with their statistics and tests (cmpsumm.c
 * for published summaries); cmpverd.c runs Benjamini-Hochberg over every
 * row of the table at once and gives each row its verdict, and says the
 * verdicts in words for every printer.
 */
#ifndef ZCB_JUDGE_H
#define ZCB_JUDGE_H

#include "cmp.h"

/*
 * The rows of sel[0] (base) against sel[1] (a kernel), matched by tool
 * and params (without the split param): metrics of set base whose unit
 * new shares, a row per key and metric with its tests (cmpjudge.c). The
 * verdicts come after, over every kernel's rows at once.
 */
void cmp_judge_rows(const struct cmp_cfg *c, const struct res_pool *base,
		    const struct res_pool *new, const struct res_sel sel[2],
		    struct cmp_state *st);
void cmp_state_free(struct cmp_state *st);
/* A key's rows, one per compared metric (st->metrics) that both sides
 * have (cmprow.c). */
void cmp_key_rows(const struct cmp_cfg *c, const struct res_pool *s,
		  struct cmp_state *st, size_t ki);

/* Whether metric m of key k is, in every sample of its base side that
 * has both, the metric it may be an alias of (st->alias, set by
 * --judge primary): the figure compare folds into that one's row. The
 * nights' readers (plan --history, trend) skip it as compare does. */
int cmp_key_alias(const struct cmp_state *st, const struct ckey *k, size_t m);

/* What the rows of a key read of one side's cases, per metric. */
struct kfig {
	double *x; /* the samples' values, case by case */
	size_t n, cap;
	int *night; /* --history, the base side: each value's night */
	size_t ncap;
	double *probe; /* each value's sample's box probe (Mops; NAN: none) */
	size_t pcap;
	unsigned runs;	     /* RUN_* of the samples carrying it */
	int pub;	     /* a case's summary may be published figures */
	size_t same, differ; /* samples where its alias target (st->alias)
			      * has the same value, or another */
};

/* --history: the night (index into c->nights) a case came from, -1 for
 * none (cmphist.c). */
int cmp_night_of(const struct cmp_cfg *c, const struct res_pcase *rc);
/* --history and trend: every night's figure of the base side of key k
 * (f: its values, each with its night): each night that has the metric
 * gives its log figure m[] (a rate's hmean, else the mean; a latency
 * percentile's from that night's merged histograms) and its samples'
 * variance of the mean w[] (NAN from one sample), its night in which[]
 * (may be NULL); room for c->nnights each. Their count, or -EDOM (a
 * value <= 0: no log) (cmphist.c). */
int cmp_nights_figures(const struct cmp_cfg *c, const struct ckey *k,
		       const char *metric, int rate, const struct kfig *f,
		       double *m, double *w, int *which);
/* --history: judge row r of key k (f: the base's figures by night and
 * the new night's) against the nights' spread (cmphist.c, cmpnight.h). */
void cmp_history_row(const struct cmp_cfg *c, const struct ckey *k,
		     struct crow *r, int rate, const struct kfig f[2]);

/* --looks K > 1: the line that says how --alpha was spent over the
 * looks (a static buffer; cmpverd.c), else NULL. */
const char *cmp_looks_words(const struct cmp_cfg *c);

/* --history: the line under the tables that says how the rows were
 * judged (a static buffer; cmphist.c). */
const char *cmp_history_words(const struct cmp_cfg *c);

/* Benjamini-Hochberg over every row of nst states at once (an N-way
 * table is one family), then each row's verdict and the counts
 * (cmpverd.c). */
void cmp_verdicts(const struct cmp_cfg *c, const struct res_pool *s,
		  struct cmp_state *st, size_t nst);

/* A row's verdict. */
enum cmp_verdict {
	CV_REGRESSION,	 /* significant, large, in the bad direction */
	CV_IMPROVED,	 /* significant, large, in the good direction */
	CV_SAME,	 /* judged: no significant change above the threshold */
	CV_UNJUDGED,	 /* not judged: the row's note says why */
	CV_INCOMPARABLE, /* soaked against unsoaked runs: why says so */
};
enum cmp_verdict cmp_verdict(const struct crow *r);
/* A row's verdict in a word or two: "REGRESSION", "improved", "-" (no
 * significant change above the threshold), "not judged: ...", "not
 * comparable". */
const char *cmp_verdict_word(const struct crow *r);
/* "; N rows not judged: a computation failed" for a closing line, or
 * "" when failed is 0 (a static buffer). */
const char *cmp_failed_words(size_t failed);
/* With --judge primary, the line under the tables that says what was
 * judged, what is context and which rows were left out as aliases; with
 * --mann-whitney off, that the rank test did not run. NULL when neither
 * (a static buffer). */
const char *cmp_judge_words(const struct cmp_cfg *c, size_t context,
			    size_t aliases);

/* When a side of the row carries published summaries (n, mean, sd over
 * runs its samples do not list): both sides' n, mean, sd, cov and the
 * change into r (summ set), and 1; else 0 (cmpsumm.c). The caller asks
 * only when a case's summary n of metric exceeds its count of samples. */
int cmp_summary_row(const struct ckey *k, const char *metric, struct crow *r);
/* The cases' n, mean and sd of a metric, pooled: a
 * case's published summary when it covers more runs than its samples,
 * else its samples. 1 when a figure was published, 0 when all come
 * from samples, -1 when none has the metric (cmpsumm.c). */
int cmp_cases_fig(struct res_pcase *const *cs, size_t ncs, const char *metric,
		  double *n, double *mean, double *sd);

/* A row's statistic for the first column: "Hmean" (a rate's pooled
 * mean), "Amean", or "Hist" (a percentile of merged histograms). */
const char *cmp_stat_word(const struct res_pool *s, const struct crow *r);
/* The line under the tables for n rows of merged histograms, or NULL
 * when n is 0 (cmpmerge.c). */
const char *cmp_merged_words(size_t n);
/* The percentile a metric names (lat_p99_us: 99, lat_p999_us: 99.9;
 * metered_ too), or NAN (cmpmerge.c). */
double cmp_metric_percentile(const char *metric);
/* The percentile metric of the merged latency histograms of the samples
 * of a key's side that carry it, in us; NAN when it is no percentile or
 * a sample has no histogram (cmpmerge.c). */
double cmp_merged_percentile(const struct ckey *k, int side,
			     const char *metric);
/* The same over n cases (cmpmerge.c). */
double cmp_cases_percentile(struct res_pcase *const *cs, size_t n,
			    const char *metric);

/* zcbreport plan --history: c->o.paths are the nightly's nights; what
 * its verdict finds against them and what it would need (cmpplanh.c).
 * Exit code: 0, 2 on bad input. */
int cmp_plan_history(struct cmp_cfg *c);

#endif
