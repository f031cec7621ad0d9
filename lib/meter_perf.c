/* meter_perf.c: PLACEHOLDER until the perf meter lands (issue 2). */
#include "config.h"
#include "meter.h"

#include <errno.h>
#include <stdio.h>

static int perf_open(struct meter *m, const struct meter_opts *o, char *err,
		     size_t len)
{
	snprintf(err, len, "perf meter not built yet");
	return -ENOSYS;
}

const struct meter_ops meter_perf_ops = {
	.name = "perf",
	.help = "perf_event_open counters named as libpfm4 strings",
	.open = perf_open,
};
