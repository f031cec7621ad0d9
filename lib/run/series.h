/*
 * series.h: the one run engine. A tool describes one run of its workload
 * (struct series_ops); the series decides every run that is made, in
 * order, and keeps what the runs measured:
 *
 *   - the cells: the cases a tool sweeps (p9bench's op x size x path,
 *     nfsbench's size x clients), 1 for a tool with one case; each
 *     repeat round visits every cell not yet done, in the tool's order
 *     (series_ops.order: ABBA between two paths, say);
 *   - pairs: with a meter that perturbs (soak, the profiler), each result
 *     is two runs back to back, metered then unmetered (lib/cpu/meter.h);
 *     the rate comes from the unmetered runs, and the ratio of the two
 *     rates is the cell's perturbation;
 *   - --repeat and --confidence (netperf's -I): a cell is done when its
 *     results' interval is tight enough, or its repeats are used up;
 *   - a disturbed run (the tool saw steal time or a stranger's CPU in its
 *     window) is kept in the document, marked, and made again, up to
 *     series_cfg.reruns times per cell;
 *   - a signal stops the series between two runs;
 *   - with cfg.probe_ms, the box's speed just before each run
 *     (probe.h), kept in its sample.
 *
 * A tool's main: parse the options, pick its workload's ops, series_run,
 * write the document; its printers read the figures back from here.
 *
 * Library code: returns 0 or -1 with err filled, never prints.
 */
#ifndef ZCB_SERIES_H
#define ZCB_SERIES_H

#include "probe.h"

#include <jansson.h>
#include <signal.h>
#include <stddef.h>

struct cli_common;
struct quiet_sample;
struct stats_ratio;

#define SERIES_CONF_MIN 3	/* results before --confidence is judged */

struct series_cfg {
	int ncells;		/* cases swept (>= 1) */
	int repeat;		/* results per cell; with --confidence the
				 * most (>= 1) */
	double conf_level;	/* --confidence L (e.g. 95), 0 = off */
	double conf_width;	/* W: the interval's whole width, % of the
				 * mean */
	int paired;		/* runs go in pairs (a meter with a cost) */
	const char *paired_by;	/* the meter that pairs them ("soak",
				 * "profile"), NULL unpaired */
	int reruns;		/* disturbed runs made again per cell, at
				 * most (0: a disturbed run just counts) */
	double steal_max;	/* a run is disturbed past this steal (% of
				 * the box; series_quiet) */
	double outside_max;	/* or past this CPU outside the run */
	double probe_ms;	/* > 0: before each run, the box's speed
				 * (probe.h) for this long, into its sample
				 * (series_quiet_doc); 0: none */
	volatile sig_atomic_t *stop; /* set: stop before the next run */
};

/* One run, as the series hands it to the tool. */
struct series_run {
	int cell;		/* the case */
	int rep;		/* its result (the pair, when paired), 0-based */
	int run;		/* the cell's run, 0-based, re-runs counted */
	int seq;		/* the series' run, 0-based */
	int paired;		/* the runs go in pairs */
	int metered;		/* paired: the meter's run (soakers on) */
	int next_metered;	/* the kind of the next planned run: 1
				 * metered, 0 unmetered, -1 none planned
				 * (confidence may still end the series
				 * before it) */
	int rerun;		/* 1: a disturbed run made again */
	int reruns_left;	/* re-runs the cell has left: a disturbed
				 * run with some is made again */
	int again;		/* done: this run is made again (it was
				 * disturbed); next_metered then says its
				 * kind */
	const char *paired_by;	/* cfg.paired_by */
};

enum series_outcome {
	SERIES_FAILED = -1,	/* err says why; the series stops */
	SERIES_OK = 0,		/* the run counts */
	SERIES_DISTURBED = 1,	/* kept by the tool (marked); made again
				 * while the cell has re-runs left */
};

