/* sig.h: SIGINT/SIGTERM/SIGHUP set a flag that loops check; no restart. */
#ifndef ZCB_SIG_H
#define ZCB_SIG_H

#include <signal.h>

extern volatile sig_atomic_t sig_stop;	/* the signal number, 0 if none */

/* Install the handler for INT, TERM and HUP (without SA_RESTART, so a
 * blocking call returns EINTR) and ignore SIGPIPE. */
void sig_install(void);
/* Exit status a shell expects after the signal: 128 + signo. */
int sig_exit_status(void);

#endif
