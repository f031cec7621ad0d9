/*
 * xfer_zcrx.c: receive method "zerocopy-receive": TCP_ZEROCOPY_RECEIVE
 * maps whole received pages into an mmap of the socket instead of copying
 * them (the kernel's selftests/net/tcp_mmap.c). It maps only page-sized,
 * page-aligned payload: with a 1500 or 65536 MTU (loopback, veth) most
 * bytes cannot be mapped, and the kernel says to read them instead
 * (recv_skip_hint): those are read with read(2) and counted in rx_copied,
 * the mapped ones in rx_mapped.
 */
#include "config.h"
#include "ctr.h"
#include "xfer_int.h"
#include "sock.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef TCP_ZEROCOPY_RECEIVE
#define TCP_ZEROCOPY_RECEIVE 35
#endif

/* The kernel's struct tcp_zerocopy_receive up to flags (glibc's is older);
 * the kernel accepts any length from offsetofend(length). */
struct zcrx_req {
	uint64_t address;	/* in: mapping address */
	uint32_t length;	/* in/out: bytes to map / mapped */
	uint32_t recv_skip_hint; /* out: bytes to read instead */
	uint32_t inq;		/* out: bytes in the read queue */
	int32_t err;		/* out: socket error */
	uint64_t copybuf_address; /* in: not used (0) */
	int32_t copybuf_len;	/* in/out: not used (0) */
	uint32_t flags;		/* in */
};

struct zcrx_priv {
	void *map;		/* PROT_READ mapping of the socket */
	size_t maplen;
	size_t pg;
};

/* One getsockopt: mapped bytes in *mapped, to-read bytes in *skip. */
static int zc_get(int fd, void *addr, size_t len, uint32_t *mapped,
		  uint32_t *skip)
{
	struct zcrx_req z;
	socklen_t zl = sizeof(z);

	memset(&z, 0, sizeof(z));
	z.address = (uint64_t)(uintptr_t)addr;
	z.length = (uint32_t)len;
	if (getsockopt(fd, IPPROTO_TCP, TCP_ZEROCOPY_RECEIVE, &z, &zl))
		return -errno;
	if (z.err)
		return -z.err;
	*mapped = z.length;
	*skip = z.recv_skip_hint;
	return 0;
}

static int zcrx_probe(char *why, size_t len)
{
	int lfd, cfd = -1, afd = -1, port = 0, r;
	size_t n = 256 * 1024;
	uint32_t mapped = 0, skip = 0;
	char err[128], *buf = calloc(1, n);
	void *m = MAP_FAILED;

	lfd = sock_listen("127.0.0.1", 0, SOCK_STREAM, 1, &port, err,
			  sizeof(err));
	if (lfd >= 0)
		cfd = sock_connect("127.0.0.1", port, SOCK_STREAM, 1000, err,
				   sizeof(err));
	if (cfd >= 0)
		afd = accept(lfd, NULL, NULL);
	r = -EIO;
	snprintf(why, len, "could not test on loopback: %s", err);
	if (afd >= 0 && buf) {
		m = mmap(NULL, n, PROT_READ, MAP_SHARED, afd, 0);
		if (m == MAP_FAILED) {
			r = -errno;
			snprintf(why, len, "mmap of a TCP socket: %s",
				 strerror(errno));
		} else if (sock_write_full(cfd, buf, n, 1000) == (ssize_t)n &&
			   sock_wait(afd, POLLIN, 1000) == 1) {
			usleep(20000); /* let the rest arrive */
			r = zc_get(afd, m, n, &mapped, &skip);
			if (r == -ENOPROTOOPT || r == -EOPNOTSUPP)
				snprintf(why, len,
					 "kernel lacks TCP_ZEROCOPY_RECEIVE (4.18)");
			else if (r)
				snprintf(why, len, "TCP_ZEROCOPY_RECEIVE: %s",
					 strerror(-r));
			else
				snprintf(why, len,
					 "loopback test mapped %u bytes, %u to read by copy%s",
					 mapped, skip,
					 mapped ? "" :
						  " (nothing mappable: it falls back to read)");
		}
	}
	if (m != MAP_FAILED)
		munmap(m, n);
	free(buf);
	if (afd >= 0)
		close(afd);
	if (cfd >= 0)
		close(cfd);
	if (lfd >= 0)
		close(lfd);
	return r;
}

static int zcrx_setup(struct xfer *x)
{
	struct zcrx_priv *z = x->priv;

	z->pg = (size_t)sysconf(_SC_PAGESIZE);
	z->maplen = (x->unit + z->pg - 1) / z->pg * z->pg;
	z->map = mmap(NULL, z->maplen, PROT_READ, MAP_SHARED, x->sock, 0);
	if (z->map == MAP_FAILED) {
		z->map = NULL;
		return xfer_fail(x, errno, "mmap of the socket");
	}
	return 0;
}

static void zcrx_teardown(struct xfer *x)
{
	struct zcrx_priv *z = x->priv;

	if (z->map)
		munmap(z->map, z->maplen);
}

static ssize_t read_some(struct xfer *x, size_t len)
{
	ssize_t r = xfer_took(x, read(x->sock, x->rbuf, len), "read");

	if (r > 0) {
		x->rx_copied += (uint64_t)r;
		xfer_got(x, (const unsigned char *)x->rbuf, (size_t)r);
	}
	return r;
}

static ssize_t zcrx_recv(struct xfer *x, size_t len)
{
	struct zcrx_priv *z = x->priv;
	size_t want = len / z->pg * z->pg;
	uint32_t mapped, skip;
	char c;
	int r;

	if (!want) /* less than a page asked: nothing to map */
		return read_some(x, len);
	for (;;) {
		r = zc_get(x->sock, z->map, want, &mapped, &skip);
		x->calls++;
		if (r == -EIO) { /* the kernel's "no data and done" */
			if (recv(x->sock, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0)
				return 0;
			r = 0;
			mapped = skip = 0;
		}
		if (r == -EINTR)
			return -EINTR;
		if (r)
			return xfer_fail(x, -r, "TCP_ZEROCOPY_RECEIVE");
		if (mapped) {
			x->rx_mapped += mapped;
			ctr_add(&x->bytes, mapped);
			xfer_got(x, z->map, mapped);
			return mapped;
		}
		if (skip)
			return read_some(x, skip < len ? skip : len);
		r = sock_wait(x->sock, POLLIN, x->timeout_ms);
		if (r == 0)
			return xfer_fail(x, ETIMEDOUT, "waiting for data");
		if (r < 0)
			return r == -EINTR ? -EINTR : xfer_fail(x, -r, "poll");
	}
}

XFER_METHOD(xfer_zcrx_ops, "zerocopy-receive", XFER_RECV,
	    XFER_ZEROCOPY | XFER_SEES_BYTES,
	    "TCP_ZEROCOPY_RECEIVE: map received pages (unmappable bytes read)",
	    .probe = zcrx_probe, .setup = zcrx_setup, .recv = zcrx_recv,
	    .teardown = zcrx_teardown, .priv_size = sizeof(struct zcrx_priv));
