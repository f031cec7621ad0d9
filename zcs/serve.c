/*
 * serve.c: what both zcs modes share (the listening socket, connection
 * slots, the "N kbytes/sec" lines, the result document) and the default
 * mode: one epoll loop serving every connection, with one CPU window for
 * the clients that asked for a report, and this box's soakers parked
 * while an unmetered run of a pair (zcc's hello says so) is connected.
 */
#include "config.h"
#include "zcs.h"

#include "clock.h"
#include "log.h"
#include "result.h"
#include "sig.h"
#include "sock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define EV_BATCH 256 /* events per epoll_wait */
#define TICK_MS	 200 /* longest sleep: timers are this coarse */
#define CUT_MAX_S                                                              \
	10.0 /* longest a finished client waits for its                        \
	      * CPU report while others still stream */

json_t *zcs_about(const struct cfg *cfg)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:b, s:I}", "tool", "zcs",
			 "tool_version", PACKAGE_VERSION, "recv_method",
			 cfg->method, "mode", cfg->fork_mode ? "fork" : "epoll",
			 "measures_cpu", cfg->measure, "unit",
			 (json_int_t)cfg->unit);
}

void server_init(struct server *srv, const struct cfg *cfg, int argc,
		 char **argv)
{
	char err[256];
	size_t sz = sizeof(struct slot) * (size_t)cfg->max_conns;
	FILE *f;

	memset(srv, 0, sizeof(*srv));
	srv->cfg = cfg;
	srv->out = cfg->json_path && !strcmp(cfg->json_path, "-") ? stderr
								  : stdout;
	if (cfg->json_path) {
		srv->doc = res_new("zcs", argc, argv);
		if (cfg->label)
			res_set_label(srv->doc, cfg->label);
		res_set_output(srv->doc, cfg->json_path);
		res_set(srv->doc, "config", zcs_about(cfg));
		res_metric(srv->doc, "throughput_MBps", "MB/s", RES_HIGHER, 1);
		res_metric(srv->doc, "elapsed_s", "s", RES_LOWER, 0);
		srv->kase = res_case(
			srv->doc,
			json_pack("{s:s, s:s}", "recv_method", cfg->method,
				  "mode", cfg->fork_mode ? "fork" : "epoll"));
	}
	/* shared, so --fork children update their own slot in place */
	srv->slots = mmap(NULL, sz, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (srv->slots == MAP_FAILED)
		die_errno("cannot map %d connection slots", cfg->max_conns);
	srv->lfd = sock_listen(cfg->bind, cfg->port, SOCK_STREAM, 1024,
			       &srv->port, err, sizeof(err));
	if (srv->lfd < 0)
		die("%s", err);
	sock_set_nonblock(srv->lfd, 1);
	if (cfg->port_file) {
		f = fopen(cfg->port_file, "w");
		if (!f || fprintf(f, "%d\n", srv->port) < 0 || fclose(f))
			die_errno("cannot write the port to %s",
				  cfg->port_file);
	}
	srv->t0 = clock_now();
	srv->next_print = srv->t0 + cfg->interval;
	log_info("listening on %s port %d (%s, receive method %s%s)", cfg->bind,
		 srv->port, cfg->fork_mode ? "fork" : "epoll", cfg->method,
		 cfg->measure ? ", measuring CPU" : "");
}

struct slot *server_slot_get(struct server *srv, int fd, double now)
{
	int i;

	for (i = 0; i < srv->cfg->max_conns; i++) {
		struct slot *s = &srv->slots[i];

		if (s->used)
			continue;
		memset(s, 0, sizeof(*s));
		s->used = 1;
		s->result = CR_ACTIVE;
		s->t_start = now;
		sock_peer_name(fd, s->peer, sizeof(s->peer));
		srv->nactive++;
		if (srv->nactive > srv->peak)
			srv->peak = srv->nactive;
		log_debug("client %s: connected (%d open)", s->peer,
			  srv->nactive);
		return s;
	}
	return NULL; /* server_accept keeps nactive below max_conns */
}

/* Out of descriptors (or memory): rest the listener, log now and then. */
static void accept_pause(struct server *srv, int e)
{
	double now = clock_now();
	struct rlimit rl;

	srv->accept_resume = now + ZCS_FD_PAUSE_S;
	srv->fd_pauses++;
	if (srv->fd_warned && now - srv->fd_warned < 10)
		return;
	srv->fd_warned = now;
	getrlimit(RLIMIT_NOFILE, &rl);
	log_warn(
		"accept: %s with %d connections open (open file limit %llu): pausing accepts; raise ulimit -n or lower --max-conns (%ld pauses so far)",
		strerror(e), srv->nactive, (unsigned long long)rl.rlim_cur,
		srv->fd_pauses);
}

int server_accept_paused(const struct server *srv, double now)
{
	return srv->accept_resume > now;
}

int server_accept(struct server *srv)
{
	int fd = accept4(srv->lfd, NULL, NULL, SOCK_CLOEXEC);
	char peer[64];

	if (fd < 0) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM)
			accept_pause(srv, errno);
		else if (errno != EAGAIN && errno != EINTR &&
			 errno != ECONNABORTED)
			log_warn("accept: %s", strerror(errno));
		return -1;
	}
	if (srv->nactive >= srv->cfg->max_conns) {
		srv->refused_full++;
		if (srv->refused_full == 1 || srv->refused_full % 100 == 0)
			log_warn(
				"client %s: turned away: %d connections open (--max-conns); %ld so far",
				sock_peer_name(fd, peer, sizeof(peer)),
				srv->nactive, srv->refused_full);
		close(fd);
		return -1;
	}
	return fd;
}

