/* sig.c: one way for every tool to notice Ctrl-C and clean up. */
#include "config.h"
#include "sig.h"

#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

volatile sig_atomic_t sig_stop;
static int hup_ignored; /* SIGHUP was ignored when sig_install ran */

static void on_signal(int s)
{
	sig_stop = s;
}

void sig_install(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* nohup (or a parent that means it) ignored HUP: keep it so */
	hup_ignored =
		!sigaction(SIGHUP, NULL, &old) && old.sa_handler == SIG_IGN;
	if (!hup_ignored)
		sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

void sig_default(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, hup_ignored ? SIG_IGN : SIG_DFL);
}

int sig_exit_status(void)
{
	return sig_stop ? 128 + sig_stop : 0;
}

int sig_die_with_parent(int sig, pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0))
		return -errno;
	if (getppid() != parent) /* it died before the prctl */
		raise(sig);
	return 0;
}
