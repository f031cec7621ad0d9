/*
 * cmpmerge.c: latency percentiles judged from merged histograms (judge.h,
 * issue 26). A request/response sample keeps every transaction's latency
 * in its latency_hist (lib/core/hist.h, lib/doc/SCHEMA.md); a key's p99 is
 * the p99 of its runs' histograms merged, not a mean of the runs' p99s
 * (which no single run nor the whole had). The test stays on the runs'
 * own percentiles: the runs are the independent units, a night's three
 * runs give three p99s to Welch, where a bootstrap over three runs has
 * ten distinct resamples and no interval worth the name. So a row's
 * figure and change are the merged ones; its q, spread and interval are
 * the runs'.
 */
#include "config.h"
#include "hist.h"
#include "judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double cmp_metric_percentile(const char *metric)
{
	const char *d;
	double p = 0, scale = 10;

	if (!strncmp(metric, "metered_", 8))
		metric += 8;
	if (strncmp(metric, "lat_p", 5))
		return NAN;
	/* lat_p50_us, lat_p99_us, lat_p999_us (99.9): two digits, then
	 * decimals */
	for (d = metric + 5; *d >= '0' && *d <= '9'; d++) {
		p += (*d - '0') * scale;
		scale /= 10;
	}
	if (d - (metric + 5) < 2 || strcmp(d, "_us") || !(p > 0 && p < 100))
		return NAN;
	return p;
}

/* Merge the histograms of the samples carrying metric into h; 0, or -1
 * when one of them has none (or a bad one): then no merged figure. */
static int merge_case(json_t *kase, const char *metric, struct hist *h)
{
	char err[160];
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(kase, "samples"), i, s)
	{
		if (!json_is_number(json_object_get(
			    json_object_get(s, "metrics"), metric)))
			continue;
		if (hist_from_json(h, json_object_get(s, "latency_hist"), err,
				   sizeof(err)))
			return -1;
	}
	return 0;
}

double cmp_cases_percentile(struct res_pcase *const *cs, size_t n,
			    const char *metric)
{
	double p = cmp_metric_percentile(metric), v = NAN;
	struct hist h;
	size_t i;

	if (isnan(p) || !n || hist_init(&h))
		return NAN;
	for (i = 0; i < n; i++)
		if (merge_case(cs[i]->kase, metric, &h))
			break;
	if (i == n && h.count)
		v = (double)hist_percentile(&h, p) / 1000; /* ns -> us */
	hist_free(&h);
	return v;
}

double cmp_merged_percentile(const struct ckey *k, int side, const char *metric)
{
	return cmp_cases_percentile(k->c[side], k->n[side], metric);
}

const char *cmp_stat_word(const struct res_pool *s, const struct crow *r)
{
	if (r->merged)
		return "Hist";
	return res_pool_is_rate(s, r->metric) && !r->summ ? "Hmean" : "Amean";
}

const char *cmp_merged_words(size_t n)
{
	static char b[320];

	if (!n)
		return NULL;
	snprintf(b, sizeof(b),
		 "Hist: %zu row%s of a latency percentile whose figure and "
		 "change are those of each side's runs' merged histograms; "
		 "its q, spread and interval are of the runs' own "
		 "percentiles (Welch on logs, a run a value)",
		 n, n == 1 ? "" : "s");
	return b;
}
