/*
 * measure.c: one measured chatbench run. Wall time and getrusage of this
 * process bracket the whole run (connect, exchange, hang-up), like time(1)
 * around chat_c; with the server in-process the figures include it. The
 * suite's meters (-c) bracket the same window (lib/cpu/cpuwin: this box
 * is its "box" side), and a remote chatbench server reports its own
 * rusage (and meters) over a control connection (its "server" side, the
 * window's peer).
 * With the soak meter on either side the runs go in pairs (lib/cpu/meter.h):
 * this box's soakers are parked for an unmetered run, and a remote server
 * learns each run's kind over the control connection (chatbench/chatframe.h).
 */
#include "config.h"
#include "cpujson.h"
#include "bench.h"
#include "clock.h"
#include "log.h"
#include "peerrep.h"
#include "series.h"
#include "sock.h"

#include <math.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define CTRL_WAIT_MS 10000 /* longest wait on the control connection */

struct measure {
	struct cpuwin w; /* -c: this box; the server's report */
	int ctrl;	 /* control connection to a remote server, -1 */
	int srv_here;	 /* that server is on this box (its address is
			  * ours): its CPU is the run's */
	uint64_t tokens; /* runs so far, for the token */
	int srv_pairs;	 /* the server takes run kinds (parks soakers) */
	int srv_soak;	 /* it measures with soak */
	/* the run being measured, from where its measured part begins */
	struct sample *s;
	enum chat_run_kind kind;
	struct rusage a;
	double t0;
};

static int ctrl_open(const struct cfg *c, const char *host, int port, char *err,
		     size_t len)
{
	struct chat_join j = {.flags = CHAT_JOIN_CTRL};
	uint8_t f[CHAT_JOIN_LEN];
	int fd = sock_connect(host, port, SOCK_STREAM, 10000, err, len);

	(void)c;
	if (fd < 0)
		return fd;
	/* every wait on it has a limit: a server that stops reading or
	 * answering costs its figures, not the run */
	sock_set_timeout(fd, CTRL_WAIT_MS);
	chatframe_join(f, 0, 0, &j);
	if (chat_send_full(fd, f, sizeof(f)) != (long)sizeof(f)) {
		snprintf(err, len, "control connection to %s:%d: send failed",
			 host, port);
		close(fd);
		return -1;
	}
	return fd;
}

static void ctrl_send(struct measure *m, enum chat_type type,
		      enum chat_run_kind kind);
static json_t *ctrl_recv(struct measure *m);

/* What the server measures, from an empty window: every server answers
 * STATS_STOP; one that takes run kinds says so in its report. */
static void ctrl_probe(struct measure *m)
{
	json_t *rep;

	ctrl_send(m, CHAT_STATS_START, CHAT_RUN_UNSAID);
	ctrl_send(m, CHAT_STATS_STOP, CHAT_RUN_UNSAID);
	rep = ctrl_recv(m);
	if (!rep)
		return;
	m->srv_pairs = json_is_true(json_object_get(rep, "pairs"));
	m->srv_soak = json_is_true(json_object_get(rep, "soak"));
	json_decref(rep);
}

/* The two ends of fd have one address: its peer is on this box. */
static int same_address(int fd)
{
	struct sockaddr_storage a, b;
	socklen_t la = sizeof(a), lb = sizeof(b);

	if (getsockname(fd, (struct sockaddr *)&a, &la) ||
	    getpeername(fd, (struct sockaddr *)&b, &lb) || a.ss_family != b.ss_family)
		return 0;
	if (a.ss_family == AF_INET)
		return ((struct sockaddr_in *)&a)->sin_addr.s_addr ==
		       ((struct sockaddr_in *)&b)->sin_addr.s_addr;
	if (a.ss_family == AF_INET6)
		return !memcmp(&((struct sockaddr_in6 *)&a)->sin6_addr,
			       &((struct sockaddr_in6 *)&b)->sin6_addr,
			       sizeof(struct in6_addr));
	return 0;
}

int measure_server_here(const struct measure *m)
{
	return m->srv_here;
}

