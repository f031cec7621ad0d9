/*
 * client_epoll.c: the chat client side as one event loop (--model epoll):
 * every user's connection non-blocking in one epoll set, the same system
 * calls per message as the threads model (one send() per message sent,
 * one recv() per message read), no thread per user.
 */
#include "config.h"
#include "chat.h"
#include "clock.h"
#include "ctr.h"
#include "sock.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define EPC_BATCH 16 /* messages sent or read per wake-up */

struct euser {
	int fd;
	uint16_t room, user;
	uint32_t *next;		     /* per sender: next expected seq */
	struct chatframe_expect exp; /* what every MSG must be */
	uint64_t got;		     /* messages checked in */
	uint32_t sent;		     /* messages sent */
	size_t outfrag;		     /* bytes of the current message left */
	uint8_t *msg;		     /* the message it sends, seq rewritten */
	uint8_t *in;		     /* frame being read */
	size_t inlen;
	int ready, done, dropped;
	uint32_t events;
};

struct erun {
	const struct chat_run_cfg *c;
	int epfd;
	size_t cap;   /* in-buffer size */
	uint64_t due; /* messages each user must get */
	uint32_t nready, ndone;
	char err[768];
};

static void set_events(struct erun *run, struct euser *u, uint32_t ev)
{
	struct epoll_event e = {.events = ev, .data.ptr = u};

	if (u->events == ev || u->fd < 0)
		return;
	epoll_ctl(run->epfd, EPOLL_CTL_MOD, u->fd, &e);
	u->events = ev;
}

/* Send up to EPC_BATCH messages; 0 or -1 with run->err. */
static int on_writable(struct erun *run, struct euser *u)
{
	const struct chat_run_cfg *c = run->c;
	int k;
	ssize_t n;

	for (k = 0; k < EPC_BATCH && u->sent < c->messages; k++) {
		if (!u->outfrag) {
			if (c->drop_after >= 0 && u->sent == c->drop_after &&
			    u->room == 0 && u->user == 0) {
				u->dropped = 1; /* fault: this user goes away */
				shutdown(u->fd, SHUT_RDWR);
				epoll_ctl(run->epfd, EPOLL_CTL_DEL, u->fd,
					  NULL);
				return 0;
			}
			chatframe_set_seq(u->msg, u->sent);
			u->outfrag = c->size;
		}
		n = chat_send(u->fd, u->msg + (c->size - u->outfrag),
			      u->outfrag, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n < 0) {
			snprintf(
				run->err, sizeof(run->err),
				"room %u user %u: send of message %u failed: %s",
				u->room, u->user, u->sent, strerror(errno));
			return -1;
		}
		u->outfrag -= (size_t)n;
		if (!u->outfrag)
			u->sent++;
	}
	if (u->sent == c->messages)
		set_events(run, u, EPOLLIN);
	return 0;
}

/* A whole frame is in u->in; 0 or -1 with run->err. */
static int on_frame(struct erun *run, struct euser *u, struct chat_hdr *h)
{
	char err[300], why[CHAT_REASON_MAX + 1];

	if (h->type == CHAT_ABORT) {
		chatframe_reason(u->in + CHAT_HDR, h->len - CHAT_HDR, why,
				 sizeof(why));
		snprintf(run->err, sizeof(run->err),
			 "room %u user %u: the server broke up the room: %s",
			 u->room, u->user, why);
		return -1;
	}
	if (!u->ready) {
		if (h->type != CHAT_READY) {
			snprintf(run->err, sizeof(run->err),
				 "room %u user %u: expected READY, got %s",
				 u->room, u->user,
				 chatframe_type_name(h->type));
			return -1;
		}
		u->ready = 1;
		run->nready++;
		return 0;
	}
	if (chat_check_msg(run->c, u->room, u->user, u->next, h, err,
			   sizeof(err))) {
		snprintf(run->err, sizeof(run->err),
			 "room %u user %u: %s after %llu of %llu messages",
			 u->room, u->user, err, (unsigned long long)u->got,
			 (unsigned long long)run->due);
		return -1;
	}
	u->next[h->sender]++;
	ctr_add(&u->got, 1); /* -i reads it */
	if (u->got == run->due) {
		u->done = 1;
		run->ndone++;
	}
	return 0;
}

/* recv() failed or hit EOF (n <= 0, not EAGAIN): 0 for a user that hung
 * up on purpose, else -1 with run->err. */
