/*
 * client.c: the chat client side of one run, chat_c's threading model: per
 * user one TCP connection, a send thread that sends its M messages with
 * send() and a receive thread that recv()s and checks every message of
 * its room (per sender the next expected sequence number); and the
 * choice of model for a run. What both models share is in common.c.
 */
#include "config.h"
#include "chat.h"
#include "clock.h"
#include "ctr.h"
#include "sock.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* The run's model: this file's threads, or client_epoll.c's loop. */
int chat_client_run(const struct chat_run_cfg *c, struct chat_run_result *r)
{
	memset(r, 0, sizeof(*r));
	r->expected =
		(uint64_t)c->rooms * c->users * c->messages * (c->users - 1);
	return c->model == CHAT_EPOLL ? chat_client_epoll(c, r)
				      : chat_client_threads(c, r);
}

/* ---- threads model ---- */

struct crun;

struct cuser {
	struct crun *run;
	int fd;
	uint16_t room, user;
	uint32_t *next; /* per sender: next expected seq (own lines) */
	int dropped;	/* fault: hung up on purpose */
	pthread_t rx, tx;
	int have_rx, have_tx;
	/* written per message by the receive thread: a line of its own */
	uint64_t got __attribute__((aligned(64))); /* messages checked in */
};

struct crun {
	const struct chat_run_cfg *c;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint32_t nready, ndone; /* users READY / with every message */
	int go;			/* senders may start */
	int stop;		/* something failed: everyone stops */
	double t_last;		/* the last user completed */
	struct cuser *us;	/* -i: every user's deliveries */
	uint32_t n;
	char err[768];
};

/* run->stop: set under run->lock, read by the senders without it (a
 * relaxed atomic on both sides: no data race, no cost on x86-64) */
static int stopped(const struct crun *run)
{
	return __atomic_load_n(&run->stop, __ATOMIC_RELAXED);
}

static void set_stop(struct crun *run)
{
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
}

static void run_fail(struct crun *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void run_fail(struct crun *run, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&run->lock);
	if (!stopped(run)) {
		va_start(ap, fmt);
		vsnprintf(run->err, sizeof(run->err), fmt, ap);
		va_end(ap);
		set_stop(run);
		pthread_cond_broadcast(&run->cond);
	}
	pthread_mutex_unlock(&run->lock);
}

/*
 * Read one frame of want bytes (ABORT frames may be shorter or longer), of
 * which have bytes are already in buf. 1 frame, 0 EOF before any byte, -1
 * with err.
 */
static int recv_frame(int fd, uint8_t *buf, size_t cap, size_t want,
		      size_t have, struct chat_hdr *h, char *err, size_t elen)
{
	long n = chat_recv_full(fd, buf + have, want - have), m;
	int r;

	if (n < 0) {
		snprintf(err, elen, "%s", strerror((int)-n));
		return -1;
	}
	n += (long)have;
	if (n == 0)
		return 0;
	r = chatframe_decode(buf, (size_t)n, cap, h, err, elen);
	if (r < 0)
		return -1;
	if (r == 0 && (size_t)n < want) {
		snprintf(err, elen, "server hung up inside a frame");
		return -1;
	}
	if (r == 0) {
		m = chat_recv_full(fd, buf + n, h->len - (size_t)n);
		if (m != (long)(h->len - (size_t)n)) {
			snprintf(err, elen, "server hung up inside a frame");
			return -1;
		}
	}
	return 1;
}

/*
 * Receive and check the room's messages: one recv() per message, checked
 * by chatframe_msg_ok without decoding; anything else (a short read, an ABORT,
 * a wrong frame) takes the slow path that decodes it and says what it is.
 * 1 all due arrived, else as recv_frame with h the last frame.
 */
