/*
 * epoll.c: zcs's default mode: one epoll loop serving every connection,
 * with one CPU window for the clients that asked for a report, and this
 * box's soakers parked while an unmetered run of a pair (zcc's hello
 * says so) is connected.
 */
#include "config.h"
#include "conn.h"
#include "server.h"

#include "clock.h"
#include "log.h"
#include "quiet.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#define EV_BATCH 256 /* events per epoll_wait */
#define TICK_MS	 200 /* longest sleep: timers are this coarse */
#define CUT_MAX_S                                                              \
	10.0 /* longest a finished client waits for its                        \
	      * CPU report while others still stream */

struct econn {
	struct conn *c; /* NULL: slot free */
	int asks;	/* counted among the CPU window's askers */
	int parked;	/* stream done, waiting for the report */
	double t_parked;
	int holds; /* an unmetered run: holds the soakers parked */
};

struct eloop {
	struct server *srv;
	int ep;		    /* epoll fd */
	struct econn *ec;   /* one per slot */
	struct meterset ms; /* -c: this box's meters */
	int window;	    /* 1: a CPU window is open */
	double t_window;    /* when it opened */
	double cpu_window;  /* and this process's CPU-seconds then */
	int askers;	    /* asking connections still streaming */
	int nwin;	    /* asking connections in this window */
	int nparked;
	int soak;    /* the meters include soak: runs pair */
	int holds;   /* unmetered connections open: soakers parked */
	int lfd_off; /* the listener is out of the set (EMFILE) */
};

/* Paired runs: park this box's soakers (metered 0) or let them run. */
static void soakers(struct eloop *l, int metered, const char *peer)
{
	char err[256];

	if (meterset_metered(&l->ms, metered, err, sizeof(err)))
		log_warn("client %s: cannot %s the soakers: %s", peer,
			 metered ? "wake" : "park", err);
}

static void end_conn(struct eloop *l, int i, double now)
{
	struct econn *e = &l->ec[i];
	struct slot *s = &l->srv->slots[i];

	if (e->asks && !e->parked)
		l->askers--;
	if (e->parked)
		l->nparked--;
	/* the last unmetered run lets the soakers go before its close, so
	 * the client's next (metered) run finds them running */
	if (e->holds && !--l->holds)
		soakers(l, 1, s->peer);
	if (!s->t_end)
		s->t_end = now;
	conn_free(e->c); /* closing the fd takes it out of the epoll set */
	memset(e, 0, sizeof(*e));
	server_record(l->srv, s);
}

/* Close the CPU window: every parked connection gets its report. */
static void cut_window(struct eloop *l, double now)
{
	struct cpu_sample cs[METER_MAX];
	int i, n = meterset_stop(&l->ms, cs), r;

	for (i = 0; i < l->srv->cfg->max_conns; i++) {
		struct econn *e = &l->ec[i];

		if (!e->parked)
			continue;
		r = conn_send_report(e->c, cs, n, now - l->t_window, l->nwin,
				     quiet_process_cpu_s() - l->cpu_window);
		if (r)
			log_warn("client %s: cannot send the CPU report: %s",
				 l->srv->slots[i].peer, strerror(-r));
		end_conn(l, i, now);
	}
	l->window = 0;
	if (l->askers) { /* the rest get a window from now */
		meterset_start(&l->ms);
		l->window = 1;
		l->t_window = now;
		l->cpu_window = quiet_process_cpu_s();
		l->nwin = l->askers;
	}
}

/* A hello: park the soakers for an unmetered run, then answer, so the
 * client's first byte already runs unsoaked. */
static enum conn_step hello(struct eloop *l, int i)
{
	struct econn *e = &l->ec[i];
	struct slot *s = &l->srv->slots[i];

	if (server_run_kind(s, conn_run(e->c), l->soak) && l->soak) {
		e->holds = 1;
		if (!l->holds++)
			soakers(l, 0, s->peer);
	}
	if (s->paired) /* its clock starts with the stream, not the parking */
		s->t_start = clock_now();
	return conn_answer(e->c, l->srv->cfg->com.cpu, l->soak);
}

static void step_conn(struct eloop *l, int i, enum conn_step st, double now)
{
	struct econn *e = &l->ec[i];

	if (st == CS_HELLO) {
		st = hello(l, i);
		now = clock_now(); /* after any parking */
	}
	switch (st) {
	case CS_MORE:
		return;
	case CS_HELLO:
		if (conn_asks_cpu(e->c)) {
			if (!l->window) {
				meterset_start(&l->ms);
				l->window = 1;
				l->t_window = now;
				l->cpu_window = quiet_process_cpu_s();
				l->nwin = 0;
			}
			e->asks = 1;
			l->askers++;
			l->nwin++;
		}
		return;
	case CS_DONE:
		l->srv->slots[i].t_end = now;
		if (e->asks) {
			e->parked = 1;
			e->t_parked = now;
			l->askers--;
			l->nparked++;
			epoll_ctl(l->ep, EPOLL_CTL_DEL, conn_fd(e->c), NULL);
			return;
		}
		end_conn(l, i, now);
		return;
	case CS_FAIL:
		end_conn(l, i, now);
		return;
	}
}