static int recv_failed(struct erun *run, struct euser *u, ssize_t n)
{
	if (u->dropped)
		return 0;
	snprintf(run->err, sizeof(run->err),
		 "room %u user %u: %s after %llu of %llu messages", u->room,
		 u->user,
		 n == 0 ? "the server closed the connection" : strerror(errno),
		 (unsigned long long)u->got, (unsigned long long)run->due);
	return -1;
}

/*
 * Read up to EPC_BATCH frames; 0 or -1 with run->err. A message read
 * whole by one recv() is checked by chatframe_msg_ok without decoding; a part,
 * an ABORT or a wrong frame takes the decoding path.
 */
static int on_readable(struct erun *run, struct euser *u)
{
	size_t size = run->c->size;
	struct chat_hdr h;
	char err[256];
	size_t want;
	ssize_t n;
	int k = 0, r;

	while (k < EPC_BATCH && !u->done) {
		if (u->ready && !u->inlen) {
			n = chat_recv(u->fd, u->in, size, MSG_DONTWAIT);
			if (n == (ssize_t)size &&
			    chatframe_msg_ok(&u->exp, u->next, u->in)) {
				ctr_add(&u->got, 1);
				if (u->got == run->due) {
					u->done = 1;
					run->ndone++;
				}
				k++;
				continue;
			}
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				return 0;
			if (n <= 0)
				return recv_failed(run, u, n);
			u->inlen = (size_t)n;
		}
		want = u->ready ? size : CHAT_HDR;
		r = 0;
		if (u->inlen >= CHAT_HDR) {
			r = chatframe_decode(u->in, u->inlen, run->cap, &h, err,
					     sizeof(err));
			if (r < 0)
				goto bad;
			want = h.len;
		}
		if (r == 0) {
			n = chat_recv(u->fd, u->in + u->inlen, want - u->inlen,
				      MSG_DONTWAIT);
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				return 0;
			if (n <= 0)
				return recv_failed(run, u, n);
			u->inlen += (size_t)n;
			if (u->inlen < CHAT_HDR || u->inlen < want)
				continue;
			r = chatframe_decode(u->in, u->inlen, run->cap, &h, err,
					     sizeof(err));
			if (r < 0)
				goto bad;
			if (r == 0)
				continue; /* the header asks for more */
		}
		if (on_frame(run, u, &h))
			return -1;
		u->inlen = 0;
		k++;
	}
	return 0;
bad:
	snprintf(run->err, sizeof(run->err), "room %u user %u: %s", u->room,
		 u->user, err);
	return -1;
}

