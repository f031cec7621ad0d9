/*
 * room.c: the chat server's room registry, shared by both models: joining
 * a room (keyed by the client run's token and the room number), READY when
 * it is full, breaking it up when a member leaves early or misbehaves (the
 * others get ABORT naming it), checking each message's sender and
 * sequence, the per-run log line, and the control connection's CPU report.
 */
#include "config.h"
#include "cpujson.h"
#include "server.h"
#include "clock.h"
#include "log.h"
#include "peerrep.h"
#include "sock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static struct srv_room *room_find(struct chat_server *s, uint64_t token,
				  uint16_t id)
{
	struct srv_room *r;

	for (r = s->rooms; r; r = r->next)
		if (r->token == token && r->id == id)
			return r;
	return NULL;
}

int srv_join(struct chat_server *s, struct srv_conn *c,
	     const struct chat_hdr *h, const struct chat_join *j, char *err,
	     size_t len)
{
	struct srv_room *r = room_find(s, j->token, h->room);

	if (!r) {
		r = calloc(1, sizeof(*r));
		if (r)
			r->member = calloc(j->users, sizeof(*r->member));
		if (!r || !r->member) {
			free(r);
			snprintf(err, len, "out of memory for a room");
			return -ENOMEM;
		}
		pthread_mutex_init(&r->llock, NULL);
		pthread_cond_init(&r->ldata, NULL);
		pthread_cond_init(&r->lspace, NULL);
		r->token = j->token;
		r->id = h->room;
		r->shape = *j;
		r->shape.flags &= ~(uint32_t)CHAT_JOIN_NODELAY;
		r->next = s->rooms;
		s->rooms = r;
	} else if (r->shape.rooms != j->rooms || r->shape.users != j->users ||
		   r->shape.messages != j->messages ||
		   r->shape.size != j->size) {
		snprintf(
			err, len,
			"JOIN of room %u user %u disagrees with the room's shape",
			h->room, h->sender);
		return -EINVAL;
	}
	if (r->started || r->aborted || r->member[h->sender]) {
		snprintf(err, len, "room %u user %u: %s", h->room, h->sender,
			 r->aborted   ? "room already broken up"
			 : r->started ? "room already running"
				      : "user already joined");
		return -EINVAL;
	}
	s->last_busy = clock_now();
	r->member[h->sender] = c;
	r->joined++;
	r->live++;
	c->room = r;
	c->user = h->sender;
	return r->joined == r->shape.users;
}

void srv_ready(struct chat_server *s, struct srv_room *r)
{
	uint8_t f[CHAT_HDR];
	uint32_t u;

	__atomic_store_n(&r->started, 1, __ATOMIC_RELEASE);
	r->t_start = clock_now();
	for (u = 0; u < r->shape.users; u++) {
		chatframe_simple(f, CHAT_READY, r->id, (uint16_t)u);
		s->ops->push(r->member[u], f, sizeof(f));
	}
}

void srv_room_free(struct chat_server *s, struct srv_room *r)
{
	struct srv_room **p;
	uint32_t u;

	for (p = &s->rooms; *p; p = &(*p)->next)
		if (*p == r) {
			*p = r->next;
			break;
		}
	for (u = 0; u < r->shape.users; u++)
		srv_conn_free(r->member[u]);
	free(r->member);
	free(r->log);
	free(r->lsender);
	pthread_mutex_destroy(&r->llock);
	pthread_cond_destroy(&r->ldata);
	pthread_cond_destroy(&r->lspace);
	free(r);
}

/* Log one line per finished run: when its last room empties. */
static void room_done(struct chat_server *s, struct srv_room *r)
{
	struct srv_room *o;
	double t = clock_now() - r->t_start;

	unsigned i;

	if (r->aborted || !r->started)
		return;
	for (o = s->rooms; o; o = o->next)
		if (o != r && o->token == r->token)
			return; /* other rooms of the run still open */
	for (i = 0; i < 64; i++)
		if (s->broken[i] == r->token)
			return; /* a room of it broke: logged then */
	s->runs++;
	if (!s->cfg.quiet)
		log_info(
			"run %llu (token %016llx): %u rooms x %u users x %u messages of %u bytes relayed, last room %.3f s",
			(unsigned long long)s->runs,
			(unsigned long long)r->token, r->shape.rooms,
			r->shape.users, r->shape.messages, r->shape.size, t);
}