struct measure *measure_open(const struct cfg *c, const char *host, int port,
			     char *err, size_t len)
{
	struct cpuwin_cfg wc = {
		.local = c->cli.cpu,
		.local_list = c->cli.cpu_list,
		.local_side = "box",
		.peer_side = "server",
	};
	struct measure *m = calloc(1, sizeof(*m));
	char e2[512];

	if (!m)
		abort();
	m->ctrl = -1;
	if (cpuwin_open(&m->w, &wc, e2, sizeof(e2))) {
		snprintf(err, len, "%s", e2);
		free(m);
		return NULL;
	}
	if (c->host) {
		m->ctrl = ctrl_open(c, host, port, err, len);
		if (m->ctrl < 0) {
			measure_close(m);
			return NULL;
		}
		ctrl_probe(m);
		m->srv_here = same_address(m->ctrl);
	}
	cpuwin_peer_pairs(&m->w, m->srv_pairs && m->srv_soak);
	return m;
}

int measure_paired(const struct measure *m)
{
	return cpuwin_paired(&m->w);
}

const char *measure_paired_by(const struct measure *m)
{
	const char *by = cpuwin_paired_by(&m->w);

	return by ? by : meter_pairer();
}

int measure_server_pairs(const struct measure *m)
{
	return m->srv_pairs;
}

const char *measure_soak_sides(const struct measure *m, char *buf, size_t len)
{
	int here = m->w.local_paired, there = m->w.peer_paired;

	snprintf(buf, len, "%s%s%s", here ? "this box" : "",
		 here && there ? " and " : "", there ? "the server" : "");
	return buf;
}

void measure_close(struct measure *m)
{
	if (!m)
		return;
	cpuwin_close(&m->w);
	if (m->ctrl >= 0)
		close(m->ctrl);
	free(m);
}

