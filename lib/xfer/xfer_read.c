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

XFER_METHOD(xfer_read_ops, "read", XFER_RECV,
	    XFER_COPIES | XFER_SEES_BYTES | XFER_DGRAM | XFER_NONBLOCK |
		    XFER_PLAIN,
	    "read(2) into a user buffer (-V checks the pattern)",
	    .recv = read_recv);

XFER_METHOD(xfer_trunc_ops, "trunc", XFER_RECV, XFER_NONBLOCK,
	    "recv(2) with MSG_TRUNC: bytes dropped in the kernel, uncopied",
	    .recv = trunc_recv);
