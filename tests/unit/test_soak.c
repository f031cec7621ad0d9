/* test_soak.c: calibration storage and checks, the load arithmetic, the
 * default meter list, and the soak meter through the meter interface. */
#include "config.h"
#include "clock.h"
#include "hostinfo.h"
#include "meter.h"
#include "soak.h"
#include "soak_int.h"
#include "t.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBODY 65534

static char dir[256];

static void fixture(struct soak_calib *c, const char *kernel, int ncpu)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->ncpu = ncpu;
	for (i = 0; i < ncpu; i++) {
		c->cpu_id[i] = i;
		c->rate[i] = 1e6 * (i + 1);
	}
	c->spread_pct = 0.5;
	c->rounds = 5;
	c->round_s = 1;
	c->online_cpus = ncpu;
	snprintf(c->kernel_release, sizeof(c->kernel_release), "%s", kernel);
	snprintf(c->cpu_model, sizeof(c->cpu_model), "Fixture CPU");
	snprintf(c->made, sizeof(c->made), "2026-01-01T00:00:00Z");
	snprintf(c->note, sizeof(c->note), "test");
}

static void round_trip(void)
{
	struct soak_calib a, b;
	char path[512], err[256];
	FILE *f;

	fixture(&a, "6.1.0-test", 3);
	snprintf(path, sizeof(path), "%s/sub/dir/cal.json", dir);
	T_CHECK(soak_calib_save(path, &a, err, sizeof(err)) == 0);
	T_CHECK(soak_calib_load(path, &b, err, sizeof(err)) == 0);
	T_CHECK(b.ncpu == 3);
	T_NEAR(b.rate[2], 3e6, 1e-6);
	T_CHECK(b.cpu_id[1] == 1);
	T_STREQ(b.kernel_release, "6.1.0-test");
	T_STREQ(b.cpu_model, "Fixture CPU");
	T_CHECK(b.online_cpus == 3 && b.rounds == 5);
	T_NEAR(soak_calib_rate(&b, 1), 2e6, 1e-6);
	T_CHECK(soak_calib_rate(&b, 7) == 0);

	/* missing, malformed and hostile files are refused with a reason */
	snprintf(path, sizeof(path), "%s/none.json", dir);
	T_CHECK(soak_calib_load(path, &b, err, sizeof(err)) == -ENOENT);
	T_CHECK(strstr(err, "--calibrate") != NULL);
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	f = fopen(path, "w");
	fputs("{\"schema\": \"zcbench-soak-calibration/1\", \"cpus\": "
	      "[{\"cpu\": 0, \"rate\": -5}]}",
	      f);
	fclose(f);
	T_CHECK(soak_calib_load(path, &b, err, sizeof(err)) == -EINVAL);
	f = fopen(path, "w");
	fputs("{\"schema\": \"other/1\", \"cpus\": []}", f);
	fclose(f);
	T_CHECK(soak_calib_load(path, &b, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "other/1") != NULL);
	f = fopen(path, "w");
	fputs("not json", f);
	fclose(f);
	T_CHECK(soak_calib_load(path, &b, err, sizeof(err)) == -EINVAL);
}