int server_run_kind(struct slot *s, const struct zcw_run *run, int soak)
{
	s->paired = run->said && (run->soak || soak);
	s->metered = s->paired && run->metered;
	s->pair = s->paired ? run->pair : 0;
	return s->paired && !s->metered;
}

/* ", metered run of pair 3" for the per-connection line. */
static const char *run_kind(const struct slot *s, char *buf, size_t len)
{
	if (!s->paired)
		return "";
	snprintf(buf, len, ", %s run of pair %u%s",
		 s->metered ? "metered" : "unmetered", s->pair + 1,
		 s->metered ? "" : " (soakers parked)");
	return buf;
}

void server_record(struct server *srv, struct slot *s)
{
	double el = s->t_end > s->t_start ? s->t_end - s->t_start : 0;
	double mbps = el > 0 ? (double)s->payload / el / 1e6 : 0;
	char kind[64];
	json_t *smp;

	if (s->result == CR_OK)
		log_verbose(
			"client %s: ok: %llu payload bytes, %llu header bytes, %llu files, %u loops in %.3f s (%.1f MB/s)%s%s",
			s->peer, (unsigned long long)s->payload,
			(unsigned long long)s->header,
			(unsigned long long)s->files, s->loops, el, mbps,
			s->cpu_sent ? ", CPU report sent" : "",
			run_kind(s, kind, sizeof(kind)));
	else if (s->result == CR_INTERRUPTED)
		log_verbose("client %s: interrupted after %llu payload bytes",
			    s->peer, (unsigned long long)s->payload);
	else
		log_info(
			"client %s: %s: %s; %llu payload bytes, %llu header bytes received; connection closed",
			s->peer, conn_result_name(s->result), s->err,
			(unsigned long long)s->payload,
			(unsigned long long)s->header);
	if (srv->doc && srv->ended - srv->unrecorded >= ZCS_MAX_SAMPLES)
		srv->unrecorded++;
	else if (srv->doc) {
		smp = json_pack(
			"{s:s, s:s, s:I, s:I, s:I, s:I, s:f, s:b, s:b}", "peer",
			s->peer, "result", conn_result_name(s->result),
			"payload_bytes", (json_int_t)s->payload, "header_bytes",
			(json_int_t)s->header, "files", (json_int_t)s->files,
			"loops", (json_int_t)s->loops, "elapsed_s", el, "hello",
			s->hello, "cpu_sent", s->cpu_sent);
		if (s->err[0])
			json_object_set_new(smp, "error", json_string(s->err));
		res_sample_set(smp, "elapsed_s", el);
		res_sample_set(smp, "throughput_MBps", mbps);
		if (s->paired)
			res_sample_pair(srv->doc, smp, (int)s->pair,
					s->metered);
		res_sample(srv->kase, smp);
		if (s->result != CR_OK && s->result != CR_INTERRUPTED &&
		    srv->by_result[s->result] < 20)
			res_warn(srv->doc, "client %s: %s: %s", s->peer,
				 conn_result_name(s->result), s->err);
	}
	srv->gone_bytes += s->payload + s->header - s->printed;
	srv->by_result[s->result >= 0 && s->result <= CR_INTERRUPTED
			       ? s->result
			       : CR_ERROR]++;
	srv->ended++;
	srv->nactive--;
	memset(s, 0, sizeof(*s));
}

