/*
 * server.h: the chat server's inside, shared by its two models
 * (server.c: a reader and a writer thread per connection, as chat_s;
 * server_epoll.c: one event loop). Rooms are keyed by the client run's
 * token and the room number, so one server serves run after run (and
 * several clients at once).
 */
#ifndef ZCB_CHAT_SERVER_H
#define ZCB_CHAT_SERVER_H

#include <pthread.h>
#include <stdint.h>
#include <sys/resource.h>

#include "chat.h"
#include "meter.h"

/* Bytes of messages held for a room (threads: its log) or for one user
 * (epoll: then the room pauses reading). */
#define SRV_QUEUE_MAX	    (256 * 1024)
#define SRV_MAX_CONNS_EPOLL   20000 /* default --max-conns, epoll model */
#define SRV_MAX_CONNS_THREADS 10000 /* threads model: 2 threads each */
/* A JOIN must be whole this soon after the accept (or --timeout, if
 * shorter); a control frame once begun, and a report sent, this soon. */
#define SRV_JOIN_TIMEOUT_MS 10000
#define SRV_CTRL_FRAME_MS   10000

struct srv_room;

struct srv_conn {
	struct chat_server *s;
	int fd;
	char name[64];	       /* peer address, for log lines */
	struct srv_conn *next; /* s->conns (threads model) */
	struct srv_room *room; /* NULL until joined */
	uint16_t user;	       /* index in the room */
	uint32_t sent;	       /* messages this user sent (checked seq) */
	int ctrl;	       /* a control connection */
	double born;	       /* accept time (monotonic s): JOIN deadline */
	struct meterset ms;    /* control: the server's meters */
	int ms_open, ms_started;
	enum chat_run_kind run; /* control: kind of the window's run */
	int holds;		/* control: this box's soakers parked */
	/* threads model */
	uint8_t *q; /* READY/ABORT for the writer, sent first */
	size_t qlen, qcap;
	uint64_t rd;  /* the writer's cursor in the room's log */
	int ready;    /* the writer sent READY: the log may follow */
	int dead;     /* socket gone: drop frames for it */
	int closing;  /* flush the queue, then hang up */
	int draining; /* epoll: FIN sent, reading until EOF */
	int wdead;    /* epoll: sending failed, output dropped */
	pthread_t writer;
	int have_writer;
	uint64_t wprog; /* writer's progress count (idle check) */
	/* epoll model */
	uint8_t *in; /* partial frame being read */
	size_t inlen, incap;
	uint8_t *out; /* frames waiting to be sent */
	size_t outoff, outlen, outcap;
	uint32_t events; /* what epoll waits for now */
	size_t outfrag;	 /* bytes left of the frame being sent */
	int full;	 /* out above SRV_QUEUE_MAX */
	double last;	 /* last activity (monotonic s) */
	int reap;	 /* on the close list */
	struct srv_conn *reap_next;
	char why[320]; /* why it is being closed, "" = EOF */
};

struct srv_room {
	struct srv_room *next;
	uint64_t token;
	uint16_t id;
	struct chat_join shape;
	struct srv_conn **member; /* users slots, NULL until joined */
	uint32_t joined;	  /* slots filled */
	uint32_t live;		  /* members whose connection is open */
	int started;		  /* READY sent to all */
	int aborted;
	uint64_t relayed; /* deliveries queued (frames x targets) */
	/* threads model: the message log (server.c) */
	pthread_mutex_t llock; /* log, head, cursors, member queues */
	pthread_cond_t ldata;  /* writers: something to send */
	pthread_cond_t lspace; /* readers: a slot came free */
	uint8_t *log;	       /* nslots messages of shape.size bytes */
	uint16_t *lsender;     /* the sender of each slot (writers skip
				* their own without reading the slot) */
	uint32_t nslots;
	uint64_t head;	 /* messages appended */
	uint64_t min_rd; /* no live writer is behind this (cache) */
	int lspace_waiters;
	uint32_t nfull; /* epoll: members above SRV_QUEUE_MAX */
	int paused;	/* epoll: not reading from members */
	double t_start; /* READY time */
};

/* How a model sends to a member and hangs it up (the abort path). */
struct srv_ops {
	void (*push)(struct srv_conn *c, const uint8_t *buf, size_t len);
	void (*finish)(struct srv_conn *c); /* hang up once flushed */
};

struct chat_server {
	struct chat_server_cfg cfg;
	const struct srv_ops *ops;
	int lfd; /* listening socket */
	int port;
	int wakefd;	       /* eventfd: stop */
	int epfd;	       /* epoll model: the loop's epoll */
	struct srv_conn *reap; /* epoll model: to close after a batch */
	double now;	       /* epoll model: clock at the last wake-up */
	int stopping;	/* srv_stopping(); set by chat_server_stop */
	pthread_t main;	      /* accept loop or event loop */
	pthread_mutex_t lock; /* rooms, conns, nthreads */
	pthread_cond_t idle;  /* nthreads reached 0 */
	struct srv_room *rooms;
	struct srv_conn *conns;
	int nconns;	     /* open connections (epoll; cap max_conns) */
	int nthreads;	     /* live connection threads (threads) */
	uint64_t runs;	     /* completed runs, for log lines */
	uint64_t broken[64]; /* tokens of runs with a broken room */
	unsigned nbroken;    /* ring index into broken */
	double last_busy;    /* last time a room was joined or left */
	long turned_away;    /* connections refused at max_conns */
	double accept_resume; /* out of descriptors: accept again then */
	double fd_warned;     /* when that was last logged */
	long fd_pauses;	      /* times accept ran out of descriptors */
};

