/* sig.c: one way for every tool to notice Ctrl-C and clean up. */
#include "config.h"
#include "sig.h"

#include <string.h>

volatile sig_atomic_t sig_stop;

static void on_signal(int s)
{
	sig_stop = s;
}

void sig_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

int sig_exit_status(void)
{
	return sig_stop ? 128 + sig_stop : 0;
}
