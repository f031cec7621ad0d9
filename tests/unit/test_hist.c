/*
 * test_hist.c: lib/core/hist: the bucket layout covers every value with
 * at most 1% error, percentiles match exact order statistics of known
 * data within that error, merging equals adding, and the JSON form reads
 * back to the same histogram (and refuses broken ones).
 */
#include "config.h"
#include "hist.h"
#include "t.h"

#include <errno.h>
#include <stdint.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_layout(void)
{
	uint64_t v;
	unsigned i, bad = 0;

	T_CHECK(hist_index(0) == 0);
	T_CHECK(hist_index(255) == 255);
	T_CHECK(hist_index(UINT64_MAX) == HIST_BUCKETS - 1);
	T_CHECK(hist_bucket_hi(HIST_BUCKETS - 1) == UINT64_MAX);
	/* buckets tile the range: each starts right after the last */
	for (i = 1; i < HIST_BUCKETS; i++)
		if (hist_bucket_lo(i) != hist_bucket_hi(i - 1) + 1 ||
		    hist_index(hist_bucket_lo(i)) != i ||
		    hist_index(hist_bucket_hi(i)) != i)
			bad++;
	T_CHECK(bad == 0);
	/* no bucket wider than 1/128 of its lowest value */
	for (i = HIST_LINEAR, bad = 0; i < HIST_BUCKETS; i++)
		if ((double)(hist_bucket_hi(i) - hist_bucket_lo(i) + 1) >
		    (double)hist_bucket_lo(i) / 128.0)
			bad++;
	T_CHECK(bad == 0);
	for (v = 1, bad = 0; v < (1ull << 62); v = v * 3 + 1) {
		i = hist_index(v);
		if (v < hist_bucket_lo(i) || v > hist_bucket_hi(i))
			bad++;
	}
	T_CHECK(bad == 0);
}

/* Percentiles of a skewed, known set against the exact order statistic. */
static void test_percentiles(void)
{
	static const double ps[] = {1, 10, 50, 90, 99, 99.9, 99.99};
	enum { N = 100000 };
	uint64_t *x = malloc(N * sizeof(*x)), seed = 42, exact, got;
	long double sum = 0;
	struct hist h;
	size_t i, rank;

	T_ASSERT(x && !hist_init(&h));
	T_CHECK(hist_percentile(&h, 50) == 0);
	T_CHECK(isnan(hist_mean(&h)));
	for (i = 0; i < N; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		/* 10 us .. ~10 ms, log-uniform-ish, in ns */
		x[i] = 10000 + ((seed >> 33) % 1000) * ((seed >> 20) % 1000);
		hist_add(&h, x[i]);
		sum += x[i];
	}
	qsort(x, N, sizeof(*x), cmp_u64);
	T_CHECK(h.count == N);
	T_CHECK(hist_percentile(&h, 0) == x[0]);
	T_CHECK(hist_percentile(&h, 100) == x[N - 1]);
	T_NEAR(hist_mean(&h), (double)(sum / N), 1e-6 * (double)(sum / N));
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		rank = (size_t)ceil(ps[i] / 100.0 * N);
		exact = x[rank - 1];
		got = hist_percentile(&h, ps[i]);
		T_NEAR((double)got, (double)exact, 0.01 * (double)exact);
	}
	hist_free(&h);
	free(x);
}

/* Small exact values: nearest rank, no interpolation. */
static void test_small(void)
{
	struct hist h;
	uint64_t v;

	T_ASSERT(!hist_init(&h));
	for (v = 1; v <= 100; v++)
		hist_add(&h, v);
	T_CHECK(hist_percentile(&h, 50) == 50);
	T_CHECK(hist_percentile(&h, 90) == 90);
	T_CHECK(hist_percentile(&h, 99) == 99);
	T_CHECK(hist_percentile(&h, 99.9) == 100);
	T_NEAR(hist_mean(&h), 50.5, 1e-9);
	hist_add(&h, 1000000007ull);
	/* clamped to the exact max, not the bucket's middle */
	T_CHECK(hist_percentile(&h, 99.99) == 1000000007ull);
	hist_free(&h);
}

static void test_merge_json(void)
{
	struct hist a, b, c, r;
	char err[256] = "";
	json_t *j;
	uint64_t v;
	unsigned i, diff = 0;

	T_ASSERT(!hist_init(&a) && !hist_init(&b) && !hist_init(&c) &&
		 !hist_init(&r));
	for (v = 0; v < 5000; v++) {
		hist_add(&a, v * v);
		hist_add(&c, v * v);
		hist_add(&b, 7 * v + 3);
		hist_add(&c, 7 * v + 3);
	}
	hist_merge(&a, &b);
	for (i = 0; i < HIST_BUCKETS; i++)
		diff += a.b[i] != c.b[i];
	T_CHECK(diff == 0);
	T_CHECK(a.count == c.count && a.min == c.min && a.max == c.max);
	j = hist_to_json(&a, "ns");
	T_CHECK(!hist_from_json(&r, j, err, sizeof(err)));
	for (i = 0, diff = 0; i < HIST_BUCKETS; i++)
		diff += a.b[i] != r.b[i];
	T_CHECK(diff == 0);
	T_CHECK(r.count == a.count && r.min == a.min && r.max == a.max);
	T_CHECK(hist_percentile(&r, 99) == hist_percentile(&a, 99));
	/* a count that the buckets do not add up to: refused, r untouched */
	json_object_set_new(j, "count", json_integer(3));
	T_CHECK(hist_from_json(&r, j, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "count") != NULL);
	T_CHECK(r.count == a.count);
	/* a bucket that does not start a bucket */
	json_object_set_new(j, "count", json_integer((json_int_t)a.count));
	json_array_set_new(json_array_get(json_object_get(j, "buckets"), 300),
			   0, json_integer(1000001));
	T_CHECK(hist_from_json(&r, j, err, sizeof(err)) == -EINVAL);
	json_object_set_new(j, "sub_bits", json_integer(6));
	T_CHECK(hist_from_json(&r, j, err, sizeof(err)) == -EINVAL);
	json_decref(j);
	hist_free(&a);
	hist_free(&b);
	hist_free(&c);
	hist_free(&r);
}

int main(void)
{
	test_layout();
	test_percentiles();
	test_small();
	test_merge_json();
	return t_done();
}
