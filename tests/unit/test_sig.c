/* test_sig.c: Ctrl-C and TERM set the flag (no restart), SIGPIPE is
 * ignored, the exit status is the shell's 128 + signal, a SIGHUP ignored
 * at start (nohup) stays ignored, and a child dies with its parent. */
#include "config.h"
#include "sig.h"
#include "t.h"

#include <errno.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

/* nohup: HUP ignored at start stays ignored; else it stops like TERM. */
static void test_hup(void)
{
	struct sigaction sa;

	signal(SIGHUP, SIG_IGN);
	sig_install();
	raise(SIGHUP);
	T_CHECK(sig_stop == 0);
	sigaction(SIGHUP, NULL, &sa);
	T_CHECK(sa.sa_handler == SIG_IGN);
	sig_default(); /* a child's defaults keep nohup's HUP too */
	sigaction(SIGHUP, NULL, &sa);
	T_CHECK(sa.sa_handler == SIG_IGN);
	signal(SIGHUP, SIG_DFL);
	sig_install();
	raise(SIGHUP);
	T_CHECK(sig_stop == SIGHUP && sig_exit_status() == 129);
	sig_stop = 0;
	sig_default();
	sigaction(SIGHUP, NULL, &sa);
	T_CHECK(sa.sa_handler == SIG_DFL);
	sigaction(SIGTERM, NULL, &sa);
	T_CHECK(sa.sa_handler == SIG_DFL);
}

/*
 * A grandchild that asked for SIGTERM at its parent's death gets it when
 * the parent exits (we are the subreaper, so we reap it and see why).
 */
static void test_die_with_parent(void)
{
	int p[2], st = 0;
	pid_t mid, kid = 0;

	T_ASSERT(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0);
	T_ASSERT(pipe(p) == 0);
	mid = fork();
	T_ASSERT(mid >= 0);
	if (mid == 0) {
		pid_t me = getpid(), k = fork();

		if (k == 0) {
			signal(SIGTERM, SIG_DFL);
			close(p[1]);
			if (sig_die_with_parent(SIGTERM, me))
				_exit(3);
			sleep(20); /* the parent may be gone already */
			_exit(5);
		}
		if (write(p[1], &k, sizeof(k)) != sizeof(k))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	T_CHECK(read(p[0], &kid, sizeof(kid)) == sizeof(kid) && kid > 0);
	waitpid(mid, NULL, 0);
	/* the grandchild: reparented to us, killed by its SIGTERM */
	T_CHECK(waitpid(kid, &st, 0) == kid);
	T_CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	close(p[0]);
}

int main(void)
{
	struct itimerval it;
	int p[2];
	char c;

	test_hup();
	test_die_with_parent();
	sig_install();
	T_CHECK(sig_stop == 0 && sig_exit_status() == 0);
	raise(SIGINT);
	T_CHECK(sig_stop == SIGINT);
	T_CHECK(sig_exit_status() == 130);
	sig_stop = 0;
	raise(SIGTERM);
	T_CHECK(sig_stop == SIGTERM && sig_exit_status() == 143);

	/* a blocking read returns EINTR: loops get to check the flag */
	sig_stop = 0;
	T_ASSERT(pipe(p) == 0);
	memset(&it, 0, sizeof(it));
	it.it_value.tv_usec = 50000;
	signal(SIGALRM, SIG_DFL);
	{
		struct sigaction sa;

		sigaction(SIGINT, NULL, &sa);
		sigaction(SIGALRM, &sa, NULL); /* the same handler */
	}
	setitimer(ITIMER_REAL, &it, NULL);
	T_CHECK(read(p[0], &c, 1) == -1 && errno == EINTR);
	T_CHECK(sig_stop == SIGALRM);

	/* writing to a closed pipe: EPIPE, not death */
	close(p[0]);
	T_CHECK(write(p[1], "x", 1) == -1 && errno == EPIPE);
	close(p[1]);
	return t_done();
}
