/*
 * ival.h: -i SECS interval reports and --json-stream (iperf3's), for every
 * tool with a run to watch: while a sample runs, a thread reads the
 * sample's progress counter every SECS and prints a line with the
 * interval's count and rate and, with a meter, the box's CPU (/proc/stat,
 * a meter of its own, so the sample's windows are untouched); with
 * --json-stream each interval is also one JSON object on a line of the
 * stream (stdout), and the end of the run one more. The intervals are
 * handed back per sample, for the result document.
 *
 * A runner registers its counter (ival_watch, or a function that sums
 * several: ival_watch_fn) when its data starts and unregisters it before
 * the counter goes away; the intervals are timed from the registration,
 * and the reporter's thread starts there (so a tool may fork its workers
 * between ival_start and ival_watch: no thread of ours is copied).
 * A counter one thread writes is added to with ctr_add (lib/core/ctr.h);
 * one several threads add to, with __atomic_fetch_add. Every call takes
 * a NULL reporter (no -i) and does nothing.
 */
#ifndef ZCB_IVAL_H
#define ZCB_IVAL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct res_doc;

struct ival_opts {
	double interval;     /* seconds between lines; <= 0: no reporter */
	int json_stream;     /* each interval also a JSON line on stream */
	int cpu;	     /* a CPU column: the box's busy % (procstat) */
	const char *label;   /* starts each line ("ttcp-t"); ival_start
			      * may name another per sample */
	const char *unit;    /* what is counted: "bytes" (MB/s),
			      * "transactions" (trans/s), "messages"
			      * (msg/s), "ops" (ops/s) */
	FILE *out;	     /* the lines (the tool's text stream) */
	FILE *stream;	     /* the JSON lines; NULL = stdout */
	double (*now)(void); /* the clock; NULL = clock_now (tests: fake) */
	int manual;	     /* no thread: the caller ticks (tests) */
};

struct ival;

/* A reporter (*ivp NULL when o->interval <= 0); 0 or -errno with err. */
int ival_open(struct ival **ivp, const struct ival_opts *o, char *err,
	      size_t len);
/* The same for a tool: its interval, --json-stream and -c, its lines'
 * label, its unit and its text stream (JSON on stdout, real clock). */
int ival_open_for(struct ival **ivp, double interval, int json_stream, int cpu,
		  const char *label, const char *unit, FILE *out, char *err,
		  size_t len);
void ival_close(struct ival *iv);
/* Start watching sample idx (label: its lines' first word; NULL = the
 * opts' label, kept by the caller until ival_stop); 0 or -errno (err
 * filled). */
int ival_start(struct ival *iv, int idx, const char *label, char *err,
	       size_t len);
/* What the samples from the next ival_watch on count (ival_opts.unit):
 * a receiver that learns it from its peer (ttcp-sf -r answering --rr);
 * 0 or -EINVAL for a unit it has none of. */
int ival_unit(struct ival *iv, const char *unit);
/* The runner's counter: set when its data starts, NULL before it goes. */
void ival_watch(struct ival *iv, const uint64_t *counter);
/* The same with a function that reads the progress (e.g. a sum over
 * connections); read NULL unregisters. */
void ival_watch_fn(struct ival *iv, uint64_t (*read)(void *), void *arg);
/*
 * What a runner adds to each interval beside its count (ttcp-sf: TCP's
 * facts per flow): fn(arg, label, secs, j, suffix, slen, lines, llen)
 * adds keys to the interval's JSON object j, text after the line's rate
 * into suffix (empty to start) and whole lines to print after it into
 * lines (each beginning with label); secs is the interval's length. It
 * is called from the reporter's thread with its lock held, for every
 * interval from now, the last partial one (ival_stop) included; fn NULL
 * stops it, and ival_start and ival_stop do too.
 */
typedef void (*ival_extra_fn)(void *arg, const char *label, double secs,
			      json_t *j, char *suffix, size_t slen,
			      char *lines, size_t llen);
void ival_extra(struct ival *iv, ival_extra_fn fn, void *arg);
/* The reporter's step: the interval up to now when a boundary has
 * passed; returns the intervals emitted (0 or 1). The thread calls it;
 * a manual reporter's caller does. */
int ival_tick(struct ival *iv);
/* Stop: the last (partial) interval up to the final count; returns the
 * sample's intervals (new reference; NULL without a reporter). */
json_t *ival_stop(struct ival *iv, uint64_t final);
/* --json-stream: the end object, holding the whole (summarized) result
 * document, on stream (NULL = stdout). */
void ival_stream_end(FILE *stream, struct res_doc *d);

#endif
