/*
 * xfer_int.h: what the transfer methods (lib/xfer/xfer_*.c) share and the
 * tools never need: the method list and small helpers of lib/xfer/xfer.c.
 */
#ifndef ZCB_XFER_INT_H
#define ZCB_XFER_INT_H

#include "xfer.h"

#include <errno.h>
#include <stdarg.h>

extern const struct xfer_ops xfer_write_ops, xfer_send_ops, xfer_sendfile_ops,
	xfer_splice_ops, xfer_mmap_ops, xfer_msgzc_ops, xfer_uring_ops,
	xfer_uringzc_ops, xfer_read_ops, xfer_trunc_ops, xfer_splice_rx_ops,
	xfer_zcrx_ops;

/*
 * The bytes of source offset off, up to *len (shortened to what the user
 * buffer holds), in user memory: the hot buffer, or the file read into
 * the buffer with pread. NULL with x->err filled and *len = -errno.
 */
const void *xfer_user_data(struct xfer *x, uint64_t off, size_t *len,
			   int *errp);
/* The same but from the mmap of the source (hot: the user buffer). */
const void *xfer_map_data(struct xfer *x, uint64_t off, size_t len);

/* Fill x->err with "what: strerror" and return -errno; a blocking
 * socket's timeout (EAGAIN) becomes -ETIMEDOUT; on a non-blocking socket
 * EAGAIN is returned as -EAGAIN with no error recorded. */
int xfer_fail(struct xfer *x, int e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* After receiving into user memory: verify and touch as asked. */
void xfer_got(struct xfer *x, const unsigned char *p, size_t n);
/* Read every byte (ttcp -T): the sum keeps the compiler honest. */
unsigned xfer_touch_bytes(const void *p, size_t n);

#endif
