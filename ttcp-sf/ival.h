/*
 * ival.h: -i SECS interval reports and --json-stream (iperf3's): while
 * a sample runs, a thread reads the sample's progress counter every
 * SECS and prints a line with the interval's rate and, with -c, the
 * box's CPU (/proc/stat, a meter of its own so the sample's windows are
 * untouched); with --json-stream each interval is also one JSON object
 * on a line of stdout, and the end of the run one more. The intervals
 * are kept in the sample of the result document.
 *
 * A runner registers its counter (bytes, or transactions) when its data
 * starts and unregisters it before the counter goes away; the intervals
 * are timed from the registration.
 */
#ifndef ZCB_TTCP_IVAL_H
#define ZCB_TTCP_IVAL_H

#include <jansson.h>
#include <stdint.h>

#include "ttcp.h"

/* Start the reporter of sample idx (no-op without -i/--json-stream);
 * trans: the counter counts transactions, else bytes. */
void ival_start(const struct cfg *c, const char *side, int idx, int trans);
/* The runner's counter: set when its data starts, NULL before it goes. */
void ival_watch(const uint64_t *counter);
/* Stop: the last (partial) interval up to the final count; returns the
 * sample's intervals (new reference; NULL without -i). */
json_t *ival_stop(uint64_t final);
/* --json-stream: the end object, with the whole result document. */
void ival_stream_end(const struct cfg *c, struct res_doc *d);

#endif
