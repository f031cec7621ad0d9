/*
 * test_xfer.c: the transfer-method table: names and probes, the source,
 * the pattern check with its wrap detection, and every usable send method
 * against every usable receive method over loopback, byte-exact; a
 * stream bounded by a deadline stops soon after it; a temp source holds
 * the pattern at every offset, and a stop flag ends its making; the
 * flags the tools test hold (non-blocking, datagrams) and list the
 * methods the tools' messages name.
 */
#include "config.h"
#include "clock.h"
#include "sock.h"
#include "t.h"
#include "xfer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#define SRC_SIZE ((1u << 20) + 4099)	/* not a multiple of the unit */
#define TOTAL ((3u << 20) + 777)	/* wraps the source twice */
#define UNIT 65536

struct sender {
	const struct xfer_ops *ops;
	struct xfer_source *src;
	int fd;
	int64_t sent;
	uint64_t zc_sends, zc_completions, zc_copied;
	char err[256];
};

static void *send_thread(void *arg)
{
	struct sender *s = arg;
	struct xfer *x = xfer_open(s->ops, s->fd, s->src, UNIT, s->err,
				   sizeof(s->err));

	if (!x) {
		s->sent = -1;
		close(s->fd);
		return NULL;
	}
	s->sent = xfer_send_stream(x, 0, TOTAL, 0, NULL);
	if (s->sent < 0)
		snprintf(s->err, sizeof(s->err), "%s", x->err);
	s->zc_sends = x->zc_sends;
	s->zc_completions = x->zc_completions;
	s->zc_copied = x->zc_copied;
	xfer_close(x);
	shutdown(s->fd, SHUT_WR);
	close(s->fd);
	return NULL;
}

static void pair(int lfd, int port, const struct xfer_ops *so,
		 const struct xfer_ops *ro, struct xfer_source *src)
{
	struct sender s = { .ops = so, .src = src };
	char err[256];
	pthread_t t;
	struct xfer *x;
	int64_t got;
	int afd;

	s.fd = sock_connect("127.0.0.1", port, SOCK_STREAM, 2000, err,
			    sizeof(err));
	T_ASSERT(s.fd >= 0);
	afd = accept(lfd, NULL, NULL);
	T_ASSERT(afd >= 0);
	sock_set_timeout(afd, 10000);
	sock_set_timeout(s.fd, 10000);
	T_ASSERT(pthread_create(&t, NULL, send_thread, &s) == 0);
	x = xfer_open(ro, afd, NULL, UNIT, err, sizeof(err));
	if (!x)
		fprintf(stderr, "%s open: %s\n", ro->name, err);
	T_ASSERT(x);
	x->verify = 1;
	got = xfer_recv_stream(x, 0, 0, NULL);
	pthread_join(t, NULL);
	if (got != TOTAL || s.sent != TOTAL)
		fprintf(stderr, "%s -> %s: sent %lld (%s) got %lld (%s)\n",
			so->name, ro->name, (long long)s.sent, s.err,
			(long long)got, x->err);
	T_CHECK(s.sent == TOTAL);
	T_CHECK(got == TOTAL);
	T_CHECK(x->bytes == TOTAL);
	T_CHECK(x->calls > 0);
	if (ro->flags & XFER_SEES_BYTES) {
		/* the receiver saw the bytes: pattern and wrap exact */
		int hot = src->hot && (so->flags & XFER_HOT_BUF);

		T_CHECK(x->bad_bytes == 0);
		T_CHECK(x->period == (hot ? src->buflen : src->size));
	}
	if (ro->flags & XFER_ZEROCOPY)
		T_CHECK(x->rx_mapped + x->rx_copied == TOTAL);
	if (so->flags & XFER_ZEROCOPY) {
		/* every zero-copy send is accounted; loopback copies all */
		T_CHECK(s.zc_sends > 0);
		T_CHECK(s.zc_completions == s.zc_sends);
		T_CHECK(s.zc_copied == s.zc_completions);
	}
	xfer_close(x);
	close(afd);
}

struct drain {
	int fd;
	int slow_us;		/* pause between reads */
};

static void *drain_thread(void *arg)
{
	struct drain *d = arg;
	static char b[UNIT];

	while (read(d->fd, b, sizeof(b)) > 0)
		if (d->slow_us)
			usleep((useconds_t)d->slow_us);
	return NULL;
}

/* At the deadline, the calls the stream had made (late on a busy box:
 * then fewer are counted after it, never more). */
struct watch {
	const struct xfer *x;
	double at;
	uint64_t calls;
};

