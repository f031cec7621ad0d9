/*
 * xfer_int.h: what the files of lib/xfer share and the tools never need:
 * small helpers of xfer.c and xfer_source.c that the methods call
 * (xfer_source.c uses xfer.c's, never the other way).
 */
#ifndef ZCB_XFER_INT_H
#define ZCB_XFER_INT_H

#include "xfer.h"

#include <errno.h>
#include <stdarg.h>

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

/* After a method's system call returned r: count the call, and the
 * bytes when r > 0. Returns r, -EINTR, or -errno by xfer_fail(what)
 * (errno is still the call's). */
ssize_t xfer_took(struct xfer *x, ssize_t r, const char *what);

/* A buffer of len bytes (and a spare one) at offset bytes past an
 * align-aligned start (0 = page); *base is what to free. 0, -EINVAL (align
 * not a power of two) or -ENOMEM. */
int xfer_alloc_buf(char **buf, void **base, size_t len, size_t align,
		   size_t offset);

/* After receiving into user memory: verify and touch as asked. */
void xfer_got(struct xfer *x, const unsigned char *p, size_t n);
/* Read every byte (ttcp -T): the sum keeps the compiler honest. */
unsigned xfer_touch_bytes(const void *p, size_t n);

/*
 * A method, in one statement: its ops' name, its direction, its flags
 * (XFER_COPIES ...; 0 for none) and its line of help, which are what
 * `--method=help` and the documents show, then its hooks (.probe, .setup,
 * .send or .recv, .reap, .teardown, .priv_size). Two methods of one file
 * that share hooks name them in one macro (SPLICE_HOOKS), not twice.
 */
#define XFER_METHOD(ops, nm, d, fl, hl, ...)                                 \
	const struct xfer_ops ops = { .name = nm,                           \
				      .dir = d,                             \
				      .flags = fl,                          \
				      .help = hl,                           \
				      __VA_ARGS__ }

#endif
