/*
 * tbl.c: text tables (tbl.h): aligned text for a plain-text mail,
 * Markdown or CSV, and the number formats of the seed layouts. Every
 * heading, cell, title and note is escaped (esc.h) as it is stored or
 * printed, so a document's text cannot reach the terminal raw, and a
 * CSV record or a Markdown row stays on one line.
 */
#include "config.h"
#include "esc.h"
#include "tbl.h"
#include "units.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		abort();
	return d;
}

struct tbl *tbl_new(size_t ncols)
{
	struct tbl *t = calloc(1, sizeof(*t));
	size_t i;

	if (!t)
		abort();
	t->ncols = ncols;
	t->head = calloc(ncols, sizeof(*t->head));
	t->align = calloc(ncols, sizeof(*t->align));
	if (!t->head || !t->align)
		abort();
	for (i = 0; i < ncols; i++)
		t->head[i] = xstrdup("");
	t->gap = 2;
	return t;
}

void tbl_free(struct tbl *t)
{
	size_t i, j;

	if (!t)
		return;
	for (i = 0; i < t->nrows; i++) {
		for (j = 0; j < t->ncols; j++) {
			free(t->rows[i].cell[j]);
			free(t->rows[i].mark[j]);
		}
		free(t->rows[i].cell);
		free(t->rows[i].mark);
	}
	for (j = 0; j < t->ncols; j++)
		free(t->head[j]);
	free(t->rows);
	free(t->head);
	free(t->align);
	free(t);
}

void tbl_col(struct tbl *t, size_t col, const char *head, enum tbl_align al)
{
	free(t->head[col]);
	t->head[col] = esc_dup(head);
	t->align[col] = al;
}

size_t tbl_add_row(struct tbl *t)
{
	size_t j;

	if (t->nrows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->rows = realloc(t->rows, t->cap * sizeof(*t->rows));
		if (!t->rows)
			abort();
	}
	t->rows[t->nrows].section = 0;
	t->rows[t->nrows].cell = calloc(t->ncols, sizeof(char *));
	t->rows[t->nrows].mark = calloc(t->ncols, sizeof(char *));
	if (!t->rows[t->nrows].cell || !t->rows[t->nrows].mark)
		abort();
	for (j = 0; j < t->ncols; j++)
		t->rows[t->nrows].cell[j] = xstrdup("");
	return t->nrows++;
}

void tbl_set(struct tbl *t, size_t row, size_t col, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	free(t->rows[row].cell[col]);
	t->rows[row].cell[col] = esc_dup(buf);
}

void tbl_mark(struct tbl *t, size_t row, size_t col, const char *mark)
{
	free(t->rows[row].mark[col]);
	t->rows[row].mark[col] = mark ? esc_dup(mark) : NULL;
}

void tbl_section(struct tbl *t, const char *fmt, ...)
{
	char buf[512];
	size_t r = tbl_add_row(t);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	free(t->rows[r].cell[0]);
	t->rows[r].cell[0] = esc_dup(buf);
	t->rows[r].section = 1;
}

static size_t mark_len(char *const *marks, size_t j)
{
	return marks && marks[j] ? strlen(marks[j]) : 0;
}

/* One cell of width w whose marks take mw more columns: a right-aligned
 * figure ends where the others do, its mark hanging to its right. */
static void put_padded(FILE *f, const char *s, const char *mark, size_t w,
		       size_t mw, enum tbl_align al)
{
	size_t l = strlen(s), ml = mark ? strlen(mark) : 0;

	if (al == AL_RIGHT)
		fprintf(f, "%*s%s%s%*s", (int)(w - l), "", s, mark ? mark : "",
			(int)(mw - ml), "");
	else
		fprintf(f, "%s%s%*s", s, mark ? mark : "",
			(int)(w + mw - l - ml), "");
}

/* Print one text line of cells, trailing blanks removed. */
static void text_line(FILE *f, const struct tbl *t, char *const *cells,
		      char *const *marks, const size_t *w, const size_t *mw)
{
	char *line, *p;
	size_t size = 0, j;
	FILE *m = open_memstream(&line, &size);

	if (!m)
		abort();
	for (j = 0; j < t->ncols; j++) {
		if (j)
			fprintf(m, "%*s", t->gap, "");
		put_padded(m, cells[j], marks ? marks[j] : NULL, w[j], mw[j],
			   t->align[j]);
	}
	fclose(m);
	for (p = line + strlen(line); p > line && p[-1] == ' '; p--)
		;
	*p = 0;
	fprintf(f, "%s\n", line);
	free(line);
}

