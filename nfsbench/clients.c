/*
 * clients.c: nfsbench's clients and CPU windows (lib/cpu/cpuwin: the client
 * box, --server-pid, --remote-cpu, paired runs). Each client is a process
 * with its own libnfs context and connection (or its own open file under
 * a mount). They set up, report "ready" on a shared pipe, and block on a
 * barrier pipe; closing its write end releases all of them at once. Each
 * reports its figures (or its error) as one fixed-size message: writes of
 * at most PIPE_BUF bytes to a pipe are atomic, so one pipe serves all.
 */
#include "config.h"
#include "nfsbench.h"
#include "clock.h"
#include "log.h"
#include "sig.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MSG_READY = 1, MSG_DONE, MSG_FAIL };

struct nb_msg {
	int kind;	       /* MSG_* */
	int client;	       /* index */
	struct nfsio_stats st; /* MSG_DONE */
	char err[512];	       /* MSG_FAIL */
};

_Static_assert(sizeof(struct nb_msg) <= PIPE_BUF, "atomic pipe message");

static pid_t kids[NB_MAX_CLIENTS]; /* running clients (0 = reaped) */
static uint64_t *progress; /* -i: the clients' bytes, in shared memory */
static int nkids;

/* ---- CPU of both sides ---- */

struct cpuwin *nb_cpu_open(const struct cfg *c)
{
	static struct cpuwin w;
	struct cpuwin_cfg cc = {
		.local = c->cli.cpu,
		.local_list = c->cli.cpu_list,
		.remote = c->remote_cpu,
		.server_pid = c->server_pid,
		.server_side = "remote", /* the server's figures, first */
		.timeout_ms = c->timeout_ms,
	};
	char err[1024];

	if (cpuwin_open(&w, &cc, err, sizeof(err)))
		die("CPU: %s", err);
	return &w;
}

void nb_cpu_close(struct cpuwin *w)
{
	if (w)
		cpuwin_close(w);
}

/* ---- one client (a child process) ---- */

static void client_target(const struct cfg *c, int i, char *buf, size_t len)
{
	char suffix[32];

	if (!c->own_files) {
		snprintf(buf, len, "%s", c->path);
		return;
	}
	snprintf(suffix, sizeof(suffix), ".%d", i);
	if (nfsio_url_suffix(c->path, suffix, buf, len))
		snprintf(buf, len, "%s", c->path);
}

static void send_msg(int fd, struct nb_msg *m)
{
	ssize_t r;

	do
		r = write(fd, m, sizeof(*m));
	while (r < 0 && errno == EINTR);
}

static void client_main(const struct cfg *c, size_t reqsize, int i, int go,
			int res)
{
	char target[4200], verify[4200];
	struct nfsio_opts o = {
		.target = target,
		.op = c->op,
		.reqsize = reqsize,
		.qd = c->qd,
		.async = c->async,
		.direct = c->direct,
		.timeout_ms = c->timeout_ms,
		.size = c->bytes,
		.vers = c->vers,
		.verify = c->verify,
		.seed = c->seed,
		.progress = c->iv || c->cli.omit > 0 ? progress : NULL,
	};
	struct nb_msg m = {0};
	struct nfsio *io;
	char b;

	sig_default();
	client_target(c, i, target, sizeof(target));
	if (c->verify == NFSIO_VERIFY_FILE) {
		snprintf(verify, sizeof(verify), "%s%s", c->verify_file,
			 c->own_files ? strrchr(target, '.') : "");
		o.verify_file = verify;
	}
	m.client = i;
	if (nfsio_open(&o, &io, m.err, sizeof(m.err))) {
		m.kind = MSG_FAIL;
		send_msg(res, &m);
		_exit(1);
	}
	m.kind = MSG_READY;
	send_msg(res, &m);
	while (read(go, &b, 1) < 0 && errno == EINTR) /* EOF = go */
		;
	if (nfsio_run(io, &m.st, m.err, sizeof(m.err))) {
		m.kind = MSG_FAIL;
		send_msg(res, &m);
		nfsio_close(io);
		_exit(1);
	}
	m.kind = MSG_DONE;
	send_msg(res, &m);
	nfsio_close(io);
	_exit(0);
}

/* ---- the parent ---- */

void nb_kill_clients(void)
{
	int i;

	for (i = 0; i < nkids; i++)
		if (kids[i] > 0)
			kill(kids[i], SIGKILL);
	for (i = 0; i < nkids; i++)
		if (kids[i] > 0)
			waitpid(kids[i], NULL, 0);
	nkids = 0;
}

