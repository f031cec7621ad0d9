/*
 * xfer.c: the transfer-method table, the source every send method sends
 * from, and the send/receive loops the tools run (see xfer.h). The
 * methods themselves live in lib/xfer_NAME.c, one per file.
 */
#include "config.h"
#include "xfer_int.h"
#include "clock.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

const struct xfer_ops *const xfer_table[] = {
	&xfer_write_ops,  &xfer_send_ops,    &xfer_sendfile_ops,
	&xfer_splice_ops, &xfer_mmap_ops,    &xfer_msgzc_ops,
	&xfer_uring_ops,  &xfer_uringzc_ops, &xfer_read_ops,
	&xfer_trunc_ops,  &xfer_splice_rx_ops, &xfer_zcrx_ops,
	NULL
};

#define XFER_FILL_CHUNK (1u << 20)	/* temp source written this much at a time */
#define XFER_TIMEOUT_MS 30000		/* default wait for progress */

const struct xfer_ops *xfer_find(const char *name, enum xfer_dir dir)
{
	int i;

	for (i = 0; xfer_table[i]; i++)
		if (xfer_table[i]->dir == dir &&
		    !strcmp(xfer_table[i]->name, name))
			return xfer_table[i];
	return NULL;
}

int xfer_probe(const struct xfer_ops *ops, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	return ops->probe ? ops->probe(why, len) : 0;
}

void xfer_print_table(FILE *f)
{
	char why[256];
	int d, i, r;

	for (d = XFER_SEND; d <= XFER_RECV; d++) {
		fprintf(f, "%s methods:\n",
			d == XFER_SEND ? "send (-t)" : "receive (-r)");
		for (i = 0; xfer_table[i]; i++) {
			const struct xfer_ops *o = xfer_table[i];

			if ((int)o->dir != d)
				continue;
			r = xfer_probe(o, why, sizeof(why));
			fprintf(f, "  %-16s %-5s %s\n", o->name,
				r ? "NO" : "ok", o->help);
			if (why[0])
				fprintf(f, "  %-16s       %s: %s\n", "",
					r ? "unavailable" : "note", why);
		}
	}
}

const char *xfer_names(enum xfer_dir dir)
{
	static char buf[2][256];
	char *b = buf[dir == XFER_RECV];
	size_t n = 0;
	int i;

	b[0] = '\0';
	for (i = 0; xfer_table[i]; i++)
		if (xfer_table[i]->dir == dir)
			n += (size_t)snprintf(b + n, sizeof(buf[0]) - n, "%s%s",
					      n ? "," : "",
					      xfer_table[i]->name);
	return b;
}

const struct pattern xfer_stream_pattern = {.kind = PATTERN_HASH};

static int temp_source(struct xfer_source *s, uint64_t size, char *err,
		       size_t len)
{
	const char *dir = getenv("TMPDIR");
	unsigned char *chunk;
	uint64_t off;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(s->path, sizeof(s->path), "%s/zcb-xfer.XXXXXX", dir);
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		fd = mkostemp(s->path, O_CLOEXEC);
		if (fd < 0) {
			snprintf(err, len, "temp source in %s: %s", dir,
				 strerror(errno));
			return -errno;
		}
		unlink(s->path);
	} else {
		snprintf(s->path, sizeof(s->path), "%s/(unlinked temp file)",
			 dir);
	}
	chunk = malloc(XFER_FILL_CHUNK);
	if (!chunk)
		abort();
	for (off = 0; off < size; off += XFER_FILL_CHUNK) {
		size_t n = size - off < XFER_FILL_CHUNK ? size - off :
							 XFER_FILL_CHUNK;

		pattern_fill(&xfer_stream_pattern, chunk, off, n);
		if (pwrite(fd, chunk, n, (off_t)off) != (ssize_t)n) {
			int e = errno ? errno : ENOSPC;

			snprintf(err, len, "writing temp source in %s: %s",
				 dir, strerror(e));
			free(chunk);
			close(fd);
			return -e;
		}
	}
	free(chunk);
	s->fd = fd;
	s->temp = 1;
	return 0;
}

