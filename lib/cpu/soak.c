/*
 * soak.c: the client side of the box's one soaker set: find the soak
 * host (or start it, soak_host.c), map its counters, read windows and
 * turn them into loads. See soak.h for the design; the socket's place
 * and the counters' layout are in soak_common.c, cgroups in soak_cg.c,
 * calibration storage in soak_calib.c.
 */
#include "config.h"
#include "soak.h"
#include "soak_int.h"
#include "clock.h"
#include "hostinfo.h"
#include "units.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

int soak_host_alive(void)
{
	char p[300];
	int fd, alive = 0;

	if (!*soak_socket_path())
		return 0;
	soak_side_path(p, sizeof(p), "alive");
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_SH | LOCK_NB))
		alive = errno == EWOULDBLOCK;
	close(fd);
	return alive;
}

int soak_kind_parse(const char *s, struct soak_kind *k, char *err,
		    size_t len)
{
	char *end;
	long p, t = 10000;

	memset(k, 0, sizeof(*k));
	k->duty_pct = 100;
	if (!s || !*s || !strcmp(s, "spin")) {
		snprintf(k->name, sizeof(k->name), "spin");
		return 0;
	}
	if (!strcmp(s, "pause")) {
		k->pause = 1;
		snprintf(k->name, sizeof(k->name), "pause");
		return 0;
	}
	if (!strncmp(s, "duty:", 5)) {
		p = strtol(s + 5, &end, 10);
		if (*end == '/')
			t = strtol(end + 1, &end, 10);
		if (!*end && p >= 1 && p <= 100 && t >= 100 && t <= 1000000) {
			k->duty_pct = (int)p;
			k->period_us = (int)t;
			snprintf(k->name, sizeof(k->name), "duty:%ld/%ld", p,
				 t);
			return 0;
		}
	}
	snprintf(err, len,
		 "bad soaker kind \"%.40s\" (spin, pause, duty:PCT[/PERIOD_US]: PCT 1-100, period 100-1000000)",
		 s);
	return -EINVAL;
}

/* --- the client --------------------------------------------------------- */

/* CPUs to soak: the list, or allowed & online. Returns count or -errno. */
static int pick_cpus(const char *list, int *ids, char *err, size_t len)
{
	static unsigned char want[HOST_MAX_CPUS / 8 + 1];
	char online[256];
	cpu_set_t allowed;
	int i, n = 0;

	memset(want, 0, sizeof(want));
	if (list) {
		if (host_parse_cpulist(list, want, HOST_MAX_CPUS) <= 0) {
			snprintf(err, len, "bad CPU list \"%s\"", list);
			return -EINVAL;
		}
	} else {
		if (host_read_file("", "/sys/devices/system/cpu/online", online,
				   sizeof(online)) <= 0)
			snprintf(online, sizeof(online), "0-%d",
				 host_online_cpus() - 1);
		host_parse_cpulist(online, want, HOST_MAX_CPUS);
		if (!sched_getaffinity(0, sizeof(allowed), &allowed))
			for (i = 0; i < CPU_SETSIZE && i < HOST_MAX_CPUS; i++)
				if (!CPU_ISSET(i, &allowed))
					want[i / 8] &=
						(unsigned char)~(1u << (i % 8));
	}
	for (i = 0; i < HOST_MAX_CPUS; i++) {
		if (!(want[i / 8] & (1u << (i % 8))))
			continue;
		if (n == SOAK_MAX_CPUS) {
			snprintf(err, len, "more than %d CPUs to soak",
				 SOAK_MAX_CPUS);
			return -E2BIG;
		}
		ids[n++] = i;
	}
	if (!n) {
		snprintf(err, len, "no CPU to soak");
		return -EINVAL;
	}
	return n;
}

/* Under the start lock: connect to a host, or start one and connect.
 * Returns a connected fd or -errno. */
