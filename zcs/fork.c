/*
 * fork.c: zcs --fork, the original's model: the parent accepts and forks
 * a child per connection; the child serves it (its figures land in the
 * slot shared with the parent) and measures its own CPU window when the
 * client asks. SIGINT/SIGTERM of the parent ends every child, and a
 * child gets SIGTERM when the parent dies any other way (SIGKILL).
 */
#include "config.h"
#include "conn.h"
#include "server.h"

#include "clock.h"
#include "log.h"
#include "quiet.h"
#include "sig.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TICK_MS	    200 /* the parent's and children's poll period */
#define KILL_WAIT_S 5.0 /* SIGTERM to SIGKILL */

/* The child's CPU window, opened at the hello when the client asks. */
struct child_cpu {
	struct meterset ms;
	int on;	   /* the meters are open and running */
	int soak;  /* they include soak: the client's runs pair */
	int holds; /* an unmetered run: this box's soakers are parked */
	double t0;
	double cpu0; /* this process's CPU-seconds at t0 */
};

/*
 * The hello: open the meters when the client wants a report, park the
 * box's soakers for an unmetered run, start the window, then answer, so
 * the first byte of the stream is inside the window and unsoaked.
 */
static enum conn_step child_hello(const struct cfg *cfg, struct conn *c,
				  struct slot *s, struct child_cpu *w)
{
	char err[256];

	if (cfg->com.cpu && conn_wants_cpu(c)) {
		if (meterset_open(&w->ms, cfg->com.cpu_list, NULL, err,
				  sizeof(err)))
			log_warn("cannot measure CPU: %s", err);
		else
			w->on = 1;
		w->soak = w->on && meterset_paired(&w->ms);
	}
	if (server_run_kind(s, conn_run(c), w->soak) && w->soak) {
		if (meterset_metered(&w->ms, 0, err, sizeof(err)))
			log_warn("client %s: cannot park the soakers: %s",
				 s->peer, err);
		else
			w->holds = 1;
	}
	if (s->paired) /* its clock starts with the stream, not the parking */
		s->t_start = clock_now();
	if (w->on) {
		meterset_start(&w->ms);
		w->t0 = clock_now();
		w->cpu0 = quiet_process_cpu_s();
	}
	return conn_answer(c, w->on, w->soak);
}

/* The end: the report (the client's clock stops at it), then the
 * soakers let go before we close: the client's next run, maybe a metered
 * one, starts after our close. */
static void child_cpu_report(struct conn *c, struct child_cpu *w)
{
	struct cpu_sample cs[METER_MAX];
	int n = meterset_stop(&w->ms, cs), r;
	char err[256];

	r = conn_send_report(c, cs, n, clock_now() - w->t0, 1,
			     quiet_process_cpu_s() - w->cpu0);
	if (r)
		log_warn("cannot send the CPU report: %s", strerror(-r));
	if (w->holds && meterset_metered(&w->ms, 1, err, sizeof(err)))
		log_warn("cannot wake the soakers: %s", err);
	meterset_close(&w->ms);
	w->on = 0;
}

static void __attribute__((noreturn))
child(const struct cfg *cfg, int fd, struct slot *s)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	struct child_cpu w = {0};
	struct conn *c;
	char err[256];

	log_set_die_hook(NULL); /* the parent owns the result document */
	c = conn_new(cfg, fd, s, err, sizeof(err));
	if (!c) {
		s->result = CR_ERROR;
		snprintf(s->err, sizeof(s->err), "%s", err);
		_exit(1);
	}
	for (;;) {
		enum conn_step st = CS_MORE;

		if (sig_stop) {
			s->result = CR_INTERRUPTED;
			snprintf(s->err, sizeof(s->err), "zcs stopped");
			break;
		}
		if (poll(&p, 1, TICK_MS) > 0)
			st = conn_service(c);
		if (st == CS_HELLO)
			st = child_hello(cfg, c, s, &w);
		if (st == CS_DONE || st == CS_FAIL) {
			s->t_end = clock_now();
			if (st == CS_DONE && w.on)
				child_cpu_report(c, &w);
			break;
		}
		if (st == CS_MORE && conn_check(c, clock_now()) == CS_FAIL)
			break;
	}
	if (!s->t_end)
		s->t_end = clock_now();
	if (w.on) /* ended early: no report; a hold on the soakers goes */
		meterset_close(&w.ms);
	conn_free(c);
	_exit(0);
}

