/*
 * dir.h: -R (the receiver sends, iperf3 -R, netperf TCP_MAERTS) and
 * --bidir (both directions at once on the one connection, each reported
 * apart). The transmitter opens such a data connection with a setup
 * frame (a lib/wire/peerrep frame of type "ttcp-sf-setup/1"); the
 * receiver peeks at every data connection's first bytes, so a classic
 * stream (ttcp-sf without -R, or a plain ttcp) is received as before and
 * never loses a byte to the look. Only a stream whose first 8 bytes are
 * a frame's header (the magic and a length up to PEERREP_MAX) is read as
 * a frame.
 */
#ifndef ZCB_TTCP_DIR_H
#define ZCB_TTCP_DIR_H

#include <stdint.h>

#include "mode.h"
#include "ttcp.h"

struct rcv;


/* -t: the setup frame opening a -R, --bidir or -P connection. */
void dir_send_setup(const struct cfg *c, int fd, int flow);

/* -r: the temp pattern file this side sends from (-R), opened once
 * per buffer length. */
struct xfer_source *dir_rcv_source(struct rcv *r, uint64_t buflen, int hot);

/* -R and --bidir's part of a sample (mode.h). */
struct dir_part {
	int dir;		/* 1 -R (the receiver sends), 2 --bidir */
	uint64_t rev_bytes;	/* --bidir: the other direction's bytes */
	double rev_elapsed_s;	/* and their seconds */
};
static inline struct dir_part *dir_part_of(const struct sample *s)
{
	return sample_part(s, &dir_part);
}
/* The part, of direction dir (1 -R, 2 --bidir). */
struct dir_part *dir_add(struct sample *s, int dir);

#endif
