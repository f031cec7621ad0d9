/*
 * result.h: the result document every tool writes (lib/doc/SCHEMA.md).
 *
 * A tool makes one document per invocation, adds cases (keyed by their
 * params) and samples (one per repetition, with a flat "metrics" object of
 * numbers), and writes it atomically. Summaries are computed from the
 * samples at write time, so a document is never out of step with itself.
 */
#ifndef ZCB_RESULT_H
#define ZCB_RESULT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define RES_SCHEMA "zcbench-result/1"

enum res_better { RES_HIGHER = 1, RES_LOWER = -1 };

struct res_doc;

struct res_doc *res_new(const char *tool, int argc, char *const *argv);
void res_free(struct res_doc *d);
json_t *res_json(struct res_doc *d);	/* borrowed: the whole document */

void res_set_label(struct res_doc *d, const char *label);
const char *res_label(struct res_doc *d);
/* The other side's host facts (stolen reference). */
void res_set_peer(struct res_doc *d, json_t *peer_host);
/* Any top-level extra, e.g. "config" (stolen reference). */
void res_set(struct res_doc *d, const char *key, json_t *value);

/*
 * Declare a metric: its unit ("MB/s", "%", "us/KB", "s", "msg/s"...),
 * which direction is better, and whether it is a rate (then the summary
 * carries the harmonic mean too). Declaring twice is harmless.
 */
void res_metric(struct res_doc *d, const char *name, const char *unit,
		enum res_better better, int is_rate);

/* The case whose params equal `params` (stolen), created if new.
 * Returns a borrowed reference to the case object. */
json_t *res_case(struct res_doc *d, json_t *params);
/* Append a sample (stolen) to a case; it must hold "metrics": {...}. */
void res_sample(json_t *kase, json_t *sample);
/*
 * Paired runs (lib/cpu/meter.h): mark a finished sample as run `pair` (0, 1,
 * ...) of its case, metered (soakers on) or not. A metered sample's
 * figures other than the meters' (cpu_*, sd_*, which meter_add_metrics
 * already named) describe a slowed run: they move to metered_<name>, so
 * a summary of throughput_MBps holds unmetered runs only. The case then
 * gets "perturbation" at summary time (lib/doc/SCHEMA.md). Call after
 * every metric of the sample is set.
 */
void res_sample_pair(struct res_doc *d, json_t *sample, int pair,
		     int metered);
/* Shortcut: set metrics[name] = v in a sample, creating "metrics". */
void res_sample_set(json_t *sample, const char *name, double v);
/*
 * --omit: with s > 0 (where the sample's window opened), set the
 * sample's "omitted" to {"s": s, what: n}, n what moved before it
 * ("bytes", chatbench's "messages"), and return it (borrowed) for the
 * tool's other counts (SCHEMA.md); else NULL and no "omitted".
 */
json_t *res_sample_omitted(json_t *sample, double s, const char *what,
			   uint64_t n);

void res_warn(struct res_doc *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Mark the run failed; the first error is kept, later ones are warnings. */
void res_fail(struct res_doc *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int res_failed(struct res_doc *d);

/* Recompute every case's summary from its samples. */
void res_summarize(struct res_doc *d);
/* Recompute one case's "perturbation" from its paired samples (removed
 * when it has no complete pair); its summary must be current. The
 * report uses it so a loaded document's marks follow its samples. */
void res_case_perturbation(json_t *kase, json_t *metrics);

/*
 * Write to path ("-" = stdout) with sorted keys: summarize, write a temp
 * file in the same directory, fsync, rename, fsync the directory. A path
 * that exists and is not a regular file (/dev/stdout, /dev/full, a fifo)
 * is written in place. 0 or -errno (err filled).
 */
int res_write(struct res_doc *d, const char *path, char *err, size_t len);

/*
 * Before a run: can a document be written to path? NULL and "-" can;
 * else a file is made, written (one byte), synced and removed beside
 * path, and path must not be a directory. 0, or -errno with err one line
 * naming path ("no directory D", "Permission denied", "No space left").
 */
int res_check_output(const char *path, char *err, size_t len);

/*
 * Remember where the document goes (-o FILE or -J) so res_finish() and the
 * die() hook write it: a tool that dies still leaves a whole document with
 * status "failed" and the error. path NULL = no document asked for.
 */
void res_set_output(struct res_doc *d, const char *path);
/*
 * Write the document where res_set_output said; 0 or -errno (logged). A
 * failed run's document never replaces a good one (status "ok") at that
 * path: it goes to PATH.failed beside it (and a warning says so).
 */
#define RES_FAILED_SUFFIX ".failed"
int res_finish(struct res_doc *d);
/* Summarize one metric over an array of numbers into a JSON object. */
json_t *res_summary_json(const double *x, size_t n, int is_rate);

/* Validate a document against the schema; 0 or -EINVAL with a reason. */
int res_validate(json_t *doc, char *err, size_t len);

#endif
