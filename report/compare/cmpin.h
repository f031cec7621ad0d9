/*
 * cmpin.h: the inputs of a compare, and of zcbreport html (cmpin.c): a
 * set and a selection per path, the baseline first, or with --split
 * P=A,B one set and its two selections; each side named; every kernel
 * judged against the baseline, Benjamini-Hochberg over all of them.
 */
#ifndef ZCB_CMPIN_H
#define ZCB_CMPIN_H

#include "cmp.h"

struct cmp_inputs {
	struct res_pool *set;   /* [nsets]: a set per path, or one (--split) */
	struct res_sel *sel;     /* [n] each side's cases, the base's first */
	struct cmp_state *st; /* [n - 1], njudged of them judged */
	const char **name;    /* [n] each side's label, the base's first */
	char (*lab)[256];     /* [n] labels made of a label and a path */
	char split[2][300];   /* --split's labels: "P=A", "P=B" */
	size_t n, nsets, njudged;
	int two; /* two sides, BASE and NEW: a side whose labels vary is
		  * "base" or "new" (else its path, made unique) */
};

/* Load c->o.paths (two: as the two sides of mmtests' layout; always
 * with --split) and name the sides; 0, or 2 (said why; nothing to
 * close). */
int cmp_inputs_open(const struct cmp_cfg *c, int two, struct cmp_inputs *in,
		    size_t *nbad);
/* Judge every kernel against the base, BH over all; fill m. */
void cmp_inputs_judge(const struct cmp_cfg *c, struct cmp_inputs *in,
		      struct cmp_multi *m, size_t *nbad);
void cmp_inputs_close(struct cmp_inputs *in);

#endif
