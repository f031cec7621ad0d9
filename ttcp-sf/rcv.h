/*
 * rcv.h: what the receiving side's files share (rcv.c, the samples;
 * rcv_accept.c, who may connect): the side's state and the listener.
 */
#ifndef ZCB_TTCP_RCV_H
#define ZCB_TTCP_RCV_H

#include <sys/socket.h>

#include "ttcp.h"

struct rcv {
	const struct cfg *c;
	struct res_doc *d;
	const struct xfer_ops *ops;
	struct cpuwin w;	/* this side's CPU window (-c) */
	int lfd;		/* TCP listener (data and the exchange) */
	int ufd;		/* UDP socket (-u) */
	char me[256], boot[40];
	char peer[64];		/* the transmitter, for messages */
	struct sockaddr_storage tx; /* its address once a hello came */
	int tx_known; /* 1: tx is set (its port is not compared) */
	long strays;  /* stray connections turned away so far */
	struct xfer_source src; /* -R, --bidir: what this side sends */
	int have_src;		/* src is open */
	int sample;		/* the sample under way, 0-based */
	int omit_told;		/* the ends' --omit differ: said */
	int hello_fd;		/* a hello that came at the data accept */
	struct ctl_hello hello;	/* (after a connection closed empty): the
				 * exchange takes it; -1 none */
};

/*
 * The wait for a sample's data connection: --wait for the first,
 * --timeout for the next. A connection that closes without a byte is
 * not the sample (a port probe, or a transmitter that vanished before
 * its first byte): after one, the wait ends within --report-timeout
 * (for the data or the hello of an empty sample), never later than it
 * would have.
 */
struct rcv_wait {
	double deadline;	/* clock_now; 0 = for ever */
	int ms;			/* its length, for messages */
	const char *what;	/* what is waited for (NULL: the sample) */
	char empty[64];		/* the last connection that closed empty */
};
/* what: NULL for a sample's first connection, else what it is ("the
 * next --crr connection"), for the message when none comes. */
void rcv_wait_init(struct rcv_wait *w, int ms, const char *what);
/* The connection just accepted (r->peer) closed without a byte: logged
 * as a stray, and the wait shortened. */
void rcv_wait_empty(struct rcv *r, struct rcv_wait *w);
/* The wait is over: one line naming what was waited for and the phase. */
void rcv_wait_over(const struct rcv *r, const struct rcv_wait *w)
	__attribute__((noreturn));

/* Same host (address only), for TCP connections of one transmitter. */
int rcv_same_host(const struct sockaddr_storage *a,
		  const struct sockaddr_storage *b);
/* Same address and port: one UDP socket of one sender. */
int rcv_same_sender(const struct sockaddr_storage *a,
		    const struct sockaddr_storage *b);
/* A connection that is not the transmitter's: counted, the first few
 * logged. */
void rcv_stray(struct rcv *r, const char *peer, const char *phase,
	       const char *why);
/*
 * Wait for the transmitter's data connection: its fd, 0 when the wait is
 * over, -1 when stopped. Once a hello named the transmitter, connections
 * from other hosts are strays.
 */
int rcv_accept_data(struct rcv *r, const struct rcv_wait *w,
		    const char *phase);
/* The same for the first connection of a sample, which may also be a
 * datagram on the UDP socket: what names what may come (RCV_TCP,
 * RCV_UDP; a UDP socket that could not be opened never comes), and
 * RCV_DGRAM when a datagram waits (not taken). */
#define RCV_TCP	  1u
#define RCV_UDP	  2u
#define RCV_DGRAM (-2)
int rcv_accept_any(struct rcv *r, const struct rcv_wait *w, const char *phase,
		   unsigned what);
/*
 * The report window: the first connection whose first frame is our hello
 * is the transmitter's; others are logged and closed, and the window
 * (report_ms) stays open for the real one. Returns its fd with *h
 * filled (a hello that came at the data accept first), or -1 when no
 * hello came, why saying so (one that stalled mid-frame is named).
 */
int rcv_await_hello(struct rcv *r, struct ctl_hello *h, char *why,
		    size_t len);

#endif
