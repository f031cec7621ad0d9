/*
 * pace.c: the two pacers of pace.h: the kernel's cap on a TCP socket,
 * and the application's token bucket (a debt that sleeps off: a send
 * takes its bytes at once, and the next one waits until the bucket is
 * back to zero; idle time refills it up to the burst), and the keeper
 * that holds a sample's sockets at its target.
 */
#include "config.h"
#include "clock.h"
#include "pace.h"

#include "ctr.h"
#include "thread.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#ifndef SO_MAX_PACING_RATE
#define SO_MAX_PACING_RATE 47
#endif

int pace_sock(int fd, uint64_t bytes_per_s, int *capped)
{
	uint64_t v = bytes_per_s ? bytes_per_s : ~0ull;
	uint32_t v32;

	if (capped)
		*capped = 0;
	if (!setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &v, sizeof(v)))
		return 0;
	if (errno != EINVAL)
		return -errno;
	/* before 4.19 the option was 32 bits wide */
	v32 = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	if (capped)
		*capped = v32 != v && bytes_per_s;
	if (setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &v32, sizeof(v32)))
		return -errno;
	return 0;
}

uint64_t pace_sock_get(int fd)
{
	uint64_t v = 0;
	socklen_t l = sizeof(v);

	if (getsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &v, &l))
		return 0;
	if (l == sizeof(uint32_t)) /* a 32-bit answer: the low half */
		v &= UINT32_MAX;
	return v;
}

void pace_init(struct pace *p, double rate, double burst, double now)
{
	p->rate = rate;
	p->burst = burst > 0 ? burst : 1;
	p->tokens = 0;
	p->last = now;
}

double pace_burst(double rate, size_t unit)
{
	double b = rate * PACE_BURST_S;

	return b < 2.0 * (double)unit ? 2.0 * (double)unit : b;
}

double pace_take(struct pace *p, size_t n, double now)
{
	if (now > p->last) {
		p->tokens += (now - p->last) * p->rate;
		if (p->tokens > p->burst)
			p->tokens = p->burst;
		p->last = now;
	}
	p->tokens -= (double)n;
	return p->tokens < 0 ? -p->tokens / p->rate : 0;
}

int pace_wait(struct pace *p, size_t n, volatile sig_atomic_t *stop)
{
	double d = pace_take(p, n, clock_now()), until;
	struct timespec ts;

	if (d <= 0)
		return 0;
	until = clock_now() + d;
	ts.tv_sec = (time_t)until;
	ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		if (stop && *stop)
			return -EINTR;
	return 0;
}

double pace_off_pct(double achieved, double target)
{
	if (!(target > 0) || !isfinite(achieved))
		return NAN;
	return (achieved - target) / target * 100;
}

int pace_missed(double achieved, double target)
{
	double off = pace_off_pct(achieved, target);

	return isfinite(off) && fabs(off) > PACE_MISS_PCT;
}

double pace_keep_cap(double target, double elapsed, double sent)
{
	double cap = target + (target * elapsed - sent) / PACE_KEEP_HORIZON;

	if (cap < target)
		return target; /* ahead: the socket buffer's bytes, not yet
				* on the wire */
	return cap > PACE_KEEP_MAX * target ? PACE_KEEP_MAX * target : cap;
}

/* The keeper's thread state. */
struct keeper {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t th;
};

static void keep_step(struct pace_keep *k)
{
	double cap = pace_keep_cap(k->target, clock_now() - k->t0,
				   (double)k->sent(k->arg));
	int i;

	for (i = 0; i < k->n; i++)
		if (k->fds[i] >= 0)
			pace_sock(k->fds[i], (uint64_t)(cap / k->n + 0.5), NULL);
}

static void *keeper_main(void *arg)
{
	struct pace_keep *k = arg;
	struct keeper *t = k->th;
	struct timespec ts;

	pthread_mutex_lock(&t->lock);
	while (!k->stop) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += (long)(PACE_KEEP_S * 1e9);
		ts.tv_sec += ts.tv_nsec / 1000000000;
		ts.tv_nsec %= 1000000000;
		pthread_cond_timedwait(&t->cond, &t->lock, &ts);
		if (!k->stop)
			keep_step(k);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

uint64_t pace_read_ctr(void *ctr)
{
	return ctr_read(ctr);
}

int pace_keep_start(struct pace_keep *k, double target, const int *fds, int n,
		    uint64_t (*sent)(void *arg), void *arg)
{
	struct keeper *t = calloc(1, sizeof(*t));
	int e;

	*k = (struct pace_keep){.target = target, .fds = fds, .n = n,
				.sent = sent, .arg = arg, .t0 = clock_now(),
				.th = t};
	if (!t)
		return -ENOMEM;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	e = pthread_create(&t->th, NULL, keeper_main, k);
	if (e) {
		pthread_mutex_destroy(&t->lock);
		pthread_cond_destroy(&t->cond);
		free(t);
		k->th = NULL;
		return -e;
	}
	k->running = 1;
	return 0;
}

void pace_keep_stop(struct pace_keep *k)
{
	struct keeper *t = k->th;

	if (!k->running)
		return;
	thread_end(t->th, &t->lock, &t->cond, &k->stop);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->cond);
	free(t);
	k->th = NULL;
	k->running = 0;
}