static void mismatch(void)
{
	struct soak_calib c;
	struct hostinfo h;
	char warn[512], path[512], err[256], env[300];
	const char *w;

	memset(&h, 0, sizeof(h));
	snprintf(h.kernel_release, sizeof(h.kernel_release), "6.1.0-test");
	snprintf(h.cpu_model, sizeof(h.cpu_model), "Fixture CPU");
	h.online_cpus = 2;
	fixture(&c, "6.1.0-test", 2);
	T_CHECK(soak_calib_check(&c, &h, warn, sizeof(warn)) == 0);
	snprintf(h.kernel_release, sizeof(h.kernel_release), "6.18.4");
	T_CHECK(soak_calib_check(&c, &h, warn, sizeof(warn)) == 1);
	T_STREQ(warn,
		"calibration made on kernel 6.1.0-test, running 6.18.4 (cyclesoak --calibrate)");
	/* a short buffer keeps the message's start */
	T_CHECK(soak_calib_check(&c, &h, warn, 60) == 1);
	T_STREQ(warn,
		"calibration made on kernel 6.1.0-test, running 6.18.4 (cycl");
	T_CHECK(soak_calib_check(&c, &h, warn, 20) == 1);
	T_STREQ(warn, "calibration made on");
	snprintf(h.kernel_release, sizeof(h.kernel_release), "6.1.0-test");
	h.online_cpus = 4;
	T_CHECK(soak_calib_check(&c, &h, warn, sizeof(warn)) == 1);
	T_STREQ(warn,
		"calibration made with 2 online CPUs, now 4 (cyclesoak --calibrate)");
	h.online_cpus = 2;
	snprintf(h.cpu_model, sizeof(h.cpu_model), "Other CPU");
	T_CHECK(soak_calib_check(&c, &h, warn, sizeof(warn)) == 1);
	T_STREQ(warn,
		"calibration made on CPU \"Fixture CPU\", running on \"Other CPU\" (cyclesoak --calibrate)");

	/* the tool-facing warning, through the default state file */
	snprintf(env, sizeof(env), "%s/state", dir);
	setenv("XDG_STATE_HOME", env, 1);
	T_CHECK(soak_calibration_warning(NULL) == NULL); /* none: no warning */
	T_STREQ(meter_default_list(NULL), "procstat");
	T_CHECK(soak_calib_path(NULL, path, sizeof(path)) == 0);
	T_CHECK(strstr(path, "/state/zcbench/calibration.json") != NULL);
	fixture(&c, "0.0.0-fixture", host_online_cpus());
	T_CHECK(soak_calib_save(path, &c, err, sizeof(err)) == 0);
	w = soak_calibration_warning(NULL);
	T_CHECK(w && strstr(w, "0.0.0-fixture"));
	/* usable all the same: it has a rate for every online CPU */
	T_STREQ(meter_default_list(NULL), "soak");
	/* one CPU short: not usable, procstat is the default */
	if (host_online_cpus() > 1) {
		fixture(&c, "0.0.0-fixture", host_online_cpus() - 1);
		T_CHECK(soak_calib_save(path, &c, err, sizeof(err)) == 0);
		T_STREQ(meter_default_list(NULL), "procstat");
	}
	unlink(path);
}

static void arithmetic(void)
{
	struct soak_calib cal;
	struct soak_client cl;
	struct soak_snap a, b;
	struct cpu_sample s;

	fixture(&cal, "x", 3); /* rates 1e6, 2e6, 3e6 */
	memset(&cl, 0, sizeof(cl));
	cl.ncpu = 3;
	cl.cpu_id[0] = 0;
	cl.cpu_id[1] = 1;
	cl.cpu_id[2] = 2;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.n = b.n = 3;
	a.t = 10;
	b.t = 12;
	a.count[0] = 100;
	b.count[0] = 100 + 2 * 1e6; /* full rate: idle */
	b.count[1] = 2 * 1e6;	    /* half rate: 50% busy */
	b.count[2] = 2 * 4e6;	    /* faster than calibrated: 0 */
	memset(&s, 0, sizeof(s));
	T_CHECK(soak_load(&cal, &cl, &a, &b, &s) == 0);
	T_CHECK(s.ok && s.have_percpu && s.ncpu == 3);
	T_STREQ(s.scope, "box");
	T_NEAR(s.elapsed_s, 2, 1e-9);
	T_NEAR(s.percpu_busy[0], 0, 1e-9);
	T_NEAR(s.percpu_busy[1], 50, 1e-9);
	T_NEAR(s.percpu_busy[2], 0, 1e-9); /* clamped */
	T_NEAR(s.busy_pct, 50.0 / 3, 1e-9);
	/* CPU 2 ran at 133% of its calibration: the calibration read a busy
	 * box, and the sample says so */
	T_CHECK(strstr(s.note, "calibration low: CPU 2's soaker ran at 133% of its idle rate") !=
		NULL);
	b.count[2] = 2 * 3e6; /* as calibrated: no note */
	memset(&s, 0, sizeof(s));
	T_CHECK(soak_load(&cal, &cl, &a, &b, &s) == 0);
	T_CHECK(s.note[0] == '\0');
	b.count[1] = 0; /* stalled counter: 100% busy */
	a.count[1] = 0;
	T_CHECK(soak_load(&cal, &cl, &a, &b, &s) == 0);
	T_NEAR(s.percpu_busy[1], 100, 1e-9);
	cl.cpu_id[2] = 9; /* a CPU without calibration */
	memset(&s, 0, sizeof(s));
	T_CHECK(soak_load(&cal, &cl, &a, &b, &s) == -ENOENT);
	T_CHECK(strstr(s.why, "CPU 9") != NULL);
}

