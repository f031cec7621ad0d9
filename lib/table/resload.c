/*
 * resload.c: loads result documents for zcbreport (see resload.h). A
 * file that is not JSON, fails res_validate(), records a failed run, has
 * a tool name that is not a plain word, a transcription whose samples
 * contradict it, or uses another unit for a metric than the rest of the
 * set is refused with its reason; the others are kept, each read once,
 * with summaries that follow their samples.
 */
#include "config.h"
#include "resload.h"
#include "result.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RL_MAX_DEPTH 32	  /* directory recursion limit (a backstop) */
#define RL_MAX_TOOL  64	  /* longest tool name */
#define RL_SAME	     1e-9 /* relative difference two figures may have */

void rl_init(struct rl_set *s)
{
	memset(s, 0, sizeof(*s));
	s->units = json_object();
	s->better = json_object();
	s->rate = json_object();
	s->seen = json_object();
	s->walking = json_object();
}

static void free_list(struct rl_bad *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].why);
	}
	free(v);
}

void rl_free(struct rl_set *s)
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

void *rl_grow(void *p, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 16;
	p = realloc(p, *cap * elem);
	if (!p)
		abort();
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

static void add_to(struct rl_bad **v, size_t *n, size_t *cap, const char *path,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Append "path: why" to a list (bad, skipped or warned). */
static void add_to(struct rl_bad **v, size_t *n, size_t *cap, const char *path,
		   const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	*v = rl_grow(*v, cap, *n, sizeof(**v));
	(*v)[*n].path = xstrdup(path);
	(*v)[(*n)++].why = xstrdup(why);
}

#define add_bad(s, path, ...)                                                  \
	add_to(&(s)->bad, &(s)->nbad, &(s)->capbad, path, __VA_ARGS__)
#define add_skipped(s, path, ...)                                              \
	add_to(&(s)->skipped, &(s)->nskipped, &(s)->capskipped, path,          \
	       __VA_ARGS__)
#define add_warned(s, path, ...)                                               \
	add_to(&(s)->warned, &(s)->nwarned, &(s)->capwarned, path, __VA_ARGS__)

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

/* Whether stored (a number or null) is the figure v (NAN: none). */
static int same_figure(json_t *stored, double v)
{
	double x;

	if (json_is_null(stored))
		return !isfinite(v);
	if (!json_is_number(stored) || !isfinite(v))
		return 0;
	x = json_number_value(stored);
	return fabs(x - v) <= RL_SAME * fmax(fabs(x), fabs(v));
}

static double num(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static double figure(json_t *o, const char *field)
{
	return num(json_object_get(o, field));
}

/* The first figure of a stored summary that its samples' summary
 * (fresh) contradicts, described in why; 0 when none. A field the
 * stored summary lacks contradicts nothing. */
static int contradiction(json_t *stored, json_t *fresh, const char *const *f,
			 char *why, size_t len)
{
	json_t *sv;

	for (; *f; f++) {
		sv = json_object_get(stored, *f);
		if (!sv || !json_object_get(fresh, *f) ||
		    same_figure(sv, figure(fresh, *f)))
			continue;
		snprintf(why, len, "%s %.6g, the samples give %.6g", *f,
			 figure(stored, *f), figure(fresh, *f));
		return 1;
	}
	return 0;
}

/* The metrics any sample of a case carries, as a set. */
static json_t *carried_metrics(json_t *kase)
{
	json_t *set = json_object(), *smp, *v;
	const char *name;
	size_t j;

	json_array_foreach(json_object_get(kase, "samples"), j, smp)
	{
		json_object_foreach(json_object_get(smp, "metrics"), name, v)
			json_object_set_new(set, name, json_true());
	}
	return set;
}

/* A perturbation as text, for a warning. */
static void pert_text(char *b, size_t len, json_t *p)
{
	json_t *ci = json_object_get(p, "ci95");

	if (!p)
		snprintf(b, len, "none");
	else
		snprintf(b, len, "%.6g (%.6g-%.6g, %lld pairs)",
			 figure(p, "ratio"), num(json_array_get(ci, 0)),
			 num(json_array_get(ci, 1)),
			 (long long)json_integer_value(
				 json_object_get(p, "pairs")));
}

/*
 * The case's perturbation made again from its paired samples (after its
 * summary: lib/core/result.c picks the rate from it). 1 when the stored one
 * said otherwise (ratio, interval or pairs; why, when not NULL, says
 * how), else 0.
 */
static int perturbation_moved(json_t *kase, json_t *metrics, char *why,
			      size_t len)
{
	json_t *old = json_incref(json_object_get(kase, "perturbation")), *p;
	char a[128], b[128];
	int moved;

	res_case_perturbation(kase, metrics);
	p = json_object_get(kase, "perturbation");
	moved = !old != !p;
	if (old && p) {
		json_t *oc = json_object_get(old, "ci95");
		json_t *pc = json_object_get(p, "ci95");

		moved = !same_figure(json_object_get(old, "ratio"),
				     figure(p, "ratio")) ||
			!same_figure(json_array_get(oc, 0),
				     num(json_array_get(pc, 0))) ||
			!same_figure(json_array_get(oc, 1),
				     num(json_array_get(pc, 1))) ||
			!json_equal(json_object_get(old, "pairs"),
				    json_object_get(p, "pairs"));
	}
	if (moved && why) {
		pert_text(a, sizeof(a), old);
		pert_text(b, sizeof(b), p);
		snprintf(why, len, "%s, the samples give %s", a, b);
	}
	json_decref(old);
	return moved;
}

/*
 * One case of check_summaries(): -1 (a transcription contradicted), 1
 * (a measured summary was wrong), else 0; why (may be NULL, len 0)
 * says where.
 */
static int check_case(json_t *kase, size_t idx, json_t *metrics,
		      int transcribed, char *why, size_t len)
{
	/* the figures tables read; stddev first, as one sample has none */
	static const char *const measured[] = {"stddev", "n",	   "mean",
					       "hmean",	 "median", NULL};
	static const char *const published[] = {"mean", "hmean", NULL};
	json_t *sum = json_object_get(kase, "summary");
	json_t *carried = carried_metrics(kase), *v;
	const char *name;
	char w[512];
	int r = 0;

	json_object_foreach(carried, name, v)
	{
		int rate = json_is_true(json_object_get(
			json_object_get(metrics, name), "rate"));
		json_t *old = json_object_get(sum, name), *fresh;
		double *x = NULL;
		size_t n = 0, cap = 0;

		rl_case_values(kase, name, &x, &n, &cap);
		fresh = res_summary_json(x, n, transcribed || rate);
		free(x);
		if (transcribed) {
			r = n &&
			    contradiction(old, fresh, published, w, sizeof(w));
			json_decref(fresh);
			if (r) {
				snprintf(why, len,
					 "transcribed figures contradict the "
					 "samples: cases[%zu] %s %s",
					 idx, name, w);
				break;
			}
			continue;
		}
		if (!r && contradiction(old, fresh, measured + (n < 2), w,
					sizeof(w))) {
			snprintf(why, len, "cases[%zu] %s %s", idx, name, w);
			r = 1;
		}
		json_object_set_new(sum, name, fresh);
	}
	/* a measured summary has no figure without samples */
	json_object_foreach(metrics, name, v)
	{
		if (transcribed || !json_object_get(sum, name) ||
		    json_object_get(carried, name))
			continue;
		if (!r)
			snprintf(why, len,
				 "cases[%zu] %s has a summary and no samples",
				 idx, name);
		r = 1;
		json_object_del(sum, name);
	}
	json_decref(carried);
	/* the marks follow the samples too */
	if (!transcribed && perturbation_moved(kase, metrics, w, sizeof(w)) &&
	    !r) {
		snprintf(why, len, "cases[%zu] perturbation %s", idx, w);
		r = 1;
	}
	return transcribed ? -r : r;
}

/*
 * Make a document's summaries follow its samples (see resload.h): 0, or
 * 1 when a measured document's stored summary was wrong (recomputed),
 * or -1 when a transcription contradicts its samples (refuse it); why
 * says where (the first place).
 */
static int check_summaries(json_t *root, char *why, size_t len)
{
	int transcribed = json_is_true(json_object_get(root, "transcribed"));
	json_t *metrics = json_object_get(root, "metrics"), *c;
	size_t i;
	int r = 0, k;

	json_array_foreach(json_object_get(root, "cases"), i, c)
	{
		k = check_case(c, i, metrics, transcribed, r ? NULL : why,
			       r ? 0 : len);
		if (k < 0)
			return -1;
		r |= k;
	}
	return r;
}

/* Take ownership of a validated root. */
static int add_doc(struct rl_set *s, const char *name, json_t *root)
{
	char err[1024];
	struct rl_doc *d;
	const char *status;
	int r;

	if (res_validate(root, err, sizeof(err))) {
		add_bad(s, name, "%s", err);
		json_decref(root);
		return -EINVAL;
	}
	status = json_string_value(json_object_get(root, "status"));
	if (strcmp(status, "ok")) {
		const char *e =
			json_string_value(json_object_get(root, "error"));

		add_bad(s, name, "the run failed: %s",
			e ? e : "no error given");
		json_decref(root);
		return -EINVAL;
	}
	if (!tool_name_ok(json_string_value(json_object_get(root, "tool")))) {
		add_bad(s, name,
			"tool is not a plain name (letters, digits, "
			"'-', '_', '.')");
		json_decref(root);
		return -EINVAL;
	}
	r = check_summaries(root, err, sizeof(err));
	if (r < 0) {
		add_bad(s, name, "%s", err);
		json_decref(root);
		return -EINVAL;
	}
	if (r)
		add_warned(s, name,
			   "the stored summary disagrees with the samples, "
			   "which are used: %s",
			   err);
	s->docs = rl_grow(s->docs, &s->capdocs, s->ndocs, sizeof(*s->docs));
	d = &s->docs[s->ndocs];
	d->path = xstrdup(name);
	d->root = root;
	d->tool = json_string_value(json_object_get(root, "tool"));
	d->label = json_string_value(json_object_get(root, "label"));
	d->transcribed = json_is_true(json_object_get(root, "transcribed"));
	d->order = s->ndocs++;
	return 0;
}

int rl_add_buffer(struct rl_set *s, const char *name, const char *buf,
		  size_t len)
{
	json_error_t je;
	json_t *root;

	if (len > RL_MAX_FILE) {
		add_bad(s, name, "larger than %u MiB", RL_MAX_FILE >> 20);
		return -EINVAL;
	}
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		add_bad(s, name, "not JSON: line %d column %d: %s", je.line,
			je.column, je.text);
		return -EINVAL;
	}
	return add_doc(s, name, root);
}

/* The identity of a file or directory: "dev:ino". */
static void id_key(char *buf, size_t len, const struct stat *st)
{
	snprintf(buf, len, "%llx:%llx", (unsigned long long)st->st_dev,
		 (unsigned long long)st->st_ino);
}

/* The path a file or directory was first read under, or NULL. */
static const char *seen_as(struct rl_set *s, const char *id)
{
	return json_string_value(json_object_get(s->seen, id));
}

/* Read one file, unless it was read already under another name. In a
 * directory walk (walk) only a regular file is read, and never waited
 * for: what was a file when listed may be a FIFO by now. */
static int add_file(struct rl_set *s, const char *path, int walk)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | (walk ? O_NONBLOCK : 0));
	char id[64], *buf;
	struct stat st;
	size_t got;
	FILE *f;
	int r;

	if (fd < 0) {
		r = -errno;
		add_bad(s, path, "cannot open: %s", strerror(-r));
		return r;
	}
	if (fstat(fd, &st)) {
		r = -errno;
		close(fd);
		add_bad(s, path, "cannot stat: %s", strerror(-r));
		return r;
	}
	if (walk && !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	id_key(id, sizeof(id), &st);
	if (seen_as(s, id)) {
		add_skipped(s, path, "the same file as %s", seen_as(s, id));
		close(fd);
		return -EEXIST;
	}
	json_object_set_new(s->seen, id, json_string_nocheck(path));
	if (st.st_size > (off_t)RL_MAX_FILE) {
		close(fd);
		add_bad(s, path, "larger than %u MiB", RL_MAX_FILE >> 20);
		return -EINVAL;
	}
	f = fdopen(fd, "rb");
	if (!f)
		abort();
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		abort();
	got = fread(buf, 1, (size_t)st.st_size, f);
	if (ferror(f)) {
		add_bad(s, path, "read error");
		fclose(f);
		free(buf);
		return -EIO;
	}
	fclose(f);
	r = rl_add_buffer(s, path, buf, got);
	free(buf);
	return r;
}

static int is_json_name(const char *n)
{
	size_t l = strlen(n);

	return n[0] != '.' && l > 5 && !strcmp(n + l - 5, ".json");
}

/* Every *.json under dir, once: a directory already walked (another name
 * for it, or a symlink back to one being walked) is skipped. */
static size_t add_dir(struct rl_set *s, const char *dir, int depth)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent **ents;
	size_t added = 0;
	struct stat st;
	char id[64];
	int n, i;

	if (fd < 0 || fstat(fd, &st)) {
		add_bad(s, dir, "cannot read directory: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return 0;
	}
	id_key(id, sizeof(id), &st);
	if (seen_as(s, id)) {
		add_skipped(s, dir, "%s %s",
			    json_object_get(s->walking, id)
				    ? "a symlink loop back to"
				    : "the same directory as",
			    seen_as(s, id));
		close(fd);
		return 0;
	}
	if (depth > RL_MAX_DEPTH) {
		add_bad(s, dir, "directories nested too deep");
		close(fd);
		return 0;
	}
	json_object_set_new(s->seen, id, json_string_nocheck(dir));
	n = scandirat(fd, ".", &ents, NULL, alphasort);
	close(fd);
	if (n < 0) {
		add_bad(s, dir, "cannot read directory: %s", strerror(errno));
		return 0;
	}
	json_object_set_new(s->walking, id, json_true());
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char p[4096];

		if (name[0] != '.' &&
		    (size_t)snprintf(p, sizeof(p), "%s/%s", dir, name) <
			    sizeof(p) &&
		    !stat(p, &st)) {
			if (S_ISDIR(st.st_mode))
				added += add_dir(s, p, depth + 1);
			else if (S_ISREG(st.st_mode) && is_json_name(name))
				added += add_file(s, p, 1) == 0;
		}
		free(ents[i]);
	}
	free(ents);
	json_object_del(s->walking, id);
	return added;
}

