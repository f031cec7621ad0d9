/*
 * server_epoll.c: the chat server as one event loop (--model epoll).
 * Non-blocking sockets; the same system calls per message as the threads
 * model (one recv() per message read, one send() per message and target)
 * so the two models differ in scheduling, not in the work per message.
 * A user whose outgoing queue passes SRV_QUEUE_MAX pauses reading in its
 * whole room until it drains (the threads model's readers wait instead):
 * the output side is server_epoll_out.c; this file reads, accepts, closes
 * and runs the loop.
 */
#include "config.h"
#include "server.h"
#include "clock.h"
#include "log.h"
#include "sock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define EP_BATCH 64 /* frames read per wake-up and connection */

/* The frame c should be reading now: JOIN, control header or message. */
static size_t frame_want(const struct srv_conn *c)
{
	if (c->ctrl)
		return CHAT_HDR;
	return c->room ? c->room->shape.size : CHAT_JOIN_LEN;
}

static void on_join(struct chat_server *s, struct srv_conn *c)
{
	struct chat_hdr h;
	struct chat_join j;
	char err[256];
	int r;

	if (chatframe_decode(c->in, c->inlen, CHAT_JOIN_LEN, &h, err,
			     sizeof(err)) != 1 ||
	    chatframe_join_parse(&h, c->in + CHAT_HDR, c->inlen - CHAT_HDR, &j,
				 err, sizeof(err))) {
		srv_ep_close_later(c, err);
		return;
	}
	if (j.flags & CHAT_JOIN_CTRL) {
		c->ctrl = 1;
		return;
	}
	if (j.flags & CHAT_JOIN_NODELAY)
		sock_set_nodelay(c->fd, 1);
	pthread_mutex_lock(&s->lock);
	r = srv_join(s, c, &h, &j, err, sizeof(err));
	if (r == 1)
		srv_ready(s, c->room);
	pthread_mutex_unlock(&s->lock);
	if (r < 0) {
		srv_ep_close_later(c, err);
		return;
	}
	if (c->incap < j.size) {
		uint8_t *b = realloc(c->in, j.size);

		if (!b)
			abort();
		c->in = b;
		c->incap = j.size;
	}
	if (r == 1) {
		uint32_t u;

		for (u = 0; u < c->room->shape.users; u++)
			srv_ep_flush(c->room->member[u]);
	}
}

static void on_msg(struct chat_server *s, struct srv_conn *c)
{
	struct srv_room *r = c->room;
	struct chat_hdr h;
	char err[256];
	uint32_t u;

	if (chatframe_decode(c->in, c->inlen, r->shape.size, &h, err,
			     sizeof(err)) != 1) {
		char why[300];

		snprintf(why, sizeof(why), "malformed frame: %s", err);
		srv_ep_close_later(c, why);
		return;
	}
	if (srv_check_msg(c, &h, err, sizeof(err))) {
		srv_ep_close_later(c, err);
		return;
	}
	c->sent++;
	if (s->cfg.stall_after >= 0 &&
	    r->relayed >= (uint64_t)s->cfg.stall_after)
		return;
	for (u = 0; u < r->shape.users; u++) {
		struct srv_conn *m = r->member[u];

		if (u == c->user)
			continue;
		srv_ep_relay(m, c->in, c->inlen);
	}
	r->relayed += r->shape.users - 1;
}

static void on_ctrl(struct chat_server *s, struct srv_conn *c)
{
	struct chat_hdr h;
	uint8_t *reply;
	size_t rlen;
	char err[256];

	if (chatframe_decode(c->in, c->inlen, CHAT_HDR, &h, err, sizeof(err)) !=
		    1 ||
	    srv_ctrl(s, c, &h, &reply, &rlen, err, sizeof(err))) {
		srv_ep_close_later(c, err);
		return;
	}
	if (rlen) {
		srv_ep_append(c, reply, rlen);
		free(reply);
		srv_ep_flush(c);
	}
	if (c->outlen - c->outoff > SRV_QUEUE_MAX)
		srv_ep_close_later(
			c, "control: the client does not read its reports");
}

/* A hung-up user's input: discard until it closes too. */
static void drain(struct srv_conn *c)
{
	uint8_t junk[4096];
	ssize_t n;

	while ((n = recv(c->fd, junk, sizeof(junk), MSG_DONTWAIT)) > 0)
		c->last = c->s->now;
	if (n == 0 || (errno != EAGAIN && errno != EINTR))
		srv_ep_close_later(c, "");
}

static void on_readable(struct chat_server *s, struct srv_conn *c)
{
	int frames = 0;
	ssize_t n;

	if (c->draining) {
		drain(c);
		return;
	}
	while (frames < EP_BATCH && !c->reap && !c->closing &&
	       !(c->room && c->room->paused)) {
		size_t want = frame_want(c);

		n = chat_recv(c->fd, c->in + c->inlen, want - c->inlen,
			      MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			if (n < 0 && errno != ECONNRESET)
				srv_ep_close_later(c, strerror(errno));
			else if (c->inlen)
				srv_ep_close_later(c, "hung up inside a frame");
			else
				srv_ep_close_later(c, NULL);
			return;
		}
		c->last = s->now;
		c->inlen += (size_t)n;
		if (c->inlen < want) {
			struct chat_hdr h;
			char err[256], why[300];

			/* refuse a bad header before waiting for its body */
			if (chatframe_decode(c->in, c->inlen, want, &h, err,
					     sizeof(err)) < 0) {
				snprintf(why, sizeof(why),
					 "malformed frame: %s", err);
				srv_ep_close_later(c, why);
				return;
			}
			continue;
		}
		if (c->ctrl)
			on_ctrl(s, c);
		else if (c->room)
			on_msg(s, c);
		else
			on_join(s, c);
		c->inlen = 0;
		frames++;
	}
}