static int start_host(const char *path, const int *ids, int n,
		      const struct soak_kind *kind, struct soak_client *c,
		      char *err, size_t len)
{
	char lp[300];
	int lk, fd, e;

	soak_side_path(lp, sizeof(lp), "lock");
	lk = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lk < 0 || flock(lk, LOCK_EX)) {
		e = errno;
		snprintf(err, len, "cannot lock %s: %s", lp, strerror(e));
		if (lk >= 0)
			close(lk);
		return -e;
	}
	fd = soak_unix_connect(path);
	if (fd < 0) {
		fd = soak_host_spawn(path, ids, n, kind, err, len);
		if (!fd) {
			c->started_host = 1;
			fd = soak_unix_connect(path);
			if (fd < 0)
				snprintf(err, len,
					 "cannot reach the soak host at %s: %s",
					 path, strerror(-fd));
		}
	}
	close(lk);
	return fd;
}

#define peer_uid(fd) ((uid_t)soak_peer_uid(fd))

/* 0, -EAGAIN (host went away: retry) or -errno with err. */
static int recv_hello(int fd, struct soak_client *c, char *err, size_t len)
{
	struct hello m;
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {&m, sizeof(m)};
	struct msghdr mh = {.msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf)};
	struct cmsghdr *cm;
	struct shm_hdr *hdr;
	int mfd = -1;
	ssize_t r;

	r = poll(&(struct pollfd){.fd = fd, .events = POLLIN}, 1,
		 SOAK_READY_MS + 5000);
	if (r == 0) {
		snprintf(err, len, "soak host did not answer within %d s",
			 SOAK_READY_MS / 1000 + 5);
		return -ETIMEDOUT;
	}
	r = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC);
	if (r <= 0)
		return -EAGAIN;
	if (peer_uid(fd) != geteuid()) {
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
			if (cm->cmsg_type == SCM_RIGHTS)
				close(*(int *)CMSG_DATA(cm));
		snprintf(err, len,
			 "the soak socket %s is served by uid %d, not by us (uid %u): refusing its counters",
			 soak_socket_path(), (int)peer_uid(fd),
			 (unsigned)geteuid());
		return -EPERM;
	}
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
			memcpy(&mfd, CMSG_DATA(cm), sizeof(int));
	if (r != (ssize_t)sizeof(m) || m.magic != SOAK_MAGIC) {
		snprintf(err, len, "soak host sent a bad greeting");
		r = -EPROTO;
	} else if (m.status < 0) {
		m.msg[sizeof(m.msg) - 1] = 0;
		snprintf(err, len, "soak host: %s", m.msg);
		r = m.status;
	} else if (mfd < 0 || m.map_len < SOAK_HDR ||
		   (c->map = mmap(NULL, m.map_len, PROT_READ, MAP_SHARED, mfd,
				  0)) == MAP_FAILED) {
		snprintf(err, len, "soak host counters: cannot map");
		c->map = NULL;
		r = -EPROTO;
	} else {
		r = 0;
	}
	if (mfd >= 0)
		close(mfd);
	if (r)
		return (int)r;
	c->map_len = m.map_len;
	c->host_pid = m.host_pid;
	hdr = c->map;
	if (hdr->magic != SOAK_MAGIC || hdr->ncpu < 1 ||
	    hdr->ncpu > SOAK_MAX_CPUS ||
	    soak_map_size((int)hdr->ncpu) > m.map_len) {
		snprintf(err, len, "soak host counters are malformed");
		return -EPROTO;
	}
	c->ncpu = (int)hdr->ncpu;
	c->can_pause = !!(hdr->features & SOAK_FEAT_PAUSE);
	snprintf(c->kind, sizeof(c->kind), "%.*s", SOAK_KIND_LEN - 1,
		 c->can_pause && hdr->kind[0] ? hdr->kind : "spin");
	memcpy(c->cpu_id, hdr->cpu_id, (size_t)c->ncpu * sizeof(int));
	snprintf(c->note, sizeof(c->note), "%.*s", (int)sizeof(hdr->note) - 1,
		 hdr->note);
	return 0;
}

static int covers(const struct soak_client *c, const int *ids, int n,
		  const struct soak_kind *kind, char *err, size_t len)
{
	int i, j;

	if (strcmp(c->kind, kind->name)) {
		snprintf(err, len,
			 "the box's soaker set (host pid %d) runs %s soakers, not %s (another calibration is in use)",
			 (int)c->host_pid, c->kind, kind->name);
		return -EBUSY;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < c->ncpu && c->cpu_id[j] != ids[i]; j++)
			;
		if (j == c->ncpu) {
			snprintf(
				err, len,
				"the box's soaker set (host pid %d) does not soak CPU %d",
				(int)c->host_pid, ids[i]);
			return -EBUSY;
		}
	}
	return 0;
}

