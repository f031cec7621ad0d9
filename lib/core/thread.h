/*
 * thread.h: ending a helper thread. Pace's keeper, the interval
 * reporter and ttcp-sf's --duration watchdog each sleep on a condition
 * under a lock until a flag says stop; the flag is set under that lock,
 * so the thread sees it either before it sleeps or by the wake-up, never
 * between, and the one who ends it waits for it to be gone.
 */
#ifndef ZCB_THREAD_H
#define ZCB_THREAD_H

#include <pthread.h>

/* Set *stop under lock, wake the thread th waiting on cond and join it.
 * The lock and the condition stay the caller's to destroy. */
void thread_end(pthread_t th, pthread_mutex_t *lock, pthread_cond_t *cond,
		int *stop);

#endif
