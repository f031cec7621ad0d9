/*
 * serve.c: `cyclesoak --serve`, a daemon that lets a benchmark on another
 * host measure this one (an NFS or 9P server that is not ours). The line
 * protocol is in lib/wire/soakproto.h and the man page; lib/cpu/remotecpu.c is its
 * client. Each connection has at most one window of its own; every
 * window of the box shares the one soaker set (lib/cpu/soak.c).
 */
#include "config.h"
#include "cpujson.h"
#include "cyclesoak.h"
#include "hostinfo.h"
#include "log.h"
#include "peerrep.h"
#include "sig.h"
#include "soak.h"
#include "soakproto.h"
#include "sock.h"
#include "clock.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SERVE_OUT_MAX (4 * SOAKPROTO_REPLY_MAX) /* unread replies held */
#define SERVE_EMFILE_PAUSE_S 1.0 /* out of descriptors: stop accepting */

struct sclient {
	int fd;			/* non-blocking */
	struct soakproto_in in; /* command line splitter */
	char inb[4096];		/* bytes read, not yet fed to in */
	size_t inoff, inlen;	/* inb[inoff..inlen) are left */
	struct meterset set;	/* the window's meters */
	int open;		/* a window is open */
	unsigned window;	/* its id */
	double opened;		/* clock_now() it opened */
	unsigned expired;	/* a window --max-window closed, 0 = none */
	struct meter *hold;	/* SOAK off: our join of the soaker set */
	double held;		/* clock_now() of SOAK off */
	double last;		/* clock_now() of its last byte either way */
	int quit;		/* hang up once the replies are out */
	char *out;		/* replies not yet taken */
	size_t outlen;
	char peer[80];
};

struct server {
	const struct cfg *cfg;
	struct meter_opts mo;
	struct sclient *cl;
	int ncl;
	unsigned next_window;
	double accept_after; /* EMFILE: listener not polled until then */
};

/* Send what the socket takes now; a client that stops reading gets its
 * replies queued, never a blocked server (the others go on). */
static void flush_out(struct sclient *k)
{
	ssize_t n;

	while (k->outlen) {
		n = send(k->fd, k->out, k->outlen, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			k->quit = 1;
			k->outlen = 0;
			return;
		}
		memmove(k->out, k->out + n, k->outlen - (size_t)n);
		k->outlen -= (size_t)n;
		k->last = clock_now(); /* taken: not idle */
	}
}

static void reply(struct sclient *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void reply(struct sclient *k, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || k->quit)
		return;
	if (k->outlen + (size_t)n + 1 > SERVE_OUT_MAX) {
		log_warn("%s: %zu bytes of replies not taken: hanging up",
			 k->peer, k->outlen);
		k->quit = 1;
		k->outlen = 0;
		return;
	}
	p = realloc(k->out, k->outlen + (size_t)n + 2);
	if (!p)
		abort();
	k->out = p;
	va_start(ap, fmt);
	vsnprintf(k->out + k->outlen, (size_t)n + 1, fmt, ap);
	va_end(ap);
	k->out[k->outlen + (size_t)n] = '\n';
	k->outlen += (size_t)n + 1;
	flush_out(k);
}

/* Host facts as this server shows them: the kernel command line and the
 * memory size only with --host-details (--bind may face a network). */
static json_t *shown_host(const struct server *s, json_t *host)
{
	if (!s->cfg->host_details) {
		json_object_del(host, "cmdline");
		json_object_del(host, "mem_bytes");
	}
	return host;
}

static void close_window(struct sclient *k)
{
	if (!k->open)
		return;
	meterset_close(&k->set);
	k->open = 0;
}

static void cmd_hello(struct server *s, struct sclient *k)
{
	struct hostinfo h;

	hostinfo_read(NULL, &h);
	reply(k, "OK %s host=%s cpus=%d default=%s", SOAKPROTO_VERSION,
	      h.hostname, h.online_cpus,
	      s->cfg->cli.cpu_list ? s->cfg->cli.cpu_list
				   : meter_default_list(&s->mo));
	hostinfo_free(&h);
}

/*
 * The meters that read more than the box's load are served only when
 * the operator names them (--serve-allow): the protocol has no
 * authentication, and a root daemon would hand any local user what
 * kernel.perf_event_paranoid refuses them (a profile of every CPU's
 * kernel, by symbol; perf counters).
 */
