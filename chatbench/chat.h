/*
 * chat.h: what chatbench's parts (main, client, server) share; the
 * helpers are in common.c.
 *
 * The client side opens rooms x users TCP connections (one per user),
 * every user sends `messages` messages of `size` bytes, the server relays
 * each to the other users of the room, and a run ends when every user got
 * every message of its room: rooms * users * messages * (users - 1)
 * deliveries, the figure chat-1.0.1 counted.
 */
#ifndef ZCB_CHAT_H
#define ZCB_CHAT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "chatframe.h"
#include "ival.h"

enum chat_model {
	CHAT_THREADS = 0, /* chat-1.0.1: a thread pair per connection */
	CHAT_EPOLL = 1,	  /* one event loop per side */
};

/* Stack of every benchmark thread: small, so 4000 threads fit. */
#if defined(__SANITIZE_ADDRESS__)
#define CHAT_STACK (512 * 1024)
#else
#define CHAT_STACK (64 * 1024)
#endif
/* Event loops and meters (procstat snapshots are large). */
#define CHAT_BIG_STACK (4 * 1024 * 1024)

/* One client run's settings. */
struct chat_run_cfg {
	const char *host; /* server address */
	int port;
	uint32_t rooms, users, messages, size;
	int nodelay; /* TCP_NODELAY on every client socket */
	enum chat_model model;
	double timeout_s;	 /* the whole run, connect to last delivery */
	long drop_after;	 /* fault: room 0 user 0 hangs up after
				  * sending this many messages; -1 = never */
	uint64_t token;		 /* run token sent in every JOIN */
	volatile int *interrupt; /* nonzero: stop the run (a signal) */
	struct ival *iv;	 /* -i: watches the deliveries, or NULL */
	double omit_s;		 /* --omit: the exchange's first seconds run
				  * unmeasured (0: none) */
	void (*measure)(void *arg); /* omit_s: called once omit_s into the
				     * exchange, where its measured part
				     * begins (the CPU window opens) */
	void *measure_arg;
};

/* What one client run found. */
struct chat_run_result {
	uint64_t expected; /* deliveries due: R * U * M * (U - 1) */
	uint64_t received; /* deliveries checked in */
	double connect_s;  /* connect + JOIN until every room READY */
	double exchange_s; /* READY (with --omit: the measured part's
			    * start) to the last delivery */
	uint64_t omitted;  /* --omit: deliveries before the measured part */
	double omitted_s;  /* and the seconds it began after READY */
	char err[768];	   /* "" when the run was good */
};

/* Run once (either model). 0, or -1 with r->err saying what went wrong. */
int chat_client_run(const struct chat_run_cfg *c, struct chat_run_result *r);
int chat_client_threads(const struct chat_run_cfg *c,
			struct chat_run_result *r);
int chat_client_epoll(const struct chat_run_cfg *c, struct chat_run_result *r);

/* Check one received MSG against what user (of room) expects next:
 * type, size, room, sender and next[sender]. 0 or -1 with err. */
int chat_check_msg(const struct chat_run_cfg *c, uint16_t room, uint16_t user,
		   uint32_t *next, const struct chat_hdr *h, char *err,
		   size_t elen);

/* After a run: -1 with err when bytes beyond the due messages wait on fd. */
int chat_check_surplus(int fd, uint16_t room, uint16_t user, char *err,
		       size_t elen);

/* Default run timeout: 60 s plus 1 s per 20000 deliveries. */
double chat_default_timeout(const struct chat_run_cfg *c);

/* --omit: the measured part of the exchange begins now, t_go the
 * exchange's start: what was delivered so far is left out (r), and the
 * tool's measure hook opens its window. */
void chat_omit_begin(const struct chat_run_cfg *c, struct chat_run_result *r,
		     double t_go, uint64_t delivered);
/* The exchange ended before --omit's seconds were over: buf says so. */
void chat_omit_short(char *buf, size_t len, const struct chat_run_cfg *c,
		     double t_go);