void server_tick(struct server *srv, double now)
{
	double period = now - (srv->next_print - srv->cfg->interval);
	uint64_t agg = srv->gone_bytes, cur;
	int i, lines = 0, max = srv->cfg->max_per_client_lines;

	if (now < srv->next_print)
		return;
	srv->next_print = now + srv->cfg->interval;
	for (i = 0; i < srv->cfg->max_conns; i++) {
		struct slot *s = &srv->slots[i];

		if (s->used)
			agg += __atomic_load_n(&s->payload, __ATOMIC_RELAXED) +
			       __atomic_load_n(&s->header, __ATOMIC_RELAXED) -
			       s->printed;
	}
	srv->gone_bytes = 0;
	if (!agg && !srv->nactive)
		return;
	fprintf(srv->out, "%.0f kbytes/sec\n", (double)agg / 1024 / period);
	for (i = 0; i < srv->cfg->max_conns; i++) {
		struct slot *s = &srv->slots[i];

		if (!s->used)
			continue;
		cur = __atomic_load_n(&s->payload, __ATOMIC_RELAXED) +
		      __atomic_load_n(&s->header, __ATOMIC_RELAXED);
		if (lines++ < max || log_level >= LOG_VERBOSE)
			fprintf(srv->out, "  %-24s %.0f kbytes/sec\n", s->peer,
				(double)(cur - s->printed) / 1024 / period);
		s->printed = cur;
	}
	if (lines > max && log_level < LOG_VERBOSE)
		fprintf(srv->out, "  ... and %d more clients (-v lists all)\n",
			lines - max);
	fflush(srv->out);
}

int server_should_stop(const struct server *srv)
{
	return sig_stop ||
	       (srv->cfg->exit_after > 0 && srv->ended >= srv->cfg->exit_after);
}

int server_finish(struct server *srv)
{
	int r = 0;

	close(srv->lfd);
	log_info(
		"served %ld connections (%ld ok, %ld refused, %ld short, %ld timed out, %ld errors, %ld interrupted), %ld turned away at --max-conns, at most %d at once",
		srv->ended, srv->by_result[CR_OK], srv->by_result[CR_REFUSED],
		srv->by_result[CR_SHORT], srv->by_result[CR_TIMEOUT],
		srv->by_result[CR_ERROR], srv->by_result[CR_INTERRUPTED],
		srv->refused_full, srv->peak);
	if (srv->doc) {
		if (srv->unrecorded)
			res_warn(
				srv->doc,
				"%ld connections after the first %d are counted in \"server\" only",
				srv->unrecorded, ZCS_MAX_SAMPLES);
		res_set(srv->doc, "server",
			json_pack("{s:I, s:I, s:I, s:i, s:i}", "connections",
				  (json_int_t)srv->ended, "ok",
				  (json_int_t)srv->by_result[CR_OK],
				  "turned_away", (json_int_t)srv->refused_full,
				  "peak", srv->peak, "port", srv->port));
		r = res_finish(srv->doc);
		res_free(srv->doc);
	}
	munmap(srv->slots, sizeof(struct slot) * (size_t)srv->cfg->max_conns);
	return r;
}

/* ---- the event loop ---- */

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
		r = conn_send_report(e->c, cs, n, now - l->t_window, l->nwin);
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
	return conn_answer(e->c, l->srv->cfg->measure, l->soak);
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
	if (cfg->measure &&
	    meterset_open(&l.ms, cfg->meters, NULL, err, sizeof(err)))
		die("%s", err);
	l.soak = cfg->measure && meterset_paired(&l.ms);
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
	if (cfg->measure)
		meterset_close(&l.ms);
	close(l.ep);
	free(l.ec);
	return 0;
}
