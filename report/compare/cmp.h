/*
 * cmp.h: what a compare is made of, shared by its parts (no code): the
 * options (struct cmp_cfg); the case keys matched across a baseline and
 * one kernel, and the rows the judging fills (struct cmp_state, one per
 * kernel); and the table of a baseline against nk kernels they make
 * together (struct cmp_multi, a row of it struct mrow). Two-sided
 * compare is that table with one kernel.
 *
 *   compare.c   zcbreport compare: the inputs, the one format switch
 *   cmpin.c     the inputs: load, name, judge every kernel (cmpin.h)
 *   judge.h     the judging: keys and metrics (cmpjudge.c), rows and
 *               tests (cmprow.c, cmpsumm.c, cmpstats.c), verdicts and
 *               their words (cmpverd.c)
 *   cmpprint.h  the printers: mmtests' two-sided text (cmptext.c), the
 *               N-kernel table in text, markdown or csv (cmptable.c),
 *               its JSON document (cmpjson.c); the table's rows
 *               (cmprows.c), the perturbation block (cmppert.c), what
 *               changed with a flagged row (cmpexplain.c)
 *   cmpplan.c   zcbreport plan: the runs a change needs (cmpstats.c);
 *               cmpplanh.c its --history: what the nightly finds
 *               against its nights (cmpnight.h's cmp_night_plan)
 *   cmpnights.h nights given a path each, for trend and plan --history
 */
#ifndef ZCB_CMP_H
#define ZCB_CMP_H

#include "cmpnight.h"
#include "cmpstats.h"
#include "report.h"
#include "ropts.h"
#include "stats.h"

struct cmp_cfg {
	struct ropts o; /* the options (threshold, alpha, --paired...) */
	const char *split_param, *split_a, *split_b; /* --split P=A,B */
	const struct res_pool *nights; /* --history: the baseline's nights,
					* oldest first (cmpin.c) */
	size_t nnights;
};

/*
 * The judging options' defaults, which compare, html and plan share (the
 * usage in ropts.c names them): changes from 2% flagged, significance 0.05
 * after Benjamini-Hochberg, a baseline noisier than 25% or with fewer
 * than 3 samples a side not judged. For struct ropts' initialiser.
 */
#define CMP_DEFAULT_OPTS                                                       \
	.threshold = 2, .alpha = 0.05, .max_cov = 25, .min_n = 3, .looks = 1

/* One case key: its cases on each side. */
struct ckey {
	char *name;	     /* "ttcp-sf method=sendfile size=65536" */
	struct res_pcase **c[2]; /* cases of base [0] and new [1] */
	size_t n[2], cap[2];
	struct stats_ratio pert[2]; /* each side's worst perturbation */
	size_t npert[2];	    /* its cases with a perturbation */
	const char *pert_by[2];	    /* the worst one's metered runs' meter:
				     * "soak" or "profile" */
};

/* One row: a key and a metric, judged. */
struct crow {
	size_t key; /* index into keys */
	const char *metric;
	double v[2], cov[2]; /* statistic and cov of each side */
	size_t n[2];
	double change;		/* percent, new against base */
	struct cmp_result t, u; /* t-test and rank test */
	int have_t, have_u;
	double q;	  /* BH-adjusted p of the t-test */
	const char *note; /* why not judged, or the verdict */
	char why[160];	  /* not comparable: why (else "") */
	int flag;	  /* a regression */
	int improved;	  /* significant and large, in the good direction */
	int summ;	  /* judged from published summaries (cmpsumm.c) */
	double mde;	  /* judged: the smallest change, percent, it could
			   * have flagged (90% power; threshold; noise) */
	double sd[2];	  /* with summ: each side's standard deviation */
	int failed;	  /* not judged: a computation failed (GSL refused
			   * its arguments); note names it */
	int hist;	  /* --history: judged against the nights (night) */
	struct cmp_night night; /* with hist: the nights' figures */
	double probe_b;	  /* with hist: the slope its figures were adjusted
			   * for the box probe by (cmpprobe.h), NAN: not */
	int merged;	  /* a latency percentile: v is that of each side's
			   * merged histograms (cmpmerge.c), the tests
			   * are on the runs' own */
	int context;	  /* --judge primary: not a primary metric of the
			   * tool, shown and not judged */
	char text[240];	  /* a note made for the row (note points here) */
};

/* What the judging found. */
struct cmp_state {
	struct ckey *keys;
	size_t nkeys, capkeys;
	json_t *index; /* key string -> index */
	struct crow *rows;
	size_t nrows, caprows;
	size_t only[2];		  /* keys seen on one side only */
	size_t incomparable;	  /* rows of soaked against unsoaked runs */
	size_t flagged;		  /* regressions */
	size_t judged;		  /* rows with a test */
	size_t failed;		  /* rows whose computation failed (GSL) */
	size_t nbad;		  /* metrics refused (units differ) */
	size_t context;		  /* --judge primary: rows shown, not judged */
	size_t aliases;		  /* --judge primary: rows left out, the same
				   * figure as another metric's */
	const char *metrics[256]; /* compared, in order */
	int alias[256];		  /* --judge primary: the index of the metric
				   * each may be an alias of, else -1 */
	double alias_k[256];	  /* and how: 0 the same number, else the
				   * product of the two (reciprocals) */
	size_t nmetrics;
};

/* compare --judge (ropts.judge): every metric, or each tool's primary
 * ones (lib/doc/primary.h) with the rest as context. */
enum cmp_judge { CJ_ALL, CJ_PRIMARY };
/* compare --mann-whitney (ropts.mw): a flag needs the rank test too
 * where it runs, or Welch's q alone. */
enum cmp_mw { CMW_REQUIRE, CMW_OFF };

/* compare --format (ropts.cfmt): the first three are enum tbl_fmt's. */
enum cmp_fmt { CF_TEXT, CF_MARKDOWN, CF_CSV, CF_JSON };

#define CMP_MAX_KERNELS 64 /* NEW columns of one compare */

/* A baseline against nk kernels: st[k] judged base against kernel k,
 * the verdicts over every row of every st at once (cmp_verdicts). */
struct cmp_multi {
	size_t nk;
	struct cmp_state *st;	/* [nk] */
	const char *base;	/* the baseline's label */
	const char **labels;	/* [nk] each kernel's label */
	const struct res_pool *s; /* the base set: units, better, rates */
};

/* One row of the N-kernel table: a case and metric, a cell per kernel. */
struct mrow {
	const char *metric, *name;
	const struct crow *cell[CMP_MAX_KERNELS]; /* NULL: not in kernel k */
};

/* The first cell of a row that a kernel has (the baseline's figures when
 * it has them), or NULL. */
static inline const struct crow *cmp_first_cell(const struct mrow *r,
						size_t nk)
{
	size_t k;

	for (k = 0; k < nk; k++)
		if (r->cell[k])
			return r->cell[k];
	return NULL;
}

#endif
