/*
 * resrate.h: a sample sent at a target rate (ttcp-sf and zcc --rate;
 * lib/doc/SCHEMA.md): its "rate" object, written by the tools and read
 * by the tables that mark a run that missed its target.
 */
#ifndef ZCB_RESRATE_H
#define ZCB_RESRATE_H

#include <jansson.h>

/*
 * The sample's "rate" (new reference): target and achieved in bytes/s,
 * who paced it ("kernel" or the tool's name), off_pct and missed (more
 * than PACE_MISS_PCT off, lib/core/pace.h). The caller may add fields
 * (remote_achieved_MBps, rev_achieved_MBps).
 */
json_t *res_rate_json(double target, double achieved, const char *paced_by);

/* What the samples of a case say of their rate. */
struct res_rate {
	size_t n;	 /* samples sent at a target */
	size_t missed;	 /* of them, those that missed it */
	double target;	 /* the worst miss's target, MB/s */
	double achieved; /* and what it achieved, MB/s */
};
/* Of kase's samples (metric NULL: all; else those carrying metric):
 * 1 when one of them missed its target (*r filled), else 0. */
int res_case_rate(json_t *kase, const char *metric, struct res_rate *r);

#endif