/* Is w one of the comma-separated words of list? */
static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w), k;

	for (;;) {
		k = strcspn(list, ",");
		if (k == n && !strncmp(list, w, n))
			return 1;
		if (!list[k])
			return 0;
		list += k + 1;
	}
}

int cs_serve_allowed(const struct cfg *c, const char *list, char *why,
		     size_t len)
{
	const struct meter_ops *o;
	int i;

	for (i = 0; (o = meter_table[i]); i++) {
		if (!o->exposes || !has_word(list, o->name) ||
		    (c->serve_allow & (1u << i)))
			continue;
		snprintf(why, len,
			 "meter %s is not served: it reads %s (start the "
			 "server with --serve-allow=%s)",
			 o->name, o->exposes, o->name);
		return -EPERM;
	}
	return 0;
}

static void cmd_start(struct server *s, struct sclient *k, const char *arg)
{
	const char *list = *arg			  ? arg
			   : s->cfg->cli.cpu_list ? s->cfg->cli.cpu_list
						  : meter_default_list(&s->mo);
	char err[512];

	if (k->open) {
		reply(k, "ERR window %u already open (STOP it first)",
		      k->window);
		return;
	}
	if (cs_serve_allowed(s->cfg, list, err, sizeof(err))) {
		log_warn("%s: START %s refused: %s", k->peer, list, err);
		reply(k, "ERR %s", err);
		return;
	}
	if (meterset_open(&k->set, list, &s->mo, err, sizeof(err))) {
		reply(k, "ERR %s", err);
		return;
	}
	meterset_start(&k->set);
	k->open = 1;
	k->expired = 0;
	k->opened = clock_now();
	k->window = ++s->next_window;
	log_verbose("%s: window %u open (%s)", k->peer, k->window, list);
	reply(k, "OK %u", k->window);
}

/* REPORT (keep the window) or STOP (close it). */
static void cmd_figures(struct server *s, struct sclient *k, int stop)
{
	struct cpu_sample smp[METER_MAX];
	const char *warn;
	json_t *rep;
	char *txt;
	int n;

	if (!k->open && k->expired) {
		reply(k, "ERR window %u was closed after %.0f s (--max-window)",
		      k->expired, s->cfg->max_window_s);
		k->expired = 0;
		return;
	}
	if (!k->open) {
		reply(k, "ERR no window open (START first)");
		return;
	}
	n = meterset_stop(&k->set, smp);
	rep = cpujson_report(smp, n);
	shown_host(s, json_object_get(rep, "host"));
	json_object_set_new(rep, "window", json_integer(k->window));
	json_object_set_new(rep, "elapsed_s", json_real(smp[0].elapsed_s));
	warn = soak_calibration_warning(s->cfg->calib_file);
	if (warn)
		json_object_set_new(rep, "warning", json_string(warn));
	txt = json_dumps(rep, JSON_COMPACT);
	json_decref(rep);
	reply(k, "OK %s", txt ? txt : "{}");
	free(txt);
	if (stop) {
		log_verbose("%s: window %u closed", k->peer, k->window);
		close_window(k);
	}
}

/* SOAK off: park the box's soakers until SOAK on or hang-up (our own
 * join keeps the set alive between windows); SOAK on: let them run. */
static void cmd_soak(struct server *s, struct sclient *k, const char *arg)
{
	int off = !strcmp(arg, "off");
	char err[512];

	if (!k->hold && !off) {
		reply(k, "OK on");
		return;
	}
	if (!k->hold) {
		k->hold = meter_open("soak", &s->mo, err, sizeof(err));
		if (!k->hold) {
			reply(k, "ERR %s", err);
			return;
		}
	}
	if (k->hold->ops->pause(k->hold, off, err, sizeof(err))) {
		reply(k, "ERR %s", err);
		return;
	}
	k->held = clock_now();
	log_verbose("%s: soakers %s", k->peer, off ? "parked" : "running");
	reply(k, "OK %s", off ? "off" : "on");
}

static void cmd_calib(struct server *s, struct sclient *k)
{
	char path[4096], err[512], *txt;
	struct soak_calib c;
	const char *warn;
	json_t *j;

	if (soak_calib_path(s->cfg->calib_file, path, sizeof(path)) ||
	    soak_calib_load(path, &c, err, sizeof(err))) {
		reply(k, "ERR %s", err);
		return;
	}
	j = soak_calib_to_json(&c);
	json_object_set_new(j, "path", json_string(path));
	warn = soak_calibration_warning(s->cfg->calib_file);
	if (warn)
		json_object_set_new(j, "warning", json_string(warn));
	txt = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	reply(k, "OK %s", txt);
	free(txt);
}

