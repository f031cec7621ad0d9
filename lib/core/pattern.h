/*
 * pattern.h: the data every tool writes and checks. A pattern's byte at
 * a stream or file offset depends only on that offset, the pattern's
 * kind, seed and period, so data written at one request size checks at
 * any other, and a reader needs no copy of what was sent.
 *
 * Three kinds, one per tool family; each keeps the bytes its tool always
 * wrote (files left by an older version still check):
 *   PATTERN_HASH   a multiplicative hash of the offset: lib/xfer's
 *                  sources and -V (ttcp-sf, zcs, zcc)
 *   PATTERN_MIX64  splitmix64 of each 8-byte word, keyed by the seed:
 *                  nfsbench (--seed picks another file)
 *   PATTERN_COUNT  the offset as a byte counter: p9bench, period 251 (a
 *                  prime: no IO size lines up with it), so any read of
 *                  a file is a window into one short buffer
 *
 * To add a kind: an enum value, its byte in pattern_byte (pattern.c) and
 * a line on who uses it above.
 */
#ifndef ZCB_PATTERN_H
#define ZCB_PATTERN_H

#include <stddef.h>
#include <stdint.h>

enum pattern_kind {
	PATTERN_HASH,  /* (o * 2654435761) >> 13 ^ o >> 9 */
	PATTERN_MIX64, /* byte o & 7 of splitmix64(o / 8 ^ seed) */
	PATTERN_COUNT, /* o & 0xff */
};

struct pattern {
	enum pattern_kind kind;
	uint64_t seed;	 /* MIX64: the key; others: added to the offset */
	uint64_t period; /* the stream starts over every period bytes
			  * (byte at o = byte at o % period); 0 = never */
};

/* The byte at offset off. */
uint8_t pattern_byte(const struct pattern *p, uint64_t off);
/* buf[0, len) = the bytes at [off, off + len). */
void pattern_fill(const struct pattern *p, void *buf, uint64_t off, size_t len);
/* Index in buf of the first byte that differs from the pattern at off,
 * or -1 when all len bytes are right. */
long pattern_check(const struct pattern *p, const void *buf, uint64_t off,
		   size_t len);
/* How many of the len bytes at buf differ from the pattern at off. */
uint64_t pattern_count_bad(const struct pattern *p, const void *buf,
			   uint64_t off, size_t len);

#endif
