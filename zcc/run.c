/*
 * run.c: one zcc run: -P connections, each a thread that connects, says
 * hello when asked (-C), waits at a barrier so all start together, sends
 * the original stream (header words with plain writes, file bytes with
 * the transfer method), then waits for the server's report and close;
 * --interval watches the bytes they have sent.
 */
#include "config.h"
#include "cpujson.h"
#include "zcc.h"

#include "clock.h"
#include "ctr.h"
#include "log.h"
#include "pace.h"
#include "units.h"
#include "peerrep.h"
#include "sig.h"
#include "sock.h"
#include "zcwire.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define HDR_MAX	      64   /* header words gathered before a write */
#define HELLO_WAIT_MS 5000 /* an original server never answers */

struct conn {
	int id; /* 0..P-1 */
	const struct cfg *cfg;
	const struct fileset *fs;
	pthread_barrier_t *ready; /* everyone connected */
	pthread_barrier_t *go;	  /* the clock runs: start */
	int fd;
	struct xfer *x;
	struct xfer_source *src;  /* this connection's copies of the sources */
	char *buf;		  /* their shared copy buffer */
	uint64_t payload, header; /* bytes sent */
	uint32_t run_flags;	  /* the run's kind, for the hello */
	struct remote rem;	  /* what the server said */
	double t_end;		  /* the server closed (with a CPU report:
				   * it arrived, all bytes counted) */
	int finished;		  /* the thread is done (atomic) */
	int failed;
	char err[512];
};

