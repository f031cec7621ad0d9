/* clock.h: the monotonic clock every measurement uses. */
#ifndef ZCB_CLOCK_H
#define ZCB_CLOCK_H

#include <stdint.h>

uint64_t clock_ns(void);	/* CLOCK_MONOTONIC in nanoseconds */
double clock_now(void);		/* the same, in seconds */
double clock_wall(void);	/* CLOCK_REALTIME in seconds (timestamps) */
/* ISO 8601 UTC timestamp of now, "2026-11-29T20:00:00Z". */
const char *clock_iso8601(char *buf, unsigned len);
/* Sleep for seconds; returns early (nonzero) when a signal arrives. */
int clock_sleep(double seconds);

#endif
