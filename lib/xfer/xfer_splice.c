/*
 * xfer_splice.c: send method "splice" (source file -> pipe -> socket) and
 * receive method "splice" (socket -> pipe -> /dev/null). The pipe is
 * sized to the unit so one call fills it; every byte put in the pipe is
 * moved out before a call returns.
 */
#include "config.h"
#include "ctr.h"
#include "xfer_int.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

struct splice_priv {
	int pipe[2];		/* [0] read end, [1] write end */
	int null;		/* /dev/null (receive side) */
};

static int splice_probe(char *why, size_t len)
{
	int p[2], fd, r = 0;
	loff_t o = 0;

	if (pipe(p)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return -errno;
	}
	fd = open("/proc/self/stat", O_RDONLY); /* any readable file */
	if (fd >= 0 && splice(fd, &o, p[1], NULL, 16, 0) < 0 &&
	    errno == ENOSYS) {
		snprintf(why, len, "kernel lacks splice(2)");
		r = -ENOSYS;
	}
	if (fd >= 0)
		close(fd);
	close(p[0]);
	close(p[1]);
	return r;
}

static int splice_setup(struct xfer *x)
{
	struct splice_priv *s = x->priv;

	s->null = -1;
	if (pipe2(s->pipe, O_CLOEXEC))
		return xfer_fail(x, errno, "pipe");
	/* a unit per call; keep the default size when the kernel refuses */
	fcntl(s->pipe[1], F_SETPIPE_SZ, (int)x->unit);
	if (x->ops->dir == XFER_RECV) {
		s->null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (s->null < 0) {
			int e = xfer_fail(x, errno, "open /dev/null");

			close(s->pipe[0]);
			close(s->pipe[1]);
			return e;
		}
	}
	return 0;
}

/* Move n bytes out of the pipe to fd; 0 or -errno. */
static int drain(struct xfer *x, int fd, size_t n, const char *what)
{
	struct splice_priv *s = x->priv;
	ssize_t r;

	while (n) {
		r = splice(s->pipe[0], NULL, fd, NULL, n,
			   SPLICE_F_MOVE | SPLICE_F_MORE);
		x->calls++;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return xfer_fail(x, r < 0 ? errno : EPIPE, "%s", what);
		n -= (size_t)r;
	}
	return 0;
}

static ssize_t splice_send(struct xfer *x, uint64_t off, size_t len)
{
	struct splice_priv *s = x->priv;
	loff_t o = (loff_t)off;
	ssize_t r;
	int e;

	r = splice(x->src->fd, &o, s->pipe[1], NULL, len,
		   SPLICE_F_MOVE | SPLICE_F_MORE);
	x->calls++;
	if (r < 0)
		return errno == EINTR ? -EINTR :
					xfer_fail(x, errno, "splice file to pipe");
	if (!r)
		return xfer_fail(x, EIO, "splice: source ended at %llu",
				 (unsigned long long)off);
	e = drain(x, x->sock, (size_t)r, "splice pipe to socket");
	if (e)
		return e;
	ctr_add(&x->bytes, (uint64_t)r);
	return r;
}

static ssize_t splice_recv(struct xfer *x, size_t len)
{
	struct splice_priv *s = x->priv;
	ssize_t r;
	int e;

	r = splice(x->sock, NULL, s->pipe[1], NULL, len, SPLICE_F_MOVE);
	x->calls++;
	if (r < 0)
		return errno == EINTR ? -EINTR :
					xfer_fail(x, errno, "splice socket to pipe");
	if (!r)
		return 0;
	e = drain(x, s->null, (size_t)r, "splice pipe to /dev/null");
	if (e)
		return e;
	ctr_add(&x->bytes, (uint64_t)r);
	x->stream_off += (uint64_t)r;
	return r;
}

static void splice_teardown(struct xfer *x)
{
	struct splice_priv *s = x->priv;

	close(s->pipe[0]);
	close(s->pipe[1]);
	if (s->null >= 0)
		close(s->null);
}

/* Both directions: a pipe (and /dev/null) set up and torn down alike. */
#define SPLICE_HOOKS                                                         \
	.probe = splice_probe, .setup = splice_setup,                        \
	.teardown = splice_teardown, .priv_size = sizeof(struct splice_priv)

XFER_METHOD(xfer_splice_ops, "splice", XFER_SEND, 0,
	    "splice(2) source file -> pipe -> socket",
	    .send = splice_send, SPLICE_HOOKS);

XFER_METHOD(xfer_splice_rx_ops, "splice", XFER_RECV, 0,
	    "splice(2) socket -> pipe -> /dev/null (no user copy)",
	    .recv = splice_recv, SPLICE_HOOKS);
