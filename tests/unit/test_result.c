/* test_result.c: result documents: build, summarize, validate, write;
 * the output checked before a run, a failed run kept beside a good one,
 * the directory synced after the rename, devices written in place. */
#include "config.h"
#include "paired.h"
#include "resload.h"
#include "result.h"
#include "t.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * fsync, interposed (this program's definition wins over libc's for the
 * library linked into it): count the fsyncs of a directory made while
 * watch_file already exists, i.e. after the rename.
 */
static const char *watch_file;
static int dir_syncs_after;

int fsync(int fd)
{
	struct stat st;

	if (watch_file && !fstat(fd, &st) && S_ISDIR(st.st_mode) &&
	    !access(watch_file, F_OK))
		dir_syncs_after++;
	return (int)syscall(SYS_fsync, fd);
}

static int count_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	if (d)
		closedir(d);
	return n;
}

static const char *status_of(const char *path, char *run_id, size_t len)
{
	static char st[32];
	json_t *j = json_load_file(path, 0, NULL);

	snprintf(st, sizeof(st), "%s",
		 j ? json_string_value(json_object_get(j, "status")) : "none");
	if (run_id)
		snprintf(run_id, len, "%s",
			 j ? json_string_value(json_object_get(j, "run_id"))
			   : "");
	json_decref(j);
	return st;
}

/* res_check_output: what a tool asks before its run. */
static void test_check_output(const char *dir)
{
	char path[512], err[512];
	int before = count_files(dir);

	T_CHECK(res_check_output(NULL, err, sizeof(err)) == 0);
	T_CHECK(res_check_output("-", err, sizeof(err)) == 0);
	snprintf(path, sizeof(path), "%s/new.json", dir);
	T_CHECK(res_check_output(path, err, sizeof(err)) == 0);
	T_CHECK(count_files(dir) == before); /* the probe is gone */
	snprintf(path, sizeof(path), "%s/missing/r.json", dir);
	T_CHECK(res_check_output(path, err, sizeof(err)) == -ENOENT);
	T_CHECK(strstr(err, "no directory") && strstr(err, "/missing") &&
		!strchr(err, '\n'));
	T_CHECK(res_check_output(dir, err, sizeof(err)) == -EISDIR);
	T_CHECK(strstr(err, "directory") != NULL);
	T_CHECK(res_check_output("/dev/null", err, sizeof(err)) == 0);
}

/* A failed run beside a good document; failed over failed is fine. */
static void test_failed_beside_good(const char *dir)
{
	char *argv[] = {"tool", NULL};
	char path[512], failed[600], id[64], id2[64];
	struct res_doc *d;

	snprintf(path, sizeof(path), "%s/keep.json", dir);
	snprintf(failed, sizeof(failed), "%s" RES_FAILED_SUFFIX, path);
	d = res_new("t", 1, argv);
	res_set_output(d, path);
	T_CHECK(res_finish(d) == 0);
	res_free(d);
	T_STREQ(status_of(path, id, sizeof(id)), "ok");

	d = res_new("t", 1, argv);
	res_set_output(d, path);
	res_fail(d, "bad --bind");
	T_CHECK(res_finish(d) == 0);
	res_free(d);
	T_STREQ(status_of(path, id2, sizeof(id2)), "ok");
	T_STREQ(id2, id); /* the good one is untouched */
	T_STREQ(status_of(failed, NULL, 0), "failed");

	/* a failed document may replace a failed one */
	unlink(failed);
	d = res_new("t", 1, argv);
	res_fail(d, "first");
	T_CHECK(res_write(d, path, id, sizeof(id)) == 0);
	res_free(d);
	d = res_new("t", 1, argv);
	res_set_output(d, path);
	res_fail(d, "second");
	T_CHECK(res_finish(d) == 0);
	res_free(d);
	T_STREQ(status_of(path, NULL, 0), "failed");
	T_CHECK(access(failed, F_OK) != 0);
	unlink(path);
}

