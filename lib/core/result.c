/* result.c: building, summarizing, validating and writing result documents. */
#include "config.h"
#include "result.h"
#include "clock.h"
#include "hostinfo.h"
#include "log.h"
#include "stats.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct res_doc {
	json_t *root;		/* the document */
	char *output;		/* where res_finish writes, or NULL */
};

static struct res_doc *die_doc;	/* flushed by die() */

static void make_run_id(char *buf, size_t len)
{
	unsigned char r[8];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	size_t i;

	if (fd < 0 || read(fd, r, sizeof(r)) != (ssize_t)sizeof(r)) {
		uint64_t t = clock_ns() ^ ((uint64_t)getpid() << 32);

		memcpy(r, &t, sizeof(r));
	}
	if (fd >= 0)
		close(fd);
	for (i = 0; i < sizeof(r) && 2 * i + 2 < len; i++)
		snprintf(buf + 2 * i, 3, "%02x", r[i]);
}

struct res_doc *res_new(const char *tool, int argc, char *const *argv)
{
	struct res_doc *d = calloc(1, sizeof(*d));
	struct hostinfo h;
	json_t *cmd = json_array();
	char id[32] = "", ts[40];
	int i;

	if (!d)
		abort();
	for (i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	hostinfo_read(NULL, &h);
	make_run_id(id, sizeof(id));
	d->root = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:s, s:n, s:o}",
		"schema", RES_SCHEMA, "tool", tool, "tool_version",
		PACKAGE_VERSION, "run_id", id, "label", h.kernel_release,
		"started", clock_iso8601(ts, sizeof(ts)), "command", cmd,
		"host", hostinfo_to_json(&h), "cases", json_array(), "metrics",
		json_object(), "status", "ok", "error", "warnings",
		json_array());
	hostinfo_free(&h);
	if (!d->root)
		abort();
	return d;
}

void res_free(struct res_doc *d)
{
	if (!d)
		return;
	if (die_doc == d)
		die_doc = NULL;
	json_decref(d->root);
	free(d->output);
	free(d);
}

json_t *res_json(struct res_doc *d)
{
	return d->root;
}

void res_set_label(struct res_doc *d, const char *label)
{
	if (label && *label)
		json_object_set_new(d->root, "label", json_string(label));
}

const char *res_label(struct res_doc *d)
{
	return json_string_value(json_object_get(d->root, "label"));
}

void res_set_peer(struct res_doc *d, json_t *peer_host)
{
	json_object_set_new(d->root, "peer", peer_host);
}

void res_set(struct res_doc *d, const char *key, json_t *value)
{
	json_object_set_new(d->root, key, value);
}

void res_metric(struct res_doc *d, const char *name, const char *unit,
		enum res_better better, int is_rate)
{
	json_t *m = json_object_get(d->root, "metrics");

	json_object_set_new(m, name,
			    json_pack("{s:s, s:s, s:b}", "unit", unit,
				      "better",
				      better == RES_HIGHER ? "higher" : "lower",
				      "rate", is_rate));
}

json_t *res_case(struct res_doc *d, json_t *params)
{
	json_t *cases = json_object_get(d->root, "cases"), *c;
	size_t i;

	json_array_foreach(cases, i, c)
	{
		if (json_equal(json_object_get(c, "params"), params)) {
			json_decref(params);
			return c;
		}
	}
	c = json_pack("{s:o, s:o, s:o}", "params", params, "samples",
		      json_array(), "summary", json_object());
	json_array_append_new(cases, c);
	return c;
}

void res_sample(json_t *kase, json_t *sample)
{
	if (!json_object_get(sample, "metrics"))
		json_object_set_new(sample, "metrics", json_object());
	json_array_append_new(json_object_get(kase, "samples"), sample);
}

void res_sample_set(json_t *sample, const char *name, double v)
{
	json_t *m = json_object_get(sample, "metrics");

	if (!m) {
		m = json_object();
		json_object_set_new(sample, "metrics", m);
	}
	json_object_set_new(m, name, isfinite(v) ? json_real(v) : json_null());
}