static void cmd_host(struct server *s, struct sclient *k)
{
	struct hostinfo h;
	json_t *j;
	char *txt;

	hostinfo_read(NULL, &h);
	j = shown_host(s, hostinfo_to_json(&h));
	hostinfo_free(&h);
	txt = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	reply(k, "OK %s", txt);
	free(txt);
}

struct line_ctx {
	struct server *s;
	struct sclient *k;
};

static void on_line(void *arg, const char *line, int too_long)
{
	struct line_ctx *x = arg;
	struct soakproto_req rq;

	if (x->k->quit)
		return;
	if (too_long) {
		reply(x->k, "ERR line too long (at most %d bytes)",
		      SOAKPROTO_LINE_MAX - 1);
		return;
	}
	soakproto_parse(line, &rq);
	switch (rq.cmd) {
	case SP_EMPTY:
		break;
	case SP_HELLO:
		cmd_hello(x->s, x->k);
		break;
	case SP_PING:
		reply(x->k, "OK PONG");
		break;
	case SP_START:
		cmd_start(x->s, x->k, rq.arg);
		break;
	case SP_REPORT:
		cmd_figures(x->s, x->k, 0);
		break;
	case SP_STOP:
		cmd_figures(x->s, x->k, 1);
		break;
	case SP_CALIB:
		cmd_calib(x->s, x->k);
		break;
	case SP_HOST:
		cmd_host(x->s, x->k);
		break;
	case SP_SOAK:
		cmd_soak(x->s, x->k, rq.arg);
		break;
	case SP_QUIT:
		reply(x->k, "OK bye");
		x->k->quit = 1;
		break;
	case SP_UNKNOWN:
	case SP_BAD:
		reply(x->k, "ERR %s", rq.why);
		break;
	}
}

static void drop(struct server *s, int i)
{
	struct sclient *k = &s->cl[i];

	log_verbose("%s: gone%s", k->peer, k->open ? " (window ended)" : "");
	close_window(k);
	meter_close(k->hold);
	close(k->fd);
	free(k->out);
	s->cl[i] = s->cl[--s->ncl];
}

static void on_accept(struct server *s, int lfd)
{
	struct sclient *k;
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0) {
		if (errno == EMFILE || errno == ENFILE) {
			/* the pending connection stays queued: stop polling
			 * the listener a while instead of spinning on it */
			log_warn("accept: %s: not accepting for %.0f s",
				 strerror(errno), SERVE_EMFILE_PAUSE_S);
			s->accept_after = clock_now() + SERVE_EMFILE_PAUSE_S;
		}
		return;
	}
	if (s->ncl == s->cfg->max_clients) {
		char msg[80];
		int n = snprintf(msg, sizeof(msg),
				 "ERR too many clients (at most %d)\n",
				 s->cfg->max_clients);

		(void)send(fd, msg, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
		close(fd);
		return;
	}
	k = &s->cl[s->ncl++];
	memset(k, 0, sizeof(*k));
	k->fd = fd;
	k->last = clock_now();
	sock_peer_name(fd, k->peer, sizeof(k->peer));
	log_verbose("%s: connected", k->peer);
}

/*
 * Run the next command client i sent, when a whole one is in inb (else
 * keep what there is of it in the splitter, and read again). One
 * command per client per turn of the loop, and only once the reply to
 * the one before has gone to the kernel: a client that queues thousands
 * of commands and reads none of the replies takes its turn with the
 * others and then waits for its own socket, never holding up theirs.
 */
static void run_next(struct server *s, int i)
{
	struct sclient *k = &s->cl[i];
	struct line_ctx x = {s, k};

	k->inoff += soakproto_feed_one(&k->in, k->inb + k->inoff,
				       k->inlen - k->inoff, on_line, &x);
	if (k->inoff == k->inlen)
		k->inoff = k->inlen = 0;
}

/* Client k has bytes read to run now (its replies are out). */
static int has_next(const struct sclient *k)
{
	return !k->outlen && k->inoff < k->inlen;
}