/* A device is written in place, never renamed over; /dev/full fails. */
static void test_devices(void)
{
	struct res_doc *d = res_new("t", 0, NULL);
	char err[512];
	struct stat st;

	T_CHECK(res_write(d, "/dev/null", err, sizeof(err)) == 0);
	if (!stat("/dev/full", &st) && S_ISCHR(st.st_mode)) {
		T_CHECK(res_write(d, "/dev/full", err, sizeof(err)) == -ENOSPC);
		T_CHECK(strstr(err, "No space left") != NULL);
		T_CHECK(!stat("/dev/full", &st) && S_ISCHR(st.st_mode));
	}
	T_CHECK(!stat("/dev/null", &st) && S_ISCHR(st.st_mode));
	res_free(d);
}

static int count_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (strstr(e->d_name, ".tmp."))
			n++;
	if (d)
		closedir(d);
	return n;
}

/* Paired runs: metered figures move aside, the summary of the rate holds
 * the unmetered runs only, and the case carries its perturbation. */
static void paired(void)
{
	struct res_doc *d = res_new("t", 0, NULL);
	double rate[4] = { 50, 100, 60, 100 }; /* metered, unmetered, ... */
	json_t *c, *s, *p, *sum;
	int i;

	res_metric(d, "throughput_MBps", "MB/s", RES_HIGHER, 1);
	c = res_case(d, json_pack("{s:s}", "method", "write"));
	for (i = 0; i < 4; i++) {
		s = json_object();
		res_sample_set(s, "throughput_MBps", rate[i]);
		res_sample_set(s, "cpu_local_pct", 40 + i); /* a meter's */
		if (i % 2 == 0) /* the profile's, made by the metered run */
			res_sample_set(s, "prof_local_copy_pct", 10 + i);
		res_sample_pair(d, s, i / 2, i % 2 == 0);
		res_sample(c, s);
	}
	res_summarize(d);
	s = json_array_get(json_object_get(c, "samples"), 0);
	T_CHECK(json_is_true(json_object_get(s, "soak")));
	T_CHECK(json_integer_value(json_object_get(s, "pair")) == 0);
	T_CHECK(!json_object_get(json_object_get(s, "metrics"),
				 "throughput_MBps"));
	T_NEAR(json_number_value(json_object_get(
		       json_object_get(s, "metrics"), "metered_throughput_MBps")),
	       50, 1e-9);
	/* the meter's figure keeps its name */
	T_CHECK(json_object_get(json_object_get(s, "metrics"),
				"cpu_local_pct") != NULL);
	/* so does the profile's: it describes the run it made */
	T_CHECK(json_object_get(json_object_get(s, "metrics"),
				"prof_local_copy_pct") != NULL);
	sum = json_object_get(json_object_get(c, "summary"),
			      "prof_local_copy_pct");
	T_CHECK(json_integer_value(json_object_get(sum, "n")) == 2);
	/* metered_ metric declared like its original */
	T_STREQ(json_string_value(json_object_get(
			json_object_get(json_object_get(res_json(d), "metrics"),
					"metered_throughput_MBps"),
			"unit")),
		"MB/s");
	sum = json_object_get(json_object_get(c, "summary"), "throughput_MBps");
	T_CHECK(json_integer_value(json_object_get(sum, "n")) == 2);
	T_NEAR(json_number_value(json_object_get(sum, "mean")), 100, 1e-9);
	p = json_object_get(c, "perturbation");
	T_ASSERT(json_is_object(p));
	T_STREQ(json_string_value(json_object_get(p, "metric")),
		"throughput_MBps");
	T_NEAR(json_number_value(json_object_get(p, "ratio")), sqrt(0.5 * 0.6),
	       1e-9);
	T_CHECK(json_integer_value(json_object_get(p, "pairs")) == 2);
	T_CHECK(json_is_number(json_array_get(json_object_get(p, "ci95"), 0)));
	T_CHECK(res_validate(res_json(d), NULL, 0) == 0);
	res_free(d);

	/* unpaired samples: no perturbation, names untouched */
	d = res_new("t", 0, NULL);
	c = res_case(d, json_object());
	s = json_object();
	res_sample_set(s, "throughput_MBps", 1);
	res_sample(c, s);
	res_summarize(d);
	T_CHECK(!json_object_get(c, "perturbation"));
	res_free(d);
}

