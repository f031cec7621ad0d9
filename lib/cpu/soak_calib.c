/*
 * soak_calib.c: the stored calibration of the soakers (idle rates per
 * CPU) and the check of it against the running box.
 */
#include "config.h"
#include "soak.h"
#include "hostinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int soak_calib_path(const char *override, char *buf, size_t len)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	int n;

	if (override && *override)
		n = snprintf(buf, len, "%s", override);
	else if (x && *x)
		n = snprintf(buf, len, "%s/zcbench/calibration.json", x);
	else
		n = snprintf(buf, len,
			     "%s/.local/state/zcbench/calibration.json",
			     home && *home ? home : "/root");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

json_t *soak_calib_to_json(const struct soak_calib *c)
{
	json_t *cpus = json_array();
	int i;

	for (i = 0; i < c->ncpu; i++)
		json_array_append_new(cpus, json_pack("{s:i, s:f}", "cpu",
						      c->cpu_id[i], "rate",
						      c->rate[i]));
	return json_pack(
		"{s:s, s:s, s:s, s:i, s:s, s:i, s:f, s:f, s:s, s:s, s:o}",
		"schema", SOAK_CALIB_SCHEMA, "kernel_release",
		c->kernel_release, "cpu_model", c->cpu_model, "online_cpus",
		c->online_cpus, "made", c->made, "rounds", c->rounds,
		"round_s", c->round_s, "spread_pct", c->spread_pct, "note",
		c->note, "soaker", c->soaker[0] ? c->soaker : "spin", "cpus",
		cpus);
}

static void str(json_t *j, const char *k, char *buf, size_t len)
{
	const char *v = json_string_value(json_object_get(j, k));

	snprintf(buf, len, "%s", v ? v : "");
}

int soak_calib_from_json(json_t *j, struct soak_calib *c, char *err, size_t len)
{
	json_t *cpus = json_object_get(j, "cpus"), *e;
	const char *schema = json_string_value(json_object_get(j, "schema"));
	size_t i;

	memset(c, 0, sizeof(*c));
	if (!schema || strcmp(schema, SOAK_CALIB_SCHEMA)) {
		snprintf(err, len, "not a calibration (schema %s, want %s)",
			 schema ? schema : "missing", SOAK_CALIB_SCHEMA);
		return -EINVAL;
	}
	if (!json_is_array(cpus) || !json_array_size(cpus) ||
	    json_array_size(cpus) > SOAK_MAX_CPUS) {
		snprintf(err, len, "calibration has no usable cpus list");
		return -EINVAL;
	}
	json_array_foreach(cpus, i, e)
	{
		json_t *id = json_object_get(e, "cpu"),
		       *r = json_object_get(e, "rate");

		if (!json_is_integer(id) || !json_is_number(r) ||
		    json_integer_value(id) < 0 ||
		    json_integer_value(id) >= HOST_MAX_CPUS ||
		    !(json_number_value(r) > 0) ||
		    !isfinite(json_number_value(r))) {
			snprintf(err, len, "calibration entry %zu is bad", i);
			return -EINVAL;
		}
		c->cpu_id[i] = (int)json_integer_value(id);
		c->rate[i] = json_number_value(r);
	}
	c->ncpu = (int)json_array_size(cpus);
	str(j, "kernel_release", c->kernel_release, sizeof(c->kernel_release));
	str(j, "cpu_model", c->cpu_model, sizeof(c->cpu_model));
	str(j, "made", c->made, sizeof(c->made));
	str(j, "note", c->note, sizeof(c->note));
	str(j, "soaker", c->soaker, sizeof(c->soaker));
	if (!c->soaker[0]) /* made before soakers had kinds */
		snprintf(c->soaker, sizeof(c->soaker), "spin");
	c->online_cpus =
		(int)json_integer_value(json_object_get(j, "online_cpus"));
	c->rounds = (int)json_integer_value(json_object_get(j, "rounds"));
	c->round_s = json_number_value(json_object_get(j, "round_s"));
	c->spread_pct = json_number_value(json_object_get(j, "spread_pct"));
	return 0;
}

