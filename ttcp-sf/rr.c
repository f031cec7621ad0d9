/*
 * rr.c: what both sides of request/response share (rr.h): the setup
 * frame, the UDP sequence stamp, and whole reads and writes that rely on
 * the socket's own timeouts (one syscall per step: a transaction of a
 * byte each way is two syscalls on each side, as in netperf).
 */
#include "config.h"
#include "rr.h"
#include "sig.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void rr_stamp_put(unsigned char *b, size_t size, uint64_t seq)
{
	uint32_t be = htonl((uint32_t)seq);

	memcpy(b, (unsigned char *)&be + 4 - (size < 4 ? size : 4),
	       size < 4 ? size : 4);
}

uint32_t rr_stamp_get(const unsigned char *b, size_t size)
{
	size_t n = size < 4 ? size : 4, i;
	uint32_t v = 0;

	for (i = 0; i < n; i++)
		v = v << 8 | b[i];
	return v;
}

/* len bytes read (out: sent) whole, or fewer at EOF; -errno, -ETIMEDOUT
 * when the socket's timeout passed, -EIO when a send moved nothing; a
 * signal that stops the run ends it. */
static ssize_t rr_full(int fd, char *buf, size_t len, int out)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = out ? send(fd, buf + done, len - done, MSG_NOSIGNAL)
			: read(fd, buf + done, len - done);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n == 0 && !out)
			break;
		if (n < 0 && errno == EINTR && !sig_stop)
			continue;
		return n == 0 ? -EIO : errno == EAGAIN ? -ETIMEDOUT : -errno;
	}
	return (ssize_t)done;
}

ssize_t rr_read_full(int fd, void *buf, size_t len)
{
	return rr_full(fd, buf, len, 0);
}

ssize_t rr_write_full(int fd, const void *buf, size_t len)
{
	return rr_full(fd, (char *)buf, len, 1);
}
