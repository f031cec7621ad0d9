/*
 * ctr.h: a counter that one thread adds to while another may read it as
 * it runs (ttcp-sf's -i reporter reads a transfer's bytes or a
 * request/response run's transactions). The one writer stores with a
 * relaxed atomic store, the reader loads with a relaxed atomic load: no
 * lock and no read-modify-write, so on x86-64 both are the plain moves
 * `+=` was, and the pair is no data race in C's terms. A counter that
 * several threads add to needs __atomic_fetch_add instead.
 */
#ifndef ZCB_CTR_H
#define ZCB_CTR_H

#include <stddef.h>
#include <stdint.h>

/* Add n to *c; only one thread ever writes *c. */
static inline void ctr_add(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

/* *c as another thread's ctr_add left it. */
static inline uint64_t ctr_read(const uint64_t *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

/* The sum of n such counters, one every stride bytes from first (the
 * same field of each element of an array of structs). */
static inline uint64_t ctr_sum(const uint64_t *first, size_t n, size_t stride)
{
	const char *p = (const char *)first;
	uint64_t sum = 0;

	for (; n--; p += stride)
		sum += ctr_read((const uint64_t *)(const void *)p);
	return sum;
}

#endif
