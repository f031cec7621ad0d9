/*
 * server_epoll_out.c: the event-loop model's output. Each connection has
 * a queue sent one send() per frame (a control connection's all at
 * once); a message to a member with nothing queued goes straight from
 * the reader's buffer. A member whose queue passes SRV_QUEUE_MAX pauses
 * reading in its whole room until it drains. A member that stops reading
 * has its output dropped and is read until it hangs up.
 */
#include "config.h"
#include "server.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>

void srv_ep_update(struct srv_conn *c)
{
	struct epoll_event ev = {.data.ptr = c};
	uint32_t want = 0;

	if (c->fd < 0)
		return;
	if (c->draining || (!c->closing && !(c->room && c->room->paused)))
		want |= EPOLLIN;
	if (c->outlen > c->outoff)
		want |= EPOLLOUT;
	if (want == c->events)
		return;
	ev.events = want;
	epoll_ctl(c->s->epfd, EPOLL_CTL_MOD, c->fd, &ev);
	c->events = want;
}

void srv_ep_room_pause(struct srv_room *r, int on)
{
	uint32_t u;

	r->paused = on;
	for (u = 0; u < r->shape.users; u++)
		if (r->member[u])
			srv_ep_update(r->member[u]);
}

void srv_ep_close_later(struct srv_conn *c, const char *why)
{
	if (c->reap)
		return;
	c->reap = 1;
	snprintf(c->why, sizeof(c->why), "%s", why ? why : "");
	c->reap_next = c->s->reap;
	c->s->reap = c;
}

void srv_ep_append(struct srv_conn *c, const uint8_t *buf, size_t len)
{
	if (c->fd < 0 || c->reap || c->wdead)
		return;
	if (c->outoff && c->outoff == c->outlen)
		c->outoff = c->outlen = 0;
	if (c->outlen + len > c->outcap && c->outoff) {
		memmove(c->out, c->out + c->outoff, c->outlen - c->outoff);
		c->outlen -= c->outoff;
		c->outoff = 0;
	}
	chat_reserve(&c->out, &c->outcap, c->outlen + len, 4096);
	memcpy(c->out + c->outlen, buf, len);
	c->outlen += len;
	if (!c->full && c->room && c->outlen - c->outoff > SRV_QUEUE_MAX) {
		c->full = 1;
		if (c->room->nfull++ == 0)
			srv_ep_room_pause(c->room, 1);
	}
}

/* Send what is queued, one send() per frame (control: all at once). */
void srv_ep_flush(struct srv_conn *c)
{
	ssize_t n;

	while (c->outoff < c->outlen && !c->reap) {
		const uint8_t *p = c->out + c->outoff;
		size_t want = c->outlen - c->outoff;

		if (!c->ctrl) {
			if (!c->outfrag)
				c->outfrag = (uint32_t)p[4] << 24 |
					     (uint32_t)p[5] << 16 |
					     (uint32_t)p[6] << 8 | p[7];
			want = c->outfrag;
		}
		n = chat_send(c->fd, p, want, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0) {
			/* the user stopped reading: drop its output but read
			 * what it sent until it hangs up */
			c->outoff = c->outlen = 0;
			c->outfrag = 0;
			c->wdead = 1;
			break;
		}
		c->outoff += (size_t)n;
		if (!c->ctrl)
			c->outfrag -= (size_t)n;
		c->last = c->s->now;
	}
	if (c->full && c->outlen - c->outoff < SRV_QUEUE_MAX / 2) {
		c->full = 0;
		if (--c->room->nfull == 0)
			srv_ep_room_pause(c->room, 0);
	}
	if (c->closing && c->outoff == c->outlen && !c->draining) {
		/* FIN after the last frame; close once the user hangs up, so
		 * unread input cannot turn the close into a reset that
		 * destroys what was sent */
		shutdown(c->fd, SHUT_WR);
		c->draining = 1;
	}
	srv_ep_update(c);
}

static void ep_push(struct srv_conn *c, const uint8_t *buf, size_t len)
{
	srv_ep_append(c, buf, len);
	srv_ep_update(c);
}

static void ep_finish(struct srv_conn *c)
{
	c->closing = 1;
	srv_ep_update(c);
}

const struct srv_ops srv_epoll_ops = {.push = ep_push, .finish = ep_finish};

/*
 * Relay one message to member m: with nothing queued for it, send() it
 * straight from the reader's buffer (no copy, no epoll change); only what
 * the socket does not take is queued.
 */
void srv_ep_relay(struct srv_conn *m, const uint8_t *buf, size_t len)
{
	ssize_t n;

	if (m->fd < 0 || m->reap || m->wdead)
		return;
	if (m->closing || m->outoff != m->outlen) {
		srv_ep_append(m, buf, len);
		srv_ep_flush(m);
		return;
	}
	n = chat_send(m->fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n == (ssize_t)len) {
		m->last = m->s->now;
		return;
	}
	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		m->wdead = 1; /* as srv_ep_flush: drop its output, read on */
		m->outoff = m->outlen = 0;
		m->outfrag = 0;
		return;
	}
	if (n < 0)
		n = 0;
	if (n > 0)
		m->last = m->s->now;
	srv_ep_append(m, buf + n, len - (size_t)n);
	m->outfrag = len - (size_t)n; /* the queue starts inside a frame */
	srv_ep_update(m);
}