static void add_warning(struct res_doc *d, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	json_array_append_new(json_object_get(d->root, "warnings"),
			      json_string(buf));
}

void res_warn(struct res_doc *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_warning(d, fmt, ap);
	va_end(ap);
}

void res_fail(struct res_doc *d, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	if (res_failed(d)) {
		add_warning(d, fmt, ap);
		va_end(ap);
		return;
	}
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_object_set_new(d->root, "status", json_string("failed"));
	json_object_set_new(d->root, "error", json_string(buf));
}

int res_failed(struct res_doc *d)
{
	return !strcmp(json_string_value(json_object_get(d->root, "status")),
		       "failed");
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *res_summary_json(const double *x, size_t n, int is_rate)
{
	struct stats_summary s;
	json_t *o;

	stats_summarize(x, n, &s);
	o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:[oo]}", "n",
		      (json_int_t)s.n, "mean", num_or_null(s.mean), "stddev",
		      num_or_null(s.stddev), "cov", num_or_null(s.cov), "min",
		      num_or_null(s.min), "median", num_or_null(s.median),
		      "max", num_or_null(s.max), "ci95",
		      num_or_null(s.ci95_lo), num_or_null(s.ci95_hi));
	if (is_rate)
		json_object_set_new(o, "hmean", num_or_null(s.hmean));
	return o;
}

void res_sample_pair(struct res_doc *d, json_t *sample, int pair,
		     int metered)
{
	json_t *m = json_object_get(sample, "metrics"), *v, *def;
	json_t *defs = json_object_get(d->root, "metrics"), *moved;
	const char *name;
	char full[160];
	void *tmp;

	json_object_set_new(sample, "pair", json_integer(pair));
	json_object_set_new(sample, "soak", json_boolean(metered));
	if (!metered || !m)
		return;
	moved = json_object();
	json_object_foreach_safe(m, tmp, name, v)
	{
		if (!strncmp(name, "cpu_", 4) || !strncmp(name, "sd_", 3) ||
		    !strncmp(name, "metered_", 8))
			continue;
		snprintf(full, sizeof(full), "metered_%s", name);
		json_object_set(moved, full, v);
		def = json_object_get(defs, name);
		if (def && !json_object_get(defs, full))
			json_object_set_new(defs, full, json_deep_copy(def));
		json_object_del(m, name);
	}
	json_object_update(m, moved);
	json_decref(moved);
}

/* The rate a case's perturbation is judged on: the first of these, else
 * the first rate metric (by name) that both kinds of run carry. */
static const char *perturb_metric(json_t *summary, json_t *metrics)
{
	static const char *const pref[] = { "throughput_MBps", "ops_per_s",
					    "msgs_per_s", "trans_per_s",
					    NULL };
	static char buf[160];
	const char *name, *best = NULL;
	json_t *v;
	int i;

	for (i = 0; pref[i]; i++) {
		snprintf(buf, sizeof(buf), "metered_%s", pref[i]);
		if (json_object_get(summary, pref[i]) &&
		    json_object_get(summary, buf))
			return pref[i];
	}
	json_object_foreach(summary, name, v)
	{
		json_t *def = json_object_get(metrics, name);

		snprintf(buf, sizeof(buf), "metered_%s", name);
		if (json_is_true(json_object_get(def, "rate")) &&
		    json_object_get(summary, buf) &&
		    (!best || strcmp(name, best) < 0))
			best = name;
	}
	return best;
}