int soak_join(struct soak_client *c, const char *cpus, const char *kind,
	      char *err, size_t len)
{
	char why[300];
	const char *path = soak_socket_where(why, sizeof(why));
	int ids[SOAK_MAX_CPUS], n, attempt, fd = -1, r = -EAGAIN;
	struct soak_kind k;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (!*path) {
		snprintf(err, len, "%s", why);
		return -EPERM;
	}
	r = soak_kind_parse(kind, &k, err, len);
	if (r)
		return r;
	r = -EAGAIN;
	n = pick_cpus(cpus, ids, err, len);
	if (n < 0)
		return n;
	for (attempt = 0; attempt < 8 && r == -EAGAIN; attempt++) {
		fd = soak_unix_connect(path);
		if (fd < 0)
			fd = start_host(path, ids, n, &k, c, err, len);
		if (fd < 0)
			return fd;
		r = recv_hello(fd, c, err, len);
		if (r) {
			close(fd);
			fd = -1;
			if (r == -EAGAIN)
				usleep(20000);
		}
	}
	if (r == -EAGAIN)
		snprintf(err, len, "soak host at %s keeps going away", path);
	if (!r) {
		c->fd = fd;
		r = covers(c, ids, n, &k, err, len);
	}
	if (r)
		soak_leave(c);
	return r;
}

int soak_settle_time(double *seconds, char *err, size_t len)
{
	const char *e = getenv(SOAK_SETTLE_ENV);

	*seconds = SOAK_SETTLE_S;
	if (!e || !*e)
		return 0;
	if (units_parse_duration(e, seconds) || *seconds > SOAK_SETTLE_MAX_S) {
		snprintf(err, len, "%s=%.40s: not a duration of 0 to %.0fs",
			 SOAK_SETTLE_ENV, e, SOAK_SETTLE_MAX_S);
		return -EINVAL;
	}
	return 0;
}

uint64_t soak_settle_end(uint32_t features, uint64_t parked_ns,
			 int was_holding, uint64_t now, uint64_t settle_ns)
{
	uint64_t at = 0;

	if (features & SOAK_FEAT_PARKED_AT)
		at = parked_ns;
	else if (!was_holding)
		at = now;
	return at ? at + settle_ns : 0;
}

/* After a pause: sleep out the settle (soak_settle_end). A signal ends it
 * early. */
static void settle(const struct soak_client *c, int was_holding, double s)
{
	const struct shm_hdr *hdr = c->map;
	uint64_t now = clock_ns(),
		 end = soak_settle_end(
			 hdr->features,
			 __atomic_load_n(&hdr->parked_ns, __ATOMIC_ACQUIRE),
			 was_holding, now, (uint64_t)(s * 1e9));

	if (end > now)
		clock_sleep((double)(end - now) / 1e9);
}

int soak_pause(struct soak_client *c, int pause, char *err, size_t len)
{
	char cmd = pause ? SOAK_CMD_PAUSE : SOAK_CMD_RESUME, ack = 0;
	int r, was = c->holding;
	double s = 0;

	if (!c->can_pause) {
		snprintf(err, len,
			 "the running soak host (pid %d) is from an older zcbench and cannot pause its soakers; stop it (kill %d) and run again",
			 (int)c->host_pid, (int)c->host_pid);
		return -EOPNOTSUPP;
	}
	if (pause && (r = soak_settle_time(&s, err, len)))
		return r;
	if (send(c->fd, &cmd, 1, MSG_NOSIGNAL) != 1) {
		snprintf(err, len, "soak host (pid %d): %s", (int)c->host_pid,
			 strerror(errno));
		return -EPIPE;
	}
	/* the host waits at most SOAK_PARK_MS for its soakers */
	r = poll(&(struct pollfd){.fd = c->fd, .events = POLLIN}, 1,
		 SOAK_PARK_MS + 3000);
	if (r <= 0 || recv(c->fd, &ack, 1, 0) != 1 ||
	    (ack != SOAK_ACK_PAUSED && ack != SOAK_ACK_RUNNING)) {
		snprintf(err, len, "soak host (pid %d) did not answer a %s",
			 (int)c->host_pid, pause ? "pause" : "resume");
		return r == 0 ? -ETIMEDOUT : -EPIPE;
	}
	if (pause && ack != SOAK_ACK_PAUSED) {
		snprintf(err, len, "soak host (pid %d) did not park its soakers",
			 (int)c->host_pid);
		return -EIO;
	}
	c->holding = pause;
	if (pause && s > 0)
		settle(c, was, s);
	return 0;
}

