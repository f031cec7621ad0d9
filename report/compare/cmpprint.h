/*
 * cmpprint.h: the printers of a compare and what they share. The
 * pipeline (compare.c) picks one by --format and the number of kernels:
 * mmtests' two-sided text (cmptext.c), the N-kernel table in text,
 * markdown or csv (cmptable.c), or its JSON document (cmpjson.c). The
 * table's rows (cmprows.c) and the perturbation block (cmppert.c) serve
 * them, and zcbreport html's verdicts.
 */
#ifndef ZCB_CMPPRINT_H
#define ZCB_CMPPRINT_H

#include "cmp.h"

/* A way to print a compare. */
struct cmp_printer {
	int two; /* names the inputs as two sides (cmp_inputs_open) */
	/* before the judging, the host facts that differ between the
	 * cases of the n sides sel, named name; NULL: none */
	void (*hosts)(const struct cmp_cfg *c, const struct res_sel *sel,
		      const char *const *name, size_t n);
	/* the tables and the closing lines */
	void (*print)(const struct cmp_cfg *c, const struct cmp_multi *m,
		      size_t nbad);
};

/* Two sides (one kernel), in mmtests' layout with lkp's +- stddev%: a
 * table per metric, the perturbations, the counts and one closing line
 * (cmptext.c). */
void cmp_text_hosts(const struct cmp_cfg *c, const struct res_sel *sel,
		    const char *const *name, size_t n);
void cmp_text_print(const struct cmp_cfg *c, const struct cmp_multi *m,
		    size_t nbad);
/* Any number of kernels in one table, as mmtests' compare-kernels
 * shows them, in --format's text, markdown or csv (cmptable.c). */
void cmp_table_hosts(const struct cmp_cfg *c, const struct res_sel *sel,
		     const char *const *name, size_t n);
void cmp_table_print(const struct cmp_cfg *c, const struct cmp_multi *m,
		     size_t nbad);
/* The same table as one JSON document (cmpjson.c). */
void cmp_json_print(const struct cmp_cfg *c, const struct cmp_multi *m,
		    size_t nbad);

/*
 * What changed with each case whose rate or CPU row was flagged (a
 * regression or an improvement), kernel by kernel (cmpexplain.c): the
 * host facts that differ, TCP's facts of the case on both ends, the
 * profile's families that moved most; each line to emit. Nothing when no
 * such row was flagged.
 */
void cmp_explain(const struct cmp_multi *m,
		 void (*emit)(void *ctx, const char *line), void *ctx);

/* The rows of every state, matched by metric and case name, in the
 * metrics' order then first appearance; *n rows (free the result;
 * cmprows.c). */
struct mrow *cmp_multi_rows(const struct cmp_multi *m, size_t *n);

/* Whether a key's worst perturbation, on either side, is outside the
 * band (cmppert.c). */
int cmp_key_perturbed(const struct ckey *k);
/* The meter of a key's perturbations: "soak", "profile", or "metered"
 * when its two sides' differ. */
const char *cmp_pert_meter(const struct ckey *k);
/*
 * The block of perturbed cases under the tables, over n states (the
 * kernels of compare BASE A B..., each named by its label; labels NULL:
 * one two-sided compare, its sides "base" and "new"). Each line goes to
 * emit (NULL: stdout, and a blank line after the block).
 */
void cmp_perturbations(const struct cmp_state *const *st,
		       const char *const *labels, size_t n,
		       void (*emit)(void *ctx, const char *line), void *ctx);

#endif
