/*
 * client.c: the chat client side of one run, chat_c's threading model: per
 * user one TCP connection, a send thread that sends its M messages with
 * send() and a receive thread that recv()s and checks every message of
 * its room (per sender the next expected sequence number). Also the
 * helpers both client models share.
 */
#include "config.h"
#include "chat.h"
#include "clock.h"
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

/* ---- shared helpers ---- */

int chat_thread(void *(*fn)(void *), void *arg, int detached, int big,
		void *tid_out)
{
	pthread_attr_t a;
	pthread_t t;
	int r;

	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, big ? CHAT_BIG_STACK : CHAT_STACK);
	if (detached)
		pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	r = pthread_create(&t, &a, fn, arg);
	pthread_attr_destroy(&a);
	if (r)
		return -r;
	if (tid_out)
		memcpy(tid_out, &t, sizeof(t));
	return 0;
}

long chat_recv_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = chat_recv(fd, (char *)buf + got, len - got, 0);
		if (n > 0)
			got += (size_t)n;
		else if (n == 0)
			break;
		else if (errno != EINTR)
			return -errno;
	}
	return (long)got;
}

long chat_send_full(int fd, const void *buf, size_t len)
{
	size_t put = 0;
	ssize_t n;

	while (put < len) {
		n = chat_send(fd, (const char *)buf + put, len - put,
			      MSG_NOSIGNAL);
		if (n > 0)
			put += (size_t)n;
		else if (n < 0 && errno != EINTR)
			return -errno;
	}
	return (long)put;
}

void *chat_zalloc(size_t len)
{
	void *p = aligned_alloc(64, (len + 63) & ~(size_t)63);

	if (p)
		memset(p, 0, len);
	return p;
}

double chat_default_timeout(const struct chat_run_cfg *c)
{
	double due = (double)c->rooms * c->users * c->messages * (c->users - 1);

	return 60.0 + due / 20000.0;
}

void chat_describe_missing(char *buf, size_t len, uint64_t expected,
			   uint64_t received, const uint64_t *per_user,
			   uint32_t users, uint32_t nusers, uint64_t due)
{
	uint32_t i, shortn = 0, first = 0;

	for (i = 0; i < nusers; i++)
		if (per_user[i] < due && !shortn++)
			first = i;
	snprintf(
		buf, len,
		"%llu of %llu messages missing; %u of %u users short, first room %u user %u with %llu of %llu",
		(unsigned long long)(expected - received),
		(unsigned long long)expected, shortn, nusers, first / users,
		first % users,
		(unsigned long long)(nusers ? per_user[first] : 0),
		(unsigned long long)due);
}

int chat_check_surplus(int fd, uint16_t room, uint16_t user, char *err,
		       size_t elen)
{
	uint8_t b;

	if (recv(fd, &b, 1, MSG_DONTWAIT | MSG_PEEK) == 1) {
		snprintf(err, elen,
			 "room %u user %u: got more than its room's messages",
			 room, user);
		return -1;
	}
	return 0;
}

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
	char err[768];
};

