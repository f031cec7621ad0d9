/*
 * soak_host.c: the soak host (see soak.h): it binds the box's soak
 * socket, makes the shared counters, starts the soakers (soak_soakers.c),
 * hands each client the counters and parks or wakes the soakers as the
 * clients ask, and goes when the last client has gone. It is forked from
 * whatever process opens the box's first soak window, so after the fork
 * it uses only system calls and static buffers (the opener may have
 * threads holding malloc's lock).
 */
#include "config.h"
#include "soak.h"
#include "soak_int.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define SOAK_MAX_CLIENTS 256	      /* connections one host serves */
#define SOAK_IDLE_EXIT_S 10	      /* a host nobody joined exits */

static volatile sig_atomic_t host_term;

struct host {
	int lfd; /* listening socket */
	int mfd; /* the counters' memfd */
	void *map;
	size_t map_len;
	struct shm_hdr *hdr;
	struct soak_set set; /* the soakers */
	struct soak_cg cg;
	char path[256]; /* socket path */
	ino_t ino;	/* of the socket file we bound */
	int cl[SOAK_MAX_CLIENTS];
	char holds[SOAK_MAX_CLIENTS]; /* 1: this client wants them parked */
	int ncl;
	int parked; /* the soakers are told to park */
	uint64_t accept_after; /* EMFILE: listener rests until (clock_ns) */
	int ever;      /* a client has connected */
	char err[200]; /* set-up failure */
	int status;
};

static void on_term(int s)
{
	(void)s;
	host_term = 1;
}

static void host_signals(void)
{
	struct sigaction sa;
	sigset_t all;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/* Ctrl-C reaches the whole foreground group: the host follows its
	 * clients (they disconnect), it does not quit under them */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
}

/* Move fd to want (closing the old number); -1 on failure. */
static int move_fd(int fd, int want)
{
	if (fd == want)
		return fcntl(fd, F_SETFD, FD_CLOEXEC) ? -1 : fd;
	if (dup3(fd, want, O_CLOEXEC) != want)
		return -1;
	close(fd);
	return want;
}

/*
 * Keep only lfd and mfd, as 3 and 4, with 0-2 on /dev/null. Closes
 * everything else first, so it works under any descriptor limit of 6 or
 * more, whatever numbers the opener's descriptors had. 0 or -1.
 */
static int host_fds(struct host *h)
{
	int l = h->lfd, m = h->mfd, lo = l < m ? l : m, hi = l < m ? m : l;
	int fd;

	if (lo > 0)
		close_range(0, (unsigned)lo - 1, 0);
	if (hi - lo > 1)
		close_range((unsigned)lo + 1, (unsigned)hi - 1, 0);
	close_range((unsigned)hi + 1, ~0u, 0);
	if (m == 3) { /* clear the way for lfd */
		m = fcntl(m, F_DUPFD_CLOEXEC, 5);
		if (m < 0)
			return -1;
		close(3);
	}
	l = move_fd(l, 3);
	m = l < 0 ? -1 : move_fd(m, 4);
	if (m < 0)
		return -1;
	for (fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 &&
		    open("/dev/null", O_RDWR) != fd)
			return -1;
	h->lfd = 3;
	h->mfd = 4;
	return 0;
}

/* The .alive lock, held until we exit. A client asking whether a host
 * lives (soak_host_alive) holds it shared for an instant: a host that
 * met one would run without it, and every procstat window would then
 * read the soakers' nice time as load. So try again for a while; only a
 * lock held longer (another host) is given up on. */
static int take_alive_lock(void)
{
	char p[300];
	int fd, i;

	soak_side_path(p, sizeof(p), "alive");
	fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	for (i = 0; flock(fd, LOCK_EX | LOCK_NB); i++) {
		if (errno != EWOULDBLOCK || i == 250) {
			close(fd);
			return -1;
		}
		usleep(2000);
	}
	return fd;
}

