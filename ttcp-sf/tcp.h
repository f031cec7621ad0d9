/*
 * tcp.h: what TCP did in a sample (tcp.c; lib/core/tcpinfo), on both
 * ends of every TCP run: per flow, TCP_INFO at the end of the sample
 * and, with -i, per interval (the counters' differences, the gauges as
 * they stand). The receiver's readings come back in its report. A TCP
 * mode watches its sockets when its data starts (tcp_watch) and reads
 * each one last before it closes it (tcp_done); --crr, a connection per
 * transaction, adds each connection's reading into one (tcp_conn).
 *
 * The tcp part of a sample (mode.h): its lines (the sum of the flows;
 * -P's per-flow lines carry each flow's, tcp_flow_words), the sample's
 * "tcp" object and each flow's in "flows", the remote ones from the
 * report, and the metrics compare judges: tcp_<side>_retrans and
 * tcp_<side>_{rwnd,sndbuf}_limited_pct (lower is better).
 */
#ifndef ZCB_TTCP_TCP_H
#define ZCB_TTCP_TCP_H

#include "mode.h"
#include "tcpinfo.h"

#include <pthread.h>

#define TCP_REPORT_FLOWS 64 /* the report carries each flow's readings for
			     * this many flows at most, else their sum (a
			     * report must fit a peer frame) */

struct tcp_part {
	int n;			/* flows */
	int *fd;		/* their sockets; -1 once read last */
	struct tcpinfo *ti;	/* each flow's last reading (its end once
				 * its socket is done) */
	struct tcpinfo *mark;	/* each flow's at the last interval's end */
	pthread_mutex_t lock;	/* the -i reporter reads while they run */
	struct tcpinfo sum;	/* the report's, for many flows */
};
static inline struct tcp_part *tcp_of(const struct sample *s)
{
	return sample_part(s, &tcp_part);
}

/* The sample's n TCP flows on fds (copied; a flow's fd may be -1: not
 * read live), read now (the intervals' start) and for -i's reporter:
 * the part, made afresh. */
struct tcp_part *tcp_watch(struct sample *s, const int *fds, int n);
/* Flow i's socket is about to close: its last reading (once). */
void tcp_done(struct sample *s, int i);
/* --crr: a connection fd of the sample about to close: its reading
 * added into the one flow (the part made at the first). */
void tcp_conn(struct sample *s, int fd);
/* The sample was none (a connection that closed empty): its facts go,
 * and -i's reporter stops reading them. */
void tcp_drop(struct sample *s);
/* Flow i's facts for -P's per-flow line (" retr 0 cwnd 45 srtt 0.05
 * ms"), "" when the sample has none. */
const char *tcp_flow_words(const struct sample *s, int i, char *b,
			   size_t len);
/* The sum of the flows into *sum; 0 when the sample has no TCP facts. */
int tcp_sum(const struct sample *s, struct tcpinfo *sum);

#endif