static void print_text(FILE *f, const struct tbl *t)
{
	size_t *w = calloc(t->ncols, sizeof(*w)), i, j;
	size_t *mw = calloc(t->ncols, sizeof(*mw));
	int any_head = 0;

	if (!w || !mw)
		abort();
	for (j = 0; j < t->ncols; j++) {
		w[j] = strlen(t->head[j]);
		any_head |= w[j] > 0;
	}
	for (i = 0; i < t->nrows; i++)
		for (j = 0; j < t->ncols && !t->rows[i].section; j++) {
			if (strlen(t->rows[i].cell[j]) > w[j])
				w[j] = strlen(t->rows[i].cell[j]);
			if (mark_len(t->rows[i].mark, j) > mw[j])
				mw[j] = mark_len(t->rows[i].mark, j);
		}
	if (any_head)
		text_line(f, t, t->head, NULL, w, mw);
	for (i = 0; i < t->nrows; i++) {
		if (t->rows[i].section)
			fprintf(f, "%s%s\n", t->rows[i].cell[0],
				t->rows[i].mark[0] ? t->rows[i].mark[0] : "");
		else
			text_line(f, t, t->rows[i].cell, t->rows[i].mark, w,
				  mw);
	}
	free(w);
	free(mw);
}

/* A Markdown table cell: a pipe would end it, and a backslash before a
 * pipe would cancel that pipe's escape; both are escaped. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void print_markdown(FILE *f, const struct tbl *t)
{
	size_t i, j;

	fputs("|", f);
	for (j = 0; j < t->ncols; j++) {
		fputc(' ', f);
		md_cell(f, t->head[j]);
		fputs(" |", f);
	}
	fputs("\n|", f);
	for (j = 0; j < t->ncols; j++)
		fputs(t->align[j] == AL_RIGHT ? "---:|" : "---|", f);
	fputc('\n', f);
	for (i = 0; i < t->nrows; i++) {
		fputs("|", f);
		for (j = 0; j < t->ncols; j++) {
			fputc(' ', f);
			if (t->rows[i].section && !j)
				fputs("**", f);
			md_cell(f, t->rows[i].cell[j]);
			if (t->rows[i].mark[j])
				md_cell(f, t->rows[i].mark[j]);
			if (t->rows[i].section && !j)
				fputs("**", f);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
}

static void csv_cell(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_line(FILE *f, size_t n, char *const *cells, char *const *marks)
{
	size_t j;

	for (j = 0; j < n; j++) {
		char *c = cells[j], *joined = NULL;

		if (j)
			fputc(',', f);
		if (marks && marks[j]) {
			if (asprintf(&joined, "%s%s", c, marks[j]) < 0)
				abort();
			c = joined;
		}
		csv_cell(f, c);
		free(joined);
	}
	fputc('\n', f);
}

void tbl_print(FILE *f, const struct tbl *t, enum tbl_fmt fmt)
{
	size_t i;

	switch (fmt) {
	case FMT_TEXT:
		print_text(f, t);
		break;
	case FMT_MARKDOWN:
		print_markdown(f, t);
		break;
	case FMT_CSV:
		csv_line(f, t->ncols, t->head, NULL);
		for (i = 0; i < t->nrows; i++)
			csv_line(f, t->ncols, t->rows[i].cell, t->rows[i].mark);
		break;
	}
}

void tbl_title(FILE *f, enum tbl_fmt fmt, const char *title, char underline)
{
	char *e = esc_dup(title);
	size_t i, l = strlen(e);

	switch (fmt) {
	case FMT_TEXT:
		fprintf(f, "%s\n", e);
		if (underline) {
			for (i = 0; i < l; i++)
				fputc(underline, f);
			fputc('\n', f);
		}
		fputc('\n', f);
		break;
	case FMT_MARKDOWN:
		fprintf(f, "### %s\n\n", e);
		break;
	case FMT_CSV:
		fprintf(f, "# %s\n", e);
		break;
	}
	free(e);
}

void tbl_note(FILE *f, enum tbl_fmt fmt, const char *text)
{
	char *e = esc_dup(text);

	fprintf(f, fmt == FMT_CSV ? "# %s\n" : "%s\n", e);
	free(e);
}

void fmt_auto(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (a >= 100 || a == 0)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

void fmt_trim1(char *buf, size_t len, double v)
{
	size_t l;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "%.1f", v);
	l = strlen(buf);
	if (l > 2 && !strcmp(buf + l - 2, ".0"))
		buf[l - 2] = 0;
}

void fmt_bin_size(char *buf, size_t len, double bytes)
{
	units_fmt_seed_total(bytes, buf, len);
}

void fmt_p9_rate(char *buf, size_t len, double mbps)
{
	units_fmt_seed_rate(mbps * 1e6, buf, len);
}

/* v with prec decimals, "-" when not finite. */
static void fixed(char *b, size_t l, double v, int prec)
{
	if (isfinite(v))
		snprintf(b, l, "%.*f", prec, v);
	else
		snprintf(b, l, "-");
}

void fmt_1f(char *b, size_t l, double v)
{
	fixed(b, l, v, 1);
}

void fmt_3f(char *b, size_t l, double v)
{
	fixed(b, l, v, 3);
}

void fmt_6f(char *b, size_t l, double v)
{
	fixed(b, l, v, 6);
}

void fmt_pct1(char *b, size_t l, double v)
{
	fixed(b, l, v, 1);
	if (isfinite(v))
		strncat(b, "%", l - strlen(b) - 1);
}

void fmt_pct_trim(char *b, size_t l, double v)
{
	fmt_trim1(b, l, v);
	if (isfinite(v))
		strncat(b, "%", l - strlen(b) - 1);
}