static uint32_t soak_gen(const struct soak_client *c)
{
	const struct shm_hdr *hdr = c->map;

	return __atomic_load_n(&hdr->gen, __ATOMIC_SEQ_CST);
}

int soak_read(const struct soak_client *c, struct soak_snap *s)
{
	struct shm_slot *sl = soak_slots(c->map);
	double t0 = clock_now();
	uint32_t g = soak_gen(c);
	int i;

	for (i = 0; i < c->ncpu; i++)
		s->count[i] = __atomic_load_n(&sl[i].count, __ATOMIC_RELAXED);
	/* a pause that began while we read shows in the later gen */
	s->gen = g == soak_gen(c) ? g : g | 1;
	s->t = (t0 + clock_now()) / 2;
	s->n = c->ncpu;
	if (poll(&(struct pollfd){.fd = c->fd, .events = POLLIN}, 1, 0) > 0)
		return -EPIPE; /* EOF: the host is gone, counters stopped */
	return 0;
}

void soak_leave(struct soak_client *c)
{
	if (c->map)
		munmap(c->map, c->map_len);
	if (c->fd >= 0)
		close(c->fd);
	c->map = NULL;
	c->fd = -1;
}

void soak_rates(const struct soak_snap *a, const struct soak_snap *b,
		double *rate)
{
	double dt = b->t - a->t;
	int i;

	for (i = 0; i < a->n && i < b->n; i++)
		rate[i] = dt > 0 ? (double)(b->count[i] - a->count[i]) / dt : 0;
}

int soak_load(const struct soak_calib *cal, const struct soak_client *c,
	      const struct soak_snap *a, const struct soak_snap *b,
	      struct cpu_sample *out)
{
	double rate[SOAK_MAX_CPUS], sum = 0, cr, fast = 0;
	int i;

	out->elapsed_s = b->t - a->t;
	if (a->gen != b->gen || (a->gen & 1)) {
		out->paused = 1;
		snprintf(out->why, sizeof(out->why),
			 "soakers paused: the unmetered run of a pair");
		return -EAGAIN;
	}
	soak_rates(a, b, rate);
	out->ncpu = c->ncpu;
	out->have_percpu = 1;
	for (i = 0; i < c->ncpu; i++) {
		cr = soak_calib_rate(cal, c->cpu_id[i]);
		if (cr <= 0) {
			snprintf(out->why, sizeof(out->why),
				 "no calibration for CPU %d", c->cpu_id[i]);
			return -ENOENT;
		}
		if (rate[i] > cr * SOAK_STALE_RATIO &&
		    rate[i] / cr > fast && out->elapsed_s >= 0.2) {
			fast = rate[i] / cr;
			snprintf(out->note, sizeof(out->note),
				 "calibration low: CPU %d's soaker ran at %.0f%% of its idle rate (stale, or made on a busy box: loads read low; cyclesoak --calibrate)",
				 c->cpu_id[i], 100 * fast);
		}
		out->percpu_busy[i] = 100.0 * (1.0 - rate[i] / cr);
		if (out->percpu_busy[i] < 0)
			out->percpu_busy[i] = 0;
		if (out->percpu_busy[i] > 100)
			out->percpu_busy[i] = 100;
		sum += out->percpu_busy[i];
	}
	out->busy_pct = sum / c->ncpu;
	snprintf(out->scope, sizeof(out->scope), "box");
	out->ok = 1;
	return 0;
}