static void ep_accept(struct chat_server *s)
{
	struct epoll_event ev = {.events = EPOLLIN};
	struct srv_conn *c;
	int fd;

	while ((fd = accept4(s->lfd, NULL, NULL,
			     SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0) {
		if (s->nconns >= s->cfg.max_conns) {
			srv_turn_away(s, fd, s->nconns);
			continue;
		}
		c = calloc(1, sizeof(*c));
		if (c)
			c->in = malloc(CHAT_JOIN_LEN);
		if (!c || !c->in) {
			free(c);
			close(fd);
			continue;
		}
		c->s = s;
		c->fd = fd;
		c->incap = CHAT_JOIN_LEN;
		c->events = EPOLLIN;
		c->last = c->born = clock_now();
		sock_peer_name(fd, c->name, sizeof(c->name));
		ev.data.ptr = c;
		epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev);
		c->next = s->conns;
		s->conns = c;
		__atomic_fetch_add(&s->nconns, 1, __ATOMIC_RELEASE);
	}
	/* out of descriptors: the listener stays readable; take it out of
	 * the set for a while instead of spinning on it */
	if (srv_accept_failed(s, errno))
		epoll_ctl(s->epfd, EPOLL_CTL_DEL, s->lfd, NULL);
}

/* Close c for good: unregister, leave its room (may free the room). */
static void ep_close(struct chat_server *s, struct srv_conn *c)
{
	struct srv_conn **p;
	const char *why = c->why[0] ? c->why : NULL;

	for (p = &s->conns; *p; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			break;
		}
	epoll_ctl(s->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
	if (c->full) {
		c->full = 0;
		if (--c->room->nfull == 0)
			srv_ep_room_pause(c->room, 0);
	}
	if (why && !c->room && !c->closing)
		log_warn("client %s: %s; closing the connection", c->name, why);
	if (!c->room) {
		srv_conn_free(c);
	} else {
		pthread_mutex_lock(&s->lock);
		srv_leave(s, c, c->closing ? NULL : why);
		pthread_mutex_unlock(&s->lock);
	}
	/* last: chat_server_conns() == 0 means all of this is done */
	__atomic_fetch_sub(&s->nconns, 1, __ATOMIC_RELEASE);
}

static void reap_all(struct chat_server *s)
{
	struct srv_conn *c;

	while ((c = s->reap)) {
		s->reap = c->reap_next;
		ep_close(s, c);
	}
}

/* Close connections that never joined (in time: a JOIN that trickles
 * in holds no slot), control connections idle with no run going, and
 * members that went quiet. */
static void sweep(struct chat_server *s, double now)
{
	struct srv_conn *c;

	for (c = s->conns; c; c = c->next) {
		if (c->reap)
			continue;
		if (c->ctrl) {
			if (srv_ctrl_idle(s, c->last, now))
				srv_ep_close_later(
					c,
					"control: idle with no run going (timeout)");
			continue;
		}
		if (!c->room && now - c->born > srv_join_timeout(s))
			srv_ep_close_later(c, "no JOIN in time");
		else if (c->room && now - c->last > s->cfg.idle_timeout_s)
			srv_ep_close_later(c, "idle too long (timeout)");
	}
	reap_all(s);
}

void *srv_epoll_main(void *arg)
{
	struct chat_server *s = arg;
	struct epoll_event ev[256], e = {.events = EPOLLIN};
	double next_sweep;
	int n, i;

	s->now = clock_now();
	next_sweep = s->now + 1;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd < 0) {
		log_err("epoll_create1: %s", strerror(errno));
		return NULL;
	}
	sock_set_nonblock(s->lfd, 1);
	e.data.ptr = NULL;
	epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->lfd, &e);
	e.data.ptr = s;
	epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->wakefd, &e);
	while (!srv_stopping(s)) {
		int wait_ms = 1000;

		if (s->accept_resume > s->now)
			wait_ms = (int)((s->accept_resume - s->now) * 1000) + 1;
		n = epoll_wait(s->epfd, ev, 256, wait_ms);
		s->now = clock_now(); /* activity stamps: once per wake-up */
		if (s->accept_resume && s->now >= s->accept_resume) {
			s->accept_resume = 0; /* the listener back in the set */
			e.data.ptr = NULL;
			epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->lfd, &e);
		}
		for (i = 0; i < n; i++) {
			struct srv_conn *c = ev[i].data.ptr;

			if (!c) {
				ep_accept(s);
				continue;
			}
			if ((void *)c == (void *)s)
				continue;
			if (c->reap)
				continue;
			if (ev[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				on_readable(s, c);
			if (!c->reap && (ev[i].events & EPOLLOUT))
				srv_ep_flush(c);
		}
		reap_all(s);
		if (s->now >= next_sweep) {
			sweep(s, s->now);
			next_sweep = s->now + 1;
		}
	}
	while (s->conns) {
		struct srv_conn *c = s->conns;

		snprintf(c->why, sizeof(c->why), "server stopping");
		c->closing = 1; /* no abort frames on the way out */
		ep_close(s, c);
	}
	close(s->epfd);
	return NULL;
}
