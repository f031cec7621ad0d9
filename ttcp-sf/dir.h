/*
 * dir.h: -R (the receiver sends, iperf3 -R, netperf TCP_MAERTS) and
 * --bidir (both directions at once on the one connection, each reported
 * apart). The transmitter opens such a data connection with a setup
 * frame (a lib/wire/peerrep frame of type "ttcp-sf-setup/1"); the
 * receiver peeks at every data connection's first bytes, so a classic
 * stream (ttcp-sf without -R, or a plain ttcp) is received as before and
 * never loses a byte to the look.
 */
#ifndef ZCB_TTCP_DIR_H
#define ZCB_TTCP_DIR_H

#include <stdint.h>

#include "ttcp.h"

struct rcv;

struct dir_setup {
	int reverse;	 /* -R: the receiver sends, -t receives */
	int bidir;	 /* --bidir: both send */
	uint64_t buflen; /* the sender's -l */
	uint64_t nbuf;	 /* bytes = buflen * nbuf (0: duration) */
	double duration; /* seconds, 0 = by count */
	int hot;		/* -R --hot: send a cache-hot buffer */
	int flows, flow; /* -P: how many, and which this is */
};

/* -t: the setup frame opening a -R, --bidir or -P connection. */
void dir_send_setup(const struct cfg *c, int fd, int flow);

/* -t: one sample of -R or --bidir (its source used by --bidir only). */
void dir_xmit_sample(const struct cfg *c, struct meterset *ms,
		     struct xfer_source *src, struct sample *s);
/*
 * -r: 1 when fd's first frame is a setup (then consumed, *st filled),
 * 0 when it is a classic stream (nothing consumed) or closed at once.
 */
int dir_peek_setup(int fd, int timeout_ms, struct dir_setup *st);
/* -r: one sample of a -R or --bidir connection whose setup came. */
void dir_rcv_sample(struct rcv *r, int fd, const struct dir_setup *st,
		    struct sample *s);
/* The lines and figures: -t -R's first line; --bidir's other
 * direction (a ttcp rate line); its rev_throughput_MBps and raw counts. */
void dir_out_header(const struct cfg *c);
void dir_out_rev(const char *side, const struct cfg *c, const struct sample *s);
void dir_out_sample(struct res_doc *d, json_t *j, const struct sample *s);
/* -r: the temp pattern file this side sends from (-R), opened once
 * per buffer length. */
struct xfer_source *dir_rcv_source(struct rcv *r, uint64_t buflen, int hot);
/* "reverse", "bidir" or "forward": the params' direction. */
const char *dir_name(int reverse, int bidir);

#endif