static int rx_msgs(struct cuser *u, uint8_t *b, size_t cap, uint64_t due,
		   struct chat_hdr *h, char *err, size_t elen)
{
	const struct chat_run_cfg *c = u->run->c;
	struct chatframe_expect e;
	uint32_t *next = u->next;
	uint64_t got = u->got;
	size_t size = c->size;
	ssize_t n;
	int r = 1;

	chatframe_expect_init(&e, c->size, u->room, u->user, c->users,
			      c->messages);
	while (got < due) {
		n = chat_recv(u->fd, b, size, 0);
		if (n == (ssize_t)size && chatframe_msg_ok(&e, next, b)) {
			/* a plain store: read by a timed-out run's report */
			__atomic_store_n(&u->got, ++got, __ATOMIC_RELAXED);
			continue;
		}
		if (n < 0 && errno == EINTR)
			n = 0;
		if (n < 0) {
			snprintf(err, elen, "%s", strerror(errno));
			r = -1;
			break;
		}
		r = recv_frame(u->fd, b, cap, size, (size_t)n, h, err, elen);
		if (r != 1 || h->type == CHAT_ABORT)
			break;
		if (chat_check_msg(c, u->room, u->user, next, h, err, elen)) {
			r = -1;
			break;
		}
		next[h->sender]++;
		__atomic_store_n(&u->got, ++got, __ATOMIC_RELAXED);
	}
	return r;
}

static void *rx_main(void *arg)
{
	struct cuser *u = arg;
	struct crun *run = u->run;
	const struct chat_run_cfg *c = run->c;
	size_t cap = c->size > CHAT_HDR + CHAT_REASON_MAX
			     ? c->size
			     : CHAT_HDR + CHAT_REASON_MAX;
	uint64_t due = (uint64_t)c->messages * (c->users - 1);
	uint8_t *b = malloc(cap);
	char err[300], why[CHAT_REASON_MAX + 1];
	struct chat_hdr h;
	int r;

	if (!b)
		abort();
	r = recv_frame(u->fd, b, cap, CHAT_HDR, 0, &h, err, sizeof(err));
	if (r == 1 && h.type == CHAT_READY) {
		pthread_mutex_lock(&run->lock);
		run->nready++;
		pthread_cond_broadcast(&run->cond);
		pthread_mutex_unlock(&run->lock);
	}
	if (r == 1 && h.type != CHAT_ABORT)
		r = rx_msgs(u, b, cap, due, &h, err, sizeof(err));
	if (r == 1 && h.type == CHAT_ABORT) {
		chatframe_reason(b + CHAT_HDR, h.len - CHAT_HDR, why,
				 sizeof(why));
		run_fail(run,
			 "room %u user %u: the server broke up the room: %s",
			 u->room, u->user, why);
	} else if (r == 1 && u->got == due) {
		pthread_mutex_lock(&run->lock);
		if (++run->ndone == c->rooms * c->users) {
			run->t_last = clock_now();
			pthread_cond_broadcast(&run->cond);
		}
		pthread_mutex_unlock(&run->lock);
	} else if (!__atomic_load_n(&u->dropped, __ATOMIC_ACQUIRE)) {
		run_fail(run, "room %u user %u: %s after %llu of %llu messages",
			 u->room, u->user,
			 r == 0 ? "the server closed the connection" : err,
			 (unsigned long long)u->got, (unsigned long long)due);
	}
	free(b);
	return NULL;
}

static void *tx_main(void *arg)
{
	struct cuser *u = arg;
	struct crun *run = u->run;
	const struct chat_run_cfg *c = run->c;
	uint8_t *b = malloc(c->size);
	uint32_t seq;
	long n;

	if (!b)
		abort();
	chatframe_msg(b, c->size, u->room, u->user, 0);
	pthread_mutex_lock(&run->lock);
	while (!run->go && !stopped(run))
		pthread_cond_wait(&run->cond, &run->lock);
	pthread_mutex_unlock(&run->lock);
	for (seq = 0; seq < c->messages && !stopped(run); seq++) {
		if (c->drop_after >= 0 && seq == c->drop_after &&
		    u->room == 0 && u->user == 0) {
			/* fault: this user goes away; its receive thread
			 * reads the mark when the hang-up reaches it */
			__atomic_store_n(&u->dropped, 1, __ATOMIC_RELEASE);
			shutdown(u->fd, SHUT_RDWR);
			break;
		}
		chatframe_set_seq(b, seq);
		n = chat_send_full(u->fd, b, c->size);
		if (n != (long)c->size) {
			run_fail(
				run,
				"room %u user %u: send of message %u failed: %s",
				u->room, u->user, seq,
				n < 0 ? strerror((int)-n) : "short send");
			break;
		}
	}
	free(b);
	return NULL;
}

