/*
 * rr.h: request/response (--rr, --crr, -u --rr) for both sides of
 * ttcp-sf: netperf's TCP_RR, TCP_CRR and UDP_RR.
 *
 * The transmitter drives. Every data connection (TCP) and the first
 * exchange (UDP) open with a 20-byte setup frame, so the receiver
 * (started with -r --rr) learns the kind and the sizes from it:
 *
 *   "ZCBRR1"  kind (1 byte)  0  request size (u32 BE)  response size
 *
 * TCP_RR: setup, then transactions (REQ bytes out, RESP bytes back) on one
 * connection until the transmitter's half-close. TCP_CRR: a connection
 * per transaction (setup + request, response, the receiver closes); a
 * last connection whose setup is RR_CRR_END ends the sample. UDP_RR: the
 * setup datagram is echoed as its acknowledgement (resent until it is),
 * requests carry a sequence stamp in their first bytes that the response
 * copies (late answers are told from current ones), a request without an
 * answer within --rr-timeout is lost, and an end datagram holding the
 * count sent is echoed too.
 */
#ifndef ZCB_TTCP_RR_H
#define ZCB_TTCP_RR_H

#include <stddef.h>
#include <stdint.h>

#include "mode.h"
#include "ttcp.h"

/* The sequence stamp of UDP requests: its first min(4, size) bytes. */
void rr_stamp_put(unsigned char *b, size_t size, uint64_t seq);
uint32_t rr_stamp_get(const unsigned char *b, size_t size);

/*
 * Whole reads and writes on a socket with SO_RCVTIMEO/SO_SNDTIMEO set:
 * len, a short count at EOF, or -errno (-ETIMEDOUT when the timeout
 * passed). One syscall per step: no poll before it.
 */
ssize_t rr_read_full(int fd, void *buf, size_t len);
ssize_t rr_write_full(int fd, const void *buf, size_t len);

/* --rr's part of a sample (mode.h): what request/response counted. */
struct rr_part {
	int kind;		/* enum rr_kind of the sample */
	uint32_t req, resp;	/* its sizes */
	uint64_t trans;		/* transactions answered (-i reads it) */
	struct hist *lat;	/* -t: their latency in ns (owned) */
	uint64_t lost;		/* UDP: requests without an answer */
	uint64_t late;		/* UDP: answers after their request's timeout */
};
static inline struct rr_part *rr_of(const struct sample *s)
{
	return sample_part(s, &rr_part);
}
/* The part of a sample of kind, sizes req and resp, with -t's latency
 * histogram (lat). */
struct rr_part *rr_add(struct sample *s, int kind, uint32_t req,
		       uint32_t resp, int lat);
/* A sample's figures once its transactions are done, either side: its
 * bytes, a call per transaction, no MSG_ZEROCOPY figure and no loss of
 * the stream kind (-1), and with udp its datagrams' keys. */
void rr_sample_end(struct sample *s, uint64_t bytes, int udp);

/* rr_rcv.c: one sample of the receiver (the rr mode's rcv); -1 when
 * stopped by a signal. rr_xmit.c's transmitter dies on a fault, naming
 * the peer, the phase and the transaction. */
struct rcv;
int rr_rcv_sample(struct rcv *r, const struct rcv_open *o, struct sample *s);
/* rr_out.c: -t's first line, and the metrics of the document. */
void rr_out_header(const struct cfg *c);
void rr_out_metrics(struct res_doc *d);
/* The closing line of -t, with the median of the rates (by: the meter
 * that paired the runs, NULL unpaired). */
void rr_out_summary(const struct cfg *c, double median, int n,
		    const char *by);
/* The receiver's -P --rr: the flows engine answers (flows_side.c). */

#endif
