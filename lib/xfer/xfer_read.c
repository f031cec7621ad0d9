/* xfer_read.c: receive methods "read" (read(2) into the user buffer) and
 * "trunc" (recv(2) with MSG_TRUNC: the kernel drops the bytes, no copy). */
#include "config.h"
#include "xfer_int.h"

#include <sys/socket.h>
#include <unistd.h>

static ssize_t read_recv(struct xfer *x, size_t len)
{
	ssize_t r = xfer_took(x, read(x->sock, x->rbuf, len), "read");

	if (r > 0)
		xfer_got(x, (const unsigned char *)x->rbuf, (size_t)r);
	return r;
}

static ssize_t trunc_recv(struct xfer *x, size_t len)
{
	ssize_t r = xfer_took(x, recv(x->sock, x->rbuf, len, MSG_TRUNC),
			      "recv MSG_TRUNC");

	if (r > 0)
		x->stream_off += (uint64_t)r;
	return r;
}

const struct xfer_ops xfer_read_ops = {
	.name = "read",
	.help = "read(2) into a user buffer (-V checks the pattern)",
	.dir = XFER_RECV,
	.flags = XFER_COPIES | XFER_SEES_BYTES,
	.recv = read_recv,
};

const struct xfer_ops xfer_trunc_ops = {
	.name = "trunc",
	.help = "recv(2) with MSG_TRUNC: bytes dropped in the kernel, uncopied",
	.dir = XFER_RECV,
	.recv = trunc_recv,
};
