/*
 * htmlesc.h: zcbreport html's text. Every string from a document passes
 * through html_text (control characters made visible, then & < > " '
 * as entities) before it reaches the page.
 */
#ifndef ZCB_HTMLESC_H
#define ZCB_HTMLESC_H

#include <stdio.h>

/* s as HTML text (an attribute value too). */
void html_text(FILE *f, const char *s);
/* Text of several lines (a <pre>): each line as html_text. */
void html_lines(FILE *f, const char *s);
/* printf, then the result as HTML text. */
void html_textf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
