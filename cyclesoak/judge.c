/*
 * judge.c: the self-test's I/O part: every meter against sched, the
 * exact one, on loads whose truth no one knows: the loopback stream, a
 * 1-byte request/response and, where diod and p9bench are here, a 9P
 * read of 4 KiB (scripts/peer-diod starts the diod). Each load runs
 * under a leader process, so sched's "self" is the load, and diod is
 * its peer. One row per load: each meter's figure and its difference
 * from sched, in points of the box. soak's figure includes what its own
 * soakers cost; procstat's irq and softirq time is a tick sample on a
 * kernel without CONFIG_IRQ_TIME_ACCOUNTING.
 */
#include "config.h"
#include "clock.h"
#include "cyclesoak.h"
#include "log.h"
#include "sig.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define JUDGE_TOOL_WAIT_S 30.0 /* peer-diod start/stop, at most */

enum { IO_STREAM, IO_RR, IO_9P };

struct p9peer {
	pid_t pid;		/* the diod, 0 = none */
	char addr[64];		/* 127.0.0.1:PORT */
	char export[PATH_MAX];
	char diod[PATH_MAX];	/* peer-diod */
	char p9bench[PATH_MAX];
	char why[160];		/* why there is no 9P load */
};

/* An executable named name: beside this program, in the build tree's
 * folder sub for it, in the source tree's (the build's, or
 * $ZCB_SRCDIR), installed in ../libexec/zcbench, then in PATH. */
static int find_exe(const char *name, const char *sub, char *out,
		    size_t len)
{
	char self[PATH_MAX], *dir, *path, *tok, *save = NULL, buf[4096];
	const char *src = getenv("ZCB_SRCDIR");
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0) {
		self[n] = '\0';
		dir = strrchr(self, '/');
		if (dir) {
			*dir = '\0';
			snprintf(out, len, "%s/%s", self, name);
			if (!access(out, X_OK))
				return 0;
			snprintf(out, len, "%s/../%s/%s", self, sub, name);
			if (!access(out, X_OK))
				return 0;
			snprintf(out, len, "%s/../libexec/zcbench/%s", self,
				 name);
			if (!access(out, X_OK))
				return 0;
		}
	}
	snprintf(out, len, "%s/%s/%s", src ? src : ZCB_SRCDIR, sub, name);
	if (!access(out, X_OK))
		return 0;
	path = getenv("PATH");
	snprintf(buf, sizeof(buf), "%s", path ? path : "/usr/bin:/bin");
	for (tok = strtok_r(buf, ":", &save); tok;
	     tok = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", tok, name);
		if (!access(out, X_OK))
			return 0;
	}
	return -ENOENT;
}

/* Run argv, its stdout into out; a limit on the wait. Its exit status,
 * or -1. */
