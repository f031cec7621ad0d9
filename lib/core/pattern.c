/* pattern.c: the data every tool writes and checks (see pattern.h). */
#include "config.h"
#include "pattern.h"

#include <string.h>

#define CHECK_CHUNK 4096 /* bytes of the pattern made per compare */

static uint64_t mix64(uint64_t x) /* splitmix64's finalizer */
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The byte at o, an offset already brought into the period. */
static uint8_t gen(const struct pattern *p, uint64_t o)
{
	switch (p->kind) {
	case PATTERN_MIX64:
		return (uint8_t)(mix64((o >> 3) ^ p->seed) >> (8 * (o & 7)));
	case PATTERN_COUNT:
		return (uint8_t)(o + p->seed);
	case PATTERN_HASH:
	default:
		o += p->seed;
		return (uint8_t)((o * 2654435761u) >> 13 ^ (o >> 9));
	}
}

uint8_t pattern_byte(const struct pattern *p, uint64_t off)
{
	return gen(p, p->period ? off % p->period : off);
}

/* MIX64 without a period: a word at a time. */
static void fill_words(const struct pattern *p, uint8_t *b, uint64_t off,
		       size_t len)
{
	size_t i = 0;
	unsigned k;
	uint64_t v;

	for (; i < len && ((off + i) & 7); i++) /* head up to a word */
		b[i] = gen(p, off + i);
	for (; i + 8 <= len; i += 8) {
		v = mix64(((off + i) >> 3) ^ p->seed);
		for (k = 0; k < 8; k++)
			b[i + k] = (uint8_t)(v >> (8 * k));
	}
	for (; i < len; i++)
		b[i] = gen(p, off + i);
}

void pattern_fill(const struct pattern *p, void *buf, uint64_t off, size_t len)
{
	uint8_t *b = buf;
	uint64_t o;
	size_t i;

	if (p->kind == PATTERN_MIX64 && !p->period) {
		fill_words(p, b, off, len);
		return;
	}
	o = p->period ? off % p->period : off;
	for (i = 0; i < len; i++) {
		b[i] = gen(p, o++);
		if (o == p->period)
			o = 0;
	}
}

long pattern_check(const struct pattern *p, const void *buf, uint64_t off,
		   size_t len)
{
	uint8_t want[CHECK_CHUNK];
	const uint8_t *b = buf;
	size_t done = 0, n, i;

	for (; done < len; done += n) {
		n = len - done < sizeof(want) ? len - done : sizeof(want);
		pattern_fill(p, want, off + done, n);
		if (!memcmp(want, b + done, n))
			continue;
		for (i = 0; want[i] == b[done + i]; i++)
			;
		return (long)(done + i);
	}
	return -1;
}

uint64_t pattern_count_bad(const struct pattern *p, const void *buf,
			   uint64_t off, size_t len)
{
	uint8_t want[CHECK_CHUNK];
	const uint8_t *b = buf;
	size_t done = 0, n, i;
	uint64_t bad = 0;

	for (; done < len; done += n) {
		n = len - done < sizeof(want) ? len - done : sizeof(want);
		pattern_fill(p, want, off + done, n);
		if (memcmp(want, b + done, n))
			for (i = 0; i < n; i++)
				bad += want[i] != b[done + i];
	}
	return bad;
}
