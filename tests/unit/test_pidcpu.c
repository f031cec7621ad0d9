/* test_pidcpu.c: /proc/PID/stat parsing, process trees, live windows. */
#include "config.h"
#include "pidcpu.h"
#include "t.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void spin(double seconds)
{
	t_spin(CLOCK_THREAD_CPUTIME_ID, seconds);
}

int main(void)
{
	struct pidcpu_stat s;
	struct cpu_sample out;
	struct pidcpu p;
	char root[4200], err[256];
	uint64_t t, u;
	int n;
	pid_t kid;

	/* a comm with spaces and parentheses */
	T_CHECK(pidcpu_parse_stat(
			"42 (a) b) R 7 1 1 0 -1 0 0 0 0 0 11 22 33 44 20 0",
			&s) == 0);
	T_CHECK(s.pid == 42 && s.ppid == 7 && s.state == 'R');
	T_STREQ(s.comm, "a) b");
	T_CHECK(s.utime == 11 && s.stime == 22 && s.cutime == 33 &&
		s.cstime == 44);
	/* truncated or garbage lines are refused */
	T_CHECK(pidcpu_parse_stat("42 (x) R 7 1", &s) == -EINVAL);
	T_CHECK(pidcpu_parse_stat("", &s) == -EINVAL);
	T_CHECK(pidcpu_parse_stat("x (y) R 1 1 1 0 -1 0 0 0 0 0 1 1 1 1", &s) ==
		-EINVAL);

	/* fixture tree: 100 -> 101 -> 102; 200 is not ours */
	snprintf(root, sizeof(root), "%s/pidcpu", t_datadir());
	T_CHECK(pidcpu_ticks(root, 100, 0, &t, &u, &n) == 0);
	T_CHECK(t == 515 && u == 310 && n == 1);
	T_CHECK(pidcpu_ticks(root, 100, 1, &t, &u, &n) == 0);
	T_CHECK(t == 585 && u == 357 && n == 3);
	T_CHECK(pidcpu_ticks(root, 999, 1, &t, &u, &n) == -ESRCH);
	{
		pid_t d[8];
		int k = pidcpu_descendants(root, 100, d, 8);

		T_CHECK(k == 2 && d[0] + d[1] == 101 + 102);
		T_CHECK(pidcpu_descendants(root, 100, d, 1) == 1);
		T_CHECK(pidcpu_descendants(root, 102, d, 8) == 0);
	}
	/* the rest of the box, as the quiet check sees it (issue 26): not
	 * the kernel thread 300, not the niced soaker 301 */
	{
		uint64_t tree, others;

		T_CHECK(pidcpu_split(root, 100, &tree, &others) == 0);
		T_CHECK(tree == 585);
		T_CHECK(others == 3110 + 1800);
		T_CHECK(pidcpu_split(root, 999, &tree, &others) == -ESRCH);
	}
	T_CHECK(pidcpu_parse_stat(
			"7 (k) I 2 0 0 0 -1 6291712 0 0 0 0 1 2 3 4 39 19",
			&s) == 0);
	T_CHECK((s.flags & PIDCPU_KTHREAD) && s.nice == 19);
	T_CHECK(pidcpu_open(&p, root, 999, 1, err, sizeof(err)) == -ESRCH);
	T_CHECK(strstr(err, "999") != NULL);

	/* live: a child that burns CPU is seen in our tree */
	T_ASSERT(pidcpu_open(&p, NULL, getpid(), 1, err, sizeof(err)) == 0);
	T_ASSERT(pidcpu_start(&p) == 0);
	kid = fork();
	T_ASSERT(kid >= 0);
	if (kid == 0) {
		spin(0.4);
		_exit(0);
	}
	spin(0.2);
	T_ASSERT(pidcpu_stop(&p, &out) == 0);
	T_CHECK(out.ok);
	T_STREQ(out.meter, "pid");
	T_STREQ(out.scope, "process");
	/* at least 0.2 s of ours (and some of the child's), on ncpu
	 * CPUs; generous: ticks are coarse */
	T_CHECK(out.utime_s + out.stime_s > 0.15);
	T_CHECK(out.busy_pct > 0 && out.busy_pct <= 100);
	T_CHECK(strstr(out.note, "descendants") != NULL);
	waitpid(kid, NULL, 0);

	/* a process that goes away: the sample says so */
	kid = fork();
	T_ASSERT(kid >= 0);
	if (kid == 0) {
		pause();
		_exit(0);
	}
	T_ASSERT(pidcpu_open(&p, NULL, kid, 0, err, sizeof(err)) == 0);
	T_ASSERT(pidcpu_start(&p) == 0);
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	T_CHECK(pidcpu_stop(&p, &out) == -ESRCH);
	T_CHECK(!out.ok && strstr(out.why, "exited") != NULL);
	return t_done();
}
