/*
 * server.c: the chat server's start and stop, and chat_s's threading
 * model: per connection a reader thread that checks each message and
 * appends it to its room's log, and a writer thread that sends its user
 * every message of the log not its own, one send() per message. The room
 * registry is in room.c, the event-loop model in server_epoll.c.
 */
#include "config.h"
#include "server.h"
#include "clock.h"
#include "log.h"
#include "sock.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---- threads model ---- */

/*
 * Each room keeps a log of its messages, one slot of the message size per
 * message: a reader appends a message once, and every member's writer
 * walks the log from its own cursor and sends each message not from its
 * own user, one send() per message. A reader waits while the slowest
 * writer is a whole log behind. READY and ABORT go through the member's
 * own small queue (c->q), sent before the log. All of it under the room's
 * llock.
 */

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
static void log_append(struct srv_room *r, uint16_t user, const uint8_t *b)
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
		if (c->qlen + len > c->qcap) {
			size_t cap = c->qcap ? c->qcap : 1024;
			uint8_t *q;

			while (cap < c->qlen + len)
				cap *= 2;
			q = realloc(c->q, cap);
			if (!q)
				abort();
			c->q = q;
			c->qcap = cap;
		}
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

static const struct srv_ops thr_ops = {.push = thr_push, .finish = thr_finish};

static void set_dead(struct srv_conn *c)
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

static void *writer_main(void *arg)
{
	struct srv_conn *c = arg;
	struct srv_room *r = c->room;
	struct wlog w = {.fd = c->fd, .user = c->user};
	uint8_t *ctl = NULL;
	size_t clen;
	uint64_t to;
	int bad = 0;

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
	pthread_mutex_unlock(&r->llock);
	if (bad) /* the user stopped reading: the reader reads on until it
		  * hangs up */
		set_dead(c);
	else if (c->closing) /* FIN after the last frame; the reader drains
			      * until the user hangs up, so unread input
			      * cannot turn the close into a reset */
		shutdown(c->fd, SHUT_WR);
	return NULL;
}

/* The room's message log, when the room is full. 0 or -ENOMEM. */
static int log_alloc(struct srv_room *r)
{
	r->nslots = SRV_QUEUE_MAX / r->shape.size;
	if (r->nslots < 64)
		r->nslots = 64;
	r->log = malloc((size_t)r->nslots * r->shape.size);
	r->lsender = malloc((size_t)r->nslots * sizeof(*r->lsender));
	return r->log && r->lsender ? 0 : -ENOMEM;
}

/*
 * Read len bytes by the deadline (monotonic seconds), however they
 * trickle in: len, a short count at EOF, or -errno (-ETIMEDOUT).
 */
static long recv_by(int fd, void *buf, size_t len, double deadline)
{
	size_t got = 0;
	ssize_t n;
	int ms, w;

	while (got < len) {
		ms = (int)((deadline - clock_now()) * 1000);
		if (ms <= 0)
			return -ETIMEDOUT;
		w = sock_wait(fd, POLLIN, ms);
		if (w == -EINTR)
			continue;
		if (w <= 0)
			return w ? w : -ETIMEDOUT;
		n = chat_recv(fd, (char *)buf + got, len - got, MSG_DONTWAIT);
		if (n > 0)
			got += (size_t)n;
		else if (n == 0)
			break;
		else if (errno != EINTR && errno != EAGAIN)
			return -errno;
	}
	return (long)got;
}

/* Read and check a JOIN, whole by the JOIN deadline; 1 ok, 0 quiet end
 * (probe), -1 with why. */
static int read_join(struct srv_conn *c, struct chat_hdr *h,
		     struct chat_join *j, char *why, size_t wlen)
{
	double deadline = c->born + srv_join_timeout(c->s);
	uint8_t b[CHAT_JOIN_LEN];
	char err[256];
	long n;
	int r;

