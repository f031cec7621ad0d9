/*
 * xfer.c: one method on one socket (open, close, its receive buffer, the
 * errors methods report), the pattern check of received bytes, and what
 * a transfer did (counters, zero-copy accounting). The table is in
 * xfer_table.c, the source in xfer_source.c, the loops in xfer_stream.c,
 * and each method in lib/xfer/xfer_NAME.c.
 */
#include "config.h"
#include "ctr.h"
#include "xfer_int.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XFER_TIMEOUT_MS 30000		/* default wait for progress */

uint64_t xfer_period(const struct xfer *x)
{
	if (!x->src)
		return 0;
	if (x->src->hot && (x->ops->flags & XFER_HOT_BUF))
		return x->src->buflen;
	return x->src->size;
}

struct xfer *xfer_open(const struct xfer_ops *ops, int sock,
		       struct xfer_source *src, size_t unit, char *err,
		       size_t len)
{
	struct xfer *x;
	int r;

	if (ops->dir == XFER_SEND && !src) {
		snprintf(err, len, "%s: a send method needs a source",
			 ops->name);
		return NULL;
	}
	if ((ops->dir == XFER_SEND && !ops->send) ||
	    (ops->dir == XFER_RECV && !ops->recv)) {
		char why[200] = "";

		/* its probe says why (xfer.c stays below the table) */
		if (ops->probe)
			ops->probe(why, sizeof(why));
		snprintf(err, len, "%s: unavailable: %s", ops->name, why);
		return NULL;
	}
	if (!unit) {
		snprintf(err, len, "%s: unit of 0 bytes", ops->name);
		return NULL;
	}
	x = calloc(1, sizeof(*x));
	if (!x)
		abort();
	x->ops = ops;
	x->sock = sock;
	x->src = ops->dir == XFER_SEND ? src : NULL;
	x->unit = unit;
	x->timeout_ms = XFER_TIMEOUT_MS;
	if (ops->priv_size) {
		x->priv = calloc(1, ops->priv_size);
		if (!x->priv)
			abort();
	}
	if (ops->dir == XFER_RECV && xfer_set_rbuf_align(x, 0, 0)) {
		snprintf(err, len, "%s: out of memory", ops->name);
		free(x->priv);
		free(x);
		return NULL;
	}
	if (ops->setup) {
		r = ops->setup(x);
		if (r) {
			snprintf(err, len, "%s", x->err);
			free(x->rbuf_alloc);
			free(x->priv);
			free(x);
			return NULL;
		}
	}
	return x;
}

int xfer_set_rbuf_align(struct xfer *x, size_t align, size_t offset)
{
	void *base;
	char *b;

	if (xfer_alloc_buf(&b, &base, x->unit, align, offset))
		return -ENOMEM;
	free(x->rbuf_alloc);
	x->rbuf_alloc = base;
	x->rbuf = b;
	return 0;
}

void xfer_close(struct xfer *x)
{
	if (!x)
		return;
	if (x->ops->reap)
		x->ops->reap(x, 1, x->timeout_ms);
	if (x->ops->teardown)
		x->ops->teardown(x);
	free(x->rbuf_alloc);
	free(x->priv);
	free(x);
}

