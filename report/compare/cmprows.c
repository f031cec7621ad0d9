/*
 * cmprows.c: the rows of the N-kernel table (cmpprint.h): the rows of
 * every kernel's state matched by metric and case name, a cell per
 * kernel, in the compared metrics' order and then first appearance.
 */
#include "config.h"
#include "cmpprint.h"

#include <string.h>

/* The row of (metric, name), added when new. */
static struct mrow *row_of(json_t *ix, struct mrow **rows, size_t *n,
			   size_t *cap, const char *metric, const char *name)
{
	char key[1024];
	json_t *v;

	snprintf(key, sizeof(key), "%s\x1f%s", metric, name);
	v = json_object_get(ix, key);
	if (v)
		return &(*rows)[json_integer_value(v)];
	*rows = res_grow(*rows, cap, *n, sizeof(**rows));
	memset(&(*rows)[*n], 0, sizeof(**rows));
	(*rows)[*n].metric = metric;
	(*rows)[*n].name = name;
	json_object_set_new(ix, key, json_integer((json_int_t)*n));
	return &(*rows)[(*n)++];
}

/* Every state's rows of one metric. */
static void metric_rows(const struct cmp_multi *m, const char *metric,
			json_t *ix, struct mrow **rows, size_t *n, size_t *cap)
{
	size_t k, i;

	for (k = 0; k < m->nk; k++)
		for (i = 0; i < m->st[k].nrows; i++) {
			const struct crow *r = &m->st[k].rows[i];

			if (!strcmp(r->metric, metric))
				row_of(ix, rows, n, cap, metric,
				       m->st[k].keys[r->key].name)
					->cell[k] = r;
		}
}

struct mrow *cmp_multi_rows(const struct cmp_multi *m, size_t *n)
{
	json_t *ix = json_object(), *seen = json_object();
	struct mrow *rows = NULL;
	size_t cap = 0, k, j;

	*n = 0;
	for (k = 0; k < m->nk; k++)
		for (j = 0; j < m->st[k].nmetrics; j++) {
			const char *metric = m->st[k].metrics[j];

			if (json_object_get(seen, metric))
				continue;
			json_object_set_new(seen, metric, json_true());
			metric_rows(m, metric, ix, &rows, n, &cap);
		}
	json_decref(ix);
	json_decref(seen);
	return rows;
}