	n = recv_by(c->fd, b, CHAT_HDR, deadline);
	if (n == 0)
		return 0;
	if (n < 0) {
		snprintf(why, wlen, "no JOIN: %s",
			 n == -ETIMEDOUT ? "not whole in time"
					 : strerror((int)-n));
		return -1;
	}
	r = chatframe_decode(b, (size_t)n, CHAT_JOIN_LEN, h, err, sizeof(err));
	if (r == 0 && n == CHAT_HDR && h->type == CHAT_JOIN) {
		n = recv_by(c->fd, b + CHAT_HDR, CHAT_JOIN_LEN - CHAT_HDR,
			    deadline);
		if (n == CHAT_JOIN_LEN - CHAT_HDR)
			r = 1;
		else
			snprintf(err, sizeof(err), "hung up inside its JOIN");
	} else if (r == 0) {
		snprintf(err, sizeof(err), "hung up after %ld bytes", n);
	}
	if (r == 1 && h->type != CHAT_JOIN)
		snprintf(err, sizeof(err), "first frame is %s, not JOIN",
			 chatframe_type_name(h->type));
	if (r != 1 || h->type != CHAT_JOIN ||
	    chatframe_join_parse(h, b + CHAT_HDR, CHAT_JOIN_LEN - CHAT_HDR, j,
				 err, sizeof(err))) {
		snprintf(why, wlen, "%s", err);
		return -1;
	}
	return 1;
}

/*
 * Wait for the next control frame: 1 when one begins, 0 at the end (EOF,
 * idle for good: srv_ctrl_idle, or the server stopping; why says which).
 */
static int ctrl_wait(struct srv_conn *c, double *last, char *why, size_t wlen)
{
	int w;

	for (;;) {
		w = sock_wait(c->fd, POLLIN, 1000);
		if (w > 0)
			return 1;
		if (w < 0 && w != -EINTR)
			return 1; /* the recv says what is wrong */
		if (c->s->stopping)
			return 0;
		if (srv_ctrl_idle(c->s, *last, clock_now())) {
			snprintf(
				why, wlen,
				"control: idle for %.0f s with no run going (timeout)",
				clock_now() - *last);
			return 0;
		}
	}
}

static void ctrl_loop(struct srv_conn *c, char *why, size_t wlen)
{
	uint8_t b[CHAT_HDR], *reply;
	struct chat_hdr h;
	double last = clock_now();
	size_t rlen;
	char err[256];
	long n = 0;

	c->ctrl = 1;
	/* a report the client does not take ends the connection */
	sock_set_timeout(c->fd, SRV_CTRL_FRAME_MS);
	while (ctrl_wait(c, &last, why, wlen) &&
	       (n = recv_by(c->fd, b, CHAT_HDR,
			    clock_now() + SRV_CTRL_FRAME_MS / 1000.0)) ==
		       CHAT_HDR) {
		last = clock_now();
		if (chatframe_decode(b, CHAT_HDR, CHAT_HDR, &h, err,
				     sizeof(err)) != 1 ||
		    srv_ctrl(c->s, c, &h, &reply, &rlen, err, sizeof(err))) {
			snprintf(why, wlen, "control: %s", err);
			return;
		}
		if (rlen && chat_send_full(c->fd, reply, rlen) != (long)rlen) {
			free(reply);
			return;
		}
		free(reply);
	}
	if (n > 0 && n < CHAT_HDR)
		snprintf(why, wlen, "control: hung up inside a frame");
	else if (n == -ETIMEDOUT)
		snprintf(why, wlen, "control: a frame not whole within %d s",
			 SRV_CTRL_FRAME_MS / 1000);
}

/*
 * Read one message. SO_RCVTIMEO wakes the recv; the user is idle only when
 * neither it nor its writer made progress for the idle timeout (a user
 * that sent all its messages still receives the room's). The clock is
 * read only when a recv times out, never per message.
 */
static long member_recv(struct srv_conn *c, uint8_t *b, size_t size)
{
	uint64_t idle = (uint64_t)(c->s->cfg.idle_timeout_s * 1e9);
	uint64_t wseen = __atomic_load_n(&c->wprog, __ATOMIC_RELAXED);
	uint64_t last = 0, w, now;
	size_t got = 0;
	ssize_t n;

	while (got < size) {
		n = chat_recv(c->fd, b + got, size - got, 0);
		if (n > 0) {
			got += (size_t)n;
			continue;
		}
		if (n == 0)
			return (long)got;
		if (errno == EINTR)
			continue;
		if (got && errno != EAGAIN)
			return (long)got; /* let the caller judge the part */
		if (errno == EAGAIN) {
			now = clock_ns();
			w = __atomic_load_n(&c->wprog, __ATOMIC_RELAXED);
			if (w != wseen) { /* the writer moved meanwhile */
				wseen = w;
				last = now;
			} else if (!last) { /* the recv waited a whole idle
					     * timeout */
				last = now - idle;
			}
			if (now - last < idle)
				continue;
		}
		return -errno;
	}
	return (long)got;
}