size_t rl_add_path(struct rl_set *s, const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		add_bad(s, path, "cannot open: %s", strerror(errno));
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return add_dir(s, path, 0);
	return add_file(s, path, 0) == 0;
}

/* The unit most documents use for each metric (first seen wins ties). */
static json_t *majority_units(struct rl_set *s)
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
static int unit_conflict(struct rl_set *s, json_t *best, struct rl_doc *d)
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

void rl_finish(struct rl_set *s)
{
	json_t *best = majority_units(s), *def;
	const char *name;
	size_t i, k = 0;

	for (i = 0; i < s->ndocs; i++) {
		struct rl_doc *d = &s->docs[i];

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

const char *rl_param_str(json_t *params, const char *name, char *buf,
			 size_t len)
{
	json_t *v = json_object_get(params, name);
	double x;

	if (!v)
		return NULL;
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		x = json_real_value(v);
		if (x == floor(x) && fabs(x) < 1e15)
			snprintf(buf, len, "%.0f", x);
		else
			snprintf(buf, len, "%g", x);
	} else if (json_is_boolean(v)) {
		snprintf(buf, len, "%s", json_is_true(v) ? "yes" : "no");
	} else if (json_is_null(v)) {
		snprintf(buf, len, "-");
	} else {
		char *d = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);

		snprintf(buf, len, "%s", d ? d : "?");
		free(d);
	}
	return buf;
}

