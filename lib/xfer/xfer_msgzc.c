/*
 * xfer_msgzc.c: send method "msg-zerocopy": SO_ZEROCOPY and send(2) with
 * MSG_ZEROCOPY from the mmap of the source (or the hot buffer, whose
 * bytes never change), completions reaped from the socket's error queue.
 * A completion flagged SO_EE_CODE_ZEROCOPY_COPIED means the kernel copied
 * after all (loopback and veth always do): those are counted in zc_copied.
 * See the kernel's Documentation/networking/msg_zerocopy.rst.
 */
#include "config.h"
#include "ctr.h"
#include "xfer_int.h"

#include <linux/errqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif
#ifndef SO_EE_ORIGIN_ZEROCOPY
#define SO_EE_ORIGIN_ZEROCOPY 5
#endif
#ifndef SO_EE_CODE_ZEROCOPY_COPIED
#define SO_EE_CODE_ZEROCOPY_COPIED 1
#endif

static int msgzc_probe(char *why, size_t len)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1, r = 0;

	if (fd < 0) {
		snprintf(why, len, "socket: %s", strerror(errno));
		return -errno;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one))) {
		r = -errno;
		snprintf(why, len, "SO_ZEROCOPY refused: %s (kernel < 4.14?)",
			 strerror(errno));
	} else {
		snprintf(why, len,
			 "loopback and veth copy every send (counted as copied)");
	}
	close(fd);
	return r;
}

static int msgzc_setup(struct xfer *x)
{
	int one = 1;

	if (setsockopt(x->sock, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)))
		return xfer_fail(x, errno, "setsockopt SO_ZEROCOPY");
	return 0;
}

/* Read what the error queue holds; 1 if something was read, 0 if empty. */
static int drain_errqueue(struct xfer *x, int *errp)
{
	char control[128];
	struct msghdr msg;
	struct cmsghdr *cm;
	int got = 0;

	for (;;) {
		memset(&msg, 0, sizeof(msg));
		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
		if (recvmsg(x->sock, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return got;
			*errp = xfer_fail(x, errno, "recvmsg MSG_ERRQUEUE");
			return got;
		}
		for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
			struct sock_extended_err ee;
			uint64_t n;

			if (!((cm->cmsg_level == SOL_IP &&
			       cm->cmsg_type == IP_RECVERR) ||
			      (cm->cmsg_level == SOL_IPV6 &&
			       cm->cmsg_type == IPV6_RECVERR)))
				continue;
			if (cm->cmsg_len < CMSG_LEN(sizeof(ee)))
				continue;
			memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
			if (ee.ee_origin != SO_EE_ORIGIN_ZEROCOPY) {
				if (ee.ee_errno) {
					*errp = xfer_fail(x, (int)ee.ee_errno,
							  "socket error");
					return got;
				}
				continue;
			}
			/* completions ee_info..ee_data inclusive (32-bit ids) */
			n = (uint32_t)(ee.ee_data - ee.ee_info) + 1ull;
			x->zc_completions += n;
			if (ee.ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
				x->zc_copied += n;
			got = 1;
		}
	}
}

static int msgzc_reap(struct xfer *x, int flush, int timeout_ms)
{
	struct pollfd pfd = { .fd = x->sock, .events = 0 };
	int e = 0, waited = 0;

	drain_errqueue(x, &e);
	while (!e && flush && x->zc_completions < x->zc_sends) {
		if (waited >= timeout_ms)
			return xfer_fail(x, ETIMEDOUT,
					 "waiting for %llu completions",
					 (unsigned long long)(x->zc_sends -
							      x->zc_completions));
		/* the error queue signals as POLLERR */
		if (poll(&pfd, 1, 10) < 0 && errno != EINTR)
			return xfer_fail(x, errno, "poll");
		waited += 10;
		drain_errqueue(x, &e);
	}
	return e;
}

static ssize_t msgzc_send(struct xfer *x, uint64_t off, size_t len)
{
	const void *p = xfer_map_data(x, off, len);
	int e, waited = 0;
	ssize_t r;

	for (;;) {
		r = send(x->sock, p, len, MSG_ZEROCOPY | MSG_NOSIGNAL);
		x->calls++;
		if (r >= 0 || errno != ENOBUFS)
			break;
		/* too much pinned (optmem): wait for completions */
		e = 0;
		if (!drain_errqueue(x, &e) && !e) {
			if (waited >= x->timeout_ms)
				return xfer_fail(x, ENOBUFS,
						 "no completions freed buffers");
			poll(&(struct pollfd){ .fd = x->sock }, 1, 10);
			waited += 10;
		}
		if (e)
			return e;
	}
	if (r < 0)
		return errno == EINTR ? -EINTR :
					xfer_fail(x, errno, "send MSG_ZEROCOPY");
	if (r > 0)
		x->zc_sends++;
	ctr_add(&x->bytes, (uint64_t)r);
	return r;
}

XFER_METHOD(xfer_msgzc_ops, "msg-zerocopy", XFER_SEND,
	    XFER_HOT_BUF | XFER_ZEROCOPY | XFER_NONBLOCK,
	    "send(2) MSG_ZEROCOPY from the source's mmap, error-queue completions",
	    .probe = msgzc_probe, .setup = msgzc_setup,
	    .send = msgzc_send, .reap = msgzc_reap);
