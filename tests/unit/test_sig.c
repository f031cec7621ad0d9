/* test_sig.c: Ctrl-C and TERM set the flag (no restart), SIGPIPE is
 * ignored, and the exit status is the shell's 128 + signal. */
#include "config.h"
#include "sig.h"
#include "t.h"

#include <errno.h>
#include <sys/time.h>
#include <unistd.h>

int main(void)
{
	struct itimerval it;
	int p[2];
	char c;

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