int srv_leave(struct chat_server *s, struct srv_conn *c, const char *why)
{
	struct srv_room *r = c->room;
	uint8_t f[CHAT_HDR + CHAT_REASON_MAX];
	char reason[CHAT_REASON_MAX];
	uint32_t u;
	size_t n;

	if (!r)
		return 0;
	s->last_busy = clock_now();
	if (!r->aborted &&
	    (why || !r->started || c->sent < r->shape.messages)) {
		if (why && r->started)
			snprintf(
				reason, sizeof(reason),
				"room %u user %u (%s), after sending %u of %u messages: %s",
				r->id, c->user, c->name, c->sent,
				r->shape.messages, why);
		else if (why)
			snprintf(reason, sizeof(reason),
				 "room %u user %u (%s): %s", r->id, c->user,
				 c->name, why);
		else if (!r->started)
			snprintf(
				reason, sizeof(reason),
				"room %u user %u (%s) disconnected before the room was full (%u of %u users joined)",
				r->id, c->user, c->name, r->joined,
				r->shape.users);
		else
			snprintf(
				reason, sizeof(reason),
				"room %u user %u (%s) disconnected mid-run after sending %u of %u messages",
				r->id, c->user, c->name, c->sent,
				r->shape.messages);
		__atomic_store_n(&r->aborted, 1, __ATOMIC_RELAXED);
		s->broken[s->nbroken++ % 64] = r->token;
		/* in-process, the client reports the run's failure itself */
		log_msg(s->cfg.quiet ? LOG_VERBOSE : LOG_NORMAL,
			"%srun %016llx: %s; closing room %u",
			s->cfg.quiet ? "" : "warning: ",
			(unsigned long long)r->token, reason, r->id);
		n = chatframe_abort(f, r->id, c->user, reason);
		for (u = 0; u < r->shape.users; u++) {
			struct srv_conn *m = r->member[u];

			if (!m || m == c)
				continue;
			s->ops->push(m, f, n);
			s->ops->finish(m);
		}
	}
	if (--r->live)
		return 0;
	room_done(s, r);
	srv_room_free(s, r);
	return 1;
}

int srv_check_msg(const struct srv_conn *c, const struct chat_hdr *h, char *err,
		  size_t len)
{
	const struct srv_room *r = c->room;

	if (h->type != CHAT_MSG || h->len != r->shape.size) {
		snprintf(err, len,
			 "sent %s frame of %u bytes, expected MSG of %u",
			 chatframe_type_name(h->type), h->len, r->shape.size);
		return -EINVAL;
	}
	if (h->room != r->id || h->sender != c->user) {
		snprintf(err, len, "sent a message as room %u user %u", h->room,
			 h->sender);
		return -EINVAL;
	}
	if (h->seq != c->sent || c->sent >= r->shape.messages) {
		snprintf(err, len, "sent message seq %u, expected %u of %u",
			 h->seq, c->sent, r->shape.messages);
		return -EINVAL;
	}
	if (!__atomic_load_n(&r->started, __ATOMIC_ACQUIRE)) {
		snprintf(err, len, "sent a message before READY");
		return -EINVAL;
	}
	return 0;
}

/* Paired runs: park this box's soakers for an unmetered run (metered 0)
 * or let them run; a failure is logged, and the report's soak figure
 * then shows the soakers ran. */
static void ctrl_soakers(struct chat_server *s, struct srv_conn *c, int metered)
{
	char err[256];

	if (c->holds == !metered || !meterset_paired(&c->ms))
		return;
	if (meterset_metered(&c->ms, metered, err, sizeof(err))) {
		log_msg(s->cfg.quiet ? LOG_VERBOSE : LOG_NORMAL,
			"warning: control %s: cannot %s the soakers: %s",
			c->name, metered ? "wake" : "park", err);
		return;
	}
	c->holds = !metered;
}

/*
 * The report of a window: CPU samples, and what the client needs to pair
 * its runs: this server takes run kinds ("pairs"), measures with soak
 * ("soak": the client's runs go in pairs) and which run it measured.
 */