/* A client that exited without a message (crashed). -1 with err. */
static int check_kids(int *running, char *err, size_t len)
{
	int i, st;
	pid_t r;

	for (i = 0; i < nkids; i++) {
		if (kids[i] <= 0)
			continue;
		r = waitpid(kids[i], &st, WNOHANG);
		if (r != kids[i])
			continue;
		kids[i] = 0;
		if (running[i]) {
			if (WIFSIGNALED(st))
				snprintf(err, len,
					 "client %d died of signal %d", i,
					 WTERMSIG(st));
			else
				snprintf(
					err, len,
					"client %d exited (%d) without a report",
					i, WEXITSTATUS(st));
			return -1;
		}
	}
	return 0;
}

/* Until the deadline, at most 100 ms (a crashed client is seen). */
static int wait_ms(double deadline)
{
	double ms = (deadline - clock_now()) * 1000;

	return ms < 1 ? 1 : ms > 100 ? 100 : (int)ms;
}

/* Wait for `want` messages of kind `kind` (a FAIL ends it); the
 * deadline passed: -1 (err says so), or 1 when until (--omit's wait for
 * its T: no message is due) */
static int collect(const struct cfg *c, int res, int kind, int want,
		   double deadline, int *running, struct nb_msg *out,
		   double *last, char *err, size_t len, const char *phase,
		   int until)
{
	struct pollfd pfd = {.fd = res, .events = POLLIN};
	struct nb_msg m;
	int got = 0, r;
	ssize_t n;

	while (got < want) {
		if (sig_stop) {
			snprintf(err, len, "interrupted by signal %d while %s",
				 (int)sig_stop, phase);
			return -1;
		}
		if (until && clock_now() >= deadline)
			return 1;
		if (clock_now() > deadline) {
			snprintf(err, len,
				 "timeout while %s: %d of %d clients reported",
				 phase, got, want);
			return -1;
		}
		r = poll(&pfd, 1, until ? wait_ms(deadline) : 100);
		if (r <= 0) {
			if (check_kids(running, err, len))
				return -1;
			continue;
		}
		n = read(res, &m, sizeof(m));
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(m) || m.client < 0 ||
		    m.client >= want) {
			snprintf(err, len,
				 "clients' report pipe broke while %s", phase);
			return -1;
		}
		m.err[sizeof(m.err) - 1] = 0;
		if (m.kind == MSG_FAIL) {
			snprintf(err, len, "client %d, %s: %s", m.client, phase,
				 m.err);
			running[m.client] = 0;
			return -1;
		}
		if (m.kind != kind)
			continue;
		if (kind == MSG_DONE) {
			out[m.client] = m;
			running[m.client] = 0;
			*last = clock_now();
		}
		got++;
	}
	(void)c;
	return 0;
}

/*
 * --omit: the sample's first T after the barrier fell (t0) run
 * unmeasured: a failed or finished client ends it then (the sample was
 * shorter than T, said in err); then the bytes so far (the clients'
 * shared counter) are set aside and the windows open. 0 or -1.
 */
static int omit_part(const struct cfg *c, int res, int nclients, double t0,
		     int *running, struct nb_msg *msgs, struct cpuwin *w,
		     struct nb_sample *s, char *err, size_t len)
{
	double last = 0;
	int r, i;

	r = collect(c, res, MSG_DONE, nclients, t0 + c->cli.omit, running,
		    msgs, &last, err, len, "the omitted part", 1);
	for (i = 0; r >= 0 && i < nclients; i++)
		if (!running[i]) {
			snprintf(err, len,
				 "--omit %g s: client %d ended after %.3f s, before the measured part began (more --bytes, or a shorter --omit)",
				 c->cli.omit, i, last - t0);
			return -1;
		}
	if (r < 0)
		return -1;
	s->omit_s = clock_now() - t0;
	s->omit_bytes = __atomic_load_n(progress, __ATOMIC_RELAXED);
	s->omit_ops = s->reqsize ? s->omit_bytes / s->reqsize : 0;
	return cpuwin_start(w, err, len) ? -1 : 0;
}

static void sum_up(struct nb_sample *s, const struct nb_msg *m, int n)
{
	int i;

	s->min_client_s = 1e30;
	for (i = 0; i < n; i++) {
		const struct nfsio_stats *t = &m[i].st;

		s->bytes += t->bytes;
		s->ops += t->ops;
		s->short_ops += t->short_ops;
		s->verified += t->verified;
		if (t->elapsed_s < s->min_client_s)
			s->min_client_s = t->elapsed_s;
		if (t->elapsed_s > s->max_client_s)
			s->max_client_s = t->elapsed_s;
		s->readmax = t->readmax;
		s->writemax = t->writemax;
		s->vers = t->vers;
	}
}