static void accept_some(struct eloop *l, double now)
{
	struct epoll_event ev = {.events = EPOLLIN};
	char err[256];
	int k, fd, i;

	for (k = 0; k < 64; k++) {
		struct slot *s;

		fd = server_accept(l->srv);
		if (fd < 0)
			return;
		s = server_slot_get(l->srv, fd, now);
		i = (int)(s - l->srv->slots);
		l->ec[i].c = conn_new(l->srv->cfg, fd, s, err, sizeof(err));
		if (!l->ec[i].c) {
			close(fd);
			s->result = CR_ERROR;
			s->t_end = now;
			snprintf(s->err, sizeof(s->err), "%s", err);
			server_record(l->srv, s);
			continue;
		}
		ev.data.u32 = (uint32_t)i + 1;
		if (epoll_ctl(l->ep, EPOLL_CTL_ADD, fd, &ev))
			die_errno("epoll_ctl");
	}
}

/* Slow or idle connections (conn_check), and parked ones whose report
 * is due. */
static void sweep(struct eloop *l, double now)
{
	const struct cfg *cfg = l->srv->cfg;
	double oldest = now;
	int i;

	for (i = 0; i < cfg->max_conns; i++) {
		struct econn *e = &l->ec[i];

		if (!e->c)
			continue;
		if (e->parked) {
			if (e->t_parked < oldest)
				oldest = e->t_parked;
			continue;
		}
		if (conn_check(e->c, now) == CS_FAIL)
			end_conn(l, i, now);
	}
	if (l->nparked &&
	    (!l->askers || now - oldest > (cfg->idle_timeout / 2 < CUT_MAX_S
						   ? cfg->idle_timeout / 2
						   : CUT_MAX_S)))
		cut_window(l, now);
}

int serve_epoll(struct server *srv)
{
	const struct cfg *cfg = srv->cfg;
	struct epoll_event ev = {.events = EPOLLIN}, evs[EV_BATCH];
	struct eloop l;
	char err[256];
	int n, k, i;

	memset(&l, 0, sizeof(l));
	l.srv = srv;
	l.ec = calloc((size_t)cfg->max_conns, sizeof(*l.ec));
	l.ep = epoll_create1(EPOLL_CLOEXEC);
	if (!l.ec || l.ep < 0)
		die_errno("epoll");
	if (cfg->com.cpu &&
	    meterset_open(&l.ms, cfg->com.cpu_list, NULL, err, sizeof(err)))
		die("%s", err);
	l.soak = cfg->com.cpu && meterset_paired(&l.ms);
	ev.data.u32 = 0; /* 0 = the listener, slot i = i + 1 */
	if (epoll_ctl(l.ep, EPOLL_CTL_ADD, srv->lfd, &ev))
		die_errno("epoll_ctl");
	while (!server_should_stop(srv)) {
		n = epoll_wait(l.ep, evs, EV_BATCH, TICK_MS);
		if (n < 0 && errno != EINTR)
			die_errno("epoll_wait");
		double now = clock_now();

		for (k = 0; k < n; k++) {
			if (!evs[k].data.u32) {
				accept_some(&l, now);
				continue;
			}
			i = (int)evs[k].data.u32 - 1;
			if (l.ec[i].c && !l.ec[i].parked)
				step_conn(&l, i, conn_service(l.ec[i].c), now);
		}
		sweep(&l, now);
		server_tick(srv, now);
		/* out of descriptors: the level-triggered listener would wake
		 * us at once, forever; rest it and take it back later */
		if (server_accept_paused(srv, now) != l.lfd_off) {
			l.lfd_off = !l.lfd_off;
			ev.data.u32 = 0;
			if (epoll_ctl(l.ep,
				      l.lfd_off ? EPOLL_CTL_DEL : EPOLL_CTL_ADD,
				      srv->lfd, &ev))
				die_errno("epoll_ctl");
		}
	}
	/* stopping: reports for those who finished, the rest interrupted */
	if (l.nparked)
		cut_window(&l, clock_now());
	for (i = 0; i < cfg->max_conns; i++) {
		if (!l.ec[i].c)
			continue;
		if (srv->slots[i].result == CR_ACTIVE) {
			srv->slots[i].result = CR_INTERRUPTED;
			snprintf(srv->slots[i].err, sizeof(srv->slots[i].err),
				 "zcs stopped");
		}
		end_conn(&l, i, clock_now());
	}
	if (l.window)
		meterset_stop(&l.ms, (struct cpu_sample[METER_MAX]){0});
	if (cfg->com.cpu)
		meterset_close(&l.ms);
	close(l.ep);
	free(l.ec);
	return 0;
}