static double sample_metric(json_t *s, const char *name)
{
	json_t *v = json_object_get(json_object_get(s, "metrics"), name);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/*
 * perturbation: for each pair k with both runs, r_k = metered rate /
 * unmetered rate; the ratio is their geometric mean, the interval
 * Student-t on log r_k. None when the case has no complete pair.
 */
void res_case_perturbation(json_t *kase, json_t *metrics)
{
	json_t *samples = json_object_get(kase, "samples"), *a, *b;
	json_t *summary = json_object_get(kase, "summary");
	const char *metric = perturb_metric(summary, metrics);
	size_t ns = json_array_size(samples), i, j, n = 0;
	struct stats_ratio r;
	char mname[160];
	double *num, *den;

	json_object_del(kase, "perturbation");
	if (!metric)
		return;
	snprintf(mname, sizeof(mname), "metered_%s", metric);
	num = calloc(ns + 1, sizeof(*num));
	den = calloc(ns + 1, sizeof(*den));
	if (!num || !den)
		abort();
	json_array_foreach(samples, i, a)
	{
		json_t *pa = json_object_get(a, "pair");

		if (!json_is_true(json_object_get(a, "soak")) ||
		    !json_is_integer(pa))
			continue;
		json_array_foreach(samples, j, b)
		{
			if (!json_is_false(json_object_get(b, "soak")) ||
			    !json_equal(json_object_get(b, "pair"), pa))
				continue;
			num[n] = sample_metric(a, mname);
			den[n++] = sample_metric(b, metric);
			break;
		}
	}
	stats_ratio_paired(num, den, n, &r);
	free(num);
	free(den);
	if (!r.n)
		return;
	json_object_set_new(
		kase, "perturbation",
		json_pack("{s:s, s:o, s:[oo], s:I, s:o, s:o, s:s}", "metric",
			  metric, "ratio", num_or_null(r.ratio), "ci95",
			  num_or_null(r.lo), num_or_null(r.hi), "pairs",
			  (json_int_t)r.n, "min", num_or_null(r.min), "max",
			  num_or_null(r.max), "formula",
			  "geometric mean over pairs of metered/unmetered; ci95: Student t on the log ratios"));
}

static void summarize_case(json_t *kase, json_t *metrics)
{
	json_t *samples = json_object_get(kase, "samples");
	json_t *summary = json_object(), *seen = json_object(), *s, *v;
	size_t nsamp = json_array_size(samples), i, j;
	const char *name;
	double *x = calloc(nsamp + 1, sizeof(*x));

	if (!x)
		abort();
	/* every metric any sample carries */
	json_array_foreach(samples, i, s)
	{
		json_object_foreach(json_object_get(s, "metrics"), name, v)
			json_object_set_new(seen, name, json_true());
	}
	json_object_foreach(seen, name, v)
	{
		size_t n = 0;
		json_t *def = json_object_get(metrics, name);

		json_array_foreach(samples, j, s)
		{
			json_t *m = json_object_get(
				json_object_get(s, "metrics"), name);

			if (json_is_number(m))
				x[n++] = json_number_value(m);
		}
		json_object_set_new(summary, name,
				    res_summary_json(x, n,
						     json_is_true(json_object_get(
							     def, "rate"))));
	}
	json_decref(seen);
	free(x);
	json_object_set_new(kase, "summary", summary);
}

void res_summarize(struct res_doc *d)
{
	json_t *cases = json_object_get(d->root, "cases"), *c;
	json_t *metrics = json_object_get(d->root, "metrics");
	size_t i;

	json_array_foreach(cases, i, c) {
		summarize_case(c, metrics);
		res_case_perturbation(c, metrics);
	}
}

/* The directory path lives in, for fsync and messages. */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* Make a rename in dir durable. 0 or -errno. */
static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), e = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) && errno != EINVAL) /* EINVAL: a fs without it */
		e = -errno;
	close(fd);
	return e;
}

static int dump(struct res_doc *d, FILE *f)
{
	return json_dumpf(d->root, f, JSON_SORT_KEYS | JSON_INDENT(2)) ||
	       fputc('\n', f) == EOF || fflush(f);
}

/* A path that is not a regular file (/dev/stdout, /dev/full, a fifo) is
 * written in place: renaming over it would replace the device node. */