/* -i: the counter every client adds its bytes to, in memory the forked
 * clients share with this process (mapped once, kept to the end), at 0. */
static int shared_progress(char *err, size_t len)
{
	void *p = progress;

	if (!p)
		p = mmap(NULL, sizeof(*progress), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, len, "-i: cannot map a shared counter: %s",
			 strerror(errno));
		return -1;
	}
	progress = p;
	*progress = 0;
	return 0;
}

static int drop_caches(char *err, size_t len)
{
	FILE *f;

	sync();
	f = fopen("/proc/sys/vm/drop_caches", "w");
	if (!f || fputs("3\n", f) < 0 || fclose(f)) {
		snprintf(
			err, len,
			"--drop-caches: cannot write /proc/sys/vm/drop_caches: %s",
			strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	return 0;
}

int nb_run_sample(const struct cfg *c, size_t reqsize, int nclients,
		  struct cpuwin *w, int metered, struct nb_sample *s, char *err,
		  size_t len)
{
	int go[2], res[2], i, rc = -1, running[NB_MAX_CLIENTS];
	struct nb_msg *msgs;
	double t0, last = 0, setup_limit;
	pid_t parent = getpid();

	memset(s, 0, sizeof(*s));
	s->clients = nclients;
	s->reqsize = reqsize;
	if (c->drop_caches && drop_caches(err, len))
		return -1;
	/* paired runs: the soakers of every measured box park (or wake)
	 * now, box-wide; the clients, forked below, run as the box runs */
	if (cpuwin_paired(w) && cpuwin_metered(w, metered, err, len))
		return -1;
	if ((c->iv || c->cli.omit > 0) && shared_progress(err, len))
		return -1;
	msgs = calloc((size_t)nclients, sizeof(*msgs));
	if (!msgs || pipe2(go, O_CLOEXEC) || pipe2(res, O_CLOEXEC)) {
		snprintf(err, len, "cannot make pipes: %s", strerror(errno));
		free(msgs);
		return -1;
	}
	fflush(NULL);
	for (i = 0; i < nclients; i++) {
		pid_t p = fork();

		if (p < 0) {
			snprintf(err, len, "fork of client %d: %s", i,
				 strerror(errno));
			goto out;
		}
		if (p == 0) {
			sig_die_with_parent(SIGKILL, parent);
			close(go[1]);
			close(res[0]);
			client_main(c, reqsize, i, go[0], res[1]);
		}
		kids[nkids++] = p;
		running[i] = 1;
	}
	close(res[1]);
	res[1] = -1;
	/* setup: connect + mount + open, a few RPCs each */
	setup_limit = 4.0 * c->timeout_ms / 1000.0 + 5 + 0.05 * nclients;
	if (collect(c, res[0], MSG_READY, nclients, clock_now() + setup_limit,
		    running, msgs, &last, err, len, "connecting", 0))
		goto out;
	if (c->cli.omit <= 0 && cpuwin_start(w, err, len))
		goto out;
	t0 = clock_now();
	ival_watch(c->iv, progress);
	close(go[1]); /* the barrier falls */
	go[1] = -1;
	if (c->cli.omit > 0 && omit_part(c, res[0], nclients, t0, running,
					 msgs, w, s, err, len))
		goto out;
	if (collect(c, res[0], MSG_DONE, nclients, t0 + c->max_time, running,
		    msgs, &last, err, len,
		    c->op == NFSIO_WRITE ? "writing" : "reading", 0))
		goto out;
	/* reap before the rusage meter stops: it counts reaped children */
	for (i = 0; i < nkids; i++)
		if (kids[i] > 0)
			waitpid(kids[i], NULL, 0);
	nkids = 0;
	if (cpuwin_stop(w, &s->cpu, err, len))
		goto out;
	s->elapsed_s = last - t0 - s->omit_s;
	sum_up(s, msgs, nclients);
	s->bytes -= s->omit_bytes; /* the measured part's */
	s->ops -= s->omit_ops < s->ops ? s->omit_ops : s->ops;
	rc = 0;
out:
	ival_watch(c->iv, NULL); /* the counter stays: no read after this */
	if (rc)
		nb_kill_clients();
	nkids = 0;
	if (go[1] >= 0)
		close(go[1]);
	close(go[0]);
	close(res[0]);
	if (res[1] >= 0)
		close(res[1]);
	free(msgs);
	return rc;
}
