/*
 * html.h: zcbreport html's parts: html.c writes the page (head, seed
 * tables, plots, hosts) and htmlverd.c its verdict table and the
 * samples of the flagged rows. Every string from a document passes
 * through html_text (control characters made visible, then & < > " '
 * as entities) before it reaches the page.
 */
#ifndef ZCB_HTML_H
#define ZCB_HTML_H

#include "compare.h"

#include <stdio.h>

/* s as HTML text (an attribute value too). */
void html_text(FILE *f, const char *s);
/* Text of several lines (a <pre>): each line as html_text. */
void html_lines(FILE *f, const char *s);
/* printf, then the result as HTML text. */
void html_textf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The verdict table (regressions on top, each flagged verdict a link
 * to its samples) of m; counts its flagged rows into *flagged. */
void html_verdicts(FILE *f, const struct cmp_cfg *c,
		   const struct cmp_multi *m, size_t *flagged);
/* The samples behind every flagged verdict, the links' targets. */
void html_samples(FILE *f, const struct cmp_multi *m);

#endif