static int write_in_place(struct res_doc *d, const char *path, char *err,
			  size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), e;
	FILE *f;

	if (fd < 0) {
		e = errno;
		snprintf(err, len, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	f = fdopen(fd, "w");
	errno = 0;
	if (!f || dump(d, f)) {
		e = errno ? errno : EIO;
		snprintf(err, len, "cannot write %s: %s", path, strerror(e));
		if (f)
			fclose(f);
		else
			close(fd);
		return -e;
	}
	if (fclose(f)) {
		e = errno;
		snprintf(err, len, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	return 0;
}

int res_write(struct res_doc *d, const char *path, char *err, size_t len)
{
	char tmp[4096], ts[40], dir[4096];
	struct stat st;
	int fd, e;
	FILE *f;

	res_summarize(d);
	json_object_set_new(d->root, "finished",
			    json_string(clock_iso8601(ts, sizeof(ts))));
	if (!strcmp(path, "-")) {
		if (dump(d, stdout)) {
			snprintf(err, len, "writing result to stdout failed");
			return -EIO;
		}
		return 0;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		snprintf(err, len, "cannot write %s: %s", path,
			 strerror(EISDIR));
		return -EISDIR;
	}
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return write_in_place(d, path, err, len);
	snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		snprintf(err, len, "cannot create %s: %s", tmp, strerror(e));
		return -e;
	}
	fchmod(fd, 0644);
	f = fdopen(fd, "w");
	errno = 0;
	if (!f || dump(d, f) || fsync(fd)) {
		e = errno ? errno : EIO;
		snprintf(err, len, "cannot write %s: %s", tmp, strerror(e));
		if (f)
			fclose(f);
		else
			close(fd);
		unlink(tmp);
		return -e;
	}
	if (fclose(f)) {
		e = errno;
		snprintf(err, len, "cannot write %s: %s", tmp, strerror(e));
		unlink(tmp);
		return -e;
	}
	if (rename(tmp, path)) {
		e = errno;
		snprintf(err, len, "cannot rename %s to %s: %s", tmp, path,
			 strerror(e));
		unlink(tmp);
		return -e;
	}
	dir_of(path, dir, sizeof(dir));
	e = fsync_dir(dir);
	if (e) {
		snprintf(err, len, "wrote %s, but cannot fsync %s: %s", path,
			 dir, strerror(-e));
		return e;
	}
	return 0;
}

int res_check_output(const char *path, char *err, size_t len)
{
	char tmp[4096], dir[4096];
	struct stat st;
	int fd, e = 0;

	if (!path || !strcmp(path, "-"))
		return 0;
	dir_of(path, dir, sizeof(dir));
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		snprintf(err, len, "cannot write the result to %s: %s", path,
			 "it is a directory");
		return -EISDIR;
	}
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		if (access(path, W_OK)) {
			e = errno;
			snprintf(err, len, "cannot write the result to %s: %s",
				 path, strerror(e));
			return -e;
		}
		return 0;
	}
	/* what res_write will do: a new file beside path, one byte of it */
	snprintf(tmp, sizeof(tmp), "%s.check.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		if (e == ENOENT)
			snprintf(
				err, len,
				"cannot write the result to %s: no directory %s",
				path, dir);
		else
			snprintf(
				err, len,
				"cannot write the result to %s: %s (directory %s)",
				path, strerror(e), dir);
		return -e;
	}
	if (write(fd, "\n", 1) != 1 || fsync(fd))
		e = errno ? errno : EIO;
	close(fd);
	unlink(tmp);
	if (e) {
		snprintf(err, len, "cannot write the result to %s: %s", path,
			 strerror(e));
		return -e;
	}
	return 0;
}

/* 1 when path holds a result document of a run that went well. */
static int holds_good_doc(const char *path)
{
	struct stat st;
	json_t *j;
	const char *status;
	int good;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	j = json_load_file(path, 0, NULL);
	status = json_string_value(json_object_get(j, "status"));
	good = status && !strcmp(status, "ok") &&
	       json_is_string(json_object_get(j, "schema"));
	json_decref(j);
	return good;
}

static void die_flush(const char *msg)
{
	if (!die_doc)
		return;
	res_fail(die_doc, "%s", msg);
	res_finish(die_doc);
}

void res_set_output(struct res_doc *d, const char *path)
{
	free(d->output);
	d->output = path ? strdup(path) : NULL;
	die_doc = d;
	log_set_die_hook(die_flush);
}