static void *watch_thread(void *arg)
{
	struct watch *w = arg;
	double left;

	while ((left = w->at - clock_now()) > 0)
		clock_sleep(left);
	w->calls = __atomic_load_n(&w->x->calls, __ATOMIC_RELAXED);
	return NULL;
}

/* A stream bounded by a deadline (total 0) stops soon after it, whether
 * calls are fast (the clock read every few calls) or slow (every call):
 * after the deadline it makes at most the stride of calls between two
 * clock reads (16) and the one under way, by count, not by time, so a
 * slow or loaded box changes nothing; a stream that ignored its deadline
 * would run on (a minute is a hang, not a speed). One already past
 * sends nothing. */
static void deadline_stream(int lfd, int port, struct xfer_source *src,
			    double secs, int slow_us)
{
	struct drain d = { .slow_us = slow_us };
	struct watch w = { 0 };
	char err[256];
	pthread_t t, wt;
	struct xfer *x;
	double t0, took;
	int64_t n;
	int fd;

	fd = sock_connect("127.0.0.1", port, SOCK_STREAM, 2000, err,
			  sizeof(err));
	T_ASSERT(fd >= 0);
	d.fd = accept(lfd, NULL, NULL);
	T_ASSERT(d.fd >= 0);
	sock_set_timeout(fd, 10000);
	T_ASSERT(pthread_create(&t, NULL, drain_thread, &d) == 0);
	x = xfer_open(xfer_find("write", XFER_SEND), fd, src, UNIT, err,
		      sizeof(err));
	T_ASSERT(x);
	t0 = clock_now();
	w.x = x;
	w.at = t0 + secs;
	if (secs > 0)
		T_ASSERT(pthread_create(&wt, NULL, watch_thread, &w) == 0);
	n = xfer_send_stream(x, 0, 0, secs > 0 ? t0 + secs : t0 - 1, NULL);
	took = clock_now() - t0;
	if (secs > 0) {
		pthread_join(wt, NULL);
		T_CHECK(n > 0 && (uint64_t)n == x->bytes);
		T_CHECK(took >= secs);
		T_CHECK(x->calls - w.calls <= 16 + 1);
		T_CHECK(took < secs + 60);
	} else {
		T_CHECK(n == 0);
		T_CHECK(x->calls == 0);
	}
	xfer_close(x);
	shutdown(fd, SHUT_WR);
	pthread_join(t, NULL);
	close(d.fd);
	close(fd);
}

static void test_verify(void)
{
	struct xfer x = { 0 };
	unsigned char b[64];

	pattern_fill(&xfer_stream_pattern, b, 1000, 40);
	pattern_fill(&xfer_stream_pattern, b + 40, 0, 24); /* wrapped */
	x.stream_off = 1000;
	x.verify = 1;
	xfer_verify_bytes(&x, b, sizeof(b));
	T_CHECK(x.bad_bytes == 0);
	T_CHECK(x.period == 1040);
	b[10] ^= 0x55; /* a real corruption is counted */
	x.stream_off = 1000;
	xfer_verify_bytes(&x, b, 40);
	T_CHECK(x.bad_bytes == 1);
}

/* A temp source (made from one repeated block) holds the pattern at
 * every offset, up to an odd end; one asked to stop is not made. */
static void test_temp_source(void)
{
	static unsigned char want[1 << 20];
	volatile sig_atomic_t stop = 0;
	struct xfer_source src;
	uint64_t size = (7u << 20) + 4321, off;
	size_t n;
	char err[256];

	T_ASSERT(xfer_source_open(&src, NULL, size, UNIT, 0, 0, 0, &stop, err,
				  sizeof(err)) == 0);
	T_CHECK(src.size == size);
	for (off = 0; off < size; off += n) {
		n = size - off < sizeof(want) ? (size_t)(size - off) :
						sizeof(want);
		pattern_fill(&xfer_stream_pattern, want, off, n);
		T_CHECK(!memcmp((const char *)src.map + off, want, n));
	}
	xfer_source_close(&src);
	stop = 2;
	T_CHECK(xfer_source_open(&src, NULL, size, UNIT, 0, 0, 0, &stop, err,
				 sizeof(err)) == -EINTR);
	T_CHECK(strstr(err, "stopped by a signal after 0 of") != NULL);
	T_CHECK(src.fd == -1 && src.map == NULL);
}

/* xfer_names lists one direction's methods in the table's order, and
 * --method resolves to the table's entry. */
