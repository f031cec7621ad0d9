/*
 * mode.h: ttcp-sf's workloads as tables, in the style of fio's engines
 * and neper's neper_fn: the sides (xmit.c, rcv.c) and the printers
 * (out.c) never test a mode's flags, they call its hooks.
 *
 * A mode is how one sample is made: a stream (TCP), UDP, request/
 * response (--rr, --crr, -u --rr), -R and --bidir, -P flows. The
 * transmitter's options pick one (xmit_match, first in ttcp_modes[]
 * that matches); what the sample opened with picks the receiver's
 * (rcv_match), as netperf's netserver answers what its client asks: a
 * data connection's first bytes (a setup frame, --rr's setup frame, or
 * data), or the first datagram on the UDP socket (UDP_RR's setup, or a
 * UDP stream's start). The receiver's options only limit what it takes
 * (rcv.c: -u UDP only, --rr or --crr request/response only).
 *
 * A part is what a sample carries beyond the common stream figures of
 * struct sample (ttcp.h): request/response's transactions and latencies,
 * -P's per-flow counts, the direction and the other way of -R and
 * --bidir, UDP's datagrams, --rate's target, TCP's facts (TCP_INFO). Parts compose: -P --rr is a flows sample
 * with an rr part and a flows part. Each part's data is defined in its
 * mode's header and reached only there (sample_part); its hooks print
 * it, record it, put it in the hello or the report, check the other
 * side's counts and free it. Every hook of every part is called in the
 * order of ttcp_parts[] (the order the figures always had in the lines,
 * the case's params and the document).
 *
 * To add a mode: its file(s) with its struct ttcp_mode, a line in
 * ttcp_modes[] (mode.c), and a part of its own when its samples carry
 * figures of their own; the options that ask for it in opts.c.
 */
#ifndef ZCB_TTCP_MODE_H
#define ZCB_TTCP_MODE_H

#include "ttcp.h"

struct xmit;
struct rcv;

/* What a sample opened with, on -r (rcv.c's accept and peek): a data
 * connection, or a datagram on the UDP socket. */
struct rcv_open {
	int fd;			/* the connection; -1 for a datagram */
	int setup;		/* it opened with a setup frame: st */
	struct dir_setup st;
	int rr;			/* it opened with --rr's setup frame: su
				 * (TCP: taken; UDP: peeked, still queued) */
	struct rr_setup su;
	int udp;		/* a datagram came (peeked, still queued) */
};

/* Each mode's file defines its mode with the members in this order:
 * name, xmit_match, rcv_match, xmit_open, xmit, rcv, trans. */
struct ttcp_mode {
	const char *name;	/* "stream", "udp", "rr", "dir", "flows" */
	/* -t: the options ask for this mode */
	int (*xmit_match)(const struct cfg *c);
	/* -r: this mode takes the sample that opened with o */
	int (*rcv_match)(const struct cfg *c, const struct rcv_open *o);
	/* -t: the lines before the first sample, what the samples share
	 * (the source) */
	void (*xmit_open)(struct xmit *t);
	/* -t: one sample */
	void (*xmit)(struct xmit *t, struct sample *s);
	/* -r: one sample; 0, -1 when a signal stopped it, 1 when the
	 * connection closed without a byte (not a sample: a port probe, or
	 * a transmitter gone before its first byte) */
	int (*rcv)(struct rcv *r, const struct rcv_open *o, struct sample *s);
	int trans;	/* its -i counter counts transactions (--rr) */
};

/* The modes, in the order the transmitter's options are tried. */
extern const struct ttcp_mode *const ttcp_modes[];
extern const struct ttcp_mode ttcp_stream_mode, ttcp_udp_mode, ttcp_rr_mode,
	ttcp_dir_mode, ttcp_flows_mode;
/* -t's mode for the options (the stream when nothing else matches). */
const struct ttcp_mode *ttcp_xmit_mode(const struct cfg *c);
/* -r's mode for what the sample opened with. */
const struct ttcp_mode *ttcp_rcv_mode(const struct cfg *c,
				      const struct rcv_open *o);

struct ttcp_part {
	const char *name;	/* "rr", "dir", "flows" */
	size_t size;		/* its data (zeroed by sample_add) */
	int counts_trans;	/* the sample's rate and -i count
				 * transactions, not bytes */
	/* its rate lines (counts_trans: instead of ttcp's two) */
	void (*lines)(const char *side, const struct cfg *c,
		      const struct sample *s);
	/* counts_trans: the sample's transactions (its rate, -i's count) */
	uint64_t (*count)(const struct sample *s);
	/* what it adds to a case's params, and to a result sample */
	void (*params)(json_t *params, const struct cfg *c,
		       const struct sample *s);
	void (*doc)(struct res_doc *d, const struct cfg *c, json_t *j,
		    const struct sample *s, const struct ctl_report *rep,
		    int same_box);
	/* its counts into the hello (-t: h) or the report (-r: rep) */
	void (*counts)(struct ctl_hello *h, struct ctl_report *rep,
		       const struct sample *s);
	/* the other side's counts against this side's: dies naming both */
	void (*check_report)(const struct cfg *c, const struct sample *s,
			     const struct ctl_report *rep);
	void (*check_hello)(const struct rcv *r, const struct ctl_hello *h,
			    const struct sample *s);
	/* -r: the sample's closing line, in place of the stream's (method:
	 * the transmitter's, from its hello) */
	void (*closing)(const struct rcv *r, const struct sample *s,
			const char *method, int same);
	/* -r: what the transmitter's hello brings to the sample (a part
	 * the sample gets from it: a forward stream's --rate); called for
	 * every part the sample does not have yet */
	void (*hello)(struct sample *s, const struct ctl_hello *h);
	/* 1 when the sample's bytes went the other way (-R: the receiver
	 * sent them) */
	int (*reverse)(const struct sample *s);
	/* what its data holds besides itself (a histogram, arrays) */
	void (*free)(void *data);
};

/* The parts, in the order their hooks are called. */
extern const struct ttcp_part *const ttcp_parts[];
extern const struct ttcp_part rr_part, flows_part, dir_part, udp_part,
	rate_part, tcp_part;

/* The part p of s, added (its data zeroed) or found; sample_part is NULL
 * when s has no such part. */
void *sample_add(struct sample *s, const struct ttcp_part *p);
void *sample_part(const struct sample *s, const struct ttcp_part *p);
/* The part p of s, freed (a connection that closed empty was no
 * sample: what it added goes). */
void sample_drop(struct sample *s, const struct ttcp_part *p);
/* The part whose counts are transactions, NULL for a stream. */
const struct ttcp_part *sample_trans_part(const struct sample *s);
/* The sample's rate: transactions/s (a part that counts them), else
 * MB/s; its count: transactions, else bytes. */
double sample_rate(const struct sample *s);
uint64_t sample_count(const struct sample *s);
/* 1 when a part says the sample's bytes went the other way (-R). */
int sample_reverse(const struct sample *s);
/* Its parts' data and the common owned figures, freed. */
void sample_free(struct sample *s);

#endif
