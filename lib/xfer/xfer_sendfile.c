/* xfer_sendfile.c: send method "sendfile": sendfile(2) from the source
 * file's page cache straight to the socket (ttcp-sf's path). */
#include "config.h"
#include "xfer_int.h"

#include <sys/sendfile.h>

static ssize_t sendfile_send(struct xfer *x, uint64_t off, size_t len)
{
	off_t o = (off_t)off;
	ssize_t r;

	r = sendfile(x->sock, x->src->fd, &o, len);
	x->calls++;
	if (r < 0)
		return errno == EINTR ? -EINTR :
					xfer_fail(x, errno, "sendfile");
	if (!r)
		return xfer_fail(x, EIO, "sendfile moved 0 bytes at %llu",
				 (unsigned long long)off);
	x->bytes += (uint64_t)r;
	return r;
}

const struct xfer_ops xfer_sendfile_ops = {
	.name = "sendfile",
	.help = "sendfile(2) from the source file (no user copy)",
	.dir = XFER_SEND,
	.send = sendfile_send,
};
