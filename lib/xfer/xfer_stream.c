/*
 * xfer_stream.c: the send and receive loops the tools run (see xfer.h):
 * a unit per call, wrapping around the source, reaping as they go, until
 * the total, a stop flag or a deadline.
 */
#include "config.h"
#include "xfer_int.h"
#include "clock.h"

/*
 * The deadline of a stream, read from the clock not on every call: a
 * clock read costs about as much as the loop's own user-space work (2% of
 * a hot 32 KiB write stream on one CPU). The stride of calls between
 * reads doubles (up to DL_MAX_STRIDE) while stride calls take under
 * DL_FAST and drops to 1 when they take over DL_SLOW: while calls keep
 * their pace the run overshoots its deadline by about DL_SLOW at most;
 * when they slow down at once (a socket buffer filled up) by at most
 * DL_MAX_STRIDE of the slow calls, once.
 */
#define DL_FAST 0.0005		/* s: stride calls faster: double it */
#define DL_SLOW 0.002		/* s: slower: back to 1 */
#define DL_MAX_STRIDE 16	/* calls */

struct deadline {
	double at;		/* monotonic seconds, 0 = none */
	double last;		/* when the clock was last read */
	unsigned stride;	/* calls between reads */
	unsigned left;		/* calls until the next read */
};

static void dl_init(struct deadline *d, double at)
{
	d->at = at;
	d->last = at > 0 ? clock_now() : 0;
	d->stride = 1;
	d->left = 1;
}

/* 1 when the deadline has passed (checked before each call). */
static int dl_passed(struct deadline *d)
{
	double now, took;

	if (d->at <= 0 || --d->left)
		return 0;
	now = clock_now();
	if (now >= d->at)
		return 1;
	took = now - d->last;
	if (took < DL_FAST && d->stride < DL_MAX_STRIDE)
		d->stride *= 2;
	else if (took > DL_SLOW)
		d->stride = 1;
	d->last = now;
	d->left = d->stride;
	return 0;
}

/* The bytes of the next call: a unit, less at the end of total (0 =
 * none); 0 when the stream is done, stopped or past its deadline. */
static size_t next_len(const struct xfer *x, struct deadline *dl,
		       volatile sig_atomic_t *stop, uint64_t total,
		       uint64_t done)
{
	if (total && done >= total)
		return 0;
	if ((stop && *stop) || dl_passed(dl))
		return 0;
	if (total && total - done < x->unit)
		return (size_t)(total - done);
	return x->unit;
}

int64_t xfer_send_stream(struct xfer *x, uint64_t off, uint64_t total,
			 double deadline, volatile sig_atomic_t *stop)
{
	uint64_t period = xfer_period(x), pos = off % period, sent = 0;
	struct deadline dl;
	size_t len;
	ssize_t r;
	int e;

	dl_init(&dl, deadline);
	while ((len = next_len(x, &dl, stop, total, sent))) {
		if (period - pos < len)
			len = (size_t)(period - pos);
		r = x->ops->send(x, pos, len);
		if (r == -EINTR)
			continue;
		if (r < 0)
			return r;
		sent += (uint64_t)r;
		pos += (uint64_t)r;
		if (pos >= period)
			pos = 0;
		if (x->ops->reap && (e = x->ops->reap(x, 0, 0)))
			return e;
	}
	if (x->ops->reap && (e = x->ops->reap(x, 1, x->timeout_ms)))
		return e;
	return (int64_t)sent;
}

int64_t xfer_recv_stream(struct xfer *x, uint64_t total, double deadline,
			 volatile sig_atomic_t *stop)
{
	uint64_t got = 0;
	struct deadline dl;
	size_t len;
	ssize_t r;

	dl_init(&dl, deadline);
	while ((len = next_len(x, &dl, stop, total, got))) {
		r = x->ops->recv(x, len);
		if (r == -EINTR)
			continue;
		if (r < 0)
			return r;
		if (!r)
			break;
		got += (uint64_t)r;
	}
	return (int64_t)got;
}