int res_finish(struct res_doc *d)
{
	char err[512], *path = d->output, *beside = NULL;
	int r;

	if (!path)
		return 0;
	/* a failed run never replaces a good document: it goes beside it */
	if (res_failed(d) && strcmp(path, "-") && holds_good_doc(path)) {
		if (asprintf(&beside, "%s" RES_FAILED_SUFFIX, path) < 0)
			abort();
		path = beside;
	}
	r = res_write(d, path, err, sizeof(err));
	if (r)
		log_err("%s", err);
	else if (beside)
		log_warn(
			"%s holds a good run: this failed run's document is %s",
			d->output, beside);
	free(beside);
	return r;
}

static int bad(char *err, size_t len, const char *fmt, const char *what)
{
	snprintf(err, len, fmt, what);
	return -EINVAL;
}

static int validate_case(json_t *c, size_t idx, char *err, size_t len)
{
	json_t *samples = json_object_get(c, "samples"), *s, *v;
	const char *name;
	char where[64];
	size_t i;

	snprintf(where, sizeof(where), "cases[%zu]", idx);
	if (!json_is_object(c))
		return bad(err, len, "%s is not an object", where);
	if (!json_is_object(json_object_get(c, "params")))
		return bad(err, len, "%s has no params object", where);
	if (!json_is_array(samples))
		return bad(err, len, "%s has no samples array", where);
	if (!json_is_object(json_object_get(c, "summary")))
		return bad(err, len, "%s has no summary object", where);
	json_array_foreach(samples, i, s)
	{
		json_t *m = json_object_get(s, "metrics");

		if (!json_is_object(m))
			return bad(err, len, "%s: a sample has no metrics",
				   where);
		json_object_foreach(m, name, v)
		{
			if (!json_is_number(v) && !json_is_null(v)) {
				snprintf(err, len,
					 "%s: metric %s is not a number", where,
					 name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int res_validate(json_t *doc, char *err, size_t len)
{
	static const char *const strs[] = { "tool", "tool_version", "run_id",
					    "label", "started", "status",
					    NULL };
	const char *schema, *status, *name;
	json_t *cases, *metrics, *c, *m;
	size_t i;
	int r;

	if (!json_is_object(doc))
		return bad(err, len, "%s", "document is not a JSON object");
	schema = json_string_value(json_object_get(doc, "schema"));
	if (!schema)
		return bad(err, len, "%s", "missing field: schema");
	if (strcmp(schema, RES_SCHEMA))
		return bad(err, len, "unsupported schema version \"%s\"",
			   schema);
	for (i = 0; strs[i]; i++)
		if (!json_is_string(json_object_get(doc, strs[i])))
			return bad(err, len, "missing or non-string field: %s",
				   strs[i]);
	status = json_string_value(json_object_get(doc, "status"));
	if (strcmp(status, "ok") && strcmp(status, "failed"))
		return bad(err, len, "status \"%s\" is neither ok nor failed",
			   status);
	if (!json_is_array(json_object_get(doc, "command")))
		return bad(err, len, "%s", "missing array: command");
	if (!json_is_object(json_object_get(doc, "host")))
		return bad(err, len, "%s", "missing object: host");
	if (!json_is_array(json_object_get(doc, "warnings")))
		return bad(err, len, "%s", "missing array: warnings");
	metrics = json_object_get(doc, "metrics");
	if (!json_is_object(metrics))
		return bad(err, len, "%s", "missing object: metrics");
	json_object_foreach(metrics, name, m)
	{
		const char *b = json_string_value(json_object_get(m, "better"));

		if (!json_is_string(json_object_get(m, "unit")))
			return bad(err, len, "metric %s has no unit", name);
		if (!b || (strcmp(b, "higher") && strcmp(b, "lower")))
			return bad(err, len,
				   "metric %s: better is not higher|lower",
				   name);
	}
	cases = json_object_get(doc, "cases");
	if (!json_is_array(cases))
		return bad(err, len, "%s", "missing array: cases");
	json_array_foreach(cases, i, c)
	{
		r = validate_case(c, i, err, len);
		if (r)
			return r;
	}
	return 0;
}
