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
 * cpu_box_pct when procstat is the box's primary meter, and a side's
 * service demand is its CPU-normalised rate upside down (sd_local_us_per_kb
 * = 1024 / MB_per_cpu_s_local: the rate is judged). An alias is a metric
 * whose name is another's with a meter's name inside, a service demand's
 * rate, or a remote figure's with "local" (res_metric_alias_of); whether
 * the two are the same figure the samples say (within 0.5% wherever a
 * sample has both, their product for the reciprocals:
 * report/compare/cmprow.c).
 */
#ifndef ZCB_PRIMARY_H
#define ZCB_PRIMARY_H

#include <stddef.h>

/* 1 when tool's cases are judged on metric, else 0. A tool without a
 * list (none of ours) has every metric judged. */
int res_metric_primary(const char *tool, const char *metric);
/* The name metric would have without the meter inside it ("cpu_box_pct"
 * for "cpu_box_procstat_pct") into buf, or NULL. */
const char *res_metric_meter_cut(const char *metric, char *buf, size_t len);
/* The name of the figure metric may be an alias of, into buf: without
 * its meter (res_metric_meter_cut), else a service demand's CPU-normalised
 * rate ("MB_per_cpu_s_local" for "sd_local_us_per_kb", "trans_per_cpu_s_S"
 * for "sd_S_us_per_tx", metered_ kept), else the local side's name of a
 * remote figure ("MB_per_cpu_s_local" for "MB_per_cpu_s_remote": on one
 * box both may be the box's); NULL when it has none. */
const char *res_metric_alias_of(const char *metric, char *buf, size_t len);
/* How metric and its alias are one figure: 0 the same number, else
 * their product (1024 for a service demand per KB and its MB per
 * CPU-second, 1e6 per transaction). */
double res_metric_alias_k(const char *metric);
/* The list of tool as one line for a note: "throughput_MBps, ...",
 * NULL for a tool without one. */
const char *res_primary_words(const char *tool, char *buf, size_t len);

#endif
