/*
 * fnotes.h: what a table says about the soak meter's cost (paired.h),
 * about runs that missed their target rate (--rate, resrate.h), and
 * about a rate it cannot average (a sample <= 0).
 * Every cell whose cases ran perturbed (outside 0.95-1.05) or with
 * soakers on but unpaired is marked, and footnoted under its table; a
 * line says which runs each kind of figure came from. A table with
 * neither prints as it always did.
 *
 * Use: fn_init, then per cell fn_cell (a mark, when it needs one) and
 * fn_source (where its figures came from); after the table is full,
 * fn_marks puts the marks in, and under the printed table
 * fn_footnotes and fn_sources; fn_free.
 */
#ifndef ZCB_FNOTES_H
#define ZCB_FNOTES_H

#include "rsel.h"
#include "tbl.h"

#include <stdio.h>

#define FN_MAX_SRC 64 /* kinds of figure a table names */

struct fn_mark {
	size_t row, col; /* the cell marked */
	size_t note;	 /* its footnote */
};

struct fn_src {
	const char *what; /* "rates", "CPU", a metric */
	unsigned runs;	  /* RUN_* bits behind it */
};

/* What a footnote says, when it says one case's perturbation and no
 * more: then many of them can be told in one line. */
struct fn_why {
	int simple;    /* one case, paired, perturbed; nothing else */
	double ratio;  /* its perturbation */
	size_t pairs;  /* over how many pairs */
	int unmetered; /* the figure marked is the unmetered runs' */
	const char *by; /* the meter its metered runs ran: "soak",
			 * "profile", or "metered" for both */
};

/* The footnotes of one table, and where its figures come from. */
struct fnotes {
	char **text;	    /* distinct footnotes, in order of first mark */
	struct fn_why *why; /* what each of them says */
	size_t n, cap, capwhy;
	size_t ncells; /* cells that could be marked: a paired case behind */
	struct fn_mark *mark; /* cells marked */
	size_t nmark, capmark;
	struct fn_src src[FN_MAX_SRC];
	size_t nsrc;
	const char *nonpos[FN_MAX_SRC]; /* metrics shown "-" for a rate
					 * <= 0 (fn_value) */
	size_t nnonpos;
};

void fn_init(struct fnotes *f);
void fn_free(struct fnotes *f);
#define FN_PERTURBED 1u /* mark a cell whose cases ran perturbed */
#define FN_SOAKED    2u /* mark a cell whose cases soaked unpaired */
#define FN_RATE	     4u /* mark a cell whose runs missed their --rate
			 * target by more than 5% (lib/doc/resrate.h) */
#define FN_ANY	     (FN_PERTURBED | FN_SOAKED | FN_RATE)
/*
 * Cell (row, col) shows metric over the cases of cs[0..n) that
 * res_cell_value picks (param = value when param is not NULL; metric NULL:
 * the row's cases, for a mark on the row): mark it when one of them ran
 * perturbed or soaked unpaired, as flags (FN_*) ask. A cell pooling
 * several cases says so in its footnote, with each case's ratio and the
 * worst in full. Returns 1 when marked.
 *
 * Where the marks go: a perturbation is about the soak CPU of the
 * metered runs, so it marks the CPU cells (the rate, from the unmetered
 * runs, when a table shows no CPU); an unpaired soaked run slowed every
 * figure of it, so it marks rate and CPU cells; so does a run that
 * missed its target rate (--rate): its figures are not that rate's.
 */
int fn_cell(struct fnotes *f, size_t row, size_t col, struct res_pcase *const *cs,
	    size_t n, const char *metric, const char *param, const char *value,
	    unsigned flags);
/* The figures called `what` (kept, not copied) show metric of these
 * cases: remember which runs they came from, for fn_sources(). */
void fn_source(struct fnotes *f, const char *what, struct res_pcase *const *cs,
	       size_t n, const char *metric, const char *param,
	       const char *value);
/* A cell shows v of metric: when it has no value for a rate <= 0
 * (v->nonpos), fn_footnotes says why its "-". */
void fn_value(struct fnotes *f, const struct cellv *v, const char *metric);
/* Put the marks into t: "*" when the table has one footnote, else
 * "*1", "*2"...; "*" too when the footnotes are told as one (below). */
void fn_marks(const struct fnotes *f, struct tbl *t);
/* A line under a table, in fmt's form (Markdown: a paragraph of its
 * own, after a blank line, so it does not become a row). */
void fn_note(FILE *out, enum tbl_fmt fmt, const char *text);
/*
 * The footnotes, each after its mark, then what a "-" for a rate <= 0
 * means (fn_value). More than FN_FEW of them, each
 * one case's perturbation in the same direction (a sweep whose every
 * cell ran faster with soakers), are one line: "* every marked cell (18
 * of 18): soak runs reached 1.36x-1.53x of the unmetered rate (3 pairs
 * each); their CPU describes those faster runs".
 */
#define FN_FEW 3
void fn_footnotes(FILE *out, const struct fnotes *f, enum tbl_fmt fmt);
/* When paired cases are in the table: which runs each kind of figure
 * came from ("(paired runs: rates from the unmetered runs; CPU from the
 * metered runs of the same pairs)"). */
void fn_sources(FILE *out, const struct fnotes *f, enum tbl_fmt fmt);

#endif
