/*
 * soak_cg.c: the cgroup with cpu.idle=1 that keeps soakers from taking
 * CPU from the load. Without it, autogroup gives the soak host's session
 * a group of its own and a fair share: a 100% load kept only 62-65% of
 * its CPU on the development machines; with cpu.idle=1 it keeps 99.6%.
 * cgroup v1 (a hierarchy with the cpu controller) or v2 (cpu in
 * cgroup.controllers). System calls and static buffers only: this runs
 * in the soak host, after a fork of a process that may have threads.
 */
#include "config.h"
#include "soak_int.h"
#include "hostinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CG_PREFIX "zcbench-soak-"

static char mounts[32768], own[4096]; /* /proc/self/{mounts,cgroup} */

static int has_token(const char *list, size_t n, const char *tok)
{
	size_t t = strlen(tok);
	const char *p = list, *end = list + n;

	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t l = c ? (size_t)(c - p) : (size_t)(end - p);

		if (l == t && !memcmp(p, tok, t))
			return 1;
		p += l + 1;
	}
	return 0;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), e = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		e = -errno;
	close(fd);
	return e;
}

/* Mount point of the hierarchy: v1 with the cpu controller, or v2. */
static int find_mount(int v2, char *mnt, size_t len)
{
	static char line[2048], m[512], type[64], opts[512];
	const char *p = mounts, *nl;

	for (; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		snprintf(line, sizeof(line), "%.*s",
			 (int)(nl ? nl - p : (long)strlen(p)), p);
		if (sscanf(line, "%*s %511s %63s %511s", m, type, opts) != 3)
			continue;
		if (v2 ? !strcmp(type, "cgroup2")
		       : !strcmp(type, "cgroup") &&
				    has_token(opts, strlen(opts), "cpu")) {
			snprintf(mnt, len, "%s", m);
			return 0;
		}
	}
	return -ENOENT;
}

/* Our own path in that hierarchy from /proc/self/cgroup. */
static void own_path(int v2, char *path, size_t len)
{
	char *line = own, *nl, *c1, *c2;

	path[0] = 0;
	for (; *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		c1 = strchr(line, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2 || (nl && c2 > nl))
			continue;
		if (v2 ? (c2 == c1 + 1 && !strncmp(line, "0:", 2))
		       : has_token(c1 + 1, (size_t)(c2 - c1 - 1), "cpu")) {
			snprintf(path, len, "%.*s",
				 (int)((nl ? nl : c2 + strlen(c2)) - c2 - 1),
				 c2 + 1);
			if (!strcmp(path, "/"))
				path[0] = 0;
			return;
		}
	}
}

/* rmdir zcbench-soak-<pid> of owners that are gone (empty ones only). */
static void clean_stale(const char *parent)
{
	static char buf[8192], p[700];
	int fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n, off;

	if (fd < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n;) {
			unsigned short rl;
			const char *name = buf + off + 19;
			long pid;

			memcpy(&rl, buf + off + 16, sizeof(rl));
			off += rl;
			if (strncmp(name, CG_PREFIX, strlen(CG_PREFIX)))
				continue;
			pid = strtol(name + strlen(CG_PREFIX), NULL, 10);
			if (pid > 0 && kill((pid_t)pid, 0) && errno == ESRCH) {
				snprintf(p, sizeof(p), "%.400s/%.250s", parent,
					 name);
				rmdir(p);
			}
		}
	}
	close(fd);
}

int soak_cg_cap(const char *mnt, const char *rel, int v2, char *cap,
		size_t len)
{
	static char d[1600], p[1700], q[64], per[64];
	size_t top = strlen(mnt);
	char *e;

	cap[0] = 0;
	snprintf(d, sizeof(d), "%s%s", mnt, rel);
	while (strlen(d) > top) {
		if (v2) {
			snprintf(p, sizeof(p), "%s/cpu.max", d);
			if (host_read_file("", p, q, sizeof(q)) > 0 &&
			    strncmp(q, "max", 3)) {
				q[strcspn(q, "\n")] = 0;
				snprintf(cap, len, "%.400s: %s us",
					 d + top, q);
				return 1;
			}
		} else {
			snprintf(p, sizeof(p), "%s/cpu.cfs_quota_us", d);
			if (host_read_file("", p, q, sizeof(q)) > 0 &&
			    strtol(q, NULL, 10) > 0) {
				snprintf(p, sizeof(p), "%s/cpu.cfs_period_us",
					 d);
				if (host_read_file("", p, per, sizeof(per)) <= 0)
					snprintf(per, sizeof(per), "?");
				q[strcspn(q, "\n")] = 0;
				per[strcspn(per, "\n")] = 0;
				snprintf(cap, len, "%.400s: %s/%s us",
					 d + top, q, per);
				return 1;
			}
		}
		e = strrchr(d, '/');
		if (!e)
			break;
		*e = 0;
	}
	return 0;
}