static struct slot *slot_of(struct server *srv, pid_t pid)
{
	int i;

	for (i = 0; i < srv->cfg->max_conns; i++)
		if (srv->slots[i].used && srv->slots[i].pid == pid)
			return &srv->slots[i];
	return NULL;
}

/* Record every child that has ended; wait = block for one. */
static void reap(struct server *srv, int wait)
{
	struct slot *s;
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, wait ? 0 : WNOHANG)) > 0) {
		s = slot_of(srv, pid);
		if (!s)
			continue;
		if (s->result == CR_ACTIVE) {
			s->result = CR_ERROR;
			if (WIFSIGNALED(st))
				snprintf(s->err, sizeof(s->err),
					 "child %d killed by signal %d", pid,
					 WTERMSIG(st));
			else
				snprintf(s->err, sizeof(s->err),
					 "child %d exited with status %d", pid,
					 WEXITSTATUS(st));
		}
		if (!s->t_end)
			s->t_end = clock_now();
		server_record(srv, s);
		wait = 0;
	}
}

/* Stopping: SIGTERM every child, SIGKILL what is left after a while. */
static void end_children(struct server *srv)
{
	double deadline = clock_now() + KILL_WAIT_S;
	int i;

	for (i = 0; i < srv->cfg->max_conns; i++)
		if (srv->slots[i].used && srv->slots[i].pid > 0)
			kill(srv->slots[i].pid, SIGTERM);
	while (srv->nactive && clock_now() < deadline) {
		reap(srv, 0);
		if (srv->nactive)
			clock_sleep(0.02);
	}
	for (i = 0; i < srv->cfg->max_conns; i++)
		if (srv->slots[i].used && srv->slots[i].pid > 0) {
			log_warn("child %d ignored SIGTERM: killing it",
				 srv->slots[i].pid);
			kill(srv->slots[i].pid, SIGKILL);
		}
	while (srv->nactive) {
		int before = srv->nactive;

		reap(srv, 1);
		if (srv->nactive == before)
			break; /* no child left to wait for */
	}
}

int serve_fork(struct server *srv)
{
	struct pollfd p = {.fd = srv->lfd, .events = POLLIN};
	pid_t pid, parent = getpid();
	struct slot *s;
	int fd;

	while (!server_should_stop(srv)) {
		reap(srv, 0);
		server_tick(srv, clock_now());
		/* resting after EMFILE: poll nothing (a negative fd) */
		p.fd = server_accept_paused(srv, clock_now()) ? -1 : srv->lfd;
		if (poll(&p, 1, TICK_MS) <= 0 || p.fd < 0)
			continue;
		fd = server_accept(srv);
		if (fd < 0)
			continue;
		s = server_slot_get(srv, fd, clock_now());
		fflush(NULL); /* children leave with _exit: nothing twice */
		pid = fork();
		if (pid < 0) {
			s->result = CR_ERROR;
			snprintf(s->err, sizeof(s->err), "fork: %s",
				 strerror(errno));
			s->t_end = clock_now();
			close(fd);
			server_record(srv, s);
			continue;
		}
		if (pid == 0) {
			close(srv->lfd);
			sig_die_with_parent(SIGTERM, parent);
			child(srv->cfg, fd, s);
		}
		s->pid = pid;
		close(fd);
	}
	end_children(srv);
	return 0;
}