int soak_calib_load(const char *path, struct soak_calib *c, char *err,
		    size_t len)
{
	json_error_t je;
	json_t *j;
	int r;

	if (access(path, F_OK)) {
		r = -errno;
		snprintf(err, len,
			 "no calibration at %s (run cyclesoak --calibrate)",
			 path);
		return r == -ENOENT ? -ENOENT : r;
	}
	j = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!j) {
		snprintf(err, len, "calibration %s: %s (line %d)", path,
			 je.text, je.line);
		return -EINVAL;
	}
	r = soak_calib_from_json(j, c, err, len);
	json_decref(j);
	if (r) {
		char tmp[256];

		snprintf(tmp, sizeof(tmp), "%s", err);
		snprintf(err, len, "%s: %s", path, tmp);
	}
	return r;
}

static int mkdirs(const char *path)
{
	char p[4096], *s;

	snprintf(p, sizeof(p), "%s", path);
	s = strrchr(p, '/');
	if (!s || s == p)
		return 0;
	*s = 0;
	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int soak_calib_save(const char *path, const struct soak_calib *c, char *err,
		    size_t len)
{
	char tmp[4200];
	json_t *j;
	int r, fd;

	r = mkdirs(path);
	if (r) {
		snprintf(err, len, "cannot make the directory of %s: %s", path,
			 strerror(-r));
		return r;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		r = -errno;
		snprintf(err, len, "cannot create %s: %s", tmp, strerror(-r));
		return r;
	}
	fchmod(fd, 0644);
	j = soak_calib_to_json(c);
	r = json_dumpfd(j, fd, JSON_SORT_KEYS | JSON_INDENT(2));
	json_decref(j);
	if (r || write(fd, "\n", 1) != 1 || fsync(fd)) {
		snprintf(err, len, "cannot write %s", tmp);
		close(fd);
		unlink(tmp);
		return -EIO;
	}
	close(fd);
	if (rename(tmp, path)) {
		r = -errno;
		snprintf(err, len, "cannot rename %s to %s: %s", tmp, path,
			 strerror(-r));
		unlink(tmp);
		return r;
	}
	return 0;
}

/* A calibration of another box: what differs into warn, with what to do
 * about it; 1. */
static int stale(char *warn, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int stale(char *warn, size_t len, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(warn, len, fmt, ap);
	va_end(ap);
	n = strlen(warn);
	snprintf(warn + n, len - n, " (cyclesoak --calibrate)");
	return 1;
}

int soak_calib_check(const struct soak_calib *c, const struct hostinfo *h,
		     char *warn, size_t len)
{
	if (strcmp(c->kernel_release, h->kernel_release))
		return stale(warn, len,
			     "calibration made on kernel %s, running %s",
			     c->kernel_release, h->kernel_release);
	if (c->online_cpus != h->online_cpus)
		return stale(warn, len,
			     "calibration made with %d online CPUs, now %d",
			     c->online_cpus, h->online_cpus);
	if (strcmp(c->cpu_model, h->cpu_model))
		return stale(
			warn, len,
			"calibration made on CPU \"%s\", running on \"%s\"",
			c->cpu_model, h->cpu_model);
	return 0;
}

double soak_calib_rate(const struct soak_calib *c, int cpu)
{
	int i;

	for (i = 0; i < c->ncpu; i++)
		if (c->cpu_id[i] == cpu)
			return c->rate[i];
	return 0;
}

const char *soak_calibration_warning(const char *calib_file)
{
	static char warn[512];
	char path[4096], err[512];
	struct soak_calib c;
	struct hostinfo h;
	int r;

	if (soak_calib_path(calib_file, path, sizeof(path)) ||
	    soak_calib_load(path, &c, err, sizeof(err)))
		return NULL;
	hostinfo_read(NULL, &h);
	r = soak_calib_check(&c, &h, warn, sizeof(warn));
	hostinfo_free(&h);
	return r ? warn : NULL;
}