static int try_parent(struct soak_cg *cg, const char *parent, int v2,
		      pid_t owner)
{
	static char p[700];
	int r;

	clean_stale(parent);
	if (v2) {
		snprintf(p, sizeof(p), "%s/cgroup.subtree_control", parent);
		write_str(p, "+cpu"); /* may be on already */
	}
	snprintf(cg->dir, sizeof(cg->dir), "%s/" CG_PREFIX "%d", parent,
		 (int)owner);
	if (mkdir(cg->dir, 0755) && errno != EEXIST) {
		r = -errno;
		snprintf(cg->why, sizeof(cg->why), "mkdir %.100s: %.40s",
			 cg->dir, strerror(errno));
		cg->dir[0] = 0;
		return r;
	}
	snprintf(p, sizeof(p), "%s/cpu.idle", cg->dir);
	r = write_str(p, "1");
	if (r) {
		snprintf(cg->why, sizeof(cg->why), "%.100s: %.40s", p,
			 strerror(-r));
		rmdir(cg->dir);
		cg->dir[0] = 0;
		return r;
	}
	snprintf(cg->procs, sizeof(cg->procs), "%s/cgroup.procs", cg->dir);
	snprintf(cg->note, sizeof(cg->note), "cgroup v%d cpu.idle=1 (%.150s)",
		 v2 ? 2 : 1, cg->dir);
	return 0;
}

static int try_hierarchy(struct soak_cg *cg, int v2, pid_t owner)
{
	static char mnt[512], rel[1024], parent[1600], p[1700], cap[500];
	long n;

	if (find_mount(v2, mnt, sizeof(mnt)))
		return -ENOENT;
	if (v2) {
		snprintf(p, sizeof(p), "%s/cgroup.controllers", mnt);
		n = host_read_file("", p, rel, sizeof(rel));
		if (n < 0 || !strstr(rel, "cpu")) {
			snprintf(cg->why, sizeof(cg->why),
				 "cgroup v2 at %.100s has no cpu controller",
				 mnt);
			return -ENOENT;
		}
	} else {
		snprintf(p, sizeof(p), "%s/cpu.idle", mnt);
		if (access(p, F_OK)) {
			snprintf(cg->why, sizeof(cg->why),
				 "cgroup v1 cpu at %.100s has no cpu.idle",
				 mnt);
			return -ENOENT;
		}
	}
	own_path(v2, rel, sizeof(rel));
	/*
	 * Below a CPU cap (a cgroup of ours or above it with a quota) the
	 * soakers would share the cap: on an idle box they would get only
	 * the quota and the soak figure would read the rest as load. So
	 * they go to the hierarchy's top, outside the cap, where they take
	 * the box's idle time, which is what the figure is of.
	 */
	if (rel[0] && soak_cg_cap(mnt, rel, v2, cap, sizeof(cap))) {
		if (!try_parent(cg, mnt, v2, owner)) {
			n = (long)strlen(cg->note);
			snprintf(cg->note + n, sizeof(cg->note) - (size_t)n,
				 ", outside the CPU cap of %.80s", cap);
			return 0;
		}
		snprintf(parent, sizeof(parent), "%s%s", mnt, rel);
		if (try_parent(cg, parent, v2, owner))
			return -ENOENT;
		n = (long)strlen(cg->note);
		snprintf(cg->note + n, sizeof(cg->note) - (size_t)n,
			 ", INSIDE the CPU cap of %.60s: CPU figures are "
			 "of the cap, not the box",
			 cap);
		return 0;
	}
	if (rel[0]) {
		snprintf(parent, sizeof(parent), "%s%s", mnt, rel);
		if (!try_parent(cg, parent, v2, owner))
			return 0;
	}
	return try_parent(cg, mnt, v2, owner);
}

void soak_cg_setup(struct soak_cg *cg, pid_t owner)
{
	memset(cg, 0, sizeof(*cg));
	if (host_read_file("", "/proc/self/mounts", mounts, sizeof(mounts)) <
		    0 ||
	    host_read_file("", "/proc/self/cgroup", own, sizeof(own)) < 0) {
		snprintf(cg->why, sizeof(cg->why), "cannot read /proc/self");
		return;
	}
	if (!try_hierarchy(cg, 0, owner) || !try_hierarchy(cg, 1, owner)) {
		cg->why[0] = 0;
		return;
	}
	if (!cg->why[0])
		snprintf(cg->why, sizeof(cg->why), "no cgroup cpu controller");
}

void soak_cg_remove(struct soak_cg *cg)
{
	int i;

	if (!cg->dir[0])
		return;
	/* the last soaker may still be leaving the cgroup */
	for (i = 0; i < 100 && rmdir(cg->dir) && errno == EBUSY; i++)
		usleep(10000);
	cg->dir[0] = 0;
}
