/*
 * resload.c: the set of loaded result documents (resload.h). A
 * document that is not JSON, fails res_validate(), records a failed run
 * (unless its tool asked to keep it), has a tool name that is not a
 * plain word, a transcription whose samples contradict it or a metric
 * whose samples overflow (rescheck.c), or uses another unit for a
 * metric than the rest of the set is refused with its reason; the
 * others are kept, with summaries that follow their samples. Files and
 * directories: resdir.c.
 */
#include "config.h"
#include "res_int.h"
#include "result.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RL_MAX_TOOL 64 /* longest tool name */

void res_pool_init(struct res_pool *s)
{
	memset(s, 0, sizeof(*s));
	s->units = json_object();
	s->better = json_object();
	s->rate = json_object();
	s->seen = json_object();
	s->walking = json_object();
}

static void free_list(struct res_refused *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].why);
	}
	free(v);
}

void res_pool_free(struct res_pool *s)
{
	size_t i;

	for (i = 0; i < s->ndocs; i++) {
		free(s->docs[i].path);
		json_decref(s->docs[i].root);
	}
	free(s->docs);
	free_list(s->bad, s->nbad);
	free_list(s->skipped, s->nskipped);
	free_list(s->warned, s->nwarned);
	json_decref(s->units);
	json_decref(s->better);
	json_decref(s->rate);
	json_decref(s->seen);
	json_decref(s->walking);
	memset(s, 0, sizeof(*s));
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

void res_list_add(struct res_refused **v, size_t *n, size_t *cap, const char *path,
		 const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	*v = res_grow(*v, cap, *n, sizeof(**v));
	(*v)[*n].path = xstrdup(path);
	(*v)[(*n)++].why = xstrdup(why);
}

/* A tool is named by a plain word (scripts make file names of it). */
static int tool_name_ok(const char *t)
{
	size_t i;

	for (i = 0; t[i]; i++) {
		char c = t[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') ||
		      (i && (c == '-' || c == '_' || c == '.'))))
			return 0;
	}
	return i > 0 && i <= RL_MAX_TOOL;
}

int res_judge(json_t *root, unsigned flags, char *err, size_t len,
	     char *warn, size_t wlen)
{
	const char *status;

	warn[0] = '\0';
	if (res_validate(root, err, len))
		return -EINVAL;
	status = json_string_value(json_object_get(root, "status"));
	if (strcmp(status, "ok") && !(flags & RL_KEEP_FAILED)) {
		const char *e =
			json_string_value(json_object_get(root, "error"));

		snprintf(err, len, "the run failed: %s",
			 e ? e : "no error given");
		return -EINVAL;
	}
	if (!tool_name_ok(json_string_value(json_object_get(root, "tool")))) {
		snprintf(err, len, "tool is not a plain name (letters, digits, "
				   "'-', '_', '.')");
		return -EINVAL;
	}
	return res_check_summaries(root, err, len, warn, wlen) < 0 ? -EINVAL : 0;
}

void res_keep(struct res_pool *s, const char *name, json_t *root,
	     const char *warn)
{
	struct res_pdoc *d;

	if (warn && warn[0])
		add_warned(s, name, "%s", warn);
	s->docs = res_grow(s->docs, &s->capdocs, s->ndocs, sizeof(*s->docs));
	d = &s->docs[s->ndocs];
	d->path = xstrdup(name);
	d->root = root;
	d->tool = json_string_value(json_object_get(root, "tool"));
	d->label = json_string_value(json_object_get(root, "label"));
	d->transcribed = json_is_true(json_object_get(root, "transcribed"));
	d->order = s->ndocs++;
}

/* Take ownership of root: keep it when it is valid. */
static int add_doc(struct res_pool *s, const char *name, json_t *root,
		   unsigned flags)
{
	char err[1024], warn[1100];

	if (res_judge(root, flags, err, sizeof(err), warn, sizeof(warn))) {
		add_bad(s, name, "%s", err);
		json_decref(root);
		return -EINVAL;
	}
	res_keep(s, name, root, warn);
	return 0;
}

