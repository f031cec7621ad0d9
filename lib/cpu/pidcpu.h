/*
 * pidcpu.h: the CPU time of one process tree (a server that runs on this
 * box, e.g. ganesha.nfsd) over a window, as a struct cpu_sample with
 * meter "pid" and scope "process": utime + stime of the process (all its
 * threads), of its live descendants, and of the children it reaped,
 * from /proc/PID/stat read through a root prefix (fixtures in tests).
 * busy_pct is that time over elapsed x online CPUs, like rusage, so the
 * column compares with the box meters.
 */
#ifndef ZCB_PIDCPU_H
#define ZCB_PIDCPU_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "meter.h"

struct pidcpu_stat {
	pid_t pid;		 /* field 1 */
	char comm[64];		 /* field 2, without the parentheses */
	char state;		 /* field 3 */
	pid_t ppid;		 /* field 4 */
	unsigned long flags;	 /* field 9 (PF_KTHREAD: a kernel thread) */
	uint64_t utime, stime;	 /* fields 14, 15 (clock ticks) */
	uint64_t cutime, cstime; /* fields 16, 17: reaped children */
	long nice;		 /* field 19 */
};

#define PIDCPU_KTHREAD 0x00200000ul /* the kernel's PF_KTHREAD */

/* Parse the text of /proc/PID/stat (comm may hold spaces and ')').
 * 0 or -EINVAL. */
int pidcpu_parse_stat(const char *text, struct pidcpu_stat *s);

/*
 * Ticks used by pid and (tree) its descendants: utime + stime + cutime +
 * cstime summed. *nproc gets the count of processes summed. 0, or -ESRCH
 * when pid is gone, -errno otherwise.
 */
int pidcpu_ticks(const char *root, pid_t pid, int tree, uint64_t *ticks,
		 uint64_t *uticks, int *nproc);

/*
 * One walk of root/proc: the ticks of pid's tree (as pidcpu_ticks with
 * tree) into *tree, and of every other process that is no kernel thread
 * and not niced (nice 0 or below) into *others: the box's user-space
 * work outside pid's tree (zcbench's soakers run at nice 19). 0, or
 * -ESRCH when pid is gone, -errno otherwise.
 */
int pidcpu_split(const char *root, pid_t pid, uint64_t *tree,
		 uint64_t *others);

/*
 * The live descendants of pid (not pid itself), deepest first is not
 * promised: at most max of them into out. Returns how many, or -errno.
 */
int pidcpu_descendants(const char *root, pid_t pid, pid_t *out, int max);

struct pidcpu {
	char root[256];	 /* /proc prefix ("" = live) */
	pid_t pid;	 /* the process */
	int tree;	 /* include descendants */
	char comm[64];	 /* its name, for notes */
	uint64_t t0, u0; /* ticks at start (all, user) */
	double w0;	 /* clock_now() at start */
};

/* Check the process exists and remember it. 0 or -errno, err filled. */
int pidcpu_open(struct pidcpu *p, const char *root, pid_t pid, int tree,
		char *err, size_t len);
int pidcpu_start(struct pidcpu *p);
/* Fill out (meter "pid"); out->ok = 0 with why when the process went. */
int pidcpu_stop(struct pidcpu *p, struct cpu_sample *out);

#endif