/* Wait for cond until the count is reached, a failure, or the deadline.
 * 0 reached, -1 failed, 1 timed out. Called with run->lock held. */
static int wait_count(struct crun *run, uint32_t *count, uint32_t want,
		      double deadline)
{
	struct timespec ts;
	double wall = clock_wall() + (deadline - clock_now());

	while (*count < want && !stopped(run)) {
		/* wake every 0.2 s to notice a signal */
		double t =
			clock_wall() + 0.2 < wall ? clock_wall() + 0.2 : wall;

		ts.tv_sec = (time_t)t;
		ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
		if (pthread_cond_timedwait(&run->cond, &run->lock, &ts) ==
			    ETIMEDOUT &&
		    *count < want && !stopped(run)) {
			if (run->c->interrupt && *run->c->interrupt) {
				snprintf(run->err, sizeof(run->err),
					 "interrupted by a signal");
				set_stop(run);
				return -1;
			}
			if (clock_wall() >= wall)
				return 1;
		}
	}
	return stopped(run) ? -1 : 0;
}

/* Connect one user and start its threads; 0 or -1 with run->err. */
static int user_start(struct crun *run, struct cuser *u)
{
	char err[512];
	int r;

	u->fd = chat_user_connect(run->c, u->room, u->user, err, sizeof(err));
	if (u->fd < 0) {
		run_fail(run, "%s", err);
		return -1;
	}
	r = chat_thread(rx_main, u, 0, 0, &u->rx);
	if (!r)
		u->have_rx = 1;
	if (!r)
		r = chat_thread(tx_main, u, 0, 0, &u->tx);
	if (!r)
		u->have_tx = 1;
	if (r) {
		run_fail(run, "room %u user %u: cannot start a thread: %s",
			 u->room, u->user, strerror(-r));
		return -1;
	}
	return 0;
}

/* -i: the deliveries checked in so far, over every user. */
static uint64_t delivered(void *arg)
{
	const struct crun *run = arg;

	return ctr_sum(&run->us[0].got, run->n, sizeof(*run->us));
}

/* With run->lock held, the senders gone: --omit's seconds into the
 * exchange (t_go), the measured part begins, its hook run unlocked; 1
 * when the exchange is over already (every user has its messages, or
 * it failed: run->err says which), else 0. */
static int omit_part(struct crun *run, uint32_t n, double t_go,
		     double deadline, struct chat_run_result *res)
{
	const struct chat_run_cfg *c = run->c;
	double end = t_go + c->omit_s;
	int w;

	if (c->omit_s <= 0)
		return 0;
	w = wait_count(run, &run->ndone, n, end < deadline ? end : deadline);
	if (w == 0 && !stopped(run)) {
		chat_omit_short(run->err, sizeof(run->err), c, t_go);
		set_stop(run);
	}
	if (w != 1 || end >= deadline)
		return 1;
	pthread_mutex_unlock(&run->lock);
	chat_omit_begin(c, res, t_go, delivered(run));
	pthread_mutex_lock(&run->lock);
	return 0;
}

/* With run->lock held: wait until every user is READY, let the senders
 * go, and wait until every user has its messages (--omit: its measured
 * part begun on the way); t_go: when they went. */
