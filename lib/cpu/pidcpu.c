/*
 * pidcpu.c: CPU time of a process tree from /proc/PID/stat, as a
 * cpu_sample (see pidcpu.h). Used for --server-pid when the server under
 * test runs on this box.
 */
#include "config.h"
#include "pidcpu.h"
#include "clock.h"
#include "hostinfo.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PIDCPU_MAX_PROCS 65536 /* processes scanned for descendants */

int pidcpu_parse_stat(const char *text, struct pidcpu_stat *s)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	unsigned long long v[15];
	char st;
	long pid, ppid, prio = 0, nice = 0;
	size_t n;
	int k;

	memset(s, 0, sizeof(*s));
	if (!open || !close || close < open)
		return -EINVAL;
	if (sscanf(text, "%ld", &pid) != 1 || pid <= 0)
		return -EINVAL;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(s->comm))
		n = sizeof(s->comm) - 1;
	memcpy(s->comm, open + 1, n);
	s->comm[n] = 0;
	/* after ")": state ppid pgrp session tty tpgid flags minflt cminflt
	 * majflt cmajflt utime stime cutime cstime priority nice */
	k = sscanf(close + 1,
		   " %c %ld %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %ld %ld",
		   &st, &ppid, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
		   &v[7], &v[8], &v[9], &v[10], &v[11], &v[12], &prio, &nice);
	if (k < 15)
		return -EINVAL;
	s->pid = (pid_t)pid;
	s->state = st;
	s->ppid = (pid_t)ppid;
	s->flags = (unsigned long)v[4];
	s->utime = v[9];
	s->stime = v[10];
	s->cutime = v[11];
	s->cstime = v[12];
	s->nice = k == 17 ? nice : 0;
	return 0;
}

static int read_stat(const char *root, pid_t pid, struct pidcpu_stat *s)
{
	char path[64], buf[1024];
	long r;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	r = host_read_file(root, path, buf, sizeof(buf));
	if (r < 0)
		return r == -ENOENT ? -ESRCH : (int)r;
	return pidcpu_parse_stat(buf, s);
}

struct node {
	pid_t pid, ppid;	/* the process and its parent */
	uint64_t ticks, uticks; /* its own and reaped children's time */
	int user;		/* no kernel thread, not niced */
};

static uint64_t all(const struct pidcpu_stat *s)
{
	return s->utime + s->stime + s->cutime + s->cstime;
}

/* Every process in root/proc (NULL on failure); *n gets the count. */
static struct node *scan(const char *root, size_t *n)
{
	char dir[512];
	struct dirent *e;
	struct node *v = NULL, *nv;
	size_t cap = 0;
	struct pidcpu_stat s;
	DIR *d;
	long pid;
	char *end;

	*n = 0;
	snprintf(dir, sizeof(dir), "%s/proc", root ? root : "");
	d = opendir(dir);
	if (!d)
		return NULL;
	while ((e = readdir(d)) && *n < PIDCPU_MAX_PROCS) {
		pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || read_stat(root, (pid_t)pid, &s))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[*n].pid = s.pid;
		v[*n].ppid = s.ppid;
		v[*n].ticks = all(&s);
		v[*n].uticks = s.utime + s.cutime;
		v[*n].user = !(s.flags & PIDCPU_KTHREAD) && s.nice <= 0;
		(*n)++;
	}
	closedir(d);
	return v;
}

static int descends(const struct node *v, size_t n, size_t i, pid_t top)
{
	pid_t p = v[i].ppid;
	size_t k, hops;

	for (hops = 0; p > 1 && hops < 64; hops++) {
		if (p == top)
			return 1;
		for (k = 0; k < n && v[k].pid != p; k++)
			;
		if (k == n)
			return 0;
		p = v[k].ppid;
	}
	return p == top;
}

/*
 * pid's own stat into *s (NULL: only that pid is there) and, with tree,
 * every process into *v (free() it; NULL when the scan failed, errno
 * saying why, or without tree): 0, or -errno when pid cannot be read.
 */
static int read_tree(const char *root, pid_t pid, int tree,
		     struct pidcpu_stat *s, struct node **v, size_t *n)
{
	struct pidcpu_stat own;
	int r = read_stat(root, pid, s ? s : &own);

	*v = NULL;
	*n = 0;
	if (r || !tree)
		return r;
	*v = scan(root, n);
	return 0;
}