/* Run the loop until count reaches want; 0, -1 failed, 1 timed out. */
static int loop(struct erun *run, struct euser *us, uint32_t *count,
		uint32_t want, double deadline)
{
	struct epoll_event ev[256];
	double left;
	int n, i, ms;

	(void)us;
	while (*count < want) {
		left = deadline - clock_now();
		if (left <= 0)
			return 1;
		ms = (int)ceil(left * 1000); /* never back before it */
		if (run->c->interrupt && *run->c->interrupt) {
			snprintf(run->err, sizeof(run->err),
				 "interrupted by a signal");
			return -1;
		}
		n = epoll_wait(run->epfd, ev, 256, ms < 200 ? ms : 200);
		if (n < 0 && errno != EINTR) {
			snprintf(run->err, sizeof(run->err), "epoll_wait: %s",
				 strerror(errno));
			return -1;
		}
		for (i = 0; i < n; i++) {
			struct euser *u = ev[i].data.ptr;

			if ((ev[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) &&
			    on_readable(run, u))
				return -1;
			if ((ev[i].events & EPOLLOUT) && on_writable(run, u))
				return -1;
		}
	}
	return 0;
}

static int user_connect(struct erun *run, struct euser *u)
{
	struct epoll_event e = {.events = EPOLLIN, .data.ptr = u};

	u->fd = chat_user_connect(run->c, u->room, u->user, run->err,
				  sizeof(run->err));
	if (u->fd < 0)
		return -1;
	sock_set_nonblock(u->fd, 1);
	u->events = EPOLLIN;
	epoll_ctl(run->epfd, EPOLL_CTL_ADD, u->fd, &e);
	return 0;
}

/* -i: the users and how many, for delivered(). */
struct epoll_got {
	const struct euser *us;
	uint32_t n;
};

/* -i: the deliveries checked in so far (this loop's thread adds them
 * with ctr_add; the reporter reads). */
static uint64_t delivered(void *arg)
{
	const struct epoll_got *g = arg;

	return ctr_sum(&g->us[0].got, g->n, sizeof(*g->us));
}

/* --omit: the loop until its seconds into the exchange (t_go) are
 * over, then the measured part begins; 0, or what loop() returned when
 * the exchange ended first (0 then fails it: run->err says so). */
static int omit_part(struct erun *run, struct euser *us, uint32_t n,
		     double t_go, double deadline, struct chat_run_result *res)
{
	const struct chat_run_cfg *c = run->c;
	double end = t_go + c->omit_s;
	int r;

	if (c->omit_s <= 0)
		return 0;
	r = loop(run, us, &run->ndone, n, end < deadline ? end : deadline);
	if (r == 0) {
		chat_omit_short(run->err, sizeof(run->err), c, t_go);
		return -1;
	}
	if (r < 0 || end >= deadline)
		return r;
	chat_omit_begin(c, res, t_go,
			delivered(&(struct epoll_got){us, n}));
	return 0;
}

int chat_client_epoll(const struct chat_run_cfg *c, struct chat_run_result *res)
{
	uint32_t n = c->rooms * c->users, i;
	struct euser *us = calloc(n, sizeof(*us));
	size_t stride = chat_next_stride(c->users);
	uint32_t *next = chat_zalloc((size_t)n * stride * sizeof(*next));
	uint64_t *got = calloc(n, sizeof(*got));
	double t0 = clock_now(), deadline = t0 + c->timeout_s, t_go = 0;
	struct erun run = {.c = c, .epfd = epoll_create1(EPOLL_CLOEXEC)};
	int r = -1;

	run.cap = c->size > CHAT_HDR + CHAT_REASON_MAX
			  ? c->size
			  : CHAT_HDR + CHAT_REASON_MAX;
	run.due = (uint64_t)c->messages * (c->users - 1);
	if (!us || !next || !got || run.epfd < 0)
		abort();
	for (i = 0; i < n; i++) {
		us[i].fd = -1;
		us[i].room = (uint16_t)(i / c->users);
		us[i].user = (uint16_t)(i % c->users);
		us[i].next = next + (size_t)i * stride;
		chatframe_expect_init(&us[i].exp, c->size, us[i].room,
				      us[i].user, c->users, c->messages);
		us[i].in = malloc(run.cap);
		us[i].msg = malloc(c->size);
		if (!us[i].in || !us[i].msg)
			abort();
		chatframe_msg(us[i].msg, c->size, us[i].room, us[i].user, 0);
	}
	for (i = 0; i < n; i++)
		if (user_connect(&run, &us[i]))
			goto out;
	r = loop(&run, us, &run.nready, n, deadline);
	if (r == 1)
		chat_ready_timeout(run.err, sizeof(run.err), c, run.nready, n);
	if (r)
		goto out;
	t_go = clock_now();
	for (i = 0; i < n; i++)
		set_events(&run, &us[i], EPOLLIN | EPOLLOUT);
	ival_watch_fn(c->iv, delivered, &(struct epoll_got){us, n});
	r = omit_part(&run, us, n, t_go, deadline, res);
	if (!r)
		r = loop(&run, us, &run.ndone, n, deadline);
	ival_watch_fn(c->iv, NULL, NULL);
	for (i = 0; i < n && !r; i++) /* exactly: nothing may follow */
		if (us[i].inlen ||
		    chat_check_surplus(us[i].fd, us[i].room, us[i].user,
				       run.err, sizeof(run.err)))
			r = -1;
	if (r == -1 && !run.err[0])
		snprintf(run.err, sizeof(run.err),
			 "a user got more than its room's messages");
	if (r == 1) {
		for (i = 0; i < n; i++)
			got[i] = us[i].got;
		chat_run_timeout(run.err, sizeof(run.err), c, res->expected,
				 got, n);
	}
out:
	if (t_go > 0) {
		res->connect_s = t_go - t0;
		res->exchange_s = clock_now() - chat_measured_from(res, t_go);
	}
	for (i = 0; i < n; i++) {
		if (us[i].fd >= 0)
			close(us[i].fd);
		res->received += us[i].got;
		free(us[i].in);
		free(us[i].msg);
	}
	snprintf(res->err, sizeof(res->err), "%s", run.err);
	close(run.epfd);
	free(us);
	free(next);
	free(got);
	return r ? -1 : 0;
}
