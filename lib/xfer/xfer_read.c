/* xfer_read.c: receive methods "read" (read(2) into the user buffer) and
 * "trunc" (recv(2) with MSG_TRUNC: the kernel drops the bytes, no copy). */
#include "config.h"
#include "xfer_int.h"

#include <sys/socket.h>
#include <unistd.h>

static ssize_t read_recv(struct xfer *x, size_t len)
{
	ssize_t r;

	r = read(x->sock, x->rbuf, len);
	x->calls++;
	if (r < 0)
		return errno == EINTR ? -EINTR : xfer_fail(x, errno, "read");
	x->bytes += (uint64_t)r;
	xfer_got(x, (const unsigned char *)x->rbuf, (size_t)r);
	return r;
}

static ssize_t trunc_recv(struct xfer *x, size_t len)
{
	ssize_t r;

	r = recv(x->sock, x->rbuf, len, MSG_TRUNC);
	x->calls++;
	if (r < 0)
		return errno == EINTR ? -EINTR :
					xfer_fail(x, errno, "recv MSG_TRUNC");
	x->bytes += (uint64_t)r;
	x->stream_off += (uint64_t)r;
	return r;
}

const struct xfer_ops xfer_read_ops = {
	.name = "read",
	.help = "read(2) into a user buffer (-V checks the pattern)",
	.dir = XFER_RECV,
	.copies = 1,
	.sees_bytes = 1,
	.recv = read_recv,
};

const struct xfer_ops xfer_trunc_ops = {
	.name = "trunc",
	.help = "recv(2) with MSG_TRUNC: bytes dropped in the kernel, uncopied",
	.dir = XFER_RECV,
	.recv = trunc_recv,
};
