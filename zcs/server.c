/*
 * server.c: what both zcs modes share: the listening socket, the
 * connection slots (with the run kind a hello announced), the "N
 * kbytes/sec" lines, and the result document with a sample per
 * connection.
 */
#include "config.h"
#include "server.h"

#include "clock.h"
#include "log.h"
#include "result.h"
#include "sig.h"
#include "sock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

void server_init(struct server *srv, const struct cfg *cfg,
		 struct res_doc *doc)
{
	char err[256];
	size_t sz = sizeof(struct slot) * (size_t)cfg->max_conns;
	FILE *f;

	memset(srv, 0, sizeof(*srv));
	srv->cfg = cfg;
	srv->out = cfg->com.json_stdout ? stderr : stdout;
	srv->doc = doc;
	if (doc) {
		res_set(srv->doc, "config", zcs_about(cfg));
		res_metric(srv->doc, "throughput_MBps", "MB/s", RES_HIGHER, 1);
		res_metric(srv->doc, "elapsed_s", "s", RES_LOWER, 0);
		srv->kase = res_case(
			srv->doc,
			json_pack("{s:s, s:s}", "recv_method", cfg->ops->name,
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
		 srv->port, cfg->fork_mode ? "fork" : "epoll", cfg->ops->name,
		 cfg->com.cpu ? ", measuring CPU" : "");
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
			s->peer, zcs_result_name(s->result), s->err,
			(unsigned long long)s->payload,
			(unsigned long long)s->header);
	if (srv->doc && srv->ended - srv->unrecorded >= ZCS_MAX_SAMPLES)
		srv->unrecorded++;
	else if (srv->doc) {
		smp = json_pack(
			"{s:s, s:s, s:I, s:I, s:I, s:I, s:f, s:b, s:b}", "peer",
			s->peer, "result", zcs_result_name(s->result),
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
				 zcs_result_name(s->result), s->err);
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
