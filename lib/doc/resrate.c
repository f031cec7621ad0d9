/*
 * resrate.c: the "rate" object of a sample sent at a target (resrate.h):
 * written with the miss rule of lib/core/pace, read back for a case.
 */
#include "config.h"
#include "pace.h"
#include "resrate.h"

#include <math.h>

json_t *res_rate_json(double target, double achieved, const char *paced_by)
{
	double off = pace_off_pct(achieved, target);

	return json_pack("{s:f, s:f, s:o, s:b, s:s}", "target_MBps",
			 target / 1e6, "achieved_MBps", achieved / 1e6,
			 "off_pct", isfinite(off) ? json_real(off) : json_null(),
			 "missed", pace_missed(achieved, target), "paced_by",
			 paced_by ? paced_by : "?");
}

/* How far a sample's rate missed its target (0 when it did not). */
static double miss_of(json_t *rate)
{
	double off = json_number_value(json_object_get(rate, "off_pct"));

	return json_is_true(json_object_get(rate, "missed")) ? fabs(off) +
								    1e-9
							      : 0;
}

int res_case_rate(json_t *kase, const char *metric, struct res_rate *r)
{
	double worst = 0, m;
	json_t *s, *rate;
	size_t i;

	*r = (struct res_rate){0};
	json_array_foreach(json_object_get(kase, "samples"), i, s)
	{
		rate = json_object_get(s, "rate");
		if (!json_is_object(rate) ||
		    (metric && !json_object_get(json_object_get(s, "metrics"),
						metric)))
			continue;
		r->n++;
		m = miss_of(rate);
		if (!m)
			continue;
		r->missed++;
		if (m > worst) {
			worst = m;
			r->target = json_number_value(
				json_object_get(rate, "target_MBps"));
			r->achieved = json_number_value(
				json_object_get(rate, "achieved_MBps"));
		}
	}
	return r->missed > 0;
}
