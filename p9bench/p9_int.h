/*
 * p9_int.h: what p9bench/p9_client.c shares with p9bench/p9_io.c (not for tools):
 * the client's transport, which fills c->err and returns -errno.
 */
#ifndef ZCB_P9_INT_H
#define ZCB_P9_INT_H

#include <sys/types.h>
#include <sys/uio.h>

#include "p9.h"

/* Fill c->err with "PEER: what" and return e (negative). */
int p9c_fail(struct p9_client *c, int e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* One readv; intr: a signal with *o.stop set ends the wait. */
ssize_t p9c_rd(struct p9_client *c, struct iovec *iov, int n, int intr,
	       const char *what);
/* Send all of iov[0..n) (modified as it goes); one message. */
int p9c_send_iov(struct p9_client *c, struct iovec *iov, int n,
		 const char *what);
/* Bytes received and not yet consumed. */
size_t p9c_avail(const struct p9_client *c);
/* Have at least need bytes buffered (exact: read no more). */
int p9c_fill(struct p9_client *c, size_t need, int exact, int intr,
	     const char *what);
/* Read exactly len bytes into buf, past the buffer. */
int p9c_read_into(struct p9_client *c, uint8_t *buf, size_t len,
		  const char *what);

#endif
