/*
 * hist.h: a bounded log-linear histogram of non-negative 64-bit values
 * (latencies in nanoseconds), HdrHistogram's idea at our scale.
 *
 * Values below 2^HIST_SUB_BITS+1 (256) have a bucket each; above, every
 * power of two is split into 2^HIST_SUB_BITS (128) equal buckets, so a
 * bucket is at most 1/128 of its values wide and a value read back (the
 * bucket's middle) is within 0.4% of any value counted in it. Every
 * value is counted (none sampled), the memory is fixed (HIST_BUCKETS
 * counters, 59 KB) and two histograms with the same layout merge by
 * adding counters: that is how zcbreport pools runs.
 *
 * The exact min, max and sum are kept beside the buckets, so min, max
 * and mean are exact and percentiles are clamped to [min, max].
 */
#ifndef ZCB_HIST_H
#define ZCB_HIST_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 7			    /* 128 buckets per power of two */
#define HIST_LINEAR   (2u << HIST_SUB_BITS) /* values below: exact buckets */
#define HIST_BUCKETS                                                           \
	(HIST_LINEAR +                                                         \
	 (64 - HIST_SUB_BITS - 1) *                                            \
		 (1u << HIST_SUB_BITS)) /* 7424: the whole uint64 range */

struct hist {
	uint64_t count;	   /* values added */
	uint64_t min, max; /* exact (min UINT64_MAX when empty) */
	long double sum;   /* exact enough for the mean */
	uint64_t *b;	   /* HIST_BUCKETS counters */
};

/* 0, or -ENOMEM. An initialised histogram is empty. */
int hist_init(struct hist *h);
void hist_free(struct hist *h);
void hist_reset(struct hist *h);
void hist_add(struct hist *h, uint64_t v);
/* dst += src (both initialised). */
void hist_merge(struct hist *dst, const struct hist *src);

/* The bucket of v, and the lowest and highest value of bucket i. */
unsigned hist_index(uint64_t v);
uint64_t hist_bucket_lo(unsigned i);
uint64_t hist_bucket_hi(unsigned i);

/* The mean (NAN when empty). */
double hist_mean(const struct hist *h);
/*
 * The p-th percentile, p in [0, 100], nearest rank: the value of the
 * ceil(p/100 * count)-th smallest, read as its bucket's middle and
 * clamped to [min, max]; p 0 is min, p 100 is max. 0 when empty.
 */
uint64_t hist_percentile(const struct hist *h, double p);

/*
 * JSON: {"unit": unit, "sub_bits": 7, "count", "min", "max", "sum",
 * "buckets": [[lowest value, count], ...]} with the non-empty buckets in
 * order (lib/doc/SCHEMA.md, "Latency histograms").
 */
json_t *hist_to_json(const struct hist *h, const char *unit);
/* Read one back into an initialised h (added to what it holds); 0 or
 * -EINVAL with err saying which field is wrong. */
int hist_from_json(struct hist *h, json_t *j, char *err, size_t len);

#endif
