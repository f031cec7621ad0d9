/*
 * res_int.h: inside the loader (resload.h): the lists a refused,
 * skipped or warned-about file goes to, shared by resload.c, its
 * summary check (rescheck.c) and its walk of files and directories
 * (resdir.c).
 */
#ifndef ZCB_RES_INT_H
#define ZCB_RES_INT_H

#include "resload.h"

/* Append "path: why" to a list (bad, skipped or warned). */
void res_list_add(struct res_refused **v, size_t *n, size_t *cap, const char *path,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#define add_bad(s, path, ...)                                                  \
	res_list_add(&(s)->bad, &(s)->nbad, &(s)->capbad, path, __VA_ARGS__)
#define add_skipped(s, path, ...)                                              \
	res_list_add(&(s)->skipped, &(s)->nskipped, &(s)->capskipped, path,     \
		    __VA_ARGS__)
#define add_warned(s, path, ...)                                               \
	res_list_add(&(s)->warned, &(s)->nwarned, &(s)->capwarned, path,        \
		    __VA_ARGS__)

/*
 * Make a document's summaries follow its samples (see resload.h): 0; or
 * 1 with warn saying so when a measured document's stored summary was
 * wrong (recomputed) or a rate has a sample <= 0 (kept: no harmonic
 * mean); or -1 with err saying why to refuse it: a transcription that
 * contradicts its samples, or a metric whose samples' mean or standard
 * deviation is not a finite number. Each names the case and metric
 * (the first place found).
 */
int res_check_summaries(json_t *root, char *err, size_t elen, char *warn,
		       size_t wlen);

/*
 * Is root a document the set may keep (valid, ok unless flags has
 * RL_KEEP_FAILED, a plain tool name, summaries that follow the samples)?
 * 0, with warn set when its summary was recomputed; -EINVAL with err.
 * Touches root only (thread-safe across documents).
 */
int res_judge(json_t *root, unsigned flags, char *err, size_t len,
	     char *warn, size_t wlen);
/* Parse and judge a document's bytes (thread-safe across documents):
 * the root, or NULL with err; warn as res_judge's. */
json_t *res_load(const char *buf, size_t len, char *err, size_t elen,
		char *warn, size_t wlen);
/*
 * A document's bytes parsed quickly (resparse.c): the tree json_loadb
 * (JSON_REJECT_DUPLICATES) would make, or NULL when unsure (then
 * json_loadb decides, and names any error). Thread-safe.
 */
json_t *res_parse_quick(const char *buf, size_t len);
/* Keep a judged document (root is the set's now), warn into s->warned. */
void res_keep(struct res_pool *s, const char *name, json_t *root,
	     const char *warn);

#endif