static void on_readable(struct server *s, int i)
{
	struct sclient *k = &s->cl[i];
	ssize_t n = read(k->fd, k->inb, sizeof(k->inb));

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		drop(s, i);
		return;
	}
	k->last = clock_now();
	k->inoff = 0;
	k->inlen = (size_t)n;
	run_next(s, i);
}

/*
 * The operator's limits: a window open longer than --max-window is
 * closed (its soakers released; the next STOP says so), a SOAK off held
 * that long is let go, and a client with no window that sent nothing for
 * --idle-timeout is hung up on, as is one that took none of its replies
 * for that long. 1 when client i must go.
 */
static int limits(struct server *s, int i, double now)
{
	struct sclient *k = &s->cl[i];
	const struct cfg *c = s->cfg;

	if (k->open && now - k->opened > c->max_window_s) {
		log_warn("%s: window %u open %.0f s: closed (--max-window)",
			 k->peer, k->window, now - k->opened);
		close_window(k);
		k->expired = k->window;
		k->last = now;
	}
	if (k->hold && now - k->held > c->max_window_s) {
		log_warn("%s: soakers parked %.0f s: released (--max-window)",
			 k->peer, now - k->held);
		meter_close(k->hold);
		k->hold = NULL;
	}
	if (k->outlen && now - k->last > c->idle_s) {
		log_warn("%s: %zu bytes of replies not taken for %.0f s: "
			 "hanging up (--idle-timeout)",
			 k->peer, k->outlen, now - k->last);
		return 1;
	}
	if (!k->open && !k->outlen && !has_next(k) &&
	    now - k->last > c->idle_s) {
		log_verbose("%s: idle %.0f s: hanging up", k->peer,
			    now - k->last);
		reply(k, "ERR idle for %.0f s (--idle-timeout): closing",
		      now - k->last);
		return 1;
	}
	return k->quit && !k->outlen;
}

int do_serve(const struct cfg *c)
{
	struct server s = {.cfg = c};
	struct pollfd *pf;
	char err[512];
	int lfd, port, i, n, listening, ready;
	double now;

	cs_meter_opts(c, &s.mo);
	lfd = sock_listen(c->bind, c->port, SOCK_STREAM, 64, &port, err,
			  sizeof(err));
	if (lfd < 0)
		die("%s", err);
	s.cl = calloc((size_t)c->max_clients, sizeof(*s.cl));
	pf = calloc((size_t)c->max_clients + 1, sizeof(*pf));
	if (!s.cl || !pf)
		abort();
	printf("cyclesoak: serving on %s port %d (default meters %s)\n",
	       c->bind, port,
	       c->cli.cpu_list ? c->cli.cpu_list : meter_default_list(&s.mo));
	fflush(stdout);
	while (!sig_stop) {
		now = clock_now();
		for (i = s.ncl - 1; i >= 0; i--)
			if (limits(&s, i, now))
				drop(&s, i);
		listening = now >= s.accept_after;
		pf[0].fd = listening ? lfd : -1;
		pf[0].events = POLLIN;
		ready = 0;
		for (i = 0; i < s.ncl; i++) {
			struct sclient *k = &s.cl[i];

			pf[i + 1].fd = k->fd;
			/* replies not taken: wait for them to go; bytes read
			 * and not run yet: the next command, this turn; else
			 * read */
			pf[i + 1].events = k->outlen	? POLLOUT
					   : has_next(k) ? 0
							 : POLLIN;
			ready |= has_next(k);
		}
		n = poll(pf, (nfds_t)s.ncl + 1, ready ? 0 : 500);
		if (n < 0 && errno != EINTR)
			die_errno("poll");
		if (n < 0)
			continue;
		/* from the end: drop() moves the last client into slot i */
		for (i = s.ncl - 1; i >= 0; i--) {
			if (s.cl[i].outlen) {
				if (pf[i + 1].revents)
					flush_out(&s.cl[i]);
			} else if (has_next(&s.cl[i])) {
				run_next(&s, i);
			} else if (pf[i + 1].revents) {
				on_readable(&s, i);
			}
		}
		if (listening && pf[0].revents)
			on_accept(&s, lfd);
	}
	while (s.ncl)
		drop(&s, s.ncl - 1);
	close(lfd);
	free(s.cl);
	free(pf);
	fprintf(stderr, "cyclesoak: server stopped (%s)\n",
		sig_stop ? strsignal(sig_stop) : "done");
	return 0;
}
