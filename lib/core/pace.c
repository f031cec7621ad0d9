/*
 * pace.c: the two pacers of pace.h: the kernel's cap on a TCP socket,
 * and the application's token bucket (a debt that sleeps off: a send
 * takes its bytes at once, and the next one waits until the bucket is
 * back to zero; idle time refills it up to the burst).
 */
#include "config.h"
#include "clock.h"
#include "pace.h"

#include <errno.h>
#include <math.h>
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