static void send_hello(struct host *h, int fd)
{
	struct hello m = {.magic = SOAK_MAGIC,
			  .status = h->status,
			  .host_pid = (int32_t)getpid(),
			  .map_len = (uint32_t)h->map_len};
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {&m, sizeof(m)};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	struct cmsghdr *cm;

	snprintf(m.msg, sizeof(m.msg), "%s", h->err);
	if (!h->status) {
		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &h->mfd, sizeof(int));
	}
	/* a failed send: the client sees EOF and retries */
	(void)sendmsg(fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static void host_accept(struct host *h)
{
	int fd;

	while ((fd = accept4(h->lfd, NULL, NULL, SOCK_CLOEXEC)) >= 0 ||
	       errno == EINTR) {
		if (fd < 0)
			continue;
		if (h->ncl == SOAK_MAX_CLIENTS) {
			int st = h->status;

			h->status = -EMFILE;
			snprintf(h->err, sizeof(h->err),
				 "soak host serves %d clients already",
				 SOAK_MAX_CLIENTS);
			send_hello(h, fd);
			h->status = st;
			h->err[0] = 0;
			close(fd);
			continue;
		}
		if (soak_peer_uid(fd) != (int)geteuid()) {
			int st = h->status;

			/* the socket's directory keeps others out; this is
			 * the second lock on the door */
			h->status = -EPERM;
			snprintf(h->err, sizeof(h->err),
				 "this soak host serves uid %u only",
				 (unsigned)geteuid());
			send_hello(h, fd);
			h->status = st;
			h->err[0] = 0;
			close(fd);
			continue;
		}
		send_hello(h, fd);
		h->holds[h->ncl] = 0;
		h->cl[h->ncl++] = fd;
		h->ever = 1;
	}
	/* out of descriptors: the connection stays queued; rest the
	 * listener instead of polling it hot */
	if (errno == EMFILE || errno == ENFILE)
		h->accept_after = clock_ns() + 250000000ull;
	else if (errno != EAGAIN && errno != ECONNABORTED)
		host_term = 1; /* the listener itself is broken: go */
}

/* With no client left: unlink and close under the start lock unless a
 * new client is already queued. 1 = exit now. */
static int host_try_exit(struct host *h)
{
	char p[300];
	struct pollfd pf = {.fd = h->lfd, .events = POLLIN};
	struct stat st;
	int lk, pending;

	soak_side_path(p, sizeof(p), "lock");
	lk = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lk >= 0)
		flock(lk, LOCK_EX);
	pending = poll(&pf, 1, 0) > 0;
	if (pending) {
		host_accept(h);
	} else {
		if (!stat(h->path, &st) && st.st_ino == h->ino)
			unlink(h->path);
		close(h->lfd);
		h->lfd = -1;
	}
	if (lk >= 0)
		close(lk);
	return !pending;
}

static void host_cleanup(struct host *h)
{
	soak_set_stop(&h->set, h->cg.dir);
	soak_cg_remove(&h->cg);
	if (h->lfd >= 0) {
		h->ever = 1;
		h->ncl = 0;
		host_try_exit(h);
	}
}

/*
 * Park the soakers while any client holds them parked, else let them run
 * (gen tells a client window whether its soakers ran throughout: soak.c,
 * soak_load).
 */
static void host_park(struct host *h)
{
	int want = 0, i;

	for (i = 0; i < h->ncl; i++)
		want |= h->holds[i];
	if (want == h->parked)
		return;
	h->parked = want;
	soak_set_park(&h->set, want);
	if (want) /* the clients' settle counts from here (soak_pause) */
		__atomic_store_n(&h->hdr->parked_ns, clock_ns(),
				 __ATOMIC_RELEASE);
}

/* Bytes from client i: pause and resume requests, each answered with one
 * byte once the soakers are in the state asked for. Others are ignored. */
static void host_command(struct host *h, int i, const char *b, size_t n)
{
	char ack;
	size_t k;

	for (k = 0; k < n; k++) {
		if (b[k] == SOAK_CMD_PAUSE)
			h->holds[i] = 1;
		else if (b[k] == SOAK_CMD_RESUME)
			h->holds[i] = 0;
		else
			continue;
		host_park(h);
		ack = h->parked ? SOAK_ACK_PAUSED : SOAK_ACK_RUNNING;
		if (send(h->cl[i], &ack, 1, MSG_NOSIGNAL | MSG_DONTWAIT) != 1)
			h->holds[i] = 0; /* not listening: drop its hold */
	}
}

