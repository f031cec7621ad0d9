/* clock.c: monotonic and wall time, and an interruptible sleep. */
#include "config.h"
#include "clock.h"

#include <errno.h>
#include <time.h>

uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double clock_now(void)
{
	return (double)clock_ns() / 1e9;
}

double clock_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const char *clock_iso8601(char *buf, unsigned len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

int clock_sleep(double seconds)
{
	struct timespec ts;

	if (seconds <= 0)
		return 0;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	return nanosleep(&ts, NULL) ? errno : 0;
}
