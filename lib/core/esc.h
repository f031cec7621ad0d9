/*
 * esc.h: untrusted text made safe to show. Every string a result
 * document supplies (labels, params, host facts, metric names and units,
 * errors), every file name, and every string a peer sends (meter and
 * counter names in its CPU report, a ttcp-sf hello's fields: escaped
 * where they are decoded) passes through esc_text() or esc_dup() before
 * it reaches a terminal, a table file or gnuplot.
 *
 * Control characters (C0, DEL, and C1 written as UTF-8), which move a
 * terminal's cursor, set its title or end a gnuplot command, and bytes
 * that are not UTF-8 become visible C-style escapes: \n \r \t, \x1b,
 * \u009b. Everything else, backslashes and UTF-8 text included, is kept
 * as it is, so the result is one line of printable text and plain text
 * comes out unchanged.
 */
#ifndef ZCB_ESC_H
#define ZCB_ESC_H

#include <stddef.h>

/* Escape s into buf (len > 0); cut short at a whole escape or UTF-8
 * character when it does not fit. Returns buf. */
char *esc_text(char *buf, size_t len, const char *s);
/* Escape s into a new string (free it); NULL s gives "". */
char *esc_dup(const char *s);
/* Whether esc_text would change s (a control character or not UTF-8). */
int esc_needed(const char *s);

#endif
