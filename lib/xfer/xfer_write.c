/* xfer_write.c: send method "write": pread the source into the user
 * buffer, write(2) it to the socket (ttcp's classic path). */
#include "config.h"
#include "xfer_int.h"

#include <unistd.h>

static ssize_t write_send(struct xfer *x, uint64_t off, size_t len)
{
	const void *p;
	ssize_t r;
	int e = 0;

	p = xfer_user_data(x, off, &len, &e);
	if (!p)
		return e;
	r = write(x->sock, p, len);
	x->calls++;
	if (r < 0)
		return errno == EINTR ? -EINTR : xfer_fail(x, errno, "write");
	x->bytes += (uint64_t)r;
	return r;
}

const struct xfer_ops xfer_write_ops = {
	.name = "write",
	.help = "write(2) from a user buffer (the source read into it)",
	.dir = XFER_SEND,
	.copies = 1,
	.hot_buf = 1,
	.send = write_send,
};
