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

/* rr_xmit.c: one sample of the transmitter; dies on a fault, naming
 * the peer, the phase and the transaction. */
void rr_xmit_sample(const struct cfg *c, struct cpuwin *w, struct sample *s);
/* rr_rcv.c: one sample of the receiver; -1 when stopped by a signal. */
struct rcv;
int rr_rcv_sample(struct rcv *r, int first, struct sample *s);

/* rr_out.c: the lines and the result-sample figures of a sample. */
void rr_out_header(const struct cfg *c);
void rr_out_lines(const char *side, const struct sample *s);
/* The sample's figures, and CPU per transaction printed and stored. */
void rr_out_sample(struct res_doc *d, const struct cfg *c, json_t *j,
		   const struct sample *s, const struct ctl_report *rep,
		   int same_box);
void rr_out_metrics(struct res_doc *d);
/* The closing line of -t, with the median of the rates. */
void rr_out_summary(const struct cfg *c, double median, int n, int paired);
/* -t: the receiver's counts must match ours; dies naming both. */
void rr_check_report(const struct cfg *c, const struct sample *s,
		     const struct ctl_report *rep);
/* The sample's histogram, freed. */
void rr_sample_free(struct sample *s);
/* The case key of a request/response case: workload, sizes, burst. */
void rr_out_params(json_t *params, const struct cfg *c, const struct sample *s);

#endif