/* A window of the set: is the soak figure there (1), paused (0)? */
static int soaked(struct meterset *set)
{
	struct cpu_sample s[METER_MAX];

	meterset_start(set);
	usleep(50000);
	meterset_stop(set, s);
	T_CHECK(s[1].ok); /* procstat reads either way */
	if (!s[0].ok)
		T_CHECK(s[0].paused && strstr(s[0].why, "unmetered") != NULL);
	return s[0].ok;
}

/* Paired runs: parked soakers stop counting, every client's window that
 * overlaps a pause reads as not soaked, the soakers run again when the
 * last holder resumes or leaves. */
static void pausing(struct meterset *set)
{
	struct soak_client other;
	struct soak_snap a, b;
	char err[256];
	int i, still = 1;

	T_CHECK(meterset_paired(set));
	T_ASSERT(soak_join(&other, NULL, "spin", err, sizeof(err)) == 0);
	T_CHECK(other.can_pause);
	/* a pause returns once the soakers have been parked the settle */
	setenv(SOAK_SETTLE_ENV, "200ms", 1);
	T_CHECK(meterset_metered(set, 0, err, sizeof(err)) == 0);
	T_CHECK(clock_ns() >= ((struct shm_hdr *)other.map)->parked_ns +
				      200000000ull);
	T_CHECK(((struct shm_hdr *)other.map)->features & SOAK_FEAT_PARKED_AT);
	unsetenv(SOAK_SETTLE_ENV);
	T_CHECK(!soaked(set));
	/* parked: the counters stand still, and another client's window
	 * knows it was not soaked. On a busy box an idle-class soaker may
	 * get its next cycles (and see park) late: wait for all to say so */
	for (i = 0; i < 400; i++) {
		struct shm_slot *sl = soak_slots(other.map);
		int k, parked = 0;

		for (k = 0; k < other.ncpu; k++)
			parked += __atomic_load_n(&sl[k].state,
						  __ATOMIC_ACQUIRE) ==
				  SLOT_PARKED;
		if (parked == other.ncpu)
			break;
		usleep(5000);
	}
	T_CHECK(soak_read(&other, &a) == 0);
	usleep(50000);
	T_CHECK(soak_read(&other, &b) == 0);
	for (i = 0; i < a.n; i++)
		still &= a.count[i] == b.count[i];
	T_CHECK(still);
	T_CHECK(a.gen & 1);
	/* resumed: soaked again, counting again */
	T_CHECK(meterset_metered(set, 1, err, sizeof(err)) == 0);
	T_CHECK(soaked(set));
	/* two holders: parked until both let go; a holder that leaves lets
	 * go by leaving */
	T_CHECK(soak_pause(&other, 1, err, sizeof(err)) == 0);
	T_CHECK(meterset_metered(set, 0, err, sizeof(err)) == 0);
	T_CHECK(meterset_metered(set, 1, err, sizeof(err)) == 0);
	T_CHECK(!soaked(set));
	soak_leave(&other);
	for (i = 0; i < 100 && !soaked(set); i++)
		; /* the host notices the hang-up within a poll round */
	T_CHECK(i < 100);
}

/* The settle after a pause: its setting, and when it ends. */
static void settling(void)
{
	const uint64_t S = 1000000000ull;
	char err[256];
	double s;

	unsetenv(SOAK_SETTLE_ENV);
	T_CHECK(soak_settle_time(&s, err, sizeof(err)) == 0);
	T_NEAR(s, SOAK_SETTLE_S, 1e-12);
	setenv(SOAK_SETTLE_ENV, "250ms", 1);
	T_CHECK(soak_settle_time(&s, err, sizeof(err)) == 0);
	T_NEAR(s, 0.25, 1e-12);
	setenv(SOAK_SETTLE_ENV, "0", 1);
	T_CHECK(soak_settle_time(&s, err, sizeof(err)) == 0 && s == 0);
	setenv(SOAK_SETTLE_ENV, "2h", 1);
	T_CHECK(soak_settle_time(&s, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "ZCB_SOAK_SETTLE=2h") != NULL);
	setenv(SOAK_SETTLE_ENV, "soon", 1);
	T_CHECK(soak_settle_time(&s, err, sizeof(err)) == -EINVAL);
	unsetenv(SOAK_SETTLE_ENV);
	/* from when the host parked them: parked long ago, nothing left */
	T_CHECK(soak_settle_end(SOAK_FEAT_PAUSE | SOAK_FEAT_PARKED_AT, 10 * S,
				0, 20 * S, S / 2) == 10 * S + S / 2);
	T_CHECK(soak_settle_end(SOAK_FEAT_PAUSE | SOAK_FEAT_PARKED_AT,
				20 * S - S / 10, 1, 20 * S,
				S / 2) == 20 * S + 4 * S / 10);
	/* an older host: from now, if this pause parked them */
	T_CHECK(soak_settle_end(SOAK_FEAT_PAUSE, 0, 0, 20 * S, S / 2) ==
		20 * S + S / 2);
	T_CHECK(soak_settle_end(SOAK_FEAT_PAUSE, 0, 1, 20 * S, S / 2) == 0);
}

