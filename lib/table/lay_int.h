/*
 * lay_int.h: inside the seed layouts (layout.h). A layout is a list of
 * tables; a table is a descriptor: which tool's cases it reads and which
 * params they need, its row keys, its title, its value columns and a row
 * function that fills the cells of one row group. One driver (lay_drv.c,
 * lay_table_print) selects, groups, builds the table, calls the row
 * function for every group and prints the table with its marks, its
 * footnotes and the notes under it. One file per seed family fills in
 * descriptors: lay_p9.c (seed 000), lay_nfs.c (001 and 002), lay_ttcp.c
 * (001: ttcp-sf's CPU lines, copy against zero-copy), lay_chat.c (004).
 *
 * To add a table: a row function and a struct lay_table in the family's
 * file, and the table in its layout's list; to add a layout: a struct
 * layout there and a line in layout.c's list. The files depend one way:
 * layout.c (the list) on the family files, they on the driver.
 */
#ifndef ZCB_LAY_INT_H
#define ZCB_LAY_INT_H

#include "fnotes.h"
#include "layout.h"
#include "paired.h"

#define LAY_MAX_COLS 24 /* value columns of a table */

struct lay;

/* A value column of a table. */
struct lay_col {
	const char *head;  /* its heading */
	enum tbl_align al; /* AL_RIGHT for figures */
	/* shown only when a selected case carries this metric (NULL: no
	 * such condition) */
	const char *if_metric;
	/* and only when a selected case has param if_param with one of
	 * the values in if_values ("copy|direct"; NULL: no condition) */
	const char *if_param, *if_values;
	/* and only when this says so (NULL: no condition) */
	int (*shown)(const struct lay *l, const struct lay_col *c);
};

/* One table of a layout. */
struct lay_table {
	const char *tool;		 /* whose documents */
	const char *const *need;	 /* params every case has */
	const char *const *need_metrics; /* metrics every case has */
	const char *where;		 /* one more PARAM=VALUE, or NULL */
	const char *const *fixed;	 /* row keys, in order */
	const char *const *excl;	 /* never extra key columns */
	int label_if_varies;		 /* label as a key when it varies */
	int key_cols;			 /* 1: the keys are its first columns */
	size_t key_left;		 /* how many of those align left */
	const struct lay_col *cols;	 /* value columns, {NULL} ended */
	/* fill the rows of one group (the driver added none) */
	void (*row)(struct lay *l, const struct res_group *g);
	const char *title; /* or title_fn; NULL: none */
	void (*title_fn)(const struct lay *l, char *buf, size_t len);
	char underline;	      /* '=' under the title, or 0 */
	const char *side;     /* the CPU side the note names, or NULL */
	const char *colparam; /* the note counts runs per value of this */
	int fallback;	      /* printed only when no table before it was */
	int mean; /* the default statistic is the mean (the seed's "Mean"
		   * column), not the hmean of rates */
	const void *arg;      /* the row function's parameters */
};

/* A layout: its name and its tables, printed in order. */
struct layout {
	const char *name; /* --layout NAME */
	const char *tool; /* what it reads, for the skip note */
	const char *what; /* one line: which seed table */
	const struct lay_table *const *tables; /* NULL ended */
};

extern const struct layout lay_p9, lay_nfs_rsize, lay_nfs_clients, lay_ttcp_cpu,
	lay_chat, lay_zc_vs_copy, lay_profile;

/* The table being printed, as the row functions see it. */
struct lay {
	const struct lay_table *t;
	const struct layout_opts *o;
	struct res_sel sel;		/* its cases */
	struct res_groups g;		/* grouped by keys */
	const char *keys[RPT_MAX_KEYS]; /* row keys */
	size_t nk;
	struct tbl *tb;
	struct fnotes fn;
	int at[LAY_MAX_COLS]; /* table column of each value column, or -1 */
};

/* Print one table: 0 printed, 1 no cases for it. sep: a blank line
 * before it. */
int lay_table_print(const struct lay_table *t, const struct res_pool *s,
		    const struct layout_opts *o, int sep);

/* A row with the group's keys in their columns (when the keys are
 * columns); returns its index. */
size_t lay_row(struct lay *l, const struct res_group *g);
/* Value column c of a row; nothing when the column is not shown. */
void lay_set(struct lay *l, size_t row, size_t c, const char *text);
/* Whether value column c is shown. */
int lay_shown(const struct lay *l, size_t c);
/* Mark value column c of a row (fn_cell); nothing when not shown. */
void lay_mark(struct lay *l, size_t row, size_t c, struct res_pcase *const *cs,
	      size_t n, const char *metric, const char *param,
	      const char *value, unsigned flags);

typedef void (*lay_fmt)(char *buf, size_t len, double v);
/* The statistic of metric over the cases (res_cell_value), formatted. */
void lay_figure(char *buf, size_t len, struct lay *l, struct res_pcase *const *cs,
		size_t n, const char *metric, const char *param,
		const char *value, lay_fmt f);
/* Whether a selected case carries metric. */
int lay_any_metric(const struct lay *l, const char *metric);
/* One param's value, the same in every selected case, or NULL. */
const char *lay_common_param(const struct lay *l, const char *p, char *buf,
			     size_t len);
/* Extra keys of a group (those after the first from) as " (k=v k=v)". */
void lay_qualifier(char *b, size_t len, const struct lay *l,
		   const struct res_group *g, size_t from);

#endif
