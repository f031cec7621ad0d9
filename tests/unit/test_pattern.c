/*
 * test_pattern.c: every kind keeps the bytes its tools always wrote
 * (checksums and bytes taken from the three patterns before they were
 * one module), fill is the same whatever the chunking and alignment, a
 * period starts the stream over, and check finds and counts mismatches.
 */
#include "config.h"
#include "pattern.h"
#include "t.h"

#include <stdint.h>
#include <string.h>

#define BIG (1u << 20)

static uint32_t fnv(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--) {
		h ^= *p++;
		h *= 16777619u;
	}
	return h;
}

static uint8_t big[BIG];

/* What lib/xfer, nfsbench (two seeds) and p9bench wrote at 12345.. */
static void test_golden(void)
{
	static const struct {
		struct pattern p;
		uint32_t fnv;
	} g[] = {
		{{PATTERN_HASH, 0, 0}, 0xa16e8d45},
		{{PATTERN_MIX64, 0x4e46534245ull, 0}, 0x3979bfde},
		{{PATTERN_MIX64, 12345, 0}, 0x0ddb4f8e},
		{{PATTERN_COUNT, 0, 251}, 0x7625a730},
	};
	static const struct {
		uint64_t off;
		uint8_t hash, mix, count;
	} b[] = {
		{0, 0, 48, 0},
		{1, 187, 179, 1},
		{7, 34, 208, 7},
		{8, 222, 105, 8},
		{251, 34, 159, 0},
		{4095, 27, 25, 79},
		{1000000007ull, 122, 58, 194},
		{(1ull << 40) + 3, 51, 137, 116},
	};
	size_t i;

	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		pattern_fill(&g[i].p, big, 12345, BIG);
		T_CHECK(fnv(big, BIG) == g[i].fnv);
	}
	for (i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		T_CHECK(pattern_byte(&g[0].p, b[i].off) == b[i].hash);
		T_CHECK(pattern_byte(&g[1].p, b[i].off) == b[i].mix);
		T_CHECK(pattern_byte(&g[3].p, b[i].off) == b[i].count);
	}
}

/* The same bytes whatever the chunking and alignment, for every kind. */
static void test_chunks(void)
{
	static const struct pattern p[] = {
		{PATTERN_HASH, 0, 0},	 {PATTERN_MIX64, 99, 0},
		{PATTERN_COUNT, 0, 251}, {PATTERN_MIX64, 5, 1040},
		{PATTERN_HASH, 7, 333},
	};
	uint8_t a[9000], b[9000];
	size_t i, k;

	for (k = 0; k < sizeof(p) / sizeof(p[0]); k++) {
		pattern_fill(&p[k], a, 1001, sizeof(a));
		for (i = 0; i < sizeof(b); i += 7)
			pattern_fill(&p[k], b + i, 1001 + i,
				     sizeof(b) - i < 7 ? sizeof(b) - i : 7);
		T_CHECK(!memcmp(a, b, sizeof(a)));
		for (i = 0; i < sizeof(a); i += 97)
			T_CHECK(a[i] == pattern_byte(&p[k], 1001 + i));
		T_CHECK(pattern_check(&p[k], a, 1001, sizeof(a)) == -1);
		T_CHECK(pattern_count_bad(&p[k], a, 1001, sizeof(a)) == 0);
	}
}

static void test_period_and_seed(void)
{
	struct pattern p = {PATTERN_HASH, 0, 1040};
	struct pattern q = {PATTERN_HASH, 0, 0};
	uint8_t a[64], b[64];

	/* a period starts the stream over: 40 bytes at 1000, then 0.. */
	pattern_fill(&q, b, 1000, 40);
	pattern_fill(&q, b + 40, 0, 24);
	pattern_fill(&p, a, 1000, sizeof(a));
	T_CHECK(!memcmp(a, b, sizeof(a)));
	T_CHECK(pattern_byte(&p, 1040 * 5 + 3) == pattern_byte(&q, 3));
	/* another seed is another stream */
	q.seed = 1;
	pattern_fill(&q, b, 1000, sizeof(b));
	T_CHECK(memcmp(a, b, sizeof(a)) != 0);
	p.kind = q.kind = PATTERN_MIX64;
	p.period = 0;
	p.seed = 2;
	pattern_fill(&p, a, 0, sizeof(a));
	pattern_fill(&q, b, 0, sizeof(b));
	T_CHECK(memcmp(a, b, sizeof(a)) != 0);
	T_CHECK(memcmp(a, a + 8, 32) != 0); /* not one repeated word */
}

static void test_mismatch(void)
{
	struct pattern p = {PATTERN_MIX64, 0x4e46534245ull, 0};
	size_t n = 3 * 4096 + 100;

	pattern_fill(&p, big, 1000, n);
	big[4321] ^= 1;
	big[9000] ^= 0x80;
	big[9001] ^= 0x80;
	T_CHECK(pattern_check(&p, big, 1000, n) == 4321);
	T_CHECK(pattern_check(&p, big + 4322, 1000 + 4322, n - 4322) ==
		9000 - 4322);
	T_CHECK(pattern_count_bad(&p, big, 1000, n) == 3);
	T_CHECK(pattern_check(&p, big, 1000, 0) == -1);
}

int main(void)
{
	test_golden();
	test_chunks();
	test_period_and_seed();
	test_mismatch();
	return t_done();
}
