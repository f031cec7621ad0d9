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

#include "ttcp.h"

struct rcv;


/* -t: the setup frame opening a -R, --bidir or -P connection. */
void dir_send_setup(const struct cfg *c, int fd, int flow);

/* -t: one sample of -R or --bidir (its source used by --bidir only). */
void dir_xmit_sample(const struct cfg *c, struct cpuwin *w,
		     struct xfer_source *src, struct sample *s);
/* What a data connection opens with (dir_peek). */
enum dir_open {
	DIR_STREAM, /* a classic stream (nothing taken), or closed at once */
	DIR_SETUP,  /* a setup frame, taken: *st filled */
	DIR_HELLO,  /* a ttcp-sf hello, taken: *h filled (the data of its
		     * sample never came: a connection closed empty) */
};
/*
 * -r: what fd's first bytes are (enum dir_open). A frame is read whole,
 * of any size a frame may have, within timeout_ms, without a busy wait.
 * -1 with why when it is a frame but not a good setup (a field out of
 * range, say), or when it stalls; h NULL: a hello is not expected.
 */
int dir_peek(int fd, int timeout_ms, struct dir_setup *st,
	     struct ctl_hello *h, char *why, size_t len);
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

#endif