/* Where the rate's clock starts: the exchange's start, or with --omit
 * the measured part's. */
static inline double chat_measured_from(const struct chat_run_result *r,
					double t_go)
{
	return t_go + r->omitted_s;
}

/* Connect user of room to the server, TCP_NODELAY when asked, and send
 * its JOIN: the socket, or -1 with err naming the user. */
int chat_user_connect(const struct chat_run_cfg *c, uint16_t room,
		      uint16_t user, char *err, size_t len);

/* A run that timed out before every room was READY (nready of n users
 * were), or during the exchange: how many messages are missing, how many
 * users are short (got: each user's count) and the first of them. */
void chat_ready_timeout(char *buf, size_t len, const struct chat_run_cfg *c,
			uint32_t nready, uint32_t n);
void chat_run_timeout(char *buf, size_t len, const struct chat_run_cfg *c,
		      uint64_t expected, const uint64_t *got, uint32_t n);

struct chat_server_cfg {
	const char *bind; /* address to listen on */
	int port;	  /* 0: any free port */
	enum chat_model model;
	double idle_timeout_s; /* a connection silent this long is closed */
	long stall_after;      /* fault: stop relaying after this many
				* relays per room; -1 = never */
	int quiet;	       /* no per-run lines (in-process server) */
	const char *cpu_list;  /* meters for control connections, NULL */
	int unpaired;	       /* fault: a server from before paired runs
				* (run kinds ignored, never reported) */
	int max_conns;	       /* connections held at once; 0 = the
				* model's default (SRV_MAX_CONNS_*) */
};

struct chat_server;

/* Listen and serve in background threads. NULL with err filled. */
struct chat_server *chat_server_start(const struct chat_server_cfg *c,
				      char *err, size_t len);
int chat_server_port(const struct chat_server *s);
/* Runs the server saw complete. */
unsigned long long chat_server_runs(struct chat_server *s);
/* Connections open now (threads model: their threads not yet ended):
 * 0 once every connection's end has been dealt with. */
int chat_server_conns(struct chat_server *s);
/* Wait, up to timeout_s, until no connection is open (the last run's
 * connections all dealt with, so the next run finds the server empty);
 * the connections still open then, 0 when idle. */
int chat_server_wait_idle(struct chat_server *s, double timeout_s);
/* Stop accepting, close every connection, wait for the threads. */
void chat_server_stop(struct chat_server *s);

/* Start a thread with the small stack (big: CHAT_BIG_STACK, for the
 * loops and meters); 0 or -errno. */
int chat_thread(void *(*fn)(void *), void *arg, int detached, int big,
		void *tid_out);

/*
 * send()/recv() on the per-message paths without glibc's cancellation
 * point (two atomic read-modify-writes on the thread's cancel state per
 * call; chatbench never cancels a thread). Same return and errno.
 */
static inline ssize_t chat_send(int fd, const void *buf, size_t len, int flags)
{
	return syscall(SYS_sendto, fd, buf, len, flags, NULL, 0);
}

static inline ssize_t chat_recv(int fd, void *buf, size_t len, int flags)
{
	return syscall(SYS_recvfrom, fd, buf, len, flags, NULL, 0);
}

/* Zeroed memory aligned to a cache line (free() it); NULL if none. */
void *chat_zalloc(size_t len);
/* Make *buf (of *cap bytes) hold need: from first bytes, doubling. */
void chat_reserve(uint8_t **buf, size_t *cap, size_t need, size_t first);

/* Per-user next-seq arrays in whole cache lines: receivers on different
 * CPUs never share one. */
static inline size_t chat_next_stride(uint32_t users)
{
	return ((size_t)users + 15) & ~(size_t)15;
}

/* Recv/send a whole buffer on a blocking socket: bytes moved (short on
 * EOF), or -errno. */
long chat_recv_full(int fd, void *buf, size_t len);
long chat_send_full(int fd, const void *buf, size_t len);

#endif
