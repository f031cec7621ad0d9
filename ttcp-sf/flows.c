/*
 * flows.c: the -P engine (flows.h): T threads, each an epoll loop over
 * flows i = k, k + T, ... of one sample. A stream flow sends (lib/xfer's
 * method on a non-blocking socket, wrapping around the source) or
 * receives until EOF; a request/response flow runs one transaction at a
 * time, timed into its thread's histogram. A sender that is done
 * half-closes and waits for its peer's close, so each flow's time is end
 * to end; a receiver closes at EOF.
 */
#include "config.h"
#include "clock.h"
#include "flows.h"
#include "hist.h"
#include "sig.h"
#include "sock.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

enum { ST_RUN, ST_DRAIN, ST_DONE };
#define EVENTS 64 /* epoll events per wait */

struct fthread {
	struct flows *fs;
	int k;		    /* flows k, k + threads, ... */
	int ep;		    /* its epoll */
	int live;	    /* flows not done */
	struct hist lat;    /* FL_RR */
	unsigned char *buf; /* scratch for requests and responses */
	size_t blen;
};

static void events(struct fthread *t, struct flow *f, uint32_t ev)
{
	struct epoll_event e = {.events = ev, .data.ptr = f};

	epoll_ctl(t->ep, EPOLL_CTL_MOD, f->fd, &e);
}

static void done(struct fthread *t, struct flow *f, int err, const char *phase)
{
	if (f->state == ST_DONE)
		return;
	f->state = ST_DONE;
	f->end = clock_now();
	f->err = err;
	f->phase = phase;
	if (t->fs->closing)
		t->fs->closing(t->fs->closing_arg, (int)(f - t->fs->f));
	epoll_ctl(t->ep, EPOLL_CTL_DEL, f->fd, NULL);
	if (t->fs->kind == FL_RX || t->fs->kind == FL_RRS || err) {
		close(f->fd); /* the sender's clock stops at this */
		f->fd = -1;
	}
	t->live--;
}

/* A sender with nothing more to send: half-close, wait for the close. */
static void finish(struct fthread *t, struct flow *f)
{
	int e;

	if (f->state != ST_RUN)
		return;
	if (f->x && f->x->ops->reap &&
	    (e = f->x->ops->reap(f->x, 1, t->fs->timeout_ms))) {
		done(t, f, e, "completions");
		return;
	}
	shutdown(f->fd, SHUT_WR);
	f->state = ST_DRAIN;
	events(t, f, EPOLLIN | EPOLLRDHUP);
}

static int past(const struct flows *fs)
{
	return sig_stop || (fs->deadline_ns && clock_ns() >= fs->deadline_ns);
}

static void tx_step(struct fthread *t, struct flow *f)
{
	struct flows *fs = t->fs;
	uint64_t period = xfer_period(f->x);
	size_t len;
	ssize_t r;

	for (;;) {
		if ((fs->want && f->bytes >= fs->want) || past(fs)) {
			finish(t, f);
			return;
		}
		len = fs->unit;
		if (fs->want && fs->want - f->bytes < len)
			len = (size_t)(fs->want - f->bytes);
		if (period - f->pos < len)
			len = (size_t)(period - f->pos);
		r = f->x->ops->send(f->x, f->pos, len);
		if (r == -EAGAIN)
			return;
		if (r == -EINTR)
			continue;
		if (r < 0) {
			done(t, f, (int)r, "data, sending");
			return;
		}
		f->bytes += (uint64_t)r;
		__atomic_fetch_add(&fs->progress, (uint64_t)r, __ATOMIC_RELAXED);
		f->pos = (f->pos + (uint64_t)r) % period;
		if (f->x->ops->reap && (r = f->x->ops->reap(f->x, 0, 0))) {
			done(t, f, (int)r, "completions");
			return;
		}
	}
}

static void rx_step(struct fthread *t, struct flow *f)
{
	ssize_t r;

	for (;;) {
		r = f->x->ops->recv(f->x, t->fs->unit);
		if (r == -EAGAIN)
			return;
		if (r == -EINTR)
			continue;
		if (r <= 0) {
			done(t, f, (int)r, "data, receiving");
			return;
		}
		if (!f->bytes)
			f->start = clock_now(); /* its time runs from here */
		f->bytes += (uint64_t)r;
		__atomic_fetch_add(&t->fs->progress, (uint64_t)r,
				   __ATOMIC_RELAXED);
	}
}

