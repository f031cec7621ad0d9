/*
 * pace.h: sending at a target rate (ttcp-sf and zcc --rate), two ways:
 *
 *  - the kernel's: SO_MAX_PACING_RATE on a TCP socket caps what TCP's
 *    own pacing lets out (no fq qdisc needed: TCP paces internally once
 *    a socket has a rate), whatever call fills the socket (write,
 *    sendfile, splice, MSG_ZEROCOPY, io_uring);
 *  - the application's, where the kernel does not pace (a UDP socket
 *    without fq): a token bucket that lets out rate bytes per second
 *    and at most burst bytes at once, sleeping on the monotonic clock
 *    for the rest.
 *
 * The kernel's pacing loses what runs late: on a busy box its pacing
 * timer fires late, and TCP does not make the time up (a 5 Gbit/s
 * stream on 2 loaded CPUs ran 6% short). A keeper thread holds the
 * sockets of a sample at its target: every PACE_KEEP_S it compares the
 * bytes sent with the target's, and raises the sockets' cap to make up
 * a deficit over PACE_KEEP_HORIZON (never below the target, at most
 * PACE_KEEP_MAX times it).
 *
 * Rates are bytes per second. Library code: nothing prints; -errno.
 */
#ifndef ZCB_PACE_H
#define ZCB_PACE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#define PACE_MISS_PCT 5.0 /* a run more than this far off its target
			   * missed it: it says so and tables mark it */
#define PACE_BURST_S 0.02 /* the application pacer's burst: this long
			    * at the rate (at least two sends), so a
			    * wake-up a busy box makes late by some ms is
			    * made up, not lost (with 1 ms, a 1 Gbit/s
			    * UDP stream ran 20% short on 2 loaded CPUs) */

/*
 * The kernel paces fd at bytes_per_s (0: no cap). 0 or -errno. A kernel
 * that takes only 32 bits gets the rate capped at 4 GB/s (*capped 1, when
 * capped is not NULL).
 */
int pace_sock(int fd, uint64_t bytes_per_s, int *capped);
/* What SO_MAX_PACING_RATE holds on fd (bytes/s; ~0 uncapped), or 0 when
 * it cannot be read. */
uint64_t pace_sock_get(int fd);

/* The application's token bucket. */
struct pace {
	double rate;	/* bytes per second (> 0) */
	double burst;	/* bytes let out at once at most */
	double tokens;	/* bytes that may go now; < 0: a debt */
	double last;	/* when tokens were counted (seconds) */
};

/* A bucket at rate bytes/s that lets out at most burst bytes at once,
 * empty at now (seconds on the clock the caller uses). */
void pace_init(struct pace *p, double rate, double burst, double now);
/* The burst for sends of unit bytes at rate: PACE_BURST_S at the rate,
 * at least two units. */
double pace_burst(double rate, size_t unit);
/*
 * n bytes go at now: taken from the bucket; returns how long to wait
 * before they may (seconds, 0: at once). The pure step of the pacer
 * (tests drive it with their own clock).
 */
double pace_take(struct pace *p, size_t n, double now);
/* pace_take on the monotonic clock, then the wait, in sleeps that end
 * early when *stop becomes nonzero (stop may be NULL): 0, or -EINTR. */
int pace_wait(struct pace *p, size_t n, volatile sig_atomic_t *stop);

#define PACE_KEEP_S	  0.05 /* the keeper looks this often (s) */
#define PACE_KEEP_HORIZON 0.2  /* and makes a deficit up over this (s) */
#define PACE_KEEP_MAX	  2.0  /* the cap at most this times the target */

/* The sockets' cap (bytes/s, all of them) for a sample elapsed seconds
 * into a target of target bytes/s that has sent sent bytes: the pure
 * step of the keeper. */
double pace_keep_cap(double target, double elapsed, double sent);

struct pace_keep {
	double target;		   /* bytes/s of all the sockets */
	const int *fds;		   /* the sockets, each capped at its share
				    * (kept by the caller until stop) */
	int n;
	uint64_t (*sent)(void *arg); /* their bytes so far */
	void *arg;
	double t0;		   /* the start */
	int running, stop;
	void *th;		   /* the thread, its lock, its wake-up */
};
/*
 * Keep the n sockets fds at target bytes/s from now, their bytes so far
 * read by sent(arg) (pace_read_ctr: one uint64_t counter, lib/core/ctr.h):
 * 0, or -errno (k is then not running; the sockets keep the cap they
 * had). Stop before any of the sockets is closed.
 */
int pace_keep_start(struct pace_keep *k, double target, const int *fds, int n,
		    uint64_t (*sent)(void *arg), void *arg);
uint64_t pace_read_ctr(void *ctr);
void pace_keep_stop(struct pace_keep *k);

/* How far achieved is from target, in percent of target (signed: below
 * is negative); NAN without a target. */
double pace_off_pct(double achieved, double target);
/* 1 when that is more than PACE_MISS_PCT either way. */
int pace_missed(double achieved, double target);

#endif
