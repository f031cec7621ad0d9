/*
 * server_log.c: the threads model's rooms (chat_s): each room keeps a log
 * of its messages, one slot of the message size per message: a member's
 * reader (server_threads.c) appends a message once, and every member's
 * writer thread walks the log from its own cursor and sends each message
 * not from its own user, one send() per message. A reader waits while the
 * slowest writer is a whole log behind. READY and ABORT go through the
 * member's own small queue (c->q), sent before the log. All of it under
 * the room's llock.
 */
#include "config.h"
#include "server.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* The oldest slot some live writer still needs. Under r->llock. */
static uint64_t log_min_rd(struct srv_room *r)
{
	uint64_t m = r->head;
	uint32_t u;

	for (u = 0; u < r->shape.users; u++) {
		struct srv_conn *c = r->member[u];

		if (c && !c->dead && c->rd < m)
			m = c->rd;
	}
	return m;
}

/* Append one message of user for the room's writers; waits for room in
 * the log. */
void srv_log_append(struct srv_room *r, uint16_t user, const uint8_t *b)
{
	uint32_t slot;

	pthread_mutex_lock(&r->llock);
	while (!__atomic_load_n(&r->aborted, __ATOMIC_RELAXED) &&
	       r->head - r->min_rd >= r->nslots) {
		r->min_rd = log_min_rd(r);
		if (r->head - r->min_rd < r->nslots)
			break;
		r->lspace_waiters++;
		pthread_cond_wait(&r->lspace, &r->llock);
		r->lspace_waiters--;
	}
	if (!__atomic_load_n(&r->aborted, __ATOMIC_RELAXED)) {
		slot = (uint32_t)(r->head % r->nslots);
		memcpy(r->log + (size_t)slot * r->shape.size, b, r->shape.size);
		r->lsender[slot] = user;
		r->head++;
		pthread_cond_broadcast(&r->ldata);
	}
	pthread_mutex_unlock(&r->llock);
}

/* READY or ABORT to one member. */
static void thr_push(struct srv_conn *c, const uint8_t *buf, size_t len)
{
	struct srv_room *r = c->room;

	pthread_mutex_lock(&r->llock);
	if (!c->dead) {
		chat_reserve(&c->q, &c->qcap, c->qlen + len, 1024);
		memcpy(c->q + c->qlen, buf, len);
		c->qlen += len;
		pthread_cond_broadcast(&r->ldata);
	}
	pthread_mutex_unlock(&r->llock);
}

static void thr_finish(struct srv_conn *c)
{
	struct srv_room *r = c->room;

	pthread_mutex_lock(&r->llock);
	c->closing = 1;
	pthread_cond_broadcast(&r->ldata);
	pthread_cond_broadcast(&r->lspace); /* readers: the room broke up */
	pthread_mutex_unlock(&r->llock);
}

const struct srv_ops srv_threads_ops = {.push = thr_push, .finish = thr_finish};

void srv_set_dead(struct srv_conn *c)
{
	struct srv_room *r = c->room;

	if (!r) {
		c->dead = 1;
		return;
	}
	pthread_mutex_lock(&r->llock);
	c->dead = 1;
	pthread_cond_broadcast(&r->ldata);
	pthread_cond_broadcast(&r->lspace); /* no longer holds the log */
	pthread_mutex_unlock(&r->llock);
}

/* Send every frame of buf[0..len) with its own send(); 0 or -1. */
static int send_frames(struct srv_conn *c, const uint8_t *buf, size_t len)
{
	uint32_t flen;
	size_t off;

	for (off = 0; off + CHAT_HDR <= len; off += flen) {
		flen = (uint32_t)buf[off + 4] << 24 |
		       (uint32_t)buf[off + 5] << 16 |
		       (uint32_t)buf[off + 6] << 8 | buf[off + 7];
		if (chat_send_full(c->fd, buf + off, flen) != (long)flen)
			return -1;
	}
	return 0;
}

/* What a writer needs of its room's log, read once under the lock: the
 * room's busy fields (lock, head) share cache lines with these. */
struct wlog {
	const uint8_t *log;	/* r->log */
	const uint16_t *sender; /* r->lsender */
	uint32_t nslots, size;
	uint16_t user; /* the writer's own user: skipped */
	int fd;
};

/* Send the room's messages [from, to), one send() per message (as chat_s
 * wrote each message), skipping the user's own. 0 or -1. */
static int send_log(const struct wlog *w, uint64_t from, uint64_t to)
{
	uint32_t slot = (uint32_t)(from % w->nslots);

	for (; from < to; from++) {
		if (w->sender[slot] != w->user &&
		    chat_send_full(w->fd, w->log + (size_t)slot * w->size,
				   w->size) != (long)w->size)
			return -1;
		if (++slot == w->nslots)
			slot = 0;
	}
	return 0;
}

void *srv_writer_main(void *arg)
{
	struct srv_conn *c = arg;
	struct srv_room *r = c->room;
	struct wlog w = {.fd = c->fd, .user = c->user};
	uint8_t *ctl = NULL;
	size_t clen;
	uint64_t to;
	int bad = 0, closing;

	pthread_mutex_lock(&r->llock);
	for (;;) {
		while (!c->qlen && !c->dead && !c->closing &&
		       (c->rd == r->head || !c->ready))
			pthread_cond_wait(&r->ldata, &r->llock);
		if (c->dead)
			break;
		if (c->qlen) { /* READY, ABORT: first */
			ctl = c->q;
			clen = c->qlen;
			c->q = NULL;
			c->qlen = c->qcap = 0;
			pthread_mutex_unlock(&r->llock);
			bad = send_frames(c, ctl, clen);
			free(ctl);
			pthread_mutex_lock(&r->llock);
			c->ready = 1;
			if (bad)
				break;
			continue;
		}
		if (c->closing)
			break;
		if (!w.log) { /* the log exists once READY went out */
			w.log = r->log;
			w.sender = r->lsender;
			w.nslots = r->nslots;
			w.size = r->shape.size;
		}
		to = r->head;
		pthread_mutex_unlock(&r->llock);
		bad = send_log(&w, c->rd, to);
		/* progress for the reader's idle check: no clock here */
		__atomic_store_n(&c->wprog, c->wprog + 1, __ATOMIC_RELAXED);
		pthread_mutex_lock(&r->llock);
		c->rd = to;
		if (r->lspace_waiters)
			pthread_cond_broadcast(&r->lspace);
		if (bad)
			break;
	}
	closing = c->closing; /* thr_finish sets it under the lock */
	pthread_mutex_unlock(&r->llock);
	if (bad) /* the user stopped reading: the reader reads on until it
		  * hangs up */
		srv_set_dead(c);
	else if (closing) /* FIN after the last frame; the reader drains
			   * until the user hangs up, so unread input
			   * cannot turn the close into a reset */
		shutdown(c->fd, SHUT_WR);
	return NULL;
}

/* The room's message log, when the room is full. 0 or -ENOMEM. */
int srv_log_alloc(struct srv_room *r)
{
	r->nslots = SRV_QUEUE_MAX / r->shape.size;
	if (r->nslots < 64)
		r->nslots = 64;
	r->log = malloc((size_t)r->nslots * r->shape.size);
	r->lsender = malloc((size_t)r->nslots * sizeof(*r->lsender));
	return r->log && r->lsender ? 0 : -ENOMEM;
}
