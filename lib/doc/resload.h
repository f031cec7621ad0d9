/*
 * resload.h: the result-document loader of the tables. Loads files and
 * directories (recursively, *.json, following symlinks), validates every
 * document with res_validate(), refuses failed runs and documents whose
 * unit for a metric disagrees with the other files, and keeps the rest.
 * Nothing here prints: every refused file lands in the set's bad list
 * with the reason, for the caller to name.
 *
 * Each file and directory is read once: they are known by device and
 * inode, so a second name for one (results/latest, a file named twice,
 * a hard link) and a symlink loop are skipped, into the skipped list.
 *
 * A tool hands its own document in memory (res_pool_add_json).
 *
 * Summaries follow the samples, so every table shows the same figures:
 * a measured document's summary of each metric its samples carry is
 * recomputed from them (res_summary_json() over res_case_values()), and
 * a stored one that disagreed is named in the warned list. A
 * transcribed document keeps its published summary (its samples stand
 * for runs the mail did not list), but is refused when the published
 * mean is not its samples' mean.
 *
 * Figures must be numbers: a document is refused when a metric's
 * samples have a mean or standard deviation that is not finite (values
 * near 1e308, whose sum overflows), naming the case and metric. A rate
 * sample <= 0 is kept but named in the warned list: such a rate has no
 * harmonic mean, and the tables show "-" for it and compare never
 * judges it.
 */
#ifndef ZCB_RESLOAD_H
#define ZCB_RESLOAD_H

#include <jansson.h>
#include <stddef.h>

#define RL_MAX_FILE (64u << 20) /* larger files are refused */

struct res_pdoc {
	char *path;	  /* file it came from */
	json_t *root;	  /* the whole document (owned) */
	const char *tool; /* borrowed from root */
	const char *label;
	int transcribed; /* figures copied from a mail */
	size_t order;	 /* load order, for stable sorting */
};

/* Make room for element n of an array of elem-byte items (doubling cap). */
void *res_grow(void *p, size_t *cap, size_t n, size_t elem);

struct res_refused {
	char *path; /* the refused (skipped, warned about) file */
	char *why;  /* the reason, one line */
};

struct res_pool {
	struct res_pdoc *docs; /* usable documents, in load order */
	size_t ndocs, capdocs;
	struct res_refused *bad; /* refused files */
	size_t nbad, capbad;
	struct res_refused *skipped; /* read already (another name, a loop) */
	size_t nskipped, capskipped;
	struct res_refused *warned; /* kept, but their summaries were wrong or a
				* rate was <= 0 */
	size_t nwarned, capwarned;
	json_t *seen;	 /* "dev:ino" -> the path read under that name */
	json_t *walking; /* "dev:ino" of the directories being walked */
	json_t *units;	/* metric -> unit agreed by the set */
	json_t *better; /* metric -> "higher" | "lower" */
	json_t *rate;	/* metric -> true when a rate */
};

void res_pool_init(struct res_pool *s);
void res_pool_free(struct res_pool *s);

/* Add a file or a directory (every *.json under it, sorted), each file
 * and directory once. Problems are recorded in s->bad, second names and
 * loops in s->skipped; returns the count of documents added. */
size_t res_pool_add_path(struct res_pool *s, const char *path);
/* Add one document from memory (name is what the bad list calls it).
 * 0, or -EINVAL when refused (then recorded in s->bad). Its summaries
 * are made to follow its samples (s->warned names a wrong one). */
int res_pool_add_buffer(struct res_pool *s, const char *name, const char *buf,
		  size_t len);
/* Add a document in memory: a copy of root, as res_write() would write
 * it (keys sorted), is kept (root is not changed); flags:
 * RL_KEEP_FAILED keeps a failed run's document too.
 * 0, or -EINVAL when refused (then recorded in s->bad). */
#define RL_KEEP_FAILED 1u
int res_pool_add_json(struct res_pool *s, const char *name, json_t *root,
		unsigned flags);
/* After every add: refuse documents whose unit for a metric is not the
 * one most files use, and fill units/better/rate. */
void res_pool_finish(struct res_pool *s);

/* A parameter's value as text ("4096", "sendfile", "yes"); NULL if
 * absent. Whole numbers print without decimals. */
const char *res_param_str(json_t *params, const char *name, char *buf,
			 size_t len);
/* Numeric value of a parameter, NAN when absent or not a number. */
double res_param_num(json_t *params, const char *name);
/* Append the sample values of a metric in a case to *x (realloc'd). */
void res_case_values(json_t *kase, const char *metric, double **x, size_t *n,
		    size_t *cap);
/* Whether a case has a metric in its summary or any sample. */
int res_case_has(json_t *kase, const char *metric);
/* A metric's unit in the set ("" when unknown). */
const char *res_pool_unit(const struct res_pool *s, const char *metric);
/* 1 when higher is better, -1 lower, 0 unknown. */
int res_pool_better(const struct res_pool *s, const char *metric);
int res_pool_is_rate(const struct res_pool *s, const char *metric);

#endif
