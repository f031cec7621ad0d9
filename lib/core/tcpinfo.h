/*
 * tcpinfo.h: what TCP did on a connection (TCP_INFO), the facts a
 * reviewer asks for beside a rate and that iperf3, flent and ss show:
 * retransmits, RTT, cwnd, the delivery and pacing rates, and how long
 * the sender was busy and how much of that it was held back by the
 * receive window or its own send buffer (chrono stats, Linux 4.10).
 *
 * A reading is a snapshot of one socket; counters (retransmits, bytes,
 * the times) grow over the connection's life, gauges (srtt, cwnd ...)
 * are as they stand. Readings of several flows add into one (counters
 * summed, the window and rates summed, the RTTs averaged or the least);
 * two readings of one flow give an interval's (counters as differences,
 * gauges the later's). Fields an older kernel lacks read as 0. The JSON
 * form is what documents and the peer's report carry; reading it back
 * checks every field's type and range (a peer's report is untrusted).
 * Library code: nothing prints; -errno.
 */
#ifndef ZCB_TCPINFO_H
#define ZCB_TCPINFO_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define TCPINFO_INFINITE 0x7fffffffu /* ssthresh not yet set */

struct tcpinfo {
	uint64_t retrans;	    /* segments retransmitted (total) */
	uint64_t bytes_retrans;	    /* bytes retransmitted */
	uint32_t srtt_us;	    /* smoothed RTT */
	uint32_t rttvar_us;	    /* its variation */
	uint32_t min_rtt_us;	    /* least RTT seen (0: none yet) */
	uint32_t cwnd;		    /* congestion window, segments */
	uint32_t ssthresh;	    /* segments; TCPINFO_INFINITE: unset */
	uint32_t mss;		    /* send MSS, bytes */
	uint64_t delivery_rate;	    /* bytes/s, the last sample's */
	uint64_t pacing_rate;	    /* bytes/s; ~0: not paced */
	uint64_t busy_us;	    /* time with data in flight */
	uint64_t rwnd_limited_us;   /* of it, held by the receive window */
	uint64_t sndbuf_limited_us; /* of it, held by the send buffer */
	uint64_t bytes_acked;	    /* sent and acknowledged (and the
				     * SYN's one, as the kernel counts) */
	uint64_t bytes_received;    /* received */
	uint32_t rcv_rtt_us;	    /* the receiver's RTT estimate */
	uint32_t flows;		    /* readings added into this one */
};

/* fd's TCP_INFO into *t (flows 1): 0, or -errno (-ENOTSOCK, -EOPNOTSUPP
 * for a socket that is not TCP). */
int tcpinfo_read(int fd, struct tcpinfo *t);
/* Add reading t (of another flow, at the same time) into sum (zeroed
 * to start). */
void tcpinfo_add(struct tcpinfo *sum, const struct tcpinfo *t);
/* Chain reading t (of a connection after the ones in sum: --crr's) into
 * sum: counters added, the window, the RTTs and the rates their mean. */
void tcpinfo_chain(struct tcpinfo *sum, const struct tcpinfo *t);
/* The interval from before to now of one flow into *d. */
void tcpinfo_delta(struct tcpinfo *d, const struct tcpinfo *now,
		   const struct tcpinfo *before);
/* A limited time as a percent of the busy time (NAN when never busy). */
double tcpinfo_pct(const struct tcpinfo *t, uint64_t limited_us);

/* The reading as JSON (new reference): retrans, bytes_retrans, srtt_us,
 * rttvar_us, min_rtt_us, cwnd, ssthresh (null: unset), mss,
 * delivery_rate_MBps, pacing_rate_MBps (null: not paced), busy_us,
 * rwnd_limited_us, sndbuf_limited_us, rwnd_limited_pct and
 * sndbuf_limited_pct (null when never busy), bytes_acked,
 * bytes_received, rcv_rtt_us, flows. */
json_t *tcpinfo_json(const struct tcpinfo *t);
/* And back, every field checked: 0, or -EINVAL with err naming the
 * field (a count beyond 2^62, a time beyond a year, a rate beyond
 * 10^14 B/s, a limited time above the busy time are lies). */
int tcpinfo_from_json(json_t *j, struct tcpinfo *t, char *err, size_t len);

/* One line of it: "retr 3 (4.3 KB) srtt 1.20 ms (rttvar 310 us) min rtt
 * 40 us cwnd 45 ssthresh 30 delivery 118.2 MB/s pacing 125.0 MB/s busy
 * 2.00 s: rwnd-limited 0.0%, sndbuf-limited 3.1%" (times under a
 * millisecond in us); terse: "retr 3 cwnd 45 srtt 1.20 ms" (an
 * interval's). Returns buf. */
const char *tcpinfo_line(char *buf, size_t len, const struct tcpinfo *t,
			 int terse);

#endif