static double tv(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

static uint64_t new_token(struct measure *m)
{
	uint64_t t = clock_ns() ^ ((uint64_t)getpid() << 40);

	t ^= ++m->tokens * 0x9e3779b97f4a7c15ull;
	return t;
}

static void ctrl_send(struct measure *m, enum chat_type type,
		      enum chat_run_kind kind)
{
	uint8_t f[CHAT_HDR];

	chatframe_stats(f, type, kind);
	if (m->ctrl >= 0 && chat_send_full(m->ctrl, f, sizeof(f)) != CHAT_HDR) {
		log_warn(
			"control connection to the server lost: no server CPU figures");
		close(m->ctrl);
		m->ctrl = -1;
	}
}

/* A report over the control connection, or NULL (then it is closed). */
static json_t *ctrl_recv(struct measure *m)
{
	char err[256];
	json_t *rep = NULL;

	if (m->ctrl < 0)
		return NULL;
	if (peerrep_recv(m->ctrl, &rep, CTRL_WAIT_MS, err, sizeof(err))) {
		log_warn("server CPU report: %s", err);
		close(m->ctrl);
		m->ctrl = -1;
		return NULL;
	}
	return rep;
}

static enum chat_run_kind run_kind(int paired, int metered)
{
	if (!paired || metered < 0)
		return CHAT_RUN_UNSAID;
	return metered ? CHAT_RUN_METERED : CHAT_RUN_UNMETERED;
}

/* The server's report over the control connection; next: the kind of
 * the run after this one (the server parks or wakes its soakers before
 * it answers). */
static void ctrl_report(struct measure *m, struct sample *s,
			enum chat_run_kind next)
{
	struct cpu_sample srv[METER_MAX];
	char err[256];
	json_t *rep;
	int i, n;

	ctrl_send(m, CHAT_STATS_STOP, next);
	rep = ctrl_recv(m);
	if (!rep)
		return;
	n = cpujson_from_report(rep, srv, METER_MAX, err, sizeof(err));
	if (n < 0) {
		log_warn("server CPU report: %s", err);
		n = 0;
	}
	cpuwin_peer_figures(&s->cpu, srv, n);
	for (i = 0; i < n; i++)
		if ((meter_flags_of(srv[i].meter) & METER_PROCESS) &&
		    srv[i].ok) {
			s->srv_user_s = srv[i].utime_s;
			s->srv_sys_s = srv[i].stime_s;
		}
	json_decref(rep);
}

/* Where the run's measured part begins: at its start, or with --omit
 * that far into the exchange (chat_run_cfg.measure): the server's
 * window, this box's, the rusage and the clock. */
static void measure_begin(void *arg)
{
	struct measure *m = arg;
	char err[256];

	if (m->ctrl >= 0)
		ctrl_send(m, CHAT_STATS_START, m->kind);
	cpuwin_start(&m->w, err, sizeof(err));
	getrusage(RUSAGE_SELF, &m->a);
	m->t0 = clock_now();
}

int measure_run(struct measure *m, const struct chat_run_cfg *rc0,
		struct sample *s, int metered, int next)
{
	struct chat_run_cfg rc = *rc0;
	struct rusage b;
	char err[256];
	int r;

	int paired = cpuwin_paired(&m->w);

	memset(s, 0, sizeof(*s));
	s->srv_user_s = s->srv_sys_s = NAN;
	s->paired = paired;
	s->metered = paired && metered;
	rc.token = new_token(m);
	/* this box's soakers: the server parks its own by the run kind */
	if (paired && cpuwin_metered(&m->w, s->metered, err, sizeof(err))) {
		snprintf(s->run.err, sizeof(s->run.err), "--cpu: %s", err);
		return -1;
	}
	m->s = s;
	m->kind = run_kind(paired, s->metered);
	m->t0 = 0;
	if (rc.omit_s > 0) {
		rc.measure = measure_begin;
		rc.measure_arg = m;
	} else {
		measure_begin(m);
	}
	r = chat_client_run(&rc, &s->run);
	if (m->t0 == 0) /* it ended before its measured part began */
		measure_begin(m);
	s->real_s = clock_now() - m->t0;
	getrusage(RUSAGE_SELF, &b);
	cpuwin_stop(&m->w, &s->cpu, err, sizeof(err));
	if (m->ctrl >= 0)
		ctrl_report(m, s, run_kind(paired, next));
	s->user_s = tv(&b.ru_utime) - tv(&m->a.ru_utime);
	s->sys_s = tv(&b.ru_stime) - tv(&m->a.ru_stime);
	s->cpu_pct =
		s->real_s > 0 ? (s->user_s + s->sys_s) / s->real_s * 100 : NAN;
	s->msgs_per_s = s->run.exchange_s > 0
				? (double)(s->run.received - s->run.omitted) /
					  s->run.exchange_s
				: NAN;
	/* a server on this box is the run's too */
	if (m->srv_here && isfinite(s->srv_user_s))
		quiet_add_run_s(&s->cpu.quiet, s->srv_user_s + s->srv_sys_s);
	return r;
}

void sample_to_doc(struct res_doc *d, json_t *kase, const struct sample *s,
		   int same_box, const struct series *ser,
		   const struct series_run *r, int outcome)
{
	json_t *j = json_pack("{s:I, s:I, s:f, s:f, s:b}", "messages",
			      (json_int_t)s->run.expected, "received",
			      (json_int_t)s->run.received, "exchange_s",
			      s->run.exchange_s, "connect_s", s->run.connect_s,
			      "same_box", same_box);

	res_sample_set(j, "msgs_per_s", s->msgs_per_s);
	res_sample_set(j, "real_s", s->real_s);
	res_sample_set(j, "system_s", s->sys_s);
	res_sample_set(j, "user_s", s->user_s);
	res_sample_set(j, "time_cpu_pct", s->cpu_pct);
	res_sample_set(j, "exchange_s", s->run.exchange_s);
	res_sample_omitted(j, s->run.omitted_s, "messages", s->run.omitted);
	cpuwin_add_side(d, j, &s->cpu, CPUWIN_LOCAL, 0);
	meter_put_per_cpu(d, j, "box", s->cpu.local, s->cpu.nlocal, "msgs",
			  "msg/CPU-s", (double)(s->run.received - s->run.omitted),
			  s->cpu.metered);
	if (s->cpu.npeer) {
		res_metric(d, "server_user_s", "s", RES_LOWER, 0);
		res_metric(d, "server_system_s", "s", RES_LOWER, 0);
		res_sample_set(j, "server_user_s", s->srv_user_s);
		res_sample_set(j, "server_system_s", s->srv_sys_s);
		cpuwin_add_side(d, j, &s->cpu, CPUWIN_PEER, 0);
		meter_put_per_cpu(d, j, "server", s->cpu.peer, s->cpu.npeer,
				  "msgs", "msg/CPU-s",
				  (double)(s->run.received - s->run.omitted),
				  s->cpu.metered);
	}
	if (s->run.err[0])
		json_object_set_new(j, "error", json_string(s->run.err));
	if (s->intervals)
		json_object_set(j, "intervals", s->intervals);
	series_quiet_doc(ser, r, &s->cpu.quiet, outcome, j);
	if (s->paired) /* last: renames the slowed run's own figures */
		res_sample_pair(d, j, s->pair, s->metered);
	res_sample(kase, j);
}
