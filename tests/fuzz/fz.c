/*
 * fz.c: the fuzz targets' shared helpers (see fz.h): input reading,
 * chunk sizes, and the scripted peer thread that feeds the code under
 * test over socketpairs or loopback TCP one chunk at a time.
 */
#include "config.h"
#include "fz.h"
#include "sock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <linux/tcp.h> /* tcp_info with tcpi_bytes_received */
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

uint8_t fz_u8(struct fz_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

uint16_t fz_u16(struct fz_in *in)
{
	uint16_t hi = fz_u8(in);

	return (uint16_t)(hi << 8 | fz_u8(in));
}

uint32_t fz_u32(struct fz_in *in)
{
	uint32_t hi = fz_u16(in);

	return hi << 16 | fz_u16(in);
}

void fz_split_init(struct fz_split *s, uint8_t split)
{
	s->rng = 2463534242u ^ (uint32_t)split * 2654435761u;
	s->max = split ? (size_t)1 << (split % 13) : 0;
}

size_t fz_split_next(struct fz_split *s, size_t left)
{
	size_t k;

	if (!s->max || !left)
		return left;
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 17;
	s->rng ^= s->rng << 5;
	k = 1 + s->rng % s->max;
	return k < left ? k : left;
}

FILE *fz_null(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		abort();
	return f;
}

static int same_addr(const struct sockaddr_storage *a, socklen_t al,
		     const struct sockaddr_storage *b, socklen_t bl)
{
	return al == bl && !memcmp(a, b, al);
}

/* rfd is still the other end of TCP connection wfd. */
static int same_conn(int wfd, int rfd)
{
	struct sockaddr_storage a, b;
	socklen_t al = sizeof(a), bl = sizeof(b);

	return !getsockname(wfd, (struct sockaddr *)&a, &al) &&
	       !getpeername(rfd, (struct sockaddr *)&b, &bl) &&
	       same_addr(&a, al, &b, bl);
}

int fz_other_end(int fd)
{
	struct sockaddr_storage me, peer, a;
	socklen_t ml = sizeof(me), pl = sizeof(peer), l;
	struct dirent *e;
	int i, found = -1;
	DIR *d;

	if (getsockname(fd, (struct sockaddr *)&me, &ml) ||
	    getpeername(fd, (struct sockaddr *)&peer, &pl) ||
	    me.ss_family == AF_UNIX)
		return -1;
	d = opendir("/proc/self/fd"); /* only the fds in use */
	if (!d)
		return -1;
	while (found < 0 && (e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		i = atoi(e->d_name);
		if (i == fd || i == dirfd(d))
			continue;
		l = sizeof(a);
		if (getsockname(i, (struct sockaddr *)&a, &l) ||
		    !same_addr(&a, l, &peer, pl))
			continue;
		l = sizeof(a);
		if (!getpeername(i, (struct sockaddr *)&a, &l) &&
		    same_addr(&a, l, &me, ml))
			found = i;
	}
	closedir(d);
	return found;
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/*
 * Nothing of the sent bytes written to wfd is still waiting to be read.
 * TCP: rfd's receive counter has reached sent (the data arrived: on
 * loopback an ACK may wait 40 ms, so wfd's queue tells nothing) and rfd
 * holds nothing unread. Unix: wfd's queue counts the bytes until read.
 */
static int all_read(int wfd, int rfd, uint64_t sent)
{
	struct tcp_info ti;
	socklen_t tl = sizeof(ti);
	int out = 0, in = 0;

	if (!getsockopt(wfd, IPPROTO_TCP, TCP_INFO, &ti, &tl) && rfd >= 0) {
		if (!same_conn(wfd, rfd) ||
		    getsockopt(rfd, IPPROTO_TCP, TCP_INFO, &ti, &tl))
			return 1; /* rfd is gone: nobody will read more */
		if (ti.tcpi_bytes_received < sent)
			return 0;
		return ioctl(rfd, FIONREAD, &in) || in == 0;
	}
	if (ioctl(wfd, SIOCOUTQ, &out))
		return 1; /* gone: nothing more to wait for */
	if (rfd >= 0 && ioctl(rfd, FIONREAD, &in))
		in = 0;
	return out == 0 && in == 0;
}

/* Back off: spin a little (the reader is usually quick), then sleep. */
static void pause_a_bit(int round)
{
	struct timespec ts = {0, 50000};

	if (round < 64)
		sched_yield();
	else
		nanosleep(&ts, NULL);
}

int fz_wait_read(int wfd, int rfd, uint64_t sent, int ms)
{
	double end = now_ms() + ms;
	int round;

	for (round = 0; !all_read(wfd, rfd, sent); round++) {
		if (now_ms() > end)
			return -1;
		pause_a_bit(round);
	}
	return 0;
}

/* ---- the scripted peer ---- */

static int stopped(struct fz_peer *p)
{
	return __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE);
}

/* Read and count what the code under test sent; 1 when every
 * connection has hung up. */
static int drain(struct fz_peer *p)
{
	uint8_t junk[16384];
	int i, eof = 0;
	ssize_t r;

	for (i = 0; i < p->n; i++) {
		if (p->fd[i] < 0) {
			eof++;
			continue;
		}
		while ((r = read(p->fd[i], junk, sizeof(junk))) > 0)
			p->got += (size_t)r;
		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
			eof++;
	}
	return eof == p->n;
}

/* Wait until connection i's reader took what was sent; -1 when it did
 * not within ms (it may have stopped reading for good). */
static int wait_read(struct fz_peer *p, int i, int ms)
{
	double end = now_ms() + ms;
	int round;

	for (round = 0; !stopped(p); round++) {
		drain(p);
		if (all_read(p->fd[i], p->other[i], p->sent[i]))
			return 0;
		if (now_ms() > end)
			return -1;
		pause_a_bit(round);
	}
	return 0;
}

/* Send all of b[0..len) on connection i; -1 when it is gone. */
static int send_all(struct fz_peer *p, int i, const uint8_t *b, size_t len)
{
	struct pollfd pf = {.fd = p->fd[i], .events = POLLOUT};
	ssize_t w;

	while (len && !stopped(p)) {
		w = send(p->fd[i], b, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w > 0) {
			p->sent[i] += (uint64_t)w;
			b += w;
			len -= (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
		drain(p);
		poll(&pf, 1, 1);
	}
	return 0;
}

static int accept_all(struct fz_peer *p)
{
	struct pollfd pf = {.fd = p->lfd, .events = POLLIN};
	double end = now_ms() + 3000;
	int i, fd;

	for (i = 0; i < p->n;) {
		if (stopped(p) || now_ms() > end)
			return -1;
		if (poll(&pf, 1, 10) <= 0)
			continue;
		fd = accept4(p->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		sock_set_nodelay(fd, 1); /* each chunk goes out at once */
		p->fd[i] = fd;
		p->other[i] = fz_other_end(fd);
		i++;
	}
	return 0;
}

static void *peer_main(void *arg)
{
	struct fz_peer *p = arg;
	size_t off[FZ_PEER_MAX] = {0}, k;
	int i, more, deaf[FZ_PEER_MAX] = {0};
	struct fz_split sp;

	if (p->lfd >= 0 && accept_all(p))
		goto wait;
	fz_split_init(&sp, p->split);
	do {
		more = 0;
		for (i = 0; i < p->n && !stopped(p); i++) {
			if (off[i] >= p->len[i])
				continue;
			k = fz_split_next(&sp, p->len[i] - off[i]);
			if (send_all(p, i, p->data[i] + off[i], k)) {
				off[i] = p->len[i];
				continue;
			}
			off[i] += k;
			/* a reader that stopped reading is not waited for
			 * again: the others would stall behind it */
			if (!deaf[i] && wait_read(p, i, 30))
				deaf[i] = 1;
			more |= off[i] < p->len[i];
		}
	} while (more && !stopped(p));
	for (i = 0; i < p->n; i++)
		if (p->fd[i] >= 0)
			shutdown(p->fd[i], SHUT_WR);
wait:
	while (!stopped(p) && !drain(p)) {
		struct pollfd pf[FZ_PEER_MAX];

		for (i = 0; i < p->n; i++) {
			pf[i].fd = p->fd[i];
			pf[i].events = POLLIN;
		}
		poll(pf, (nfds_t)p->n, 5);
	}
	return NULL;
}

static void peer_init(struct fz_peer *p)
{
	int i;

	signal(SIGPIPE, SIG_IGN);
	memset(p, 0, sizeof(*p));
	p->lfd = -1;
	for (i = 0; i < FZ_PEER_MAX; i++)
		p->fd[i] = p->other[i] = -1;
}

int fz_peer_pair(struct fz_peer *p, const uint8_t *data, size_t len,
		 uint8_t split, int *fd)
{
	int sv[2];

	peer_init(p);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	p->n = 1;
	p->fd[0] = sv[1];
	p->other[0] = sv[0];
	p->data[0] = data;
	p->len[0] = len;
	p->split = split;
	if (pthread_create(&p->th, NULL, peer_main, p)) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	*fd = sv[0];
	return 0;
}

static int lfd = -1, lport; /* the one listening socket */

int fz_peer_tcp(struct fz_peer *p, int n, const uint8_t *const *data,
		const size_t *len, uint8_t split, int *port)
{
	char err[256];
	int i;

	peer_init(p);
	if (n < 1 || n > FZ_PEER_MAX)
		return -1;
	if (lfd < 0) {
		lfd = sock_listen("127.0.0.1", 0, SOCK_STREAM, 64, &lport, err,
				  sizeof(err));
		if (lfd < 0) {
			fprintf(stderr, "fz: %s\n", err);
			abort();
		}
		fcntl(lfd, F_SETFL, O_NONBLOCK);
	}
	p->n = n;
	p->lfd = lfd;
	for (i = 0; i < n; i++) {
		p->data[i] = data[i];
		p->len[i] = len[i];
	}
	p->split = split;
	if (pthread_create(&p->th, NULL, peer_main, p))
		return -1;
	*port = lport;
	return 0;
}

void fz_peer_end(struct fz_peer *p)
{
	int i, fd;

	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	pthread_join(p->th, NULL);
	for (i = 0; i < p->n; i++)
		if (p->fd[i] >= 0)
			close(p->fd[i]);
	/* connections the code under test made but the peer never took */
	while (p->lfd >= 0 &&
	       (fd = accept4(p->lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0)
		close(fd);
}