/* Write the rest of the current message (len bytes); 1 when whole. */
static int put(struct fthread *t, struct flow *f, size_t len)
{
	ssize_t r;

	while (f->io < len) {
		r = send(f->fd, t->buf, len - f->io, MSG_NOSIGNAL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN) {
			events(t, f, EPOLLIN | EPOLLOUT);
			return 0;
		}
		if (r < 0) {
			done(t, f, -errno,
			     t->fs->kind == FL_RR ? "request" : "response");
			return 0;
		}
		f->io += (size_t)r;
	}
	f->io = 0;
	f->writing = 0;
	return 1;
}

/* Read more of a message of len bytes: 1 when whole, 0 not yet or done
 * (EOF between messages ends a server's flow). */
static int take(struct fthread *t, struct flow *f, size_t len)
{
	ssize_t r;

	while (f->io < len) {
		r = recv(f->fd, t->buf,
			 len - f->io < t->blen ? len - f->io : t->blen, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN)
			return 0;
		if (r == 0 && !f->io && t->fs->kind == FL_RRS) {
			done(t, f, 0, "end");
			return 0;
		}
		if (r <= 0) {
			done(t, f, r < 0 ? -errno : -EPIPE,
			     t->fs->kind == FL_RR ? "response" : "request");
			return 0;
		}
		f->io += (size_t)r;
	}
	f->io = 0;
	return 1;
}

/* FL_RR: start a transaction, or finish when there are no more. */
static void rr_next(struct fthread *t, struct flow *f)
{
	struct flows *fs = t->fs;

	if ((fs->want && f->trans >= fs->want) || past(fs)) {
		finish(t, f);
		return;
	}
	f->t0 = clock_ns();
	f->writing = 1;
	if (put(t, f, fs->req))
		events(t, f, EPOLLIN);
}

static void rr_step(struct fthread *t, struct flow *f, uint32_t ev)
{
	struct flows *fs = t->fs;

	if (f->writing && (ev & EPOLLOUT) && put(t, f, fs->req))
		events(t, f, EPOLLIN);
	if (f->state != ST_RUN || f->writing ||
	    !(ev & (EPOLLIN | EPOLLHUP | EPOLLERR)))
		return;
	if (!take(t, f, fs->resp))
		return;
	hist_add(&t->lat, clock_ns() - f->t0);
	f->trans++;
	__atomic_fetch_add(&fs->progress, 1, __ATOMIC_RELAXED);
	rr_next(t, f);
}

static void rrs_step(struct fthread *t, struct flow *f, uint32_t ev)
{
	struct flows *fs = t->fs;

	if (f->writing && (ev & EPOLLOUT)) {
		if (!put(t, f, fs->resp))
			return;
		f->trans++;
		events(t, f, EPOLLIN);
	}
	while (f->state == ST_RUN && !f->writing && take(t, f, fs->req)) {
		f->writing = 1;
		f->bytes += fs->req;
		__atomic_fetch_add(&fs->progress, 1, __ATOMIC_RELAXED);
		if (!put(t, f, fs->resp))
			return;
		f->trans++;
	}
}

/* A sender that half-closed: its peer's close ends the flow. */
static void drain_step(struct fthread *t, struct flow *f)
{
	char b[256];
	ssize_t r = read(f->fd, b, sizeof(b));

	if (r == 0)
		done(t, f, 0, "end");
	else if (r < 0 && errno != EAGAIN && errno != EINTR)
		done(t, f, -errno, "end of data");
}

static void step(struct fthread *t, struct flow *f, uint32_t ev)
{
	if (f->state == ST_DRAIN) {
		drain_step(t, f);
		return;
	}
	switch (t->fs->kind) {
	case FL_TX:
		if (ev & (EPOLLOUT | EPOLLERR | EPOLLHUP))
			tx_step(t, f);
		break;
	case FL_RX:
		rx_step(t, f);
		break;
	case FL_RR:
		rr_step(t, f, ev);
		break;
	case FL_RRS:
		rrs_step(t, f, ev);
		break;
	}
}

/* Register this thread's flows and start what starts on our side. */
static int start(struct fthread *t)
{
	struct flows *fs = t->fs;
	struct epoll_event e;
	int i;

	t->ep = epoll_create1(EPOLL_CLOEXEC);
	if (t->ep < 0)
		return -errno;
	for (i = t->k; i < fs->n; i += fs->threads) {
		struct flow *f = &fs->f[i];

		sock_set_nonblock(f->fd, 1);
		e.events = fs->kind == FL_TX ? EPOLLOUT : EPOLLIN;
		e.data.ptr = f;
		if (epoll_ctl(t->ep, EPOLL_CTL_ADD, f->fd, &e))
			return -errno;
		f->state = ST_RUN;
		f->lat = &t->lat;
		t->live++;
	}
	for (i = t->k; i < fs->n; i += fs->threads)
		if (fs->kind == FL_RR)
			rr_next(t, &fs->f[i]);
	return 0;
}