/* The soak meter for real: soakers start, read, and are gone after. */
/*
 * Wait for the soak host to exit after its last client left: it stops
 * its soakers first, and idle-class soakers on a box loaded by other
 * work (a parallel make check) may take seconds to be scheduled, so the
 * limit is a hang's, 60 s, not a speed.
 */
static void host_gone(void)
{
	int i;

	for (i = 0; i < 6000 && soak_host_alive(); i++)
		usleep(10000);
}

static void live(void)
{
	struct meter_opts o = {0};
	struct cpu_sample s[METER_MAX];
	struct soak_calib c;
	struct meterset set;
	char path[512], err[512], sock[300];
	int i, n;

	snprintf(sock, sizeof(sock), "%s/soak.sock", dir);
	setenv("ZCB_SOAK_SOCKET", sock, 1);
	snprintf(path, sizeof(path), "%s/live.json", dir);
	o.calib_file = path;
	/* no calibration: the soak meter cannot open, and says why */
	T_CHECK(meterset_open(&set, "soak", &o, err, sizeof(err)) == -ENODEV);
	T_CHECK(strstr(err, "--calibrate") != NULL);
	fixture(&c, "x", host_online_cpus());
	for (i = 0; i < c.ncpu; i++)
		c.rate[i] = 1e12; /* nobody is that fast: reads ~100% */
	T_ASSERT(soak_calib_save(path, &c, err, sizeof(err)) == 0);
	T_ASSERT(meterset_open(&set, "soak,procstat", &o, err, sizeof(err)) ==
		 0);
	T_CHECK(soak_host_alive());
	meterset_start(&set);
	usleep(300000);
	n = meterset_stop(&set, s);
	T_CHECK(n == 2);
	T_STREQ(s[0].meter, "soak");
	T_CHECK(s[0].ok);
	T_CHECK(s[0].ncpu == host_online_cpus());
	T_CHECK(s[0].busy_pct > 99 && s[0].busy_pct <= 100);
	T_CHECK(strstr(s[0].note, "soakers") != NULL);
	T_CHECK(s[1].ok);
	/* procstat does not count the soakers (nice 19) as load */
	T_CHECK(strstr(s[1].note, "nice") != NULL);
	pausing(&set);
	meterset_close(&set);
	host_gone();
	T_CHECK(!soak_host_alive());
	unsetenv("ZCB_SOAK_SOCKET");
}

/* Run fn as uid nobody in a child; its exit status (0 = its checks
 * passed). */
static int as_nobody(int (*fn)(void))
{
	int st;
	pid_t p = fork();

	if (p == 0) {
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(77);
		_exit(fn());
	}
	if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static char shared_sock[300]; /* in a 0777 directory both can reach */

/* A stranger's client: the root host refuses it (second lock: the
 * host's own uid check, seen in the raw greeting). */
static int stranger_raw(void)
{
	struct hello m;
	int fd = soak_unix_connect(shared_sock);

	if (fd < 0)
		return 2;
	if (recv(fd, &m, sizeof(m), MSG_WAITALL) != (ssize_t)sizeof(m))
		return 3;
	return m.status == -EPERM && strstr(m.msg, "serves uid 0 only") ? 0 : 4;
}

/* A stranger's fake host on the shared path, greeting with counters of
 * its own making: a root client must refuse them. */
static void fake_host(int lfd)
{
	struct hello m = {.magic = SOAK_MAGIC, .status = 0, .map_len = 8192};
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {&m, sizeof(m)};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf)};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	int mfd = memfd_create("fake", 0), c;

	if (mfd < 0 || ftruncate(mfd, 8192))
		_exit(1);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &mfd, sizeof(int));
	c = accept(lfd, NULL, NULL);
	if (c < 0 || sendmsg(c, &mh, 0) < 0)
		_exit(1);
	sleep(2);
	_exit(0);
}

