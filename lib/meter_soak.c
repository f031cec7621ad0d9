/* meter_soak.c: PLACEHOLDER until cyclesoak lands (issue 2): unavailable. */
#include "config.h"
#include "meter.h"

#include <errno.h>
#include <stdio.h>

static int soak_open(struct meter *m, const struct meter_opts *o, char *err,
		     size_t len)
{
	snprintf(err, len, "soak meter not built yet");
	return -ENOSYS;
}

const struct meter_ops meter_soak_ops = {
	.name = "soak",
	.help = "cyclesoak: idle cycles lost, against an idle calibration (box)",
	.open = soak_open,
};

const char *meter_default_list(const struct meter_opts *o)
{
	return "procstat";
}
