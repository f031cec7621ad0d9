/* xfer_mmap.c: send method "mmap": write(2) from an mmap of the source
 * (the kernel copies from the mapped page cache; no pread). */
#include "config.h"
#include "xfer_int.h"

#include <unistd.h>

static ssize_t mmap_send(struct xfer *x, uint64_t off, size_t len)
{
	return xfer_took(x, write(x->sock, xfer_map_data(x, off, len), len),
			 "write");
}

XFER_METHOD(xfer_mmap_ops, "mmap", XFER_SEND, XFER_COPIES | XFER_NONBLOCK,
	    "write(2) from an mmap of the source file",
	    .send = mmap_send);
