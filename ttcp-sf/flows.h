/*
 * flows.h: -P N: N connections of one sample, driven by T threads
 * (--threads, default 1), each an epoll loop over its share of the
 * flows (neper's model). Both sides use it: the transmitter's stream
 * (FL_TX) or request/response client (FL_RR), the receiver's stream
 * (FL_RX) or request/response server (FL_RRS). Every socket is
 * non-blocking; every wait is bounded by --timeout.
 */
#ifndef ZCB_TTCP_FLOWS_H
#define ZCB_TTCP_FLOWS_H

#include <stdint.h>

#include "dir.h"
#include "mode.h"
#include "ttcp.h"


enum flow_kind { FL_TX, FL_RX, FL_RR, FL_RRS };

struct flow {
	int fd;		   /* the connection (-1 once closed) */
	struct xfer *x;	   /* streams: the method on it */
	int state;	   /* running, draining (sent all, waiting for
			    * the peer's close), done */
	uint64_t bytes;	   /* payload moved */
	uint64_t pos;	   /* FL_TX: offset in the source */
	uint64_t trans;	   /* FL_RR, FL_RRS: transactions */
	uint64_t t0;	   /* FL_RR: this transaction's start, ns */
	size_t io;	   /* FL_RR, FL_RRS: bytes of the message so far */
	int writing;	   /* FL_RR, FL_RRS: the message is ours */
	double start;	   /* FL_RX: when its first bytes came (0: none) */
	double end;	   /* when it was done (clock_now) */
	int err;	   /* -errno, or -EPIPE: closed early */
	const char *phase; /* where err happened */
	struct hist *lat;  /* FL_RR: its thread's histogram */
};

struct flows {
	enum flow_kind kind;
	int n, threads;
	struct flow *f;	      /* n flows, connected, setup sent/read */
	uint64_t want;	      /* per flow: bytes or transactions; 0 =
			       * until the deadline */
	uint64_t deadline_ns; /* clock_ns; 0 = none */
	uint64_t hard_ns;     /* -t --duration: every flow still running
			       * then is cut (-ETIME); 0 = none */
	int timeout_ms;
	size_t unit;	    /* streams: bytes per call */
	uint32_t req, resp; /* request/response sizes */
	double t0;	    /* the start, clock_now */
	struct hist *lat;   /* FL_RR: every flow's latencies (merged) */
	uint64_t progress;  /* bytes or transactions so far, all flows
			     * (atomic: -i reads it) */
	/* called before flow i's socket closes, or when it is done if
	 * that comes first (its last TCP_INFO); from the flow's thread.
	 * NULL: nothing */
	void (*closing)(void *arg, int i);
	void *closing_arg;
};

/* Run every flow to its end. 0, or -errno with err naming the first
 * flow that failed and its phase. Sockets are closed at their end. */
int flows_run(struct flows *fs, char *err, size_t len);

/* flows_side.c: the sides' samples (the flows mode, mode.h) and -P's
 * part of a sample. */
/* -r: a -P sample on fds[0..n) (fds[i] is flow i, its setup read);
 * kind FL_RX (a stream, read with -m), FL_TX (-R: sent from this side's
 * temp file as st says) or FL_RRS (--rr; st NULL). */
struct rcv;
void flows_rcv_sample(struct rcv *r, int *fds, int n, enum flow_kind kind,
		      uint32_t req, uint32_t resp, const struct dir_setup *st,
		      struct sample *s);
/* -r: the other flows of a stream whose first connection (fd, setup
 * st) came: fds[st->flows] in flow order (malloc'd); dies when they do
 * not all come within --timeout or a setup disagrees. */
int *flows_accept(struct rcv *r, int fd, const struct dir_setup *st);
/* -P's part of a sample: per flow, its bytes (or transactions) and
 * seconds. */
struct flows_part {
	int n;			/* flows */
	uint64_t *count;	/* n counts (owned) */
	double *secs;		/* n durations (owned) */
};
static inline struct flows_part *flows_of(const struct sample *s)
{
	return sample_part(s, &flows_part);
}
/* -r: room for n more connections (the soft fd limit raised up to the
 * hard one). */
void flows_raise_fds(int n);
/* Jain's index of x[0..n): (sum x)^2 / (n sum x^2), 1 = fair. */
double flows_jain(const double *x, int n);
#endif
