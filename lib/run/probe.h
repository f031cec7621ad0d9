/*
 * probe.h: the box's speed, measured by a fixed piece of user-space work
 * (issue 26). A nightly's rates drift between nights on a shared box
 * with whatever else the host runs: here chatbench's msg/s moved about
 * 13% night to night with nothing changed, more than the 5% loss a
 * verdict must see. A kernel regression on an I/O path does not slow a
 * loop that makes no system call; a slower box does. So each sample can
 * carry a probe taken just before it (series_cfg.probe_ms), and
 * zcbreport compare --history adjusts the figures for it (a slope
 * fitted on the baseline's samples: cmpprobe.c).
 *
 * The work: on each CPU the process may run on (sched_getaffinity), a
 * thread pinned to it makes multiply-add steps of a linear congruential
 * generator, each adding into a random word of its own 8 MiB table (so
 * the caches and the memory the host shares count, as they do for the
 * tools), until ms have passed; the threads start together once all
 * have filled their tables. The figure is the steps of all threads over the time the
 * slowest took, in millions per second.
 *
 * Library code: 0 or -1 with err filled, never prints.
 */
#ifndef ZCB_PROBE_H
#define ZCB_PROBE_H

#include "cli.h"

#include <jansson.h>
#include <stddef.h>

#define PROBE_MS_MAX CLI_PROBE_MS_MAX /* the longest probe, ms */

struct probe_result {
	double mops;		/* million steps per second, all CPUs */
	double ms;		/* how long it ran (the slowest thread) */
	int ncpu;		/* CPUs it ran on */
};

/* Run the probe for ms (1 to PROBE_MS_MAX) milliseconds. */
int probe_run(double ms, struct probe_result *r, char *err, size_t len);

/* {"Mops": .., "ms": .., "ncpu": ..}: a sample's "probe". */
json_t *probe_json(const struct probe_result *r);

#endif