#define SRV_FD_PAUSE_S                                                         \
	0.25 /* out of descriptors (EMFILE): accepts rest this long rather     \
	      * than spin on a listener that stays readable */

/* A new connection fd beyond cfg.max_conns (open connections: n):
 * close it, with a log line now and then naming --max-conns. */
void srv_turn_away(struct chat_server *s, int fd, int n);
/* The JOIN deadline after accept, in seconds. */
double srv_join_timeout(const struct chat_server *s);
/*
 * Is a control connection whose last frame came at `last` idle for good?
 * Silence is allowed while runs are going (a room exists, or one was
 * joined or left within the idle timeout): the client sends STATS_STOP
 * only when its run is over. Takes s->lock.
 */
int srv_ctrl_idle(struct chat_server *s, double last, double now);

/* accept() failed with e: when it ran out of descriptors or memory, set
 * s->accept_resume (and log now and then) and return 1; else 0. */
int srv_accept_failed(struct chat_server *s, int e);

/* Registry, called with s->lock held. */
/* Join c to its room; 1 when the room just became full (send READY),
 * 0 joined, -EINVAL with err filled. */
int srv_join(struct chat_server *s, struct srv_conn *c,
	     const struct chat_hdr *h, const struct chat_join *j, char *err,
	     size_t len);
/* Send READY to every member (room full). */
void srv_ready(struct chat_server *s, struct srv_room *r);
/*
 * c's connection ended. why: NULL for an end of file, else what was
 * wrong. A member that leaves before sending all its messages breaks up
 * the room: the others get ABORT naming it. Returns 1 when the room is
 * empty and was freed (with every member's conn struct: the caller must
 * not touch c any more), 0 otherwise.
 */
int srv_leave(struct chat_server *s, struct srv_conn *c, const char *why);

/*
 * Check one MSG frame from member c: room, sender and the next sequence.
 * 0, or -EINVAL with err filled.
 */
int srv_check_msg(const struct srv_conn *c, const struct chat_hdr *h, char *err,
		  size_t len);
/* Control frame (STATS_START/STOP): *reply (malloc'd) of *rlen bytes or
 * none; 0 or -EINVAL. */
int srv_ctrl(struct chat_server *s, struct srv_conn *c,
	     const struct chat_hdr *h, uint8_t **reply, size_t *rlen, char *err,
	     size_t len);
void srv_conn_free(struct srv_conn *c);
/* Unlink and free a room with every member's conn struct. */
void srv_room_free(struct chat_server *s, struct srv_room *r);

/* The threads model: the accept loop (server_threads.c) and the rooms'
 * logs with each member's writer thread (server_log.c). */
void *srv_threads_main(void *arg);
extern const struct srv_ops srv_threads_ops;
/* Append one message of user to the room's log; waits for room in it. */
void srv_log_append(struct srv_room *r, uint16_t user, const uint8_t *b);
/* The room's message log, when the room is full. 0 or -ENOMEM. */
int srv_log_alloc(struct srv_room *r);
/* A member's writer thread: its queue first, then the log. */
void *srv_writer_main(void *arg);
/* c's socket is gone: its writer stops, it no longer holds the log. */
void srv_set_dead(struct srv_conn *c);

/* The event-loop model: the loop (server_epoll.c) and its output
 * (server_epoll_out.c). */
void *srv_epoll_main(void *arg);
extern const struct srv_ops srv_epoll_ops;
/* What epoll waits for on c: in unless closing or paused, out when
 * something is queued. */
void srv_ep_update(struct srv_conn *c);
/* Pause (on) or resume reading from every member of r. */
void srv_ep_room_pause(struct srv_room *r, int on);
/* Close c after this batch of events; why NULL: an end of file. */
void srv_ep_close_later(struct srv_conn *c, const char *why);
/* Queue len bytes for c (pausing its room when the queue is full). */
void srv_ep_append(struct srv_conn *c, const uint8_t *buf, size_t len);
/* Send what is queued for c. */
void srv_ep_flush(struct srv_conn *c);
/* One message to member m, straight when nothing is queued for it. */
void srv_ep_relay(struct srv_conn *m, const uint8_t *buf, size_t len);

/* s->stopping, read by the accept loop and the connection threads while
 * chat_server_stop sets it (relaxed atomics: no data race). */
static inline int srv_stopping(const struct chat_server *s)
{
	return __atomic_load_n(&s->stopping, __ATOMIC_RELAXED);
}

#endif
