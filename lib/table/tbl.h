/*
 * tbl.h: text tables: cells are strings, printed aligned for a
 * plain-text mail, as Markdown or as CSV. Also the number formats the
 * seed layouts use.
 */
#ifndef ZCB_TBL_H
#define ZCB_TBL_H

#include <stddef.h>
#include <stdio.h>

enum tbl_fmt { FMT_TEXT, FMT_MARKDOWN, FMT_CSV };
enum tbl_align { AL_LEFT, AL_RIGHT };

struct tbl_row {
	char **cell; /* ncols strings (owned) */
	char **mark; /* per cell: a footnote mark ("*", "*2") or NULL */
	int section; /* 1: cell[0] is a heading line */
};

struct tbl {
	size_t ncols;
	char **head;	       /* column headings */
	enum tbl_align *align; /* per column */
	struct tbl_row *rows;
	size_t nrows, cap;
	int gap; /* spaces between text columns */
};

struct tbl *tbl_new(size_t ncols);
void tbl_free(struct tbl *t);
void tbl_col(struct tbl *t, size_t col, const char *head, enum tbl_align al);
/* Start a row (cells empty); returns its index. */
size_t tbl_add_row(struct tbl *t);
void tbl_set(struct tbl *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * Put a footnote mark after a cell ("5.6 mb/s*"). Text keeps the marks of
 * a column in a column of their own to the cell's right, so the figures
 * stay aligned and a table without marks prints as before; Markdown and
 * CSV append the mark to the cell.
 */
void tbl_mark(struct tbl *t, size_t row, size_t col, const char *mark);
/* A heading line inside the table ("==> 2.4.4pre2 <=="). */
void tbl_section(struct tbl *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tbl_print(FILE *f, const struct tbl *t, enum tbl_fmt fmt);

/* A title above a table; underline '=' or 0 (text only). */
void tbl_title(FILE *f, enum tbl_fmt fmt, const char *title, char underline);
/* Any line of text around tables (a note), in the format's comment form. */
void tbl_note(FILE *f, enum tbl_fmt fmt, const char *text);

/* Number formats. */
/* Generic: 1 decimal from 100, 2 from 1, else 3 significant digits. */
void fmt_auto(char *buf, size_t len, double v);
/* At most one decimal, a trailing ".0" dropped: 87, 130, 3.5. */
void fmt_trim1(char *buf, size_t len, double v);
/* Fixed decimals: "12.3", "0.123", "12.345678"; "-" when not finite. */
void fmt_1f(char *buf, size_t len, double v);
void fmt_3f(char *buf, size_t len, double v);
void fmt_6f(char *buf, size_t len, double v);
/* Percent: "12.3%"; trimmed as fmt_trim1: "87%", "88.4%". */
void fmt_pct1(char *buf, size_t len, double v);
void fmt_pct_trim(char *buf, size_t len, double v);
/* Bytes in binary units, compact as the 9P seed: 1MB, 512MB, 4GB. */
void fmt_bin_size(char *buf, size_t len, double bytes);
/* The 9P seed's rates from MB/s (10^6 B/s): "22.4 kb/s", "711 kb/s"
 * below 1 mb/s, else "1.4 mb/s" (k = 1000, m = 10^6). */
void fmt_p9_rate(char *buf, size_t len, double mbps);

#endif
