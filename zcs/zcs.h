/* zcs.h: the parts of the zcs server: settings, connection slots, loops. */
#ifndef ZCB_ZCS_H
#define ZCB_ZCS_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "meter.h"
#include "xfer.h"
#include "zcwire.h"

struct cfg {
	const char *bind;	  /* --bind: address ("*" = any) */
	int port;		  /* -p: 2222, 0 = pick one */
	const char *port_file;	  /* --port-file: bound port to it */
	const char *method;	  /* --method: receive method of lib/xfer */
	size_t unit;		  /* -b: bytes per receive call */
	int rcvbuf, sndbuf;	  /* -i, -o (0 = leave) */
	int cpu;		  /* -B: CPU to run on, -1 = any */
	double interval;	  /* -I: seconds between rate lines */
	int fork_mode;		  /* --fork: a process per connection */
	int max_conns;		  /* --max-conns: connections at once */
	struct zcw_limits lim;	  /* --max-loops/-files/-file-len */
	double idle_timeout;	  /* --idle-timeout: seconds */
	double header_timeout;	  /* --header-timeout: first file header
				   * due this long after accept, 0 = none */
	double min_rate;	  /* --min-rate: bytes/s over each
				   * --idle-timeout period, 0 = none */
	int measure;		  /* -c / --cpu: measure this box's CPU */
	const char *meters;	  /* --cpu=LIST, NULL = default list */
	const char *json_path;	  /* -J ("-"), --output, or NULL */
	const char *label;	  /* --label */
	long exit_after;	  /* --exit-after: stop after N connections */
	int max_per_client_lines; /* rate lines per period (-v: all) */
};

enum conn_result {
	CR_ACTIVE,	/* still streaming */
	CR_OK,		/* the whole stream arrived */
	CR_REFUSED,	/* a header beyond the limits */
	CR_SHORT,	/* the client closed before the end */
	CR_TIMEOUT,	/* idle longer than --idle-timeout */
	CR_ERROR,	/* a socket or method error */
	CR_INTERRUPTED, /* zcs was stopped */
};

/* One connection's figures. In --fork mode the slots live in memory
 * shared with the children, which update their own. */
struct slot {
	int used;	       /* 1: a connection owns it */
	pid_t pid;	       /* --fork: the child serving it */
	char peer[64];	       /* "1.2.3.4:5678" */
	double t_start, t_end; /* accept, end (monotonic seconds) */
	uint64_t payload;      /* file bytes received */
	uint64_t header;       /* protocol bytes received (hello included) */
	uint64_t files;	       /* whole files received */
	uint32_t loops;	       /* loop count announced */
	uint64_t printed;      /* payload + header at the last rate line */
	int result;	       /* enum conn_result */
	int hello;	       /* 1: the client was ours and said hello */
	int cpu_sent;	       /* 1: a CPU report went to the client */
	int paired;	       /* 1: one run of a metered/unmetered pair */
	int metered;	       /* paired: the soakers ran (else parked) */
	uint32_t pair;	       /* paired: which pair, from the hello */
	char err[256];	       /* why it ended badly */
};

struct conn;

enum conn_step {
	CS_MORE,  /* wait for the socket to be readable */
	CS_HELLO, /* a hello came: answer it with conn_answer() */
	CS_DONE,  /* stream complete */
	CS_FAIL,  /* ended; slot->result and slot->err say why */
};

struct conn *conn_new(const struct cfg *cfg, int fd, struct slot *s, char *err,
		      size_t len);
/* Read what is there, up to a fair budget. */
enum conn_step conn_service(struct conn *c);
int conn_fd(const struct conn *c);
/* After CS_HELLO: the client wants a CPU report (ZCW_F_CPU). */
int conn_wants_cpu(const struct conn *c);
/* After CS_HELLO: the run its hello announced (said 0: an older zcc). */
const struct zcw_run *conn_run(const struct conn *c);
/*
 * Answer the hello: grant the CPU report when cpu (this box is measured
 * for the connection), say ZCW_F_SOAK when soak (it is measured with the
 * soak meter). CS_HELLO, or CS_FAIL (slot->err says why).
 */
enum conn_step conn_answer(struct conn *c, int cpu, int soak);
/* After the answer: a CPU report is owed at the end. */
int conn_asks_cpu(const struct conn *c);
double conn_last(const struct conn *c); /* monotonic time of last byte */
/*
 * The limits a slow client meets, checked every tick: no byte for
 * --idle-timeout, the first file header not complete --header-timeout
 * after accept, fewer than --min-rate bytes/s over an --idle-timeout
 * period (a byte every few seconds holds a slot no longer). CS_MORE, or
 * CS_FAIL with the slot's result (timeout) and err set.
 */
enum conn_step conn_check(struct conn *c, double now);
/* Send the CPU report (peerrep frame) for this connection. 0 or -errno. */
int conn_send_report(struct conn *c, const struct cpu_sample *s, int n,
		     double window_s, int nconns);
void conn_free(struct conn *c); /* closes the socket */
const char *conn_result_name(int r);

/* serve.c: what both modes share */
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

void server_init(struct server *srv, const struct cfg *cfg, int argc,
		 char **argv);
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

/* What zcs says about itself in its answer to a hello. */
json_t *zcs_about(const struct cfg *cfg);

#endif