double rl_param_num(json_t *params, const char *name)
{
	json_t *v = json_object_get(params, name);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

void rl_case_values(json_t *kase, const char *metric, double **x, size_t *n,
		    size_t *cap)
{
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(kase, "samples"), i, s)
	{
		json_t *v =
			json_object_get(json_object_get(s, "metrics"), metric);

		if (!json_is_number(v) || !isfinite(json_number_value(v)))
			continue;
		*x = rl_grow(*x, cap, *n, sizeof(**x));
		(*x)[(*n)++] = json_number_value(v);
	}
}

int rl_case_has(json_t *kase, const char *metric)
{
	json_t *sum = json_object_get(json_object_get(kase, "summary"), metric);
	json_t *s;
	size_t i;

	if (json_is_number(json_object_get(sum, "mean")))
		return 1;
	json_array_foreach(json_object_get(kase, "samples"), i, s)
	{
		if (json_is_number(json_object_get(
			    json_object_get(s, "metrics"), metric)))
			return 1;
	}
	return 0;
}

const char *rl_unit(const struct rl_set *s, const char *metric)
{
	const char *u = json_string_value(json_object_get(s->units, metric));

	return u ? u : "";
}

int rl_better(const struct rl_set *s, const char *metric)
{
	const char *b = json_string_value(json_object_get(s->better, metric));

	if (!b)
		return 0;
	return !strcmp(b, "higher") ? 1 : -1;
}

int rl_is_rate(const struct rl_set *s, const char *metric)
{
	return json_is_true(json_object_get(s->rate, metric));
}
