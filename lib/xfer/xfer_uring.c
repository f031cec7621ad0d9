/*
 * xfer_uring.c: send methods "uring" (IORING_OP_SEND from the user
 * buffer, one in flight, so the buffer is free when its completion
 * arrives) and "uring-zc" (IORING_OP_SEND_ZC with usage reporting, from
 * the source's mmap or the hot buffer). A SEND_ZC gives a result CQE and
 * later a notification CQE (IORING_CQE_F_NOTIF) whose res carries
 * IORING_NOTIF_USAGE_ZC_COPIED when the kernel copied the bytes after
 * all: those are counted in zc_copied. Without liburing both methods are
 * in the table but their probe says so.
 */
#include "config.h"
#include "ctr.h"
#include "xfer_int.h"

#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifdef HAVE_LIBURING
#include <liburing.h>
#include <sys/socket.h>

/* liburing 2.3 predates these (kernel 6.2 values) */
#ifndef IORING_SEND_ZC_REPORT_USAGE
#define IORING_SEND_ZC_REPORT_USAGE (1U << 3)
#endif
#ifndef IORING_NOTIF_USAGE_ZC_COPIED
#define IORING_NOTIF_USAGE_ZC_COPIED (1U << 31)
#endif

#define URING_ENTRIES 64	/* submission queue size */
#define URING_TAG_SEND 1	/* user_data of the send in flight */

struct uring_priv {
	struct io_uring ring;
	int zc;			/* 1: SEND_ZC */
	uint64_t pending;	/* notifications still to come */
};

static int kernel_at_least(int maj, int min)
{
	struct utsname u;
	int a = 0, b = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &a, &b) != 2)
		return 1;
	return a > maj || (a == maj && b >= min);
}

static int probe_op(int op, const char *opname, char *why, size_t len)
{
	struct io_uring_probe *p;
	struct io_uring ring;
	char v[16] = "";
	FILE *f;
	int r;

	f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
	if (f) {
		if (!fgets(v, sizeof(v), f))
			v[0] = '\0';
		fclose(f);
	}
	if (v[0] == '2') {
		snprintf(why, len, "io_uring disabled by sysctl kernel.io_uring_disabled=2");
		return -EPERM;
	}
	r = io_uring_queue_init(2, &ring, 0);
	if (r < 0) {
		snprintf(why, len, "io_uring_setup: %s%s", strerror(-r),
			 v[0] == '1' ? " (kernel.io_uring_disabled=1)" : "");
		return r;
	}
	p = io_uring_get_probe_ring(&ring);
	r = 0;
	if (!p || !io_uring_opcode_supported(p, op)) {
		snprintf(why, len, "kernel lacks %s", opname);
		r = -EOPNOTSUPP;
	}
	if (p)
		io_uring_free_probe(p);
	io_uring_queue_exit(&ring);
	return r;
}

static int uring_probe(char *why, size_t len)
{
	return probe_op(IORING_OP_SEND, "IORING_OP_SEND (5.6)", why, len);
}

static int uringzc_probe(char *why, size_t len)
{
	int r = probe_op(IORING_OP_SEND_ZC, "IORING_OP_SEND_ZC (6.0)", why,
			 len);

	if (r)
		return r;
	if (!kernel_at_least(6, 2)) {
		snprintf(why, len,
			 "kernel < 6.2 lacks IORING_SEND_ZC_REPORT_USAGE");
		return -EOPNOTSUPP;
	}
	snprintf(why, len,
		 "loopback and veth copy every send (counted as copied)");
	return 0;
}

static int uring_setup(struct xfer *x)
{
	struct uring_priv *u = x->priv;
	int r;

	u->zc = !!(x->ops->flags & XFER_ZEROCOPY);
	r = io_uring_queue_init(URING_ENTRIES, &u->ring, 0);
	if (r < 0)
		return xfer_fail(x, -r, "io_uring_queue_init");
	return 0;
}

static void uring_teardown(struct xfer *x)
{
	struct uring_priv *u = x->priv;

	io_uring_queue_exit(&u->ring);
}

