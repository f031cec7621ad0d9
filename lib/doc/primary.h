/*
 * primary.h: the metrics a case is judged on (issue 26). A nightly run
 * carries some 180 figures; judged all at once, Benjamini-Hochberg over
 * that many tests takes the power away from the few that matter. Each
 * tool has a short list instead (lib/doc/primary.c, the one place it is
 * written; man/zcbreport.1 states it): the rate, the CPU per unit of work
 * (service demand of the side's primary meter), the CPU-normalised rate,
 * p99 latency for request/response and the copy family's share when
 * profiled. zcbreport compare --judge primary judges those and prints
 * the rest as context; zcbreport trend follows the same list.
 *
 * A figure under two names is one row: cpu_box_procstat_pct is
 * cpu_box_pct when procstat is the box's primary meter. An alias is a
 * metric whose name is another's with a meter's name inside, or a
 * remote figure's with "local" (res_metric_alias_of); whether the two
 * are the same figure the samples say (within 0.5% wherever a sample
 * has both: report/compare/cmprow.c).
 */
#ifndef ZCB_PRIMARY_H
#define ZCB_PRIMARY_H

#include <stddef.h>

/* 1 when tool's cases are judged on metric, else 0. A tool without a
 * list (none of ours) has every metric judged. */
int res_metric_primary(const char *tool, const char *metric);
/* The name metric would have without the meter inside it into buf
 * ("cpu_box_pct" for "cpu_box_procstat_pct", "sd_local_us_per_kb" for
 * "sd_local_sched_us_per_kb"), else the local side's name of a remote
 * figure ("sd_local_us_per_kb" for "sd_remote_us_per_kb": on one box
 * both may be the box's), or NULL when it has neither. */
const char *res_metric_alias_of(const char *metric, char *buf, size_t len);
/* The list of tool as one line for a note: "throughput_MBps, ...",
 * NULL for a tool without one. */
const char *res_primary_words(const char *tool, char *buf, size_t len);

#endif
