/*
 * server.h: what both zcs modes share (server.c): the listening socket,
 * the connection slots, the "N kbytes/sec" lines and the result
 * document; and the two modes, epoll.c (the default) and fork.c.
 */
#ifndef ZCB_ZCS_SERVER_H
#define ZCB_ZCS_SERVER_H

#include "result.h"
#include "zcs.h"

struct server {
	const struct cfg *cfg;
	int lfd;	    /* listening socket */
	int port;	    /* bound port */
	struct slot *slots; /* cfg->max_conns of them */
	int nactive;	    /* slots in use */
	long ended;	    /* connections recorded */
	long refused_full;  /* turned away at --max-conns */
	long by_result[CR_INTERRUPTED + 1];
	struct res_doc *doc;   /* result document, or NULL */
	json_t *kase;	       /* its one case (borrowed) */
	FILE *out;	       /* rate lines: stdout, stderr with -J */
	double t0, next_print; /* start, next rate line */
	uint64_t gone_bytes;   /* bytes of slots ended since last line */
	int peak;	       /* most connections at once */
	long unrecorded;       /* connections past ZCS_MAX_SAMPLES */
	double accept_resume;  /* out of descriptors: accept again then */
	double fd_warned;      /* when that was last logged */
	long fd_pauses;	       /* times accept ran out of descriptors */
};

#define ZCS_FD_PAUSE_S                                                         \
	0.25 /* out of descriptors (EMFILE): the listener rests this long,     \
	      * instead of waking the loop at once, again and again */

#define ZCS_MAX_SAMPLES                                                        \
	10000 /* connections kept one by one in the                            \
	       * result document (memory stays bounded) */

/* Listen, and fill doc (NULL: none asked for) as the run goes. */
void server_init(struct server *srv, const struct cfg *cfg,
		 struct res_doc *doc);
struct slot *server_slot_get(struct server *srv, int fd, double now);
/*
 * Paired runs: the kind of run a hello announced, into the slot. Paired
 * when either side measures with soak (soak: this box does). Returns 1
 * when this box's soakers must be parked for it (an unmetered run).
 */
int server_run_kind(struct slot *s, const struct zcw_run *run, int soak);
/* A connection ended: log it, add its sample, free the slot. */
void server_record(struct server *srv, struct slot *s);
/* The "N kbytes/sec" lines, when a period has passed. */
void server_tick(struct server *srv, double now);
/* Accept failures and the cap: returns fd or -1. Out of descriptors,
 * it sets accept_resume: callers stop polling the listener until then. */
int server_accept(struct server *srv);
/* 1 while the listener rests after EMFILE/ENFILE. */
int server_accept_paused(const struct server *srv, double now);
/* Close, log the summary, write the document: 0 or -errno (not written). */
int server_finish(struct server *srv);
int server_should_stop(const struct server *srv);

int serve_epoll(struct server *srv);
int serve_fork(struct server *srv);

#endif