/* Account one CQE; returns 1 when it is the send's result (res in *res). */
static int take_cqe(struct xfer *x, struct io_uring_cqe *cqe, int *res)
{
	struct uring_priv *u = x->priv;
	int mine = 0;

	if (cqe->flags & IORING_CQE_F_NOTIF) {
		x->zc_completions++;
		if ((uint32_t)cqe->res & IORING_NOTIF_USAGE_ZC_COPIED)
			x->zc_copied++;
		if (u->pending)
			u->pending--;
	} else if (cqe->user_data == URING_TAG_SEND) {
		*res = cqe->res;
		if (cqe->flags & IORING_CQE_F_MORE) {
			u->pending++;
			x->zc_sends++;
		}
		mine = 1;
	}
	io_uring_cqe_seen(&u->ring, cqe);
	return mine;
}

/*
 * Wait for CQEs until the send's result arrived (want_send) or no
 * notification is pending, at most timeout_ms. 0 or -errno.
 */
static int wait_cqes(struct xfer *x, int want_send, int *res, int timeout_ms)
{
	struct uring_priv *u = x->priv;
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	int r, waited = 0;

	while (want_send || u->pending) {
		ts.tv_sec = 0;
		ts.tv_nsec = 100 * 1000000LL;
		r = io_uring_wait_cqe_timeout(&u->ring, &cqe, &ts);
		if (r == -ETIME || r == -EINTR) {
			waited += 100;
			if (waited >= timeout_ms)
				return xfer_fail(x, ETIMEDOUT, "waiting for %s",
						 want_send ? "a send" :
							     "notifications");
			continue;
		}
		if (r < 0)
			return xfer_fail(x, -r, "io_uring_wait_cqe");
		if (take_cqe(x, cqe, res))
			want_send = 0;
	}
	return 0;
}

static ssize_t uring_send(struct xfer *x, uint64_t off, size_t len)
{
	struct uring_priv *u = x->priv;
	struct io_uring_sqe *sqe;
	const void *p;
	int r, e = 0, res = 0;

	if (u->zc) {
		p = xfer_map_data(x, off, len);
	} else {
		p = xfer_user_data(x, off, &len, &e);
		if (!p)
			return e;
	}
	sqe = io_uring_get_sqe(&u->ring);
	if (!sqe)
		return xfer_fail(x, EBUSY, "no free submission entry");
	if (u->zc)
		io_uring_prep_send_zc(sqe, x->sock, p, len, MSG_NOSIGNAL,
				      IORING_SEND_ZC_REPORT_USAGE);
	else
		io_uring_prep_send(sqe, x->sock, p, len, MSG_NOSIGNAL);
	sqe->user_data = URING_TAG_SEND;
	r = io_uring_submit(&u->ring);
	x->calls++;
	if (r < 0)
		return xfer_fail(x, -r, "io_uring_submit");
	r = wait_cqes(x, 1, &res, x->timeout_ms);
	if (r)
		return r;
	if (res < 0)
		return xfer_fail(x, -res, "%s", u->zc ? "SEND_ZC" : "SEND");
	ctr_add(&x->bytes, (uint64_t)res);
	return res;
}

static int uring_reap(struct xfer *x, int flush, int timeout_ms)
{
	struct uring_priv *u = x->priv;
	struct io_uring_cqe *cqe;
	int res;

	while (io_uring_peek_cqe(&u->ring, &cqe) == 0)
		take_cqe(x, cqe, &res);
	if (!flush)
		return 0;
	return wait_cqes(x, 0, &res, timeout_ms);
}

#define URING_HOOKS                                                          \
	.setup = uring_setup,                                                \
	.send = uring_send, .reap = uring_reap, .teardown = uring_teardown,  \
	.priv_size = sizeof(struct uring_priv)
#else /* !HAVE_LIBURING */

static int no_liburing(char *why, size_t len)
{
	snprintf(why, len, "built without liburing (configure --with-liburing)");
	return -ENOTSUP;
}
#define uring_probe no_liburing
#define uringzc_probe no_liburing
#define URING_HOOKS .send = NULL
#endif

XFER_METHOD(xfer_uring_ops, "uring", XFER_SEND, XFER_COPIES | XFER_HOT_BUF,
	    "io_uring IORING_OP_SEND from a user buffer (source read into it)",
	    .probe = uring_probe, URING_HOOKS);

XFER_METHOD(xfer_uringzc_ops, "uring-zc", XFER_SEND,
	    XFER_ZEROCOPY | XFER_HOT_BUF,
	    "io_uring IORING_OP_SEND_ZC from the source's mmap, usage reported",
	    .probe = uringzc_probe, URING_HOOKS);
