/* thread.c: ending a helper thread (thread.h). */
#include "config.h"
#include "thread.h"

void thread_end(pthread_t th, pthread_mutex_t *lock, pthread_cond_t *cond,
		int *stop)
{
	pthread_mutex_lock(lock);
	*stop = 1;
	pthread_cond_signal(cond);
	pthread_mutex_unlock(lock);
	pthread_join(th, NULL);
}