static void test_names(void)
{
	char want[512] = "";
	int i;

	for (i = 0; xfer_table[i]; i++)
		if (xfer_table[i]->dir == XFER_RECV)
			snprintf(want + strlen(want),
				 sizeof(want) - strlen(want), "%s%s",
				 want[0] ? "," : "", xfer_table[i]->name);
	T_STREQ(xfer_names(XFER_RECV), want);
	T_CHECK(strstr(want, "read,") == want);
	T_CHECK(xfer_cli_method("-m", "splice", XFER_RECV) ==
		xfer_find("splice", XFER_RECV));
	T_CHECK(xfer_cli_method("--method", "splice", XFER_SEND) ==
		xfer_find("splice", XFER_SEND));
	T_CHECK(xfer_find("splice", XFER_SEND) !=
		xfer_find("splice", XFER_RECV));
}

/* The lists the tools' messages are made of: the methods with some
 * flags, in the table's order (ttcp-sf's -u, -P and --rr messages). */
static void test_lists(void)
{
	char b[256];

	T_STREQ(xfer_list(XFER_DGRAM, XFER_SEND, "or", b, sizeof(b)),
		"write or send");
	T_STREQ(xfer_list(XFER_DGRAM, XFER_RECV, "or", b, sizeof(b)), "read");
	T_STREQ(xfer_list(XFER_NONBLOCK, XFER_SEND, "and", b, sizeof(b)),
		"write, send, sendfile, mmap and msg-zerocopy");
	T_STREQ(xfer_list(XFER_NONBLOCK, XFER_RECV, "or", b, sizeof(b)),
		"read or trunc");
	T_STREQ(xfer_list(XFER_PLAIN, XFER_EITHER, "and", b, sizeof(b)),
		"write and read");
	T_STREQ(xfer_list(XFER_PLAIN | XFER_ZEROCOPY, XFER_EITHER, "and", b,
			  sizeof(b)), "");
	/* a short buffer is cut, never overrun */
	T_STREQ(xfer_list(XFER_NONBLOCK, XFER_SEND, "and", b, 8), "write, ");
}

/* A connected pair: TCP through lfd, or UDP (lfd < 0). */
static void connected(int lfd, int port, int fd[2])
{
	struct sockaddr_in a[2];
	socklen_t l = sizeof(a[0]);
	char err[256];
	int i;

	if (lfd >= 0) {
		fd[0] = sock_connect("127.0.0.1", port, SOCK_STREAM, 2000, err,
				     sizeof(err));
		T_ASSERT(fd[0] >= 0);
		fd[1] = accept(lfd, NULL, NULL);
		T_ASSERT(fd[1] >= 0);
		return;
	}
	for (i = 0; i < 2; i++) {
		memset(&a[i], 0, sizeof(a[i]));
		a[i].sin_family = AF_INET;
		a[i].sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		fd[i] = socket(AF_INET, SOCK_DGRAM, 0);
		T_ASSERT(fd[i] >= 0);
		T_ASSERT(bind(fd[i], (struct sockaddr *)&a[i], l) == 0);
		T_ASSERT(getsockname(fd[i], (struct sockaddr *)&a[i], &l) == 0);
	}
	for (i = 0; i < 2; i++)
		T_ASSERT(connect(fd[i], (struct sockaddr *)&a[!i], l) == 0);
}

/*
 * XFER_NONBLOCK: on a non-blocking socket that can take nothing (a send
 * socket whose buffers are full, a receive socket with nothing queued)
 * the method's call returns -EAGAIN at once, no error recorded. A method
 * that waited would hang here: the alarm ends the test then.
 */
static void test_nonblock(int lfd, int port, struct xfer_source *src)
{
	static char fill[UNIT];
	char err[256];
	int fd[2], i;

	connected(lfd, port, fd);
	sock_set_bufs(fd[0], 4096, 0);
	sock_set_bufs(fd[1], 0, 4096);
	T_ASSERT(sock_set_nonblock(fd[0], 1) == 0);
	T_ASSERT(sock_set_nonblock(fd[1], 1) == 0);
	while (write(fd[0], fill, sizeof(fill)) > 0)
		; /* until both buffers are full */
	T_CHECK(errno == EAGAIN);
	alarm(60);
	for (i = 0; xfer_table[i]; i++) {
		const struct xfer_ops *o = xfer_table[i];
		struct xfer *x;
		ssize_t r;

		if (!(o->flags & XFER_NONBLOCK) || xfer_probe(o, err,
							       sizeof(err)))
			continue;
		/* fd[0]: its send side is full, its receive side empty */
		x = xfer_open(o, fd[0], src, UNIT, err, sizeof(err));
		T_ASSERT(x);
		r = o->dir == XFER_SEND ? o->send(x, 0, UNIT) : o->recv(x, UNIT);
		if (r != -EAGAIN)
			fprintf(stderr, "%s: %zd (%s), not -EAGAIN\n", o->name,
				r, x->err);
		T_CHECK(r == -EAGAIN && !x->err[0]);
		xfer_close(x);
	}
	alarm(0);
	close(fd[0]);
	close(fd[1]);
}