/* At the deadline (or a signal), streams stop sending at once. */
static void stop_senders(struct fthread *t)
{
	int i;

	for (i = t->k; i < t->fs->n; i += t->fs->threads)
		if (t->fs->kind == FL_TX)
			finish(t, &t->fs->f[i]);
}

/* The wait until at (clock_ns), if that is sooner than ms; 0 = none. */
static int sooner(uint64_t at, uint64_t now, int ms)
{
	if (!at || now >= at)
		return ms;
	if ((at - now) / 1000000 + 1 < (uint64_t)ms)
		return (int)((at - now) / 1000000 + 1);
	return ms;
}

static int wait_ms(const struct flows *fs)
{
	uint64_t now = clock_ns();

	return sooner(fs->hard_ns, now,
		      sooner(fs->deadline_ns, now, fs->timeout_ms));
}

/* Past the hard stop: every flow of the thread still running is cut. */
static void cut(struct fthread *t)
{
	int i;

	if (!t->fs->hard_ns || clock_ns() < t->fs->hard_ns)
		return;
	for (i = t->k; i < t->fs->n; i += t->fs->threads)
		done(t, &t->fs->f[i], -ETIME,
		     t->fs->f[i].state == ST_DRAIN ? "end of data" : "data");
}

static void *thread_main(void *p)
{
	struct fthread *t = p;
	struct epoll_event ev[EVENTS];
	int i, n, w, e = start(t);

	for (i = t->k; e && i < t->fs->n; i += t->fs->threads)
		done(t, &t->fs->f[i], e, "epoll");
	while (t->live > 0) {
		w = wait_ms(t->fs);
		n = epoll_wait(t->ep, ev, EVENTS, w);
		if (n < 0 && errno != EINTR)
			break;
		for (i = 0; i < n; i++)
			step(t, ev[i].data.ptr, ev[i].events);
		if (past(t->fs))
			stop_senders(t);
		cut(t);
		if (n == 0 && w == t->fs->timeout_ms && !sig_stop)
			for (i = t->k; i < t->fs->n; i += t->fs->threads)
				done(t, &t->fs->f[i], -ETIMEDOUT,
				     t->fs->f[i].state == ST_DRAIN
					     ? "end of data"
					     : "data");
		if (n == 0 && sig_stop)
			break;
	}
	close(t->ep);
	return NULL;
}

static int first_error(const struct flows *fs, char *err, size_t len)
{
	int i;

	for (i = 0; i < fs->n; i++)
		if (fs->f[i].err) {
			snprintf(err, len, "flow %d of %d (phase: %s): %s",
				 i + 1, fs->n, fs->f[i].phase,
				 fs->f[i].err == -EPIPE ? "closed mid-transfer"
				 : fs->f[i].err == -ETIMEDOUT
					 ? "no progress within the timeout"
				 : fs->f[i].err == -ETIME
					 ? "still running past --duration and its grace: connection cut"
					 : strerror(-fs->f[i].err));
			return fs->f[i].err;
		}
	return 0;
}

int flows_run(struct flows *fs, char *err, size_t len)
{
	struct fthread *t = calloc((size_t)fs->threads, sizeof(*t));
	pthread_t *th = calloc((size_t)fs->threads, sizeof(*th));
	size_t blen = fs->req > fs->resp ? fs->req : fs->resp;
	int k, r = 0;

	if (!t || !th)
		return -ENOMEM;
	blen = blen > 65536 ? blen : 65536;
	fs->t0 = clock_now();
	for (k = 0; k < fs->threads; k++) {
		t[k] = (struct fthread){.fs = fs, .k = k, .blen = blen};
		t[k].buf = calloc(1, blen);
		if (!t[k].buf || hist_init(&t[k].lat))
			return -ENOMEM;
		if (k && pthread_create(&th[k], NULL, thread_main, &t[k]))
			return -EAGAIN;
	}
	thread_main(&t[0]);
	for (k = 0; k < fs->threads; k++) {
		if (k)
			pthread_join(th[k], NULL);
		if (fs->lat)
			hist_merge(fs->lat, &t[k].lat);
		hist_free(&t[k].lat);
		free(t[k].buf);
	}
	free(t);
	free(th);
	for (k = 0; k < fs->n; k++)
		if (fs->f[k].fd >= 0) {
			if (fs->closing)
				fs->closing(fs->closing_arg, k);
			close(fs->f[k].fd);
			fs->f[k].fd = -1;
		}
	r = first_error(fs, err, len);
	return r;
}
