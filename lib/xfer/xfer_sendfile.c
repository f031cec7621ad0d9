/* xfer_sendfile.c: send method "sendfile": sendfile(2) from the source
 * file's page cache straight to the socket (ttcp-sf's path). */
#include "config.h"
#include "xfer_int.h"

#include <sys/sendfile.h>

static ssize_t sendfile_send(struct xfer *x, uint64_t off, size_t len)
{
	off_t o = (off_t)off;
	ssize_t r = xfer_took(x, sendfile(x->sock, x->src->fd, &o, len),
			      "sendfile");

	if (!r)
		return xfer_fail(x, EIO, "sendfile moved 0 bytes at %llu",
				 (unsigned long long)off);
	return r;
}

XFER_METHOD(xfer_sendfile_ops, "sendfile", XFER_SEND, XFER_NONBLOCK,
	    "sendfile(2) from the source file (no user copy)",
	    .send = sendfile_send);
