/* test_clock.c: the monotonic clock, timestamps, interruptible sleep. */
#include "config.h"
#include "clock.h"
#include "t.h"

#include <errno.h>
#include <signal.h>
#include <sys/time.h>

static void on_alarm(int s)
{
	(void)s;
}

int main(void)
{
	struct sigaction sa;
	struct itimerval it;
	uint64_t a, b;
	double t0, t1;
	char ts[64];
	int r;

	a = clock_ns();
	b = clock_ns();
	T_CHECK(b >= a);
	t0 = clock_now();
	T_CHECK(clock_sleep(0.05) == 0);
	t1 = clock_now();
	T_CHECK(t1 - t0 >= 0.049);
	T_CHECK(clock_sleep(0) == 0);
	T_CHECK(clock_wall() > 1.7e9); /* after 2023 */

	clock_iso8601(ts, sizeof(ts));
	T_CHECK(strlen(ts) == 20);
	T_CHECK(ts[4] == '-' && ts[10] == 'T' && ts[19] == 'Z');

	/* a signal cuts a sleep short and says so */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	memset(&it, 0, sizeof(it));
	it.it_value.tv_usec = 50000;
	setitimer(ITIMER_REAL, &it, NULL);
	t0 = clock_now();
	r = clock_sleep(5);
	t1 = clock_now();
	T_CHECK(r == EINTR);
	T_CHECK(t1 - t0 < 2);
	return t_done();
}