/* Relay c's messages until its connection ends; why says what ended it. */
static void member_loop(struct srv_conn *c, char *why, size_t wlen)
{
	struct srv_room *r = c->room;
	uint32_t size = r->shape.size;
	uint8_t *b = malloc(size);
	struct chat_hdr h;
	char err[256];
	long n;

	if (!b)
		abort();
	for (;;) {
		n = member_recv(c, b, size);
		if (n == 0)
			break;
		if (n == -ECONNRESET)
			break; /* a hang-up with unread input */
		if (n < 0) {
			snprintf(why, wlen, "%s",
				 n == -EAGAIN ? "idle too long (timeout)"
					      : strerror((int)-n));
			break;
		}
		if (chatframe_decode(b, (size_t)n, size, &h, err, sizeof(err)) <
		    0) {
			snprintf(why, wlen, "malformed frame: %s", err);
			break;
		}
		if (n < (long)size) {
			snprintf(why, wlen,
				 "hung up inside a frame (%ld of %u bytes)", n,
				 size);
			break;
		}
		if (srv_check_msg(c, &h, err, sizeof(err))) {
			snprintf(why, wlen, "%s", err);
			break;
		}
		c->sent++;
		if (__atomic_load_n(&r->aborted, __ATOMIC_RELAXED))
			continue; /* the room broke up: drain until EOF */
		if (c->s->cfg.stall_after >= 0 &&
		    __atomic_load_n(&r->relayed, __ATOMIC_RELAXED) >=
			    (uint64_t)c->s->cfg.stall_after)
			continue; /* fault: swallow it */
		log_append(r, c->user, b);
		__atomic_fetch_add(&r->relayed, r->shape.users - 1,
				   __ATOMIC_RELAXED);
	}
	free(b);
}

static void conn_end(struct srv_conn *c, const char *why);
static void *ctrl_main(void *arg);

static void *reader_main(void *arg)
{
	struct srv_conn *c = arg;
	struct chat_server *s = c->s;
	struct chat_hdr h;
	struct chat_join j;
	char why[512] = "", err[256];
	int r, ms = (int)(s->cfg.idle_timeout_s * 1000);

	r = read_join(c, &h, &j, why, sizeof(why));
	if (r == 1 && (j.flags & CHAT_JOIN_CTRL)) {
		/* the meters want a big stack: hand over to a thread with one
		 */
		if (chat_thread(ctrl_main, c, 1, 1, NULL) == 0)
			return NULL;
		snprintf(why, sizeof(why), "cannot start a thread");
	} else if (r == 1) {
		if (j.flags & CHAT_JOIN_NODELAY)
			sock_set_nodelay(c->fd, 1);
		sock_set_timeout(c->fd, ms);
		pthread_mutex_lock(&s->lock);
		r = srv_join(s, c, &h, &j, err, sizeof(err));
		if (r >= 0 &&
		    chat_thread(writer_main, c, 0, 0, &c->writer) == 0)
			c->have_writer = 1;
		else if (r >= 0)
			snprintf(err, sizeof(err), "cannot start a thread");
		if (r == 1 && c->have_writer && log_alloc(c->room)) {
			snprintf(err, sizeof(err), "out of memory for a room");
			r = -ENOMEM;
		} else if (r == 1 && c->have_writer) {
			srv_ready(s, c->room);
		}
		pthread_mutex_unlock(&s->lock);
		if (r < 0 || !c->have_writer)
			snprintf(why, sizeof(why), "%s", err);
		else
			member_loop(c, why, sizeof(why));
	}
	conn_end(c, why);
	return NULL;
}

/* A control connection's thread (big stack). */
static void *ctrl_main(void *arg)
{
	struct srv_conn *c = arg;
	char why[512] = "";

	ctrl_loop(c, why, sizeof(why));
	conn_end(c, why);
	return NULL;
}

/* The end of a connection's threads: leave the room, free what is ours. */
static void conn_end(struct srv_conn *c, const char *why)
{
	struct chat_server *s = c->s;

	if (why[0] && !c->room)
		log_warn("client %s: %s; closing the connection", c->name, why);
	set_dead(c);
	if (c->have_writer)
		pthread_join(c->writer, NULL);
	close(c->fd);
	pthread_mutex_lock(&s->lock);
	{
		struct srv_conn **p;

		for (p = &s->conns; *p; p = &(*p)->next)
			if (*p == c) {
				*p = c->next;
				break;
			}
	}
	if (!c->room)
		srv_conn_free(c);
	else
		srv_leave(s, c, why[0] ? why : NULL);
	if (--s->nthreads == 0)
		pthread_cond_broadcast(&s->idle);
	pthread_mutex_unlock(&s->lock);
}

