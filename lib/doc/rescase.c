/*
 * rescase.c: what the table room reads of a loaded document's case
 * (resload.h): a param as text or as a number, a metric's sample values
 * (never a disturbed run's made again: paired.h),
 * whether the case has a metric; and the array grower every part uses.
 * Depends on paired.c only.
 */
#include "config.h"
#include "paired.h"
#include "resload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void *res_grow(void *p, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 16;
	p = realloc(p, *cap * elem);
	if (!p)
		abort();
	return p;
}

const char *res_param_str(json_t *params, const char *name, char *buf,
			 size_t len)
{
	json_t *v = json_object_get(params, name);
	double x;

	if (!v)
		return NULL;
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		x = json_real_value(v);
		if (x == floor(x) && fabs(x) < 1e15)
			snprintf(buf, len, "%.0f", x);
		else
			snprintf(buf, len, "%g", x);
	} else if (json_is_boolean(v)) {
		snprintf(buf, len, "%s", json_is_true(v) ? "yes" : "no");
	} else if (json_is_null(v)) {
		snprintf(buf, len, "-");
	} else {
		char *d = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);

		snprintf(buf, len, "%s", d ? d : "?");
		free(d);
	}
	return buf;
}

double res_param_num(json_t *params, const char *name)
{
	json_t *v = json_object_get(params, name);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

void res_case_values(json_t *kase, const char *metric, double **x, size_t *n,
		    size_t *cap)
{
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(kase, "samples"), i, s)
	{
		json_t *v =
			json_object_get(json_object_get(s, "metrics"), metric);

		if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
		    !res_sample_counts(s))
			continue;
		*x = res_grow(*x, cap, *n, sizeof(**x));
		(*x)[(*n)++] = json_number_value(v);
	}
}

int res_case_has(json_t *kase, const char *metric)
{
	json_t *sum = json_object_get(json_object_get(kase, "summary"), metric);
	json_t *s;
	size_t i;

	if (json_is_number(json_object_get(sum, "mean")))
		return 1;
	json_array_foreach(json_object_get(kase, "samples"), i, s)
	{
		if (json_is_number(json_object_get(
			    json_object_get(s, "metrics"), metric)))
			return 1;
	}
	return 0;
}