/* XFER_DGRAM: on a UDP socket a send call is one datagram of its bytes,
 * a receive call takes one datagram. */
static void test_dgram(struct xfer_source *src)
{
	char err[256], b[512];
	int fd[2], i;

	connected(-1, 0, fd);
	sock_set_timeout(fd[0], 10000);
	sock_set_timeout(fd[1], 10000);
	for (i = 0; xfer_table[i]; i++) {
		const struct xfer_ops *o = xfer_table[i];
		struct xfer *x;

		if (!(o->flags & XFER_DGRAM))
			continue;
		x = xfer_open(o, fd[0], src, 100, err, sizeof(err));
		T_ASSERT(x);
		if (o->dir == XFER_SEND) {
			T_CHECK(o->send(x, 0, 100) == 100);
			T_CHECK(o->send(x, 100, 70) == 70);
			T_CHECK(recv(fd[1], b, sizeof(b), 0) == 100);
			T_CHECK(recv(fd[1], b, sizeof(b), 0) == 70);
		} else {
			T_CHECK(send(fd[1], b, 50, 0) == 50);
			T_CHECK(send(fd[1], b, 30, 0) == 30);
			T_CHECK(o->recv(x, 100) == 50);
			T_CHECK(o->recv(x, 100) == 30);
		}
		xfer_close(x);
	}
	close(fd[0]);
	close(fd[1]);
}

int main(void)
{
	struct xfer_source src;
	char err[256], why[256];
	int i, j, lfd, port = 0, hot;

	T_CHECK(xfer_find("sendfile", XFER_SEND) != NULL);
	T_CHECK(xfer_find("sendfile", XFER_RECV) == NULL);
	T_CHECK(xfer_find("splice", XFER_RECV) != NULL);
	T_CHECK(xfer_find("nope", XFER_SEND) == NULL);
	test_names();
	test_lists();
	T_CHECK(xfer_probe(xfer_find("write", XFER_SEND), why, sizeof(why)) ==
		0);
	test_verify();
	test_temp_source();

	T_CHECK(xfer_source_open(&src, "/nonexistent/x", 0, 4096, 0, 0, 0,
				 NULL, err, sizeof(err)) == -ENOENT);
	T_CHECK(xfer_source_open(&src, NULL, 4096, 4096, 3, 0, 0, NULL, err,
				 sizeof(err)) == -EINVAL);

	lfd = sock_listen("127.0.0.1", 0, SOCK_STREAM, 8, &port, err,
			  sizeof(err));
	T_ASSERT(lfd >= 0);
	for (hot = 0; hot <= 1; hot++) {
		T_ASSERT(xfer_source_open(&src, NULL, SRC_SIZE, UNIT, 0, 7,
					  hot, NULL, err, sizeof(err)) == 0);
		T_CHECK(src.size == SRC_SIZE);
		T_CHECK(((uintptr_t)src.buf & 4095) == 7);
		T_CHECK((unsigned char)src.buf[5] ==
				pattern_byte(&xfer_stream_pattern, 5) ||
			!hot);
		for (i = 0; xfer_table[i]; i++) {
			const struct xfer_ops *so = xfer_table[i];

			if (so->dir != XFER_SEND)
				continue;
			if (xfer_probe(so, why, sizeof(why))) {
				printf("skip %s: %s\n", so->name, why);
				continue;
			}
			for (j = 0; xfer_table[j]; j++) {
				const struct xfer_ops *ro = xfer_table[j];

				if (ro->dir != XFER_RECV ||
				    xfer_probe(ro, why, sizeof(why)))
					continue;
				pair(lfd, port, so, ro, &src);
			}
		}
		xfer_source_close(&src);
	}
	T_ASSERT(xfer_source_open(&src, NULL, SRC_SIZE, UNIT, 0, 0, 1, NULL,
				  err, sizeof(err)) == 0);
	deadline_stream(lfd, port, &src, 0.3, 0);
	deadline_stream(lfd, port, &src, 0.3, 20000);
	deadline_stream(lfd, port, &src, -1, 0);
	test_nonblock(lfd, port, &src);
	test_dgram(&src);
	xfer_source_close(&src);
	close(lfd);
	return t_done();
}
