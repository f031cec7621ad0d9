/* test_thread.c: thread_end ends a thread that sleeps on a condition
 * until told to stop, whether it is asleep yet or not, and returns only
 * when it is gone. */
#include "config.h"
#include "thread.h"
#include "t.h"

#include <unistd.h>

struct sleeper {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t th;
	int stop;
	int asleep;	/* it waited at least once */
	int gone;	/* it saw stop and left */
};

static void *sleeper_main(void *arg)
{
	struct sleeper *s = arg;

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		s->asleep = 1;
		pthread_cond_wait(&s->cond, &s->lock); /* no timeout: only the
							* wake-up ends it */
	}
	s->gone = 1;
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static void run(int settle_us)
{
	struct sleeper s = {.stop = 0};

	pthread_mutex_init(&s.lock, NULL);
	pthread_cond_init(&s.cond, NULL);
	T_ASSERT(pthread_create(&s.th, NULL, sleeper_main, &s) == 0);
	if (settle_us)
		usleep((useconds_t)settle_us);
	thread_end(s.th, &s.lock, &s.cond, &s.stop);
	T_CHECK(s.stop == 1);
	T_CHECK(s.gone == 1); /* joined: its last write is seen */
	if (settle_us)
		T_CHECK(s.asleep == 1);
	pthread_mutex_destroy(&s.lock);
	pthread_cond_destroy(&s.cond);
}

int main(void)
{
	int i;

	run(20000); /* asleep when told */
	for (i = 0; i < 200; i++)
		run(0); /* told as it starts: maybe before its first wait */
	return t_done();
}