/* A disturbed sample made again (issue 26) is kept, marked, and pools
 * into no result: not the summary, not the perturbation, not a case's
 * values; one that stands (no re-runs left) counts. */
static void disturbed(void)
{
	struct res_doc *d = res_new("t", 0, NULL);
	/* metered, unmetered, the metered again after a disturbed one... */
	double rate[5] = { 50, 100, 10, 60, 100 };
	int pair[5] = { 0, 0, 1, 1, 1 }, rerun[5] = { 0, 0, 1, 0, 0 };
	json_t *c, *s, *sum;
	double *x = NULL;
	size_t n = 0, cap = 0;
	int i;

	res_metric(d, "throughput_MBps", "MB/s", RES_HIGHER, 1);
	c = res_case(d, json_pack("{s:s}", "method", "write"));
	for (i = 0; i < 5; i++) {
		s = json_object();
		res_sample_set(s, "throughput_MBps", rate[i]);
		res_sample_set(s, "cpu_local_pct", 40 + i);
		res_sample_pair(d, s, pair[i], i == 0 || i == 2 || i == 3);
		if (rerun[i])
			json_object_set_new(s, "disturbed",
					    json_pack("{s:f, s:b}", "outside_pct",
						      30.0, "rerun", 1));
		res_sample(c, s);
	}
	res_summarize(d);
	s = json_array_get(json_object_get(c, "samples"), 2);
	T_CHECK(res_sample_run(s) == RUN_DISTURBED && !res_sample_counts(s));
	T_CHECK(json_object_get(s, "disturbed") != NULL); /* kept */
	sum = json_object_get(json_object_get(c, "summary"), "cpu_local_pct");
	T_CHECK(json_integer_value(json_object_get(sum, "n")) == 4);
	T_NEAR(json_number_value(json_object_get(sum, "mean")),
	       (40 + 41 + 43 + 44) / 4.0, 1e-9);
	sum = json_object_get(json_object_get(c, "summary"),
			      "metered_throughput_MBps");
	T_CHECK(json_integer_value(json_object_get(sum, "n")) == 2);
	/* the pairs: (50, 100) and (60, 100), never the disturbed 10 */
	T_NEAR(json_number_value(json_object_get(
		       json_object_get(c, "perturbation"), "ratio")),
	       sqrt(0.5 * 0.6), 1e-9);
	res_case_values(c, "cpu_local_pct", &x, &n, &cap);
	T_CHECK(n == 4);
	T_CHECK(res_case_result_runs(c) == 2);
	T_CHECK(!(res_case_runs(c, NULL) & RUN_DISTURBED));
	free(x);
	/* a disturbed sample that stands (no re-runs left) counts */
	json_object_set_new(s, "disturbed", json_pack("{s:b}", "rerun", 0));
	T_CHECK(res_sample_counts(s) && res_sample_run(s) == RUN_METERED);
	T_CHECK(res_validate(res_json(d), NULL, 0) == 0);
	res_free(d);
}

/* --omit's mark: only past 0 s, its two keys in order, more added after. */
static void omitted(void)
{
	json_t *s = json_object(), *o;
	char *txt;

	T_CHECK(res_sample_omitted(s, 0, "bytes", 5) == NULL);
	T_CHECK(res_sample_omitted(s, NAN, "bytes", 5) == NULL);
	T_CHECK(json_object_get(s, "omitted") == NULL);
	o = res_sample_omitted(s, 2.5, "bytes", 1048576);
	T_ASSERT(o && json_object_get(s, "omitted") == o);
	json_object_set_new(o, "ops", json_integer(16));
	txt = json_dumps(s, JSON_COMPACT);
	T_STREQ(txt, "{\"omitted\":{\"s\":2.5,\"bytes\":1048576,\"ops\":16}}");
	free(txt);
	json_decref(s);
}