static int conn_fail(struct conn *c, const char *phase, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int conn_fail(struct conn *c, const char *phase, const char *fmt, ...)
{
	char what[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!c->failed)
		snprintf(c->err, sizeof(c->err),
			 "server %s:%d, connection %d, %s: %s", c->cfg->server,
			 c->cfg->port, c->id, phase, what);
	c->failed = 1;
	return -1;
}

/* -i/-o as the help says (the original swapped them), checked. */
static void set_bufs(struct conn *c)
{
	int want[2] = {c->cfg->com.rcvbuf, c->cfg->com.sndbuf};
	int opt[2] = {SO_RCVBUF, SO_SNDBUF}, k, got;
	socklen_t l = sizeof(got);

	for (k = 0; k < 2; k++) {
		if (!want[k])
			continue;
		setsockopt(c->fd, SOL_SOCKET, opt[k], &want[k],
			   sizeof(want[k]));
		if (!getsockopt(c->fd, SOL_SOCKET, opt[k], &got, &l) &&
		    got < want[k] && c->id == 0)
			log_warn(
				"%s: asked %d bytes, got %d (raise net.core.%s)",
				k ? "SO_SNDBUF (-o)" : "SO_RCVBUF (-i)",
				want[k], got, k ? "wmem_max" : "rmem_max");
	}
}

static int set_cork(struct conn *c, int on)
{
	int v = on, got = -1;
	socklen_t l = sizeof(got);

	if (setsockopt(c->fd, IPPROTO_TCP, TCP_CORK, &v, sizeof(v)))
		return conn_fail(c, "TCP_CORK", "setsockopt: %s",
				 strerror(errno));
	if (getsockopt(c->fd, IPPROTO_TCP, TCP_CORK, &got, &l) || !got != !on)
		return conn_fail(c, "TCP_CORK", "the option did not take (%d)",
				 got);
	return 0;
}

/* zcc -C: our hello, the server's answer and its description. */
static int hello(struct conn *c)
{
	uint8_t b[ZCW_HELLO_LEN];
	uint32_t ver, flags;
	char err[256];
	json_t *about;
	ssize_t n;

	zcw_hello_encode(b, ZCW_F_CPU | c->run_flags);
	if (sock_write_full(c->fd, b, sizeof(b), c->cfg->timeout_ms) !=
	    (ssize_t)sizeof(b))
		return conn_fail(c, "hello", "cannot send it");
	c->header += sizeof(b);
	n = sock_read_full(c->fd, b, sizeof(b), HELLO_WAIT_MS);
	if (n != (ssize_t)sizeof(b))
		return conn_fail(
			c, "hello",
			"%s: not a zcbench zcs? (leave -C off for the original zcs)",
			n == -ETIMEDOUT ? "no answer within 5 s"
			: n < 0		? strerror((int)-n)
					: "closed without an answer");
	if (zcw_hello_decode(b, sizeof(b), &ver, &flags, err, sizeof(err)))
		return conn_fail(c, "hello", "%s", err);
	if (peerrep_recv(c->fd, &about, HELLO_WAIT_MS, err, sizeof(err)))
		return conn_fail(c, "hello", "%s", err);
	c->rem.ours = 1;
	c->rem.cpu_granted = !!(flags & ZCW_F_CPU);
	c->rem.run_granted = !!(flags & ZCW_F_RUN);
	c->rem.soak = c->rem.run_granted && (flags & ZCW_F_SOAK);
	units_copy_text(c->rem.recv_method, sizeof(c->rem.recv_method),
			json_string_value(json_object_get(about, "recv_method")));
	json_decref(about);
	return 0;
}

static int connect_conn(struct conn *c)
{
	char err[256];
	int e;

	c->fd = sock_connect(c->cfg->server, c->cfg->port, SOCK_STREAM,
			     c->cfg->timeout_ms, err, sizeof(err));
	if (c->fd < 0)
		return conn_fail(c, "connect", "%s", err);
	set_bufs(c);
	sock_set_timeout(c->fd, c->cfg->timeout_ms);
	if (c->cfg->rate > 0 &&
	    (e = pace_sock(c->fd,
			   (uint64_t)(c->cfg->rate / c->cfg->conns + 0.5),
			   NULL)))
		return conn_fail(c, "--rate", "the kernel does not pace the socket (SO_MAX_PACING_RATE): %s",
				 strerror(-e));
	if (c->cfg->cork && set_cork(c, 1))
		return -1;
	if (c->cfg->remote && hello(c))
		return -1;
	return 0;
}

/* Per-connection copies of the sources: same file, own copy buffer, so
 * threads never share a buffer the copy methods read into. */
static int make_sources(struct conn *c)
{
	const struct fileset *fs = c->fs;
	char err[256];
	int i, first = -1;

	c->src = calloc((size_t)fs->n, sizeof(*c->src));
	if (!c->src || posix_memalign((void **)&c->buf, 4096, c->cfg->bufsize))
		abort();
	for (i = 0; i < fs->n; i++) {
		c->src[i] = fs->src[i];
		c->src[i].buf = c->buf;
		if (fs->len[i] && first < 0)
			first = i;
	}
	if (first < 0)
		return 0; /* only empty files: no method needed */
	c->x = xfer_open(c->cfg->ops, c->fd, &c->src[first], c->cfg->bufsize,
			 err, sizeof(err));
	if (!c->x)
		return conn_fail(c, "setting up the method", "%s", err);
	c->x->timeout_ms = c->cfg->timeout_ms;
	return 0;
}

static int flush_hdr(struct conn *c, uint8_t *hdr, size_t *n)
{
	ssize_t w;

	if (!*n)
		return 0;
	w = sock_write_full(c->fd, hdr, *n, c->cfg->timeout_ms);
	if (w != (ssize_t)*n)
		return conn_fail(c, "sending a header", "%s",
				 w < 0 ? strerror((int)-w) : "short write");
	c->header += *n;
	*n = 0;
	return 0;
}

/* The original stream: nloops, then per loop nfiles, per file length and
 * bytes. Consecutive words go out in one write; the bytes are the same. */
static int send_stream(struct conn *c)
{
	const struct fileset *fs = c->fs;
	uint8_t hdr[HDR_MAX];
	size_t n = 0;
	uint32_t l;
	int f;

	n += zcw_put_u32(hdr + n, c->cfg->loops);
	for (l = 0; l < c->cfg->loops; l++) {
		if (n + 4 > sizeof(hdr) && flush_hdr(c, hdr, &n))
			return -1;
		n += zcw_put_u32(hdr + n, (uint32_t)fs->n);
		for (f = 0; f < fs->n; f++) {
			int64_t r;

			if (n + 4 > sizeof(hdr) && flush_hdr(c, hdr, &n))
				return -1;
			n += zcw_put_u32(hdr + n, (uint32_t)fs->len[f]);
			if (!fs->len[f])
				continue;
			if (flush_hdr(c, hdr, &n))
				return -1;
			if (sig_stop)
				return conn_fail(c, "sending", "interrupted");
			c->x->src = &c->src[f];
			r = xfer_send_stream(c->x, 0, fs->len[f], 0, &sig_stop);
			if (r < 0)
				return conn_fail(
					c, "sending a file", "%s (loop %u): %s",
					fs->src[f].path, l + 1, c->x->err);
			c->payload += (uint64_t)r;
			if ((uint64_t)r != fs->len[f])
				return conn_fail(c, "sending a file",
						 "%s (loop %u): interrupted",
						 fs->src[f].path, l + 1);
		}
	}
	return flush_hdr(c, hdr, &n);
}

/* After the last byte: the CPU report when granted, then the server's
 * close (our FIN first), so the time covers the bytes' arrival. The
 * report comes once the server has counted every byte, so with one the
 * clock stops there: what the server does before it closes (wake its
 * soakers after an unmetered run) is not the transfer. */
static int finish(struct conn *c)
{
	struct cpu_sample s[METER_MAX];
	char err[256], b[256];
	json_t *rep, *z;
	double t_report = 0;
	ssize_t n;
	int k;

	double t_sent = clock_now();

	if (c->cfg->cork && set_cork(c, 0))
		return -1;
	if (c->rem.cpu_granted) {
		if (peerrep_recv(c->fd, &rep, c->cfg->timeout_ms, err,
				 sizeof(err)))
			return conn_fail(c, "waiting for the CPU report", "%s",
					 err);
		t_report = clock_now();
		k = cpujson_from_report(rep, s, METER_MAX, err, sizeof(err));
		z = json_object_get(rep, "zcs");
		if (k < 0) {
			json_decref(rep);
			return conn_fail(c, "reading the CPU report", "%s",
					 err);
		}
		c->rem.n = k;
		memcpy(c->rem.cpu, s, sizeof(s[0]) * (size_t)k);
		c->rem.window_s =
			json_real_value(json_object_get(z, "window_s"));
		c->rem.payload = (uint64_t)json_integer_value(
			json_object_get(z, "payload_bytes"));
		c->rem.header = (uint64_t)json_integer_value(
			json_object_get(z, "header_bytes"));
		c->rem.self_cpu_s =
			json_is_number(json_object_get(z, "self_cpu_s"))
				? json_number_value(
					  json_object_get(z, "self_cpu_s"))
				: NAN;
		c->rem.host = json_incref(json_object_get(rep, "host"));
		json_decref(rep);
		if (c->rem.payload != c->payload || c->rem.header != c->header)
			return conn_fail(
				c, "checking the report",
				"the server counted %llu payload + %llu header bytes, we sent %llu + %llu",
				(unsigned long long)c->rem.payload,
				(unsigned long long)c->rem.header,
				(unsigned long long)c->payload,
				(unsigned long long)c->header);
	}
	shutdown(c->fd, SHUT_WR);
	for (;;) {
		n = sock_read_full(c->fd, b, sizeof(b), c->cfg->timeout_ms);
		if (n == -ETIMEDOUT) { /* a server that never closes */
			if (c->id == 0)
				log_warn("server %s:%d did not close within %d ms of the stream's end: timing ends at the last byte sent",
					 c->cfg->server, c->cfg->port,
					 c->cfg->timeout_ms);
			c->t_end = t_report ? t_report : t_sent;
			return 0;
		}
		if (n == (ssize_t)sizeof(b))
			return conn_fail(
				c, "waiting for the server to close",
				"it sent bytes the protocol has no place for");
		break; /* EOF (a reset after our FIN is a close too) */
	}
	c->t_end = t_report ? t_report : clock_now();
	return 0;
}

static void *conn_main(void *arg)
{
	struct conn *c = arg;
	int ok = !connect_conn(c) && !make_sources(c);

	pthread_barrier_wait(c->ready);
	pthread_barrier_wait(c->go);
	if (ok && !send_stream(c))
		finish(c);
	if (!c->t_end)
		c->t_end = clock_now();
	__atomic_store_n(&c->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void free_conn(struct conn *c)
{
	if (c->x)
		xfer_close(c->x);
	if (c->fd >= 0)
		close(c->fd);
	free(c->src);
	free(c->buf);
	json_decref(c->rem.host);
}

/* Gather the connections into the run's result. */
static void gather(struct conn *cs, int n, struct run_result *r)
{
	int i, best = -1;

	for (i = 0; i < n; i++) {
		struct conn *c = &cs[i];

		r->payload += c->payload;
		r->header += c->header;
		r->rem.payload += c->rem.payload;
		r->rem.header += c->rem.header;
		if (c->x)
			r->calls += c->x->calls;
		if (c->failed && !r->failed++)
			snprintf(r->err, sizeof(r->err), "%s", c->err);
		if (c->rem.n &&
		    (best < 0 || c->rem.window_s > cs[best].rem.window_s))
			best = i;
	}
	r->rem.self_cpu_s = NAN;
	r->rem.ours = cs[0].rem.ours;
	r->rem.cpu_granted = cs[0].rem.cpu_granted;
	r->rem.run_granted = cs[0].rem.run_granted;
	r->rem.soak = cs[0].rem.soak;
	snprintf(r->rem.recv_method, sizeof(r->rem.recv_method), "%s",
		 cs[0].rem.recv_method);
	if (best >= 0) { /* the widest server window covers them all */
		r->rem.n = cs[best].rem.n;
		memcpy(r->rem.cpu, cs[best].rem.cpu,
		       sizeof(r->rem.cpu[0]) * (size_t)r->rem.n);
		r->rem.window_s = cs[best].rem.window_s;
		r->rem.self_cpu_s = cs[best].rem.self_cpu_s;
		r->rem.host = json_incref(cs[best].rem.host);
	}
	if (cs[0].x) {
		r->counters = xfer_counters_json(cs[0].x);
		xfer_zc_warning(cs[0].x, r->warn, sizeof(r->warn));
	}
}

/* --interval: the payload the connections have sent so far (each has
 * its transfer once they are all connected, until they are freed). */
struct progress {
	struct conn *cs;
	int n;
};

static uint64_t sent_so_far(void *arg)
{
	const struct progress *p = arg;
	uint64_t sum = 0;
	int i;

	for (i = 0; i < p->n; i++)
		if (p->cs[i].x)
			sum += ctr_read(&p->cs[i].x->bytes);
	return sum;
}

/* --rate: the connections held at the rate while they send (a kernel
 * that falls behind on a busy box catches up), once all connected. */
static void keep(const struct cfg *cfg, const struct conn *cs, int *fds,
		 struct pace_keep *pk, struct progress *prog)
{
	int i, e;

	if (cfg->rate <= 0)
		return;
	for (i = 0; i < cfg->conns; i++)
		fds[i] = cs[i].fd;
	e = pace_keep_start(pk, cfg->rate, fds, cfg->conns, sent_so_far, prog);
	if (e)
		log_warn("--rate: no keeper thread (%s): the kernel's pacing alone may fall behind",
			 strerror(-e));
}

/* 1 when a connection's thread is done. */
static int any_finished(struct conn *cs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (__atomic_load_n(&cs[i].finished, __ATOMIC_ACQUIRE))
			return 1;
	return 0;
}

/*
 * --omit: the run's first T after the go run unmeasured (t0: the go);
 * then the payload so far is set aside and the windows open (*t0 moves
 * there). A connection done before T ends the run short: -1 with
 * r->err saying so (the connections finish on their own).
 */
static int omit_part(const struct cfg *cfg, struct conn *cs,
		     struct progress *prog, struct cpuwin *w, double *t0,
		     struct run_result *r)
{
	double end = *t0 + cfg->com.omit, now;
	char werr[512];

	while ((now = clock_now()) < end && !sig_stop) {
		if (any_finished(cs, cfg->conns)) {
			snprintf(r->err, sizeof(r->err),
				 "--omit %g s: a connection ended after %.3f s, before the measured part began (more -n loops or files, or a shorter --omit)",
				 cfg->com.omit, now - *t0);
			return -1;
		}
		clock_sleep(end - now < 0.01 ? end - now : 0.01);
	}
	r->omit_payload = sent_so_far(prog);
	r->omit_s = clock_now() - *t0;
	if (cpuwin_start(w, werr, sizeof(werr)))
		log_warn("%s (the failed meter's figures say why)", werr);
	*t0 = clock_now();
	return 0;
}

int run_once(const struct cfg *cfg, const struct fileset *fs,
	     uint32_t run_flags, struct cpuwin *w, struct cpuwin_sample *win,
	     struct run_result *r)
{
	struct conn *cs = calloc((size_t)cfg->conns, sizeof(*cs));
	pthread_t *th = calloc((size_t)cfg->conns, sizeof(*th));
	struct progress prog = {cs, cfg->conns};
	int *fds = calloc((size_t)cfg->conns, sizeof(int));
	struct pace_keep pk = {0};
	pthread_barrier_t ready, go;
	pthread_attr_t attr;
	char werr[512];
	double t0, t_end = 0;
	int i, started = 0, short_run;

	memset(r, 0, sizeof(*r));
	if (!cs || !th || !fds)
		abort();
	pthread_barrier_init(&ready, NULL, (unsigned)cfg->conns + 1);
	pthread_barrier_init(&go, NULL, (unsigned)cfg->conns + 1);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	for (i = 0; i < cfg->conns; i++) {
		cs[i] = (struct conn){.id = i,
				      .cfg = cfg,
				      .fs = fs,
				      .ready = &ready,
				      .go = &go,
				      .run_flags = run_flags,
				      .fd = -1};
		if (pthread_create(&th[i], &attr, conn_main, &cs[i]))
			die("cannot start connection thread %d of %d", i + 1,
			    cfg->conns);
		started++;
	}
	pthread_attr_destroy(&attr);
	pthread_barrier_wait(&ready);
	if (cfg->com.omit <= 0 && cpuwin_start(w, werr, sizeof(werr)))
		log_warn("%s (the failed meter's figures say why)", werr);
	t0 = clock_now();
	ival_watch_fn(cfg->iv, sent_so_far, &prog);
	keep(cfg, cs, fds, &pk, &prog);
	pthread_barrier_wait(&go);
	short_run = cfg->com.omit > 0 && omit_part(cfg, cs, &prog, w, &t0, r);
	if (short_run && cpuwin_start(w, werr, sizeof(werr)))
		log_warn("%s (the failed meter's figures say why)", werr);
	for (i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
		if (cs[i].t_end > t_end)
			t_end = cs[i].t_end;
	}
	pace_keep_stop(&pk);
	free(fds);
	ival_watch_fn(cfg->iv, NULL, NULL);
	cpuwin_stop(w, win, werr, sizeof(werr)); /* local only: never fails */
	r->elapsed_s = t_end - t0;
	gather(cs, cfg->conns, r);
	r->payload -= r->omit_payload < r->payload ? r->omit_payload : r->payload;
	if (short_run && !r->failed) /* r->err is omit_part's */
		r->failed = 1;
	for (i = 0; i < cfg->conns; i++)
		free_conn(&cs[i]);
	pthread_barrier_destroy(&ready);
	pthread_barrier_destroy(&go);
	free(cs);
	free(th);
	return r->failed ? -1 : 0;
}

void run_result_free(struct run_result *r)
{
	json_decref(r->rem.host);
	json_decref(r->counters);
	json_decref(r->intervals);
	r->rem.host = NULL;
	r->counters = NULL;
	r->intervals = NULL;
}