static void host_loop(struct host *h)
{
	struct pollfd pf[SOAK_MAX_CLIENTS + 1];
	uint64_t born = clock_ns();
	char junk[256];
	ssize_t r;
	int i, n;

	while (!host_term) {
		if (waitpid(-1, NULL, WNOHANG) > 0)
			break; /* a soaker died: the figures would lie */
		pf[0].fd = clock_ns() >= h->accept_after ? h->lfd : -1;
		pf[0].events = POLLIN;
		for (i = 0; i < h->ncl; i++) {
			pf[i + 1].fd = h->cl[i];
			pf[i + 1].events = POLLIN;
		}
		n = poll(pf, (nfds_t)h->ncl + 1, 1000);
		if (n < 0 && errno != EINTR)
			break;
		for (i = h->ncl - 1; n > 0 && i >= 0; i--) {
			if (!pf[i + 1].revents)
				continue;
			r = read(h->cl[i], junk, sizeof(junk));
			if (r > 0) {
				host_command(h, i, junk, (size_t)r);
				continue;
			}
			if (r < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			close(h->cl[i]);
			h->cl[i] = h->cl[--h->ncl];
			h->holds[i] = h->holds[h->ncl];
			host_park(h); /* its hold, if any, goes with it */
		}
		if (n > 0 && pf[0].revents)
			host_accept(h);
		if (!h->ncl &&
		    (h->ever ||
		     clock_ns() - born > SOAK_IDLE_EXIT_S * 1000000000ull) &&
		    host_try_exit(h))
			return;
	}
}

static void __attribute__((noreturn)) host_main(struct host *h)
{
	int alive;

	host_signals();
	if (host_fds(h))
		_exit(1); /* the opener sees EOF and starts another */
	prctl(PR_SET_NAME, "zcb-soakhost");
	alive = take_alive_lock();
	(void)alive; /* held until we exit */
	h->hdr->host_pid = (int32_t)getpid();
	/* never block in accept: a failed start answers whoever waits,
	 * then exits so the next opener starts a fresh host */
	fcntl(h->lfd, F_SETFL, O_NONBLOCK);
	soak_cg_setup(&h->cg, getpid());
	h->set.hdr = h->hdr;
	h->set.slot = soak_slots(h->map);
	h->status = soak_set_start(&h->set, &h->cg, h->err, sizeof(h->err));
	if (!h->status)
		host_loop(h);
	else
		host_accept(h); /* tell the waiting openers why */
	host_cleanup(h);
	_exit(0);
}

/* --- starting it ------------------------------------------------------- */

int soak_host_spawn(const char *path, const int *ids, int n,
		    const struct soak_kind *kind, char *err, size_t len)
{
	struct host *h = calloc(1, sizeof(*h));
	struct sockaddr_un sa;
	struct stat st;
	int r = 0;
	pid_t p;

	if (!h)
		abort();
	h->lfd = h->mfd = -1;
	unlink(path);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	h->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (h->lfd < 0 || bind(h->lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(h->lfd, 64) || stat(path, &st)) {
		r = -errno;
		snprintf(err, len, "cannot listen on %s: %s", path,
			 strerror(errno));
		goto out;
	}
	h->ino = st.st_ino;
	snprintf(h->path, sizeof(h->path), "%s", path);
	h->map_len = soak_map_size(n);
	h->mfd = memfd_create("zcbench-soak", MFD_CLOEXEC);
	if (h->mfd < 0 || ftruncate(h->mfd, (off_t)h->map_len) ||
	    (h->map = mmap(NULL, h->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			   h->mfd, 0)) == MAP_FAILED) {
		r = -errno;
		snprintf(err, len, "soak counters: %s", strerror(errno));
		h->map = NULL;
		goto out;
	}
	h->hdr = h->map;
	h->hdr->magic = SOAK_MAGIC;
	h->hdr->ncpu = (uint32_t)n;
	h->hdr->features = SOAK_FEAT_PAUSE | SOAK_FEAT_PARKED_AT;
	h->set.kind = *kind;
	snprintf(h->hdr->kind, sizeof(h->hdr->kind), "%s", kind->name);
	memcpy(h->hdr->cpu_id, ids, (size_t)n * sizeof(int));
	p = fork();
	if (p == 0) {
		if (fork() == 0)
			host_main(h);
		_exit(0);
	}
	if (p < 0 || (waitpid(p, NULL, 0) < 0 && errno != ECHILD)) {
		r = -errno;
		snprintf(err, len, "cannot start the soak host: %s",
			 strerror(errno));
		goto out;
	}
out:
	if (h->map)
		munmap(h->map, h->map_len);
	if (h->mfd >= 0)
		close(h->mfd);
	if (h->lfd >= 0)
		close(h->lfd);
	free(h);
	return r;
}
