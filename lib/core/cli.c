/* cli.c: checked option values for mains (see cli.h). */
#include "config.h"
#include "cli.h"
#include "log.h"
#include "units.h"

#include <getopt.h>
#include <stdlib.h>

long cli_long(const char *opt, const char *s, long min, long max)
{
	long v;

	if (units_parse_long(s, min, max, &v))
		die_usage("%s: \"%s\" is not a number in %ld..%ld", opt, s, min,
			  max);
	return v;
}

uint64_t cli_size(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	uint64_t v;

	if (units_parse_size(s, &v) || v < min || v > max)
		die_usage("%s: \"%s\" is not a size in %llu..%llu", opt, s,
			  (unsigned long long)min, (unsigned long long)max);
	return v;
}

double cli_double(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v = strtod(s, &end);

	if (!*s || *end || !(v >= lo && v <= hi))
		die_usage("%s: \"%s\" is not a number in %g..%g", opt, s, lo,
			  hi);
	return v;
}

void cli_confidence(const char *opt, const char *s, double *level,
		    double *width)
{
	char *end;

	*level = strtod(s, &end);
	*width = end != s && *end == ',' ? strtod(end + 1, &end) : 5.0;
	if (end == s || *end || !(*level >= 50 && *level < 100) ||
	    !(*width > 0 && *width <= 100))
		die_usage("%s: \"%s\" is not LEVEL,WIDTH (e.g. 95,5: 95%% "
			  "confidence, interval within 5%%)",
			  opt, s);
}

double cli_duration(const char *opt, const char *s, double min, double max)
{
	double v;

	if (units_parse_duration(s, &v) || !(v > 0) || v < min || v > max)
		die_usage("%s: \"%s\" is not a duration in %gs..%gs (e.g. 10s, 250ms)",
			  opt, s, min, max);
	return v;
}

void cli_bad_option(char *const *argv)
{
	const char *a = optind > 0 ? argv[optind - 1] : "?";

	if (optopt && a[0] == '-' && a[1] != '-')
		die_usage("-%c: unknown option or missing value (see %s --help)",
			  optopt, log_prog);
	die_usage("%s: unknown option or missing value (see %s --help)", a,
		  log_prog);
}