int xfer_fail(struct xfer *x, int e, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	if (e == EAGAIN || e == EWOULDBLOCK) {
		int fl = fcntl(x->sock, F_GETFL);

		/* a non-blocking socket would block: not an error (the
		 * header's promise); a blocking one hit SO_RCVTIMEO */
		if (fl >= 0 && (fl & O_NONBLOCK))
			return -EAGAIN;
		e = ETIMEDOUT;
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(x->err, sizeof(x->err), "%s: %s: %s", x->ops->name, what,
		 e == ETIMEDOUT ? "no progress within the timeout" :
				  strerror(e));
	return -e;
}

int xfer_alloc_buf(char **buf, void **base, size_t len, size_t align,
		   size_t offset)
{
	size_t a = align ? align : (size_t)sysconf(_SC_PAGESIZE);

	if (a & (a - 1) || a < sizeof(void *))
		return -EINVAL;
	if (posix_memalign(base, a, len + offset + 1))
		return -ENOMEM;
	memset(*base, 0, len + offset + 1);
	*buf = (char *)*base + offset;
	return 0;
}

unsigned xfer_touch_bytes(const void *p, size_t n)
{
	const volatile unsigned char *c = p;
	unsigned sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += c[i];
	return sum;
}

ssize_t xfer_took(struct xfer *x, ssize_t r, const char *what)
{
	x->calls++;
	if (r < 0)
		return errno == EINTR ? -EINTR :
					xfer_fail(x, errno, "%s", what);
	ctr_add(&x->bytes, (uint64_t)r);
	return r;
}

const struct pattern xfer_stream_pattern = {.kind = PATTERN_HASH};

/* The first mismatch of a stream whose period is not known yet: does
 * byte c at so start the pattern over from a wrap up to 8 bytes back?
 * Then that is the period (1), else c is bad (0). */
static int learn_period(struct xfer *x, unsigned char c, uint64_t so)
{
	uint64_t back;

	for (back = so > 7 ? 7 : so - 1;; back--) {
		if (c == pattern_byte(&xfer_stream_pattern, back)) {
			x->period = so - back;
			return 1;
		}
		if (!back)
			return 0;
	}
}

/*
 * The stream is pattern(offset mod period), where the period (where the
 * sender's source wraps) is learnt from the first mismatch: the bytes
 * there continue pattern(0...) from a wrap up to 8 bytes back (earlier
 * bytes may have matched by chance). A real corruption still counts.
 */
void xfer_verify_bytes(struct xfer *x, const unsigned char *p, size_t n)
{
	struct pattern pat = xfer_stream_pattern;
	uint64_t so;
	size_t i = 0;
	long bad;

	while (i < n) {
		pat.period = x->period;
		bad = pattern_check(&pat, p + i, x->stream_off + i, n - i);
		if (bad < 0)
			break;
		i += (size_t)bad;
		so = x->stream_off + i;
		if (x->period || !so || !learn_period(x, p[i], so))
			x->bad_bytes++;
		i++;
	}
	x->stream_off += n;
}

void xfer_got(struct xfer *x, const unsigned char *p, size_t n)
{
	if (x->verify)
		xfer_verify_bytes(x, p, n);
	else
		x->stream_off += n;
	if (x->touch)
		xfer_touch_bytes(p, n);
}

double xfer_zc_copied_pct(const struct xfer *x)
{
	if (x->ops->dir == XFER_RECV)
		return x->rx_mapped + x->rx_copied ?
			       100.0 * (double)x->rx_copied /
				       (double)(x->rx_mapped + x->rx_copied) :
			       NAN;
	return x->zc_completions ? 100.0 * (double)x->zc_copied /
					   (double)x->zc_completions :
				   NAN;
}

int xfer_zc_warning(const struct xfer *x, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!(x->ops->flags & XFER_ZEROCOPY))
		return 0;
	if (x->ops->dir == XFER_RECV) {
		if (!x->rx_copied)
			return 0;
		snprintf(buf, len,
			 "%s: %llu of %llu bytes copied (the kernel could not map them)",
			 x->ops->name, (unsigned long long)x->rx_copied,
			 (unsigned long long)(x->rx_mapped + x->rx_copied));
		return 1;
	}
	if (!x->zc_copied)
		return 0;
	snprintf(buf, len, "%s: %llu of %llu sends copied by the kernel",
		 x->ops->name, (unsigned long long)x->zc_copied,
		 (unsigned long long)x->zc_completions);
	return 1;
}

json_t *xfer_counters_json(const struct xfer *x)
{
	json_t *j = json_pack("{s:s, s:I, s:I}", "method", x->ops->name,
			      "calls", (json_int_t)x->calls, "bytes",
			      (json_int_t)x->bytes);
	int zc = !!(x->ops->flags & XFER_ZEROCOPY);

	if (zc && x->ops->dir == XFER_SEND) {
		json_object_set_new(j, "zc_sends",
				    json_integer((json_int_t)x->zc_sends));
		json_object_set_new(j, "zc_completions",
				    json_integer((json_int_t)x->zc_completions));
		json_object_set_new(j, "zc_copied",
				    json_integer((json_int_t)x->zc_copied));
	}
	if (zc && x->ops->dir == XFER_RECV) {
		json_object_set_new(j, "rx_mapped",
				    json_integer((json_int_t)x->rx_mapped));
		json_object_set_new(j, "rx_copied",
				    json_integer((json_int_t)x->rx_copied));
	}
	if (x->verify) {
		json_object_set_new(j, "bad_bytes",
				    json_integer((json_int_t)x->bad_bytes));
		json_object_set_new(j, "verified_bytes",
				    json_integer((json_int_t)x->stream_off));
	}
	return j;
}
