/*
 * cli.h: option values for a tool's main: parse, or die_usage (exit 2)
 * with one line naming the option, the value and what was expected.
 * Mains only: these exit, like die().
 */
#ifndef ZCB_CLI_H
#define ZCB_CLI_H

#include <stdint.h>

/* A whole number in [min, max] (decimal, or 0x hex). */
long cli_long(const char *opt, const char *s, long min, long max);
/* A size with k/m/g suffixes (lib/core/units.h) in [min, max]. */
uint64_t cli_size(const char *opt, const char *s, uint64_t min, uint64_t max);
/* A decimal number in [lo, hi]. */
double cli_double(const char *opt, const char *s, double lo, double hi);
/*
 * netperf's -I: "LEVEL,WIDTH" (95,5) or "LEVEL" (width 5): a confidence
 * level in [50, 100) and an interval width in (0, 100] percent.
 */
void cli_confidence(const char *opt, const char *s, double *level,
		    double *width);
/* A positive duration ("10", "250ms", "2m") in [min, max] seconds. */
double cli_duration(const char *opt, const char *s, double min, double max);

/*
 * getopt returned '?' (set opterr = 0 before the loop, so getopt's own
 * message doesn't double ours): one line naming the argument, exit 2.
 */
void cli_bad_option(char *const *argv) __attribute__((noreturn));

#endif