struct series_ops {
	/* Optional, before the run: park or wake the soakers of every
	 * measured box (cpuwin_metered). 0 or -1 with err. */
	int (*prepare)(void *ctx, const struct series_run *r, char *err,
		       size_t len);
	/* Make the run: its rate (the cell's figure of merit, higher is
	 * better: MB/s, msg/s, transactions/s) into *rate. An enum
	 * series_outcome. */
	int (*run)(void *ctx, const struct series_run *r, double *rate,
		   char *err, size_t len);
	/* Optional, once the series has judged the run: more is 1 when
	 * another run follows (the end-of-run exchange tells the peer).
	 * 0 or -1 with err (the series stops). */
	int (*done)(void *ctx, const struct series_run *r, int more,
		    char *err, size_t len);
	/* Optional: the cell made k-th in repeat round rep (default k). */
	int (*order)(void *ctx, int rep, int k);
};

struct series_cell {
	double *res;		/* results: unmetered (or unpaired) rates */
	double *met;		/* paired: the metered rate of pair i */
	int n, nm;		/* how many of each */
	int runs;		/* runs made, re-runs included */
	int reruns;		/* disturbed runs made again */
	int disturbed;		/* disturbed runs */
	int done;		/* no more runs: enough results or
				 * --confidence reached */
	int reached;		/* --confidence reached */
};

struct series {
	struct series_cfg cfg;
	struct series_cell *cell; /* cfg.ncells */
	int seq;		/* runs made */
	int stopped;		/* a signal or a failure ended it early */
	int failed;		/* a run or a hook failed */
	struct probe_result probe; /* cfg.probe_ms: the last run's */
};

/* The settings the common options give (--repeat, --confidence, --reruns,
 * --disturbance, --probe: lib/core/cli.h) into c; the cells, the pairs
 * and the stop are the tool's to set. */
void series_cfg_cli(struct series_cfg *c, const struct cli_common *o);
/* 0, or -1 with err (a bad setting). */
int series_open(struct series *s, const struct series_cfg *c, char *err,
		size_t len);
/*
 * Every run, until each cell is done, a signal, or a failure. 0 when it
 * ran to its end or a signal stopped it (s->stopped), -1 when a run
 * failed (err from the tool).
 */
int series_run(struct series *s, const struct series_ops *ops, void *ctx,
	       char *err, size_t len);
/* From inside run 0 of an unpaired series: the runs go in pairs after
 * all, by the meter `by` (zcc learns from its zcs's first answer that
 * the server soaks); run 0 becomes the metered run of pair 0. */
void series_pair_now(struct series *s, const char *by);
/* Runs the series plans for a cell: 2 x repeat when paired. */
int series_planned(const struct series *s);

/*
 * Was the box quiet in run r (lib/cpu/quiet.h)? SERIES_DISTURBED when
 * q is past cfg.steal_max or cfg.outside_max, with why saying what and
 * what comes of it ("...: made again", "...: no re-runs left, it
 * stands"), else SERIES_OK with why "". The tool returns it from its
 * run.
 */
int series_quiet(const struct series *s, const struct series_run *r,
		 const struct quiet_sample *q, char *why, size_t len);
/* The run's "quiet" into its result sample and, disturbed (outcome),
 * its "disturbed" mark: with "rerun": true when it is made again (so it
 * stands for no result: lib/doc/paired.h RUN_DISTURBED); with
 * cfg.probe_ms, the probe taken before it ("probe": probe_json). */
void series_quiet_doc(const struct series *s, const struct series_run *r,
		      const struct quiet_sample *q, int outcome,
		      json_t *sample);

/* What a cell measured. Results: the unmetered runs' rates. */
const double *series_results(const struct series *s, int cell, int *n);
/* The metered rates of the pairs (n of them). */
const double *series_metered(const struct series *s, int cell, int *n);
/* The cell's perturbation: metered over unmetered rate, pair by pair.
 * 0 with *r filled, -1 without a pair. */
int series_perturbation(const struct series *s, int cell,
			struct stats_ratio *r);
/* The perturbation in words (meter_perturbation_by): "" without pairs. */
const char *series_perturbation_note(const struct series *s, int cell,
				     char *buf, size_t len);
/* --confidence: 1 reached, 0 not (*hw: the half width, % of the mean),
 * -1 not asked for. */
int series_confidence(const struct series *s, int cell, double *hw);
/* The median of the cell's results, NAN without one. */
double series_median(const struct series *s, int cell);
void series_close(struct series *s);

#endif
