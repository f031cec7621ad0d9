/* sig.h: SIGINT/SIGTERM/SIGHUP set a flag that loops check; no restart. */
#ifndef ZCB_SIG_H
#define ZCB_SIG_H

#include <signal.h>
#include <sys/types.h>

extern volatile sig_atomic_t sig_stop;	/* the signal number, 0 if none */

/* Install the handler for INT, TERM and HUP (without SA_RESTART, so a
 * blocking call returns EINTR) and ignore SIGPIPE. A SIGHUP that was
 * ignored when the tool started (nohup) stays ignored. */
void sig_install(void);
/* In a child that should die of INT, TERM and HUP as a plain process
 * would: their default actions back (HUP stays ignored under nohup). */
void sig_default(void);
/* Exit status a shell expects after the signal: 128 + signo. */
int sig_exit_status(void);
/*
 * In a child just forked: get signal sig when the parent (pid parent, the
 * thread that forked) dies, even by SIGKILL (PR_SET_PDEATHSIG). If the
 * parent is already gone, the signal comes at once. 0 or -errno.
 */
int sig_die_with_parent(int sig, pid_t parent);

#endif