static struct srv_conn *conn_new(struct chat_server *s, int fd)
{
	struct srv_conn *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->s = s;
	c->fd = fd;
	c->born = clock_now();
	sock_peer_name(fd, c->name, sizeof(c->name));
	return c;
}

static void *accept_main(void *arg)
{
	struct chat_server *s = arg;
	struct pollfd p[2] = {{.fd = s->lfd, .events = POLLIN},
			      {.fd = s->wakefd, .events = POLLIN}};
	struct srv_conn *c;
	int fd;

	while (!s->stopping) {
		if (poll(p, 2, 1000) <= 0 || p[1].revents)
			continue;
		fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (srv_accept_failed(s, errno))
				clock_sleep(SRV_FD_PAUSE_S);
			continue;
		}
		if (s->nthreads >= s->cfg.max_conns) { /* racy read: a cap */
			srv_turn_away(s, fd, s->nthreads);
			continue;
		}
		c = conn_new(s, fd);
		if (!c) {
			close(fd);
			continue;
		}
		pthread_mutex_lock(&s->lock);
		c->next = s->conns;
		s->conns = c;
		s->nthreads++;
		pthread_mutex_unlock(&s->lock);
		if (chat_thread(reader_main, c, 1, 0, NULL)) {
			log_warn("client %s: cannot start a thread; closing",
				 c->name);
			pthread_mutex_lock(&s->lock);
			s->conns = c->next;
			s->nthreads--;
			pthread_mutex_unlock(&s->lock);
			close(fd);
			srv_conn_free(c);
		}
	}
	return NULL;
}

/* ---- start and stop ---- */

struct chat_server *chat_server_start(const struct chat_server_cfg *cfg,
				      char *err, size_t len)
{
	struct chat_server *s = calloc(1, sizeof(*s));
	int r;

	if (!s) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	s->cfg = *cfg;
	if (s->cfg.max_conns <= 0)
		s->cfg.max_conns = cfg->model == CHAT_EPOLL
					   ? SRV_MAX_CONNS_EPOLL
					   : SRV_MAX_CONNS_THREADS;
	s->ops = cfg->model == CHAT_EPOLL ? &srv_epoll_ops : &thr_ops;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->idle, NULL);
	s->lfd = sock_listen(cfg->bind, cfg->port, SOCK_STREAM, 4096, &s->port,
			     err, len);
	if (s->lfd < 0) {
		free(s);
		return NULL;
	}
	s->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	r = s->wakefd < 0
		    ? -errno
		    : chat_thread(cfg->model == CHAT_EPOLL ? srv_epoll_main
							   : accept_main,
				  s, 0, 1, &s->main);
	if (r) {
		snprintf(err, len, "cannot start the server: %s", strerror(-r));
		if (s->wakefd >= 0)
			close(s->wakefd);
		close(s->lfd);
		free(s);
		return NULL;
	}
	return s;
}

int chat_server_port(const struct chat_server *s)
{
	return s->port;
}

unsigned long long chat_server_runs(struct chat_server *s)
{
	unsigned long long n;

	pthread_mutex_lock(&s->lock);
	n = s->runs;
	pthread_mutex_unlock(&s->lock);
	return n;
}

void chat_server_stop(struct chat_server *s)
{
	uint64_t one = 1;
	struct srv_conn *c;
	struct timespec ts;

	if (!s)
		return;
	s->stopping = 1;
	if (write(s->wakefd, &one, sizeof(one)) < 0)
		log_debug("wake: %s", strerror(errno));
	pthread_join(s->main, NULL);
	/* threads model: hang up every connection, wait for the threads */
	pthread_mutex_lock(&s->lock);
	for (c = s->conns; c; c = c->next)
		shutdown(c->fd, SHUT_RDWR);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 10;
	while (s->nthreads > 0 &&
	       pthread_cond_timedwait(&s->idle, &s->lock, &ts) == 0)
		;
	if (s->nthreads > 0) {
		log_warn("server: %d connection threads did not end",
			 s->nthreads);
		pthread_mutex_unlock(&s->lock);
		return; /* leak rather than free what threads still use */
	}
	while (s->rooms)
		srv_room_free(s, s->rooms);
	pthread_mutex_unlock(&s->lock);
	close(s->lfd);
	close(s->wakefd);
	free(s);
}