/* Without ZCB_SOAK_SOCKET, a non-root user's socket lives in a private
 * directory of its own, and a directory someone else made is refused. */
static int private_path(void)
{
	struct soak_client c;
	char err[512];
	int r;

	unsetenv("ZCB_SOAK_SOCKET");
	unsetenv("XDG_RUNTIME_DIR");
	r = soak_join(&c, NULL, NULL, err, sizeof(err));
	if (!r) {
		soak_leave(&c);
		/* until the host has gone: on its way out it looks its lock
		 * up again, which makes the directory anew, and the test's
		 * rm -rf of it must come after that (it was left behind, and
		 * every later run skipped this part) */
		host_gone();
		return strstr(soak_socket_path(), "/tmp/zcbench-65534/") ? 0
									  : 5;
	}
	fprintf(stderr, "nobody's join: %s\n", err);
	return 6;
}

/* Someone else made /tmp/zcbench-UID first: refused, and the user's
 * state directory serves instead (it disabled the meter for good). */
static int hijacked_path(void)
{
	struct soak_client c;
	char err[512], state[300];

	unsetenv("ZCB_SOAK_SOCKET");
	unsetenv("XDG_RUNTIME_DIR");
	setenv("XDG_STATE_HOME", "/proc/none", 1); /* cannot be made */
	if (soak_join(&c, NULL, NULL, err, sizeof(err)) != -EPERM)
		return 7;
	if (!strstr(err, "not a private directory") ||
	    !strstr(err, "/proc/none/zcbench/soak"))
		return 8; /* both places, and why each would not do */
	snprintf(state, sizeof(state), "%.200s/nobody-state", dir);
	setenv("XDG_STATE_HOME", state, 1);
	if (soak_join(&c, NULL, NULL, err, sizeof(err))) {
		fprintf(stderr, "nobody's join, /tmp taken: %s\n", err);
		return 9;
	}
	soak_leave(&c);
	host_gone();
	return strstr(soak_socket_path(), "/nobody-state/zcbench/soak/soak.sock")
		       ? 0
		       : 10;
}

/* Issue: the soak meter serves only its own user and nobody can spoof
 * it (checked as root, with uid nobody as the stranger). */
static void strangers(void)
{
	char shared[200], err[512];
	struct soak_client c;
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int lfd, st;
	pid_t p;

	if (geteuid() != 0) {
		fprintf(stderr, "strangers: not root, skipped\n");
		return;
	}
	snprintf(shared, sizeof(shared), "%.150s/shared", dir);
	T_ASSERT(mkdir(shared, 0777) == 0 && chmod(shared, 0777) == 0 &&
		 chmod(dir, 0755) == 0);
	snprintf(shared_sock, sizeof(shared_sock), "%s/soak.sock", shared);
	setenv("ZCB_SOAK_SOCKET", shared_sock, 1);
	/* a root host refuses a stranger */
	T_ASSERT(soak_join(&c, NULL, NULL, err, sizeof(err)) == 0);
	/* as if the directory check were gone: the host's own check holds */
	T_CHECK(chmod(shared_sock, 0777) == 0);
	T_CHECK(as_nobody(stranger_raw) == 0);
	soak_leave(&c);
	for (st = 0; st < 300 && soak_host_alive(); st++)
		usleep(10000);
	/* a stranger's host is refused by a root client */
	unlink(shared_sock);
	p = fork();
	if (p == 0) {
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(77);
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%.100s", shared_sock);
		lfd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
		    listen(lfd, 4))
			_exit(1);
		fake_host(lfd);
	}
	for (st = 0; st < 200 && access(shared_sock, F_OK); st++)
		usleep(10000);
	T_CHECK(soak_join(&c, NULL, NULL, err, sizeof(err)) == -EPERM);
	T_CHECK(strstr(err, "served by uid 65534") != NULL);
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	unlink(shared_sock);
	unsetenv("ZCB_SOAK_SOCKET");
	/* a non-root user's default path: private, and checked */
	if (access("/tmp/zcbench-65534", F_OK) == 0) {
		fprintf(stderr, "/tmp/zcbench-65534 exists: path part skipped\n");
		return;
	}
	T_ASSERT(mkdir("/tmp/zcbench-65534", 0777) == 0);
	chmod("/tmp/zcbench-65534", 0777); /* made by root, open to all */
	snprintf(shared, sizeof(shared), "%.150s/nobody-state", dir);
	T_ASSERT(mkdir(shared, 0755) == 0 && chown(shared, NOBODY, NOBODY) == 0);
	T_CHECK(as_nobody(hijacked_path) == 0);
	rmdir("/tmp/zcbench-65534");
	T_CHECK(as_nobody(private_path) == 0);
	{
		struct stat sb;

		T_CHECK(lstat("/tmp/zcbench-65534", &sb) == 0 &&
			sb.st_uid == NOBODY && (sb.st_mode & 0777) == 0700);
	}
	T_CHECK(system("rm -rf /tmp/zcbench-65534") == 0);
}