static json_t *ctrl_report(struct chat_server *s, struct srv_conn *c,
			   const struct cpu_sample *cs, int n)
{
	json_t *rep = cpujson_report(cs, n);

	json_object_set_new(rep, "role", json_string("chatbench server"));
	if (s->cfg.unpaired)
		return rep;
	json_object_set_new(rep, "pairs", json_true());
	json_object_set_new(rep, "soak", json_boolean(meterset_paired(&c->ms)));
	if (c->run != CHAT_RUN_UNSAID)
		json_object_set_new(rep, "run",
				    json_string(c->run == CHAT_RUN_METERED
							? "metered"
							: "unmetered"));
	return rep;
}

int srv_ctrl(struct chat_server *s, struct srv_conn *c,
	     const struct chat_hdr *h, uint8_t **reply, size_t *rlen, char *err,
	     size_t len)
{
	enum chat_run_kind kind =
		s->cfg.unpaired ? CHAT_RUN_UNSAID : chatframe_run_kind(h);
	struct cpu_sample cs[METER_MAX];
	char list[256];
	json_t *rep;
	int n;

	*reply = NULL;
	*rlen = 0;
	if (h->type == CHAT_STATS_START) {
		if (!c->ms_open) {
			snprintf(list, sizeof(list), "rusage%s%s",
				 s->cfg.cpu_list ? "," : "",
				 s->cfg.cpu_list ? s->cfg.cpu_list : "");
			if (meterset_open(&c->ms, list, NULL, err, len))
				return -EINVAL;
			c->ms_open = 1;
		}
		/* the STOP before parked them already; this covers a
		 * client that opens with an unmetered run */
		c->run = kind;
		if (kind != CHAT_RUN_UNSAID)
			ctrl_soakers(s, c, kind == CHAT_RUN_METERED);
		meterset_start(&c->ms);
		c->ms_started = 1;
		return 0;
	}
	if (h->type == CHAT_STATS_STOP && c->ms_started) {
		n = meterset_stop(&c->ms, cs);
		c->ms_started = 0;
		rep = ctrl_report(s, c, cs, n);
		/* the next run's kind, before the client can start it (it
		 * waits for this report) */
		ctrl_soakers(s, c, kind != CHAT_RUN_UNMETERED);
		*rlen = peerrep_encode(rep, reply);
		json_decref(rep);
		return 0;
	}
	snprintf(err, len, "unexpected %s frame on a control connection",
		 chatframe_type_name(h->type));
	return -EINVAL;
}

void srv_turn_away(struct chat_server *s, int fd, int n)
{
	char peer[64];

	s->turned_away++;
	if (s->turned_away == 1 || s->turned_away % 1000 == 0)
		log_warn(
			"client %s: turned away: %d connections open (--max-conns %d%s); %ld so far",
			sock_peer_name(fd, peer, sizeof(peer)), n,
			s->cfg.max_conns,
			s->cfg.model == CHAT_THREADS
				? ", the threads model runs 2 threads each"
				: "",
			s->turned_away);
	close(fd);
}

double srv_join_timeout(const struct chat_server *s)
{
	double j = SRV_JOIN_TIMEOUT_MS / 1000.0;

	return s->cfg.idle_timeout_s < j ? s->cfg.idle_timeout_s : j;
}

int srv_ctrl_idle(struct chat_server *s, double last, double now)
{
	int busy;

	pthread_mutex_lock(&s->lock);
	busy = s->rooms != NULL;
	if (s->last_busy > last)
		last = s->last_busy;
	pthread_mutex_unlock(&s->lock);
	return !busy && now - last > s->cfg.idle_timeout_s;
}

int srv_accept_failed(struct chat_server *s, int e)
{
	double now = clock_now();
	struct rlimit rl;

	if (e != EMFILE && e != ENFILE && e != ENOBUFS && e != ENOMEM)
		return 0;
	s->accept_resume = now + SRV_FD_PAUSE_S;
	s->fd_pauses++;
	if (s->fd_warned && now - s->fd_warned < 10)
		return 1;
	s->fd_warned = now;
	getrlimit(RLIMIT_NOFILE, &rl);
	log_warn(
		"accept: %s with %d connections open (open file limit %llu): pausing accepts; raise ulimit -n (%ld pauses so far)",
		strerror(e),
		s->cfg.model == CHAT_THREADS ? s->nthreads : s->nconns,
		(unsigned long long)rl.rlim_cur, s->fd_pauses);
	return 1;
}

void srv_conn_free(struct srv_conn *c)
{
	if (!c)
		return;
	if (c->ms_open)
		meterset_close(&c->ms);
	free(c->q);
	free(c->in);
	free(c->out);
	free(c);
}
