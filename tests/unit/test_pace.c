/* test_pace.c: the token bucket against a clock of its own (rate kept
 * over many sends, bursts bounded, a late wake-up made up within the
 * burst), the kernel's cap on a real socket, and the miss rule. */
#include "config.h"
#include "pace.h"
#include "sock.h"
#include "t.h"

#include <errno.h>
#include <math.h>
#include <sys/socket.h>
#include <unistd.h>

/* n sends of unit bytes from t = 0, each wake-up late by late seconds:
 * the time the last one went. */
static double drive(struct pace *p, int n, size_t unit, double late)
{
	double t = 0, d;
	int i;

	for (i = 0; i < n; i++) {
		d = pace_take(p, unit, t);
		if (d > 0)
			t += d + late;
	}
	return t;
}

int main(void)
{
	struct pace p;
	double t, r;
	char err[256];
	int lfd, fd, bound = 0, capped = -1;

	/* 1000 B/s in 10-byte sends: 10000 bytes take 10 s */
	pace_init(&p, 1000, 100, 0);
	t = drive(&p, 1000, 10, 0);
	T_NEAR(t, 10.0, 1e-9);
	/* the first send waits its own time: no burst at the start */
	pace_init(&p, 1000, 100, 0);
	T_NEAR(pace_take(&p, 50, 0), 0.05, 1e-12);
	/* idle 10 s refills at most the burst: 300 bytes then wait 0.2 s */
	pace_init(&p, 1000, 100, 0);
	T_NEAR(pace_take(&p, 300, 10), 0.2, 1e-12);
	/* wake-ups late by half the burst's time: the rate still holds */
	pace_init(&p, 1000, 100, 0);
	t = drive(&p, 1000, 10, 0.05);
	r = 10000 / t;
	T_CHECK(r > 990 && r <= 1000);
	/* late by more than the burst: what is lost is bounded by it */
	pace_init(&p, 1000, 100, 0);
	t = drive(&p, 100, 100, 0.5);
	T_CHECK(10000 / t < 1000);
	/* the burst: PACE_BURST_S at the rate, at least two sends */
	T_NEAR(pace_burst(125e6, 8192), 125e6 * PACE_BURST_S, 1e-6);
	T_NEAR(pace_burst(1e5, 8192), 16384, 1e-9);

	/* the keeper: a deficit made up over its horizon, never below the
	 * target, at most twice it */
	T_NEAR(pace_keep_cap(1000, 1, 1000), 1000, 1e-9);
	T_NEAR(pace_keep_cap(1000, 1, 2000), 1000, 1e-9);
	T_NEAR(pace_keep_cap(1000, 1, 980), 1000 + 20 / PACE_KEEP_HORIZON,
	       1e-9);
	T_NEAR(pace_keep_cap(1000, 1, 0), 2000, 1e-9);

	/* the miss rule: more than 5% off either way */
	T_NEAR(pace_off_pct(95, 100), -5, 1e-12);
	T_CHECK(!pace_missed(95, 100) && pace_missed(94.9, 100));
	T_CHECK(!pace_missed(105, 100) && pace_missed(105.1, 100));
	T_CHECK(isnan(pace_off_pct(1, 0)) && !pace_missed(1, 0));

	/* the kernel's cap on a TCP socket, read back */
	lfd = sock_listen("127.0.0.1", 0, SOCK_STREAM, 1, &bound, err,
			  sizeof(err));
	T_ASSERT(lfd >= 0);
	fd = sock_connect("127.0.0.1", bound, SOCK_STREAM, 1000, err,
			  sizeof(err));
	T_ASSERT(fd >= 0);
	T_CHECK(pace_sock(fd, 125000000, &capped) == 0 && capped == 0);
	T_CHECK(pace_sock_get(fd) == 125000000);
	T_CHECK(pace_sock(fd, 0, NULL) == 0);
	T_CHECK(pace_sock_get(fd) == ~0ull || pace_sock_get(fd) == UINT32_MAX);
	T_CHECK(pace_sock(-1, 1000, NULL) == -EBADF);
	{
		/* the keeper raises the cap of a sample that is behind */
		struct pace_keep k;
		uint64_t sent = 0;
		int i;

		T_ASSERT(pace_keep_start(&k, 1e6, &fd, 1, pace_read_ctr,
					 &sent) == 0);
		for (i = 0; i < 3000 && pace_sock_get(fd) < 1500000; i++)
			usleep(10000);
		T_CHECK(pace_sock_get(fd) >= 1500000); /* nothing sent */
		pace_keep_stop(&k);
		T_CHECK(!k.running);
		pace_keep_stop(&k); /* again: nothing */
	}
	close(fd);
	close(lfd);
	return t_done();
}