/* A host whose soakers cannot start answers why and goes, so the next
 * opener starts a fresh one (it used to block in accept for good). */
static void failed_start(void)
{
	struct soak_client c;
	char err[512], sock[300];

	snprintf(sock, sizeof(sock), "%s/fail.sock", dir);
	setenv("ZCB_SOAK_SOCKET", sock, 1);
	/* CPU 200 does not exist here: its soaker cannot pin itself */
	T_CHECK(soak_join(&c, "0,200", NULL, err, sizeof(err)) < 0);
	T_CHECK(strstr(err, "CPU 200") != NULL);
	host_gone();
	T_CHECK(!soak_host_alive());
	T_CHECK(soak_join(&c, NULL, NULL, err, sizeof(err)) == 0);
	T_CHECK(c.started_host);
	soak_leave(&c);
	host_gone();
	unsetenv("ZCB_SOAK_SOCKET");
}

static long host_ticks(pid_t p)
{
	char path[64], buf[1024], *q;
	unsigned long ut = 0, st = 0;
	FILE *f;
	int k;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)p);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	q = strrchr(buf, ')');
	for (k = 0; q && k < 12; k++) /* to field 14 */
		q = strchr(q + 1, ' ');
	if (!q || sscanf(q, " %lu %lu", &ut, &st) != 2)
		return -1;
	return (long)(ut + st);
}

/* A host out of file descriptors rests its listener instead of spinning
 * on it (the connections wait in the queue). */