int pidcpu_ticks(const char *root, pid_t pid, int tree, uint64_t *ticks,
		 uint64_t *uticks, int *nproc)
{
	struct pidcpu_stat s;
	struct node *v;
	size_t n, i;
	int r;

	r = read_tree(root, pid, tree, &s, &v, &n);
	if (r)
		return r;
	*ticks = all(&s);
	*uticks = s.utime + s.cutime;
	*nproc = 1;
	for (i = 0; v && i < n; i++)
		if (v[i].pid != pid && descends(v, n, i, pid)) {
			*ticks += v[i].ticks;
			*uticks += v[i].uticks;
			(*nproc)++;
		}
	free(v);
	return 0;
}

int pidcpu_split(const char *root, pid_t pid, uint64_t *tree,
		 uint64_t *others)
{
	struct node *v;
	size_t n, i;
	int r = read_tree(root, pid, 1, NULL, &v, &n);

	if (r)
		return r;
	if (!v)
		return -errno ? -errno : -ENOMEM;
	*tree = *others = 0;
	for (i = 0; i < n; i++) {
		if (v[i].pid == pid || descends(v, n, i, pid))
			*tree += v[i].ticks;
		else if (v[i].user)
			*others += v[i].ticks;
	}
	free(v);
	return 0;
}

int pidcpu_descendants(const char *root, pid_t pid, pid_t *out, int max)
{
	struct node *v;
	size_t n, i;
	int k = 0;

	v = scan(root, &n);
	if (!v)
		return -errno ? -errno : -ENOMEM;
	for (i = 0; i < n && k < max; i++)
		if (v[i].pid != pid && descends(v, n, i, pid))
			out[k++] = v[i].pid;
	free(v);
	return k;
}

int pidcpu_open(struct pidcpu *p, const char *root, pid_t pid, int tree,
		char *err, size_t len)
{
	struct pidcpu_stat s;
	int r;

	memset(p, 0, sizeof(*p));
	snprintf(p->root, sizeof(p->root), "%s", root ? root : "");
	p->pid = pid;
	p->tree = tree;
	r = read_stat(p->root, pid, &s);
	if (r) {
		snprintf(err, len, "server process %d: %s", (int)pid,
			 r == -ESRCH ? "no such process" : strerror(-r));
		return r;
	}
	snprintf(p->comm, sizeof(p->comm), "%s", s.comm);
	return 0;
}

int pidcpu_start(struct pidcpu *p)
{
	int n;

	p->w0 = clock_now();
	return pidcpu_ticks(p->root, p->pid, p->tree, &p->t0, &p->u0, &n);
}

int pidcpu_stop(struct pidcpu *p, struct cpu_sample *out)
{
	uint64_t t, u;
	double hz = (double)sysconf(_SC_CLK_TCK), busy, user;
	int n, r;

	memset(out, 0, sizeof(*out));
	snprintf(out->meter, sizeof(out->meter), "pid");
	snprintf(out->scope, sizeof(out->scope), "process");
	out->elapsed_s = clock_now() - p->w0;
	out->ncpu = host_online_cpus();
	r = pidcpu_ticks(p->root, p->pid, p->tree, &t, &u, &n);
	if (r) {
		snprintf(out->why, sizeof(out->why),
			 "server process %d (%s) %s during the run",
			 (int)p->pid, p->comm,
			 r == -ESRCH ? "exited" : "became unreadable");
		return r;
	}
	if (hz <= 0)
		hz = 100;
	/* a reaped descendant may move ticks between counters: clamp */
	busy = t > p->t0 ? (double)(t - p->t0) / hz : 0;
	user = u > p->u0 ? (double)(u - p->u0) / hz : 0;
	if (user > busy)
		user = busy;
	out->utime_s = user;
	out->stime_s = busy - user;
	if (out->elapsed_s > 0 && out->ncpu > 0) {
		out->busy_pct = 100.0 * busy / (out->elapsed_s * out->ncpu);
		out->user_pct = 100.0 * user / (out->elapsed_s * out->ncpu);
		out->sys_pct = out->busy_pct - out->user_pct;
	}
	if (out->busy_pct > 100)
		out->busy_pct = 100; /* tick granularity over short windows */
	snprintf(out->note, sizeof(out->note),
		 "process %d (%s)%s, %d process%s, %.0f Hz ticks", (int)p->pid,
		 p->comm, p->tree ? " and descendants" : "", n,
		 n == 1 ? "" : "es", hz);
	out->ok = 1;
	return 0;
}