static int run_capture(char *const *argv, char *out, size_t len)
{
	double end = clock_now() + JUDGE_TOOL_WAIT_S;
	int fd[2], st = 0;
	size_t got = 0;
	ssize_t n;
	pid_t p, r;

	out[0] = '\0';
	if (pipe(fd))
		return -1;
	p = fork();
	if (p < 0)
		return -1;
	if (p == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	while (got + 1 < len && (n = read(fd[0], out + got, len - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(fd[0]);
	while ((r = waitpid(p, &st, WNOHANG)) == 0 && clock_now() < end)
		clock_sleep(0.05);
	if (r == 0) {
		kill(p, SIGKILL);
		waitpid(p, &st, 0);
		return -1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A diod on loopback through peer-diod, when diod and p9bench are here. */
static void p9_start(struct p9peer *d)
{
	char line[8192], log[PATH_MAX];
	char *argv[] = {d->diod, "start", NULL};
	int pid;

	memset(d, 0, sizeof(*d));
	if (find_exe("p9bench", "p9bench", d->p9bench, sizeof(d->p9bench))) {
		snprintf(d->why, sizeof(d->why), "no p9bench");
		return;
	}
	if (find_exe("peer-diod", "scripts", d->diod, sizeof(d->diod))) {
		snprintf(d->why, sizeof(d->why), "no scripts/peer-diod");
		return;
	}
	if (find_exe("diod", "sbin", line, sizeof(line)) &&
	    access("/usr/sbin/diod", X_OK)) {
		snprintf(d->why, sizeof(d->why), "diod is not installed");
		return;
	}
	if (run_capture(argv, line, sizeof(line)) != 0 ||
	    sscanf(line, "%d %63s %4095s %4095s", &pid, d->addr, d->export,
		   log) != 4 || pid <= 0) {
		snprintf(d->why, sizeof(d->why), "peer-diod start failed");
		return;
	}
	d->pid = (pid_t)pid;
}

static void p9_stop(struct p9peer *d)
{
	char pid[24], out[256];
	char *argv[] = {d->diod, "stop", pid, d->export, NULL};

	if (!d->pid)
		return;
	snprintf(pid, sizeof(pid), "%d", (int)d->pid);
	if (run_capture(argv, out, sizeof(out)))
		log_warn("selftest: peer-diod stop %s failed", pid);
	d->pid = 0;
}

/* 4 KiB 9P reads for seconds through p9bench (copy path): its status. */
static double p9_read(const struct p9peer *d, double seconds)
{
	char dur[32], out[8192];
	char *argv[] = {(char *)d->p9bench, "-s", (char *)d->addr, "-a",
			(char *)d->export, "--op", "read", "--path", "copy",
			"--sizes", "4096", "--file-size", "4M", "--duration",
			dur, NULL};

	snprintf(dur, sizeof(dur), "%.3f", seconds);
	return run_capture(argv, out, sizeof(out)) == 0 ? 1 : NAN;
}

/* The load, in the leader: its rate, written back. */
static void __attribute__((noreturn))
lead(struct selftest *s, int kind, const struct p9peer *d, int res)
{
	double v;

	switch (kind) {
	case IO_STREAM:
		v = st_stream(s->cpu[0], s->cpu[1], s->c->load_s);
		break;
	case IO_RR:
		v = st_pingpong(s->cpu[0], s->cpu[1], s->c->load_s);
		break;
	default:
		v = p9_read(d, s->c->load_s);
	}
	if (write(res, &v, sizeof(v)) < 0)
		_exit(1);
	_exit(0);
}

/* The sample of the exact meter (sched), the reference; -1 none. */
static int find_exact(const struct cpu_sample *smp, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (smp[i].ok && (meter_flags_of(smp[i].meter) & METER_EXACT))
			return i;
	return -1;
}

static void record(struct selftest *s, const char *load,
		   const struct cpu_sample *smp, int n, int ref)
{
	json_t *kase, *x;
	int i;

	for (i = 0; s->d && i < n; i++) {
		if (!smp[i].ok)
			continue;
		x = st_meter_sample(s, load, &smp[i], &kase);
		if (ref >= 0)
			res_sample_set(x, "vs_sched_pts",
				       smp[i].busy_pct - smp[ref].busy_pct);
		meter_add_raw(x, "box", &smp[i], 1);
		res_sample(kase, x);
	}
}

/* One I/O load measured by every meter: its row. */
static void one_io(struct selftest *s, const char *load, int kind,
		   const struct p9peer *d)
{
	struct cpu_sample smp[METER_MAX];
	struct meter_opts mo = s->mo;
	int n, i, go, res, ref;
	double v = NAN;
	pid_t leader;

	leader = cs_fork_held(SIGKILL, &go, &res);
	if (!leader)
		lead(s, kind, d, res);
	mo.peers = kind == IO_9P ? &d->pid : NULL;
	mo.npeers = kind == IO_9P;
	n = st_measure_held(s, &mo, leader, go, res, &v, smp);
	if (n < 0)
		return;
	ref = find_exact(smp, n);
	fprintf(s->out, "  %-10s", load);
	for (i = 0; i < n; i++) {
		if (!smp[i].ok)
			fprintf(s->out, "  %15s", "n/a");
		else if (ref < 0 || i == ref)
			fprintf(s->out, "  %6.1f %8s", smp[i].busy_pct, "");
		else
			fprintf(s->out, "  %6.1f (%+5.1f)", smp[i].busy_pct,
				smp[i].busy_pct - smp[ref].busy_pct);
	}
	if (!isfinite(v))
		fprintf(s->out, "  (the load failed)");
	fputc('\n', s->out);
	if (ref >= 0)
		fprintf(s->out,
			"  %-10s sched: load %.1f, peer %.1f, others %.1f, hardirq %.1f, softirq %.1f (NET_RX %.1f)\n",
			"", smp[ref].sched.self_pct, smp[ref].sched.peer_pct,
			smp[ref].sched.other_pct, smp[ref].sched.hardirq_pct,
			smp[ref].sched.softirq_pct, smp[ref].sched.vec_pct[3]);
	fflush(s->out);
	record(s, load, smp, n, ref);
}

void selftest_judge(struct selftest *s)
{
	struct p9peer d;

	fprintf(s->out,
		"\nI/O loads: every meter against sched (%s, %.1fs each; in "
		"parentheses the difference from sched, points of the box)\n",
		s->meters, s->c->load_s);
	one_io(s, "io-stream", IO_STREAM, NULL);
	if (!sig_stop)
		one_io(s, "io-rr", IO_RR, NULL);
	if (sig_stop)
		return;
	p9_start(&d);
	if (d.pid)
		one_io(s, "io-9p-read", IO_9P, &d);
	else
		fprintf(s->out, "  %-10s skipped: %s\n", "io-9p-read", d.why);
	fflush(s->out);
	p9_stop(&d);
	if (s->d)
		res_metric(s->d, "vs_sched_pts", "points", RES_LOWER, 0);
}