static void out_of_fds(void)
{
	struct soak_client c;
	char err[512], sock[300];
	int fds[16], i, go[2], st;
	long t0, t1;
	pid_t p;

	snprintf(sock, sizeof(sock), "%s/emfile.sock", dir);
	setenv("ZCB_SOAK_SOCKET", sock, 1);
	T_ASSERT(pipe(go) == 0);
	p = fork();
	if (p == 0) { /* starts the host with a low descriptor limit */
		struct rlimit rl = {12, 12};

		if (setrlimit(RLIMIT_NOFILE, &rl) ||
		    soak_join(&c, NULL, NULL, err, sizeof(err)))
			_exit(1);
		if (write(go[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(go[1]);
	T_ASSERT(read(go[0], &st, 1) == 1);
	T_ASSERT(soak_join(&c, NULL, NULL, err, sizeof(err)) == 0);
	for (i = 0; i < 16; i++)
		fds[i] = soak_unix_connect(sock);
	usleep(300000);
	t0 = host_ticks(c.host_pid);
	usleep(1000000);
	t1 = host_ticks(c.host_pid);
	T_CHECK(t0 >= 0 && t1 - t0 < sysconf(_SC_CLK_TCK) / 4);
	for (i = 0; i < 16; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	soak_leave(&c);
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	close(go[0]);
	host_gone();
	unsetenv("ZCB_SOAK_SOCKET");
}

/* Soaker kinds parse, and a set of one kind is not joined for another. */
static void kinds(void)
{
	struct soak_kind k;
	struct soak_client a, b;
	char err[512], sock[300];

	T_CHECK(soak_kind_parse(NULL, &k, err, sizeof(err)) == 0);
	T_STREQ(k.name, "spin");
	T_CHECK(soak_kind_parse("pause", &k, err, sizeof(err)) == 0 && k.pause);
	T_CHECK(soak_kind_parse("duty:50", &k, err, sizeof(err)) == 0);
	T_STREQ(k.name, "duty:50/10000");
	T_CHECK(k.duty_pct == 50 && k.period_us == 10000);
	T_CHECK(soak_kind_parse("duty:25/500", &k, err, sizeof(err)) == 0);
	T_CHECK(k.duty_pct == 25 && k.period_us == 500);
	T_CHECK(soak_kind_parse("duty:0", &k, err, sizeof(err)) == -EINVAL);
	T_CHECK(soak_kind_parse("duty:50/5", &k, err, sizeof(err)) == -EINVAL);
	T_CHECK(soak_kind_parse("spinny", &k, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "spinny") != NULL);
	snprintf(sock, sizeof(sock), "%s/kind.sock", dir);
	setenv("ZCB_SOAK_SOCKET", sock, 1);
	T_ASSERT(soak_join(&a, NULL, "duty:50/2000", err, sizeof(err)) == 0);
	T_STREQ(a.kind, "duty:50/2000");
	T_CHECK(strstr(a.note, "duty:50/2000 soakers") != NULL);
	T_CHECK(soak_join(&b, NULL, "spin", err, sizeof(err)) == -EBUSY);
	T_CHECK(strstr(err, "runs duty:50/2000 soakers, not spin") != NULL);
	soak_leave(&a);
	host_gone();
	unsetenv("ZCB_SOAK_SOCKET");
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	T_ASSERT(f);
	fputs(text, f);
	fclose(f);
}

/* A CPU cap is found on the cgroup or one above it, v1 and v2, and the
 * top of the hierarchy (which has no quota of its own) ends the walk. */
static void cap_found(void)
{
	char mnt[300], p[400], cap[500];

	snprintf(mnt, sizeof(mnt), "%s/cgv1", dir);
	snprintf(p, sizeof(p), "%s/a/b", mnt);
	T_ASSERT(mkdir(mnt, 0755) == 0);
	snprintf(p, sizeof(p), "%s/a", mnt);
	T_ASSERT(mkdir(p, 0755) == 0);
	snprintf(p, sizeof(p), "%s/a/b", mnt);
	T_ASSERT(mkdir(p, 0755) == 0);
	snprintf(p, sizeof(p), "%s/a/b/cpu.cfs_quota_us", mnt);
	put_file(p, "-1\n");
	snprintf(p, sizeof(p), "%s/a/cpu.cfs_quota_us", mnt);
	put_file(p, "-1\n");
	T_CHECK(soak_cg_cap(mnt, "/a/b", 0, cap, sizeof(cap)) == 0);
	T_STREQ(cap, "");
	put_file(p, "100000\n");
	snprintf(p, sizeof(p), "%s/a/cpu.cfs_period_us", mnt);
	put_file(p, "100000\n");
	T_CHECK(soak_cg_cap(mnt, "/a/b", 0, cap, sizeof(cap)) == 1);
	T_STREQ(cap, "/a: 100000/100000 us");
	T_CHECK(soak_cg_cap(mnt, "/a", 0, cap, sizeof(cap)) == 1);
	T_CHECK(soak_cg_cap(mnt, "", 0, cap, sizeof(cap)) == 0);

	snprintf(mnt, sizeof(mnt), "%s/cgv2", dir);
	T_ASSERT(mkdir(mnt, 0755) == 0);
	snprintf(p, sizeof(p), "%s/x", mnt);
	T_ASSERT(mkdir(p, 0755) == 0);
	snprintf(p, sizeof(p), "%s/x/cpu.max", mnt);
	put_file(p, "max 100000\n");
	T_CHECK(soak_cg_cap(mnt, "/x", 1, cap, sizeof(cap)) == 0);
	put_file(p, "50000 100000\n");
	T_CHECK(soak_cg_cap(mnt, "/x", 1, cap, sizeof(cap)) == 1);
	T_STREQ(cap, "/x: 50000 100000 us");
	/* the hierarchy's own files are never read as a cap */
	snprintf(p, sizeof(p), "%s/cpu.max", mnt);
	put_file(p, "50000 100000\n");
	T_CHECK(soak_cg_cap(mnt, "", 1, cap, sizeof(cap)) == 0);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	alarm(300); /* a hang is a failure, not a stuck test run */
	snprintf(dir, sizeof(dir), "%s/test_soak.XXXXXX", tmp ? tmp : "/tmp");
	T_ASSERT(mkdtemp(dir));
	round_trip();
	mismatch();
	arithmetic();
	settling();
	live();
	failed_start();
	out_of_fds();
	kinds();
	strangers();
	cap_found();
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		T_CHECK(system(cmd) == 0);
	}
	return t_done();
}
