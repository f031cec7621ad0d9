/* xfer_write.c: send methods "write" (write(2), ttcp's classic path) and
 * "send" (send(2) with MSG_NOSIGNAL: a dead peer is an error, not a
 * signal), each from the user buffer the source is pread into. */
#include "config.h"
#include "xfer_int.h"

#include <sys/socket.h>
#include <unistd.h>

extern const struct xfer_ops xfer_send_ops; /* below */

static ssize_t user_send(struct xfer *x, uint64_t off, size_t len)
{
	int e = 0;
	const void *p = xfer_user_data(x, off, &len, &e);

	if (!p)
		return e;
	if (x->ops == &xfer_send_ops)
		return xfer_took(x, send(x->sock, p, len, MSG_NOSIGNAL),
				 "send");
	return xfer_took(x, write(x->sock, p, len), "write");
}

XFER_METHOD(xfer_write_ops, "write", XFER_SEND,
	    XFER_COPIES | XFER_HOT_BUF | XFER_DGRAM | XFER_NONBLOCK |
		    XFER_PLAIN,
	    "write(2) from a user buffer (the source read into it)",
	    .send = user_send);

XFER_METHOD(xfer_send_ops, "send", XFER_SEND,
	    XFER_COPIES | XFER_HOT_BUF | XFER_DGRAM | XFER_NONBLOCK,
	    "send(2) from a user buffer (the source read into it)",
	    .send = user_send);
