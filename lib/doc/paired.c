/*
 * paired.c: which runs a case's figures came from (paired.h): a
 * disturbed run made again by its "disturbed" mark, a pair's
 * metered or unmetered run by its "soak" key, else an unpaired run with
 * or without soakers by its raw CPU entries; the meter that paired a
 * case (and whether that keeps it apart from other cases of its params);
 * and the case's stored perturbation, as resload.c made it again from
 * the samples.
 */
#include "config.h"
#include "meter.h"
#include "paired.h"
#include "stats.h"

#include <math.h>
#include <string.h>

/* The first meter with a flag of flags that any side of the sample has
 * a usable window of; NULL for none. */
static const char *meter_ran(json_t *sample, unsigned flags)
{
	json_t *side, *m;
	const char *name;
	size_t i;

	json_object_foreach(json_object_get(sample, "cpu"), name, side)
	{
		json_array_foreach(side, i, m)
		{
			const char *meter =
				json_string_value(json_object_get(m, "meter"));

			if (meter && (meter_flags_of(meter) & flags) &&
			    json_is_true(json_object_get(m, "ok")))
				return meter;
		}
	}
	return NULL;
}

unsigned res_sample_run(json_t *sample)
{
	json_t *k = json_object_get(sample, "soak");

	if (json_is_true(json_object_get(json_object_get(sample, "disturbed"),
					 "rerun")))
		return RUN_DISTURBED;
	if (json_is_boolean(k))
		return json_is_true(k) ? RUN_METERED : RUN_UNMETERED;
	return meter_ran(sample, METER_LOADS_BOX) ? RUN_SOAKED : RUN_PLAIN;
}

int res_sample_counts(json_t *sample)
{
	return res_sample_run(sample) != RUN_DISTURBED;
}

const char *res_case_paired_by(json_t *kase)
{
	const char *by = NULL;
	json_t *s;
	size_t i;

	/* the meter its metered runs ran for: the primary paired one
	 * (soak) when it ran, else another paired one that did (profile) */
	json_array_foreach(json_object_get(kase, "samples"), i, s)
	{
		if (res_sample_run(s) != RUN_METERED)
			continue;
		if (!meter_ran(s, METER_PRIMARY))
			by = meter_ran(s, METER_PAIRED);
		break;
	}
	return by ? by : meter_pairer();
}

const char *res_case_pairing(json_t *kase)
{
	const char *by;

	if (!(res_case_runs(kase, NULL) & RUN_PAIRED))
		return NULL;
	by = res_case_paired_by(kase);
	return strcmp(by, meter_pairer()) ? by : NULL;
}

unsigned res_case_runs(json_t *kase, const char *metric)
{
	unsigned runs = 0;
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(kase, "samples"), i, s)
	{
		if (res_sample_counts(s) &&
		    (!metric || json_is_number(json_object_get(
					json_object_get(s, "metrics"), metric))))
			runs |= res_sample_run(s);
	}
	return runs;
}

size_t res_case_result_runs(json_t *kase)
{
	size_t i, n = 0;
	json_t *s;

	json_array_foreach(json_object_get(kase, "samples"), i, s)
	{
		unsigned run = res_sample_run(s);

		n += run != RUN_METERED && run != RUN_DISTURBED;
	}
	return n;
}

static double num_or_nan(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

int res_read_perturbation(json_t *kase, struct stats_ratio *r)
{
	json_t *p = json_object_get(kase, "perturbation");
	json_t *ci = json_object_get(p, "ci95");

	memset(r, 0, sizeof(*r));
	r->ratio = num_or_nan(json_object_get(p, "ratio"));
	if (!isfinite(r->ratio))
		return -1;
	r->n = (size_t)json_integer_value(json_object_get(p, "pairs"));
	r->lo = num_or_nan(json_array_get(ci, 0));
	r->hi = num_or_nan(json_array_get(ci, 1));
	r->min = num_or_nan(json_object_get(p, "min"));
	r->max = num_or_nan(json_object_get(p, "max"));
	return 0;
}
