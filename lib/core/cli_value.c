/* cli_value.c: one option's value, checked, for mains (cli.h): numbers,
 * sizes, durations, choices, a plain option's row stored, and the line
 * for an option getopt did not know. */
#include "config.h"
#include "cli.h"
#include "log.h"
#include "units.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
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

void cli_disturbance(const char *opt, const char *s, double *steal,
		     double *outside)
{
	char *end;

	*steal = strtod(s, &end);
	*outside = end != s && *end == ',' ? strtod(end + 1, &end) : 5.0;
	if (end == s || *end || !(*steal >= 0 && *steal <= 100) ||
	    !(*outside >= 0 && *outside <= 100))
		die_usage("%s: \"%s\" is not STEAL,OUTSIDE (e.g. 2,5: a "
			  "sample is disturbed past 2%% steal or 5%% of the "
			  "box outside the run)",
			  opt, s);
}

int cli_choice(const char *opt, const char *s, const char *const *names)
{
	char all[256];
	size_t n = 0;
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return i;
	all[0] = '\0';
	for (i = 0; names[i] && n < sizeof(all); i++)
		n += (size_t)snprintf(all + n, sizeof(all) - n, "%s%s",
				      !i ? "" : names[i + 1] ? ", " : " or ",
				      names[i]);
	die_usage("%s: \"%s\" is not %s", opt, s, all);
}

void cli_pin_cpu(const char *opt, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die_errno("%s %d: cannot run on CPU %d", opt, cpu, cpu);
}

void cli_bad_option(char *const *argv)
{
	const char *a = optind > 0 ? argv[optind - 1] : "?";

	/* a missing value is ':' (the leading ':' of the short options),
	 * so '?' is an unknown letter, an unknown or ambiguous long name,
	 * or a value given to a long option that takes none */
	if (optopt && a[0] == '-' && a[1] != '-')
		die_usage("-%c: unknown option (see %s --help)", optopt,
			  log_prog);
	if (strchr(a, '='))
		die_usage("%s: unknown option, or one that takes no value (see %s --help)",
			  a, log_prog);
	die_usage("%s: unknown option, or an ambiguous abbreviation (see %s --help)", a,
		  log_prog);
}

void cli_store(const struct cli_set *s, void *cfg, const char *arg)
{
	char *f = (char *)cfg + s->off, nm[64];
	const char *name = cli_set_name(s, nm, sizeof(nm));
	long lo = (long)s->min, hi = (long)s->max;

	switch (s->kind) {
	case CLI_STR: *(const char **)f = arg; break;
	case CLI_FLAG: *(int *)f = 1; break;
	case CLI_INT: *(int *)f = (int)cli_long(name, arg, lo, hi); break;
	case CLI_LONG: *(long *)f = cli_long(name, arg, lo, hi); break;
	case CLI_U32:
		*(uint32_t *)f = (uint32_t)cli_long(name, arg, lo, hi);
		break;
	case CLI_SIZE:
		*(uint64_t *)f = cli_size(name, arg, (uint64_t)s->min,
					  (uint64_t)s->max);
		break;
	case CLI_SIZE_T:
		*(size_t *)f = (size_t)cli_size(name, arg, (uint64_t)s->min,
						(uint64_t)s->max);
		break;
	case CLI_DUR:
		*(double *)f = cli_duration(name, arg, s->min, s->max);
		break;
	case CLI_DBL:
		*(double *)f = cli_double(name, arg, s->min, s->max);
		break;
	case CLI_MS: /* to the millisecond below, as the tools did */
		*(int *)f = (int)(cli_duration(name, arg, s->min, s->max) *
				  1000);
		break;
	default: die("cli: %s: no such kind %d", name, (int)s->kind);
	}
}
