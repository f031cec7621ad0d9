/*
 * bound.c: the transmitter's hard stop (ttcp.h). With --duration, what
 * the receiver does can keep the transmitter no longer than the duration
 * and a grace (TTCP_GRACE_MIN s, or a tenth of the duration when longer):
 * a watchdog thread cuts the connection then (shutdown, so a blocked read
 * or write returns at once), and the run fails naming the receiver. The
 * streams, -R, --bidir, --rr and --crr use it; -P has its own in flows.c.
 */
#include "config.h"
#include "clock.h"
#include "log.h"
#include "thread.h"
#include "ttcp.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

struct bound {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct timespec at;	/* CLOCK_MONOTONIC */
	int fd;			/* the connection to cut, -1 none */
	int done;		/* bound_stop: end the watch */
	int late;		/* the bound has passed */
	int hit;		/* and a connection was cut */
};

double ttcp_grace(const struct cfg *c)
{
	return c->duration / 10 > TTCP_GRACE_MIN ? c->duration / 10 :
						   TTCP_GRACE_MIN;
}

static void *watch(void *p)
{
	struct bound *b = p;

	pthread_mutex_lock(&b->mu);
	while (!b->done &&
	       pthread_cond_timedwait(&b->cv, &b->mu, &b->at) != ETIMEDOUT)
		;
	if (!b->done) {
		b->late = 1;
		b->hit = b->fd >= 0;
		if (b->fd >= 0)
			shutdown(b->fd, SHUT_RDWR);
	}
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

struct bound *bound_start(const struct cfg *c, double t0, int fd)
{
	struct bound *b;
	pthread_condattr_t ca;
	sigset_t all, old;
	double at;

	if (c->duration <= 0)
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b)
		die("out of memory");
	at = t0 + c->duration + ttcp_grace(c);
	b->at.tv_sec = (time_t)at;
	b->at.tv_nsec = (long)((at - (double)b->at.tv_sec) * 1e9);
	b->fd = fd;
	pthread_mutex_init(&b->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&b->cv, &ca);
	pthread_condattr_destroy(&ca);
	/* signals go to the thread doing the I/O: its calls return EINTR */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&b->th, NULL, watch, b))
		die("cannot start the --duration watchdog thread");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return b;
}

void bound_fd(struct bound *b, int fd)
{
	if (!b)
		return;
	pthread_mutex_lock(&b->mu);
	b->fd = fd;
	if (b->late && fd >= 0) { /* past the bound already */
		b->hit = 1;
		shutdown(fd, SHUT_RDWR);
	}
	pthread_mutex_unlock(&b->mu);
}

int bound_hit(struct bound *b)
{
	int hit;

	if (!b)
		return 0;
	pthread_mutex_lock(&b->mu);
	hit = b->hit;
	pthread_mutex_unlock(&b->mu);
	return hit;
}

void bound_check(struct bound *b, const struct cfg *c, const char *phase)
{
	if (!bound_hit(b))
		return;
	bound_stop(b); /* its thread is done: joined */
	die("receiver %s:%d kept this side past --duration %.1f s and its grace of %.1f s (phase: %s): connection cut",
	    c->host, c->port, c->duration, ttcp_grace(c), phase);
}

void bound_stop(struct bound *b)
{
	if (!b)
		return;
	thread_end(b->th, &b->mu, &b->cv, &b->done);
	pthread_mutex_destroy(&b->mu);
	pthread_cond_destroy(&b->cv);
	free(b);
}
