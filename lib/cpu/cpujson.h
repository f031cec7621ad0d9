/*
 * cpujson.h: CPU samples (lib/cpu/meter.h) as JSON and back, and the CPU
 * report one side of a run sends the other ({"host": {...}, "cpu": [...]},
 * framed by lib/wire/peerrep or sent as a cyclesoak --serve reply).
 */
#ifndef ZCB_CPUJSON_H
#define ZCB_CPUJSON_H

#include <jansson.h>
#include <stddef.h>

#include "meter.h"

/* One sample and back. from_json: 0 or -EINVAL with err filled. */
json_t *cpu_sample_to_json(const struct cpu_sample *s);
int cpu_sample_from_json(json_t *j, struct cpu_sample *s, char *err,
			 size_t len);
/* A report of this host's facts and CPU samples (new reference). */
json_t *cpujson_report(const struct cpu_sample *s, int n);
/* The CPU samples of a decoded report; returns n or -EINVAL. */
int cpujson_from_report(json_t *rep, struct cpu_sample *s, int max,
			char *err, size_t elen);

#endif