int main(void)
{
	char *argv[] = { "tool", "-x", NULL };
	char dir[] = "/tmp/zcb-test-result-XXXXXX", path[256], err[256];
	struct res_doc *d = res_new("testtool", 2, argv);
	json_t *c, *s, *doc, *sum;
	json_error_t je;

	paired();
	disturbed();
	omitted();
	int i;

	T_ASSERT(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
	res_set_label(d, "kernel-A");
	res_metric(d, "throughput_MBps", "MB/s", RES_HIGHER, 1);
	c = res_case(d, json_pack("{s:s, s:i}", "method", "sendfile", "size",
				  32768));
	for (i = 1; i <= 4; i++) {
		s = json_object();
		res_sample_set(s, "throughput_MBps", 100.0 * i);
		res_sample(c, s);
	}
	/* the same params find the same case */
	T_CHECK(res_case(d, json_pack("{s:i, s:s}", "size", 32768, "method",
				      "sendfile")) == c);
	T_CHECK(json_array_size(json_object_get(res_json(d), "cases")) == 1);
	res_warn(d, "calibration is %d days old", 3);
	T_CHECK(!res_failed(d));
	watch_file = path;
	T_ASSERT(res_write(d, path, err, sizeof(err)) == 0);
	watch_file = NULL;
	T_CHECK(dir_syncs_after == 1); /* the directory, after the rename */
	T_CHECK(count_tmp(dir) == 0);

	doc = json_load_file(path, 0, &je);
	T_ASSERT(doc);
	T_CHECK(res_validate(doc, err, sizeof(err)) == 0);
	T_STREQ(json_string_value(json_object_get(doc, "schema")), RES_SCHEMA);
	T_STREQ(json_string_value(json_object_get(doc, "label")), "kernel-A");
	T_STREQ(json_string_value(json_object_get(doc, "tool")), "testtool");
	sum = json_object_get(json_object_get(
		json_array_get(json_object_get(doc, "cases"), 0), "summary"),
		"throughput_MBps");
	T_CHECK(json_integer_value(json_object_get(sum, "n")) == 4);
	T_NEAR(json_real_value(json_object_get(sum, "mean")), 250, 1e-9);
	T_NEAR(json_real_value(json_object_get(sum, "median")), 250, 1e-9);
	T_NEAR(json_real_value(json_object_get(sum, "hmean")),
	       4.0 / (1 / 100.0 + 1 / 200.0 + 1 / 300.0 + 1 / 400.0), 1e-9);
	T_CHECK(json_array_size(json_object_get(sum, "ci95")) == 2);
	json_decref(doc);

	/* sorted keys: "cases" comes before "tool" in the text */
	{
		FILE *f = fopen(path, "r");
		char text[65536];
		size_t n = fread(text, 1, sizeof(text) - 1, f);

		fclose(f);
		text[n] = 0;
		T_CHECK(strstr(text, "\"cases\"") < strstr(text, "\"tool\""));
		T_CHECK(strstr(text, "\"error\"") < strstr(text, "\"host\""));
	}

	/* failing keeps the first error */
	res_fail(d, "peer %s died", "B");
	res_fail(d, "second error");
	T_CHECK(res_failed(d));
	T_STREQ(json_string_value(json_object_get(res_json(d), "error")),
		"peer B died");
	/* write into a directory that does not exist: error, nothing left */
	T_CHECK(res_write(d, "/nonexistent/dir/r.json", err, sizeof(err)) < 0);
	T_CHECK(strstr(err, "/nonexistent/dir") != NULL);
	res_free(d);

	/* validation names what is wrong */
	doc = json_loads("{\"schema\":\"zcbench-result/9\"}", 0, &je);
	T_CHECK(res_validate(doc, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "zcbench-result/9") != NULL);
	json_decref(doc);
	doc = json_loads("[1,2]", 0, &je);
	T_CHECK(res_validate(doc, err, sizeof(err)) == -EINVAL);
	json_decref(doc);
	d = res_new("t", 0, NULL);
	c = res_case(d, json_object());
	s = json_pack("{s:{s:s}}", "metrics", "x", "fast");
	res_sample(c, s);
	T_CHECK(res_validate(res_json(d), err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "metric x") != NULL);
	res_free(d);

	test_check_output(dir);
	test_failed_beside_good(dir);
	test_devices();

	unlink(path);
	T_CHECK(count_files(dir) == 0);
	rmdir(dir);
	return t_done();
}
