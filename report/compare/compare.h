/*
 * compare.h: zcbreport compare's parts: the judging (cmpjudge.c, its
 * rows cmprow.c, its verdicts and their words cmpverd.c) fills a struct
 * cmp_state with a row per case and metric, each with its statistics
 * and verdict; the printing (cmpprint.c) turns that into
 * mmtests' tables, the perturbation block and the closing line;
 * compare.c loads the two sides and runs both.
 */
#ifndef ZCB_COMPARE_H
#define ZCB_COMPARE_H

#include "cmpstats.h"
#include "report.h"
#include "ropts.h"
#include "stats.h"

struct cmp_cfg {
	struct ropts o; /* the options (threshold, alpha, --paired...) */
	const char *split_param, *split_a, *split_b; /* --split P=A,B */
};

/*
 * The judging options' defaults, which compare, html and plan share (the
 * usage in ropts.c names them): changes from 2% flagged, significance 0.05
 * after Benjamini-Hochberg, a baseline noisier than 25% or with fewer
 * than 3 samples a side not judged. For struct ropts' initialiser.
 */
#define CMP_DEFAULT_OPTS                                                       \
	.threshold = 2, .alpha = 0.05, .max_cov = 25, .min_n = 3

/* One case key: its cases on each side. */
struct ckey {
	char *name;	     /* "ttcp-sf method=sendfile size=65536" */
	struct rcase **c[2]; /* cases of base [0] and new [1] */
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
	const char *metrics[256]; /* compared, in order */
	size_t nmetrics;
};

/*
 * Judge the cases of sel[0] (base) against sel[1] (new), matched by
 * tool and params (without the split param): metrics of set base
 * whose unit new shares, rows, tests, Benjamini-Hochberg, verdicts.
 */
void cmp_judge(const struct cmp_cfg *c, const struct rl_set *base,
	       const struct rl_set *new, const struct rsel sel[2],
	       struct cmp_state *st);
/* cmp_judge in two steps: the rows and their tests; then
 * Benjamini-Hochberg over every row of nst states at once (an N-way
 * table is one family) and the verdicts. */
void cmp_judge_rows(const struct cmp_cfg *c, const struct rl_set *base,
		    const struct rl_set *new, const struct rsel sel[2],
		    struct cmp_state *st);
void cmp_verdicts(const struct cmp_cfg *c, const struct rl_set *s,
		  struct cmp_state *st, size_t nst);
void cmp_state_free(struct cmp_state *st);
/* A key's rows, one per compared metric (st->metrics) that both sides
 * have (cmprow.c). */
void cmp_key_rows(const struct cmp_cfg *c, const struct rl_set *s,
		  struct cmp_state *st, size_t ki);

/* A row's verdict (cmpverd.c). */
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
/* When a side of the row carries published summaries (n, mean, sd over
 * runs its samples do not list): both sides' n, mean, sd, cov and the
 * change into r (summ set), and 1; else 0 (cmpsumm.c). The caller asks
 * only when a case's summary n of metric exceeds its count of samples. */
int cmp_summary_row(const struct ckey *k, const char *metric, struct crow *r);
/* The cases' n, mean and sd of a metric, pooled: a
 * case's published summary when it covers more runs than its samples,
 * else its samples. 1 when a figure was published, 0 when all come
 * from samples, -1 when none has the metric (cmpsumm.c). */
int cmp_cases_fig(struct rcase *const *cs, size_t ncs, const char *metric,
		  double *n, double *mean, double *sd);
/* Whether a key's worst perturbation, on either side, is outside the
 * band (cmppert.c). */
int cmp_key_perturbed(const struct ckey *k);

/* The tables (one per metric), the perturbations, the closing line. */
void cmp_print(const struct cmp_cfg *c, const struct rl_set *s,
	       const struct cmp_state *st, const char *la, const char *lb,
	       size_t nbad);

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
	const struct rl_set *s; /* the base set: units, better, rates */
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

/* The rows of every state, matched by metric and case name, in the
 * metrics' order then first appearance; *n rows (free the result). */
struct mrow *cmp_multi_rows(const struct cmp_multi *m, size_t *n);
/* The N-kernel table (text, markdown or csv) and its closing lines. */
/* The meter of a key's perturbations: "soak", "profile", or "metered"
 * when its two sides' differ. */
const char *cmp_pert_meter(const struct ckey *k);
/*
 * The block of perturbed cases under the tables (cmppert.c), over n
 * states (the kernels of compare BASE A B..., each named by its label;
 * labels NULL: one two-sided compare, its sides "base" and "new"). Each
 * line goes to emit (NULL: stdout, and a blank line after the block).
 */
void cmp_perturbations(const struct cmp_state *const *st,
		       const char *const *labels, size_t n,
		       void (*emit)(void *ctx, const char *line), void *ctx);
void cmp_multi_print(const struct cmp_cfg *c, const struct cmp_multi *m,
		     enum tbl_fmt fmt, size_t nbad);
/* The same as one JSON document (cmpjson.c). */
void cmp_json_print(const struct cmp_cfg *c, const struct cmp_multi *m,
		    size_t nbad);
/* The inputs of an N-kernel compare (or of zcbreport html): a set and
 * a selection per path, the base first; labels told apart. */
struct cmp_inputs {
	struct rl_set *set;
	struct rsel *sel;
	struct cmp_state *st; /* [n - 1], njudged of them judged */
	char (*lab)[256];     /* [n] column labels, the base's first */
	const char **labels;  /* [n - 1] the kernels' (into lab) */
	size_t n, njudged;
};
/* Load c->o.paths; 0, or 2 (said why; nothing to close). */
int cmp_inputs_open(const struct cmp_cfg *c, struct cmp_inputs *in,
		    size_t *nbad);
/* Judge every kernel against the base, BH over all; fill m. */
void cmp_inputs_judge(const struct cmp_cfg *c, struct cmp_inputs *in,
		      struct cmp_multi *m, size_t *nbad);
void cmp_inputs_close(struct cmp_inputs *in);
/* zcbreport compare BASE A B C...: load, judge, print (cmpmulti.c). */
int cmd_compare_multi(struct cmp_cfg *c);

/* The line saying what "from summaries" means, when a row has it. */
void cmp_print_summ_note(const struct cmp_state *st);

#endif