static void run_exchange(struct crun *run, struct cuser *us, uint32_t n,
			 double deadline, double *t_go,
			 struct chat_run_result *res)
{
	uint64_t *got;
	uint32_t i;

	if (!stopped(run) && wait_count(run, &run->nready, n, deadline) == 1) {
		chat_ready_timeout(run->err, sizeof(run->err), run->c,
				   run->nready, n);
		set_stop(run);
	}
	if (stopped(run))
		return;
	*t_go = clock_now();
	ival_watch_fn(run->c->iv, delivered, run);
	run->go = 1;
	pthread_cond_broadcast(&run->cond);
	if (omit_part(run, n, *t_go, deadline, res) && stopped(run))
		return;
	if (wait_count(run, &run->ndone, n, deadline) != 1)
		return;
	got = calloc(n, sizeof(*got));
	if (!got)
		abort();
	for (i = 0; i < n; i++)
		got[i] = __atomic_load_n(&us[i].got, __ATOMIC_RELAXED);
	set_stop(run);
	chat_run_timeout(run->err, sizeof(run->err), run->c, res->expected, got,
			 n);
	free(got);
}

/* After the run: no byte may follow the last message; a failed run wakes
 * every thread still blocked in recv or send; then join and count. */
static void run_end(struct crun *run, struct cuser *us, uint32_t n,
		    struct chat_run_result *res)
{
	uint32_t i;

	if (!run->err[0])
		for (i = 0; i < n && !run->err[0]; i++)
			chat_check_surplus(us[i].fd, us[i].room, us[i].user,
					   run->err, sizeof(run->err));
	if (run->err[0])
		for (i = 0; i < n; i++)
			if (us[i].fd >= 0)
				shutdown(us[i].fd, SHUT_RDWR);
	for (i = 0; i < n; i++) {
		if (us[i].have_tx)
			pthread_join(us[i].tx, NULL);
		if (us[i].have_rx)
			pthread_join(us[i].rx, NULL);
		if (us[i].fd >= 0)
			close(us[i].fd);
		res->received += us[i].got;
	}
	snprintf(res->err, sizeof(res->err), "%s", run->err);
}

int chat_client_threads(const struct chat_run_cfg *c,
			struct chat_run_result *res)
{
	uint32_t n = c->rooms * c->users, i;
	size_t stride = chat_next_stride(c->users);
	struct cuser *us = chat_zalloc((size_t)n * sizeof(*us));
	uint32_t *next = chat_zalloc((size_t)n * stride * sizeof(*next));
	double t0 = clock_now(), deadline = t0 + c->timeout_s, t_go = 0;
	struct crun run = {.c = c, .us = us, .n = n};

	if (!us || !next)
		abort();
	pthread_mutex_init(&run.lock, NULL);
	pthread_cond_init(&run.cond, NULL);
	for (i = 0; i < n; i++) {
		us[i].run = &run;
		us[i].fd = -1;
		us[i].room = (uint16_t)(i / c->users);
		us[i].user = (uint16_t)(i % c->users);
		us[i].next = next + (size_t)i * stride;
	}
	for (i = 0; i < n && !stopped(&run); i++)
		if (user_start(&run, &us[i]))
			break;
	pthread_mutex_lock(&run.lock);
	run_exchange(&run, us, n, deadline, &t_go, res);
	if (run.err[0])
		set_stop(&run);
	pthread_cond_broadcast(&run.cond);
	pthread_mutex_unlock(&run.lock);
	run_end(&run, us, n, res);
	ival_watch_fn(c->iv, NULL, NULL);
	if (t_go > 0) {
		res->connect_s = t_go - t0;
		t_go = chat_measured_from(res, t_go);
		res->exchange_s =
			run.t_last > 0 ? run.t_last - t_go : clock_now() - t_go;
	}
	pthread_mutex_destroy(&run.lock);
	pthread_cond_destroy(&run.cond);
	free(us);
	free(next);
	return res->err[0] ? -1 : 0;
}
