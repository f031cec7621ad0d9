/*
 * result.c: building result documents and writing them (atomically, a
 * failed run's beside a good one, flushed by die()). Summaries and the
 * perturbation of paired runs are in result_summary.c, the validator the
 * loader shares in result_valid.c.
 */
#include "config.h"
#include "result.h"
#include "result_int.h"
#include "clock.h"
#include "hostinfo.h"
#include "hostrun.h"
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	hostrun_begin();
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

json_t *res_sample_omitted(json_t *sample, double s, const char *what,
			   uint64_t n)
{
	json_t *o;

	if (!(s > 0))
		return NULL;
	o = json_pack("{s:f, s:I}", "s", s, what, (json_int_t)n);
	json_object_set_new(sample, "omitted", o);
	return o;
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

/* Dump d to fd (closed here), fsync'd when sync; 0, or -errno with err
 * naming the file shown. */
static int dump_fd(struct res_doc *d, int fd, const char *shown, int sync,
		   char *err, size_t len)
{
	FILE *f = fdopen(fd, "w");
	int e;

	errno = 0;
	if (!f || dump(d, f) || (sync && fsync(fd))) {
		e = errno ? errno : EIO;
		snprintf(err, len, "cannot write %s: %s", shown, strerror(e));
		if (f)
			fclose(f);
		else
			close(fd);
		return -e;
	}
	if (fclose(f)) {
		e = errno;
		snprintf(err, len, "cannot write %s: %s", shown, strerror(e));
		return -e;
	}
	return 0;
}

/* A path that is not a regular file (/dev/stdout, /dev/full, a fifo) is
 * written in place: renaming over it would replace the device node. */
static int write_in_place(struct res_doc *d, const char *path, char *err,
			  size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), e;

	if (fd < 0) {
		e = errno;
		snprintf(err, len, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	return dump_fd(d, fd, path, 0, err, len);
}

int res_write(struct res_doc *d, const char *path, char *err, size_t len)
{
	char tmp[4096], ts[40], dir[4096];
	struct stat st;
	int fd, e;

	res_summarize(d);
	hostrun_add(json_object_get(d->root, "host"));
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
	e = dump_fd(d, fd, tmp, 1, err, len);
	if (e) {
		unlink(tmp);
		return e;
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
