/*
 * htmlverd.h: zcbreport html's verdicts (htmlverd.c): the N-kernel
 * compare's rows as a table, regressions on top, each flagged verdict a
 * link to the samples it was judged from, listed below.
 */
#ifndef ZCB_HTMLVERD_H
#define ZCB_HTMLVERD_H

#include "cmp.h"

#include <stdio.h>

/* The verdict table (regressions on top, each flagged verdict a link
 * to its samples) of m; counts its flagged rows into *flagged. */
void html_verdicts(FILE *f, const struct cmp_cfg *c,
		   const struct cmp_multi *m, size_t *flagged);
/* The samples behind every flagged verdict, the links' targets. */
void html_samples(FILE *f, const struct cmp_multi *m);

#endif