static int alloc_buf(char **buf, void **base, size_t len, size_t align,
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

int xfer_source_open(struct xfer_source *s, const char *path, uint64_t size,
		     size_t buflen, size_t align, size_t offset, int hot,
		     char *err, size_t len)
{
	struct stat st;
	void *base;
	int r;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (!buflen) {
		snprintf(err, len, "source: buffer length 0");
		return -EINVAL;
	}
	if (path) {
		snprintf(s->path, sizeof(s->path), "%s", path);
		s->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0 || fstat(s->fd, &st)) {
			r = -errno;
			snprintf(err, len, "source %s: %s", path,
				 strerror(errno));
			xfer_source_close(s);
			return r;
		}
		if (!size || size > (uint64_t)st.st_size)
			size = (uint64_t)st.st_size;
	} else {
		if (!size)
			size = 256ull << 20;
		r = temp_source(s, size, err, len);
		if (r)
			return r;
	}
	if (!size) {
		snprintf(err, len, "source %s is empty", s->path);
		xfer_source_close(s);
		return -EINVAL;
	}
	s->size = size;
	s->map = mmap(NULL, size, PROT_READ, MAP_SHARED, s->fd, 0);
	if (s->map == MAP_FAILED) {
		r = -errno;
		snprintf(err, len, "mmap of source %s: %s", s->path,
			 strerror(errno));
		s->map = NULL;
		xfer_source_close(s);
		return r;
	}
	r = alloc_buf(&s->buf, &base, buflen, align, offset);
	if (r) {
		snprintf(err, len, "source buffer: %s",
			 r == -EINVAL ? "alignment not a power of two" :
					"out of memory");
		xfer_source_close(s);
		return r;
	}
	s->buflen = buflen;
	s->align = align;
	s->offset = offset;
	s->hot = hot;
	if (hot) { /* the buffer holds the source's first buflen bytes */
		uint64_t k;

		for (k = 0; k < buflen; k++)
			s->buf[k] = ((const char *)s->map)[k % size];
	}
	return 0;
}

void xfer_source_close(struct xfer_source *s)
{
	if (s->buf)
		free(s->buf - s->offset);
	if (s->map)
		munmap(s->map, s->size);
	if (s->fd >= 0)
		close(s->fd);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

uint64_t xfer_period(const struct xfer *x)
{
	if (!x->src)
		return 0;
	if (x->src->hot && x->ops->hot_buf)
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
		char why[200];

		xfer_probe(ops, why, sizeof(why));
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

	if (alloc_buf(&b, &base, x->unit, align, offset))
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

const void *xfer_user_data(struct xfer *x, uint64_t off, size_t *len,
			   int *errp)
{
	struct xfer_source *s = x->src;
	ssize_t r;

	if (*len > s->buflen)
		*len = s->buflen;
	if (s->hot) {
		if (off >= s->buflen)
			off %= s->buflen;
		if (*len > s->buflen - off)
			*len = s->buflen - off;
		if (s->touch)
			xfer_touch_bytes(s->buf + off, *len);
		return s->buf + off;
	}
	r = pread(s->fd, s->buf, *len, (off_t)off);
	if (r <= 0) {
		*errp = xfer_fail(x, r < 0 ? errno : EIO,
				  "reading the source %s at %llu", s->path,
				  (unsigned long long)off);
		return NULL;
	}
	*len = (size_t)r;
	if (s->touch)
		xfer_touch_bytes(s->buf, *len);
	return s->buf;
}

const void *xfer_map_data(struct xfer *x, uint64_t off, size_t len)
{
	struct xfer_source *s = x->src;

	if (s->hot && x->ops->hot_buf)
		return s->buf + off % s->buflen;
	if (s->touch)
		xfer_touch_bytes((const char *)s->map + off, len);
	return (const char *)s->map + off;
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

int64_t xfer_send_stream(struct xfer *x, uint64_t off, uint64_t total,
			 double deadline, volatile sig_atomic_t *stop)
{
	uint64_t period = xfer_period(x), pos = off % period, sent = 0;
	struct deadline dl;
	ssize_t r;
	int e;

	dl_init(&dl, deadline);
	while (!total || sent < total) {
		size_t len = x->unit;

		if (stop && *stop)
			break;
		if (dl_passed(&dl))
			break;
		if (total && total - sent < len)
			len = (size_t)(total - sent);
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
	ssize_t r;

	dl_init(&dl, deadline);
	while (!total || got < total) {
		size_t len = x->unit;

		if (stop && *stop)
			break;
		if (dl_passed(&dl))
			break;
		if (total && total - got < len)
			len = (size_t)(total - got);
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
	if (!x->ops->zerocopy)
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

	if (x->ops->zerocopy && x->ops->dir == XFER_SEND) {
		json_object_set_new(j, "zc_sends",
				    json_integer((json_int_t)x->zc_sends));
		json_object_set_new(j, "zc_completions",
				    json_integer((json_int_t)x->zc_completions));
		json_object_set_new(j, "zc_copied",
				    json_integer((json_int_t)x->zc_copied));
	}
	if (x->ops->zerocopy && x->ops->dir == XFER_RECV) {
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
