/*
 * server_threads.c: chat_s's threading model (--model threads): per
 * connection a reader thread that reads the JOIN, then checks each
 * message and appends it to its room's log (server_log.c, whose writer
 * threads send it on); a control connection gets a thread of its own with
 * a big stack for the meters. The accept loop starts the readers.
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
#include <sys/socket.h>
#include <unistd.h>

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
		if (srv_stopping(c->s))
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
		srv_log_append(r, c->user, b);
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
		    chat_thread(srv_writer_main, c, 0, 0, &c->writer) == 0)
			c->have_writer = 1;
		else if (r >= 0)
			snprintf(err, sizeof(err), "cannot start a thread");
		if (r == 1 && c->have_writer && srv_log_alloc(c->room)) {
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
	srv_set_dead(c);
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
	/* atomic: the accept loop reads it without the lock (its cap) */
	if (__atomic_sub_fetch(&s->nthreads, 1, __ATOMIC_RELAXED) == 0)
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

void *srv_threads_main(void *arg)
{
	struct chat_server *s = arg;
	struct pollfd p[2] = {{.fd = s->lfd, .events = POLLIN},
			      {.fd = s->wakefd, .events = POLLIN}};
	struct srv_conn *c;
	int fd, n;

	while (!srv_stopping(s)) {
		if (poll(p, 2, 1000) <= 0 || p[1].revents)
			continue;
		fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (srv_accept_failed(s, errno))
				clock_sleep(SRV_FD_PAUSE_S);
			continue;
		}
		n = __atomic_load_n(&s->nthreads, __ATOMIC_RELAXED);
		if (n >= s->cfg.max_conns) { /* a cap: a stale count is fine */
			srv_turn_away(s, fd, n);
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
		__atomic_add_fetch(&s->nthreads, 1, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&s->lock);
		if (chat_thread(reader_main, c, 1, 0, NULL)) {
			log_warn("client %s: cannot start a thread; closing",
				 c->name);
			pthread_mutex_lock(&s->lock);
			s->conns = c->next;
			__atomic_sub_fetch(&s->nthreads, 1, __ATOMIC_RELAXED);
			pthread_mutex_unlock(&s->lock);
			close(fd);
			srv_conn_free(c);
		}
	}
	return NULL;
}