json_t *res_load(const char *buf, size_t len, char *err, size_t elen,
		char *warn, size_t wlen)
{
	json_t *root = res_parse_quick(buf, len);
	json_error_t je;

	if (!root)
		root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	warn[0] = '\0';
	if (!root) {
		snprintf(err, elen, "not JSON: line %d column %d: %s", je.line,
			 je.column, je.text);
		return NULL;
	}
	if (res_judge(root, 0, err, elen, warn, wlen)) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int res_pool_add_buffer(struct res_pool *s, const char *name, const char *buf,
		  size_t len)
{
	char err[1024], warn[1100];
	json_t *root;

	if (len > RL_MAX_FILE) {
		add_bad(s, name, "larger than %u MiB", RL_MAX_FILE >> 20);
		return -EINVAL;
	}
	root = res_load(buf, len, err, sizeof(err), warn, sizeof(warn));
	if (!root) {
		add_bad(s, name, "%s", err);
		return -EINVAL;
	}
	res_keep(s, name, root, warn);
	return 0;
}

int res_pool_add_json(struct res_pool *s, const char *name, json_t *root,
		unsigned flags)
{
	/* as the tool writes it (res_write: keys sorted), so a table of
	 * the document in memory is the table of its file */
	char *text = json_dumps(root, JSON_SORT_KEYS | JSON_COMPACT);
	json_error_t je;
	json_t *copy;

	copy = text ? json_loads(text, JSON_REJECT_DUPLICATES, &je) : NULL;
	free(text);
	if (!copy) {
		add_bad(s, name, "not a JSON document");
		return -EINVAL;
	}
	return add_doc(s, name, copy, flags);
}

/* The unit most documents use for each metric (first seen wins ties). */
static json_t *majority_units(struct res_pool *s)
{
	json_t *votes = json_object(), *best = json_object(), *m, *def;
	const char *name, *unit;
	size_t i;

	for (i = 0; i < s->ndocs; i++) {
		json_object_foreach(json_object_get(s->docs[i].root, "metrics"),
				    name, def)
		{
			json_t *v = json_object_get(votes, name);

			unit = json_string_value(json_object_get(def, "unit"));
			if (!v) {
				v = json_object();
				json_object_set_new(votes, name, v);
				json_object_set_new(best, name,
						    json_string(unit));
			}
			json_object_set_new(
				v, unit,
				json_integer(json_integer_value(
						     json_object_get(v, unit)) +
					     1));
		}
	}
	json_object_foreach(votes, name, m)
	{
		json_int_t top = json_integer_value(json_object_get(
			m, json_string_value(json_object_get(best, name))));
		json_t *c;

		json_object_foreach(m, unit, c)
		{
			if (json_integer_value(c) > top) {
				top = json_integer_value(c);
				json_object_set_new(best, name,
						    json_string(unit));
			}
		}
	}
	json_decref(votes);
	return best;
}

/* Why a document disagrees with the agreed units, or NULL. */
static int unit_conflict(struct res_pool *s, json_t *best, struct res_pdoc *d)
{
	const char *name, *unit, *want;
	json_t *def;

	json_object_foreach(json_object_get(d->root, "metrics"), name, def)
	{
		unit = json_string_value(json_object_get(def, "unit"));
		want = json_string_value(json_object_get(best, name));
		if (want && strcmp(unit, want)) {
			add_bad(s, d->path,
				"mixed units: metric %s is in \"%s\" here but "
				"in \"%s\" in the other files",
				name, unit, want);
			return 1;
		}
	}
	return 0;
}

void res_pool_finish(struct res_pool *s)
{
	json_t *best = majority_units(s), *def;
	const char *name;
	size_t i, k = 0;

	for (i = 0; i < s->ndocs; i++) {
		struct res_pdoc *d = &s->docs[i];

		if (unit_conflict(s, best, d)) {
			free(d->path);
			json_decref(d->root);
			continue;
		}
		json_object_foreach(json_object_get(d->root, "metrics"), name,
				    def)
		{
			json_object_set(s->units, name,
					json_object_get(def, "unit"));
			json_object_set(s->better, name,
					json_object_get(def, "better"));
			if (json_is_true(json_object_get(def, "rate")))
				json_object_set_new(s->rate, name, json_true());
		}
		s->docs[k++] = *d;
	}
	s->ndocs = k;
	json_decref(best);
}

const char *res_pool_unit(const struct res_pool *s, const char *metric)
{
	const char *u = json_string_value(json_object_get(s->units, metric));

	return u ? u : "";
}

int res_pool_better(const struct res_pool *s, const char *metric)
{
	const char *b = json_string_value(json_object_get(s->better, metric));

	if (!b)
		return 0;
	return !strcmp(b, "higher") ? 1 : -1;
}

int res_pool_is_rate(const struct res_pool *s, const char *metric)
{
	return json_is_true(json_object_get(s->rate, metric));
}