static void run_fail(struct crun *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void run_fail(struct crun *run, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&run->lock);
	if (!run->stop) {
		va_start(ap, fmt);
		vsnprintf(run->err, sizeof(run->err), fmt, ap);
		va_end(ap);
		run->stop = 1;
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

int chat_check_msg(const struct chat_run_cfg *c, uint16_t room, uint16_t user,
		   uint32_t *next, const struct chat_hdr *h, char *err,
		   size_t elen)
{
	if (h->type != CHAT_MSG || h->len != c->size)
		snprintf(err, elen,
			 "got %s frame of %u bytes, expected MSG of %u",
			 chatframe_type_name(h->type), h->len, c->size);
	else if (h->room != room)
		snprintf(err, elen, "got a message of room %u", h->room);
	else if (h->sender >= c->users || h->sender == user)
		snprintf(err, elen, "got a message from user %u", h->sender);
	else if (h->seq != next[h->sender] || h->seq >= c->messages)
		snprintf(err, elen,
			 "got message seq %u from user %u, expected seq %u",
			 h->seq, h->sender, next[h->sender]);
	else
		return 0;
	return -1;
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
	} else if (!u->dropped) {
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
	while (!run->go && !run->stop)
		pthread_cond_wait(&run->cond, &run->lock);
	pthread_mutex_unlock(&run->lock);
	for (seq = 0; seq < c->messages && !run->stop; seq++) {
		if (c->drop_after >= 0 && seq == c->drop_after &&
		    u->room == 0 && u->user == 0) {
			u->dropped = 1; /* fault: this user goes away */
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

	while (*count < want && !run->stop) {
		/* wake every 0.2 s to notice a signal */
		double t =
			clock_wall() + 0.2 < wall ? clock_wall() + 0.2 : wall;

		ts.tv_sec = (time_t)t;
		ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
		if (pthread_cond_timedwait(&run->cond, &run->lock, &ts) ==
			    ETIMEDOUT &&
		    *count < want && !run->stop) {
			if (run->c->interrupt && *run->c->interrupt) {
				snprintf(run->err, sizeof(run->err),
					 "interrupted by a signal");
				run->stop = 1;
				return -1;
			}
			if (clock_wall() >= wall)
				return 1;
		}
	}
	return run->stop ? -1 : 0;
}

/* Connect one user and start its threads; 0 or -1 with run->err. */
static int user_start(struct crun *run, struct cuser *u, uint64_t token)
{
	const struct chat_run_cfg *c = run->c;
	struct chat_join j = {.token = token,
			      .rooms = c->rooms,
			      .users = c->users,
			      .messages = c->messages,
			      .size = c->size,
			      .flags = c->nodelay ? CHAT_JOIN_NODELAY : 0};
	uint8_t f[CHAT_JOIN_LEN];
	char err[256];
	int r;

	u->fd = sock_connect(c->host, c->port, SOCK_STREAM, 10000, err,
			     sizeof(err));
	if (u->fd < 0) {
		run_fail(run, "room %u user %u: %s", u->room, u->user, err);
		return -1;
	}
	if (c->nodelay)
		sock_set_nodelay(u->fd, 1);
	chatframe_join(f, u->room, u->user, &j);
	if (chat_send_full(u->fd, f, sizeof(f)) != (long)sizeof(f)) {
		run_fail(run, "room %u user %u: sending JOIN to %s:%d failed",
			 u->room, u->user, c->host, c->port);
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

int chat_client_threads(const struct chat_run_cfg *c,
			struct chat_run_result *res)
{
	uint32_t n = c->rooms * c->users, i;
	size_t stride = chat_next_stride(c->users);
	struct cuser *us = chat_zalloc((size_t)n * sizeof(*us));
	uint32_t *next = chat_zalloc((size_t)n * stride * sizeof(*next));
	uint64_t *got = calloc(n, sizeof(*got));
	char miss[400];
	uint64_t due = (uint64_t)c->messages * (c->users - 1);
	double t0 = clock_now(), deadline = t0 + c->timeout_s, t_go = 0;
	struct crun run = {.c = c};
	int w = 0;

	if (!us || !next || !got)
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
	for (i = 0; i < n && !run.stop; i++)
		if (user_start(&run, &us[i], c->token))
			break;
	pthread_mutex_lock(&run.lock);
	if (!run.stop) {
		w = wait_count(&run, &run.nready, n, deadline);
		if (w == 1) {
			snprintf(
				run.err, sizeof(run.err),
				"timed out after %.1f s waiting for the server to start the rooms (%u of %u users ready)",
				c->timeout_s, run.nready, n);
			run.stop = 1;
		}
	}
	if (!run.stop) {
		t_go = clock_now();
		run.go = 1;
		pthread_cond_broadcast(&run.cond);
		w = wait_count(&run, &run.ndone, n, deadline);
		if (w == 1) {
			uint64_t sum = 0;

			for (i = 0; i < n; i++)
				sum += got[i] = __atomic_load_n(
					&us[i].got, __ATOMIC_RELAXED);
			run.stop = 1;
			chat_describe_missing(miss, sizeof(miss), res->expected,
					      sum, got, c->users, n, due);
			snprintf(run.err, sizeof(run.err),
				 "run timed out after %.1f s: %s", c->timeout_s,
				 miss);
		}
	}
	run.stop = run.stop || run.err[0];
	pthread_cond_broadcast(&run.cond);
	pthread_mutex_unlock(&run.lock);
	if (!run.err[0]) /* exactly: nothing may follow the last message */
		for (i = 0; i < n && !run.err[0]; i++)
			chat_check_surplus(us[i].fd, us[i].room, us[i].user,
					   run.err, sizeof(run.err));
	/* wake every thread still blocked in recv or send */
	if (run.err[0])
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
	snprintf(res->err, sizeof(res->err), "%s", run.err);
	if (t_go > 0) {
		res->connect_s = t_go - t0;
		res->exchange_s =
			run.t_last > 0 ? run.t_last - t_go : clock_now() - t_go;
	}
	pthread_mutex_destroy(&run.lock);
	pthread_cond_destroy(&run.cond);
	free(us);
	free(next);
	free(got);
	return res->err[0] ? -1 : 0;
}
