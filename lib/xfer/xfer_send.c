/* xfer_send.c: send method "send": like write, through send(2) with
 * MSG_NOSIGNAL (a dead peer is an error, not a signal). */
#include "config.h"
#include "xfer_int.h"

#include <sys/socket.h>

static ssize_t send_send(struct xfer *x, uint64_t off, size_t len)
{
	const void *p;
	ssize_t r;
	int e = 0;

	p = xfer_user_data(x, off, &len, &e);
	if (!p)
		return e;
	r = send(x->sock, p, len, MSG_NOSIGNAL);
	x->calls++;
	if (r < 0)
		return errno == EINTR ? -EINTR : xfer_fail(x, errno, "send");
	x->bytes += (uint64_t)r;
	return r;
}

const struct xfer_ops xfer_send_ops = {
	.name = "send",
	.help = "send(2) from a user buffer (the source read into it)",
	.dir = XFER_SEND,
	.copies = 1,
	.hot_buf = 1,
	.send = send_send,
};
