/*
 * hist.c: the bounded log-linear histogram of hist.h: bucket arithmetic,
 * percentiles read back from the buckets, merging, and the JSON form the
 * result documents keep (lib/doc/SCHEMA.md, "Latency histograms").
 */
#include "config.h"
#include "hist.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUB (1u << HIST_SUB_BITS) /* buckets per power of two */

unsigned hist_index(uint64_t v)
{
	unsigned e, shift;

	if (v < HIST_LINEAR)
		return (unsigned)v;
	e = 63u - (unsigned)__builtin_clzll(v); /* HIST_SUB_BITS + 1 .. 63 */
	shift = e - HIST_SUB_BITS;
	return HIST_LINEAR + (e - HIST_SUB_BITS - 1) * SUB +
	       (unsigned)(v >> shift) - SUB;
}

uint64_t hist_bucket_lo(unsigned i)
{
	unsigned k, e;

	if (i < HIST_LINEAR)
		return i;
	k = i - HIST_LINEAR;
	e = HIST_SUB_BITS + 1 + k / SUB;
	return (uint64_t)(SUB + k % SUB) << (e - HIST_SUB_BITS);
}

uint64_t hist_bucket_hi(unsigned i)
{
	unsigned e;

	if (i < HIST_LINEAR)
		return i;
	e = HIST_SUB_BITS + 1 + (i - HIST_LINEAR) / SUB;
	return hist_bucket_lo(i) + ((1ull << (e - HIST_SUB_BITS)) - 1);
}

void hist_reset(struct hist *h)
{
	h->count = 0;
	h->min = UINT64_MAX;
	h->max = 0;
	h->sum = 0;
	if (h->b)
		memset(h->b, 0, HIST_BUCKETS * sizeof(*h->b));
}

int hist_init(struct hist *h)
{
	h->b = calloc(HIST_BUCKETS, sizeof(*h->b));
	if (!h->b)
		return -ENOMEM;
	hist_reset(h);
	return 0;
}

void hist_free(struct hist *h)
{
	free(h->b);
	h->b = NULL;
}

/* n more values (their buckets the caller's), summing to sum, from min
 * to max. */
static void tally(struct hist *h, uint64_t n, long double sum, uint64_t min,
		  uint64_t max)
{
	h->count += n;
	h->sum += sum;
	if (min < h->min)
		h->min = min;
	if (max > h->max)
		h->max = max;
}

void hist_add(struct hist *h, uint64_t v)
{
	h->b[hist_index(v)]++;
	tally(h, 1, (long double)v, v, v);
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i;

	if (!src->count)
		return;
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
	tally(dst, src->count, src->sum, src->min, src->max);
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)(h->sum / (long double)h->count) : NAN;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, mid;
	unsigned i;

	if (!h->count)
		return 0;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank)
			break;
	}
	if (i == HIST_BUCKETS)
		return h->max;
	mid = hist_bucket_lo(i) + (hist_bucket_hi(i) - hist_bucket_lo(i)) / 2;
	return mid < h->min ? h->min : mid > h->max ? h->max : mid;
}

json_t *hist_to_json(const struct hist *h, const char *unit)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; i < HIST_BUCKETS; i++)
		if (h->b[i])
			json_array_append_new(
				a, json_pack("[I, I]",
					     (json_int_t)hist_bucket_lo(i),
					     (json_int_t)h->b[i]));
	return json_pack(
		"{s:s, s:i, s:I, s:I, s:I, s:f, s:o}", "unit", unit, "sub_bits",
		HIST_SUB_BITS, "count", (json_int_t)h->count, "min",
		(json_int_t)(h->count ? h->min : 0), "max", (json_int_t)h->max,
		"sum", (double)h->sum, "buckets", a);
}

static int get_count(json_t *j, const char *k, uint64_t *out, char *err,
		     size_t len)
{
	json_t *v = json_object_get(j, k);

	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		snprintf(err, len, "histogram: \"%s\" missing or negative", k);
		return -EINVAL;
	}
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* The buckets of a, checked (their counts must sum to total) and, when
 * h is not NULL, added to h. */
static int add_buckets(struct hist *h, json_t *a, uint64_t total, char *err,
		       size_t len)
{
	uint64_t seen = 0;
	json_t *e;
	size_t k;

	if (!json_is_array(a)) {
		snprintf(err, len, "histogram: \"buckets\" is not an array");
		return -EINVAL;
	}
	json_array_foreach(a, k, e)
	{
		json_t *lo = json_array_get(e, 0), *n = json_array_get(e, 1);
		unsigned i;

		if (json_array_size(e) != 2 || !json_is_integer(lo) ||
		    !json_is_integer(n) || json_integer_value(lo) < 0 ||
		    json_integer_value(n) < 0) {
			snprintf(
				err, len,
				"histogram: bucket %zu is not [lowest value, count]",
				k);
			return -EINVAL;
		}
		i = hist_index((uint64_t)json_integer_value(lo));
		if (hist_bucket_lo(i) != (uint64_t)json_integer_value(lo)) {
			snprintf(
				err, len,
				"histogram: bucket %zu starts at %lld, not a bucket's lowest value",
				k, (long long)json_integer_value(lo));
			return -EINVAL;
		}
		if (h)
			h->b[i] += (uint64_t)json_integer_value(n);
		seen += (uint64_t)json_integer_value(n);
	}
	if (seen != total) {
		snprintf(
			err, len,
			"histogram: buckets hold %llu values, \"count\" says %llu",
			(unsigned long long)seen, (unsigned long long)total);
		return -EINVAL;
	}
	return 0;
}

int hist_from_json(struct hist *h, json_t *j, char *err, size_t len)
{
	uint64_t count, min, max;
	json_t *sum = json_object_get(j, "sum");

	if (!json_is_object(j) || json_integer_value(json_object_get(
					  j, "sub_bits")) != HIST_SUB_BITS) {
		snprintf(err, len,
			 "histogram: not an object with \"sub_bits\" %d",
			 HIST_SUB_BITS);
		return -EINVAL;
	}
	if (get_count(j, "count", &count, err, len) ||
	    get_count(j, "min", &min, err, len) ||
	    get_count(j, "max", &max, err, len))
		return -EINVAL;
	if (!json_is_number(sum) || json_number_value(sum) < 0) {
		snprintf(err, len, "histogram: \"sum\" missing or negative");
		return -EINVAL;
	}
	if (add_buckets(NULL, json_object_get(j, "buckets"), count, err, len))
		return -EINVAL; /* h untouched on a bad document */
	add_buckets(h, json_object_get(j, "buckets"), count, err, len);
	if (count)
		tally(h, count, (long double)json_number_value(sum), min, max);
	return 0;
}
