/* test_ctr.c: a counter one thread adds to and another reads as it
 * runs: the reader never sees it go back or past the total, and the
 * total is every addition. */
#include "config.h"
#include "ctr.h"
#include "t.h"

#include <pthread.h>

#define ADDS 2000000u

static uint64_t counter;
static int ready, done;

static void *writer(void *arg)
{
	uint64_t i;

	(void)arg;
	/* start when the reader reads: the two run side by side (how much
	 * they overlap is the scheduler's; a 2-CPU box may run the writer
	 * whole before the reader's first read) */
	while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
		;
	for (i = 1; i <= ADDS; i++)
		ctr_add(&counter, i);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	return NULL;
}

int main(void)
{
	const uint64_t total = (uint64_t)ADDS * (ADDS + 1) / 2;
	uint64_t v, last = 0, back = 0, over = 0;
	int end;
	pthread_t th;

	T_ASSERT(pthread_create(&th, NULL, writer, NULL) == 0);
	__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	do {
		end = __atomic_load_n(&done, __ATOMIC_ACQUIRE);
		v = ctr_read(&counter);
		back += v < last;
		over += v > total;
		last = v;
	} while (!end);
	T_ASSERT(pthread_join(th, NULL) == 0);
	T_CHECK(back == 0);
	T_CHECK(over == 0);
	T_CHECK(last == total); /* read after the writer said done */
	T_CHECK(ctr_read(&counter) == total);
	return t_done();
}
